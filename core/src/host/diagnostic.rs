//! Configuration diagnostics: data, not log lines.
//!
//! Every problem found while loading a hook configuration, compiling a
//! matcher or selecting hooks is one [`Diagnostic`] with a stable snake_case
//! [`DiagCode`]. An error means an entry was skipped, exactly as the agent
//! skips it (see the loader's table); a warning means it loaded (possibly
//! with a caveat). Both are kept on the registry for the caller to show;
//! only a strict builder refuses a configuration with errors.

use serde::{Deserialize, Serialize};

use crate::host::hosted::Dialect;

/// Stable machine id of a configuration diagnostic. Ids are never reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DiagCode {
    /// The configuration text is not JSON (error).
    InvalidJson,
    /// A field has the wrong JSON type (error).
    WrongType,
    /// A required field is absent: a group's `hooks`, a handler's `type`,
    /// a plugin file's top-level `hooks` (error).
    MissingField,
    /// A command handler has no command (error; blank commands are a
    /// warning on Codex, which skips them).
    MissingCommand,
    /// A handler `type` neither agent knows (error).
    UnknownHandlerType,
    /// A handler type the agent knows but this host does not run
    /// (`http`, `mcp_tool`, `prompt`, `agent`): skipped (warning).
    UnsupportedHandlerType,
    /// A `timeout` that is not a positive number of seconds (error).
    InvalidTimeout,
    /// A matcher that does not compile in the dialect's regex flavour
    /// (error: its group is skipped, as the agents do).
    InvalidRegex,
    /// ECMAScript flags that JavaScript would reject (error).
    InvalidFlags,
    /// A pattern the backtracking engine is never given and that has no
    /// linear-time twin: its hooks run for every subject (warning).
    RegexTooComplex,
    /// The process-wide matcher interner is full: the pattern is compiled
    /// for its matcher only (warning).
    MatcherCapacity,
    /// An event name the agent does not have: ignored (warning).
    UnknownEvent,
    /// A key the agent ignores (warning).
    UnknownKey,
    /// A matcher on an event without a matcher subject: discarded (warning).
    MatcherIgnored,
    /// `disableAllHooks: true`: no hook of this registry runs (warning).
    HooksDisabled,
    /// A Claude `if` rule this host cannot parse: the handler runs (fails
    /// open, as Claude Code does) (warning).
    InvalidIf,
    /// A matcher could not be evaluated on this subject exactly as the
    /// agent would; the hook ran (warning, reported per event).
    MatcherUndecided,
    /// Claude Code: the working directory does not exist; the hooks ran
    /// from the project dir (or this process's directory, or `$HOME`), as
    /// Claude Code does (warning, reported per event).
    CwdMissing,
}

impl DiagCode {
    /// Every code, in declaration order.
    pub const ALL: [DiagCode; 18] = [
        DiagCode::InvalidJson,
        DiagCode::WrongType,
        DiagCode::MissingField,
        DiagCode::MissingCommand,
        DiagCode::UnknownHandlerType,
        DiagCode::UnsupportedHandlerType,
        DiagCode::InvalidTimeout,
        DiagCode::InvalidRegex,
        DiagCode::InvalidFlags,
        DiagCode::RegexTooComplex,
        DiagCode::MatcherCapacity,
        DiagCode::UnknownEvent,
        DiagCode::UnknownKey,
        DiagCode::MatcherIgnored,
        DiagCode::HooksDisabled,
        DiagCode::InvalidIf,
        DiagCode::MatcherUndecided,
        DiagCode::CwdMissing,
    ];

    /// The snake_case id.
    pub fn as_str(self) -> &'static str {
        match self {
            DiagCode::InvalidJson => "invalid_json",
            DiagCode::WrongType => "wrong_type",
            DiagCode::MissingField => "missing_field",
            DiagCode::MissingCommand => "missing_command",
            DiagCode::UnknownHandlerType => "unknown_handler_type",
            DiagCode::UnsupportedHandlerType => "unsupported_handler_type",
            DiagCode::InvalidTimeout => "invalid_timeout",
            DiagCode::InvalidRegex => "invalid_regex",
            DiagCode::InvalidFlags => "invalid_flags",
            DiagCode::RegexTooComplex => "regex_too_complex",
            DiagCode::MatcherCapacity => "matcher_capacity",
            DiagCode::UnknownEvent => "unknown_event",
            DiagCode::UnknownKey => "unknown_key",
            DiagCode::MatcherIgnored => "matcher_ignored",
            DiagCode::HooksDisabled => "hooks_disabled",
            DiagCode::InvalidIf => "invalid_if",
            DiagCode::MatcherUndecided => "matcher_undecided",
            DiagCode::CwdMissing => "cwd_missing",
        }
    }

    /// Whether a diagnostic with this code means an entry was skipped.
    pub fn severity(self) -> Severity {
        match self {
            DiagCode::UnsupportedHandlerType
            | DiagCode::UnknownEvent
            | DiagCode::UnknownKey
            | DiagCode::MatcherIgnored
            | DiagCode::HooksDisabled
            | DiagCode::InvalidIf
            | DiagCode::RegexTooComplex
            | DiagCode::MatcherCapacity
            | DiagCode::MatcherUndecided
            | DiagCode::CwdMissing => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

impl std::fmt::Display for DiagCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a diagnostic means an entry was skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The entry (and what the agent skips with it) does not run.
    Error,
    /// Informational; the entry loads.
    Warning,
}

/// One configuration or matcher problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The dialect whose rules were applied.
    pub agent: Dialect,
    /// The source the entry came from (file path or caller-given name);
    /// empty for a bare matcher compile.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// The native event name; empty for file-level problems.
    #[serde(default)]
    pub event: String,
    /// Index of the matcher group within the event's array.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_index: Option<u32>,
    /// Index of the handler within the group's `hooks` array.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handler_index: Option<u32>,
    /// The matcher pattern concerned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// Stable machine id.
    pub code: DiagCode,
    /// Error or warning (derived from the code).
    pub severity: Severity,
    /// Human-readable explanation (not part of any contract).
    pub reason: String,
}

impl Diagnostic {
    /// A diagnostic with no location.
    pub fn new(agent: Dialect, code: DiagCode, reason: impl Into<String>) -> Diagnostic {
        Diagnostic {
            agent,
            source: String::new(),
            event: String::new(),
            group_index: None,
            handler_index: None,
            pattern: None,
            code,
            severity: code.severity(),
            reason: reason.into(),
        }
    }

    /// Sets the pattern.
    pub fn with_pattern(mut self, pattern: impl Into<String>) -> Diagnostic {
        self.pattern = Some(pattern.into());
        self
    }

    /// True for errors (an entry was skipped).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.agent.id(), self.code)?;
        if !self.source.is_empty() {
            write!(f, " in {}", self.source)?;
        }
        if !self.event.is_empty() {
            write!(f, " at {}", self.event)?;
        }
        if let Some(g) = self.group_index {
            write!(f, "[{g}]")?;
        }
        if let Some(h) = self.handler_index {
            write!(f, ".hooks[{h}]")?;
        }
        if let Some(p) = &self.pattern {
            write!(f, " (pattern {p:?})")?;
        }
        write!(f, ": {}", self.reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for c in DiagCode::ALL {
            assert!(seen.insert(c.as_str()));
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(json, format!("\"{}\"", c.as_str()));
        }
    }
}
