//! What GitHub Copilot CLI does with a hook's answer (copilot-cli.md §1.5,
//! §4, observed on 1.0.102): stdout (minus `progress` lines) is one JSON
//! object; on `preToolUse` any non-zero exit or crash **denies** (a timeout
//! fails open) and the stderr reason is dropped; elsewhere failures are
//! logged and ignored.

use serde_json::Value;

use crate::model::{Kind, Provider};
use crate::simulate::{
    Answer, Effect, HookInvocation, Prediction, Reading, WarningCode as W, hso, text,
};

/// `bash` entries run through bash (§1.1); variables of §1.2; 30 s.
pub(crate) static HOOKS: HookInvocation = HookInvocation {
    shell: &["bash", "-c"],
    env: &[
        ("COPILOT_PROJECT_DIR", "project_dir"),
        ("COPILOT_CLI", "=1"),
    ],
    default_timeout_ms: 30_000,
    reads_stderr_as_answer: false,
    in_process: false,
};

pub(crate) fn read(event: &str, _tool: Option<&str>, a: &Answer) -> Prediction {
    let mut r = Reading::new(Provider::Copilot, event);
    let pre = r.kind() == Kind::ToolPre;
    let perm = r.kind() == Kind::PermissionRequest;
    if a.timed_out {
        r.failed_open("a timed-out hook is skipped (fail-open, every event)");
        return r.done();
    }
    // The stdout JSON, without `progress` lines.
    let body: Vec<&str> = a
        .stdout
        .lines()
        .filter(|l| {
            !matches!(serde_json::from_str::<Value>(l.trim()),
                Ok(Value::Object(m)) if m.get("type").and_then(Value::as_str) == Some("progress"))
        })
        .collect();
    let body = body.join("\n");
    let t = body.trim();
    let parsed = serde_json::from_str::<Value>(t).ok();
    let m = parsed.as_ref().and_then(Value::as_object);
    match a.exit {
        Some(0) => {}
        Some(2) if pre || perm => {
            r.decision("deny")
                .effect(Effect::ToolBlocked)
                .model("Denied by preToolUse hook: hook exited with code 2");
            if !a.stderr.trim().is_empty() {
                r.warn(
                    W::ReasonDropped,
                    "the stderr reason is not shown to the model; put it in permissionDecisionReason",
                );
            }
            return r.done();
        }
        Some(2) => {
            r.warn(
                W::ExitCodeIgnored,
                format!("exit 2 on {event} is a warning to the user"),
            );
            r.user(a.stderr.trim().to_string());
            return r.done();
        }
        _ if pre => {
            r.decision("deny")
                .effect(Effect::ToolBlocked)
                .model("Denied by preToolUse hook (hook errored)");
            r.warn(W::HookFailed, "a failed preToolUse hook denies the call");
            r.warn(
                W::FailClosed,
                "Copilot denies the tool when a preToolUse hook errors",
            );
            return r.done();
        }
        Some(c) => {
            r.failed_open(&format!("exit code {c}: logged and skipped"));
            return r.done();
        }
        None => {
            r.failed_open("the hook crashed: logged and skipped");
            return r.done();
        }
    }
    let Some(m) = m else {
        if !t.is_empty() {
            r.warn(
                W::InvalidJson,
                "stdout is not one JSON object: no output, default behaviour",
            );
        }
        return r.done();
    };
    if hso(m).is_some() {
        r.warn(
            W::IgnoredField,
            "hookSpecificOutput (Claude's envelope) is ignored: use Copilot's top-level fields",
        );
    }
    let reason = text(m, "permissionDecisionReason");
    match r.kind() {
        Kind::ToolPre => {
            match m.get("permissionDecision").and_then(Value::as_str) {
                Some("deny") => {
                    r.decision("deny")
                        .effect(Effect::ToolBlocked)
                        .model(format!(
                            "Denied by preToolUse hook: {}",
                            reason.unwrap_or("")
                        ));
                    if reason.is_none() {
                        r.warn(
                            W::MissingReason,
                            "permissionDecisionReason is required for deny",
                        );
                    }
                }
                Some("allow") => {
                    r.decision("allow").effect(Effect::ToolRunsWithoutPrompt);
                    if !m.contains_key("modifiedArgs") {
                        r.warn(
                            W::EmptyAllow,
                            "`allow` bypasses Copilot's permission system for this call",
                        );
                    }
                }
                Some("ask") => {
                    r.decision("ask").effect(Effect::AsksUser);
                    if let Some(s) = reason {
                        r.user(s.to_string());
                    }
                }
                _ => {}
            }
            if let Some(u) = m.get("modifiedArgs").filter(|v| v.is_object()) {
                if r.current() != Effect::ToolBlocked {
                    r.effect(Effect::ToolRunsWithInputRewritten)
                        .input(u.clone());
                }
            }
            if let Some(c) = text(m, "additionalContext") {
                r.model(c.to_string());
            }
        }
        Kind::PermissionRequest => match m.get("behavior").and_then(Value::as_str) {
            Some("deny") => {
                r.decision("deny")
                    .effect(Effect::ToolBlocked)
                    .model(format!(
                        "Permission denied by a PermissionRequest hook: {}",
                        text(m, "message").unwrap_or("")
                    ));
                if m.get("interrupt") == Some(&Value::Bool(true)) {
                    r.effect(Effect::AgentStops);
                }
            }
            Some("allow") => {
                r.decision("allow").effect(Effect::ToolRunsWithoutPrompt);
            }
            _ => {}
        },
        Kind::AgentStop | Kind::SubagentStop => {
            if m.get("decision").and_then(Value::as_str) == Some("block") {
                r.decision("continue")
                    .effect(Effect::AgentContinues)
                    .model(text(m, "reason").unwrap_or("").to_string());
            }
        }
        Kind::PromptSubmitted => {
            if m.get("decision").and_then(Value::as_str) == Some("block") {
                r.decision("block").effect(Effect::PromptBlocked);
                if let Some(s) = text(m, "reason") {
                    r.user(s.to_string());
                }
            } else {
                if let Some(p) = text(m, "modifiedPrompt") {
                    r.effect(Effect::PromptRewritten).model(p.to_string());
                }
                if let Some(c) = text(m, "additionalContext") {
                    r.context(c);
                }
            }
        }
        Kind::ToolPost => {
            if let Some(t) = m
                .get("modifiedResult")
                .and_then(|v| v.get("textResultForLlm"))
                .and_then(Value::as_str)
            {
                r.effect(Effect::OutputReplaced).model(t.to_string());
            }
            if let Some(c) = text(m, "additionalContext") {
                r.context(c);
            }
        }
        Kind::ToolError | Kind::SessionStart | Kind::SubagentStart | Kind::Notification => {
            if let Some(c) = text(m, "additionalContext") {
                r.context(c);
            }
        }
        _ => {
            if !m.is_empty() {
                r.warn(W::IgnoredField, format!("output is ignored on {event}"));
            }
        }
    }
    r.done()
}
