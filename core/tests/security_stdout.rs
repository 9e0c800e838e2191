//! Security suite: the agent's stdout never leaks into a handler's
//! children.
//!
//! `runtime::main` keeps the real stdout aside while handlers run (stray
//! prints go to stderr). The saved descriptor must be close-on-exec: a
//! child the handler starts (a linter, `git`, a daemon) would otherwise
//! inherit the agent's stdout, could write a verdict into it, and — left
//! running — keeps the pipe open so the agent waits for it.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agenthooks::{Decision, Router};

/// Child mode: a hook whose handler starts a long-lived process.
#[test]
fn child() {
    if std::env::var_os("AH_STDOUT_CHILD").is_none() {
        return;
    }
    let mut r = Router::new();
    r.on_tool_pre(|_e| {
        // Detached from our stdout and stderr as a careful author would.
        let _ = Command::new("sleep")
            .arg("5")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        Decision::deny("no")
    });
    let argv: Vec<String> = ["guard", "agenthooks", "run", "--provider=claude-code"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    std::process::exit(agenthooks::process::run_process(r, &argv));
}

#[test]
fn a_handlers_child_does_not_inherit_the_agents_stdout() {
    if std::env::var_os("AH_STDOUT_CHILD").is_some() {
        return;
    }
    let mut c = Command::new(std::env::current_exe().unwrap())
        .args(["child", "--exact", "--test-threads=1", "-q"])
        .env("AH_STDOUT_CHILD", "1")
        .env(
            "AGENTHOOKS_STATE_DIR",
            std::env::temp_dir().join(format!("ah-sec-stdout-{}", std::process::id())),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = c.stdin.take().unwrap();
        stdin
            .write_all(br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}"#)
            .unwrap();
    }
    // Read stdout to EOF, as an agent does: it must close when the hook
    // exits, not when the handler's `sleep 5` does.
    let start = Instant::now();
    let mut out = String::new();
    c.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    let waited = start.elapsed();
    let _ = c.wait();
    assert!(out.contains("\"deny\""), "{out}");
    assert!(
        waited < Duration::from_secs(3),
        "the agent's stdout stayed open for {waited:?}: a handler's child inherited it"
    );
}
