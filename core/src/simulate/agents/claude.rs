//! What Claude Code does with a hook's answer: the host side's reader
//! (`host/decode_claude.rs`, claude-code.md §1.5–1.6, §4) as an effect, plus
//! warnings for answers it ignores or misreads.

use crate::host::events::{self, Exit2, PlainText};
use crate::host::matcher::Dialect;
use crate::model::Provider;
use crate::simulate::{
    Answer, HookInvocation, Prediction, WarningCode as W, from_host, hso, json_object,
};

/// Shell form `sh -c` (claude-code.md §1.1); the variables it sets for
/// every hook (§1.3, e2e) in an interactive session, the mode simulations
/// predict (`-p` sets `CLAUDE_CODE_ENTRYPOINT=sdk-cli` and
/// `CLAUDE_CODE_SESSION_ATTENDED=0`, E2E.md 2026-12-01); 600 s default
/// (UserPromptSubmit 30 s).
pub(crate) static HOOKS: HookInvocation = HookInvocation {
    shell: &["sh", "-c"],
    env: &[
        ("CLAUDE_PROJECT_DIR", "project_dir"),
        ("CLAUDECODE", "=1"),
        ("CLAUDE_CODE_CHILD_SESSION", "=1"),
        ("CLAUDE_CODE_SESSION_ID", "session_id"),
        ("CLAUDE_CODE_ENTRYPOINT", "=cli"),
        ("CLAUDE_CODE_SESSION_ATTENDED", "=1"),
    ],
    default_timeout_ms: 600_000,
    reads_stderr_as_answer: false,
    in_process: false,
};

pub(crate) fn read(event: &str, tool: Option<&str>, a: &Answer) -> Prediction {
    let (mut r, out) = from_host(Provider::ClaudeCode, event, tool, a);
    // Observed (2.1.328): a JSON deny on PreToolUse reaches the model as
    // `PreToolUse:<tool> hook error: <reason>`; an exit-2 block as the bare
    // stderr.
    if event == "PreToolUse"
        && a.exit != Some(2)
        && out.decision == Some(crate::host::output::HookDecision::Deny)
    {
        if let Some(m) = r.model_text().map(str::to_string) {
            r.set_model(format!(
                "PreToolUse:{} hook error: {m}",
                tool.unwrap_or("Bash")
            ));
        }
    }
    let spec = events::spec(Dialect::ClaudeCode, event);
    let t = a.stdout.trim();
    match a.exit {
        Some(0) if !a.timed_out => {
            if !t.is_empty() && !t.starts_with('{') {
                let plain = spec.map_or(PlainText::Ignored, |s| s.plain_text);
                if plain == PlainText::Ignored {
                    r.warn(
                        W::PlainTextStdout,
                        format!("plain text on stdout is ignored on {event} (debug log only)"),
                    );
                } else {
                    r.warn(
                        W::PlainTextStdout,
                        format!("plain text on stdout is added to the model's context on {event}"),
                    );
                }
            } else if t.starts_with('{') && json_object(t).is_none() {
                r.warn(W::InvalidJson, "stdout starts like JSON but does not parse");
            }
        }
        Some(2) => {
            if spec.is_some_and(|s| s.exit2 == Exit2::Notice) {
                r.warn(
                    W::ExitCodeIgnored,
                    format!("exit 2 does not block on {event}: stderr is a user notice"),
                );
            }
        }
        _ => {}
    }
    if let Some(m) = json_object(t) {
        if let Some(g) = hso(&m) {
            let known = crate::host::decode_claude::hso_fields(event);
            if let Some(k) = g
                .keys()
                .find(|k| k.as_str() != "hookEventName" && !known.contains(&k.as_str()))
            {
                r.warn(
                    W::IgnoredField,
                    format!("hookSpecificOutput.{k} is ignored on {event}"),
                );
            }
        }
    }
    r.done()
}
