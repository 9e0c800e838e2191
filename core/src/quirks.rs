//! Machine-readable registry of agent quirks: every row of the quirk table
//! in each protocol doc (`docs/protocols/<agent>.md`, §7 or the doc's
//! "Known quirks" section), in our own words.
//!
//! Ids are `<provider id>/<n>`, `n` being the row's number in the doc's
//! table; tables without numbers (Cursor §6.2, Gemini §6, OpenCode §6,
//! OpenClaw §6) are numbered here in table order. A fixture pins a quirk by
//! naming it in its description (`quirk <n>`, `<provider>/<n>` or
//! `§<section> #<n>`); see `core/tests/quirks_fixtures.rs`.
//! `docs/quirks.md` is generated from [`markdown`] and checked by a test.

use serde::Serialize;

use crate::model::Provider;

/// Whether a payload fixture can pin a quirk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "reason", rename_all = "snake_case")]
pub enum FixtureRule {
    /// Payload- or answer-observable: some fixture under
    /// `fixtures/<provider>/` must name it.
    Required,
    /// Nothing a payload or an encoded answer can show (config, matcher,
    /// trust, install, timing, the process environment, events the agent
    /// never sends); the reason says which.
    NotApplicable(&'static str),
}

/// One documented agent quirk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Quirk {
    /// `<provider id>/<n>`, e.g. `claude-code/1`.
    pub id: &'static str,
    /// The agent.
    pub provider: Provider,
    /// Versions or dates it applies to, as the doc gives them.
    pub versions: &'static str,
    /// Native event(s) concerned; `*` for all.
    pub event: &'static str,
    /// The area it touches (`no_opinion`, `block`, `ask`, `tool_input`,
    /// `detection`, `config`, ...).
    pub capability: &'static str,
    /// What the agent does.
    pub behaviour: &'static str,
    /// What a hook (or this library) does about it.
    pub mitigation: &'static str,
    /// Doc section, row and confidence marks.
    pub source: &'static str,
    /// Whether a fixture must pin it.
    pub fixture: FixtureRule,
}

impl Quirk {
    /// The row number `n` of the id.
    pub fn number(&self) -> u32 {
        self.id
            .rsplit('/')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }
}

/// The quirk table's section in each protocol doc (what `§<s> #<n>` in a
/// fixture description refers to).
pub fn section(p: Provider) -> &'static str {
    match p {
        Provider::Cursor => "§6.2",
        Provider::Gemini | Provider::Opencode | Provider::Openclaw => "§6",
        _ => "§7",
    }
}

/// A quirk's source as the page shows it: the research file names (not
/// part of the repository) become the agent's id.
fn source_text(source: &str) -> String {
    let mut s = source.to_string();
    for p in Provider::ALL {
        s = s.replace(doc_file(p), p.id());
    }
    s
}

/// The protocol doc file of a provider.
pub fn doc_file(p: Provider) -> &'static str {
    match p {
        Provider::ClaudeCode => "claude-code.md",
        Provider::Codex => "codex.md",
        Provider::Cursor => "cursor.md",
        Provider::Gemini => "gemini-cli.md",
        Provider::KimiCode => "kimi-code.md",
        Provider::Copilot => "copilot-cli.md",
        Provider::Opencode => "opencode.md",
        Provider::Openclaw => "openclaw.md",
    }
}

/// Every quirk, grouped by provider in documentation order.
pub fn all() -> &'static [Quirk] {
    QUIRKS
}

/// The quirks of one provider, in table order.
pub fn for_provider(p: Provider) -> Vec<&'static Quirk> {
    QUIRKS.iter().filter(|q| q.provider == p).collect()
}

/// Looks a quirk up by id.
pub fn get(id: &str) -> Option<&'static Quirk> {
    QUIRKS.iter().find(|q| q.id == id)
}

/// The registry as JSON (an array of quirks).
pub fn to_json() -> String {
    serde_json::to_string_pretty(QUIRKS).unwrap_or_else(|_| "[]".into())
}

/// The registry as the Markdown page `docs/quirks.md`.
pub fn markdown() -> String {
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    let mut out = String::new();
    out.push_str("# Agent quirks\n\n");
    out.push_str(
        "Generated from `core/src/quirks.rs` (`agenthooks::quirks::markdown()`); do not edit by hand.\n\
         Regenerate with `AH_UPDATE_QUIRKS_MD=1 cargo test -p agenthooks --lib quirks`.\n\n\
         One row per known quirk of each agent, in our own words, from the project's research into each\n\
         agent's hook protocol (summarized per agent in [the agent pages](agents/README.md)). Ids are\n\
         `<provider>/<n>`, `n` the row's number in that research's quirk table (tables without numbers are\n\
         numbered in table order). Source: the section of that research the row comes from, and how the\n\
         fact was established (e2e: observed against the real agent; doc: its documentation; src: its\n\
         source; seen: reported by others; impl: seen in a third-party implementation). A fixture pins a quirk by naming it in its description: `quirk <n>`,\n\
         `<provider>/<n>` or `§<section> #<n>` (`core/tests/quirks_fixtures.rs`). Fixture column:\n\
         `required` means some fixture under `fixtures/<provider>/` must name it; `n/a` gives the reason\n\
         no payload or answer can show it.\n\n",
    );
    out.push_str("| Provider | Quirks | Fixture required | Not applicable |\n|---|---|---|---|\n");
    for p in Provider::ALL {
        let qs = for_provider(p);
        let req = qs
            .iter()
            .filter(|q| q.fixture == FixtureRule::Required)
            .count();
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            p.id(),
            qs.len(),
            req,
            qs.len() - req
        ));
    }
    for p in Provider::ALL {
        out.push_str(&format!(
            "\n## {} (`{}`, research {}, [agent page](agents/{}.md))\n\n",
            p.display_name(),
            p.id(),
            section(p),
            p.id()
        ));
        out.push_str(
            "| Id | Event | Capability | Versions | Behaviour | Mitigation | Fixture | Source |\n\
             |---|---|---|---|---|---|---|---|\n",
        );
        for q in for_provider(p) {
            let fixture = match q.fixture {
                FixtureRule::Required => "required".to_string(),
                FixtureRule::NotApplicable(r) => format!("n/a: {r}"),
            };
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} | {} | {} |\n",
                q.id,
                cell(q.event),
                cell(q.capability),
                cell(q.versions),
                cell(q.behaviour),
                cell(q.mitigation),
                cell(&fixture),
                cell(&source_text(q.source))
            ));
        }
    }
    out
}

use FixtureRule::{NotApplicable as Na, Required as Req};
use Provider::{
    ClaudeCode as Cl, Codex as Cx, Copilot as Cp, Cursor as Cu, Gemini as Ge, KimiCode as Ki,
    Openclaw as Ow, Opencode as Oc,
};

/// Builds one entry; the id is `<provider id>/<n>`.
macro_rules! q {
    ($pid:literal, $p:expr, $n:literal, $ver:expr, $ev:expr, $cap:expr, $beh:expr, $mit:expr, $src:expr, $fx:expr $(,)?) => {
        Quirk {
            id: concat!($pid, "/", $n),
            provider: $p,
            versions: $ver,
            event: $ev,
            capability: $cap,
            behaviour: $beh,
            mitigation: $mit,
            source: $src,
            fixture: $fx,
        }
    };
}

const CONFIG: FixtureRule = Na("configuration only: no payload or answer involved");
const MATCHER: FixtureRule = Na("matcher semantics only: decided in the config, not on the wire");
const TRUST: FixtureRule = Na("trust / loading of hook definitions: no payload involved");
const INSTALL: FixtureRule = Na("install / plugin lifecycle: no payload involved");
const TIMING: FixtureRule =
    Na("timing: a payload fixture has no clock (the runtime deadline tests cover our side)");
const NOT_SENT: FixtureRule =
    Na("the agent sends no payload in this case, so there is nothing to decode");
const ENV: FixtureRule = Na("the hook process's environment, not the payload or the answer");
const AGENT_OUT: FixtureRule =
    Na("the agent's own output or exit code after the hook answered; the answer is unchanged");
const ORDER: FixtureRule =
    Na("ordering across separate hook processes: one payload cannot show it");
const MODEL_SIDE: FixtureRule =
    Na("what the agent sends to the model after the hook answered; no payload or answer shows it");

static QUIRKS: &[Quirk] = &[
    // ---------------------------------------------------------------- Claude Code
    q!(
        "claude-code",
        Cl,
        1,
        "all",
        "*",
        "no_opinion",
        "Empty stdout is not an allow: the call goes through the normal permission flow (and is denied in -p when not pre-allowed).",
        "Encode no_decision as the no-op; emit permissionDecision allow only for an explicit allow.",
        "claude-code.md §7 #1, §5 (doc, e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        2,
        "all",
        "*",
        "exit_code",
        "Only exit 2 or a valid JSON decision blocks; exit 1 and other codes are non-blocking errors, and valid JSON with another non-zero code counts as success.",
        "Block with JSON on exit 0 or exit 2 + stderr; never rely on exit 1 for fail-closed.",
        "claude-code.md §7 #2, §4.1 (doc; exit 1 e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        3,
        "all",
        "PermissionRequest",
        "block",
        "PermissionRequest ignores exit 2; only hookSpecificOutput.decision {behavior, message} works, a shape unlike PreToolUse's permissionDecision.",
        "Encode decisions as decision.behavior; fail-closed answers a JSON deny on exit 0.",
        "claude-code.md §7 #3, §4.1 (doc)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        4,
        "all; onFailure:block from 2.1.295",
        "*",
        "timeout",
        "A timed-out hook renders no decision and the action proceeds, unless the handler sets onFailure:\"block\".",
        "Answer before the agent's timeout (runtime deadline); generate onFailure:block for fail-closed hooks on 2.1.295+.",
        "claude-code.md §7 #4, §1.5, §1.6 (doc, seen; fail-open e2e)",
        TIMING
    ),
    q!(
        "claude-code",
        Cl,
        5,
        "all",
        "PreToolUse",
        "event_coverage",
        "@file prompt references, EndConversation, a typed /skill and files changed by Bash never reach PreToolUse or Edit|Write matchers.",
        "Also use Read deny rules, UserPromptExpansion and FileChanged.",
        "claude-code.md §7 #5 (doc)",
        NOT_SENT
    ),
    q!(
        "claude-code",
        Cl,
        6,
        "before 2.1.195 / 2.1.191",
        "*",
        "matcher",
        "Hyphenated matchers were unanchored regexes before 2.1.195 and comma lists never fired before 2.1.191.",
        "Generate |-separated exact lists or anchored regexes.",
        "claude-code.md §7 #6, §1.7 (doc)",
        MATCHER
    ),
    q!(
        "claude-code",
        Cl,
        7,
        "all (Windows)",
        "PreToolUse, PostToolUse, PermissionRequest",
        "tool_input",
        "On Windows shell commands may arrive through the PowerShell tool, and file paths use backslashes.",
        "Treat PowerShell as canonical shell, keep paths verbatim, match Bash|PowerShell.",
        "claude-code.md §7 #7, §3.2 (doc)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        8,
        "all",
        "Stop, SubagentStop",
        "transcript",
        "transcript_path may not yet contain the latest message when Stop fires.",
        "Read last_assistant_message (stop.final_message), not the transcript.",
        "claude-code.md §7 #8 (doc)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        9,
        "all",
        "*",
        "output_format",
        "A banner printed by shell startup files before the JSON breaks JSON detection and the decision is silently ignored.",
        "Keep hook shells' profiles quiet; the runtime keeps stray handler prints off stdout.",
        "claude-code.md §7 #9, §1.1 (doc)",
        Na(
            "comes from the hook's shell profile, outside the payload and the answer (the runtime stray-print test covers our own output)"
        )
    ),
    q!(
        "claude-code",
        Cl,
        10,
        "before the SessionEnd budget became configurable",
        "SessionEnd",
        "timeout",
        "SessionEnd hooks were killed after 1.5 s whatever their timeout.",
        "Keep SessionEnd work short; set CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS.",
        "claude-code.md §7 #10, §1.5 (doc)",
        TIMING
    ),
    q!(
        "claude-code",
        Cl,
        11,
        "all; fork source from 2.1.214",
        "SessionStart",
        "session",
        "Context injected mid-session is replayed from the transcript on --resume, and SessionStart fires again with source resume or fork.",
        "Make SessionStart context idempotent; branch on session source.",
        "claude-code.md §7 #11, §3.3 (doc)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        12,
        "Cowork (desktop) variant",
        "Stop",
        "config",
        "The Cowork desktop variant skips async Stop hooks.",
        "Configure Stop hooks synchronously.",
        "claude-code.md §7 #12, §4.5 (impl)",
        Na("configuration (async hooks): the payload is the same when the hook runs")
    ),
    q!(
        "claude-code",
        Cl,
        13,
        "all",
        "*",
        "detection",
        "Copilot CLI runs .claude/settings.json hooks with a near-identical snake_case payload (ISO timestamp, no transcript_path or permission_mode on tool events), and Codex exports CLAUDE_PLUGIN_ROOT: config location or environment alone do not prove Claude Code.",
        "Pass --provider; detection cross-checks CLAUDE_CODE_SESSION_ID with session_id and lets distinctive payload keys win over the environment.",
        "claude-code.md §7 #13, §1.2 (doc, Copilot/Codex docs)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        14,
        "2.1.328 print mode (e2e)",
        "PreToolUse",
        "ask",
        "In -p, a PreToolUse ask is a hard deny that skips PermissionRequest hooks, and defer ends the whole run.",
        "Encode ask/defer verbatim (they are native Claude answers); prefer deny with a reason for headless runs.",
        "claude-code.md §7 #14, §4.3 (e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        15,
        "2.1.328 (e2e)",
        "PreToolUse",
        "stop_agent",
        "continue:false alone does not stop the pending tool: it runs, then the session stops (hook_stopped).",
        "Pair stop_agent with deny when the call must not run.",
        "claude-code.md §7 #15, §4.2 (e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        16,
        "2.1.328 (e2e)",
        "PreToolUse",
        "fail_policy",
        "PreToolUse fails open on a timeout, schema-invalid JSON and a hookEventName naming another event; the user only sees a hook_no_verdict warning.",
        "Always fill hookSpecificOutput.hookEventName with the event's own name and emit only valid values.",
        "claude-code.md §7 #16, §1.6 (e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        17,
        "2.1.328 (e2e)",
        "*",
        "model_view",
        "Hook context reaches the model as role:system entries inside messages[], not in the top-level system field.",
        "Proxies or validators of the Messages API must accept system-role messages.",
        "claude-code.md §7 #17, §4.3 (e2e)",
        MODEL_SIDE
    ),
    q!(
        "claude-code",
        Cl,
        18,
        "2.1.328 (e2e)",
        "SubagentStop",
        "subagent",
        "The forked agent that runs compaction fires SubagentStop with agent_type \"\".",
        "Do not read an empty agent_type as 'not a subagent', nor every SubagentStop as a user-visible subagent.",
        "claude-code.md §7 #18, §6 (e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        19,
        "2.1.328 print mode (e2e)",
        "StopFailure, PostModelSwitch, ConfigChange",
        "event_coverage",
        "Fire-and-forget hooks can be lost when a -p process exits, and ConfigChange misses changes made before its watcher starts.",
        "Do not build audits on fire-and-forget events in -p.",
        "claude-code.md §7 #19, §2 (e2e)",
        NOT_SENT
    ),
    q!(
        "claude-code",
        Cl,
        20,
        "2.1.328 (e2e)",
        "PreCompact, Setup",
        "context",
        "PreCompact stdout, even JSON, becomes compaction instructions verbatim and is echoed to the model; Setup additionalContext did not reach the model under --init -p.",
        "Print nothing on PreCompact unless it is meant for the model; system_message there is model-visible.",
        "claude-code.md §7 #20, §4.2 (e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        21,
        "2.1.328 (e2e)",
        "*",
        "block",
        "Exit-2 feedback the model sees is prefixed with the hook's command line; Stop/PostToolUse block feedback names the command too.",
        "Never put secrets in hook command lines.",
        "claude-code.md §7 #21, §4.1 (e2e)",
        Na("the prefix is added by the agent after the answer; the answer itself does not change")
    ),
    q!(
        "claude-code",
        Cl,
        22,
        "2.1.121+ (all tools)",
        "PostToolUse",
        "output_rewrite",
        "updatedToolOutput given as a plain string is silently ignored for Bash; only an object in the tool's own output shape replaces the result.",
        "Encode replace_output for built-in tools as an object of the tool's output shape.",
        "claude-code.md §7 #22, §4.3 (doc, e2e)",
        Req
    ),
    // ---------------------------------------------------------------- Codex
    q!(
        "codex",
        Cx,
        1,
        "all",
        "PreToolUse, PermissionRequest, PostToolUse, Stop",
        "output_format",
        "Strict output parsing: unknown keys, a bare allow, ask, approve, a deny without reason or continue:false on PreToolUse fail the run, and a failed run is fail-open.",
        "Emit only the keys each event accepts; degrade ask and bare allow; always give deny a non-empty reason.",
        "codex.md §7 #1, §4.2, §4.3 (doc, src, e2e)",
        Req
    ),
    q!(
        "codex",
        Cx,
        2,
        "all",
        "*",
        "exit_code",
        "Exit 2 blocks only with non-empty stderr; with empty stderr it is a failed run.",
        "A fail-closed exit 2 always writes a reason to stderr.",
        "codex.md §7 #2, §4.1 (src, e2e)",
        Req
    ),
    q!(
        "codex",
        Cx,
        3,
        "trust enforcement from PR #20321 (2026-04-30)",
        "*",
        "trust",
        "Hooks run only once their exact definition hash is trusted; unreviewed or edited hooks are skipped silently in codex exec.",
        "Installers write hooks.state.<key>.trusted_hash, or use app-server hooks/list + config/batchWrite.",
        "codex.md §7 #3, §1.4 (doc, src; e2e)",
        TRUST
    ),
    q!(
        "codex",
        Cx,
        4,
        "all",
        "*",
        "output_format",
        "Hooks run through a login shell ($SHELL -lc): a profile that prints text corrupts stdout, and a leading banner makes PreToolUse JSON silently ignored.",
        "Keep login profiles quiet; the runtime keeps handler prints off stdout.",
        "codex.md §7 #4, §1.1 (src-derived)",
        Na("comes from the hook's login shell, outside the payload and the answer")
    ),
    q!(
        "codex",
        Cx,
        5,
        "all",
        "PostToolUse",
        "tool_output",
        "There is no failure event: a Bash command that exits non-zero fires PostToolUse.",
        "Inspect tool_response; never expect tool.error from Codex.",
        "codex.md §7 #5, §2 (doc)",
        Req
    ),
    q!(
        "codex",
        Cx,
        6,
        "all",
        "PermissionRequest",
        "tool_id",
        "PermissionRequest carries no tool_use_id.",
        "Synthesize a stable id from turn id, tool name and input.",
        "codex.md §7 #6, §3.2 (doc, e2e)",
        Req
    ),
    q!(
        "codex",
        Cx,
        7,
        "all",
        "*",
        "detection",
        "Codex also sets CLAUDE_PLUGIN_ROOT / CLAUDE_PLUGIN_DATA for plugin hooks.",
        "Never infer Claude Code from CLAUDE_PLUGIN_*; a Codex plugin hook has PLUGIN_ROOT equal to CLAUDE_PLUGIN_ROOT.",
        "codex.md §7 #7, §1.2 (doc)",
        Req
    ),
    q!(
        "codex",
        Cx,
        8,
        "0.124.0+",
        "PreToolUse, PermissionRequest, PostToolUse",
        "tool_input",
        "apply_patch matches Edit/Write matchers but arrives as tool_name apply_patch with the patch text in tool_input.command.",
        "Map apply_patch to file.edit and take paths from the patch body.",
        "codex.md §7 #8, §3.3 (doc)",
        Req
    ),
    q!(
        "codex",
        Cx,
        9,
        "all",
        "PreToolUse, PostToolUse",
        "event_coverage",
        "Hosted tools (web search) and write_stdin polling fire no tool hooks.",
        "Treat tool hooks as a guardrail, not an enforcement boundary.",
        "codex.md §7 #9, §3.3 (doc)",
        NOT_SENT
    ),
    q!(
        "codex",
        Cx,
        10,
        "all",
        "SessionEnd, Interrupt",
        "timeout",
        "SessionEnd and Interrupt hooks default to a 1 s timeout and accept at most 3 s.",
        "Keep them fast; generators clamp their timeout to 3 s.",
        "codex.md §7 #10, §1.5 (doc)",
        TIMING
    ),
    q!(
        "codex",
        Cx,
        11,
        "verified on 0.145.0 (impl)",
        "PreToolUse, PostToolUse",
        "mcp",
        "Launch flags can change the MCP inventory without touching config.toml; tool hooks carry only the tool name, never the server's transport.",
        "Decode MCP server and tool from the name alone; do not expect a url or command.",
        "codex.md §7 #11, §3.3 (impl)",
        Req
    ),
    q!(
        "codex",
        Cx,
        12,
        "before 0.124.0",
        "*",
        "config",
        "Hooks were opt-in (codex_hooks = true) and tool hooks only saw Bash.",
        "Target 0.124.0+ or enable the feature flag.",
        "codex.md §7 #12, §2 (seen)",
        CONFIG
    ),
    q!(
        "codex",
        Cx,
        13,
        "0.171.0 (e2e)",
        "PreToolUse",
        "updated_input",
        "allow + updatedInput without a string command (Bash, apply_patch) does not fail open: the tool does not run and the model gets an error text.",
        "Always keep a string command in Bash/apply_patch rewrites (note lossy_update).",
        "codex.md §7 #13, §4.3 (e2e)",
        Req
    ),
    q!(
        "codex",
        Cx,
        14,
        "0.171.0 (e2e)",
        "Stop, SubagentStop",
        "loop_guard",
        "There is no Stop loop guard: an always-blocking Stop hook loops until the process is killed.",
        "Check stop_hook_active; the runtime's continuation_cap counts across processes.",
        "codex.md §7 #14, §6 (e2e)",
        Req
    ),
    q!(
        "codex",
        Cx,
        15,
        "0.171.0 (e2e)",
        "*",
        "agent_ui",
        "codex exec never prints hook reasons, stopReason or systemMessage, and exits 0 when a prompt is blocked.",
        "Log decisions yourself; do not rely on exec's output.",
        "codex.md §7 #15, §4.2 (e2e)",
        AGENT_OUT
    ),
    q!(
        "codex",
        Cx,
        16,
        "0.171.0 (e2e)",
        "PostToolUse",
        "tool_output",
        "PostToolUse tool_response for Bash is the raw command output string; the model sees a wrapped version.",
        "Keep tool_response verbatim as the output; do not expect exit codes in it.",
        "codex.md §7 #16, §3.2 (e2e)",
        Req
    ),
    q!(
        "codex",
        Cx,
        17,
        "0.171.0 (e2e)",
        "*",
        "config",
        "Unknown event names in hooks.json (StopFailure, Notification, typos) are ignored without a warning.",
        "Generate only the events the target version knows.",
        "codex.md §7 #17, §1.3 (e2e)",
        CONFIG
    ),
    q!(
        "codex",
        Cx,
        18,
        "0.171.0 (e2e)",
        "PermissionRequest",
        "event_coverage",
        "PermissionRequest never fires in codex exec unless --approve-for-me is given.",
        "Gate in PreToolUse for headless runs.",
        "codex.md §7 #18, §2 (e2e)",
        NOT_SENT
    ),
    q!(
        "codex",
        Cx,
        19,
        "0.171.0 (e2e)",
        "PreToolUse, PostModelRequest",
        "ordering",
        "PreToolUse may run before the PostModelRequest of the response that asked for the tool.",
        "Do not assume model-request events bracket tool events.",
        "codex.md §7 #19, §2 (e2e)",
        ORDER
    ),
    q!(
        "codex",
        Cx,
        20,
        "0.171.0 (e2e)",
        "Stop",
        "model_view",
        "The Stop continuation message embeds the hooks file's absolute path in hook_run_id, and the model sees it.",
        "Keep hooks files at paths that reveal nothing sensitive.",
        "codex.md §7 #20, §4.3 (e2e)",
        MODEL_SIDE
    ),
    q!(
        "codex",
        Cx,
        21,
        "all (src, e2e)",
        "*",
        "env",
        "Hooks inherit the whole codex environment, secrets included.",
        "Never log the environment; scrub it before spawning children.",
        "codex.md §7 #21, §1.2 (src, e2e)",
        ENV
    ),
    // ---------------------------------------------------------------- Cursor
    q!(
        "cursor",
        Cu,
        1,
        "all",
        "preToolUse, postToolUse, beforeShellExecution, beforeMCPExecution, beforeReadFile, afterShellExecution, afterMCPExecution",
        "dedupe",
        "One tool call fires both the generic event and the specific one (e.g. preToolUse + beforeShellExecution), each in its own process.",
        "Dedupe siblings on conversation, generation, stage, tool class and facet; the loser answers the no-op {}.",
        "cursor.md §6.2 #1, §3.4 (impl, seen)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        2,
        "all",
        "preToolUse, postToolUse, beforeMCPExecution, afterMCPExecution",
        "mcp",
        "Generic events name MCP tools MCP:<tool>; the MCP-specific events carry no tool-call id and identify the server only by url or command.",
        "Strip MCP:, synthesize ids, resolve the server from mcp.json only when the match is unique.",
        "cursor.md §6.2 #2, §3.3 (impl, doc)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        3,
        "all",
        "preToolUse, postToolUse, beforeMCPExecution, afterMCPExecution",
        "tool_input",
        "tool_input is an object on preToolUse/postToolUse but a JSON-encoded string on the MCP events.",
        "Parse string inputs into an object and keep raw_input verbatim.",
        "cursor.md §6.2 #3, §3.3 (doc, impl)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        4,
        "from 2.0.64",
        "*",
        "output_format",
        "camelCase output keys (userMessage, agentMessage) stopped working; snake_case is required.",
        "Emit snake_case keys only.",
        "cursor.md §6.2 #4, §4.4 (impl)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        5,
        "from 2.4.21, still on 3.2.16",
        "beforeShellExecution, beforeMCPExecution, preToolUse",
        "ask",
        "permission ask is broken: silently a deny on 2.4.21 through 2.x and an allow on 3.x.",
        "Degrade ask per policy by default; emit it only where verified.",
        "cursor.md §6.2 #5, §4.3 (seen)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        6,
        "all",
        "*",
        "fail_policy",
        "Fail-open by default: a crashed or slow hook lets the action proceed unless the entry sets failClosed:true.",
        "Generate failClosed:true for fail-closed gates; a fail-closed answer is a JSON deny.",
        "cursor.md §6.2 #6, §4.1 (doc, impl)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        7,
        "CLI 2026-01 to 2026-04",
        "*",
        "event_coverage",
        "Early CLI builds fired only beforeShellExecution/afterShellExecution; coverage grew through 2026.",
        "Do not rely on other events on old CLI builds.",
        "cursor.md §6.2 #7, §2 (seen)",
        NOT_SENT
    ),
    q!(
        "cursor",
        Cu,
        8,
        "CLI builds before 2026-05-20",
        "*",
        "payload_transport",
        "Payload delivery changed on 2026-05-20 (argv per one bridge, a stdin heredoc per another).",
        "Read stdin to EOF; when it is empty, parse a JSON object from argv.",
        "cursor.md §6.2 #8, §1.2 (impl, seen)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        9,
        "CLI 2026.02.13 and 2026.07.01",
        "beforeSubmitPrompt",
        "event_coverage",
        "Print mode (-p) does not fire beforeSubmitPrompt while tool events fire; a bridge back-fills a report-only prompt event from the transcript or argv; a resumed print turn keeps its conversation_id.",
        "Back-fill an observe-only prompt.submitted marked backfilled.",
        "cursor.md §6.2 #9, §6.1 (seen, impl)",
        Na(
            "an event the agent never sends: a back-fill needs Cursor's transcript format, which the docs do not specify (not implemented; tracked as a known gap)"
        )
    ),
    q!(
        "cursor",
        Cu,
        10,
        "verified 2026.07.01 / 2026.09.18",
        "*",
        "config",
        "A scheme:// URL or any // inside a string in hooks.json silently disables the whole file.",
        "Never write // into generated hooks.json strings.",
        "cursor.md §6.2 #10, §1.7 (impl, seen)",
        CONFIG
    ),
    q!(
        "cursor",
        Cu,
        11,
        "CLI 2026.02.13",
        "*",
        "transcript",
        "transcript_path is always null in the CLI.",
        "Fall back to CURSOR_TRANSCRIPT_PATH; treat null as absent.",
        "cursor.md §6.2 #11, §3.1 (seen)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        12,
        "CLI 2026.09.18",
        "*",
        "transcript",
        "transcript_path is a path when the transcript file exists, else null.",
        "Decode both forms.",
        "cursor.md §6.2 #12, §3.1 (seen)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        13,
        "2026",
        "*",
        "transcript",
        "Transcripts live under ~/.cursor/projects/<sanitized workspace>/agent-transcripts/, flat in the CLI and nested per conversation in the IDE.",
        "Derive a transcript path only as a fallback.",
        "cursor.md §6.2 #13 (seen)",
        Na("file layout on disk; the payload only carries the path verbatim")
    ),
    q!(
        "cursor",
        Cu,
        14,
        "CLI 2026.09.18",
        "sessionStart",
        "timeout",
        "The CLI awaits sessionStart (for additional_context and env) although the docs call it fire-and-forget.",
        "Keep sessionStart handlers fast.",
        "cursor.md §6.2 #14 (seen)",
        TIMING
    ),
    q!(
        "cursor",
        Cu,
        15,
        "all",
        "*",
        "event_coverage",
        "The AskQuestion tool fires no hooks.",
        "Do not expect hooks for it.",
        "cursor.md §6.2 #15 (impl)",
        NOT_SENT
    ),
    q!(
        "cursor",
        Cu,
        16,
        "reported 2026-06",
        "stop",
        "event_coverage",
        "stop reportedly never fires in some IDE sessions; sessionEnd is used instead.",
        "Do not rely on stop alone for end-of-turn work.",
        "cursor.md §6.2 #16 (seen, unconfirmed)",
        NOT_SENT
    ),
    // ---------------------------------------------------------------- Gemini CLI
    q!(
        "gemini",
        Ge,
        1,
        "all checked; confirmed 0.61.0",
        "*",
        "exit_code",
        "When stdout is empty stderr is read as the answer, and plain text with an exit code other than 0 or 1 blocks; the docs say otherwise.",
        "Always print one JSON object on stdout, exit 0; keep logs off stderr.",
        "gemini-cli.md §6 #1, §4.1 (src, impl, e2e)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        2,
        "all; confirmed 0.61.0",
        "*",
        "exit_code",
        "JSON output wins over the exit code, and exit 2 with no output does nothing.",
        "Fail-closed blocks with a JSON deny, never a bare exit 2.",
        "gemini-cli.md §6 #2, §4.1 (src, e2e)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        3,
        "all; confirmed 0.61.0",
        "*",
        "timeout",
        "Hook timeouts are milliseconds (other agents use seconds); a timed-out hook fails open.",
        "Convert seconds to milliseconds when generating config.",
        "gemini-cli.md §6 #3, §1.4 (doc, src, e2e)",
        CONFIG
    ),
    q!(
        "gemini",
        Ge,
        4,
        "current main",
        "*",
        "config",
        "gemini hooks migrate copies Claude timeouts (seconds) unchanged, so 60 becomes 60 ms.",
        "Generate Gemini config directly instead of migrating.",
        "gemini-cli.md §6 #4, §1.5 (src)",
        CONFIG
    ),
    q!(
        "gemini",
        Ge,
        5,
        "merge up to 0.35, replace from 0.36.0; replace confirmed 0.61.0",
        "BeforeTool",
        "updated_input",
        "The tool_input rewrite was a shallow merge up to 0.35 and replaces the arguments from 0.36.0; a partial object fails validation and the tool does not run.",
        "Always send the complete argument object; report key removals as lossy.",
        "gemini-cli.md §6 #5, §4.5 (src, e2e)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        6,
        "0.36.0+; hangs headless on 0.61.0",
        "BeforeTool",
        "ask",
        "decision ask works only from 0.36.0, and in headless mode (-p --yolo) it hangs the CLI until killed.",
        "Degrade ask per policy by default.",
        "gemini-cli.md §6 #6, §4.3 (src, e2e)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        7,
        "0.34.0+",
        "BeforeTool, AfterTool",
        "mcp",
        "MCP tool names became mcp_<server>_<tool> (single underscores), ambiguous when a server name contains _.",
        "Prefer mcp_context over splitting the name.",
        "gemini-cli.md §6 #7, §3.3 (src)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        8,
        "all checked; confirmed 0.61.0",
        "BeforeAgent, AfterTool, SessionStart, BeforeTool",
        "context",
        "additionalContext is HTML-escaped (< and > only) and wrapped in <hook_context>; on BeforeTool it is ignored.",
        "Do not pre-escape; drop context on BeforeTool with a note.",
        "gemini-cli.md §6 #8, §4.6 (src, impl, e2e)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        9,
        "all checked; confirmed 0.61.0",
        "BeforeTool, AfterTool",
        "tool_id",
        "Tool events carry no tool-call id.",
        "Synthesize a stable id so pre and post correlate.",
        "gemini-cli.md §6 #9, §3.3 (src, e2e)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        10,
        "all",
        "AfterModel",
        "hot_path",
        "AfterModel fires for every streamed chunk of a response.",
        "Keep AfterModel decoding and handlers cheap.",
        "gemini-cli.md §6 #10, §2 (doc)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        11,
        "0.61.0 (e2e)",
        "BeforeModel, BeforeToolSelection, AfterModel",
        "model_view",
        "Hooks see model traffic as text only: no function calls or responses, tools or systemInstruction; rewriting llm_request.messages replaces the whole conversation.",
        "Do not expect tool calls there; never send a partial messages array.",
        "gemini-cli.md §6 #11, §3.2 (e2e)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        12,
        "0.61.0 (e2e)",
        "BeforeModel",
        "native",
        "A synthetic BeforeModel llm_response is honoured only together with decision block.",
        "Send decision block with llm_response through native.",
        "gemini-cli.md §6 #12, §4.3 (e2e)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        13,
        "0.61.0 (e2e)",
        "AfterTool",
        "output_rewrite",
        "An AfterTool block gives the model the bare reason as the tool's error; 'Tool result blocked' goes to stderr only.",
        "Write the reason as the text the model should read.",
        "gemini-cli.md §6 #13, §4.3 (e2e)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        14,
        "0.61.0 (e2e)",
        "BeforeToolSelection",
        "model_view",
        "BeforeToolSelection toolConfig is forwarded to the API but not enforced on the model's reply.",
        "Gate tools in BeforeTool, not only in BeforeToolSelection.",
        "gemini-cli.md §6 #14, §4.3 (e2e)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        15,
        "0.61.0 (e2e)",
        "PreCompress",
        "event_coverage",
        "PreCompress fires with trigger auto before every model call, not only before compression.",
        "Do not read PreCompress as proof that compaction happens.",
        "gemini-cli.md §6 #15, §2 (e2e)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        16,
        "0.61.0 (e2e)",
        "AfterAgent",
        "loop_guard",
        "An AfterAgent hook that blocks every time never lets a headless run end.",
        "Check stop_hook_active; the runtime's continuation_cap counts across processes.",
        "gemini-cli.md §6 #16, §5 (e2e)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        17,
        "0.61.0 (e2e)",
        "BeforeAgent, AfterAgent",
        "agent_ui",
        "The CLI exits 0 for a blocked prompt or a stopped agent; only -o json warnings and stderr tell.",
        "Read warnings from -o json in CI.",
        "gemini-cli.md §6 #17, §4.2 (e2e)",
        AGENT_OUT
    ),
    q!(
        "gemini",
        Ge,
        18,
        "0.61.0 (e2e)",
        "*",
        "trust",
        "Project hooks need the workspace trusted while settings load (GEMINI_CLI_TRUST_WORKSPACE=true); --skip-trust is too late and they are dropped silently.",
        "Install hooks at user level or set the trust variable for headless runs.",
        "gemini-cli.md §6 #18, §1.1 (e2e)",
        TRUST
    ),
    q!(
        "gemini",
        Ge,
        19,
        "0.61.0 (e2e)",
        "BeforeTool, Notification",
        "event_coverage",
        "Headless without --yolo registers no run_shell_command, so BeforeTool never fires for it and Notification is unreachable.",
        "Run headless gates with --yolo.",
        "gemini-cli.md §6 #19, §3.4 (e2e)",
        NOT_SENT
    ),
    q!(
        "gemini",
        Ge,
        20,
        "0.61.0 (e2e)",
        "*",
        "env",
        "The hook process inherits the CLI's credentials (GEMINI_API_KEY).",
        "Never log the environment.",
        "gemini-cli.md §6 #20, §1.2 (e2e)",
        ENV
    ),
    q!(
        "gemini",
        Ge,
        21,
        "0.24.0 (2026-01)",
        "SessionStart, SessionEnd",
        "event_coverage",
        "SessionStart/SessionEnd stopped firing after upgrading 0.23.0 to 0.24.0 (issue #16697, closed).",
        "Do not depend on session events on that version.",
        "gemini-cli.md §6 #21 (seen)",
        NOT_SENT
    ),
    q!(
        "gemini",
        Ge,
        22,
        "0.47.0 (2026-06)",
        "SessionStart",
        "matcher",
        "SessionStart 'not observed': a matcher startup|resume|clear never matches under exact-string comparison.",
        "Generate one exact source per entry, or no matcher.",
        "gemini-cli.md §6 #22, §1.5 (seen, src)",
        MATCHER
    ),
    q!(
        "gemini",
        Ge,
        23,
        "reported on 0.53.0 (2026-08)",
        "*",
        "config",
        "A hook entry without the {matcher?, hooks:[...]} wrapper is discarded at boot.",
        "Always generate the wrapped form.",
        "gemini-cli.md §6 #23, §1.4 (seen, src)",
        CONFIG
    ),
    q!(
        "gemini",
        Ge,
        24,
        "reported on 0.54.4",
        "SessionStart",
        "context",
        "Plain-text SessionStart output is shown as a message but not injected as context in interactive mode.",
        "Send context as hookSpecificOutput.additionalContext JSON.",
        "gemini-cli.md §6 #24, §4.3 (seen, src)",
        Req
    ),
    q!(
        "gemini",
        Ge,
        25,
        "all",
        "*",
        "config",
        "Sequential mode is global per event: one sequential:true definition serializes every matching hook.",
        "Avoid sequential unless every hook of the event can wait.",
        "gemini-cli.md §6 #25, §1.1 (src)",
        CONFIG
    ),
    // ---------------------------------------------------------------- Kimi Code
    q!(
        "kimi-code",
        Ki,
        1,
        "all (doc, e2e 2.1.0)",
        "*",
        "fail_policy",
        "Hard fail-open: a crash, a timeout and any exit other than 2 allow; there is no fail-closed switch.",
        "Enforce fail-closed inside the hook: catch errors and exit 2 with a reason.",
        "kimi-code.md §7 #1, §1.4 (doc, e2e)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        2,
        "all (src, e2e 2.1.0)",
        "PreToolUse, UserPromptSubmit, Stop",
        "block",
        "Only deny exists in JSON (no ask, rewrite or context outside UserPromptSubmit), and only the nested hookSpecificOutput.permissionDecision counts; the flat form and decision:block are ignored.",
        "Encode a block as the nested deny (or exit 2); degrade everything else.",
        "kimi-code.md §7 #2, §4.2 (src, e2e)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        3,
        "all (src, e2e 2.1.0)",
        "UserPromptSubmit",
        "no_opinion",
        "Any stdout on UserPromptSubmit, {} included, is injected into the model's context.",
        "The no-op is empty stdout; never print {} there.",
        "kimi-code.md §7 #3, §5 (src, e2e)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        4,
        "0.22.2, 0.38.0, 2.1.0",
        "Stop",
        "loop_guard",
        "Stop re-fires at most once per turn and stop_hook_active is always false.",
        "Do not rely on stop_hook_active; expect one continuation per turn.",
        "kimi-code.md §7 #4, §6 (src, e2e)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        5,
        "all (doc, e2e)",
        "*",
        "config",
        "Entries with identical command strings on one event run once; a trailing space makes them distinct.",
        "Give every generated entry a distinct command line.",
        "kimi-code.md §7 #5, §1.1 (doc, e2e)",
        CONFIG
    ),
    q!(
        "kimi-code",
        Ki,
        6,
        "0.22.2 to 2.1.0",
        "UserPromptSubmit, PostToolUse, PostToolUseFailure, TurnStarted",
        "payload_shape",
        "prompt is an array of content parts, error an object, tool_output a string cut at 2,000 characters; TurnStarted.prompt is a plain string.",
        "Decode every form (the legacy Python CLI sends the string/object variants too).",
        "kimi-code.md §7 #6, §3.2 (src, e2e)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        7,
        "all (src)",
        "*",
        "payload_shape",
        "Only top-level keys are snake_cased; nested objects keep camelCase (e.g. imageUrl).",
        "Never snake_case nested keys when decoding.",
        "kimi-code.md §7 #7, §3 (src)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        8,
        "all (doc)",
        "*",
        "config",
        "An unknown event name or an unknown key in a [[hooks]] table breaks the whole config file.",
        "Generate only the four allowed keys and known event names.",
        "kimi-code.md §7 #8, §1.3 (doc)",
        CONFIG
    ),
    q!(
        "kimi-code",
        Ki,
        9,
        "all (src)",
        "Stop, Interrupt, SessionHeartbeat",
        "matcher",
        "A non-empty matcher on Stop, Interrupt or SessionHeartbeat never fires (their matcher value is \"\").",
        "Generate no matcher for these events.",
        "kimi-code.md §7 #9, §1.5 (src)",
        MATCHER
    ),
    q!(
        "kimi-code",
        Ki,
        10,
        "0.22.2 (seen); contradicted on 2.1.0 (e2e)",
        "UserPromptSubmit",
        "event_coverage",
        "Print mode (kimi -p) did not fire UserPromptSubmit on 0.22.2; 2.1.0 fires it and blocking works.",
        "Do not rely on UserPromptSubmit in print mode on old versions.",
        "kimi-code.md §7 #10, §2 (seen, e2e)",
        NOT_SENT
    ),
    q!(
        "kimi-code",
        Ki,
        11,
        "seen; 2.1.0 (e2e)",
        "*",
        "agent_ui",
        "kimi -p occasionally exited 1 before any tool event; on 2.1.0 exit 1 came only from a blocked prompt or a failed model call.",
        "Do not treat kimi's exit code as the hook's verdict.",
        "kimi-code.md §7 #11 (seen, e2e)",
        AGENT_OUT
    ),
    q!(
        "kimi-code",
        Ki,
        12,
        "0.32.0 (2026-08-04), 0.38.0 (2026-08-20)",
        "*",
        "payload_shape",
        "Fields and events arrive by version: session_title and UserPromptQueued, TurnStarted, SessionHeartbeat, TaskStarted from 0.32.0; client_type from 0.38.0; SessionStart model/profile and SessionEnd archive after 0.22.2.",
        "Decode payloads with and without these fields.",
        "kimi-code.md §7 #12, §3.1 (src)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        13,
        "2.1.0 (e2e)",
        "PostToolUse, PostToolUseFailure",
        "delivery",
        "PostToolUse/PostToolUseFailure hooks are usually killed right after spawn, often before their stdin is written.",
        "Treat an empty or cut payload as undecodable (fail-open no-op); no gate or audit may depend on these events.",
        "kimi-code.md §7 #13, §2 (e2e)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        14,
        "2.1.0 (e2e)",
        "*",
        "env",
        "Hooks inherit Kimi's whole environment, the model API key included.",
        "Never log the environment.",
        "kimi-code.md §7 #14, §1.2 (e2e)",
        ENV
    ),
    q!(
        "kimi-code",
        Ki,
        15,
        "2.1.0 (e2e)",
        "UserPromptSubmit, PreToolUse, Stop, Interrupt",
        "agent_ui",
        "A blocked prompt makes kimi -p exit 1; a blocked tool or a Stop continuation exits 0; SIGINT (Interrupt) exits 130.",
        "Do not read kimi's exit code as the hook's verdict.",
        "kimi-code.md §7 #15, §4.3 (e2e)",
        AGENT_OUT
    ),
    q!(
        "kimi-code",
        Ki,
        16,
        "2.1.0 (e2e)",
        "TurnStarted, PreToolUse",
        "ordering",
        "Fire-and-forget hooks have no stable order: TurnStarted sometimes runs after PreToolUse.",
        "Do not assume TurnStarted precedes the turn's tool events.",
        "kimi-code.md §7 #16, §2 (e2e)",
        ORDER
    ),
    q!(
        "kimi-code",
        Ki,
        17,
        "2.1.0 (e2e)",
        "SessionEnd",
        "event_coverage",
        "kimi -p never fires SessionEnd (the session is never closed).",
        "Do end-of-session work elsewhere in print mode.",
        "kimi-code.md §7 #17, §2 (e2e)",
        NOT_SENT
    ),
    q!(
        "kimi-code",
        Ki,
        18,
        "2.1.0 (e2e); 0.22.2 differed",
        "PostToolUseFailure, PostToolUse",
        "tool_output",
        "A Bash command that exits non-zero is a tool failure (PostToolUseFailure); on 0.22.2 it was a PostToolUse.",
        "Decode both; map PostToolUseFailure to tool.error.",
        "kimi-code.md §7 #18, §3.2 (e2e, seen)",
        Req
    ),
    // ---------------------------------------------------------------- Copilot CLI
    q!(
        "copilot",
        Cp,
        1,
        "all (doc)",
        "*",
        "event_name",
        "camelCase payloads do not name their event (except notification, and permissionRequest's hookName).",
        "Bake --event into the generated command line; infer from shape only as a fallback.",
        "copilot-cli.md §7 #1, §3.4 (doc)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        2,
        "string (seen, older doc); object on 1.0.102 (e2e)",
        "preToolUse, postToolUse, postToolUseFailure",
        "tool_input",
        "toolArgs arrives as a JSON-encoded string on some builds and as an object on 1.0.102; permissionRequest's toolInput is an object.",
        "Accept both forms; parse strings, keep raw_input verbatim.",
        "copilot-cli.md §7 #2, §3.3 (seen, doc, e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        3,
        "all (doc, e2e)",
        "preToolUse, postToolUse, postToolUseFailure, permissionRequest",
        "tool_id",
        "No payload carries a tool-call id.",
        "Synthesize stable ids; key post on the arguments the pre hook returned.",
        "copilot-cli.md §7 #3, §3.4 (doc, e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        4,
        "fail-closed 1.0.56+, timeouts fail-open 1.0.67+; confirmed 1.0.102",
        "preToolUse",
        "fail_policy",
        "preToolUse command hooks deny on a crash or any non-zero exit, but a timeout lets the tool run; HTTP preToolUse hooks fail open.",
        "Encode every verdict with exit 0; the fail-open answer must never exit non-zero.",
        "copilot-cli.md §7 #4, §1.5 (doc, e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        5,
        "doc: dropped; 1.0.102: honoured",
        "userPromptSubmitted",
        "block",
        "The docs say userPromptSubmitted output is dropped for command hooks, but 1.0.102 honours decision block, modifiedPrompt and additionalContext (a block makes the CLI exit 1).",
        "Encode block_prompt and context; print nothing for no opinion.",
        "copilot-cli.md §7 #5, §4.3 (doc, e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        6,
        "PascalCase payloads from 1.0.21",
        "*",
        "detection",
        "Copilot reads .claude/settings*.json and Claude-format plugins: Claude hooks run under Copilot and receive snake_case payloads with Claude tool names and ISO timestamps.",
        "Tell the dialects apart by the ISO timestamp; pass --provider in generated configs.",
        "copilot-cli.md §7 #6, §3.1 (doc)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        7,
        "all (seen)",
        "preToolUse, PreToolUse",
        "dedupe",
        "The same script registered under preToolUse and PreToolUse runs twice per call, once per payload dialect.",
        "Register one dialect only; the two firings decode to events of the same call.",
        "copilot-cli.md §7 #7, §2 (seen)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        8,
        "all (doc)",
        "*",
        "ordering",
        "Hooks of one event run sequentially, in configuration order.",
        "Order generated entries deliberately.",
        "copilot-cli.md §7 #8, §1.1 (doc)",
        ORDER
    ),
    q!(
        "copilot",
        Cp,
        9,
        "all (doc)",
        "*",
        "output_format",
        "Only a single JSON object may remain on stdout after progress lines are stripped; two objects are invalid and ignored.",
        "Write exactly one JSON object.",
        "copilot-cli.md §7 #9, §4.1 (doc)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        10,
        "1.0.89 (seen), 1.0.102 (e2e)",
        "postToolUse, postToolUseFailure",
        "tool_output",
        "postToolUseFailure never fires for failed shell commands: the shell reports resultType success with the exit code in the text.",
        "Do not expect tool.error for shell; read the exit code from textResultForLlm.",
        "copilot-cli.md §7 #10, §3.2 (seen, e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        11,
        "1.0.40+",
        "*",
        "trust",
        "Repository hooks do not run in -p mode without folder trust or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true.",
        "Install user-level hooks for headless runs.",
        "copilot-cli.md §7 #11, §1.3 (seen)",
        TRUST
    ),
    q!(
        "copilot",
        Cp,
        12,
        "1.0.37",
        "*",
        "config",
        "A nested Claude-style matcher group in .github/hooks/*.json was rejected; native entries are flat.",
        "Generate flat native entries.",
        "copilot-cli.md §7 #12, §1.4 (seen)",
        CONFIG
    ),
    q!(
        "copilot",
        Cp,
        13,
        "reported (impl)",
        "*",
        "matcher",
        "An empty matcher string reportedly invalidates the whole hook source.",
        "Omit the matcher key for match-all.",
        "copilot-cli.md §7 #13, §1.4 (impl)",
        MATCHER
    ),
    q!(
        "copilot",
        Cp,
        14,
        "all (doc, e2e)",
        "agentStop",
        "payload_shape",
        "stop_hook_active is snake_case inside the otherwise camelCase agentStop payload.",
        "Decode stop_hook_active by its snake_case name.",
        "copilot-cli.md §7 #14, §3.2 (doc)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        15,
        "cloud agent (doc)",
        "preToolUse, notification, preCompact, permissionRequest, sessionEnd",
        "ask",
        "Under the cloud agent only bash/command entries run, ask means deny, notification never fires, preCompact is only auto, permissionRequest is irrelevant and sessionEnd reasons are complete/error/timeout.",
        "For variant cloud, degrade ask to deny and expect no permission events.",
        "copilot-cli.md §7 #15, §1.1 (doc)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        16,
        "HTTP hooks from 1.0.35",
        "preToolUse, permissionRequest",
        "config",
        "HTTP hooks must be https:// (localhost only with COPILOT_HOOK_ALLOW_LOCALHOST); preToolUse/permissionRequest always need HTTPS.",
        "Generate command hooks, or HTTPS URLs.",
        "copilot-cli.md §7 #16, §1.4 (doc)",
        CONFIG
    ),
    q!(
        "copilot",
        Cp,
        17,
        "1.0.102 (e2e)",
        "permissionRequest",
        "block",
        "permissionRequest fires even under --allow-all-tools and can deny there, and can approve without it; only the flat {behavior, message} answer counts, Claude's hookSpecificOutput.decision is ignored.",
        "Encode permission answers in the flat form.",
        "copilot-cli.md §7 #17, §4.3 (e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        18,
        "1.0.102 (e2e)",
        "permissionRequest",
        "event_name",
        "permissionRequest is the only camelCase payload that names itself (hookName); its toolInput differs from toolArgs (bash has no description; create is requested as edit with a diff).",
        "Use hookName when present; do not expect toolArgs' shape in toolInput.",
        "copilot-cli.md §7 #18, §3.2 (e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        19,
        "1.0.102 (e2e)",
        "preToolUse",
        "exit_code",
        "preToolUse exit 2 drops the stderr reason: the model only sees 'hook exited with code 2'.",
        "Deny with JSON (permissionDecisionReason) on exit 0, never with exit 2.",
        "copilot-cli.md §7 #19, §4.2 (e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        20,
        "1.0.102 (e2e)",
        "preToolUse",
        "ask",
        "preToolUse allow skips permissionRequest and the permission system entirely; ask is a deny in -p mode.",
        "Never send allow as a neutral answer; degrade ask for headless runs.",
        "copilot-cli.md §7 #20, §4.3 (e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        21,
        "1.0.102 (e2e)",
        "errorOccurred, sessionEnd, agentStop",
        "event_coverage",
        "A failed model call fires errorOccurred once per attempt (1 + 5 retries), then sessionEnd (reason error) without agentStop; the CLI exits 1.",
        "Decode errorOccurred; do not expect agentStop after model errors.",
        "copilot-cli.md §7 #21, §2 (e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        22,
        "1.0.102 (e2e)",
        "*",
        "trust",
        "User hooks in $COPILOT_HOME/hooks load in -p without folder trust; with COPILOT_OFFLINE=true and a BYOK provider all hooks fire without a GitHub login.",
        "Prefer user-level hooks for headless and offline runs.",
        "copilot-cli.md §7 #22, §1.3 (e2e)",
        TRUST
    ),
    q!(
        "copilot",
        Cp,
        23,
        "1.0.102 (e2e)",
        "preMcpToolCall, postResult, prePRDescription",
        "event_coverage",
        "preMcpToolCall, postResult and prePRDescription are accepted in config but undocumented and never fired.",
        "Do not rely on them; if one arrives it still decodes (kind other, named by --event).",
        "copilot-cli.md §7 #23, §2 (e2e)",
        Req
    ),
    // ---------------------------------------------------------------- OpenCode
    q!(
        "opencode",
        Oc,
        1,
        "since the Jan 2026 permission rework; still 1.18.33",
        "permission.ask, permission.asked",
        "permission",
        "The permission.ask hook never fires; permissions come as the permission.asked bus event and are answered over HTTP.",
        "Decode permission.asked; answer through the permission reply route.",
        "opencode.md §6 #1, §4.4 (seen, impl, e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        2,
        "all checked; 1.18.33",
        "tool.execute.after, message.part.updated",
        "tool_output",
        "tool.execute.after does not fire when a tool fails or tool.execute.before threw; failures show only as message.part.updated tool parts in state error.",
        "Derive tool.error from error-state tool parts.",
        "opencode.md §6 #2, §2.1 (src, impl, e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        3,
        "1.18.33 (e2e)",
        "tool.execute.after",
        "output_rewrite",
        "A throw in tool.execute.after replaces the model-visible result with the thrown message, after the side effect.",
        "Do not throw to flag output unless replacing it is meant.",
        "opencode.md §6 #3, §4.2 (e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        4,
        "all checked; 1.18.33",
        "tool.execute.before",
        "updated_input",
        "Reassigning output.args does nothing; only in-place mutation rewrites the arguments.",
        "Apply rewrites key by key into the existing args object.",
        "opencode.md §6 #4, §4.1 (src, e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        5,
        "all checked; 1.18.33",
        "*",
        "timeout",
        "There is no hook timeout: a hook that never settles stalls the operation.",
        "Keep a deadline in the plugin bridge.",
        "opencode.md §6 #5, §1.3 (seen, e2e)",
        TIMING
    ),
    q!(
        "opencode",
        Oc,
        6,
        "1.18.33 (e2e)",
        "tool.execute.after, message.part.updated",
        "output_rewrite",
        "Redacting output.output leaves the raw text in metadata.output and in the message.part.updated events already streamed.",
        "Overwrite metadata.output too; treat streamed output as already seen.",
        "opencode.md §6 #6, §8.2 (e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        7,
        "1.18.33 (seen, e2e)",
        "permission.asked",
        "ask",
        "opencode run auto-rejects every ask, ending the session with no further turn and exit 0; --auto approves instead.",
        "Expect asks to be rejected in headless runs.",
        "opencode.md §6 #7, §4.4 (seen, e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        8,
        "1.18.33 (e2e)",
        "chat.message",
        "block",
        "A throw in chat.message aborts the prompt; opencode run reports only a generic UnknownError and exits 1.",
        "Encode block_prompt as a thrown error; put the reason somewhere the user sees it.",
        "opencode.md §6 #8, §2.1 (e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        9,
        "1.18.33 (e2e)",
        "chat.params, chat.headers, experimental.chat.system.transform, tool.definition",
        "event_coverage",
        "chat.params, chat.headers and the system transform also fire for the title-generation request (agent title); tool.definition fires once per tool for every model call.",
        "Filter on agent title; keep tool.definition handlers cheap.",
        "opencode.md §6 #9, §2.1 (e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        10,
        "1.18.33 (e2e)",
        "chat.params, chat.headers, config",
        "secrets",
        "chat.params / chat.headers input includes the provider object with its options, API key included.",
        "Strip provider options before forwarding or logging.",
        "opencode.md §6 #10, §7.3 (e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        11,
        "1.18.33 (e2e)",
        "chat.message",
        "payload_shape",
        "Under opencode run the prompt text reaches chat.message wrapped in literal double quotes.",
        "Keep the text verbatim; do not assume it is unquoted.",
        "opencode.md §6 #11, §8.3 (e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        12,
        "1.18.33 (e2e)",
        "*",
        "install",
        "At startup OpenCode runs a background npm install of @opencode-ai/plugin per config directory unless its lock file already lists it.",
        "Ship a package.json, node_modules and lock file with the generated plugin.",
        "opencode.md §6 #12, §1.1 (e2e)",
        INSTALL
    ),
    q!(
        "opencode",
        Oc,
        13,
        "1.18.33 (e2e)",
        "server.instance.disposed",
        "event_coverage",
        "server.instance.disposed never fired under opencode run; nothing signals session end after the final session.idle.",
        "Treat the last session.idle as the end.",
        "opencode.md §6 #13, §2.2 (e2e)",
        NOT_SENT
    ),
    q!(
        "opencode",
        Oc,
        14,
        "1.18.33 (e2e)",
        "session.status, session.error, session.idle",
        "retry",
        "A model HTTP 400 marked not retryable was still retried 5 times (about 75 s), then session.error, session.idle twice and exit 1.",
        "Do not count retries as separate turns.",
        "opencode.md §6 #14 (e2e)",
        Na("the agent's own retry timing; no hook answer changes it")
    ),
    q!(
        "opencode",
        Oc,
        15,
        "verified 1.17.8",
        "tool.execute.before, tool.execute.after",
        "mcp",
        "MCP tools have no name prefix (<server>_<tool>).",
        "Detect MCP tools from the configured server list.",
        "opencode.md §6 #15, §3.3 (src, impl)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        16,
        "current",
        "tool.execute.after",
        "tool_output",
        "For MCP tools tool.execute.after gets the raw MCP result, not {title, output, metadata}.",
        "Decode both output shapes.",
        "opencode.md §6 #16, §2.1 (src)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        17,
        "current; both seen in 1.18.33",
        "session.idle, session.status",
        "event_name",
        "session.idle is deprecated in favour of session.status type idle; both are still published.",
        "Map one of them to agent.stop and ignore the twin.",
        "opencode.md §6 #17, §2.2 (src, e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        18,
        "2026; 1.18.33",
        "session.created, message.updated, message.part.updated, permission.asked",
        "payload_shape",
        "Event property shapes drift ({info} to {sessionID, info}, deltas in message.part.delta, permission.updated renamed permission.asked); 1.18.33 adds sessionID and an event id.",
        "Decode both envelopes; ignore unknown bus events.",
        "opencode.md §6 #18, §2.2 (src, seen, e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        19,
        "verified 1.18.30",
        "*",
        "subagent",
        "Subagent (task) child sessions fire every hook with the child's sessionID.",
        "Recognise subagents by info.parentID on session.created.",
        "opencode.md §6 #19, §8.6 (seen)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        20,
        "1.17.x",
        "*",
        "concurrency",
        "Concurrent opencode run processes can fail with 'database is locked' (shared SQLite store).",
        "Do not run parallel headless sessions against one store.",
        "opencode.md §6 #20 (impl)",
        Na("process concurrency of the agent; no payload involved")
    ),
    q!(
        "opencode",
        Oc,
        21,
        "all checked",
        "session.idle",
        "transcript",
        "No event carries the final assistant text of a turn.",
        "The bridge reads the last assistant message through the SDK and adds it to the frame.",
        "opencode.md §6 #21, §7.3 (impl)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        22,
        "1.18.33 (e2e)",
        "experimental.text.complete, message.part.updated",
        "transcript",
        "Finished text is visible per text part in experimental.text.complete and the last message.part.updated of a text part, but no single end-of-turn event carries it.",
        "Collect text parts if the final message is needed.",
        "opencode.md §6 #22, §2.1 (e2e)",
        Req
    ),
    // ---------------------------------------------------------------- OpenClaw
    q!(
        "openclaw",
        Ow,
        1,
        "current",
        "llm_input, llm_output, before_agent_finalize, agent_end",
        "config",
        "Non-bundled plugins silently receive no conversation hooks unless hooks.allowConversationAccess is true.",
        "Set allowConversationAccess in the generated plugin entry.",
        "openclaw.md §6 #1, §1.2 (doc, impl)",
        CONFIG
    ),
    q!(
        "openclaw",
        Ow,
        2,
        "2026.6.34",
        "*",
        "event_coverage",
        "When the Gateway delegates the agent loop to the Claude Code CLI harness, no tool or LLM hook fires.",
        "Do not rely on OpenClaw hooks under that harness.",
        "openclaw.md §6 #2 (impl)",
        NOT_SENT
    ),
    q!(
        "openclaw",
        Ow,
        3,
        "2026.9.3",
        "before_tool_call",
        "event_coverage",
        "With the claude-cli backend before_tool_call never fires for tools of configured mcp.servers (issue #155946).",
        "Gate MCP tools elsewhere on that backend.",
        "openclaw.md §6 #3 (seen)",
        NOT_SENT
    ),
    q!(
        "openclaw",
        Ow,
        4,
        "2026.4.29",
        "before_tool_call, after_tool_call",
        "event_coverage",
        "before_tool_call did not fire for native exec through the Anthropic harness while after_tool_call did (issue #76201).",
        "Upgrade past the fix.",
        "openclaw.md §6 #4 (seen)",
        NOT_SENT
    ),
    q!(
        "openclaw",
        Ow,
        5,
        "Feb 2026",
        "before_tool_call",
        "dedupe",
        "before_tool_call fired 2 to 3 times per tool call through separate code paths (issue #15502).",
        "Dedupe by toolCallId.",
        "openclaw.md §6 #5 (seen)",
        Req
    ),
    q!(
        "openclaw",
        Ow,
        6,
        "Apr 2026",
        "before_tool_call",
        "event_coverage",
        "Tools invoked through the loopback MCP tools/call path skipped before_tool_call (PR #70147).",
        "Upgrade past the fix.",
        "openclaw.md §6 #6 (seen)",
        NOT_SENT
    ),
    q!(
        "openclaw",
        Ow,
        7,
        "Apr 2026",
        "before_tool_call, after_tool_call",
        "config",
        "HOOK.md internal hooks that declare before_tool_call/after_tool_call load as Ready but are never invoked (issue #67085).",
        "Use a typed plugin, not HOOK.md, for tool hooks.",
        "openclaw.md §6 #7 (seen)",
        CONFIG
    ),
    q!(
        "openclaw",
        Ow,
        8,
        "2026.2 to 2026.4",
        "before_tool_call",
        "ask",
        "Early typings offered only params, block, blockReason; requireApproval arrived around 2026.3.28 and block/modify/approval shipped by 2026.4.22.",
        "Degrade ask on versions without requireApproval.",
        "openclaw.md §6 #8, §4.1 (seen)",
        Req
    ),
    q!(
        "openclaw",
        Ow,
        9,
        "none on 2026.6.34; 15 s on 2026.9.6",
        "before_tool_call, before_agent_run",
        "timeout",
        "Gate deadlines are version-dependent: none observed on 2026.6.34; on 2026.9.6 a 20 s before_tool_call was cut at 15 s and the call blocked while the handler kept running.",
        "Keep bridge deadlines under 15 s or raise hooks.timeoutMs.",
        "openclaw.md §6 #9, §1.4 (impl, doc, e2e)",
        TIMING
    ),
    q!(
        "openclaw",
        Ow,
        10,
        "2026.6.34; 2026.9.6",
        "gateway_start, cron_changed, cron_reconciled",
        "secrets",
        "gateway_start (and cron_*) contexts include the complete Gateway config with credentials.",
        "Sanitize contexts before forwarding or logging.",
        "openclaw.md §6 #10, §7 (impl, src, e2e)",
        Req
    ),
    q!(
        "openclaw",
        Ow,
        11,
        "2026.6.34; 2026.9.6",
        "before_tool_call, after_tool_call",
        "payload_shape",
        "Tool contexts lack workspaceDir and the model.",
        "Keep them per session from agent-context hooks.",
        "openclaw.md §6 #11, §3.1 (impl, src, e2e)",
        Req
    ),
    q!(
        "openclaw",
        Ow,
        12,
        "current; order seen on 2026.9.6",
        "agent_end, llm_output, before_agent_finalize",
        "transcript",
        "agent_end has no final assistant text, and on 2026.9.6 llm_output fires after agent_end.",
        "Take the text from before_agent_finalize.lastAssistantMessage or agent_end.messages.",
        "openclaw.md §6 #12, §7 (src, impl, e2e)",
        Req
    ),
    q!(
        "openclaw",
        Ow,
        13,
        "2026.6.34; 2026.9.6",
        "after_tool_call",
        "tool_output",
        "after_tool_call also fires for blocked, failed-hook and approval-denied calls, with error set and result.details.status blocked/error.",
        "Decode those as tool.error.",
        "openclaw.md §6 #13, §3.2 (impl, e2e)",
        Req
    ),
    q!(
        "openclaw",
        Ow,
        14,
        "2026.9.6 (e2e)",
        "*",
        "event_coverage",
        "openclaw agent exec never fires typed plugin hooks (plugins load in discovery mode only), silently.",
        "Use agent --local or the Gateway.",
        "openclaw.md §6 #14, §1.5 (e2e)",
        NOT_SENT
    ),
    q!(
        "openclaw",
        Ow,
        15,
        "2026.9.6 (e2e)",
        "session_start, session_end, gateway_start, gateway_stop, cron_changed, cron_reconciled",
        "event_coverage",
        "Session, Gateway and cron hooks fire only in Gateway mode, never in agent --local.",
        "Run through the Gateway when those events matter.",
        "openclaw.md §6 #15, §1.5 (e2e)",
        NOT_SENT
    ),
    q!(
        "openclaw",
        Ow,
        16,
        "2026.9.6 (e2e)",
        "before_tool_call",
        "block",
        "A throw or timeout in before_tool_call blocks, but the model gets only a generic 'hook failed' error.",
        "Deny by returning {block, blockReason}, never by throwing.",
        "openclaw.md §6 #16, §1.4 (e2e)",
        Req
    ),
    q!(
        "openclaw",
        Ow,
        17,
        "2026.9.6 (e2e)",
        "before_tool_call",
        "ask",
        "requireApproval is an immediate deny in non-interactive CLI runs.",
        "Degrade ask per policy for headless runs.",
        "openclaw.md §6 #17, §4.1 (e2e)",
        Req
    ),
    q!(
        "openclaw",
        Ow,
        18,
        "2026.9.6 (e2e)",
        "tool_result_persist",
        "output_rewrite",
        "tool_result_persist changes only the stored transcript, not the live model context.",
        "Replace output in after_tool_call, not tool_result_persist.",
        "openclaw.md §6 #18, §4.5 (e2e)",
        Req
    ),
    q!(
        "openclaw",
        Ow,
        19,
        "2026.9.6 (e2e)",
        "resolve_exec_env, before_tool_call",
        "ordering",
        "resolve_exec_env fires before before_tool_call, so exec environments are resolved even for calls that are then blocked.",
        "Do no irreversible work in resolve_exec_env.",
        "openclaw.md §6 #19 (e2e)",
        ORDER
    ),
    q!(
        "openclaw",
        Ow,
        20,
        "2026.9.6 (e2e)",
        "before_agent_reply, agent_end",
        "native",
        "A before_agent_reply claim skips every other hook, agent_end included.",
        "Return a claim only deliberately, through native.",
        "openclaw.md §6 #20, §4.4 (e2e)",
        Req
    ),
    q!(
        "openclaw",
        Ow,
        21,
        "2026.9.6 (e2e)",
        "before_tool_call",
        "updated_input",
        "params rewrites run, but the model's history keeps the original arguments.",
        "Tell the model about rewrites through context if it matters.",
        "openclaw.md §6 #21, §4.1 (e2e)",
        Req
    ),
    q!(
        "openclaw",
        Ow,
        22,
        "2026.9.6 (e2e)",
        "*",
        "install",
        "register() runs more than once per process (registrationMode full and discovery).",
        "Keep register idempotent; spawn the bridge once.",
        "openclaw.md §6 #22, §1.1 (e2e)",
        INSTALL
    ),
    q!(
        "openclaw",
        Ow,
        23,
        "2026.9.6 (e2e)",
        "before_agent_finalize",
        "transcript",
        "before_agent_finalize.transcriptPath carried the session key, not a file path.",
        "Do not open transcriptPath as a file.",
        "openclaw.md §6 #23, §3.2 (e2e)",
        Req
    ),
    q!(
        "openclaw",
        Ow,
        24,
        "2026.9.6 (e2e)",
        "before_agent_run",
        "agent_ui",
        "A before_agent_run block makes openclaw agent exit 1.",
        "Expect a non-zero CLI exit after a blocked run.",
        "openclaw.md §6 #24, §4.2 (e2e)",
        AGENT_OUT
    ),
    q!(
        "openclaw",
        Ow,
        25,
        "current docs",
        "before_tool_call",
        "config",
        "timeoutBehavior on approvals is deprecated; unresolved approvals always deny.",
        "Do not generate timeoutBehavior.",
        "openclaw.md §6 #25, §4.1 (doc)",
        CONFIG
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Rows in each doc's quirk table.
    const TABLE_SIZES: [(Provider, usize); 8] = [
        (Provider::ClaudeCode, 22),
        (Provider::Codex, 21),
        (Provider::Cursor, 16),
        (Provider::Gemini, 25),
        (Provider::KimiCode, 18),
        (Provider::Copilot, 23),
        (Provider::Opencode, 22),
        (Provider::Openclaw, 25),
    ];

    #[test]
    fn every_table_row_is_registered_once_in_order() {
        let mut ids = HashSet::new();
        for q in all() {
            assert!(ids.insert(q.id), "duplicate id {}", q.id);
            assert!(
                q.id.starts_with(&format!("{}/", q.provider.id())),
                "{}: id prefix",
                q.id
            );
            for (what, s) in [
                ("versions", q.versions),
                ("event", q.event),
                ("capability", q.capability),
                ("behaviour", q.behaviour),
                ("mitigation", q.mitigation),
                ("source", q.source),
            ] {
                assert!(!s.trim().is_empty(), "{}: empty {what}", q.id);
            }
            assert!(
                q.source.starts_with(doc_file(q.provider)),
                "{}: source names {}",
                q.id,
                doc_file(q.provider)
            );
            assert!(
                q.source
                    .contains(&format!("{} #{}", section(q.provider), q.number())),
                "{}: source cites the row",
                q.id
            );
            if let FixtureRule::NotApplicable(r) = q.fixture {
                assert!(!r.trim().is_empty(), "{}: reason", q.id);
            }
        }
        for (p, n) in TABLE_SIZES {
            let qs = for_provider(p);
            assert_eq!(qs.len(), n, "{p}: quirk count");
            for (i, q) in qs.iter().enumerate() {
                assert_eq!(q.number() as usize, i + 1, "{}: numbering", q.id);
            }
        }
        assert_eq!(get("codex/7").unwrap().provider, Provider::Codex);
        assert!(get("codex/99").is_none());
    }

    #[test]
    fn json_round_trips() {
        let v: serde_json::Value = serde_json::from_str(&to_json()).unwrap();
        let arr = v.as_array().unwrap();
        assert_eq!(arr.len(), all().len());
        assert_eq!(arr[0]["id"], "claude-code/1");
        assert_eq!(arr[0]["provider"], "claude-code");
        assert_eq!(arr[0]["fixture"]["kind"], "required");
        let na = arr.iter().find(|q| q["id"] == "codex/3").expect("codex/3");
        assert_eq!(na["fixture"]["kind"], "not_applicable");
        assert!(na["fixture"]["reason"].as_str().unwrap().contains("trust"));
    }

    /// `docs/quirks.md` is generated from the registry; set
    /// `AH_UPDATE_QUIRKS_MD=1` to rewrite it after changing the data.
    #[test]
    fn docs_quirks_md_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/quirks.md");
        let want = markdown();
        if std::env::var_os("AH_UPDATE_QUIRKS_MD").is_some() {
            std::fs::write(&path, &want).expect("write docs/quirks.md");
        }
        let got = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            got == want,
            "docs/quirks.md is stale; regenerate with AH_UPDATE_QUIRKS_MD=1 cargo test -p agenthooks --lib quirks"
        );
        for q in all() {
            assert!(got.contains(&format!("`{}`", q.id)), "{} missing", q.id);
        }
    }
}
