//! What Gemini CLI does with a hook's answer (gemini-cli.md §4.1, confirmed
//! on 0.61.0): stdout (or stderr when stdout is empty) is the answer; a JSON
//! object decides whatever the exit code; plain text becomes a system
//! message (exit 0), a warning (exit 1) or a deny (any other code).

use serde_json::{Map, Value};

use crate::model::Provider;
use crate::simulate::{
    Answer, Effect, HookInvocation, Prediction, Reading, WarningCode as W, hso, text,
};

/// `bash -c <command>` (§1.1); variables of §1.2; 60 s (`timeout` in ms).
pub(crate) static HOOKS: HookInvocation = HookInvocation {
    shell: &["bash", "-c"],
    env: &[
        ("GEMINI_PROJECT_DIR", "project_dir"),
        ("GEMINI_CWD", "project_dir"),
        ("GEMINI_SESSION_ID", "session_id"),
        ("CLAUDE_PROJECT_DIR", "project_dir"),
        ("GEMINI_CLI_NO_RELAUNCH", "=true"),
    ],
    default_timeout_ms: 60_000,
    reads_stderr_as_answer: true,
    in_process: false,
};

pub(crate) fn read(event: &str, _tool: Option<&str>, a: &Answer) -> Prediction {
    let mut r = Reading::new(Provider::Gemini, event);
    if a.timed_out {
        r.failed_open("the hook timed out: its output is discarded");
        return r.done();
    }
    let mut t = a.stdout.trim();
    if t.is_empty() {
        t = a.stderr.trim();
        if !t.is_empty() {
            r.warn(
                W::StderrReadAsAnswer,
                "stdout is empty, so Gemini reads stderr as the hook's answer",
            );
        }
    }
    if t.is_empty() {
        if a.exit.is_some_and(|c| c != 0) {
            r.warn(
                W::ExitCodeIgnored,
                "a non-zero exit with nothing printed does not block on Gemini",
            );
            r.warn(W::HookFailed, "the hook is logged as failed");
            r.warn(W::FailOpen, "the action goes ahead");
        }
        return r.done();
    }
    let parsed = match serde_json::from_str::<Value>(t) {
        Ok(Value::String(s)) => serde_json::from_str::<Value>(&s).ok(),
        Ok(v) => Some(v),
        Err(_) => None,
    };
    match parsed {
        Some(Value::Object(m)) => {
            if a.exit.is_some_and(|c| c != 0) {
                r.warn(
                    W::ExitCodeIgnored,
                    "JSON output decides on Gemini whatever the exit code",
                );
            }
            apply(&mut r, event, &m);
        }
        Some(_) => {
            r.warn(W::InvalidJson, "JSON that is not an object is ignored");
        }
        None => {
            // Plain text: converted by exit code (a signal counts as 0).
            r.warn(W::PlainTextStdout, "plain text is read by its exit code");
            match a.exit.unwrap_or(0) {
                0 => {
                    r.user(t.to_string());
                }
                1 => {
                    r.user(format!("Warning: {t}"));
                }
                _ => {
                    let mut m = Map::new();
                    m.insert("decision".into(), Value::String("deny".into()));
                    m.insert("reason".into(), Value::String(t.to_string()));
                    apply(&mut r, event, &m);
                }
            }
        }
    }
    r.done()
}

fn apply(r: &mut Reading, event: &str, m: &Map<String, Value>) {
    let decision = m.get("decision").and_then(Value::as_str);
    let reason = text(m, "reason").or_else(|| text(m, "stopReason"));
    let g = hso(m);
    if let Some(s) = text(m, "systemMessage") {
        r.user(s.to_string());
    }
    let blocks = matches!(decision, Some("deny" | "block"));
    match event {
        "BeforeTool" => {
            if blocks {
                r.decision("deny")
                    .effect(Effect::ToolBlocked)
                    .model(format!(
                        "Tool execution blocked: {}",
                        reason.unwrap_or_default()
                    ));
                if reason.is_none() {
                    r.warn(W::MissingReason, "the model is not told why");
                }
            } else if decision == Some("ask") {
                r.decision("ask").effect(Effect::AsksUser);
                r.warn(
                    W::HangsHeadless,
                    "`ask` hangs a headless (`-p`) Gemini run until it is killed",
                );
            } else if let Some(u) = g
                .and_then(|g| g.get("tool_input"))
                .filter(|v| v.is_object())
            {
                r.effect(Effect::ToolRunsWithInputRewritten)
                    .input(u.clone());
                r.model("[System] Tool input parameters were modified by a hook before execution.");
            }
            if decision == Some("allow") {
                r.decision("allow");
            }
            if g.is_some_and(|g| g.contains_key("additionalContext")) {
                r.warn(
                    W::IgnoredField,
                    "additionalContext is ignored on BeforeTool",
                );
            }
        }
        "AfterTool" => {
            if blocks {
                r.decision("block").effect(Effect::OutputReplaced);
                r.model(reason.unwrap_or_default().to_string());
            }
            if let Some(c) = g.and_then(|g| text(g, "additionalContext")) {
                r.context(c);
            }
        }
        "BeforeAgent" => {
            if blocks {
                r.decision("block").effect(Effect::PromptBlocked);
                if let Some(s) = reason {
                    r.user(s.to_string());
                }
            } else if let Some(c) = g.and_then(|g| text(g, "additionalContext")) {
                r.context(c);
            }
        }
        "AfterAgent" => {
            if blocks {
                r.decision("continue").effect(Effect::AgentContinues);
                r.model(reason.unwrap_or_default().to_string());
            }
        }
        "BeforeModel" | "AfterModel" => {
            if blocks {
                r.decision("block").effect(Effect::AgentStops);
                if let Some(s) = reason {
                    r.user(s.to_string());
                }
            }
        }
        "SessionStart" => {
            if let Some(c) = g.and_then(|g| text(g, "additionalContext")) {
                r.context(c);
            }
            if decision.is_some() || m.contains_key("continue") {
                r.warn(
                    W::IgnoredField,
                    "decision and continue are ignored on SessionStart",
                );
            }
        }
        _ => {
            if blocks || m.contains_key("continue") {
                r.warn(
                    W::IgnoredField,
                    format!("flow control is ignored on {event}"),
                );
            }
        }
    }
    if m.get("continue") == Some(&Value::Bool(false)) && event != "SessionStart" {
        r.decision("stop").effect(Effect::AgentStops);
        if let Some(s) = reason {
            r.user(format!("Agent execution stopped by hook: {s}"));
        }
    }
}
