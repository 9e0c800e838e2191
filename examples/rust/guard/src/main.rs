//! Example hook: one program that guards every agent.
//!
//! Wire it as `<path>/guard agenthooks run --provider=claude-code` (or
//! `codex`, ...). It denies destructive shell commands, asks before
//! force-pushes, rewrites `npm install` to `npm ci`, adds context at session
//! start, and keeps the agent going once if it stops before running tests.

use agenthooks::{AskFallback, Canonical, Decision, Policy, Router};

fn main() {
    let mut r = Router::new().policy(Policy::fail_closed().ask_fallback(AskFallback::Deny));
    r.on_tool_pre(|e| {
        let cmd = e.tool.command();
        if e.tool.canonical != Canonical::Shell {
            return Decision::no_decision();
        }
        if cmd.contains("rm -rf") {
            return Decision::deny(format!("destructive command: {cmd}"))
                .with_block_reason("agenthooks guard blocked a destructive shell command");
        }
        if cmd.contains("git push --force") || cmd.contains("git push -f") {
            return Decision::ask(
                "Force-pushing rewrites shared history; a human must approve it.",
            );
        }
        if cmd.trim() == "npm install" {
            let mut input = e.tool.input.clone();
            input.insert("command".into(), serde_json::Value::String("npm ci".into()));
            return Decision::allow().with_updated_input(input);
        }
        if cmd.starts_with("ls") || cmd.starts_with("pwd") {
            return Decision::allow();
        }
        Decision::no_decision()
    });
    r.on_session_start(|_e| {
        Decision::no_decision().with_context("Project rule: run the test suite before finishing.")
    });
    r.on_stop(|e| {
        let ran_tests = e
            .stop
            .final_message
            .as_deref()
            .is_some_and(|m| m.contains("test"));
        if e.stop.previously_continued || ran_tests {
            Decision::finish()
        } else {
            Decision::continue_with("Run the test suite and report the result before you finish.")
        }
    });
    agenthooks::main(r)
}
