//! Claude Code: the reference dialect.
//!
//! Wire facts: `docs/protocols/claude-code.md` (2.1.328). Input is
//! snake_case with `hook_event_name`; output is one JSON object on stdout
//! with exit 0 (`hookSpecificOutput` keyed by `hookEventName`). The no-op is
//! `{}`, except on events whose stdout is read as text and on event names
//! this version does not know, where it is empty stdout (doc §5).

mod quirks;

use serde_json::{Map, Value, json};

use super::DecodeOptions;
use super::common::{finish, join_context, merge_native};
use super::fields::Fields;
use crate::capability::Capability;
use crate::error::Error;
use crate::model::{
    AgentInfo, Canonical, Decision, DecisionKind as D, Event, Kind, McpInfo, Note, Policy,
    Provider, Response, SessionInfo, StopInfo, ToolCall,
};

const P: Provider = Provider::ClaudeCode;

/// Every native event of Claude Code 2.1.328, in documentation order.
pub const EVENTS: &[&str] = &[
    "SessionStart",
    "Setup",
    "InstructionsLoaded",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "MessageDisplay",
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "SubagentStart",
    "SubagentStop",
    "TaskCreated",
    "TaskCompleted",
    "Stop",
    "StopFailure",
    "TeammateIdle",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "PreCompact",
    "PostCompact",
    "Elicitation",
    "ElicitationResult",
    "SessionEnd",
    "PreModelSwitch",
    "PostModelSwitch",
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
        "FileChanged" => Kind::FileEdited,
        "MessageDisplay" => Kind::ModelResponse,
        _ => Kind::Other,
    }
}

/// Events whose stdout Claude Code reads as text, not JSON: the no-op there
/// is empty stdout (`{}` would become compaction instructions or a path).
const TEXT_STDOUT_EVENTS: &[&str] = &["PreCompact", "PostCompact", "WorktreeCreate"];

/// Events that discard `systemMessage` (doc §4.2), plus `StopFailure`, whose
/// output is ignored altogether (doc §2, §4.3). The one table: the
/// capability rows here and the host's reading of a hook's answer
/// (`host::decode_claude`) both use it; `fixtures/host/claude-stopfailure-output-ignored.json`
/// pins the `StopFailure` row, where the two tables once disagreed.
pub(crate) const NO_SYSTEM_MESSAGE: &[&str] = &[
    "InstructionsLoaded",
    "MessageDisplay",
    "Notification",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
    "Elicitation",
    "ElicitationResult",
    "StopFailure",
];

/// The capability row of a native event.
pub fn capability(native: &str) -> Capability {
    let kind = kind_of(native);
    let sm: &[&'static str] = if NO_SYSTEM_MESSAGE.contains(&native) {
        &[]
    } else {
        &["system_message"]
    };
    let (block, decisions, mods): (bool, &[D], Vec<&'static str>) = match native {
        "PreToolUse" => (
            true,
            &[D::NoDecision, D::Allow, D::Deny, D::Ask, D::Defer],
            vec![
                "updated_input",
                "context",
                "system_message",
                "stop_agent",
                "block_reason",
            ],
        ),
        // `ask` = let the dialog show (the no-op); exit 2 is ignored here.
        // No additionalContext on this event (doc §4.3).
        "PermissionRequest" => (
            true,
            &[D::NoDecision, D::Allow, D::Deny, D::Ask],
            vec![
                "updated_input",
                "system_message",
                "stop_agent",
                "block_reason",
            ],
        ),
        "UserPromptSubmit" => (
            true,
            &[D::NoDecision, D::AcceptPrompt, D::BlockPrompt],
            vec!["context", "system_message", "stop_agent", "block_reason"],
        ),
        "Stop" | "SubagentStop" => (
            true,
            &[D::NoDecision, D::Finish, D::Continue],
            vec!["system_message"],
        ),
        "PostToolUse" => (
            false,
            &[D::NoDecision, D::Observed, D::FlagOutput, D::ReplaceOutput],
            vec!["context", "system_message", "stop_agent"],
        ),
        "PostToolUseFailure" => (
            false,
            &[D::NoDecision, D::Observed],
            vec!["context", "system_message", "stop_agent"],
        ),
        "SessionStart" | "SubagentStart" => {
            (false, &[D::NoDecision], vec!["context", "system_message"])
        }
        _ => (false, &[D::NoDecision], sm.to_vec()),
    };
    Capability::new(P, native, kind, block, decisions, &mods)
}

/// Decodes a Claude-shaped payload. Also used by dialects that copy it.
pub fn decode(map: Map<String, Value>, opts: &DecodeOptions) -> Result<Event, Error> {
    decode_as(P, map, opts)
}

pub(crate) fn decode_as(
    provider: Provider,
    map: Map<String, Value>,
    opts: &DecodeOptions,
) -> Result<Event, Error> {
    let mut f = Fields::new(map);
    let native = f.event_name("hook_event_name", provider, opts)?;
    let kind = kind_of(&native);
    let mut ev = Event::new(provider, native.clone(), kind);
    ev.session = SessionInfo {
        id: f.id("session_id")?.unwrap_or_default(),
        turn_id: match f.str("turn_id")? {
            Some(t) => t,
            None => f.str("prompt_id")?.unwrap_or_default(),
        },
        cwd: f.str("cwd")?.unwrap_or_default(),
        workspace_roots: Vec::new(),
        transcript_path: f.str("transcript_path")?.unwrap_or_default(),
        model: f.str("model")?.unwrap_or_default(),
        permission_mode: f.str("permission_mode")?.unwrap_or_default(),
        user_email: String::new(),
    };
    if let Some(id) = f.id("agent_id")? {
        ev.agent = Some(AgentInfo {
            id,
            r#type: f.str_keep_empty("agent_type")?.unwrap_or_default(),
        });
    }
    if f.has("tool_name") || kind.has_tool() {
        let name = f.str("tool_name")?.unwrap_or_default();
        let raw_input = f.take("tool_input");
        let mut tool = ToolCall::new(provider, &name, raw_input, f.id("tool_use_id")?);
        if let Some(server) = f
            .object("mcp_server")?
            .and_then(|m| m.get("name"))
            .and_then(Value::as_str)
        {
            let m = tool.mcp.get_or_insert_with(McpInfo::default);
            m.server = server.to_string();
            tool.canonical = Canonical::Mcp;
        }
        if tool.id.is_empty() && !name.is_empty() {
            tool.synthesize_id(&ev.session.id, &ev.session.turn_id);
        }
        if !name.is_empty() {
            ev.tool = Some(tool);
        }
    }
    ev.duration_ms = f.u64("duration_ms")?;
    match native.as_str() {
        "UserPromptSubmit" | "UserPromptExpansion" => ev.prompt = f.str("prompt")?,
        "PostToolUse" => ev.set_output(f.take("tool_response")),
        "PostToolUseFailure" => {
            ev.failed = true;
            ev.error = f.str("error")?;
        }
        "Stop" | "SubagentStop" => {
            let stop = StopInfo {
                previously_continued: f.bool("stop_hook_active")?.unwrap_or(false),
                loop_count: None,
                final_message: f.str("last_assistant_message")?,
                usage: Default::default(),
            };
            // Presence rule: an all-empty `stop` is omitted.
            if !stop.is_empty() {
                ev.stop = Some(stop);
            }
        }
        "StopFailure" => {
            ev.error = f.str("error")?;
            ev.message = f.str("last_assistant_message")?;
        }
        "SessionStart" | "ConfigChange" | "DirectoryAdded" | "PreModelSwitch"
        | "PostModelSwitch" => {
            ev.source = f.str("source")?;
        }
        "SessionEnd" | "PermissionDenied" => ev.reason = f.str("reason")?,
        "PreCompact" => {
            ev.trigger = f.str("trigger")?;
            ev.instructions = f.str("custom_instructions")?;
        }
        "PostCompact" => {
            ev.trigger = f.str("trigger")?;
            ev.message = f.str("compact_summary")?;
        }
        "Setup" => ev.trigger = f.str("trigger")?,
        "Notification" | "Elicitation" => ev.message = f.str("message")?,
        "MessageDisplay" => ev.message = f.str("delta")?,
        _ => {}
    }
    match native.as_str() {
        "FileChanged" | "InstructionsLoaded" | "ConfigChange" => ev.path = f.str("file_path")?,
        "CwdChanged" => ev.path = f.str("new_cwd")?,
        "DirectoryAdded" => ev.path = f.str("directory")?,
        "WorktreeRemove" => ev.path = f.str("worktree_path")?,
        _ => {}
    }
    Ok(ev)
}

/// Encodes a (planned) decision into Claude Code's exact answer.
pub fn encode(
    ev: &Event,
    d: &Decision,
    _policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Response, Error> {
    encode_as(ev, d, notes)
}

pub(crate) fn encode_as(
    ev: &Event,
    d: &Decision,
    notes: &mut Vec<Note>,
) -> Result<Response, Error> {
    let native = ev.native_name.as_str();
    let mut out = Map::new();
    let mut hso = Map::new();
    let mut system_message = d.system_message.clone();
    // Taken where the event has a human-facing block message; what is left
    // at the end had nowhere to go and is noted as dropped.
    let mut block_reason = d.block_reason.clone();
    match ev.kind {
        Kind::ToolPre => {
            let pd = match d.kind {
                D::Allow => Some("allow"),
                D::Deny => Some("deny"),
                D::Ask => Some("ask"),
                D::Defer => Some("defer"),
                _ => None,
            };
            if let Some(pd) = pd {
                hso.insert("permissionDecision".into(), json!(pd));
                if let Some(r) = &d.reason {
                    hso.insert("permissionDecisionReason".into(), json!(r));
                }
            }
            // updatedInput is applied with allow, ask or no decision (doc
            // §4.3, e2e); a deny or defer never runs the call.
            if let Some(u) = &d.updated_input {
                if matches!(d.kind, D::Deny | D::Defer) {
                    notes.push(dropped(
                        "updated_input",
                        "Claude Code applies updatedInput only with allow, ask or no decision",
                    ));
                } else {
                    hso.insert("updatedInput".into(), Value::Object(u.clone()));
                }
            }
            // permissionDecisionReason reaches the model on deny; the human
            // sees systemMessage.
            if matches!(d.kind, D::Deny | D::Ask) {
                system_message = join_human(system_message, block_reason.take());
            }
        }
        Kind::PermissionRequest => {
            let mut dec = Map::new();
            match d.kind {
                D::Allow => {
                    dec.insert("behavior".into(), json!("allow"));
                    if let Some(u) = &d.updated_input {
                        dec.insert("updatedInput".into(), Value::Object(u.clone()));
                    }
                }
                D::Deny => {
                    dec.insert("behavior".into(), json!("deny"));
                    if let Some(r) = &d.reason {
                        dec.insert("message".into(), json!(r));
                    }
                    // `interrupt` is deny-only (doc §4.3).
                    if d.stop_agent.is_some() {
                        dec.insert("interrupt".into(), json!(true));
                    }
                    system_message = join_human(system_message, block_reason.take());
                }
                // no_decision / ask: no answer, the dialog shows.
                _ => {}
            }
            if d.updated_input.is_some() && d.kind != D::Allow {
                notes.push(dropped(
                    "updated_input",
                    "PermissionRequest applies updatedInput only with allow",
                ));
            }
            if !dec.is_empty() {
                hso.insert("decision".into(), Value::Object(dec));
            }
        }
        Kind::PromptSubmitted => {
            if d.kind == D::BlockPrompt {
                // The reason is shown to the user (not the model) here.
                let r = nonempty(block_reason.take())
                    .or_else(|| nonempty(d.reason.clone()))
                    .unwrap_or_else(|| "Prompt blocked by hook.".into());
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(r));
            }
        }
        Kind::AgentStop | Kind::SubagentStop => {
            if d.kind == D::Continue {
                // `reason` is required: it is the next instruction.
                let r = nonempty(d.instruction.clone())
                    .or_else(|| nonempty(d.reason.clone()))
                    .unwrap_or_else(|| "Continue.".into());
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(r));
            }
        }
        Kind::ToolPost => match d.kind {
            D::FlagOutput => {
                let r =
                    nonempty(d.reason.clone()).unwrap_or_else(|| "Output flagged by hook.".into());
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(r));
            }
            D::ReplaceOutput => {
                let v = d.replaced_output.clone().unwrap_or(Value::Null);
                let v = reshape_output(ev, v, notes);
                hso.insert("updatedToolOutput".into(), v);
            }
            _ => {}
        },
        _ => {}
    }
    if block_reason.is_some() {
        notes.push(dropped(
            "block_reason",
            "Claude Code shows a block reason only with a blocking decision",
        ));
    }
    if let Some(ctx) = join_context(&d.context) {
        hso.insert("additionalContext".into(), json!(ctx));
    }
    if let Some(stop) = &d.stop_agent {
        out.insert("continue".into(), json!(false));
        if let Some(r) = &stop.reason {
            out.insert("stopReason".into(), json!(r));
        }
    }
    if let Some(sm) = system_message {
        out.insert("systemMessage".into(), json!(sm));
    }
    if !hso.is_empty() {
        let mut h = Map::new();
        h.insert("hookEventName".into(), json!(native));
        h.extend(hso);
        out.insert("hookSpecificOutput".into(), Value::Object(h));
    }
    if let Some(n) = &d.native {
        merge_native(&mut out, n);
        if let Some(Value::Object(h)) = out.get_mut("hookSpecificOutput") {
            h.entry("hookEventName").or_insert_with(|| json!(native));
        }
    }
    // `{}` is the no-op where stdout is parsed as JSON; where it is read as
    // text, and on events we do not know, only empty stdout is safe (doc §5).
    if out.is_empty() && !TEXT_STDOUT_EVENTS.contains(&native) && EVENTS.contains(&native) {
        return Ok(Response {
            stdout: "{}".into(),
            ..Response::default()
        });
    }
    Ok(finish(out))
}

fn dropped(what: &str, detail: &str) -> Note {
    Note::new("dropped", Some(what), None, detail)
}

fn nonempty(s: Option<String>) -> Option<String> {
    s.filter(|r| !r.trim().is_empty())
}

/// Claude has one human-only channel (`systemMessage`): a block reason joins
/// the system message after a blank line.
fn join_human(system_message: Option<String>, block_reason: Option<String>) -> Option<String> {
    match (system_message, block_reason) {
        (Some(sm), Some(br)) => Some(format!("{sm}\n\n{br}")),
        (sm, br) => sm.or(br),
    }
}

/// Claude ignores a plain-string `updatedToolOutput` for Bash (quirk 22):
/// only an object in the tool's own output shape replaces the result. Text
/// is wrapped in the shape of the payload's own `tool_response` (stdout =
/// the text, stderr emptied), or in the documented shape without one.
fn reshape_output(ev: &Event, v: Value, notes: &mut Vec<Note>) -> Value {
    let is_bash = ev.tool.as_ref().is_some_and(|t| t.name == "Bash");
    match v {
        Value::String(s) if is_bash => {
            notes.push(Note::new(
                "reshaped",
                Some("string"),
                Some("bash_output"),
                "Claude Code ignores a plain string updatedToolOutput for Bash",
            ));
            let mut shape = match ev.output() {
                Value::Object(m) if m.contains_key("stdout") => m.clone(),
                _ => Map::new(),
            };
            shape.insert("stdout".into(), json!(s));
            shape.insert("stderr".into(), json!(""));
            shape.entry("interrupted").or_insert(json!(false));
            shape.insert("isImage".into(), json!(false));
            Value::Object(shape)
        }
        other => other,
    }
}

/// Tool names (`dialect::tool_names` has the sources and the rules).
/// Claude Code's tool names; also the shared fallback (`tool_names`).
pub(crate) fn tool_class(name: &str) -> Option<crate::model::Canonical> {
    use crate::model::Canonical::{
        Fetch, FileEdit, FileRead, FileWrite, Other, Search, Shell, Task as Subagent,
    };
    Some(match name {
        // `BashOutput`/`KillShell` (background shells) are from older builds;
        // not in the docs, kept from the first version of this table.
        "Bash" | "PowerShell" | "BashOutput" | "KillShell" => Shell,
        // `NotebookRead`: older builds, not in the docs.
        "Read" | "NotebookRead" => FileRead,
        "Write" => FileWrite,
        "Edit" | "MultiEdit" | "NotebookEdit" => FileEdit,
        "Glob" | "Grep" | "LS" => Search,
        "WebFetch" | "WebSearch" => Fetch,
        // `Task` is the name `Agent` had before.
        "Agent" | "Task" => Subagent,
        "AskUserQuestion" | "ExitPlanMode" | "TodoWrite" | "Skill" | "EndConversation"
        | "TaskCreate" | "TaskUpdate" | "TaskGet" | "EnterWorktree" | "ExitWorktree" => Other,
        _ => return None,
    })
}

/// MCP tool names: `(server, tool)` (shapes in `dialect::tool_names`).
pub(crate) fn mcp_name(name: &str) -> Option<(&str, &str)> {
    use super::tool_names::double_underscore;
    double_underscore(name)
}

/// Everything about this agent, for [`super::agent`].
/// Variant: `remote` when `CLAUDE_CODE_REMOTE=true` (claude-code.md §1.2).
pub(crate) static AGENT: super::Agent = super::Agent {
    provider: Provider::ClaudeCode,
    events: EVENTS,
    capability,
    tool_class,
    mcp_name,
    variant: |_, env| (env("CLAUDE_CODE_REMOTE").as_deref() == Some("true")).then_some("remote"),
    quirks: quirks::QUIRKS,
    quirk_section: "§7",
    research: "claude-code.md",
    page: "docs/agents/claude-code.md",
    decode,
    encode,
    lazy_output: &[("PostToolUse", "tool_response")],
    undecodable: None,
};
