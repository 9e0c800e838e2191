//! Runs the built guard hook as an agent would: argv contract, payload on
//! stdin, the agent's exact answer on stdout.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const GUARD: &str = env!("CARGO_BIN_EXE_guard");

fn payload(command: &str) -> String {
    serde_json::json!({
        "session_id": "s-guard",
        "turn_id": "t-guard",
        "cwd": "/srv/app",
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "call_guard"
    })
    .to_string()
}

fn run(args: &[&str], stdin: &str) -> Output {
    let dir = std::env::temp_dir().join(format!("guard-test-{}", std::process::id()));
    let mut child = Command::new(GUARD)
        .args(args)
        .env("AGENTHOOKS_STATE_DIR", &dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("guard starts");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("guard finishes");
    let _ = writer.join();
    out
}

fn hook(provider: &str, command: &str) -> Output {
    let arg = format!("--provider={provider}");
    run(&["agenthooks", "run", &arg], &payload(command))
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn answer(o: &Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {:?}; stderr: {}",
            stdout(o),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

#[test]
fn destructive_command_is_denied_on_claude_and_codex() {
    for provider in ["claude-code", "codex"] {
        let o = hook(provider, "rm -rf /srv/app/data");
        assert_eq!(o.status.code(), Some(0), "{provider}");
        let v = answer(&o);
        let hso = &v["hookSpecificOutput"];
        assert_eq!(hso["hookEventName"], "PreToolUse", "{provider}");
        assert_eq!(hso["permissionDecision"], "deny", "{provider}");
        let reason = hso["permissionDecisionReason"].as_str().unwrap_or_default();
        assert!(
            reason.contains("destructive command"),
            "{provider}: {reason}"
        );
    }
}

#[test]
fn ls_is_allowed_on_claude_and_neutral_on_codex() {
    let o = hook("claude-code", "ls -la");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        answer(&o)["hookSpecificOutput"]["permissionDecision"],
        "allow"
    );

    // Codex rejects a bare allow, so it degrades to the no-op: empty stdout.
    let o = hook("codex", "ls -la");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
}

#[test]
fn without_the_agenthooks_word_it_exits_64() {
    let o = run(&["run", "--provider=codex"], &payload("ls"));
    assert_eq!(o.status.code(), Some(64));
    assert_eq!(stdout(&o), "");
    assert!(String::from_utf8_lossy(&o.stderr).contains("agenthooks run"));
}
