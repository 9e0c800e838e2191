//! The stdin payload a hook receives, built from a canonical [`Event`].
//!
//! * The native event: the event's own name when it came from the same
//!   agent, else its name when the target agent has an event of that name
//!   (Claude Code and Codex share PascalCase names), else the target's event
//!   for the unified kind (`tool.error` is `PostToolUseFailure` on Claude
//!   Code and `PostToolUse` on Codex).
//! * The bytes: when the event was decoded from the same agent and `raw`
//!   is a JSON object, `raw` verbatim (trailing whitespace trimmed);
//!   otherwise a Claude-shaped object synthesized from the canonical fields
//!   (the inverse of `docs/canonical-json.md`, table below). Claude Code
//!   hooks get a trailing newline; Codex hooks do not.
//!
//! | payload field | canonical source |
//! |---|---|
//! | `session_id`, `cwd`, `transcript_path`, `permission_mode` | `session.*` |
//! | `prompt_id` (Claude; `turn_id` on MessageDisplay) / `turn_id` (Codex) | `session.turn_id` |
//! | `model` | `session.model` (Codex always; Claude when set) |
//! | `agent_id`, `agent_type` | `agent` |
//! | `tool_name`, `tool_input`, `tool_use_id` | `tool.name`, `tool.raw_input` (else `input`), `tool.id` unless synthesized; a shell tool of another agent becomes `Bash` with `{"command": ...}` |
//! | `tool_response` / `error` / `duration_ms` | `output` / `error` / `duration_ms` |
//! | `prompt` | `prompt` |
//! | `stop_hook_active`, `last_assistant_message` | `stop.previously_continued`, `stop.final_message` |
//! | `source`, `reason`, `trigger` | same names |
//! | `custom_instructions` (PreCompact), `compact_summary` (PostCompact), `message`, `delta` (MessageDisplay) | `instructions`, `message` |
//! | `file_path`, `new_cwd`, `directory`, `worktree_path` | `path` (per event, as decoded) |

use serde_json::{Map, Value, json};

use super::HostError;
use super::events;
use crate::host::matcher::Dialect;
use crate::model::{Canonical, Event};

/// A hook's stdin for one event.
#[derive(Debug, Clone)]
pub struct Payload {
    /// The native event name in the target dialect.
    pub native_event: String,
    /// The payload as an object (for matcher subjects and `if` rules).
    pub object: Map<String, Value>,
    /// The exact stdin bytes.
    pub bytes: Vec<u8>,
    /// True when `bytes` are the event's raw payload.
    pub reused_raw: bool,
}

/// The target dialect's native event for an event.
pub fn native_event(dialect: Dialect, ev: &Event) -> Result<String, HostError> {
    if ev.provider == dialect.provider() {
        return Ok(ev.native_name.clone());
    }
    if events::spec(dialect, &ev.native_name).is_some() {
        return Ok(ev.native_name.clone());
    }
    events::native_for_kind(dialect, ev.kind)
        .map(str::to_string)
        .ok_or_else(|| HostError::UnmappedEvent {
            dialect,
            event: ev.native_name.clone(),
            kind: ev.kind.as_str(),
        })
}

/// Builds the stdin payload of `ev` for hooks of `dialect`.
pub fn build(dialect: Dialect, ev: &Event) -> Result<Payload, HostError> {
    let native = native_event(dialect, ev)?;
    if ev.provider == dialect.provider() {
        if let Ok(Value::Object(object)) = serde_json::from_slice::<Value>(&ev.raw) {
            let mut bytes = ev.raw.clone();
            while bytes.last().is_some_and(u8::is_ascii_whitespace) {
                bytes.pop();
            }
            if dialect == Dialect::ClaudeCode {
                bytes.push(b'\n');
            }
            return Ok(Payload {
                native_event: native,
                object,
                bytes,
                reused_raw: true,
            });
        }
    }
    let object = synthesize(dialect, &native, ev);
    let mut bytes =
        serde_json::to_vec(&Value::Object(object.clone())).map_err(|e| HostError::Payload {
            message: e.to_string(),
        })?;
    if dialect == Dialect::ClaudeCode {
        bytes.push(b'\n');
    }
    Ok(Payload {
        native_event: native,
        object,
        bytes,
        reused_raw: false,
    })
}

/// Inserts a value unless it is empty (absent in the canonical JSON).
fn put(m: &mut Map<String, Value>, k: &str, v: Value) {
    if !crate::model::is_empty_value(&v) {
        m.insert(k.to_string(), v);
    }
}

fn synthesize(dialect: Dialect, native: &str, ev: &Event) -> Map<String, Value> {
    let mut m = Map::new();
    let s = &ev.session;
    put(&mut m, "session_id", json!(s.id));
    put(&mut m, "transcript_path", json!(s.transcript_path));
    put(&mut m, "cwd", json!(s.cwd));
    put(&mut m, "hook_event_name", json!(native));
    put(&mut m, "permission_mode", json!(s.permission_mode));
    match dialect {
        Dialect::ClaudeCode if native == "MessageDisplay" => {
            put(&mut m, "turn_id", json!(s.turn_id))
        }
        Dialect::ClaudeCode => put(&mut m, "prompt_id", json!(s.turn_id)),
        Dialect::Codex => put(&mut m, "turn_id", json!(s.turn_id)),
    }
    put(&mut m, "model", json!(s.model));
    if let Some(a) = &ev.agent {
        put(&mut m, "agent_id", json!(a.id));
        m.insert("agent_type".into(), json!(a.r#type));
    }
    if let Some(t) = &ev.tool {
        if t.canonical == Canonical::Shell && !matches!(t.name.as_str(), "Bash" | "PowerShell") {
            let mut input = t.input.clone();
            input.remove("cmd");
            input.insert("command".into(), json!(t.command()));
            m.insert("tool_name".into(), json!("Bash"));
            m.insert("tool_input".into(), Value::Object(input));
        } else {
            m.insert("tool_name".into(), json!(t.name));
            let input = match &t.raw_input {
                Value::Object(_) => t.raw_input.clone(),
                _ => Value::Object(t.input.clone()),
            };
            m.insert("tool_input".into(), input);
        }
        if !t.synthesized && native != "PermissionRequest" {
            put(&mut m, "tool_use_id", json!(t.id));
        }
    }
    if let Some(p) = &ev.prompt {
        m.insert("prompt".into(), json!(p));
    }
    if !ev.output().is_null() {
        m.insert("tool_response".into(), ev.output().clone());
    }
    if let Some(e) = &ev.error {
        m.insert("error".into(), json!(e));
    }
    if let Some(d) = ev.duration_ms {
        m.insert("duration_ms".into(), json!(d));
    }
    if let Some(st) = &ev.stop {
        m.insert("stop_hook_active".into(), json!(st.previously_continued));
        m.insert("last_assistant_message".into(), json!(st.final_message));
    }
    for (k, v) in [
        ("source", &ev.source),
        ("reason", &ev.reason),
        ("trigger", &ev.trigger),
    ] {
        if let Some(v) = v {
            m.insert(k.into(), json!(v));
        }
    }
    if let Some(i) = &ev.instructions {
        m.insert("custom_instructions".into(), json!(i));
    }
    if let Some(msg) = &ev.message {
        let key = match native {
            "PostCompact" => "compact_summary",
            "MessageDisplay" => "delta",
            "StopFailure" => "last_assistant_message",
            _ => "message",
        };
        m.insert(key.into(), json!(msg));
    }
    if let Some(p) = &ev.path {
        let key = match native {
            "CwdChanged" => "new_cwd",
            "DirectoryAdded" => "directory",
            "WorktreeRemove" => "worktree_path",
            _ => "file_path",
        };
        m.insert(key.into(), json!(p));
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DecodeOptions, Provider, decode};

    #[test]
    fn same_dialect_reuses_raw_bytes() {
        let raw = br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t","x_unknown":1}"#;
        let ev = decode(Provider::ClaudeCode, raw, &DecodeOptions::default()).unwrap();
        let p = build(Dialect::ClaudeCode, &ev).unwrap();
        assert!(p.reused_raw);
        assert_eq!(&p.bytes[..p.bytes.len() - 1], &raw[..]);
        assert_eq!(p.bytes.last(), Some(&b'\n'));
        let c = build(Dialect::Codex, &ev).unwrap();
        assert!(!c.reused_raw);
        assert_eq!(c.native_event, "PreToolUse");
        assert_eq!(c.object["tool_name"], "Bash");
        assert!(!c.object.contains_key("turn_id"));
        assert_ne!(c.bytes.last(), Some(&b'\n'));
    }

    #[test]
    fn cross_dialect_maps_kind() {
        let raw = br#"{"session_id":"s","turn_id":"t","hook_event_name":"PostToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch"},"tool_use_id":"c","tool_response":"ok"}"#;
        let ev = decode(Provider::Codex, raw, &DecodeOptions::default()).unwrap();
        let p = build(Dialect::ClaudeCode, &ev).unwrap();
        assert_eq!(p.native_event, "PostToolUse");
        assert_eq!(p.object["prompt_id"], "t");
        assert_eq!(p.object["tool_response"], "ok");
        let mut other = ev.clone();
        other.native_name = "Interrupt".into();
        other.kind = crate::Kind::Other;
        assert!(matches!(
            build(Dialect::ClaudeCode, &other),
            Err(HostError::UnmappedEvent { .. })
        ));
    }
}
