//! What OpenCode does with a hook's answer. OpenCode runs no hook process:
//! the answer read here is the **action object** our plugin
//! (`bindings/node/plugins/opencode.js`) applies to the live hook objects
//! (`throw`, `args`, `set`, `append`, `push`, `reply`, `prompt`; see
//! `dialect/opencode.rs`), i.e. the stdout of `agenthooks run
//! --provider=opencode` for one plugin frame. A non-zero exit, a crash or
//! a timeout is the plugin's fail policy (default open: nothing applied).

use serde_json::Value;

use crate::model::{Kind, Provider};
use crate::simulate::{
    Answer, Effect, HookInvocation, Prediction, Reading, WarningCode as W, json_object, text,
};

/// In-process: no shell, no variables. `simulate` runs the command through
/// `sh -c` with the frame on stdin; 30 s is the plugin's default deadline
/// (OpenCode has none of its own, opencode.md §1).
pub(crate) static HOOKS: HookInvocation = HookInvocation {
    shell: &[],
    env: &[],
    default_timeout_ms: 30_000,
    reads_stderr_as_answer: false,
    in_process: true,
};

const ACTIONS: &[&str] = &["args", "set", "append", "push", "reply", "prompt", "throw"];

pub(crate) fn read(event: &str, _tool: Option<&str>, a: &Answer) -> Prediction {
    let mut r = Reading::new(Provider::Opencode, event);
    if a.timed_out || a.exit != Some(0) {
        r.failed_open("the plugin applies its fail policy (open by default): nothing changes");
        return r.done();
    }
    let t = a.stdout.trim();
    if t.is_empty() {
        return r.done();
    }
    let Some(m) = json_object(t) else {
        r.warn(W::InvalidJson, "the plugin expects one JSON action object");
        r.failed_open("an unreadable answer is the plugin's fail policy");
        return r.done();
    };
    if let Some(k) = m.keys().find(|k| !ACTIONS.contains(&k.as_str())) {
        r.warn(W::UnknownField, format!("`{k}` is not a plugin action"));
    }
    if let Some(th) = text(&m, "throw") {
        match r.kind() {
            Kind::ToolPre => {
                r.decision("deny")
                    .effect(Effect::ToolBlocked)
                    .model(th.to_string());
            }
            Kind::PromptSubmitted => {
                r.decision("block")
                    .effect(Effect::PromptBlocked)
                    .user(th.to_string());
            }
            _ => {
                r.warn(
                    W::IgnoredField,
                    format!("a throw on {event} blocks nothing"),
                );
            }
        }
        return r.done();
    }
    if let Some(u) = m.get("args").filter(|v| v.is_object()) {
        if r.kind() == Kind::ToolPre {
            r.effect(Effect::ToolRunsWithInputRewritten)
                .input(u.clone());
        } else {
            r.warn(W::IgnoredField, format!("`args` means nothing on {event}"));
        }
    }
    let set = m.get("set").and_then(Value::as_object);
    match event {
        "tool.execute.after" => {
            if let Some(v) = set.and_then(|s| s.get("output").or_else(|| s.get("content"))) {
                r.effect(Effect::OutputReplaced)
                    .model(crate::capability::value_text(v));
            }
            if let Some(v) = m
                .get("append")
                .and_then(|a| a.get("output"))
                .and_then(Value::as_str)
            {
                r.context(v.trim());
            }
            if let Some(v) = m.get("push").and_then(|p| p.get("content")) {
                r.context(&texts(v));
            }
        }
        "chat.message" => {
            if let Some(v) = m.get("push").and_then(|p| p.get("parts")) {
                r.context(&texts(v));
            }
        }
        "permission.ask" => match set.and_then(|s| s.get("status")).and_then(Value::as_str) {
            Some("deny") => {
                r.decision("deny").effect(Effect::ToolBlocked);
            }
            Some("allow") => {
                r.decision("allow").effect(Effect::ToolRunsWithoutPrompt);
            }
            _ => {}
        },
        "permission.asked" | "permission.updated" => {
            let reply = m.get("reply");
            match reply.and_then(|x| x.get("reply")).and_then(Value::as_str) {
                Some("reject") => {
                    r.decision("deny").effect(Effect::ToolBlocked);
                    if let Some(s) = reply.and_then(|x| x.get("message")).and_then(Value::as_str) {
                        r.model(s.to_string());
                    }
                }
                Some("once" | "always") => {
                    r.decision("allow").effect(Effect::ToolRunsWithoutPrompt);
                }
                _ => {}
            }
        }
        "session.idle" => {
            if let Some(p) = m
                .get("prompt")
                .and_then(|p| p.get("text"))
                .and_then(Value::as_str)
            {
                r.decision("continue")
                    .effect(Effect::AgentContinues)
                    .model(p.to_string());
            }
        }
        _ => {}
    }
    r.done()
}

/// The text parts of a `[{type: "text", text}]` array.
fn texts(v: &Value) -> String {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n\n")
        })
        .unwrap_or_default()
}
