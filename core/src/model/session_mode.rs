//! The session-mode fact (interactive, headless or unknown); derived by
//! `crate::mode`.

use serde::{Deserialize, Serialize};

/// The session mode and the signal that decided it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionMode {
    /// `Some(true)` interactive, `Some(false)` headless, `None` unknown.
    pub interactive: Option<bool>,
    /// Which signal decided (`env:CLAUDE_CODE_SESSION_ATTENDED=0`,
    /// `argv:-p`, `ci:GITHUB_ACTIONS=true`, ...); `None` when unknown.
    pub signal: Option<String>,
}

impl SessionMode {
    /// The unknown mode.
    pub const UNKNOWN: SessionMode = SessionMode {
        interactive: None,
        signal: None,
    };

    /// A known mode with the signal that decided it.
    pub fn known(interactive: bool, signal: String) -> SessionMode {
        SessionMode {
            interactive: Some(interactive),
            signal: Some(signal),
        }
    }

    /// Known headless.
    pub fn is_headless(&self) -> bool {
        self.interactive == Some(false)
    }

    /// Known interactive.
    pub fn is_interactive(&self) -> bool {
        self.interactive == Some(true)
    }

    /// `interactive (argv:...)`, `headless (env:...)` or `unknown`, for notes.
    pub fn describe(&self) -> String {
        match (self.interactive, &self.signal) {
            (Some(true), Some(s)) => format!("interactive ({s})"),
            (Some(false), Some(s)) => format!("headless ({s})"),
            (Some(true), None) => "interactive".into(),
            (Some(false), None) => "headless".into(),
            (None, _) => "unknown".into(),
        }
    }
}
