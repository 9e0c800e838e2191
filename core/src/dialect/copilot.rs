//! GitHub Copilot CLI: two payload families, no event names, no tool ids.
//!
//! Wire facts: `docs/protocols/copilot-cli.md` (1.0.102, e2e). The native
//! dialect is camelCase (`sessionId`, `toolName`, `toolArgs`) and, except
//! for `notification` (`hook_event_name`) and `permissionRequest`
//! (`hookName`), does not name its event: the name comes from `--event`
//! baked into the command line (`DecodeOptions.event`), else from the
//! payload's shape (§3.4). Config keys written in PascalCase (`PreToolUse`)
//! select a Claude-shaped family: snake_case keys with `hook_event_name`.
//!
//! Output is one JSON object with top-level Copilot fields on stdout, exit 0,
//! for both families (`permissionDecision`, `behavior`, `decision`,
//! `modifiedArgs`, `modifiedResult`, `additionalContext`). Never a non-zero
//! exit: Copilot denies the tool call on any non-zero `preToolUse` exit
//! (quirk 4), so a crashed hook would block everything. The no-op is empty
//! stdout on every event (§5).

mod quirks;

use serde_json::{Map, Value, json};

use super::DecodeOptions;
use super::common::{finish, join_context, merge_native};
use super::fields::{Fields, wrong};
use crate::capability::{ASK_FALLBACK_REASON, Capability, value_text};
use crate::error::Error;
use crate::model::{
    AgentInfo, AskFallback, Decision, DecisionKind as D, Event, Fail, Kind, Note, Policy, Provider,
    Response, SessionInfo, StopInfo, ToolCall, Unsupported,
};

const P: Provider = Provider::Copilot;

/// The hook-type names of Copilot CLI 1.0.102 (camelCase), then the
/// PascalCase config keys of its Claude-compatible mode (§2).
pub const EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "userPromptSubmitted",
    "userPromptTransformed",
    "preToolUse",
    "preMcpToolCall",
    "permissionRequest",
    "postToolUse",
    "postToolUseFailure",
    "agentStop",
    "subagentStart",
    "subagentStop",
    "preCompact",
    "notification",
    "errorOccurred",
    "postResult",
    "prePRDescription",
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "ErrorOccurred",
];

/// The unified kind of a native event name (`other` when unmapped).
/// `preMcpToolCall` is `other`: it never fired and its output is unknown.
pub fn kind_of(native: &str) -> Kind {
    match native {
        "sessionStart" | "SessionStart" => Kind::SessionStart,
        "sessionEnd" | "SessionEnd" => Kind::SessionEnd,
        "userPromptSubmitted" | "UserPromptSubmit" => Kind::PromptSubmitted,
        "preToolUse" | "PreToolUse" => Kind::ToolPre,
        "permissionRequest" | "PermissionRequest" => Kind::PermissionRequest,
        "postToolUse" | "PostToolUse" => Kind::ToolPost,
        "postToolUseFailure" | "PostToolUseFailure" => Kind::ToolError,
        "agentStop" | "Stop" => Kind::AgentStop,
        "subagentStart" => Kind::SubagentStart,
        "subagentStop" | "SubagentStop" => Kind::SubagentStop,
        "preCompact" | "PreCompact" => Kind::CompactPre,
        "notification" | "Notification" => Kind::Notification,
        _ => Kind::Other,
    }
}

/// The capability row of a native event (§4.3; e2e wins over doc).
pub fn capability(native: &str) -> Capability {
    let kind = kind_of(native);
    let (block, decisions, mods): (bool, &[D], &[&'static str]) = match kind {
        // `ask` shows Copilot's own hook dialog (a deny in `-p` mode).
        Kind::ToolPre => (
            true,
            &[D::NoDecision, D::Allow, D::Deny, D::Ask],
            &["updated_input", "context"],
        ),
        // Flat `{behavior, message, interrupt}` only (quirk 17). No `ask`:
        // the neutral answer hands the call to rules and `--allow-all-tools`,
        // which may approve it without asking anyone.
        Kind::PermissionRequest => (true, &[D::NoDecision, D::Allow, D::Deny], &["stop_agent"]),
        // Honoured for command hooks on 1.0.102 (quirk 5, e2e won).
        Kind::PromptSubmitted => (
            true,
            &[D::NoDecision, D::AcceptPrompt, D::BlockPrompt],
            &["context", "block_reason"],
        ),
        Kind::AgentStop | Kind::SubagentStop => {
            (true, &[D::NoDecision, D::Finish, D::Continue], &[])
        }
        Kind::ToolPost => (
            false,
            &[D::NoDecision, D::Observed, D::ReplaceOutput],
            &["context"],
        ),
        Kind::ToolError => (false, &[D::NoDecision, D::Observed], &["context"]),
        Kind::SessionStart | Kind::SubagentStart => (false, &[D::NoDecision], &["context"]),
        _ => (false, &[D::NoDecision], &[]),
    };
    Capability::new(P, native, kind, block, decisions, mods)
}

/// Keys that only the camelCase family sends.
const CAMEL_KEYS: &[&str] = &[
    "sessionId",
    "hookName",
    "toolName",
    "toolArgs",
    "toolInput",
    "toolResult",
    "transcriptPath",
    "stopReason",
    "agentId",
    "agentType",
    "agentName",
    "errorContext",
    "customInstructions",
    "initialPrompt",
    "transformedPrompt",
];

/// Keys that only the snake_case (PascalCase-config) family sends.
const SNAKE_KEYS: &[&str] = &[
    "session_id",
    "tool_name",
    "tool_input",
    "tool_result",
    "transcript_path",
    "stop_reason",
    "agent_id",
    "agent_type",
    "agent_name",
    "error_context",
    "custom_instructions",
    "initial_prompt",
    "last_assistant_message",
];

/// Whether the payload is the snake_case family (§3.1): by its keys, else
/// by its `timestamp` (ISO string vs. milliseconds), else by a
/// `hook_event_name` other than the camelCase `notification`'s.
fn is_snake(m: &Map<String, Value>) -> bool {
    let has = |k: &&str| m.contains_key(*k);
    if CAMEL_KEYS.iter().any(has) {
        return false;
    }
    if SNAKE_KEYS.iter().any(has) {
        return true;
    }
    match m.get("timestamp") {
        Some(Value::String(_)) => true,
        Some(Value::Number(_)) => false,
        _ => matches!(m.get("hook_event_name"), Some(Value::String(s)) if s != "Notification"),
    }
}

/// The event of a camelCase payload from its shape (§3.4).
fn shape(m: &Map<String, Value>) -> Option<&'static str> {
    let has = |k: &str| m.contains_key(k);
    Some(if has("toolResult") {
        "postToolUse"
    } else if has("toolName") && has("error") {
        "postToolUseFailure"
    } else if has("toolName") && has("toolInput") {
        "permissionRequest"
    } else if has("toolName") && has("toolArgs") {
        "preToolUse"
    } else if has("transformedPrompt") {
        "userPromptTransformed"
    } else if has("prompt") {
        "userPromptSubmitted"
    } else if has("errorContext") || m.get("error").is_some_and(Value::is_object) {
        "errorOccurred"
    } else if has("agentName") {
        if has("stopReason") {
            "subagentStop"
        } else {
            "subagentStart"
        }
    } else if has("stopReason") || has("stop_hook_active") {
        "agentStop"
    } else if has("customInstructions") || has("trigger") {
        "preCompact"
    } else if has("source") {
        "sessionStart"
    } else if has("reason") {
        "sessionEnd"
    } else {
        return None;
    })
}

/// The native event name: the payload's own (`hook_event_name`,
/// `hookName`), else `--event`, else the camelCase shape.
fn event_name(f: &Fields, snake: bool, opts: &DecodeOptions) -> Result<String, Error> {
    if let Some(n) = f.str("hook_event_name")? {
        // The camelCase `notification` payload says `Notification`.
        if !snake && n == "Notification" {
            return Ok("notification".into());
        }
        return Ok(n);
    }
    if let Some(n) = f.str("hookName")? {
        return Ok(n);
    }
    if let Some(e) = opts.event.as_deref().filter(|e| !e.is_empty()) {
        return Ok(e.to_string());
    }
    if !snake {
        if let Some(n) = shape(&f.map) {
            return Ok(n.into());
        }
    }
    Err(Error::MissingEvent {
        provider: P.id(),
        field: if snake {
            "hook_event_name"
        } else {
            "hookName (or a payload shape that names it)"
        },
    })
}

/// Picks the spelling of a field: the family's own when present, else the
/// other family's (lenient), else the family's own.
fn key(f: &Fields, snake: bool, camel: &'static str, snake_key: &'static str) -> &'static str {
    let (mine, other) = if snake {
        (snake_key, camel)
    } else {
        (camel, snake_key)
    };
    if !f.has(mine) && f.has(other) {
        other
    } else {
        mine
    }
}

/// Decodes a Copilot payload of either family.
pub fn decode(map: Map<String, Value>, opts: &DecodeOptions) -> Result<Event, Error> {
    let snake = is_snake(&map);
    let mut f = Fields::new(map);
    let native = event_name(&f, snake, opts)?;
    let kind = kind_of(&native);
    let k = |f: &Fields, camel, snake_key| key(f, snake, camel, snake_key);
    let mut ev = Event::new(P, native, kind);
    ev.session = SessionInfo {
        id: f.id(k(&f, "sessionId", "session_id"))?.unwrap_or_default(),
        cwd: f.str("cwd")?.unwrap_or_default(),
        transcript_path: f
            .str(k(&f, "transcriptPath", "transcript_path"))?
            .unwrap_or_default(),
        ..SessionInfo::default()
    };
    let name_key = k(&f, "toolName", "tool_name");
    if f.has(name_key) || kind.has_tool() {
        let name = f.str(name_key)?.unwrap_or_default();
        // `toolInput` is permissionRequest's own view of the call (quirk 18).
        let order: &[&str] = match (snake, kind) {
            (true, _) => &["tool_input", "toolArgs", "toolInput"],
            (false, Kind::PermissionRequest) => &["toolInput", "toolArgs", "tool_input"],
            (false, _) => &["toolArgs", "toolInput", "tool_input"],
        };
        let raw_input = order
            .iter()
            .find(|k| f.has(k))
            .map(|k| f.take(k))
            .unwrap_or(Value::Null);
        let mut tool = ToolCall::new(P, &name, raw_input, f.id("tool_use_id")?);
        if tool.id.is_empty() && !name.is_empty() {
            // No tool-call ids at all (quirk 3); no turn id either.
            tool.synthesize_id(&ev.session.id, "");
        }
        if !name.is_empty() {
            ev.tool = Some(tool);
        }
    }
    match kind {
        Kind::PromptSubmitted => ev.prompt = f.str("prompt")?,
        Kind::ToolPost => {
            let out = f.take(k(&f, "toolResult", "tool_result"));
            let rt = out
                .get("resultType")
                .or_else(|| out.get("result_type"))
                .and_then(Value::as_str);
            ev.failed = rt == Some("failure");
            ev.set_output(out);
        }
        Kind::ToolError => {
            ev.failed = true;
            ev.error = f.str("error")?;
        }
        Kind::AgentStop | Kind::SubagentStop => {
            let final_message = if kind == Kind::SubagentStop {
                f.str(k(&f, "response", "last_assistant_message"))?
            } else {
                None
            };
            let stop = StopInfo {
                previously_continued: f.bool("stop_hook_active")?.unwrap_or(false),
                loop_count: None,
                final_message,
                usage: Default::default(),
            };
            ev.stop = (!stop.is_empty()).then_some(stop);
            ev.reason = f.str(k(&f, "stopReason", "stop_reason"))?;
        }
        Kind::SessionStart => ev.source = f.str("source")?,
        Kind::SessionEnd => ev.reason = f.str("reason")?,
        Kind::CompactPre => {
            ev.trigger = f.str("trigger")?;
            ev.instructions = f.str(k(&f, "customInstructions", "custom_instructions"))?;
        }
        Kind::Notification => ev.message = f.str("message")?,
        _ => {}
    }
    if matches!(kind, Kind::SubagentStart | Kind::SubagentStop) {
        let id = f.id(k(&f, "agentId", "agent_id"))?.unwrap_or_default();
        let r#type = match f.str(k(&f, "agentType", "agent_type"))? {
            Some(t) => t,
            None => f.str(k(&f, "agentName", "agent_name"))?.unwrap_or_default(),
        };
        if !id.is_empty() || !r#type.is_empty() {
            ev.agent = Some(AgentInfo { id, r#type });
        }
    }
    match ev.native_name.as_str() {
        "userPromptTransformed" => ev.prompt = f.str("prompt")?,
        "errorOccurred" | "ErrorOccurred" => {
            ev.error = error_text(&f)?;
            ev.source = f.str(k(&f, "errorContext", "error_context"))?;
        }
        _ => {}
    }
    Ok(ev)
}

/// `errorOccurred.error` is `{message, name, stack?}`; a plain string is
/// accepted too.
fn error_text(f: &Fields) -> Result<Option<String>, Error> {
    match f.map.get("error") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone()).filter(|s| !s.is_empty())),
        Some(Value::Object(m)) => match m.get("message") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone()).filter(|s| !s.is_empty())),
            Some(other) => Err(wrong("error.message", "a string", other)),
        },
        Some(other) => Err(wrong("error", "an object or a string", other)),
    }
}

const DEFAULT_DENY_REASON: &str = "Blocked by hook.";

/// Copilot-only rules on top of the capability table.
fn refine(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Decision, Error> {
    let strict = policy.unsupported == Unsupported::Strict;
    let unsupported = |what: &str| Error::UnsupportedDecision {
        provider: P.id(),
        event: ev.native_name.clone(),
        what: what.to_string(),
    };
    let mut d = d.clone();
    match ev.kind {
        Kind::ToolPre => {
            // The cloud agent treats `ask` as deny (quirk 15): apply the
            // declared fallback instead of letting the agent decide it.
            if d.kind == D::Ask && ev.variant == "cloud" {
                if strict {
                    return Err(unsupported("ask"));
                }
                let to = match policy.ask_fallback {
                    AskFallback::Deny => D::Deny,
                    AskFallback::NoDecision => D::NoDecision,
                };
                if to == D::Deny && d.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
                    d.reason = Some(ASK_FALLBACK_REASON.to_string());
                }
                notes.push(Note::new(
                    "degraded",
                    Some("ask"),
                    Some(to.as_str()),
                    "the Copilot cloud agent cannot ask (ask = deny there)",
                ));
                d.kind = to;
            }
            if d.kind == D::Deny && d.updated_input.is_some() {
                if strict {
                    return Err(unsupported("updated_input"));
                }
                notes.push(Note::new(
                    "dropped",
                    Some("updated_input"),
                    None,
                    "a denied call runs no arguments",
                ));
                d.updated_input = None;
            }
        }
        Kind::PermissionRequest => {
            // Sandbox-bypass requests ignore `allow` (§4.3).
            let bypass = ev
                .tool
                .as_ref()
                .is_some_and(|t| t.input.get("requestSandboxBypass") == Some(&Value::Bool(true)));
            if d.kind == D::Allow && bypass {
                if strict {
                    return Err(unsupported("allow"));
                }
                notes.push(Note::new(
                    "degraded",
                    Some("allow"),
                    Some("no_decision"),
                    "Copilot ignores allow on a sandbox-bypass request",
                ));
                d.kind = D::NoDecision;
            }
            // `interrupt` exists only with deny.
            if d.stop_agent.is_some() && d.kind != D::Deny {
                if strict {
                    return Err(unsupported("stop_agent"));
                }
                notes.push(Note::new(
                    "dropped",
                    Some("stop_agent"),
                    None,
                    "permissionRequest `interrupt` works only with deny",
                ));
                d.stop_agent = None;
            }
        }
        _ => {}
    }
    Ok(d)
}

/// Encodes a (planned) decision into Copilot's exact answer.
pub fn encode(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Response, Error> {
    let d = refine(ev, d, policy, notes)?;
    let mut out = Map::new();
    let nonempty = |s: &Option<String>| s.clone().filter(|r| !r.trim().is_empty());
    match ev.kind {
        Kind::ToolPre => {
            match d.kind {
                D::Allow => {
                    out.insert("permissionDecision".into(), json!("allow"));
                }
                D::Deny => {
                    // The reason is required for deny and shown to the model.
                    let r = nonempty(&d.reason).unwrap_or_else(|| DEFAULT_DENY_REASON.into());
                    out.insert("permissionDecision".into(), json!("deny"));
                    out.insert("permissionDecisionReason".into(), json!(r));
                }
                D::Ask => {
                    out.insert("permissionDecision".into(), json!("ask"));
                    if let Some(r) = nonempty(&d.reason) {
                        out.insert("permissionDecisionReason".into(), json!(r));
                    }
                }
                _ => {}
            }
            if let Some(u) = &d.updated_input {
                out.insert("modifiedArgs".into(), Value::Object(u.clone()));
            }
        }
        Kind::PermissionRequest => match d.kind {
            D::Allow => {
                out.insert("behavior".into(), json!("allow"));
            }
            D::Deny => {
                out.insert("behavior".into(), json!("deny"));
                if let Some(r) = nonempty(&d.reason) {
                    out.insert("message".into(), json!(r));
                }
                if d.stop_agent.is_some() {
                    out.insert("interrupt".into(), json!(true));
                }
            }
            _ => {}
        },
        Kind::PromptSubmitted => {
            if d.kind == D::BlockPrompt {
                // No model request follows: the reason reaches the human
                // (`session.warning`), so the human-facing text wins.
                let r = nonempty(&d.block_reason)
                    .or_else(|| nonempty(&d.reason))
                    .unwrap_or_else(|| "Prompt blocked by hook.".into());
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(r));
            }
        }
        Kind::AgentStop | Kind::SubagentStop => {
            if d.kind == D::Continue {
                let r = nonempty(&d.instruction)
                    .or_else(|| nonempty(&d.reason))
                    .unwrap_or_else(|| "Continue.".into());
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(r));
            }
        }
        Kind::ToolPost => {
            if d.kind == D::ReplaceOutput {
                let v = d.replaced_output.clone().unwrap_or(Value::Null);
                out.insert("modifiedResult".into(), modified_result(v, notes));
            }
        }
        _ => {}
    }
    // An empty-string override is rejected by Copilot (§4.1): omit it.
    if let Some(ctx) = join_context(&d.context).filter(|c| !c.trim().is_empty()) {
        out.insert("additionalContext".into(), json!(ctx));
    }
    if let Some(n) = &d.native {
        merge_native(&mut out, n);
    }
    Ok(finish(out))
}

/// `modifiedResult` is `{resultType, textResultForLlm}`: text is wrapped;
/// an object already in that shape passes (with `resultType` defaulted);
/// any other value is sent as its JSON text, with a `reshaped` note.
fn modified_result(v: Value, notes: &mut Vec<Note>) -> Value {
    match v {
        Value::String(s) => json!({"resultType": "success", "textResultForLlm": s}),
        Value::Object(mut m) if m.get("textResultForLlm").is_some_and(Value::is_string) => {
            m.entry("resultType").or_insert_with(|| json!("success"));
            Value::Object(m)
        }
        other => {
            notes.push(Note::new(
                "reshaped",
                Some("json"),
                Some("text"),
                "Copilot's modifiedResult carries text only (textResultForLlm)",
            ));
            json!({"resultType": "success", "textResultForLlm": value_text(&other)})
        }
    }
}

/// The answer when the payload could not be decoded (the event is unknown).
///
/// Always exit 0 (a non-zero exit denies every `preToolUse` call, quirk 4).
/// Open: empty stdout, neutral on every event. Closed: one object carrying
/// the deny of both gating tool events, `preToolUse`
/// (`permissionDecision`) and `permissionRequest` (`behavior`); every other
/// event ignores those fields (§4.1). No `decision:"block"`: on `agentStop`
/// and `subagentStop` that would force the agent to continue.
pub fn undecodable(fail: Fail, diag: &str) -> Response {
    match fail {
        Fail::Open => Response::empty(),
        Fail::Closed => {
            let code = diag
                .strip_prefix("agenthooks: ")
                .and_then(|rest| rest.split(':').next())
                .filter(|c| !c.is_empty() && !c.contains(' '))
                .unwrap_or("undecodable_input");
            let reason = format!(
                "Blocked because the hook could not read its input ({code}); policy is fail-closed."
            );
            let mut r = Response::json(&json!({
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
                "behavior": "deny",
                "message": reason,
            }));
            r.stderr = format!("{diag}\n");
            r
        }
    }
}

/// Tool names (`dialect::tool_names` has the sources and the rules).
/// GitHub Copilot CLI: runtime names (camelCase dialect) and the Claude
/// names of its PascalCase dialect.
pub(crate) fn tool_class(name: &str) -> Option<crate::model::Canonical> {
    use crate::model::Canonical::{
        Fetch, FileEdit, FileRead, FileWrite, Other, Search, Shell, Task as Subagent,
    };
    Some(match name {
        "bash" | "powershell" | "Bash" => Shell,
        "view" | "Read" => FileRead,
        "create" | "Write" => FileWrite,
        "edit" | "str_replace_editor" | "apply_patch" | "Edit" => FileEdit,
        "grep" | "rg" | "glob" | "Grep" | "Glob" => Search,
        "web_fetch" | "web_search" | "WebFetch" | "WebSearch" => Fetch,
        "task" | "Agent" | "Task" => Subagent,
        // `report_intent`: an internal tool seen firing hooks on v1.0.37.
        "ask_user" | "update_todo" | "report_intent" | "AskUserQuestion" | "TodoWrite" => Other,
        _ => return None,
    })
}

/// MCP tool names: `(server, tool)` (shapes in `dialect::tool_names`).
pub(crate) fn mcp_name(name: &str) -> Option<(&str, &str)> {
    use super::tool_names::{double_underscore, hyphen, split_nonempty};
    double_underscore(name)
        .or_else(|| split_nonempty(name, name.rfind('/')?))
        .or_else(|| split_nonempty(name, hyphen(name)?))
}

/// Everything about this agent, for [`super::agent`].
/// Variant: `cloud` when the cloud sandbox variables are set (copilot-cli.md §1.2).
pub(crate) static AGENT: super::Agent = super::Agent {
    provider: Provider::Copilot,
    events: EVENTS,
    capability,
    tool_class,
    mcp_name,
    variant: |_, env| {
        let cloud = ["COPILOT_AGENT_PROMPT", "GITHUB_COPILOT_API_TOKEN"]
            .iter()
            .any(|k| env(k).is_some_and(|v| !v.is_empty()));
        cloud.then_some("cloud")
    },
    quirks: quirks::QUIRKS,
    quirk_section: "§7",
    research: "copilot-cli.md",
    page: "docs/agents/copilot.md",
    decode,
    encode,
    lazy_output: &[],
    undecodable: Some(undecodable),
};
