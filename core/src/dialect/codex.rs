//! OpenAI Codex CLI: a Claude-shaped dialect with a strict output parser.
//!
//! Wire facts: `docs/protocols/codex.md` (0.171.0). Unknown keys, a bare
//! `allow`, `ask`, a deny without reason and `continue:false` on
//! PreToolUse each make the hook run "failed", which Codex treats as
//! fail-open; this encoder never emits any of them. The no-op is empty stdout.

mod quirks;

use serde_json::{Map, Value, json};

use super::DecodeOptions;
use super::common::{finish, join_context, merge_native};
use super::fields::Fields;
use crate::capability::{Capability, value_text};
use crate::error::Error;
use crate::model::{
    Decision, DecisionKind as D, Event, Kind, Note, Policy, Provider, Response, SessionInfo,
    Unsupported,
};

const P: Provider = Provider::Codex;

/// Every hook event of Codex 0.171.0, plus the legacy `notify` payload.
pub const EVENTS: &[&str] = &[
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "Interrupt",
    "PreModelRequest",
    "PostModelRequest",
    "agent-turn-complete",
];

/// The unified kind of a native event name (`other` when unmapped).
pub fn kind_of(native: &str) -> Kind {
    match native {
        "SessionStart" => Kind::SessionStart,
        "SessionEnd" => Kind::SessionEnd,
        "UserPromptSubmit" => Kind::PromptSubmitted,
        "PreToolUse" => Kind::ToolPre,
        "PermissionRequest" => Kind::PermissionRequest,
        "PostToolUse" => Kind::ToolPost,
        "PreCompact" => Kind::CompactPre,
        "PostCompact" => Kind::CompactPost,
        "SubagentStart" => Kind::SubagentStart,
        "SubagentStop" => Kind::SubagentStop,
        "Stop" => Kind::AgentStop,
        "PreModelRequest" => Kind::ModelRequest,
        "PostModelRequest" => Kind::ModelResponse,
        "agent-turn-complete" => Kind::Notification,
        _ => Kind::Other,
    }
}

/// The capability row of a native event.
pub fn capability(native: &str) -> Capability {
    let kind = kind_of(native);
    let (block, decisions, mods): (bool, &[D], &[&'static str]) = match native {
        // `allow` only together with `updatedInput` (checked in `refine`).
        "PreToolUse" => (
            true,
            &[D::NoDecision, D::Allow, D::Deny],
            &["updated_input", "context", "system_message", "block_reason"],
        ),
        // `ask` = the normal approval flow, i.e. the no-op.
        "PermissionRequest" => (
            true,
            &[D::NoDecision, D::Allow, D::Deny, D::Ask],
            &["system_message"],
        ),
        "UserPromptSubmit" => (
            true,
            &[D::NoDecision, D::AcceptPrompt, D::BlockPrompt],
            &["context", "system_message", "stop_agent", "block_reason"],
        ),
        "Stop" | "SubagentStop" => (
            true,
            &[D::NoDecision, D::Finish, D::Continue],
            &["system_message"],
        ),
        // A block replaces the tool result with the reason: flag and
        // replace both map onto it (replace degrades with a note).
        "PostToolUse" => (
            false,
            &[D::NoDecision, D::Observed, D::FlagOutput],
            &["context", "system_message", "stop_agent"],
        ),
        "SessionStart" | "SubagentStart" => {
            (false, &[D::NoDecision], &["context", "system_message"])
        }
        "PreCompact" | "PostCompact" | "Interrupt" => {
            (false, &[D::NoDecision], &["system_message"])
        }
        _ => (false, &[D::NoDecision], &[]),
    };
    let cap = Capability::new(P, native, kind, block, decisions, mods);
    if native == "PreToolUse" {
        cap.only_with(D::Allow, "updated_input")
    } else {
        cap
    }
}

/// Decodes a Codex payload (hook stdin, or the legacy `notify` argv JSON).
pub fn decode(map: Map<String, Value>, opts: &DecodeOptions) -> Result<Event, Error> {
    let is_notify = !map.contains_key("hook_event_name")
        && map.get("type").and_then(Value::as_str) == Some("agent-turn-complete");
    if is_notify {
        return decode_notify(map);
    }
    super::claude::decode_as(P, map, opts).map(|mut ev| {
        ev.kind = kind_of(&ev.native_name);
        ev
    })
}

fn decode_notify(map: Map<String, Value>) -> Result<Event, Error> {
    let f = Fields::new(map);
    let mut ev = Event::new(P, "agent-turn-complete", Kind::Notification);
    ev.session = SessionInfo {
        id: f.str("thread-id")?.unwrap_or_default(),
        turn_id: f.id("turn-id")?.unwrap_or_default(),
        cwd: f.str("cwd")?.unwrap_or_default(),
        ..SessionInfo::default()
    };
    ev.message = f.str("last-assistant-message")?;
    ev.source = f.str("client")?;
    Ok(ev)
}

const DEFAULT_DENY_REASON: &str = "Blocked by hook.";

/// Codex-only rules on top of the capability table.
fn refine(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Decision, Error> {
    let strict = policy.unsupported == Unsupported::Strict;
    let mut d = d.clone();
    if ev.native_name != "PreToolUse" {
        return Ok(d);
    }
    let unsupported = |what: &str| Error::UnsupportedDecision {
        provider: P.id(),
        event: ev.native_name.clone(),
        what: what.to_string(),
    };
    if d.kind == D::Allow && d.updated_input.is_none() {
        // A bare allow fails the run (and the tool runs anyway).
        if strict {
            return Err(unsupported("allow"));
        }
        notes.push(Note::new(
            "degraded",
            Some("allow"),
            Some("no_decision"),
            "Codex rejects a bare allow",
        ));
        d.kind = D::NoDecision;
    }
    if d.kind != D::Allow && d.updated_input.is_some() {
        if strict {
            return Err(unsupported("updated_input"));
        }
        notes.push(Note::new(
            "dropped",
            Some("updated_input"),
            None,
            "Codex applies updatedInput only with allow",
        ));
        d.updated_input = None;
    }
    // Quirk 13: an updatedInput without a string `command` for Bash or
    // apply_patch is not a failed run: the tool does not run at all.
    let needs_command = ev
        .tool
        .as_ref()
        .is_some_and(|t| t.name == "Bash" || t.name == "apply_patch");
    let lacks_command = d
        .updated_input
        .as_ref()
        .is_some_and(|u| !u.get("command").is_some_and(Value::is_string));
    if needs_command && lacks_command {
        if strict {
            return Err(Error::LossyUpdate {
                provider: P.id(),
                event: ev.native_name.clone(),
                detail: "updatedInput for Bash/apply_patch needs a string `command`".into(),
            });
        }
        let original = ev
            .tool
            .as_ref()
            .and_then(|t| t.input.get("command"))
            .filter(|c| c.is_string())
            .cloned();
        match (original, d.updated_input.as_mut()) {
            (Some(cmd), Some(u)) => {
                notes.push(Note::new(
                    "lossy_update",
                    Some("updated_input"),
                    Some("updated_input+command"),
                    "Codex needs a string `command` in updatedInput; the original command was kept",
                ));
                u.insert("command".into(), cmd);
            }
            _ => {
                // No command to keep: the rewrite cannot be expressed.
                notes.push(Note::new(
                    "dropped",
                    Some("updated_input"),
                    None,
                    "Codex needs a string `command` in updatedInput and the call has none",
                ));
                notes.push(Note::new(
                    "degraded",
                    Some("allow"),
                    Some("no_decision"),
                    "Codex rejects an allow without updatedInput",
                ));
                d.updated_input = None;
                d.kind = D::NoDecision;
            }
        }
    }
    Ok(d)
}

/// Encodes a (planned) decision into Codex's exact answer.
pub fn encode(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Response, Error> {
    let d = refine(ev, d, policy, notes)?;
    let native = ev.native_name.as_str();
    let mut out = Map::new();
    let mut hso = Map::new();
    let mut system_message = d.system_message.clone();
    let nonempty = |s: Option<String>| s.filter(|r| !r.trim().is_empty());
    match ev.kind {
        Kind::ToolPre => match d.kind {
            D::Deny => {
                let reason =
                    nonempty(d.reason.clone()).unwrap_or_else(|| DEFAULT_DENY_REASON.into());
                hso.insert("permissionDecision".into(), json!("deny"));
                hso.insert("permissionDecisionReason".into(), json!(reason));
                if system_message.is_none() {
                    system_message = d.block_reason.clone();
                }
            }
            D::Allow => {
                hso.insert("permissionDecision".into(), json!("allow"));
                if let Some(u) = &d.updated_input {
                    hso.insert("updatedInput".into(), Value::Object(u.clone()));
                }
            }
            _ => {}
        },
        Kind::PermissionRequest => match d.kind {
            D::Allow => {
                hso.insert("decision".into(), json!({"behavior": "allow"}));
            }
            D::Deny => {
                let mut dec = Map::new();
                dec.insert("behavior".into(), json!("deny"));
                if let Some(r) = nonempty(d.reason.clone()) {
                    dec.insert("message".into(), json!(r));
                }
                hso.insert("decision".into(), Value::Object(dec));
            }
            _ => {}
        },
        Kind::PromptSubmitted => {
            if d.kind == D::BlockPrompt {
                let r = nonempty(d.reason.clone())
                    .or_else(|| nonempty(d.block_reason.clone()))
                    .unwrap_or_else(|| "Prompt blocked by hook.".into());
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(r));
                if system_message.is_none() {
                    system_message = d.block_reason.clone();
                }
            }
        }
        Kind::AgentStop | Kind::SubagentStop => {
            if d.kind == D::Continue {
                let r = nonempty(d.instruction.clone())
                    .or_else(|| nonempty(d.reason.clone()))
                    .unwrap_or_else(|| "Continue.".into());
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(r));
            }
        }
        Kind::ToolPost => {
            if d.kind == D::FlagOutput {
                // A block replaces the tool result with its reason (§4.3), so
                // a replace_output degraded to a flag sends the replacement
                // text, even when the author also gave a reason.
                let replacement = d.replaced_output.as_ref().map(value_text);
                let r = nonempty(replacement)
                    .or_else(|| nonempty(d.reason.clone()))
                    .unwrap_or_else(|| "Output flagged by hook.".into());
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(r));
            }
        }
        _ => {}
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
        // `hookEventName` is required whenever `hookSpecificOutput` is
        // present (§4.2); without it the strict parser fails the run.
        if let Some(Value::Object(h)) = out.get_mut("hookSpecificOutput") {
            h.entry("hookEventName").or_insert_with(|| json!(native));
        }
    }
    Ok(finish(out))
}

/// Tool names (`dialect::tool_names` has the sources and the rules).
/// Codex CLI: shell calls arrive as `Bash`; `Edit`, `Write` and `Agent` are
/// matcher aliases of `apply_patch` and `spawn_agent`.
pub(crate) fn tool_class(name: &str) -> Option<crate::model::Canonical> {
    use crate::model::Canonical::{Fetch, FileEdit, FileWrite, Other, Shell, Task as Subagent};
    Some(match name {
        // `exec_command`: the model-side name of unified exec; `shell`: older
        // builds (argv-array `command`); `write_stdin`: feeds/polls a session.
        "Bash" | "exec_command" | "shell" | "write_stdin" => Shell,
        "apply_patch" | "Edit" => FileEdit,
        "Write" => FileWrite,
        "spawn_agent" | "Agent" => Subagent,
        // Hosted tools, never hooked; `web_search` is the hosted tool's type.
        "WebSearch" | "web_search" => Fetch,
        // `NetworkAccess`: a `PermissionRequest` tool name in older schemas.
        "update_plan" | "NetworkAccess" => Other,
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
    provider: Provider::Codex,
    events: EVENTS,
    capability,
    tool_class,
    mcp_name,
    variant: super::no_variant,
    quirks: quirks::QUIRKS,
    quirk_section: "§7",
    research: "codex.md",
    page: "docs/agents/codex.md",
    decode,
    encode,
    lazy_output: &[("PostToolUse", "tool_response")],
    undecodable: None,
};
