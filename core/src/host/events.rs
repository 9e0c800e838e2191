//! What each agent does per native event on the host side: the matcher
//! subject, the default timeout, what exit 2 means and what plain-text
//! stdout means. Facts: `docs/protocols/claude-code.md` §1.5, §1.7, §4.1 and
//! `codex.md` §1.5, §1.6, §4.1.

use crate::dialect::{claude, codex};
use crate::host::matcher::Dialect;
use crate::model::Kind;

/// What a group's matcher is tested against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// No matcher on this event: a `matcher` is discarded.
    None,
    /// The string field of the payload with this name.
    Field(&'static str),
    /// The last path component of this payload field (Claude `FileChanged`).
    Basename(&'static str),
    /// `tool_name` plus the dialect's matcher aliases.
    Tool,
}

/// What exit code 2 does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit2 {
    /// Denies the tool call (permission events).
    Deny,
    /// Blocks / continues / gives feedback (the event's gating action).
    Block,
    /// Treated like any other non-zero code (Claude `PermissionRequest`).
    AsOther,
    /// Stderr becomes a user-only error notice; no decision.
    Notice,
    /// Codex: a failed run.
    Failed,
}

/// What non-JSON stdout on exit 0 does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlainText {
    /// It is model context.
    Context,
    /// It is ignored (debug log).
    Ignored,
    /// The run failed (Codex `Stop`, `SubagentStop`, `Interrupt`).
    Failure,
}

/// The host-side facts of one native event.
#[derive(Debug, Clone, Copy)]
pub struct EventSpec {
    /// Native name.
    pub name: &'static str,
    /// Matcher subject.
    pub subject: Subject,
    /// Default handler timeout in seconds.
    pub default_timeout_s: f64,
    /// Largest timeout honoured, in seconds.
    pub max_timeout_s: Option<f64>,
    /// Exit-2 behaviour.
    pub exit2: Exit2,
    /// Plain-text stdout behaviour.
    pub plain_text: PlainText,
}

/// The spec of a native event, `None` when the agent has no such event.
pub fn spec(dialect: Dialect, event: &str) -> Option<EventSpec> {
    match dialect {
        Dialect::ClaudeCode => claude_spec(event),
        Dialect::Codex => codex_spec(event),
    }
}

/// The native events a dialect runs hooks for.
pub fn events(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::ClaudeCode => claude::EVENTS,
        // The last entry is the legacy `notify` payload, not a hook event.
        Dialect::Codex => &codex::EVENTS[..codex::EVENTS.len() - 1],
    }
}

fn claude_spec(event: &str) -> Option<EventSpec> {
    let name = *claude::EVENTS.iter().find(|e| **e == event)?;
    let subject = match name {
        "PreToolUse" | "PostToolUse" | "PostToolUseFailure" | "PermissionRequest"
        | "PermissionDenied" => Subject::Tool,
        "SessionStart" | "ConfigChange" | "DirectoryAdded" => Subject::Field("source"),
        "Setup" | "PreCompact" | "PostCompact" => Subject::Field("trigger"),
        "SessionEnd" => Subject::Field("reason"),
        "Notification" => Subject::Field("notification_type"),
        "SubagentStart" | "SubagentStop" => Subject::Field("agent_type"),
        "FileChanged" => Subject::Basename("file_path"),
        "StopFailure" => Subject::Field("error"),
        "InstructionsLoaded" => Subject::Field("load_reason"),
        "UserPromptExpansion" => Subject::Field("command_name"),
        "Elicitation" | "ElicitationResult" => Subject::Field("mcp_server_name"),
        // UserPromptSubmit, PostToolBatch, Stop, TeammateIdle, Task*, Worktree*,
        // MessageDisplay, CwdChanged; Pre/PostModelSwitch (undocumented).
        _ => Subject::None,
    };
    let (default_timeout_s, max_timeout_s) = match name {
        "UserPromptSubmit" => (30.0, None),
        "MessageDisplay" => (10.0, None),
        // A shared 1.5 s budget raised by per-hook timeouts up to 60 s.
        "SessionEnd" => (1.5, Some(60.0)),
        _ => (600.0, None),
    };
    let exit2 = match name {
        "PreToolUse" => Exit2::Deny,
        "PermissionRequest" => Exit2::AsOther,
        "UserPromptSubmit"
        | "UserPromptExpansion"
        | "Stop"
        | "SubagentStop"
        | "TeammateIdle"
        | "TaskCompleted"
        | "TaskCreated"
        | "ConfigChange"
        | "PostToolBatch"
        | "PreCompact"
        | "Elicitation"
        | "ElicitationResult"
        | "WorktreeCreate"
        | "PostToolUse"
        | "PostToolUseFailure" => Exit2::Block,
        _ => Exit2::Notice,
    };
    let plain_text = match name {
        "UserPromptSubmit" | "UserPromptExpansion" | "SessionStart" => PlainText::Context,
        _ => PlainText::Ignored,
    };
    Some(EventSpec {
        name,
        subject,
        default_timeout_s,
        max_timeout_s,
        exit2,
        plain_text,
    })
}

fn codex_spec(event: &str) -> Option<EventSpec> {
    let name = *events(Dialect::Codex).iter().find(|e| **e == event)?;
    let subject = match name {
        "PreToolUse" | "PostToolUse" | "PermissionRequest" => Subject::Tool,
        "SessionStart" => Subject::Field("source"),
        "SessionEnd" => Subject::Field("reason"),
        "PreCompact" | "PostCompact" => Subject::Field("trigger"),
        "SubagentStart" | "SubagentStop" => Subject::Field("agent_type"),
        // UserPromptSubmit, Stop, Interrupt; Pre/PostModelRequest (unknown).
        _ => Subject::None,
    };
    let (default_timeout_s, max_timeout_s) = match name {
        "SessionEnd" | "Interrupt" => (1.0, Some(3.0)),
        _ => (600.0, None),
    };
    let exit2 = match name {
        "PreToolUse" | "PermissionRequest" => Exit2::Deny,
        "PostToolUse" | "UserPromptSubmit" | "Stop" | "SubagentStop" => Exit2::Block,
        _ => Exit2::Failed,
    };
    let plain_text = match name {
        "SessionStart" | "UserPromptSubmit" | "SubagentStart" => PlainText::Context,
        "Stop" | "SubagentStop" | "Interrupt" => PlainText::Failure,
        _ => PlainText::Ignored,
    };
    Some(EventSpec {
        name,
        subject,
        default_timeout_s,
        max_timeout_s,
        exit2,
        plain_text,
    })
}

/// The dialect's native event for a unified kind, when there is one.
pub fn native_for_kind(dialect: Dialect, kind: Kind) -> Option<&'static str> {
    let claude = match kind {
        Kind::SessionStart => "SessionStart",
        Kind::SessionEnd => "SessionEnd",
        Kind::PromptSubmitted => "UserPromptSubmit",
        Kind::ToolPre => "PreToolUse",
        Kind::ToolPost => "PostToolUse",
        Kind::PermissionRequest => "PermissionRequest",
        Kind::AgentStop => "Stop",
        Kind::SubagentStart => "SubagentStart",
        Kind::SubagentStop => "SubagentStop",
        Kind::CompactPre => "PreCompact",
        Kind::CompactPost => "PostCompact",
        Kind::ToolError => match dialect {
            Dialect::ClaudeCode => "PostToolUseFailure",
            // Codex folds tool failures into PostToolUse.
            Dialect::Codex => "PostToolUse",
        },
        _ => match (dialect, kind) {
            (Dialect::ClaudeCode, Kind::Notification) => "Notification",
            (Dialect::ClaudeCode, Kind::FileEdited) => "FileChanged",
            (Dialect::Codex, Kind::ModelRequest) => "PreModelRequest",
            (Dialect::Codex, Kind::ModelResponse) => "PostModelRequest",
            _ => return None,
        },
    };
    Some(claude)
}

/// Codex matcher aliases of a tool name (Codex §1.6): the matcher is tested
/// against the name and each alias.
pub fn codex_tool_aliases(tool_name: &str) -> &'static [&'static str] {
    match tool_name {
        "apply_patch" => &["Write", "Edit"],
        "spawn_agent" => &["Agent"],
        "exec_command" => &["Bash"],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_has_a_spec() {
        for d in [Dialect::ClaudeCode, Dialect::Codex] {
            for e in events(d) {
                assert!(spec(d, e).is_some(), "{d} {e}");
            }
            assert!(spec(d, "NoSuchEvent").is_none());
        }
        assert!(spec(Dialect::Codex, "agent-turn-complete").is_none());
        for k in Kind::ALL {
            for d in [Dialect::ClaudeCode, Dialect::Codex] {
                if let Some(n) = native_for_kind(d, k) {
                    assert!(spec(d, n).is_some(), "{d} {k}");
                }
            }
        }
    }
}
