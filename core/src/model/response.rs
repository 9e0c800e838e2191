//! What goes back to the agent: stdout, stderr, exit code, plus notes.

use serde::{Deserialize, Serialize};

/// A remark about how a decision was encoded (degraded, dropped, capped...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// Stable code: `degraded`, `dropped`, `lossy_update`,
    /// `continuation_capped`, `fail_open`, `fail_closed`, `logged_only`.
    pub code: String,
    /// What was asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// What was encoded instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Human-readable detail (never compared by tests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl Note {
    /// A note with a code and from/to.
    pub fn new(
        code: &str,
        from: Option<&str>,
        to: Option<&str>,
        detail: impl Into<String>,
    ) -> Note {
        let detail = detail.into();
        Note {
            code: code.to_string(),
            from: from.map(str::to_string),
            to: to.map(str::to_string),
            detail: if detail.is_empty() {
                None
            } else {
                Some(detail)
            },
        }
    }
}

/// The agent's answer, exactly.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Response {
    /// Bytes for stdout (may be empty).
    pub stdout: String,
    /// Bytes for stderr (may be empty).
    pub stderr: String,
    /// Process exit code.
    pub exit_code: i32,
    /// What was degraded and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

impl Response {
    /// Exit 0, empty stdout.
    pub fn empty() -> Response {
        Response::default()
    }
    /// Exit 0 with a JSON object on stdout.
    pub fn json(v: &serde_json::Value) -> Response {
        Response {
            stdout: serde_json::to_string(v).unwrap_or_default(),
            ..Response::default()
        }
    }
    /// Renders the response as JSON (for the CLI and bindings).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }
}
