//! Attacks on `agenthooks exec` (the universal adapter that runs an author's
//! command): a command must never hold the agent past the deadline, whatever
//! its descendants keep open, and never leave them running.
#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_agenthooks");

const CLAUDE_PRE: &str = r#"{"session_id":"5f0c2b7e","transcript_path":"/tmp/t.jsonl","cwd":"/srv/shop","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /tmp/x","description":"clean"},"tool_use_id":"toolu_01"}"#;

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("ah-sec-exec-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

/// What the agent sees: stdout, stderr and the exit code, and how long until
/// both of its pipes closed (an agent waits for that, not only for the exit).
struct Seen {
    stdout: String,
    stderr: String,
    code: Option<i32>,
    took: Duration,
}

/// Runs the binary as an agent would, with a 60 s safety net so a failing
/// test reports instead of hanging.
fn agent_runs(args: &[&str], stdin: &[u8]) -> Seen {
    let start = Instant::now();
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agenthooks starts");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    let tx2 = tx.clone();
    std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        let _ = tx.send((true, s));
    });
    std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        let _ = tx2.send((false, s));
    });
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    for _ in 0..2 {
        match rx.recv_timeout(Duration::from_secs(60).saturating_sub(start.elapsed())) {
            Ok((true, s)) => stdout = s,
            Ok((false, s)) => stderr = s,
            Err(_) => break,
        }
    }
    let took = start.elapsed();
    let _ = child.kill();
    let code = child.wait().ok().and_then(|s| s.code());
    Seen {
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        code,
        took,
    }
}

fn read_pid(path: &Path) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(p) = std::fs::read_to_string(path)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            return p;
        }
        assert!(Instant::now() < deadline, "no pid in {}", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Absent or a zombie.
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

fn wait_gone(pid: u32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(3);
    while !gone(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    gone(pid)
}

fn kill(pid: u32) {
    let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
}

/// Issue 11 §5: the command answers and exits, but a background grandchild
/// keeps its stdout and stderr open for 20 s. The answer must come at once,
/// the agent's pipes must close, and the grandchild must be killed.
#[test]
fn grandchild_holding_the_pipes_does_not_hold_the_agent() {
    let dir = scratch("grandchild");
    let pidfile = dir.0.join("gc.pid");
    let script = format!(
        r#"cat >/dev/null; (sleep 20 & echo $! > '{}'); echo '{{"kind":"allow"}}'"#,
        pidfile.display()
    );
    let seen = agent_runs(
        &[
            "exec",
            "--provider",
            "claude-code",
            "--timeout",
            "3",
            "--fail",
            "closed",
            "--",
            "sh",
            "-c",
            &script,
        ],
        CLAUDE_PRE.as_bytes(),
    );
    let gc = read_pid(&pidfile);
    let killed = wait_gone(gc);
    if !killed {
        kill(gc);
    }
    assert!(
        seen.took < Duration::from_secs(3),
        "the agent waited {:?} (deadline 3 s); stderr: {}",
        seen.took,
        seen.stderr
    );
    assert_eq!(seen.code, Some(0), "stderr: {}", seen.stderr);
    let v: Value = serde_json::from_str(seen.stdout.trim()).expect("stdout is JSON");
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"], "allow",
        "the command's answer is used"
    );
    assert!(killed, "grandchild {gc} outlived the command");
}

/// A grandchild that left the process group (`setsid`) cannot be killed
/// with it, and still holds stdout: the answer must still come at once.
#[test]
fn grandchild_outside_the_group_does_not_hold_the_agent() {
    let dir = scratch("setsid");
    let pidfile = dir.0.join("gc.pid");
    let script = format!(
        r#"cat >/dev/null; setsid sh -c 'echo $$ > "$1"; exec sleep 20' sh '{}' & sleep 0.2; echo '{{"kind":"deny","reason":"stop"}}'"#,
        pidfile.display()
    );
    let seen = agent_runs(
        &[
            "exec",
            "--provider",
            "claude-code",
            "--timeout",
            "3",
            "--",
            "sh",
            "-c",
            &script,
        ],
        CLAUDE_PRE.as_bytes(),
    );
    let gc = read_pid(&pidfile);
    kill(gc);
    assert!(
        seen.took < Duration::from_secs(3),
        "the agent waited {:?} (deadline 3 s); stderr: {}",
        seen.took,
        seen.stderr
    );
    let v: Value = serde_json::from_str(seen.stdout.trim()).expect("stdout is JSON");
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
}

/// A payload larger than a pipe buffer, a command that never reads it, and
/// a grandchild that keeps stdin open without reading: the writer must not
/// block the answer.
#[test]
fn unread_large_payload_does_not_block_the_answer() {
    let big = "x".repeat(512 * 1024);
    let payload = json!({
        "session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": "/srv/shop",
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": "/tmp/a", "content": big},
        "tool_use_id": "toolu_02"
    });
    let seen = agent_runs(
        &[
            "exec",
            "--provider",
            "claude-code",
            "--timeout",
            "3",
            "--",
            "sh",
            "-c",
            r#"(sleep 20 &) ; echo '{"kind":"deny","reason":"big"}'"#,
        ],
        payload.to_string().as_bytes(),
    );
    assert!(
        seen.took < Duration::from_secs(3),
        "the agent waited {:?}; stderr: {}",
        seen.took,
        seen.stderr
    );
    let v: Value = serde_json::from_str(seen.stdout.trim()).expect("stdout is JSON");
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
}

/// A command that never exits and whose grandchild escaped the group and
/// holds the pipes: the deadline still holds, and the fail policy answers.
#[test]
fn deadline_holds_with_an_escaped_grandchild() {
    let dir = scratch("escaped-timeout");
    let pidfile = dir.0.join("gc.pid");
    let script = format!(
        r#"setsid sh -c 'echo $$ > "$1"; exec sleep 20' sh '{}' & exec sleep 30"#,
        pidfile.display()
    );
    let seen = agent_runs(
        &[
            "exec",
            "--provider",
            "claude-code",
            "--timeout",
            "1",
            "--fail",
            "closed",
            "--",
            "sh",
            "-c",
            &script,
        ],
        CLAUDE_PRE.as_bytes(),
    );
    let gc = read_pid(&pidfile);
    kill(gc);
    assert!(
        seen.took < Duration::from_secs(3),
        "the agent waited {:?} (deadline 1 s); stderr: {}",
        seen.took,
        seen.stderr
    );
    assert!(seen.stderr.contains("handler_timeout"), "{}", seen.stderr);
    let v: Value = serde_json::from_str(seen.stdout.trim()).expect("stdout is JSON");
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
}

/// An answer larger than the output bound is a handler error for the fail
/// policy, never a truncated text that reads as "no decision".
#[test]
fn oversized_answer_fails_by_policy() {
    let seen = agent_runs(
        &[
            "exec",
            "--provider",
            "claude-code",
            "--timeout",
            "20",
            "--fail",
            "closed",
            "--",
            "sh",
            "-c",
            // 17 MB of blanks, then an answer; exit 0 whatever happened.
            "trap '' PIPE; cat >/dev/null; head -c 17000000 /dev/zero | tr '\\0' ' '; \
             echo '{\"kind\":\"allow\"}'; exit 0",
        ],
        CLAUDE_PRE.as_bytes(),
    );
    assert!(seen.took < Duration::from_secs(20), "took {:?}", seen.took);
    let v: Value = serde_json::from_str(seen.stdout.trim()).expect("stdout is JSON");
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"], "deny",
        "stderr: {}",
        seen.stderr
    );
}

/// Output without end is bounded: the adapter neither runs out of memory
/// nor waits past the deadline.
#[test]
fn endless_output_is_bounded() {
    let seen = agent_runs(
        &[
            "exec",
            "--provider",
            "claude-code",
            "--timeout",
            "2",
            "--fail",
            "closed",
            "--",
            "sh",
            "-c",
            "trap '' PIPE; cat >/dev/null; while :; do echo '                                '; done",
        ],
        CLAUDE_PRE.as_bytes(),
    );
    assert!(seen.took < Duration::from_secs(4), "took {:?}", seen.took);
    let v: Value = serde_json::from_str(seen.stdout.trim()).expect("stdout is JSON");
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
}
