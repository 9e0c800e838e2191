//! Attacks on the host side (`agenthooks::host`, the matcher, the child
//! runner shared with `exec` and the install doctor): a host must run the
//! hooks the agent would run, never turn a block into an allow, never run
//! payload text as shell code, and never wait past a deadline.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use agenthooks::host::{self, Dialect, HookDecision, HostOptions, RegistryBuilder};
use agenthooks::{DecodeOptions, Event, Provider};
use serde_json::{Value, json};

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("ah-sec-host-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
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
    let g = gone(pid);
    if !g {
        let _ = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status();
    }
    g
}

const DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;

fn claude_event(cwd: &Path, tool: &str) -> Event {
    let payload = json!({
        "session_id": "sess-1", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": {"command": "ls"}, "tool_use_id": "t1"
    });
    let bytes = serde_json::to_vec(&payload).unwrap();
    agenthooks::decode(Provider::ClaudeCode, &bytes, &DecodeOptions::default()).unwrap()
}

// ------------------------------------------------------------ doctor probe

/// Issue 11 §5: the doctor's probe read until the command's stdout closed,
/// so a background grandchild holding it made `doctor --run` wait for it
/// (and a timed-out probe killed only the shell, not its group).
#[test]
fn doctor_probe_does_not_wait_for_a_grandchild_holding_stdout() {
    let dir = scratch("doctor-gc");
    let pidfile = dir.0.join("gc.pid");
    let cmd = format!(
        "cat >/dev/null; (sleep 20 & echo $! > '{}'); echo '{{}}'",
        pidfile.display()
    );
    let t = Instant::now();
    let (code, _ms, stdout, _stderr) = agenthooks::install::doctor::probe(
        &cmd,
        &json!({"hook_event_name": "PreToolUse"}),
        Duration::from_secs(30),
        &dir.0,
    );
    let took = t.elapsed();
    let killed = wait_gone(read_pid(&pidfile));
    assert!(took < Duration::from_secs(5), "probe took {took:?}");
    assert_eq!(code, Some(0));
    assert_eq!(stdout.trim(), "{}");
    assert!(killed, "the grandchild outlived the probe");
}

#[test]
fn doctor_probe_timeout_kills_the_process_group() {
    let dir = scratch("doctor-timeout");
    let pidfile = dir.0.join("gc.pid");
    let cmd = format!("sleep 20 & echo $! > '{}'; sleep 30", pidfile.display());
    let t = Instant::now();
    let (code, _ms, _stdout, stderr) =
        agenthooks::install::doctor::probe(&cmd, &json!({}), Duration::from_secs(1), &dir.0);
    let took = t.elapsed();
    let killed = wait_gone(read_pid(&pidfile));
    assert!(took < Duration::from_secs(4), "probe took {took:?}");
    assert_eq!(code, None);
    assert!(stderr.contains("no answer within"), "{stderr}");
    assert!(killed, "the grandchild outlived the timed-out probe");
}
