//! The runtime side of the unified matcher: generated configs match broadly
//! where an agent's matcher dialect cannot express the manifest's matcher,
//! and write `--match=<unified matcher>` into argv; the runtime calls
//! [`gate`] right after decoding, and an event the matcher does not admit
//! gets the agent's exact no-op answer without running any handler.

use super::unified::Unified;
use crate::dialect;
use crate::model::{Decision, Event, Policy, Response};

/// Whether the `--match` of argv admits the event. No `--match`, `*`, or a
/// matcher that does not parse (never written by `install`) admit
/// everything: a guard must not be switched off by a typo.
pub fn admits(matcher: Option<&str>, event: &Event) -> bool {
    match matcher.map(Unified::parse) {
        None | Some(Err(_)) => true,
        Some(Ok(u)) => u.matches(event),
    }
}

/// `Err(no-op answer)` when argv's `--match` does not admit the event;
/// the caller writes that answer and stops. Called by the runtime with
/// argv's `--match` as `matcher`.
pub fn gate(matcher: Option<&str>, event: &Event, policy: &Policy) -> Result<(), Response> {
    if admits(matcher, event) {
        return Ok(());
    }
    Err(dialect::respond(event, &Decision::no_decision(), policy).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::{DecodeOptions, decode};
    use crate::model::Provider;

    fn ev(tool: &str, input: &str) -> Event {
        let p = format!(
            r#"{{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"{tool}","tool_input":{input},"tool_use_id":"t"}}"#
        );
        decode(
            Provider::ClaudeCode,
            p.as_bytes(),
            &DecodeOptions::default(),
        )
        .unwrap()
    }

    #[test]
    fn filters_by_class_name_and_mcp() {
        let bash = ev("Bash", r#"{"command":"ls"}"#);
        let edit = ev(
            "Edit",
            r#"{"file_path":"/a","old_string":"x","new_string":"y"}"#,
        );
        let mcp = ev("mcp__github__create_issue", "{}");
        assert!(admits(Some("shell"), &bash));
        assert!(!admits(Some("shell"), &edit));
        assert!(admits(Some("file"), &edit));
        assert!(admits(Some("tool:Edit"), &edit));
        assert!(admits(Some("mcp:github"), &mcp));
        assert!(admits(Some("mcp:github/create_issue"), &mcp));
        assert!(!admits(Some("mcp:gitlab"), &mcp));
        assert!(admits(None, &edit));
        assert!(admits(Some("%%bad%%"), &edit));
    }

    #[test]
    fn gate_answers_the_noop() {
        let edit = ev(
            "Edit",
            r#"{"file_path":"/a","old_string":"x","new_string":"y"}"#,
        );
        let r = gate(Some("shell"), &edit, &Policy::default()).unwrap_err();
        assert_eq!(r.exit_code, 0);
        assert!(!r.stdout.contains("deny"));
    }
}
