//! What an agent *does* with a hook's answer, and running a hook the way
//! each agent runs it.
//!
//! * [`predict`] (the behaviour reader): given an agent, a native event and
//!   the hook's wire answer ([`Answer`]: stdout, stderr, exit code, or a
//!   timeout/crash), the [`Effect`] on that agent (tool blocked, runs, asks,
//!   prompt blocked, context injected, ...), the text the model and the user
//!   are shown, and [`Warning`]s for answers the agent ignores or misreads.
//!   The per-agent facts are one file per agent in `simulate/agents/`
//!   (beside, not inside, `dialect/<agent>.rs`: the readers of Claude Code
//!   and Codex reuse the host side's (`host/decode_claude.rs`,
//!   `host/decode_codex.rs`), and the host depends on the dialects).
//! * [`simulate`](run::simulate) (in [`run`]): builds each agent's payload for
//!   a [`Scenario`], runs the hook command as that agent would (argv, hook
//!   environment, stdin, default timeout; [`HookInvocation`]) through the
//!   host's child runner, and predicts the effect of what came back.
//!
//! The in-process agents (OpenCode, OpenClaw) have no hook process: their
//! hooks are our plugin's handlers, and the "answer" read here is the
//! action object our plugin layer applies (`{"throw": ...}`, `{"args":
//! ...}`, `{"block": true, ...}`, ...), the same JSON `agenthooks run
//! --provider=opencode` prints for one plugin frame on stdin. `simulate`
//! runs the hook command that way (exec-style, one frame on stdin); the
//! plugin's bridge sends the same frame over `agenthooks serve`.
//!
//! Vectors: `fixtures/simulate/<agent>.json` (research) and
//! `fixtures/simulate/observed/<agent>.json` (observed on the real agents).

mod agents;
pub mod corpus;
pub mod json;
pub mod run;
pub mod scenario;
pub mod table;
pub mod verdict;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::model::{Kind, Provider};

pub use run::{Outcome, SimulateOptions, answer_with, route, simulate};
pub use scenario::{Scenario, ToolClass};
pub use verdict::{Assertion, Offense, Verdict, verdict};

/// What the agent does with the answer. Stable snake_case names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// The tool runs as it would have anyway (the agent's own permission
    /// flow decides).
    ToolRuns,
    /// The answer approved the call: the tool runs and the user is not asked.
    ToolRunsWithoutPrompt,
    /// The tool runs with the hook's replacement input.
    ToolRunsWithInputRewritten,
    /// The tool call does not run.
    ToolBlocked,
    /// The agent asks the user to approve the call.
    AsksUser,
    /// The user's prompt is not sent to the model.
    PromptBlocked,
    /// The prompt goes to the model unchanged.
    PromptContinues,
    /// The prompt goes to the model replaced by the hook's text.
    PromptRewritten,
    /// The hook's text is added to the model's context (no other effect).
    ContextInjected,
    /// A stop was blocked: the agent keeps working.
    AgentContinues,
    /// The agent stops (a stop hook let it, or the hook halted it).
    AgentStops,
    /// The tool result the model sees is replaced by the hook's text.
    OutputReplaced,
    /// Nothing changes.
    NoEffect,
}

impl Effect {
    /// Every effect, in declaration order.
    pub const ALL: [Effect; 13] = [
        Effect::ToolRuns,
        Effect::ToolRunsWithoutPrompt,
        Effect::ToolRunsWithInputRewritten,
        Effect::ToolBlocked,
        Effect::AsksUser,
        Effect::PromptBlocked,
        Effect::PromptContinues,
        Effect::PromptRewritten,
        Effect::ContextInjected,
        Effect::AgentContinues,
        Effect::AgentStops,
        Effect::OutputReplaced,
        Effect::NoEffect,
    ];

    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::ToolRuns => "tool_runs",
            Effect::ToolRunsWithoutPrompt => "tool_runs_without_prompt",
            Effect::ToolRunsWithInputRewritten => "tool_runs_with_input_rewritten",
            Effect::ToolBlocked => "tool_blocked",
            Effect::AsksUser => "asks_user",
            Effect::PromptBlocked => "prompt_blocked",
            Effect::PromptContinues => "prompt_continues",
            Effect::PromptRewritten => "prompt_rewritten",
            Effect::ContextInjected => "context_injected",
            Effect::AgentContinues => "agent_continues",
            Effect::AgentStops => "agent_stops",
            Effect::OutputReplaced => "output_replaced",
            Effect::NoEffect => "no_effect",
        }
    }

    /// Parses a snake_case name.
    pub fn parse(s: &str) -> Option<Effect> {
        Effect::ALL.into_iter().find(|e| e.as_str() == s)
    }

    /// Whether the effect stops the action the event is about (a tool
    /// call, a prompt): what a guard wants.
    pub fn is_block(self) -> bool {
        matches!(self, Effect::ToolBlocked | Effect::PromptBlocked)
    }
}

/// Why an answer is suspect on an agent. Stable snake_case names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WarningCode {
    /// An allow with nothing else on an event where this agent reads allow
    /// as "skip the user's approval".
    EmptyAllow,
    /// JSON on stderr, where the agent reads stdout only.
    JsonOnStderr,
    /// stderr is read as the answer because stdout is empty (Gemini).
    StderrReadAsAnswer,
    /// stdout JSON on an exit code where the agent ignores stdout.
    JsonIgnoredOnExit,
    /// stdout is JSON-looking but invalid, or not an object.
    InvalidJson,
    /// Plain text where the agent expects JSON (shown, injected or ignored).
    PlainTextStdout,
    /// Raw stdout goes to the model verbatim (Kimi `UserPromptSubmit`).
    StdoutInjectedVerbatim,
    /// A field the agent does not know on this event (Codex: the run fails).
    UnknownField,
    /// A known field the agent ignores on this event.
    IgnoredField,
    /// A decision the agent cannot express here.
    UnsupportedDecision,
    /// A block without a reason (a generic text, or the run fails).
    MissingReason,
    /// The block reason the hook gave is not what the model sees.
    ReasonDropped,
    /// The agent counts the run as a hook error.
    HookFailed,
    /// The run failed and the action goes ahead.
    FailOpen,
    /// The run failed and the agent blocks anyway.
    FailClosed,
    /// The hook ran past the agent's timeout.
    TimedOut,
    /// The hook did not exit normally (signal, could not start).
    Crashed,
    /// A blocking exit code the agent does not honour on this event.
    ExitCodeIgnored,
    /// The answer would hang the agent in headless runs (Gemini `ask`).
    HangsHeadless,
}

impl WarningCode {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            WarningCode::EmptyAllow => "empty_allow",
            WarningCode::JsonOnStderr => "json_on_stderr",
            WarningCode::StderrReadAsAnswer => "stderr_read_as_answer",
            WarningCode::JsonIgnoredOnExit => "json_ignored_on_exit",
            WarningCode::InvalidJson => "invalid_json",
            WarningCode::PlainTextStdout => "plain_text_stdout",
            WarningCode::StdoutInjectedVerbatim => "stdout_injected_verbatim",
            WarningCode::UnknownField => "unknown_field",
            WarningCode::IgnoredField => "ignored_field",
            WarningCode::UnsupportedDecision => "unsupported_decision",
            WarningCode::MissingReason => "missing_reason",
            WarningCode::ReasonDropped => "reason_dropped",
            WarningCode::HookFailed => "hook_failed",
            WarningCode::FailOpen => "fail_open",
            WarningCode::FailClosed => "fail_closed",
            WarningCode::TimedOut => "timed_out",
            WarningCode::Crashed => "crashed",
            WarningCode::ExitCodeIgnored => "exit_code_ignored",
            WarningCode::HangsHeadless => "hangs_headless",
        }
    }

    /// Parses a snake_case name.
    pub fn parse(s: &str) -> Option<WarningCode> {
        serde_json::from_value(Value::String(s.to_string())).ok()
    }
}

/// Every warning code's name.
pub const WARNING_NAMES: &[&str] = &[
    "empty_allow",
    "json_on_stderr",
    "stderr_read_as_answer",
    "json_ignored_on_exit",
    "invalid_json",
    "plain_text_stdout",
    "stdout_injected_verbatim",
    "unknown_field",
    "ignored_field",
    "unsupported_decision",
    "missing_reason",
    "reason_dropped",
    "hook_failed",
    "fail_open",
    "fail_closed",
    "timed_out",
    "crashed",
    "exit_code_ignored",
    "hangs_headless",
];

/// One warning: a code and a sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// Stable code.
    pub code: WarningCode,
    /// What happens, in words.
    pub message: String,
}

/// A hook's answer as the agent got it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// stdout (text).
    #[serde(default)]
    pub stdout: String,
    /// stderr (text).
    #[serde(default)]
    pub stderr: String,
    /// Exit code; `None`: killed by a signal, timed out, or never started.
    #[serde(default = "exit_zero")]
    pub exit: Option<i32>,
    /// The hook ran past the agent's timeout and was killed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
}

fn exit_zero() -> Option<i32> {
    Some(0)
}

impl Answer {
    /// An exit-0 answer with this stdout.
    pub fn stdout(s: impl Into<String>) -> Answer {
        Answer {
            stdout: s.into(),
            exit: Some(0),
            ..Answer::default()
        }
    }

    /// An answer with this exit code and stderr.
    pub fn exit(code: i32, stderr: impl Into<String>) -> Answer {
        Answer {
            stderr: stderr.into(),
            exit: Some(code),
            ..Answer::default()
        }
    }

    /// The answer as the host runner's [`RawRun`](crate::host::runner::RawRun).
    pub(crate) fn raw_run(&self) -> crate::host::runner::RawRun {
        crate::host::runner::RawRun {
            exit_code: if self.timed_out { None } else { self.exit },
            stdout: self.stdout.clone(),
            stderr: self.stderr.clone(),
            timed_out: self.timed_out,
            ..Default::default()
        }
    }
}

/// What the agent does with one answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// The agent.
    pub agent: Provider,
    /// The native event.
    pub event: String,
    /// The unified kind of the event.
    pub kind: Kind,
    /// What the agent does.
    pub effect: Effect,
    /// The decision the agent read (`allow`, `deny`, `ask`, `block`,
    /// `continue`, `stop`, ...), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<String>,
    /// The text the model is shown (reason, context, instruction).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_sees: Option<String>,
    /// The text the user is shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_sees: Option<String>,
    /// The replacement tool input, on `tool_runs_with_input_rewritten`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    /// Answers the agent ignores or misreads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

impl Prediction {
    /// Whether a warning with this code was raised.
    pub fn has_warning(&self, code: WarningCode) -> bool {
        self.warnings.iter().any(|w| w.code == code)
    }
}

/// Builds a prediction: the effect of "no opinion" on the event's kind,
/// refined by the reader.
pub(crate) struct Reading {
    p: Prediction,
}

impl Reading {
    pub(crate) fn new(agent: Provider, event: &str) -> Reading {
        let kind = crate::dialect::kind_of(agent, event);
        Reading {
            p: Prediction {
                agent,
                event: event.to_string(),
                kind,
                effect: pass_effect(kind),
                decision: None,
                model_sees: None,
                user_sees: None,
                updated_input: None,
                warnings: Vec::new(),
            },
        }
    }

    pub(crate) fn kind(&self) -> Kind {
        self.p.kind
    }

    pub(crate) fn effect(&mut self, e: Effect) -> &mut Self {
        self.p.effect = e;
        self
    }

    pub(crate) fn current(&self) -> Effect {
        self.p.effect
    }

    pub(crate) fn decision(&mut self, d: &str) -> &mut Self {
        self.p.decision = Some(d.to_string());
        self
    }

    pub(crate) fn model(&mut self, s: impl Into<String>) -> &mut Self {
        let s = s.into();
        if !s.trim().is_empty() {
            self.p.model_sees = Some(match self.p.model_sees.take() {
                Some(prev) => format!("{prev}\n\n{s}"),
                None => s,
            });
        }
        self
    }

    /// Replaces the model's text (the agent's own wrapping of a reason).
    pub(crate) fn set_model(&mut self, s: String) -> &mut Self {
        self.p.model_sees = Some(s);
        self
    }

    pub(crate) fn model_text(&self) -> Option<&str> {
        self.p.model_sees.as_deref()
    }

    pub(crate) fn user(&mut self, s: impl Into<String>) -> &mut Self {
        let s = s.into();
        if !s.trim().is_empty() {
            self.p.user_sees = Some(match self.p.user_sees.take() {
                Some(prev) => format!("{prev}\n{s}"),
                None => s,
            });
        }
        self
    }

    pub(crate) fn input(&mut self, v: Value) -> &mut Self {
        self.p.updated_input = Some(v);
        self
    }

    pub(crate) fn warn(&mut self, code: WarningCode, message: impl Into<String>) -> &mut Self {
        if !self.p.warnings.iter().any(|w| w.code == code) {
            self.p.warnings.push(Warning {
                code,
                message: message.into(),
            });
        }
        self
    }

    /// Context for the model: `context_injected` unless another effect
    /// (a block, a rewrite) already holds.
    pub(crate) fn context(&mut self, s: &str) -> &mut Self {
        if s.trim().is_empty() {
            return self;
        }
        self.model(s.to_string());
        if self.p.effect == pass_effect(self.p.kind) && !is_gate(self.p.kind) {
            self.p.effect = Effect::ContextInjected;
        }
        self
    }

    /// The event's gating action (a block), by kind.
    pub(crate) fn block(&mut self, reason: Option<&str>) -> &mut Self {
        let e = block_effect(self.p.kind);
        self.p.effect = e;
        if let Some(r) = reason.filter(|r| !r.trim().is_empty()) {
            match e {
                Effect::PromptBlocked => self.user(r.to_string()),
                _ => self.model(r.to_string()),
            };
        }
        self
    }

    /// A failed run: the action goes ahead.
    pub(crate) fn failed_open(&mut self, why: &str) -> &mut Self {
        self.p.effect = pass_effect(self.p.kind);
        self.warn(WarningCode::HookFailed, why.to_string());
        self.warn(
            WarningCode::FailOpen,
            "the agent ignores a failed hook run and goes ahead",
        )
    }

    pub(crate) fn done(self) -> Prediction {
        self.p
    }
}

/// Whether an event kind gates an action (its pass is "the action goes on").
fn is_gate(kind: Kind) -> bool {
    matches!(kind, Kind::ToolPre | Kind::PermissionRequest)
}

/// The effect of "no opinion" on an event kind.
pub fn pass_effect(kind: Kind) -> Effect {
    match kind {
        Kind::ToolPre | Kind::PermissionRequest => Effect::ToolRuns,
        Kind::PromptSubmitted => Effect::PromptContinues,
        Kind::AgentStop | Kind::SubagentStop => Effect::AgentStops,
        _ => Effect::NoEffect,
    }
}

/// The effect of the event's gating action (a block) on an event kind.
pub fn block_effect(kind: Kind) -> Effect {
    match kind {
        Kind::ToolPre | Kind::PermissionRequest | Kind::SubagentStart => Effect::ToolBlocked,
        Kind::PromptSubmitted => Effect::PromptBlocked,
        Kind::AgentStop | Kind::SubagentStop => Effect::AgentContinues,
        Kind::ToolPost | Kind::ToolError => Effect::ContextInjected,
        _ => Effect::NoEffect,
    }
}

/// How an agent starts a command hook: the facts `simulate` acts out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct HookInvocation {
    /// The shell the configured command string is handed to (`["sh",
    /// "-c"]`), empty when the agent runs no process (in-process plugins:
    /// `simulate` runs the command through `sh -c` with one plugin frame).
    pub shell: &'static [&'static str],
    /// Variables the agent sets for hooks: name and where the value comes
    /// from (`project_dir`, `session_id`, `version`, or a literal after
    /// `=`).
    pub env: &'static [(&'static str, &'static str)],
    /// The agent's default hook timeout, in milliseconds.
    pub default_timeout_ms: u64,
    /// Whether the agent reads stderr as (part of) the answer.
    pub reads_stderr_as_answer: bool,
    /// In-process plugin agent (no hook process of its own).
    pub in_process: bool,
}

/// The invocation facts of an agent.
pub fn invocation(agent: Provider) -> &'static HookInvocation {
    match agent {
        Provider::ClaudeCode => &agents::claude::HOOKS,
        Provider::Codex => &agents::codex::HOOKS,
        Provider::Cursor => &agents::cursor::HOOKS,
        Provider::Gemini => &agents::gemini::HOOKS,
        Provider::KimiCode => &agents::kimi::HOOKS,
        Provider::Copilot => &agents::copilot::HOOKS,
        Provider::Opencode => &agents::opencode::HOOKS,
        Provider::Openclaw => &agents::openclaw::HOOKS,
    }
}

/// The reader of an agent.
type Reader = fn(&str, Option<&str>, &Answer) -> Prediction;

fn reader(agent: Provider) -> Reader {
    match agent {
        Provider::ClaudeCode => agents::claude::read,
        Provider::Codex => agents::codex::read,
        Provider::Cursor => agents::cursor::read,
        Provider::Gemini => agents::gemini::read,
        Provider::KimiCode => agents::kimi::read,
        Provider::Copilot => agents::copilot::read,
        Provider::Opencode => agents::opencode::read,
        Provider::Openclaw => agents::openclaw::read,
    }
}

/// The session the answer lands in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A user at the terminal: an `ask` asks, an `allow` skips a prompt.
    #[default]
    Interactive,
    /// A non-interactive run (`-p`, `exec`) with the tool permitted, as
    /// tier 2 observes the agents: nobody can be asked, so each agent's
    /// headless answer to `ask` applies (Claude Code and Copilot deny,
    /// OpenClaw denies at once, Gemini hangs), and "runs without a prompt"
    /// is just "runs".
    Headless,
}

/// The agent's shell tool (the default `tool` of a tool event).
pub fn shell_tool(agent: Provider) -> &'static str {
    match agent {
        Provider::ClaudeCode | Provider::Codex | Provider::KimiCode => "Bash",
        Provider::Cursor => "Shell",
        Provider::Gemini => "run_shell_command",
        Provider::Copilot | Provider::Opencode => "bash",
        Provider::Openclaw => "exec",
    }
}

/// What `agent` does with `answer` on its native event `event`, in an
/// interactive session. `tool` is the native tool name the event is about
/// (default: the agent's shell tool); it matters for Codex's `updatedInput`
/// rules, Cursor's MCP output replacement and the model's text.
pub fn predict(agent: Provider, event: &str, tool: Option<&str>, answer: &Answer) -> Prediction {
    predict_in(agent, event, tool, answer, Mode::Interactive)
}

/// [`predict`] in a given [`Mode`].
pub fn predict_in(
    agent: Provider,
    event: &str,
    tool: Option<&str>,
    answer: &Answer,
    mode: Mode,
) -> Prediction {
    let tool = tool.or(Some(shell_tool(agent)));
    let mut p = reader(agent)(event, tool, answer);
    common_warnings(&mut p, answer, invocation(agent));
    if mode == Mode::Headless {
        headless(&mut p);
    }
    p
}

/// What an interactive effect becomes in a headless run.
fn headless(p: &mut Prediction) {
    match p.effect {
        Effect::ToolRunsWithoutPrompt => p.effect = Effect::ToolRuns,
        Effect::AsksUser => match p.agent {
            Provider::ClaudeCode => {
                // `-p`: ask acts as deny; the model gets the bare reason.
                p.effect = Effect::ToolBlocked;
                p.model_sees = p.user_sees.take();
            }
            Provider::Copilot => {
                p.effect = Effect::ToolBlocked;
                let r = p.user_sees.take().unwrap_or_default();
                p.model_sees = Some(format!(
                    "Denied by preToolUse hook (unable to ask user for confirmation): {r}"
                ));
            }
            Provider::Openclaw => {
                p.effect = Effect::ToolBlocked;
                p.model_sees = Some(
                    "Plugin approval unavailable: non-interactive CLI runs have no \
                     approval-capable initiating surface."
                        .into(),
                );
            }
            // Gemini hangs (warned `hangs_headless`); Cursor: unknown.
            _ => {}
        },
        _ => {}
    }
}

/// Warnings every agent shares: a timeout, a crash, JSON on stderr where
/// stderr is not the answer.
fn common_warnings(p: &mut Prediction, answer: &Answer, hooks: &HookInvocation) {
    let mut r = Reading { p: p.clone() };
    if answer.timed_out {
        r.warn(
            WarningCode::TimedOut,
            "the hook ran past the agent's timeout and was killed",
        );
    } else if answer.exit.is_none() {
        r.warn(WarningCode::Crashed, "the hook did not exit normally");
    }
    if !hooks.reads_stderr_as_answer
        && answer.stdout.trim().is_empty()
        && looks_like_json_object(&answer.stderr)
    {
        r.warn(
            WarningCode::JsonOnStderr,
            "stderr holds JSON, but this agent reads the answer from stdout",
        );
    }
    *p = r.done();
}

/// Whether text is a JSON object.
pub(crate) fn looks_like_json_object(s: &str) -> bool {
    matches!(
        serde_json::from_str::<Value>(s.trim()),
        Ok(Value::Object(_))
    )
}

/// stdout as a JSON object, if it is one.
pub(crate) fn json_object(s: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str::<Value>(s.trim()) {
        Ok(Value::Object(m)) => Some(m),
        _ => None,
    }
}

/// A string field (non-blank).
pub(crate) fn text<'m>(m: &'m Map<String, Value>, k: &str) -> Option<&'m str> {
    m.get(k)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// The `hookSpecificOutput` object, if any.
pub(crate) fn hso(m: &Map<String, Value>) -> Option<&Map<String, Value>> {
    m.get("hookSpecificOutput").and_then(Value::as_object)
}

/// The Claude Code / Codex reading: the host side's decoded output of one
/// run, as an effect.
pub(crate) fn from_host(
    agent: Provider,
    event: &str,
    tool: Option<&str>,
    answer: &Answer,
) -> (Reading, crate::host::output::HookOutput) {
    use crate::host::matcher::Dialect;
    use crate::host::output::{DecodeCtx, HookDecision, OutputStatus};
    let dialect = if agent == Provider::Codex {
        Dialect::Codex
    } else {
        Dialect::ClaudeCode
    };
    let ctx = DecodeCtx {
        tool_name: tool,
        ..DecodeCtx::default()
    };
    let out = crate::host::decode(dialect, event, &answer.raw_run(), &ctx);
    let mut r = Reading::new(agent, event);
    let why = out.error.clone().unwrap_or_default();
    match out.status {
        OutputStatus::TimedOut | OutputStatus::SpawnError | OutputStatus::Failed => {
            r.failed_open(&why);
        }
        OutputStatus::NonBlockingError if out.decision.is_none() => {
            r.failed_open(&why);
        }
        _ => {}
    }
    if let Some(m) = &out.system_message {
        r.user(m.clone());
    }
    if let Some(c) = &out.context {
        r.context(c);
    }
    let reason = out.reason.as_deref();
    match out.decision {
        Some(HookDecision::Deny) => {
            r.decision("deny").block(reason);
        }
        Some(HookDecision::Block) => {
            r.decision("block").block(reason);
            if r.kind() == Kind::PromptSubmitted {
                // The prompt is erased; the reason is the user's.
            }
        }
        Some(HookDecision::Ask) => {
            r.decision("ask").effect(Effect::AsksUser);
            if let Some(s) = reason {
                r.user(s.to_string());
            }
        }
        Some(HookDecision::Defer) => {
            r.decision("defer").effect(Effect::AgentStops);
        }
        Some(HookDecision::Allow) => {
            r.decision("allow");
            if is_gate(r.kind()) {
                r.effect(Effect::ToolRunsWithoutPrompt);
                if let Some(s) = reason {
                    r.user(s.to_string());
                }
                if out.updated_input.is_none() && reason.is_none() {
                    r.warn(
                        WarningCode::EmptyAllow,
                        "a bare allow skips the user's approval for this call",
                    );
                }
            }
        }
        None => {}
    }
    let denied = matches!(out.decision, Some(HookDecision::Deny | HookDecision::Block));
    if let (Some(u), false) = (&out.updated_input, denied) {
        r.effect(Effect::ToolRunsWithInputRewritten)
            .input(Value::Object(u.clone()));
    }
    if let Some(v) = &out.updated_tool_output {
        r.effect(Effect::OutputReplaced)
            .model(crate::capability::value_text(v));
    }
    if let Some(s) = &out.stop {
        r.decision("stop").effect(Effect::AgentStops);
        if let Some(t) = &s.reason {
            r.user(t.clone());
        }
    }
    if out.interrupt {
        r.effect(Effect::AgentStops);
    }
    (r, out)
}
