//! Unified event kinds and their spellings.

use serde::{Deserialize, Serialize};

use crate::error::Error;

/// The unified kind of an event (Claude-shaped taxonomy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Kind {
    /// A session began or resumed.
    #[serde(rename = "session.start")]
    SessionStart,
    /// A session ended.
    #[serde(rename = "session.end")]
    SessionEnd,
    /// The user submitted a prompt.
    #[serde(rename = "prompt.submitted")]
    PromptSubmitted,
    /// A tool is about to run.
    #[serde(rename = "tool.pre")]
    ToolPre,
    /// A tool ran.
    #[serde(rename = "tool.post")]
    ToolPost,
    /// A tool failed.
    #[serde(rename = "tool.error")]
    ToolError,
    /// The agent is about to ask the user for permission.
    #[serde(rename = "permission.request")]
    PermissionRequest,
    /// The main agent finished responding.
    #[serde(rename = "agent.stop")]
    AgentStop,
    /// A subagent started.
    #[serde(rename = "subagent.start")]
    SubagentStart,
    /// A subagent finished.
    #[serde(rename = "subagent.stop")]
    SubagentStop,
    /// Context compaction is about to run.
    #[serde(rename = "compact.pre")]
    CompactPre,
    /// Context compaction ran.
    #[serde(rename = "compact.post")]
    CompactPost,
    /// The agent sent a notification.
    #[serde(rename = "notification")]
    Notification,
    /// A file was edited or changed.
    #[serde(rename = "file.edited")]
    FileEdited,
    /// A model request is about to be sent.
    #[serde(rename = "model.request")]
    ModelRequest,
    /// A model response arrived.
    #[serde(rename = "model.response")]
    ModelResponse,
    /// A native event with no unified mapping.
    #[serde(rename = "other")]
    Other,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 17] = [
        Kind::SessionStart,
        Kind::SessionEnd,
        Kind::PromptSubmitted,
        Kind::ToolPre,
        Kind::ToolPost,
        Kind::ToolError,
        Kind::PermissionRequest,
        Kind::AgentStop,
        Kind::SubagentStart,
        Kind::SubagentStop,
        Kind::CompactPre,
        Kind::CompactPost,
        Kind::Notification,
        Kind::FileEdited,
        Kind::ModelRequest,
        Kind::ModelResponse,
        Kind::Other,
    ];

    /// The canonical dotted spelling (`tool.pre`).
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::SessionStart => "session.start",
            Kind::SessionEnd => "session.end",
            Kind::PromptSubmitted => "prompt.submitted",
            Kind::ToolPre => "tool.pre",
            Kind::ToolPost => "tool.post",
            Kind::ToolError => "tool.error",
            Kind::PermissionRequest => "permission.request",
            Kind::AgentStop => "agent.stop",
            Kind::SubagentStart => "subagent.start",
            Kind::SubagentStop => "subagent.stop",
            Kind::CompactPre => "compact.pre",
            Kind::CompactPost => "compact.post",
            Kind::Notification => "notification",
            Kind::FileEdited => "file.edited",
            Kind::ModelRequest => "model.request",
            Kind::ModelResponse => "model.response",
            Kind::Other => "other",
        }
    }

    /// Parses any spelling a person would type: `tool.pre`, `pre-tool-use`,
    /// `pre_tool_use`, `PreToolUse`, `preToolUse`, `ToolPre` (case-insensitive).
    pub fn parse(s: &str) -> Result<Kind, Error> {
        let norm: String = s
            .chars()
            .filter(|c| !matches!(c, '.' | '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect();
        let k = match norm.as_str() {
            "sessionstart" | "startsession" => Kind::SessionStart,
            "sessionend" | "endsession" => Kind::SessionEnd,
            "promptsubmitted"
            | "promptsubmit"
            | "userpromptsubmit"
            | "userpromptsubmitted"
            | "submitprompt" => Kind::PromptSubmitted,
            "toolpre" | "pretooluse" | "pretool" | "beforetool" => Kind::ToolPre,
            "toolpost" | "posttooluse" | "posttool" | "aftertool" => Kind::ToolPost,
            "toolerror" | "posttoolusefailure" | "toolfailure" => Kind::ToolError,
            "permissionrequest" | "requestpermission" => Kind::PermissionRequest,
            "agentstop" | "stop" | "stopagent" => Kind::AgentStop,
            "subagentstart" | "startsubagent" => Kind::SubagentStart,
            "subagentstop" | "stopsubagent" => Kind::SubagentStop,
            "compactpre" | "precompact" => Kind::CompactPre,
            "compactpost" | "postcompact" => Kind::CompactPost,
            "notification" | "notify" => Kind::Notification,
            "fileedited" | "fileedit" | "afterfileedit" => Kind::FileEdited,
            "modelrequest" | "beforemodel" => Kind::ModelRequest,
            "modelresponse" | "aftermodel" => Kind::ModelResponse,
            "other" => Kind::Other,
            _ => {
                return Err(Error::UnknownEventSpelling {
                    given: s.to_string(),
                });
            }
        };
        Ok(k)
    }

    /// Whether this kind carries a tool call.
    pub fn has_tool(self) -> bool {
        matches!(
            self,
            Kind::ToolPre | Kind::ToolPost | Kind::ToolError | Kind::PermissionRequest
        )
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Kind {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Kind::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_parses() {
        for s in [
            "tool.pre",
            "pre-tool-use",
            "pre_tool_use",
            "PreToolUse",
            "preToolUse",
            "TOOL_PRE",
        ] {
            assert_eq!(Kind::parse(s).unwrap(), Kind::ToolPre, "{s}");
        }
        for k in Kind::ALL {
            assert_eq!(Kind::parse(k.as_str()).unwrap(), k);
        }
        assert_eq!(Kind::parse("PostToolUseFailure").unwrap(), Kind::ToolError);
        assert_eq!(
            Kind::parse("user-prompt-submit").unwrap(),
            Kind::PromptSubmitted
        );
        assert_eq!(
            Kind::parse("launch").unwrap_err().code().as_str(),
            "unknown_event_spelling"
        );
    }
}
