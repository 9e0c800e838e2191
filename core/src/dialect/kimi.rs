//! Kimi Code (Moonshot AI, TypeScript `@moonshot-ai/kimi-code`), and the
//! payload forms of the legacy Python Kimi CLI.
//!
//! Wire facts: `docs/protocols/kimi-code.md` (source 0.38.0, observed 2.1.0).
//! Input is Claude-like (`hook_event_name`, snake_case top-level keys only),
//! with Kimi's own shapes: `prompt` is an array of content parts (a plain
//! string on `TurnStarted`), `error` an object, `tool_output` a string cut at
//! 2,000 characters, the call id is `tool_call_id`.
//!
//! The response surface is tiny: only a block exists, only on `PreToolUse`,
//! `UserPromptSubmit` and `Stop` (a `Stop` block continues the turn once).
//! `allow`, `ask`, `updatedInput`, `additionalContext`, `systemMessage` and
//! `continue` do not exist; the one other output is the context text of
//! `UserPromptSubmit`. Blocks are encoded as exit 2 with the reason on
//! stderr: the exit code carries the block even if stray bytes reach stdout,
//! and Kimi ignores stdout then (a JSON deny on exit 0 would turn into a
//! no-op, or into prompt context on `UserPromptSubmit`, the moment anything
//! else is printed). The no-op is EMPTY stdout: any stdout on
//! `UserPromptSubmit`, even `{}`, is pasted into the model's context.

mod quirks;

use serde_json::{Map, Value, json};

use super::DecodeOptions;
use super::common::{exit2_block, finish, join_context, merge_native};
use super::fields::{Fields, wrong};
use crate::capability::Capability;
use crate::error::Error;
use crate::model::{
    AgentInfo, Decision, DecisionKind as D, Event, Fail, Kind, Note, Policy, Provider, Response,
    SessionInfo, StopInfo, ToolCall, Unsupported,
};

const P: Provider = Provider::KimiCode;

/// Every hook event of Kimi Code (0.38.0 source; all 20 load in 2.1.0), in
/// the order of the protocol doc's event table.
pub const EVENTS: &[&str] = &[
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "UserPromptQueued",
    "TurnStarted",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "PermissionResult",
    "Stop",
    "StopFailure",
    "Interrupt",
    "SessionHeartbeat",
    "SubagentStart",
    "SubagentStop",
    "TaskStarted",
    "PreCompact",
    "PostCompact",
    "Notification",
];

/// The unified kind of a native event name (`other` when unmapped).
pub fn kind_of(native: &str) -> Kind {
    match native {
        "SessionStart" => Kind::SessionStart,
        "SessionEnd" => Kind::SessionEnd,
        "UserPromptSubmit" => Kind::PromptSubmitted,
        "PreToolUse" => Kind::ToolPre,
        "PostToolUse" => Kind::ToolPost,
        "PostToolUseFailure" => Kind::ToolError,
        "PermissionRequest" => Kind::PermissionRequest,
        "Stop" => Kind::AgentStop,
        "SubagentStart" => Kind::SubagentStart,
        "SubagentStop" => Kind::SubagentStop,
        "PreCompact" => Kind::CompactPre,
        "PostCompact" => Kind::CompactPost,
        "Notification" => Kind::Notification,
        _ => Kind::Other,
    }
}

/// The capability row of a native event. Only the three blockable events
/// take a conclusive decision; `system_message`, `stop_agent`,
/// `updated_input` and context outside `UserPromptSubmit` exist nowhere.
pub fn capability(native: &str) -> Capability {
    let kind = kind_of(native);
    let (block, decisions, mods): (bool, &[D], &[&'static str]) = match native {
        // `allow` and `ask` are no-ops (§4.2, §5): degraded before encoding.
        "PreToolUse" => (true, &[D::NoDecision, D::Deny], &[]),
        // Non-JSON stdout or `message` becomes a user message placed before
        // the prompt (§4.3); a block shows its text to the user (§4.3).
        "UserPromptSubmit" => (
            true,
            &[D::NoDecision, D::AcceptPrompt, D::BlockPrompt],
            &["context", "block_reason"],
        ),
        // A block appends the reason as a user message, once per turn (§6).
        "Stop" => (true, &[D::NoDecision, D::Finish, D::Continue], &[]),
        "SubagentStop" => (false, &[D::NoDecision, D::Finish], &[]),
        "PostToolUse" | "PostToolUseFailure" => (false, &[D::NoDecision, D::Observed], &[]),
        // Observe only: a deny here has no effect (§2).
        _ => (false, &[D::NoDecision], &[]),
    };
    Capability::new(P, native, kind, block, decisions, mods)
}

/// Decodes a Kimi Code payload (also the legacy Python Kimi CLI forms:
/// `prompt` as a string, `error` as a string, `tool_output` as an object).
pub fn decode(map: Map<String, Value>, opts: &DecodeOptions) -> Result<Event, Error> {
    let mut f = Fields::new(map);
    let native = f.event_name("hook_event_name", P, opts)?;
    let kind = kind_of(&native);
    let mut ev = Event::new(P, native.clone(), kind);
    ev.session = SessionInfo {
        id: f.id("session_id")?.unwrap_or_default(),
        // A number on TurnStarted, Interrupt and the permission events;
        // UserPromptQueued names its prompt instead.
        turn_id: match f.id("turn_id")? {
            Some(t) => t,
            None => f.id("prompt_id")?.unwrap_or_default(),
        },
        cwd: f.str("cwd")?.unwrap_or_default(),
        workspace_roots: Vec::new(),
        transcript_path: f.str("transcript_path")?.unwrap_or_default(),
        model: f.str("model")?.unwrap_or_default(),
        permission_mode: f.str("permission_mode")?.unwrap_or_default(),
        user_email: String::new(),
    };
    // `agent_id` is `"main"` for the main agent (Notification, permission
    // events); tool events inside a subagent carry no id at all (§6).
    if let Some(id) = f.id("agent_id")?.filter(|id| id != "main") {
        ev.agent = Some(AgentInfo {
            id,
            r#type: f.str("agent_name")?.unwrap_or_default(),
        });
    } else if matches!(kind, Kind::SubagentStart | Kind::SubagentStop) {
        if let Some(name) = f.str("agent_name")? {
            ev.agent = Some(AgentInfo {
                id: String::new(),
                r#type: name,
            });
        }
    }
    if f.has("tool_name") || kind.has_tool() {
        let name = f.str("tool_name")?.unwrap_or_default();
        let raw_input = f.take("tool_input");
        let id = match f.id("tool_call_id")? {
            Some(id) => Some(id),
            None => f.id("tool_use_id")?,
        };
        let mut tool = ToolCall::new(P, &name, raw_input, id);
        // 0.22.2 sent no tool_call_id on PostToolUseFailure of blocked calls.
        if tool.id.is_empty() && !name.is_empty() {
            tool.synthesize_id(&ev.session.id, &ev.session.turn_id);
        }
        if !name.is_empty() {
            ev.tool = Some(tool);
        }
    }
    match native.as_str() {
        "UserPromptSubmit" | "UserPromptQueued" | "TurnStarted" | "SubagentStart" => {
            ev.prompt = prompt_text(f.map.get("prompt"))?;
        }
        _ => {}
    }
    match native.as_str() {
        "PostToolUse" => ev.set_output(f.take("tool_output")),
        "PostToolUseFailure" => {
            ev.failed = true;
            ev.error = error_text(&f, "error")?;
        }
        "PermissionResult" => {
            ev.reason = f.str("decision")?;
            ev.message = f.str("feedback")?;
            ev.error = error_text(&f, "error")?;
        }
        "Stop" | "SubagentStop" => {
            let stop = StopInfo {
                // Always false in Kimi Code (quirk 4); true on the legacy
                // Python CLI's single re-trigger.
                previously_continued: f.bool("stop_hook_active")?.unwrap_or(false),
                loop_count: None,
                final_message: f.str("response")?,
                usage: Default::default(),
            };
            if !stop.is_empty() {
                ev.stop = Some(stop);
            }
        }
        "StopFailure" => {
            ev.error = f.str("error_message")?;
            ev.reason = f.str("error_type")?;
        }
        "SessionStart" => ev.source = f.str("source")?,
        "SessionEnd" | "Interrupt" => ev.reason = f.str("reason")?,
        "TurnStarted" => ev.source = f.str("origin_kind")?,
        "TaskStarted" => {
            ev.source = f.str("kind")?;
            ev.message = f.str("description")?;
        }
        "PreCompact" | "PostCompact" => ev.trigger = f.str("trigger")?,
        "Notification" => {
            ev.message = match f.str("body")? {
                Some(b) => Some(b),
                None => f.str("title")?,
            };
        }
        _ => {}
    }
    Ok(ev)
}

/// The text of a prompt: Kimi Code sends an array of content parts, whose
/// text parts are joined with a space (the value its matchers see, §1.5);
/// other parts (images, ...) are skipped, their raw form kept. A plain
/// string (TurnStarted, the Python CLI) is taken as is.
fn prompt_text(v: Option<&Value>) -> Result<Option<String>, Error> {
    let parts = match v {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) => return Ok(Some(s.clone()).filter(|s| !s.is_empty())),
        Some(Value::Array(parts)) => parts,
        Some(other) => {
            return Err(wrong(
                "prompt",
                "a string or an array of content parts",
                other,
            ));
        }
    };
    let mut texts: Vec<&str> = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        match part {
            Value::String(s) => texts.push(s),
            Value::Object(m) => {
                let is_text = match m.get("type") {
                    None | Some(Value::Null) => true,
                    Some(t) => t.as_str() == Some("text"),
                };
                if !is_text {
                    continue;
                }
                match m.get("text") {
                    None | Some(Value::Null) => {}
                    Some(Value::String(s)) => texts.push(s),
                    Some(other) => {
                        return Err(wrong(&format!("prompt[{i}].text"), "a string", other));
                    }
                }
            }
            _ => {}
        }
    }
    let joined = texts.join(" ");
    Ok(Some(joined).filter(|s| !s.is_empty()))
}

/// The text of an `error`: Kimi Code sends `{code, message, retryable, ...}`
/// (the object stays in `raw`); the Python CLI a string.
fn error_text(f: &Fields, key: &str) -> Result<Option<String>, Error> {
    match f.map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone()).filter(|s| !s.is_empty())),
        Some(Value::Object(m)) => {
            let pick = |k: &str| {
                m.get(k)
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
            };
            Ok(pick("message")
                .or_else(|| pick("code"))
                .or_else(|| Some(Value::Object(m.clone()).to_string())))
        }
        Some(other) => Err(wrong(key, "an object or a string", other)),
    }
}

/// Kimi-only rules on top of the capability table.
fn refine(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Decision, Error> {
    let strict = policy.unsupported == Unsupported::Strict;
    let mut d = d.clone();
    let unsupported = |what: &str| Error::UnsupportedDecision {
        provider: P.id(),
        event: ev.native_name.clone(),
        what: what.to_string(),
    };
    // A blocked prompt never reaches the model, and the context text exists
    // only on a successful (exit 0) run.
    if ev.kind == Kind::PromptSubmitted && d.kind == D::BlockPrompt && !d.context.is_empty() {
        if strict {
            return Err(unsupported("context"));
        }
        notes.push(Note::new(
            "dropped",
            Some("context"),
            None,
            "Kimi Code drops context when the prompt is blocked",
        ));
        d.context.clear();
    }
    // Stdout is ignored on exit 2, so `native` cannot ride along a block.
    if d.native.is_some() && block_text(ev, &d).is_some() {
        if strict {
            return Err(unsupported("native"));
        }
        notes.push(Note::new(
            "dropped",
            Some("native"),
            None,
            "Kimi Code ignores stdout when a hook exits 2",
        ));
        d.native = None;
    }
    Ok(d)
}

/// The reason of a block, when the (planned) decision blocks. Empty
/// reasons get Kimi's own default text (§4.1).
fn block_text(ev: &Event, d: &Decision) -> Option<String> {
    let nonempty = |s: &Option<String>| s.clone().filter(|r| !r.trim().is_empty());
    let default = || format!("Blocked by {} hook", ev.native_name);
    match (ev.kind, d.kind) {
        (Kind::ToolPre, D::Deny) => Some(nonempty(&d.reason).unwrap_or_else(default)),
        // One text is shown for a blocked prompt (a JSON `message` would
        // replace the reason): the human-facing one wins, as on Claude.
        (Kind::PromptSubmitted, D::BlockPrompt) => Some(
            nonempty(&d.block_reason)
                .or_else(|| nonempty(&d.reason))
                .unwrap_or_else(default),
        ),
        // The text becomes a plain user message and the model goes on.
        (Kind::AgentStop, D::Continue) => Some(
            nonempty(&d.instruction)
                .or_else(|| nonempty(&d.reason))
                .unwrap_or_else(default),
        ),
        _ => None,
    }
}

/// Encodes a (planned) decision into Kimi Code's exact answer.
pub fn encode(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Response, Error> {
    let d = refine(ev, d, policy, notes)?;
    if let Some(reason) = block_text(ev, &d) {
        return Ok(exit2_block(P, &reason));
    }
    let mut out = Map::new();
    if ev.kind == Kind::PromptSubmitted {
        // `{"message": ...}` rather than bare text: plain stdout is trimmed
        // and a context that happens to be JSON would be parsed as an answer.
        // An empty `message` would make Kimi paste the whole stdout instead.
        let parts: Vec<String> = d
            .context
            .iter()
            .filter(|c| !c.trim().is_empty())
            .cloned()
            .collect();
        if let Some(ctx) = join_context(&parts) {
            out.insert("message".into(), json!(ctx));
        }
    }
    if let Some(n) = &d.native {
        merge_native(&mut out, n);
    }
    Ok(finish(out))
}

/// The answer when the payload could not be decoded. Exit 0 with empty
/// stdout is neutral on every event (any stdout would become prompt context
/// on `UserPromptSubmit`); exit 2 with stderr is the one block Kimi honours
/// whatever the event (a deny on `PreToolUse`/`UserPromptSubmit`, a single
/// continuation on `Stop`, nothing on observe-only events). Kimi itself
/// fails open on any other exit, crash or timeout (quirk 1).
pub fn undecodable(fail: Fail, diag: &str) -> Response {
    match fail {
        Fail::Open => Response::empty(),
        Fail::Closed => exit2_block(P, diag),
    }
}

/// Tool names (`dialect::tool_names` has the sources and the rules).
/// Kimi Code (TypeScript) and the legacy Python Kimi CLI.
pub(crate) fn tool_class(name: &str) -> Option<crate::model::Canonical> {
    use crate::model::Canonical::{
        Fetch, FileEdit, FileRead, FileWrite, Other, Search, Shell, Task as Subagent,
    };
    Some(match name {
        // `Shell`, `WriteFile`, `StrReplaceFile`: legacy Python Kimi CLI.
        "Bash" | "Shell" => Shell,
        "Read" | "ReadMediaFile" => FileRead,
        "Write" | "WriteFile" => FileWrite,
        "Edit" | "StrReplaceFile" => FileEdit,
        "Glob" | "Grep" => Search,
        "FetchURL" | "WebSearch" => Fetch,
        "Agent" | "AgentSwarm" => Subagent,
        "AskUserQuestion" | "Skill" | "EnterPlanMode" | "ExitPlanMode" | "TaskList"
        | "TaskOutput" | "TaskStop" | "CronCreate" | "CronList" | "CronDelete" | "CreateGoal"
        | "GetGoal" | "UpdateGoal" | "SetGoalBudget" | "TodoList" | "WaitFor" => Other,
        _ => return None,
    })
}

/// MCP tool names: `(server, tool)` (shapes in `dialect::tool_names`).
pub(crate) fn mcp_name(name: &str) -> Option<(&str, &str)> {
    use super::tool_names::double_underscore;
    double_underscore(name)
}

/// Everything about this agent, for [`super::agent`].
pub(crate) static AGENT: super::Agent = super::Agent {
    provider: Provider::KimiCode,
    events: EVENTS,
    capability,
    tool_class,
    mcp_name,
    variant: super::no_variant,
    quirks: quirks::QUIRKS,
    quirk_section: "§7",
    research: "kimi-code.md",
    page: "docs/agents/kimi-code.md",
    decode,
    encode,
    lazy_output: &[("PostToolUse", "tool_output")],
    undecodable: Some(undecodable),
};
