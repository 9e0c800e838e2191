//! `agenthooks sample`: a payload of the agent's own shape, to try a hook
//! with before wiring it (`agenthooks sample --provider codex | ./guard
//! agenthooks run --provider=codex`). Every payload names its event.

use std::process::ExitCode;

use agenthooks::install::doctor;
use agenthooks::{Error, Kind, Provider};
use clap::Args;
use serde_json::Value;

/// Arguments of `sample`.
#[derive(Args, Clone, Debug)]
pub struct SampleArgs {
    /// Agent id or alias (claude-code, codex, cursor, gemini, kimi-code, copilot).
    #[arg(long, alias = "agent")]
    provider: String,
    /// A unified kind (tool.pre, tool.post, prompt.submitted, session.start,
    /// agent.stop, ...): the agent's first event of that kind.
    #[arg(long, default_value = "tool.pre", conflicts_with = "event")]
    kind: String,
    /// A native event name instead of a kind.
    #[arg(long)]
    event: Option<String>,
    /// The shell command of a tool event.
    #[arg(long, default_value = "echo hello")]
    command: String,
}

/// Runs `sample`: the payload on stdout, or one error line and exit 1.
pub fn sample_cmd(a: &SampleArgs) -> ExitCode {
    match sample(a) {
        Ok(v) => {
            crate::say(&serde_json::to_string_pretty(&v).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => crate::fatal(&e),
    }
}

fn bad(message: String) -> Error {
    Error::InvalidArgument { message }
}

fn sample(a: &SampleArgs) -> Result<Value, Error> {
    let p = Provider::parse(&a.provider)?;
    if matches!(p, Provider::Opencode | Provider::Openclaw) {
        return Err(bad(format!(
            "{} runs hooks in-process (a plugin), not as a command with a payload on stdin; its payload shapes are in {}",
            p.display_name(),
            agenthooks::dialect::agent(p).page
        )));
    }
    let events = agenthooks::native_events(p);
    let event = match &a.event {
        Some(e) if events.contains(&e.as_str()) => e.clone(),
        Some(e) => {
            return Err(bad(format!(
                "--event: `{e}` is not an event of {} (one of: {})",
                p.id(),
                events.join(", ")
            )));
        }
        None => {
            let kind = Kind::parse(&a.kind)?;
            // Copilot CLI's camelCase payloads do not name their event:
            // take its PascalCase (Claude-compatible) event, which does.
            let named = |e: &&&str| p != Provider::Copilot || e.starts_with(char::is_uppercase);
            events
                .iter()
                .filter(named)
                .find(|e| agenthooks::dialect::kind_of(p, e) == kind)
                .map(|e| e.to_string())
                .ok_or_else(|| {
                    bad(format!(
                        "{} has no `{}` event (see `agenthooks capabilities --provider {}`)",
                        p.id(),
                        kind.as_str(),
                        p.id()
                    ))
                })?
        }
    };
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut v = doctor::sample_payload(p, &event, &cwd);
    if p == Provider::Copilot && event.starts_with(char::is_uppercase) {
        v = pascal_copilot(v, &event);
    }
    replace_command(&mut v, &a.command);
    Ok(v)
}

/// Copilot CLI's PascalCase payload: Claude-shaped names with its own
/// `timestamp`, and a tool input object.
fn pascal_copilot(v: Value, event: &str) -> Value {
    let mut out = serde_json::json!({
        "hook_event_name": event,
        "session_id": v.get("sessionId").cloned().unwrap_or(Value::Null),
        "timestamp": "2026-01-01T00:00:00.000Z",
        "cwd": v.get("cwd").cloned().unwrap_or(Value::Null),
    });
    if v.get("toolName").is_some() {
        out["tool_name"] = "Bash".into();
        out["tool_input"] = serde_json::json!({"command": "echo agenthooks-doctor"});
    }
    if let Some(pr) = v.get("prompt") {
        out["prompt"] = pr.clone();
    }
    out
}

/// Puts the requested command wherever the sample carries one (also
/// inside Copilot's JSON-encoded `toolArgs`).
fn replace_command(v: &mut Value, command: &str) {
    const DOCTOR: &str = "echo agenthooks-doctor";
    match v {
        Value::String(s) if s.contains(DOCTOR) => {
            *s = if s == DOCTOR {
                command.to_string()
            } else {
                s.replace(
                    &serde_json::to_string(DOCTOR).unwrap_or_default(),
                    &serde_json::to_string(command).unwrap_or_default(),
                )
            };
        }
        Value::Object(m) => m.values_mut().for_each(|x| replace_command(x, command)),
        Value::Array(a) => a.iter_mut().for_each(|x| replace_command(x, command)),
        _ => {}
    }
}
