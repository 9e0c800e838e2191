//! What OpenClaw does with a hook's answer. OpenClaw runs no hook process:
//! the answer read here is the **return value** our plugin
//! (`bindings/node/plugins/openclaw.js`) hands back from the typed hook
//! handler (`{block, blockReason}`, `{params}`, `{requireApproval}`,
//! `{outcome: "block", ...}`, `{action: "revise", ...}`; openclaw.md §4),
//! i.e. the stdout of `agenthooks run --provider=openclaw` for one plugin
//! frame. A non-zero exit, a crash or a timeout is the plugin's fail policy
//! (default open: nothing returned).

use serde_json::Value;

use crate::model::Provider;
use crate::simulate::{
    Answer, Effect, HookInvocation, Prediction, Reading, WarningCode as W, json_object, text,
};

/// In-process: no shell, no variables; 15 s is OpenClaw's default handler
/// budget (openclaw.md §1.4).
pub(crate) static HOOKS: HookInvocation = HookInvocation {
    shell: &[],
    env: &[],
    default_timeout_ms: 15_000,
    reads_stderr_as_answer: false,
    in_process: true,
};

pub(crate) fn read(event: &str, _tool: Option<&str>, a: &Answer) -> Prediction {
    let mut r = Reading::new(Provider::Openclaw, event);
    if a.timed_out || a.exit != Some(0) {
        r.failed_open("the plugin applies its fail policy (open by default): nothing is returned");
        return r.done();
    }
    let t = a.stdout.trim();
    if t.is_empty() {
        return r.done();
    }
    let Some(m) = json_object(t) else {
        r.warn(W::InvalidJson, "the plugin expects one JSON result object");
        r.failed_open("an unreadable answer is the plugin's fail policy");
        return r.done();
    };
    match event {
        "before_tool_call" => {
            if m.get("block") == Some(&Value::Bool(true)) {
                r.decision("deny").effect(Effect::ToolBlocked);
                match text(&m, "blockReason") {
                    Some(s) => {
                        r.model(s.to_string());
                    }
                    None => {
                        r.warn(
                            W::MissingReason,
                            "without blockReason the model gets a generic error",
                        );
                    }
                }
            } else if let Some(ap) = m.get("requireApproval").filter(|v| v.is_object()) {
                r.decision("ask").effect(Effect::AsksUser);
                if let Some(d) = ap.get("description").and_then(Value::as_str) {
                    r.user(d.to_string());
                }
                r.warn(
                    W::UnsupportedDecision,
                    "non-interactive CLI runs deny a requireApproval at once",
                );
            } else if let Some(p) = m.get("params").filter(|v| v.is_object()) {
                r.effect(Effect::ToolRunsWithInputRewritten)
                    .input(p.clone());
            }
        }
        "before_agent_run" => match m.get("outcome").and_then(Value::as_str) {
            Some("block") => {
                r.decision("block").effect(Effect::PromptBlocked);
                if let Some(s) = text(&m, "message").or_else(|| text(&m, "reason")) {
                    r.user(s.to_string());
                }
            }
            Some("pass") => {}
            _ => {
                r.decision("block").effect(Effect::PromptBlocked);
                r.warn(
                    W::InvalidJson,
                    "before_agent_run reads a result without a valid `outcome` as invalid and fails closed",
                );
                r.warn(W::FailClosed, "the prompt is blocked");
            }
        },
        "before_agent_finalize" => {
            if m.get("action").and_then(Value::as_str) == Some("revise") {
                let instr = m
                    .get("retry")
                    .and_then(|x| x.get("instruction"))
                    .and_then(Value::as_str)
                    .or_else(|| text(&m, "reason"))
                    .unwrap_or("");
                r.decision("continue")
                    .effect(Effect::AgentContinues)
                    .model(instr.to_string());
            }
        }
        "before_prompt_build" | "before_agent_start" => {
            for k in [
                "prependContext",
                "appendSystemContext",
                "prependSystemContext",
            ] {
                if let Some(c) = text(&m, k) {
                    r.context(c);
                }
            }
        }
        _ => {
            if !m.is_empty() {
                r.warn(
                    W::IgnoredField,
                    format!("the result is not read on {event}"),
                );
            }
        }
    }
    r.done()
}
