//! Audit records: an `invoked` / `result` pair per hook run, returned to
//! the caller for logging. Nothing is written anywhere by the library.
//!
//! Stderr in a `result` record is summarized to its first
//! [`STDERR_SUMMARY_CHARS`] characters; stdout is never recorded (it may
//! carry rewritten inputs or secrets the caller can log on purpose from the
//! report). Decision strings: the hook's decision (`allow`, `ask`, `defer`,
//! `deny`, `block`), else `stop` on `continue: false`, else `pass`.

use serde::{Deserialize, Serialize};

use super::config::HookId;
use super::output::{HookOutput, OutputStatus};
use super::runner::RawRun;

/// Characters of stderr kept in a `result` record.
pub const STDERR_SUMMARY_CHARS: usize = 500;

/// One audit record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case")]
pub enum AuditRecord {
    /// A hook was started.
    Invoked {
        /// `<source>:<event>:<group>:<handler>`.
        hook: String,
        /// Native event name.
        event: String,
        /// The command line as configured (after plugin substitution).
        command: String,
        /// Unix time of the start, in milliseconds.
        started_at_ms: u64,
    },
    /// A hook finished (or was killed, or never started).
    Result {
        /// `<source>:<event>:<group>:<handler>`.
        hook: String,
        /// Native event name.
        event: String,
        /// Wall time.
        duration_ms: u64,
        /// Exit code, when the process exited.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exit_code: Option<i32>,
        /// How the agent classifies the run.
        status: OutputStatus,
        /// `allow` / `ask` / `defer` / `deny` / `block` / `stop` / `pass`.
        decision: String,
        /// The first characters of stderr.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        stderr: String,
        /// Captured output was cut at the cap.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        truncated: bool,
    },
}

/// The record pair of one run.
pub fn records(
    id: &HookId,
    command: &str,
    started_at_ms: u64,
    run: &RawRun,
    out: &HookOutput,
) -> [AuditRecord; 2] {
    let hook = id.to_string();
    [
        AuditRecord::Invoked {
            hook: hook.clone(),
            event: id.event.clone(),
            command: command.to_string(),
            started_at_ms,
        },
        AuditRecord::Result {
            hook,
            event: id.event.clone(),
            duration_ms: run.duration_ms,
            exit_code: run.exit_code,
            status: out.status,
            decision: out.decision_str().to_string(),
            stderr: summarize(&run.stderr),
            truncated: run.stdout_truncated || run.stderr_truncated,
        },
    ]
}

/// The first [`STDERR_SUMMARY_CHARS`] characters, trimmed, with `…` when cut.
pub fn summarize(s: &str) -> String {
    let t = s.trim();
    match t.char_indices().nth(STDERR_SUMMARY_CHARS) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_is_bounded() {
        assert_eq!(summarize("  hi \n"), "hi");
        let long = "é".repeat(900);
        assert_eq!(summarize(&long).chars().count(), STDERR_SUMMARY_CHARS + 1);
    }
}
