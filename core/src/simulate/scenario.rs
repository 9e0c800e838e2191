//! Scenarios: what happened on the agent side (a shell call, a file edit, a
//! prompt, a stop), and each agent's native payload for it, in the shape of
//! that agent's fixtures (`fixtures/<agent>/`).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::Error;
use crate::model::{Kind, Provider};

/// The class of tool a tool scenario is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolClass {
    /// A shell command.
    Shell,
    /// A file edit.
    #[serde(rename = "file.edit", alias = "edit", alias = "file_edit")]
    FileEdit,
    /// A file read.
    #[serde(rename = "file.read", alias = "read", alias = "file_read")]
    FileRead,
}

impl ToolClass {
    /// Parses `shell`, `file.edit` (`edit`), `file.read` (`read`).
    pub fn parse(s: &str) -> Result<ToolClass, Error> {
        serde_json::from_value(Value::String(s.to_string())).map_err(|_| Error::InvalidArgument {
            message: format!("unknown tool `{s}` (shell, file.edit, file.read)"),
        })
    }
}

/// One thing that happens on the agent side. JSON form:
/// `{"name"?, "event": "tool.pre", "tool"?: "shell", "command"?, "path"?,
/// "prompt"?}` or `{"name"?, "agent": "codex", "payload": {...}, "event"?:
/// "<native name>"}` (one agent's native payload).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// A short label (`deny rm -rf`); default from the content.
    #[serde(default)]
    pub name: String,
    /// `tool.pre`, `tool.post`, `prompt.submit` (`prompt.submitted`),
    /// `stop` (`agent.stop`); with `payload`: the native event name, when
    /// the payload does not carry it.
    #[serde(default)]
    pub event: Option<String>,
    /// The tool class of a tool event (default `shell`).
    #[serde(default)]
    pub tool: Option<ToolClass>,
    /// The shell command (shell tool).
    #[serde(default)]
    pub command: Option<String>,
    /// The file path (file tools).
    #[serde(default)]
    pub path: Option<String>,
    /// The prompt text (`prompt.submit`).
    #[serde(default)]
    pub prompt: Option<String>,
    /// With `payload`: the agent it belongs to.
    #[serde(default)]
    pub agent: Option<String>,
    /// One agent's native payload, sent as is.
    #[serde(default)]
    pub payload: Option<Value>,
}

/// One agent's payload for a scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Built {
    /// Native event name.
    pub event: String,
    /// Native tool name, on tool events.
    pub tool: Option<String>,
    /// The payload (for the in-process agents: our plugin's frame).
    pub payload: Value,
}

impl Scenario {
    /// A tool call about to run: `tool.pre` with a shell command.
    pub fn shell(command: &str) -> Scenario {
        Scenario {
            event: Some("tool.pre".into()),
            tool: Some(ToolClass::Shell),
            command: Some(command.into()),
            ..Scenario::empty()
        }
    }

    /// A file edit about to run.
    pub fn edit(path: &str) -> Scenario {
        Scenario {
            event: Some("tool.pre".into()),
            tool: Some(ToolClass::FileEdit),
            path: Some(path.into()),
            ..Scenario::empty()
        }
    }

    /// A file read about to run.
    pub fn read(path: &str) -> Scenario {
        Scenario {
            event: Some("tool.pre".into()),
            tool: Some(ToolClass::FileRead),
            path: Some(path.into()),
            ..Scenario::empty()
        }
    }

    /// A submitted prompt.
    pub fn prompt(text: &str) -> Scenario {
        Scenario {
            event: Some("prompt.submit".into()),
            prompt: Some(text.into()),
            ..Scenario::empty()
        }
    }

    /// The agent is about to stop.
    pub fn stop() -> Scenario {
        Scenario {
            event: Some("stop".into()),
            ..Scenario::empty()
        }
    }

    /// One agent's native payload.
    pub fn payload(agent: Provider, payload: Value, event: Option<&str>) -> Scenario {
        Scenario {
            agent: Some(agent.id().into()),
            payload: Some(payload),
            event: event.map(str::to_string),
            ..Scenario::empty()
        }
    }

    fn empty() -> Scenario {
        Scenario {
            name: String::new(),
            event: None,
            tool: None,
            command: None,
            path: None,
            prompt: None,
            agent: None,
            payload: None,
        }
    }

    /// With a label.
    #[must_use]
    pub fn named(mut self, name: &str) -> Scenario {
        self.name = name.into();
        self
    }

    /// The label: the name, else one made from the content.
    pub fn label(&self) -> String {
        if !self.name.is_empty() {
            return self.name.clone();
        }
        if self.payload.is_some() {
            return format!("payload ({})", self.agent.as_deref().unwrap_or("?"));
        }
        match self.kind() {
            Ok(Kind::ToolPre | Kind::ToolPost) => match self.tool.unwrap_or(ToolClass::Shell) {
                ToolClass::Shell => format!("shell: {}", self.command.as_deref().unwrap_or("")),
                ToolClass::FileEdit => format!("edit {}", self.path.as_deref().unwrap_or("")),
                ToolClass::FileRead => format!("read {}", self.path.as_deref().unwrap_or("")),
            },
            Ok(Kind::PromptSubmitted) => {
                format!("prompt: {}", self.prompt.as_deref().unwrap_or(""))
            }
            Ok(Kind::AgentStop) => "stop".into(),
            _ => self.event.clone().unwrap_or_default(),
        }
    }

    /// The unified kind of a generic scenario.
    pub fn kind(&self) -> Result<Kind, Error> {
        let e = self.event.as_deref().unwrap_or("tool.pre");
        Ok(match e {
            "tool.pre" | "pre_tool" => Kind::ToolPre,
            "tool.post" => Kind::ToolPost,
            "prompt.submit" | "prompt.submitted" | "prompt" => Kind::PromptSubmitted,
            "stop" | "agent.stop" => Kind::AgentStop,
            other => {
                return Err(Error::InvalidArgument {
                    message: format!(
                        "unknown scenario event `{other}` (tool.pre, tool.post, prompt.submit, stop)"
                    ),
                });
            }
        })
    }

    /// Checks the scenario is well formed.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |m: &str| Error::InvalidArgument { message: m.into() };
        if let Some(p) = &self.payload {
            let a = self
                .agent
                .as_deref()
                .ok_or_else(|| bad("a payload scenario names its `agent`"))?;
            Provider::parse(a)?;
            if !p.is_object() {
                return Err(bad("`payload` must be a JSON object"));
            }
            return Ok(());
        }
        let k = self.kind()?;
        if matches!(k, Kind::ToolPre | Kind::ToolPost) {
            match self.tool.unwrap_or(ToolClass::Shell) {
                ToolClass::Shell if self.command.is_none() => {
                    return Err(bad("a shell scenario needs `command`"));
                }
                ToolClass::FileEdit | ToolClass::FileRead if self.path.is_none() => {
                    return Err(bad("a file scenario needs `path`"));
                }
                _ => {}
            }
        }
        if k == Kind::PromptSubmitted && self.prompt.is_none() {
            return Err(bad("a prompt scenario needs `prompt`"));
        }
        Ok(())
    }

    /// The agent's payload for this scenario, `None` when the agent has no
    /// such event or tool (Codex has no file-read tool) or the payload
    /// belongs to another agent.
    pub fn build(&self, agent: Provider, cwd: &str) -> Result<Option<Built>, Error> {
        self.validate()?;
        if let Some(p) = &self.payload {
            let owner = Provider::parse(self.agent.as_deref().unwrap_or(""))?;
            if owner != agent {
                return Ok(None);
            }
            let event = self
                .event
                .clone()
                .or_else(|| native_name(agent, p))
                .ok_or_else(|| Error::InvalidArgument {
                    message: format!(
                        "the {} payload does not name its event: give the native event name",
                        agent.id()
                    ),
                })?;
            let tool = tool_name(p);
            return Ok(Some(Built {
                event,
                tool,
                payload: p.clone(),
            }));
        }
        let kind = self.kind()?;
        let class = self.tool.unwrap_or(ToolClass::Shell);
        Ok(build(agent, kind, class, self, cwd))
    }
}

/// The native event a payload names, where the agent's payloads carry one.
fn native_name(agent: Provider, p: &Value) -> Option<String> {
    let key = match agent {
        Provider::Opencode | Provider::Openclaw => "hook",
        Provider::Copilot => "hookName",
        _ => "hook_event_name",
    };
    p.get(key)
        .or_else(|| p.get("hook_event_name"))
        .and_then(Value::as_str)
        .map(str::to_string)
}

fn tool_name(p: &Value) -> Option<String> {
    ["tool_name", "toolName"]
        .iter()
        .find_map(|k| p.get(k).and_then(Value::as_str))
        .or_else(|| p.pointer("/input/tool").and_then(Value::as_str))
        .or_else(|| p.pointer("/event/toolName").and_then(Value::as_str))
        .map(str::to_string)
}

/// A fresh id per payload: the run entry keeps per-session state (Cursor's
/// double-fire dedupe, the stop-loop guard), so two simulations of one
/// scenario must not look like one session repeating itself.
fn nonce() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    format!(
        "{:x}{:x}{:x}",
        std::process::id(),
        t & 0xffff_ffff,
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// The native tool name and input of a tool class on an agent.
fn tool_of(agent: Provider, class: ToolClass, s: &Scenario) -> Option<(&'static str, Value)> {
    let cmd = s.command.clone().unwrap_or_default();
    let path = s.path.clone().unwrap_or_default();
    let (old, new) = ("old text", "new text");
    Some(match (agent, class) {
        (Provider::ClaudeCode | Provider::KimiCode, ToolClass::Shell) => {
            ("Bash", json!({"command": cmd}))
        }
        (Provider::ClaudeCode | Provider::KimiCode, ToolClass::FileEdit) => (
            "Edit",
            json!({"file_path": path, "old_string": old, "new_string": new}),
        ),
        (Provider::ClaudeCode | Provider::KimiCode, ToolClass::FileRead) => {
            ("Read", json!({"file_path": path}))
        }
        (Provider::Codex, ToolClass::Shell) => ("Bash", json!({"command": cmd})),
        (Provider::Codex, ToolClass::FileEdit) => (
            "apply_patch",
            json!({"command": format!(
                "*** Begin Patch\n*** Update File: {path}\n@@\n-{old}\n+{new}\n*** End Patch\n"
            )}),
        ),
        (Provider::Codex, ToolClass::FileRead) => return None,
        (Provider::Cursor, ToolClass::Shell) => ("Shell", json!({"command": cmd})),
        (Provider::Cursor, ToolClass::FileEdit) => (
            "StrReplace",
            json!({"path": path, "old_string": old, "new_string": new}),
        ),
        (Provider::Cursor, ToolClass::FileRead) => ("Read", json!({"file_path": path})),
        (Provider::Gemini, ToolClass::Shell) => ("run_shell_command", json!({"command": cmd})),
        (Provider::Gemini, ToolClass::FileEdit) => (
            "replace",
            json!({"file_path": path, "old_string": old, "new_string": new}),
        ),
        (Provider::Gemini, ToolClass::FileRead) => ("read_file", json!({"file_path": path})),
        (Provider::Copilot, ToolClass::Shell) => ("bash", json!({"command": cmd})),
        (Provider::Copilot, ToolClass::FileEdit) => (
            "edit",
            json!({"path": path, "old_str": old, "new_str": new}),
        ),
        (Provider::Copilot, ToolClass::FileRead) => ("view", json!({"path": path})),
        (Provider::Opencode, ToolClass::Shell) => ("bash", json!({"command": cmd})),
        (Provider::Opencode, ToolClass::FileEdit) => (
            "edit",
            json!({"filePath": path, "oldString": old, "newString": new}),
        ),
        (Provider::Opencode, ToolClass::FileRead) => ("read", json!({"filePath": path})),
        (Provider::Openclaw, ToolClass::Shell) => ("exec", json!({"command": cmd})),
        (Provider::Openclaw, ToolClass::FileEdit) => (
            "edit",
            json!({"path": path, "oldText": old, "newText": new}),
        ),
        (Provider::Openclaw, ToolClass::FileRead) => ("read", json!({"path": path})),
    })
}

/// The native event of a unified kind (and tool class) on an agent.
fn event_of(agent: Provider, kind: Kind, class: ToolClass) -> Option<&'static str> {
    use Provider as P;
    Some(match (agent, kind) {
        (P::ClaudeCode | P::Codex | P::KimiCode, Kind::ToolPre) => "PreToolUse",
        (P::ClaudeCode | P::Codex | P::KimiCode, Kind::ToolPost) => "PostToolUse",
        (P::ClaudeCode | P::Codex | P::KimiCode, Kind::PromptSubmitted) => "UserPromptSubmit",
        (P::ClaudeCode | P::Codex | P::KimiCode, Kind::AgentStop) => "Stop",
        (P::Cursor, Kind::ToolPre) => match class {
            ToolClass::Shell => "beforeShellExecution",
            ToolClass::FileRead => "beforeReadFile",
            ToolClass::FileEdit => "preToolUse",
        },
        (P::Cursor, Kind::ToolPost) => "postToolUse",
        (P::Cursor, Kind::PromptSubmitted) => "beforeSubmitPrompt",
        (P::Cursor, Kind::AgentStop) => "stop",
        (P::Gemini, Kind::ToolPre) => "BeforeTool",
        (P::Gemini, Kind::ToolPost) => "AfterTool",
        (P::Gemini, Kind::PromptSubmitted) => "BeforeAgent",
        (P::Gemini, Kind::AgentStop) => "AfterAgent",
        (P::Copilot, Kind::ToolPre) => "preToolUse",
        (P::Copilot, Kind::ToolPost) => "postToolUse",
        (P::Copilot, Kind::PromptSubmitted) => "userPromptSubmitted",
        (P::Copilot, Kind::AgentStop) => "agentStop",
        (P::Opencode, Kind::ToolPre) => "tool.execute.before",
        (P::Opencode, Kind::ToolPost) => "tool.execute.after",
        (P::Opencode, Kind::PromptSubmitted) => "chat.message",
        (P::Opencode, Kind::AgentStop) => "session.idle",
        (P::Openclaw, Kind::ToolPre) => "before_tool_call",
        (P::Openclaw, Kind::ToolPost) => "after_tool_call",
        (P::Openclaw, Kind::PromptSubmitted) => "before_agent_run",
        (P::Openclaw, Kind::AgentStop) => "before_agent_finalize",
        _ => return None,
    })
}

fn build(agent: Provider, kind: Kind, class: ToolClass, s: &Scenario, cwd: &str) -> Option<Built> {
    let event = event_of(agent, kind, class)?;
    let id = nonce();
    let session = format!("sim-{id}");
    let call = format!("call_sim_{id}");
    let is_tool = matches!(kind, Kind::ToolPre | Kind::ToolPost);
    let tool = if is_tool {
        Some(tool_of(agent, class, s)?)
    } else {
        None
    };
    let prompt = s.prompt.clone().unwrap_or_default();
    let output = "ok\n";
    let last = "Done.";
    let mut v = match agent {
        Provider::ClaudeCode | Provider::Codex | Provider::KimiCode => {
            let mut v = json!({"session_id": session, "transcript_path": format!("{cwd}/.sim/transcript.jsonl"),
                "cwd": cwd, "hook_event_name": event});
            match agent {
                Provider::ClaudeCode => v["permission_mode"] = json!("default"),
                Provider::Codex => {
                    v["turn_id"] = json!("turn-sim-1");
                    v["model"] = json!("gpt-5.5-codex");
                    v["permission_mode"] = json!("default");
                }
                _ => {
                    v["client_type"] = json!("kimi_code_cli");
                    v.as_object_mut()?.remove("transcript_path");
                }
            }
            if let Some((name, input)) = &tool {
                v["tool_name"] = json!(name);
                v["tool_input"] = input.clone();
                let id_key = if agent == Provider::KimiCode {
                    "tool_call_id"
                } else {
                    "tool_use_id"
                };
                v[id_key] = json!(call);
                if kind == Kind::ToolPost {
                    v["tool_response"] = if agent == Provider::Codex {
                        json!(output)
                    } else {
                        json!({"stdout": output, "stderr": "", "interrupted": false})
                    };
                }
            }
            match kind {
                Kind::PromptSubmitted => v["prompt"] = json!(prompt),
                Kind::AgentStop => {
                    v["stop_hook_active"] = json!(false);
                    if agent != Provider::KimiCode {
                        v["last_assistant_message"] = json!(last);
                    }
                }
                _ => {}
            }
            v
        }
        Provider::Cursor => {
            let mut v = json!({"hook_event_name": event, "conversation_id": session, "generation_id": "gen-sim-1",
                "cursor_version": "2.3.9", "workspace_roots": [cwd]});
            if let Some((name, input)) = &tool {
                match event {
                    "beforeShellExecution" => {
                        v["command"] = input["command"].clone();
                        v["cwd"] = json!(cwd);
                    }
                    "beforeReadFile" => {
                        v["file_path"] = input["file_path"].clone();
                        v["content"] = json!("");
                    }
                    _ => {
                        v["tool_name"] = json!(name);
                        v["tool_input"] = input.clone();
                        v["tool_use_id"] = json!(call);
                        if kind == Kind::ToolPost {
                            v["tool_output"] = json!(output);
                        }
                    }
                }
            }
            match kind {
                Kind::PromptSubmitted => {
                    v["prompt"] = json!(prompt);
                    v["attachments"] = json!([]);
                }
                Kind::AgentStop => {
                    v["status"] = json!("completed");
                    v["loop_count"] = json!(0);
                }
                _ => {}
            }
            v
        }
        Provider::Gemini => {
            let mut v = json!({"session_id": session, "transcript_path": "", "cwd": cwd,
                "hook_event_name": event, "timestamp": "2026-01-01T00:00:00.000Z"});
            if let Some((name, input)) = &tool {
                v["tool_name"] = json!(name);
                v["tool_input"] = input.clone();
                if kind == Kind::ToolPost {
                    v["tool_response"] = json!({"llmContent": output, "returnDisplay": output});
                }
            }
            match kind {
                Kind::PromptSubmitted => v["prompt"] = json!(prompt),
                Kind::AgentStop => {
                    v["prompt"] = json!("the task");
                    v["prompt_response"] = json!(last);
                    v["stop_hook_active"] = json!(false);
                }
                _ => {}
            }
            v
        }
        Provider::Copilot => {
            let mut v =
                json!({"sessionId": session, "timestamp": 1_788_251_442_113_u64, "cwd": cwd});
            if let Some((name, input)) = &tool {
                v["toolName"] = json!(name);
                v["toolArgs"] = input.clone();
                if kind == Kind::ToolPost {
                    v["toolResult"] = json!({"resultType": "success", "textResultForLlm": output});
                }
            }
            match kind {
                Kind::PromptSubmitted => v["prompt"] = json!(prompt),
                Kind::AgentStop => {
                    v["stopReason"] = json!("end_turn");
                    v["stop_hook_active"] = json!(false);
                }
                _ => {}
            }
            v
        }
        Provider::Opencode => {
            let plugin = json!({"directory": cwd, "worktree": cwd, "version": "1.18.33"});
            match kind {
                Kind::ToolPre | Kind::ToolPost => {
                    let (name, input) = tool.clone()?;
                    let mut v = json!({"hook": event,
                        "input": {"tool": name, "sessionID": session, "callID": call},
                        "plugin": plugin});
                    if kind == Kind::ToolPre {
                        v["output"] = json!({"args": input});
                    } else {
                        v["input"]["args"] = input;
                        v["output"] = json!({"title": "", "output": output, "metadata": {}});
                    }
                    v
                }
                Kind::PromptSubmitted => json!({"hook": event,
                    "input": {"sessionID": session, "agent": "build", "messageID": "msg_sim"},
                    "output": {"message": {"id": "msg_sim", "sessionID": session, "role": "user"},
                        "parts": [{"id": "prt_sim", "sessionID": session, "messageID": "msg_sim", "type": "text", "text": prompt}]},
                    "plugin": plugin}),
                _ => {
                    let mut plugin = plugin;
                    plugin["final_message"] = json!(last);
                    json!({"hook": event, "input": {"sessionID": session}, "plugin": plugin})
                }
            }
        }
        Provider::Openclaw => {
            let ctx = json!({"agentId": "main", "sessionKey": "agent:main:main", "sessionId": session,
                "runId": "run-sim-1", "workspaceDir": cwd});
            match kind {
                Kind::ToolPre | Kind::ToolPost => {
                    let (name, input) = tool.clone()?;
                    let mut c = ctx;
                    c["toolName"] = json!(name);
                    c["toolCallId"] = json!(call);
                    let mut ev = json!({"toolName": name, "params": input, "runId": "run-sim-1", "toolCallId": call});
                    if kind == Kind::ToolPost {
                        ev["result"] = json!({"content": [{"type": "text", "text": output}]});
                    }
                    json!({"hook": event, "event": ev, "ctx": c})
                }
                Kind::PromptSubmitted => json!({"hook": event,
                    "event": {"prompt": prompt, "messages": [], "senderIsOwner": true}, "ctx": ctx}),
                _ => json!({"hook": event, "event": {"runId": "run-sim-1", "sessionId": session,
                    "sessionKey": "agent:main:main", "cwd": cwd, "stopHookActive": false,
                    "lastAssistantMessage": last, "messages": []}, "ctx": ctx}),
            }
        }
    };
    if agent == Provider::Copilot {
        // camelCase payloads do not name their event (the command knows it).
        v.as_object_mut()?.remove("hook_event_name");
    }
    Some(Built {
        event: event.to_string(),
        tool: tool.map(|(n, _)| n.to_string()),
        payload: v,
    })
}

/// The built-in scenario set: a guard's usual cases.
pub fn builtin() -> Vec<Scenario> {
    vec![
        Scenario::shell("rm -rf build").named("shell: rm -rf build"),
        Scenario::shell("git push --force origin main").named("shell: git push --force"),
        Scenario::shell("ls -la").named("shell: ls -la"),
        Scenario::edit("src/main.rs").named("edit src/main.rs"),
        Scenario::read(".env").named("read .env"),
        Scenario::prompt("deploy to production").named("prompt"),
        Scenario::stop().named("stop"),
    ]
}
