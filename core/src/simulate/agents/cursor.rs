//! What Cursor does with a hook's answer (cursor.md §4, CLI bundle
//! 2026.09.18): exit 0 + a JSON object is applied; empty stdout is a failed
//! hook (ignored; blocks under `failClosed`); invalid JSON blocks the
//! permission-style events and is dropped elsewhere; exit 2 blocks with
//! stderr as the reason; other codes, crashes and timeouts fail open.

use serde_json::{Map, Value};

use crate::model::{Kind, Provider};
use crate::simulate::{
    Answer, Effect, HookInvocation, Prediction, Reading, WarningCode as W, hso, json_object, text,
};

/// The command string goes to the user's shell (§1.1): `sh -c`. Variables
/// of §1.3. Timeout: 60 s (§1.5).
pub(crate) static HOOKS: HookInvocation = HookInvocation {
    shell: &["sh", "-c"],
    env: &[
        ("CURSOR_PROJECT_DIR", "project_dir"),
        ("CLAUDE_PROJECT_DIR", "project_dir"),
        ("CURSOR_VERSION", "version"),
    ],
    default_timeout_ms: 60_000,
    reads_stderr_as_answer: false,
    in_process: false,
};

/// Permission-style events: invalid output blocks them.
const PERMISSION: &[&str] = &[
    "preToolUse",
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
    "beforeTabFileRead",
    "subagentStart",
];

/// The fields each event reads (§4.2).
fn fields(event: &str) -> &'static [&'static str] {
    match event {
        "beforeShellExecution" | "beforeMCPExecution" => {
            &["permission", "user_message", "agent_message", "continue"]
        }
        "preToolUse" => &[
            "permission",
            "user_message",
            "agent_message",
            "updated_input",
            "continue",
        ],
        "beforeReadFile" | "beforeTabFileRead" | "subagentStart" => {
            &["permission", "user_message", "agent_message", "continue"]
        }
        "beforeSubmitPrompt" => &[
            "continue",
            "user_message",
            "additional_context",
            "additionalContext",
        ],
        "postToolUse" | "postToolUseFailure" => &["additional_context", "updated_mcp_tool_output"],
        "afterMCPExecution" => &["updated_mcp_tool_output"],
        "stop" | "subagentStop" => &["followup_message"],
        "sessionStart" => &["additional_context", "env", "continue"],
        "preCompact" => &["user_message"],
        _ => &[],
    }
}

pub(crate) fn read(event: &str, tool: Option<&str>, a: &Answer) -> Prediction {
    let mut r = Reading::new(Provider::Cursor, event);
    let permission = PERMISSION.contains(&event);
    if a.timed_out || a.exit.is_none() {
        r.failed_open("the hook timed out or crashed: ignored (fail-open unless failClosed)");
        return r.done();
    }
    match a.exit {
        Some(0) => {}
        Some(2) => {
            let reason = a.stderr.trim();
            match event {
                _ if permission => {
                    r.decision("deny").block(Some(reason));
                }
                "beforeSubmitPrompt" => {
                    r.decision("block").block(Some(reason));
                }
                "sessionStart" | "stop" | "subagentStop" => {
                    r.warn(
                        W::ExitCodeIgnored,
                        format!("exit 2 on {event} changes nothing"),
                    );
                }
                _ => {
                    r.warn(
                        W::ExitCodeIgnored,
                        format!("exit 2 on {event} is only logged"),
                    );
                }
            }
            if json_object(&a.stdout).is_some() {
                r.warn(W::JsonIgnoredOnExit, "stdout is ignored on exit 2");
            }
            return r.done();
        }
        Some(c) => {
            if json_object(&a.stdout).is_some() {
                r.warn(W::JsonIgnoredOnExit, "stdout is ignored on a non-zero exit");
            }
            r.failed_open(&format!(
                "exit code {c}: ignored (fail-open unless failClosed)"
            ));
            return r.done();
        }
        None => {}
    }
    let t = a.stdout.trim();
    if t.is_empty() {
        r.warn(
            W::HookFailed,
            "Cursor counts empty stdout as a failed hook (ignored; with failClosed it blocks): print {}",
        );
        return r.done();
    }
    let m = match json_object(t).or_else(|| suffix_object(t)) {
        Some(m) => m,
        None => {
            r.warn(W::InvalidJson, "stdout is not a JSON object");
            if permission {
                r.decision("deny").block(None);
                r.warn(W::FailClosed, format!("invalid output blocks {event}"));
            }
            return r.done();
        }
    };
    apply(&mut r, event, tool, &m);
    r.done()
}

/// "If the text ends with `}`, the last parseable `{…}` suffix is used."
fn suffix_object(t: &str) -> Option<Map<String, Value>> {
    if !t.ends_with('}') {
        return None;
    }
    t.char_indices()
        .filter(|(_, c)| *c == '{')
        .find_map(|(i, _)| json_object(&t[i..]))
}

fn apply(r: &mut Reading, event: &str, tool: Option<&str>, m: &Map<String, Value>) {
    let known = fields(event);
    for k in m.keys() {
        if k == "hookSpecificOutput" || k == "decision" || k == "reason" {
            continue;
        }
        if !known.contains(&k.as_str()) {
            let camel = matches!(
                k.as_str(),
                "userMessage" | "agentMessage" | "followupMessage"
            );
            r.warn(
                W::IgnoredField,
                if camel {
                    format!(
                        "`{k}`: camelCase keys are ignored since Cursor 2.0.64 (use snake_case)"
                    )
                } else {
                    format!("`{k}` is ignored on {event}")
                },
            );
        }
    }
    // Claude-shaped answers are mapped onto Cursor's fields (§4.6).
    let claude_deny = hso(m)
        .and_then(|g| g.get("permissionDecision"))
        .and_then(Value::as_str)
        == Some("deny")
        || m.get("decision").and_then(Value::as_str) == Some("block");
    let claude_reason = hso(m)
        .and_then(|g| text(g, "permissionDecisionReason"))
        .or_else(|| text(m, "reason"));
    if let Some(u) = text(m, "user_message") {
        r.user(u.to_string());
    }
    match r.kind() {
        Kind::ToolPre | Kind::SubagentStart if known.contains(&"permission") => {
            let perm = m.get("permission").and_then(Value::as_str);
            let agent_msg = text(m, "agent_message");
            match perm {
                Some("deny") => {
                    r.decision("deny").block(agent_msg);
                    if agent_msg.is_none() {
                        r.warn(
                            W::MissingReason,
                            "no agent_message: the model is not told why",
                        );
                    }
                }
                Some("allow") => {
                    r.decision("allow").effect(Effect::ToolRunsWithoutPrompt);
                    if !m.contains_key("updated_input") && agent_msg.is_none() {
                        r.warn(
                            W::EmptyAllow,
                            "`permission: allow` skips the user's approval for this call",
                        );
                    }
                }
                Some("ask") => match event {
                    "beforeShellExecution" | "beforeMCPExecution" => {
                        r.decision("ask").effect(Effect::AsksUser);
                        r.warn(
                            W::UnsupportedDecision,
                            "`ask` is broken since Cursor 2.4.21 (deny on 2.x, allow on 3.x)",
                        );
                    }
                    "subagentStart" => {
                        r.decision("deny").block(agent_msg);
                        r.warn(
                            W::UnsupportedDecision,
                            "`ask` is read as deny on subagentStart",
                        );
                    }
                    _ => {
                        r.warn(
                            W::UnsupportedDecision,
                            format!("`ask` is ignored on {event}"),
                        );
                    }
                },
                Some(other) => {
                    r.warn(
                        W::IgnoredField,
                        format!("permission `{other}` is not a decision"),
                    );
                }
                None if claude_deny => {
                    r.decision("deny").block(claude_reason);
                }
                None => {}
            }
            if let Some(u) = m.get("updated_input").filter(|v| v.is_object()) {
                if event == "preToolUse" && perm != Some("deny") && !claude_deny {
                    r.effect(Effect::ToolRunsWithInputRewritten)
                        .input(u.clone());
                }
            }
        }
        Kind::PromptSubmitted => {
            if m.get("continue") == Some(&Value::Bool(false)) || claude_deny {
                r.decision("block").effect(Effect::PromptBlocked);
                if let Some(c) = claude_reason {
                    r.user(c.to_string());
                }
            } else {
                let ctx = text(m, "additional_context")
                    .or_else(|| text(m, "additionalContext"))
                    .or_else(|| hso(m).and_then(|g| text(g, "additionalContext")));
                if let Some(c) = ctx {
                    r.context(c);
                }
            }
        }
        Kind::AgentStop | Kind::SubagentStop => {
            if let Some(f) = text(m, "followup_message") {
                r.decision("continue")
                    .effect(Effect::AgentContinues)
                    .model(f.to_string());
            } else if claude_deny {
                r.decision("continue").effect(Effect::AgentContinues);
                if let Some(c) = claude_reason {
                    r.model(c.to_string());
                }
            }
            if m.get("permission").and_then(Value::as_str) == Some("deny") {
                r.warn(W::IgnoredField, "`permission: deny` is ignored on stop");
            }
        }
        Kind::ToolPost | Kind::ToolError | Kind::SessionStart => {
            if let Some(c) = text(m, "additional_context") {
                if c.trim().chars().count() > 10_000 {
                    r.warn(
                        W::IgnoredField,
                        "additional_context over 10,000 characters is dropped",
                    );
                } else {
                    r.context(c);
                }
            }
            if let Some(v) = m.get("updated_mcp_tool_output") {
                let mcp = tool.is_some_and(|t| t.starts_with("MCP:") || t.contains("__"));
                if mcp || event == "afterMCPExecution" {
                    r.effect(Effect::OutputReplaced)
                        .model(crate::capability::value_text(v));
                } else {
                    r.warn(
                        W::IgnoredField,
                        "updated_mcp_tool_output is honoured only for MCP tools",
                    );
                }
            }
        }
        _ => {}
    }
}
