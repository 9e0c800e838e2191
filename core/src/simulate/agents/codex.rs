//! What Codex does with a hook's answer: the host side's reader
//! (`host/decode_codex.rs`, codex.md §4) as an effect, plus warnings for
//! the answers its strict parser rejects (the run "fails" and Codex goes
//! ahead: fail-open).

use serde_json::Value;

use crate::host::events::{self, Exit2};
use crate::host::matcher::Dialect;
use crate::host::output::OutputStatus;
use crate::model::Provider;
use crate::simulate::{
    Answer, HookInvocation, Prediction, WarningCode as W, from_host, hso, json_object, text,
};

/// `$SHELL -lc` (codex.md §1.1; a login shell, so profile output lands on
/// stdout): simulated with `sh -lc`. No hook-specific variables; 600 s.
pub(crate) static HOOKS: HookInvocation = HookInvocation {
    shell: &["sh", "-lc"],
    env: &[],
    default_timeout_ms: 600_000,
    reads_stderr_as_answer: false,
    in_process: false,
};

pub(crate) fn read(event: &str, tool: Option<&str>, a: &Answer) -> Prediction {
    let (mut r, out) = from_host(Provider::Codex, event, tool, a);
    // Observed (0.171.0): `Command blocked by PreToolUse hook: <reason>`
    // (then `. Command: <the command>`), for a JSON deny and exit 2 alike.
    if event == "PreToolUse" && r.current() == crate::simulate::Effect::ToolBlocked {
        if let Some(m) = r.model_text().map(str::to_string) {
            r.set_model(format!("Command blocked by PreToolUse hook: {m}"));
        }
    }
    let failed = out.status == OutputStatus::Failed;
    let t = a.stdout.trim();
    match a.exit {
        Some(2) if a.stderr.trim().is_empty() => {
            r.warn(W::MissingReason, "exit 2 with empty stderr fails the run");
        }
        Some(2) => {
            let exit2 = events::spec(Dialect::Codex, event).map_or(Exit2::Failed, |s| s.exit2);
            if exit2 == Exit2::Failed {
                r.warn(
                    W::ExitCodeIgnored,
                    format!("exit 2 is not honoured on {event}: the run fails"),
                );
            }
            if json_object(t).is_some() {
                r.warn(W::JsonIgnoredOnExit, "stdout is ignored on exit 2");
            }
        }
        Some(0) if !a.timed_out => {}
        _ => {
            if json_object(t).is_some() {
                r.warn(
                    W::JsonIgnoredOnExit,
                    "Codex reads stdout only on exit 0: the JSON is ignored",
                );
            }
        }
    }
    if failed && a.exit == Some(0) {
        if !t.is_empty() && !t.starts_with(['{', '[']) {
            r.warn(
                W::PlainTextStdout,
                format!("plain text on stdout fails the run on {event}"),
            );
        } else if json_object(t).is_none() && !t.is_empty() {
            r.warn(
                W::InvalidJson,
                "stdout starts like JSON but is not a JSON object",
            );
        }
    }
    if let (Some(m), Some(0)) = (json_object(t), a.exit) {
        let (top, inner) = crate::host::decode_codex::schema(event);
        let universal = ["continue", "stopReason", "systemMessage", "suppressOutput"];
        let unknown_top = m.keys().find(|k| {
            k.as_str() != "hookSpecificOutput"
                && !universal.contains(&k.as_str())
                && !top.contains(&k.as_str())
        });
        let unknown_inner = match (hso(&m), inner) {
            (Some(g), Some(allowed)) => g
                .keys()
                .find(|k| k.as_str() != "hookEventName" && !allowed.contains(&k.as_str()))
                .map(|k| format!("hookSpecificOutput.{k}")),
            (Some(_), None) => Some("hookSpecificOutput".to_string()),
            _ => None,
        };
        if let Some(k) = unknown_top.cloned().or(unknown_inner) {
            r.warn(
                W::UnknownField,
                format!("`{k}` is not in Codex's schema for {event}: the run fails"),
            );
        }
        if let Some(g) = hso(&m) {
            let pd = g.get("permissionDecision").and_then(Value::as_str);
            match pd {
                Some("ask") => {
                    r.warn(W::UnsupportedDecision, "`ask` fails the run on Codex");
                }
                Some("allow") if !g.contains_key("updatedInput") => {
                    r.warn(
                        W::UnsupportedDecision,
                        "a bare `allow` (without updatedInput) fails the run on Codex",
                    );
                }
                Some("deny") if text(g, "permissionDecisionReason").is_none() => {
                    r.warn(W::MissingReason, "a deny without a reason fails the run");
                }
                _ => {}
            }
        }
        if m.get("decision").and_then(Value::as_str) == Some("block")
            && text(&m, "reason").is_none()
        {
            r.warn(W::MissingReason, "a block without a reason fails the run");
        }
    }
    r.done()
}
