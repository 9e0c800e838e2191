//! A hook run decoded the way its agent reads it: exit code, stdout and
//! stderr become a neutral [`HookOutput`]. The per-agent rules live in
//! `decode_claude.rs` and `decode_codex.rs`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A decision one hook expressed (normalized across agents).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookDecision {
    /// Approve the tool call / permission.
    Allow,
    /// Force a prompt (Claude Code; `-p` treats it as deny).
    Ask,
    /// Hand the call back and end the run (Claude Code `-p`).
    Defer,
    /// Deny the tool call / permission (reason shown to the model).
    Deny,
    /// The event's gating action on other events: block the prompt,
    /// continue the turn (Stop), flag the output (PostToolUse), refuse the
    /// task, fail the worktree, ...
    Block,
}

impl HookDecision {
    /// The audit spelling (`allow`, `ask`, `defer`, `deny`, `block`).
    pub fn as_str(self) -> &'static str {
        match self {
            HookDecision::Allow => "allow",
            HookDecision::Ask => "ask",
            HookDecision::Defer => "defer",
            HookDecision::Deny => "deny",
            HookDecision::Block => "block",
        }
    }

    /// Precedence in the merge: deny = block > defer > ask > allow.
    pub fn rank(self) -> u8 {
        match self {
            HookDecision::Allow => 1,
            HookDecision::Ask => 2,
            HookDecision::Defer => 3,
            HookDecision::Deny | HookDecision::Block => 4,
        }
    }
}

/// How the agent classifies a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputStatus {
    /// Exit 0 (or JSON that decides regardless of the code, Claude Code).
    Success,
    /// Exit 2 honoured as a blocking error.
    Blocking,
    /// Claude Code: the run errored without blocking (exit 1, invalid JSON
    /// schema, exit 2 on an event that cannot block).
    NonBlockingError,
    /// Codex: the run "failed" (bad exit code, strict parser rejection).
    Failed,
    /// The deadline passed; the process group was killed.
    TimedOut,
    /// The command could not be started.
    SpawnError,
}

/// `continue: false`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StopRequest {
    /// `stopReason` (shown to the user, not the model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One hook's decoded answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HookOutput {
    /// Run classification.
    pub status: OutputStatus,
    /// The decision, if the hook expressed one the agent honours.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<HookDecision>,
    /// Deny/block reason (or the ask/allow reason shown to the user).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `continue: false` with its `stopReason`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<StopRequest>,
    /// `systemMessage` (user-facing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// `additionalContext`, or plain-text stdout where it is context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// `updatedInput` (replaces the whole tool input).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// `updatedToolOutput` / `updatedMCPToolOutput` (Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_tool_output: Option<Value>,
    /// PermissionRequest `updatedPermissions` (Claude Code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_permissions: Option<Value>,
    /// PermissionRequest deny `interrupt: true` (stops Claude).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupt: bool,
    /// Other fields the agent honours on this event, verbatim
    /// (`sessionTitle`, `watchPaths`, `action`, `worktreePath`, ...).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
    /// Why the run errored, failed or was ignored (for display and audit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl HookOutput {
    /// An output with a status and nothing else.
    pub fn new(status: OutputStatus) -> HookOutput {
        HookOutput {
            status,
            decision: None,
            reason: None,
            stop: None,
            system_message: None,
            context: None,
            updated_input: None,
            updated_tool_output: None,
            updated_permissions: None,
            interrupt: false,
            extra: Map::new(),
            error: None,
        }
    }

    /// A run that did not produce an answer (error, failure, timeout).
    pub fn errored(status: OutputStatus, why: impl Into<String>) -> HookOutput {
        HookOutput {
            error: Some(why.into()),
            ..HookOutput::new(status)
        }
    }

    /// The audit decision string: the decision, else `stop` on
    /// `continue: false`, else `pass`.
    pub fn decision_str(&self) -> &'static str {
        match (self.decision, &self.stop) {
            (Some(d), _) => d.as_str(),
            (None, Some(_)) => "stop",
            (None, None) => "pass",
        }
    }
}

/// What the decoder needs to know besides the run.
#[derive(Debug, Clone, Copy, Default)]
pub struct DecodeCtx<'a> {
    /// The payload's `tool_name`, when any (Codex `updatedInput` rules).
    pub tool_name: Option<&'a str>,
    /// The handler is `async` (cannot gate: decisions, `continue` and
    /// rewrites are dropped; context and system message are kept).
    pub is_async: bool,
    /// Claude Code `onFailure: "block"`.
    pub on_failure_block: bool,
}

/// What stdout holds.
pub(crate) enum Stdout {
    Empty,
    Text(String),
    Json(Map<String, Value>),
    /// Starts like JSON (`{`, `[`) but is not a JSON object.
    BadJson(String),
}

/// Classifies stdout: trimmed empty, a JSON object, JSON-looking garbage,
/// or plain text.
pub(crate) fn classify(stdout: &str) -> Stdout {
    let t = stdout.trim();
    if t.is_empty() {
        return Stdout::Empty;
    }
    if t.starts_with('{') || t.starts_with('[') {
        return match serde_json::from_str::<Value>(t) {
            Ok(Value::Object(m)) => Stdout::Json(m),
            Ok(_) => Stdout::BadJson("stdout is JSON but not an object".into()),
            Err(e) => Stdout::BadJson(format!("invalid JSON on stdout: {e}")),
        };
    }
    Stdout::Text(t.to_string())
}

/// A string field: absent/null is `None`, another type is an error.
pub(crate) fn opt_str(m: &Map<String, Value>, k: &str) -> Result<Option<String>, String> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("`{k}` must be a string")),
    }
}

/// A boolean field.
pub(crate) fn opt_bool(m: &Map<String, Value>, k: &str) -> Result<Option<bool>, String> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(format!("`{k}` must be a boolean")),
    }
}

/// An object field.
pub(crate) fn opt_obj<'m>(
    m: &'m Map<String, Value>,
    k: &str,
) -> Result<Option<&'m Map<String, Value>>, String> {
    match m.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(o)) => Ok(Some(o)),
        Some(_) => Err(format!("`{k}` must be an object")),
    }
}

/// Trimmed, `None` when blank.
pub(crate) fn non_blank(s: Option<String>) -> Option<String> {
    s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}
