//! What Kimi Code does with a hook's answer (kimi-code.md §4, observed on
//! 2.1.0): exit 2 blocks `PreToolUse`, `UserPromptSubmit` and `Stop` with
//! stderr as the reason; on exit 0 only `hookSpecificOutput.permissionDecision:
//! "deny"` decides, and `UserPromptSubmit` injects any other stdout
//! verbatim; everything else fails open.

use serde_json::Value;

use crate::model::{Kind, Provider};
use crate::simulate::{
    Answer, Effect, HookInvocation, Prediction, Reading, WarningCode as W, hso, json_object, text,
};

/// `/bin/sh -c` (§1.1); nothing hook-specific in the environment (§1.2);
/// 30 s (§1.4).
pub(crate) static HOOKS: HookInvocation = HookInvocation {
    shell: &["sh", "-c"],
    env: &[],
    default_timeout_ms: 30_000,
    reads_stderr_as_answer: false,
    in_process: false,
};

const BLOCKABLE: &[&str] = &["PreToolUse", "UserPromptSubmit", "Stop"];

pub(crate) fn read(event: &str, _tool: Option<&str>, a: &Answer) -> Prediction {
    let mut r = Reading::new(Provider::KimiCode, event);
    let blockable = BLOCKABLE.contains(&event);
    let default_reason = format!("Blocked by {event} hook");
    if a.timed_out || a.exit.is_none() {
        r.failed_open("a timeout or crash is an allow on Kimi Code");
        return r.done();
    }
    let t = a.stdout.trim();
    match a.exit {
        Some(0) => {}
        Some(2) => {
            if json_object(t).is_some() {
                r.warn(W::JsonIgnoredOnExit, "stdout is ignored on exit 2");
            }
            if blockable {
                let reason = Some(a.stderr.trim())
                    .filter(|s| !s.is_empty())
                    .unwrap_or(&default_reason)
                    .to_string();
                block(&mut r, &reason);
            } else {
                r.warn(
                    W::ExitCodeIgnored,
                    format!("exit 2 has no effect on {event}"),
                );
            }
            return r.done();
        }
        Some(c) => {
            if !t.is_empty() {
                r.warn(W::JsonIgnoredOnExit, "stdout is ignored on a non-zero exit");
            }
            r.failed_open(&format!("exit code {c} is an allow on Kimi Code"));
            return r.done();
        }
        None => {}
    }
    if t.is_empty() {
        return r.done();
    }
    let m = json_object(t);
    let g = m.as_ref().and_then(hso);
    let deny = g
        .and_then(|g| g.get("permissionDecision"))
        .and_then(Value::as_str);
    let message = m
        .as_ref()
        .and_then(|m| m.get("message"))
        .or_else(|| g.and_then(|g| g.get("message")))
        .map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
    if deny == Some("deny") && blockable {
        let reason = g
            .and_then(|g| text(g, "permissionDecisionReason"))
            .unwrap_or(&default_reason)
            .to_string();
        if r.kind() == Kind::PromptSubmitted {
            block(&mut r, message.as_deref().unwrap_or(&reason));
        } else {
            block(&mut r, &reason);
        }
        return r.done();
    }
    match deny {
        Some("deny") => {
            r.warn(W::IgnoredField, format!("a deny has no effect on {event}"));
        }
        Some("ask") => {
            r.warn(
                W::UnsupportedDecision,
                "`ask` is a no-op on Kimi Code: the tool runs",
            );
        }
        Some("allow") => {
            r.warn(
                W::IgnoredField,
                "`allow` is a no-op on Kimi Code (it neither skips nor forces a prompt)",
            );
        }
        _ => {}
    }
    if let Some(m) = &m {
        let flat = m.contains_key("permissionDecision")
            || m.get("decision").and_then(Value::as_str) == Some("block");
        if flat {
            r.warn(
                W::IgnoredField,
                "only hookSpecificOutput.permissionDecision \"deny\" blocks; flat decisions are ignored",
            );
        }
        let ignored = ["updatedInput", "additionalContext"];
        if g.is_some_and(|g| ignored.iter().any(|k| g.contains_key(*k)))
            || m.contains_key("systemMessage")
            || m.contains_key("continue")
        {
            r.warn(
                W::IgnoredField,
                "Kimi Code has no updatedInput, additionalContext, systemMessage or continue",
            );
        }
    } else if r.kind() != Kind::PromptSubmitted {
        r.warn(
            W::PlainTextStdout,
            format!("plain text on stdout is ignored on {event}"),
        );
    }
    if r.kind() == Kind::PromptSubmitted {
        // Any successful stdout is injected: `message`, else the raw text.
        let injected = message.unwrap_or_else(|| t.to_string());
        r.context(&injected);
        if m.as_ref().is_none_or(|m| !m.contains_key("message")) {
            r.warn(
                W::StdoutInjectedVerbatim,
                "stdout without a `message` reaches the model verbatim (even `{}`)",
            );
        }
    }
    r.done()
}

fn block(r: &mut Reading, reason: &str) {
    match r.kind() {
        Kind::ToolPre => {
            // Observed (2.1.0): `Wall time: ... seconds\n<system>ERROR: Tool
            // execution failed.</system>\n<reason>`.
            r.decision("deny")
                .effect(Effect::ToolBlocked)
                .model(format!(
                    "<system>ERROR: Tool execution failed.</system>\n{reason}"
                ));
        }
        Kind::PromptSubmitted => {
            r.decision("block")
                .effect(Effect::PromptBlocked)
                .user(reason.to_string());
        }
        _ => {
            r.decision("continue")
                .effect(Effect::AgentContinues)
                .model(reason.to_string());
        }
    }
}
