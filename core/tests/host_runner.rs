//! The host runner with real child processes (Unix): process-group kill on
//! timeout, capped capture, parallel runs in configuration order, spawn
//! errors, the exact stdin bytes and the environment.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use agenthooks::host::{
    self, Dialect, HookDecision, HostOptions, HostReport, OutputStatus, Registry,
};
use agenthooks::{DecodeOptions, Event, Provider};
use serde_json::{Value, json};

/// A scratch directory removed when the test ends.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("ah-host-runner-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

fn registry(dialect: Dialect, groups: Value) -> Registry {
    let doc = json!({"hooks": {"PreToolUse": groups}});
    Registry::load(dialect, "test", &doc.to_string()).unwrap()
}

fn hook(command: &str, timeout: Option<u64>) -> Value {
    let mut h = json!({"type": "command", "command": command});
    if let Some(t) = timeout {
        h["timeout"] = json!(t);
    }
    h
}

fn event(provider: Provider, cwd: &Path, command: &str) -> Event {
    let payload = json!({
        "session_id": "sess-1", "cwd": cwd, "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t1"
    });
    let bytes = serde_json::to_vec(&payload).unwrap();
    agenthooks::decode(provider, &bytes, &DecodeOptions::default()).unwrap()
}

fn run(reg: &Registry, ev: &Event) -> HostReport {
    host::run_event(reg, ev, &HostOptions::default()).unwrap()
}

fn read_pid(path: &Path) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Ok(s) = std::fs::read_to_string(path) {
            if let Ok(p) = s.trim().parse() {
                return p;
            }
        }
        assert!(Instant::now() < deadline, "no pid in {}", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Live (non-zombie) processes whose process group is `pgid`.
fn group_members(pgid: i32) -> Vec<i32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp ...; comm may contain spaces.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.len() > 3 && f[0] != "Z" && f[2].parse() == Ok(pgid) {
            out.push(pid);
        }
    }
    out
}

fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, r)| r.trim_start().starts_with('Z'))
        })
        .is_some_and(|zombie| !zombie)
}

#[test]
fn timeout_kills_the_whole_process_group() {
    let dir = scratch("timeout");
    let cmd = format!(
        "echo $$ > {d}/hook.pid; sleep 60 & echo $! > {d}/grandchild.pid; sleep 30; \
         echo '{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"late\"}}}}'",
        d = dir.display()
    );
    let reg = registry(
        Dialect::ClaudeCode,
        json!([{"hooks": [hook(&cmd, Some(1))]}]),
    );
    let t = Instant::now();
    let report = run(&reg, &event(Provider::ClaudeCode, &dir, "ls"));
    let took = t.elapsed();
    assert!(took < Duration::from_secs(4), "took {took:?}");
    let h = &report.hooks[0];
    assert!(h.run.timed_out);
    assert_eq!(h.output.status, OutputStatus::TimedOut);
    assert_eq!(report.outcome.decision, None, "a timed-out hook fails open");
    let (hook_pid, grandchild) = (
        read_pid(&dir.join("hook.pid")),
        read_pid(&dir.join("grandchild.pid")),
    );
    let deadline = Instant::now() + Duration::from_secs(3);
    while (alive(grandchild) || !group_members(hook_pid).is_empty()) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !alive(grandchild),
        "grandchild {grandchild} survived the timeout"
    );
    assert_eq!(
        group_members(hook_pid),
        Vec::<i32>::new(),
        "process group {hook_pid} not empty"
    );
}

#[test]
fn fifty_megabytes_of_output_are_truncated_not_buffered() {
    let dir = scratch("big");
    let cmd = "head -c 52428800 /dev/zero | tr '\\0' 'a'; echo done >&2";
    let reg = registry(Dialect::Codex, json!([{"hooks": [hook(cmd, Some(60))]}]));
    let report = run(&reg, &event(Provider::Codex, &dir, "ls"));
    let h = &report.hooks[0];
    assert_eq!(h.run.exit_code, Some(0));
    assert!(!h.run.timed_out);
    assert!(h.run.stdout_truncated);
    assert_eq!(h.run.stdout.len(), host::DEFAULT_OUTPUT_CAP);
    assert_eq!(h.run.stderr.trim(), "done");
    // Plain text on PreToolUse is ignored by Codex: the truncated rest
    // cannot change that (only a capture that could be JSON is refused).
    assert_eq!(h.output.status, OutputStatus::Success);
    let truncated = report
        .audit
        .iter()
        .any(|r| serde_json::to_value(r).unwrap()["truncated"] == true);
    assert!(truncated, "the audit notes the truncation");
}

#[test]
fn parallel_hooks_keep_configuration_order() {
    let dir = scratch("parallel");
    let ctx = |c: &str| {
        format!(
            "echo '{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\"additionalContext\":\"{c}\"}}}}'"
        )
    };
    let reg = registry(
        Dialect::ClaudeCode,
        json!([
            {"hooks": [hook(&format!("sleep 0.8; {}", ctx("A")), None)]},
            {"matcher": "Bash", "hooks": [hook(&ctx("B"), None), hook(&format!("sleep 0.4; {}", ctx("C")), None)]}
        ]),
    );
    let t = Instant::now();
    let report = run(&reg, &event(Provider::ClaudeCode, &dir, "ls"));
    let took = t.elapsed();
    assert!(
        took < Duration::from_millis(1150),
        "hooks did not run in parallel: {took:?}"
    );
    let order: Vec<(usize, usize)> = report
        .hooks
        .iter()
        .map(|h| (h.id.group_index, h.id.handler_index))
        .collect();
    assert_eq!(order, vec![(0, 0), (1, 0), (1, 1)]);
    assert_eq!(report.outcome.contexts, vec!["A", "B", "C"]);
    let audit: Vec<String> = report
        .audit
        .iter()
        .map(|r| {
            serde_json::to_value(r).unwrap()["record"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        audit,
        [
            "invoked", "result", "invoked", "result", "invoked", "result"
        ]
    );
}

#[test]
fn spawn_errors_are_non_blocking_outputs() {
    let dir = scratch("spawn");
    // Exec form (args present): the program is started directly.
    let doc = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "/nonexistent/agenthooks-no-such-program", "args": []},
        {"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"x\"}'", "timeout": 5}
    ]}]}});
    let reg = Registry::load(Dialect::ClaudeCode, "test", &doc.to_string()).unwrap();
    let report = run(&reg, &event(Provider::ClaudeCode, &dir, "ls"));
    assert_eq!(report.hooks[0].output.status, OutputStatus::SpawnError);
    assert!(report.hooks[0].run.spawn_error.is_some());
    assert_eq!(
        report.outcome.decision,
        Some(HookDecision::Deny),
        "the other hook still counts"
    );
    assert_eq!(report.outcome.errors.len(), 1);

    // A working directory that does not exist: Claude Code runs the hooks
    // from the project dir instead (cwd_missing); Codex fails every hook.
    let opts = HostOptions {
        cwd: Some(dir.join("missing")),
        ..HostOptions::default()
    };
    let report = host::run_event(&reg, &event(Provider::ClaudeCode, &dir, "ls"), &opts).unwrap();
    assert_eq!(report.outcome.decision, Some(HookDecision::Deny));
    assert_eq!(report.diagnostics[0].code.as_str(), "cwd_missing");
    let codex = registry(Dialect::Codex, json!([{"hooks": [hook("true", Some(5))]}]));
    let report = host::run_event(&codex, &event(Provider::Codex, &dir, "ls"), &opts).unwrap();
    assert!(
        report
            .hooks
            .iter()
            .all(|h| h.output.status == OutputStatus::SpawnError)
    );
    assert_eq!(report.outcome.decision, None);

    // Codex: an unknown command in the shell exits 127, a failed run.
    let reg = registry(
        Dialect::Codex,
        json!([{"hooks": [hook("agenthooks-no-such-command-xyz", Some(5))]}]),
    );
    let report = run(&reg, &event(Provider::Codex, &dir, "ls"));
    assert_eq!(report.hooks[0].run.exit_code, Some(127));
    assert_eq!(report.hooks[0].output.status, OutputStatus::Failed);
}

#[test]
fn stdin_bytes_and_environment_per_dialect() {
    let dir = scratch("stdin");
    let cmd = format!(
        "cat > {d}/stdin.$PPID.bin; env > {d}/env.$PPID.txt",
        d = dir.display()
    );
    for (dialect, provider) in [
        (Dialect::ClaudeCode, Provider::ClaudeCode),
        (Dialect::Codex, Provider::Codex),
    ] {
        let _ = std::fs::remove_dir_all(&*dir);
        std::fs::create_dir_all(&*dir).unwrap();
        let reg = registry(dialect, json!([{"hooks": [hook(&cmd, Some(10))]}]));
        let ev = event(provider, &dir, "ls -la");
        let report = run(&reg, &ev);
        assert_eq!(
            report.hooks[0].run.exit_code,
            Some(0),
            "{:?}",
            report.hooks[0].run
        );
        let file = |prefix: &str| {
            std::fs::read_dir(&dir)
                .unwrap()
                .flatten()
                .find(|e| e.file_name().to_string_lossy().starts_with(prefix))
                .map(|e| std::fs::read(e.path()).unwrap())
                .unwrap()
        };
        let stdin = file("stdin.");
        let mut want = ev.raw.clone();
        if dialect == Dialect::ClaudeCode {
            want.push(b'\n');
        }
        assert_eq!(
            stdin, want,
            "{dialect}: raw bytes verbatim, newline iff Claude"
        );
        let env = String::from_utf8(file("env.")).unwrap();
        let has = |kv: &str| env.lines().any(|l| l == kv);
        if dialect == Dialect::ClaudeCode {
            assert!(has("CLAUDECODE=1"));
            assert!(has("CLAUDE_CODE_SESSION_ID=sess-1"));
            // The session root (this process's directory by default), not
            // the payload's cwd.
            let root = std::env::current_dir().unwrap();
            assert!(has(&format!("CLAUDE_PROJECT_DIR={}", root.display())));
        }
        assert!(has(&format!("PWD={}", dir.display())) || env.contains(&dir.display().to_string()));
    }
}

#[test]
fn exit_two_and_unread_stdin_do_not_hang() {
    let dir = scratch("exit2");
    let big = "x".repeat(4 * 1024 * 1024);
    let reg = registry(
        Dialect::Codex,
        json!([{"hooks": [hook("echo 'no rm -rf' >&2; exit 2", Some(10))]}]),
    );
    let t = Instant::now();
    let report = run(&reg, &event(Provider::Codex, &dir, &big));
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(report.outcome.decision, Some(HookDecision::Deny));
    assert_eq!(report.outcome.reason.as_deref(), Some("no rm -rf"));
}

#[test]
fn a_background_process_holding_stdout_per_dialect() {
    // Codex (like `wait_with_output`) is done when the pipes close: a
    // backgrounded child holding stdout keeps the hook running until the
    // deadline, then the group is killed. Claude Code 2.1.328 stops reading
    // 500 ms after the output went quiet and marks the capture.
    let dir = scratch("holder");
    let cmd = "cat >/dev/null; sleep 30 & echo started";
    let reg = registry(Dialect::Codex, json!([{"hooks": [hook(cmd, Some(1))]}]));
    let t = Instant::now();
    let report = run(&reg, &event(Provider::Codex, &dir, "ls"));
    assert!(t.elapsed() < Duration::from_secs(4));
    assert!(report.hooks[0].run.timed_out);
    let pidfile = dir.join("sleeper.pid");
    let cmd = format!(
        "cat >/dev/null; sleep 30 & echo $! > '{}'; echo started",
        pidfile.display()
    );
    let reg = registry(
        Dialect::ClaudeCode,
        json!([{"hooks": [hook(&cmd, Some(20))]}]),
    );
    let t = Instant::now();
    let report = run(&reg, &event(Provider::ClaudeCode, &dir, "ls"));
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    let h = &report.hooks[0];
    assert!(h.run.pipes_held && !h.run.timed_out, "{:?}", h.run);
    assert_eq!(h.run.exit_code, Some(0));
    assert_eq!(h.run.stdout.trim(), "started");
    // Like Claude Code, the host leaves the process alone; the test does not.
    let _ = std::process::Command::new("kill")
        .arg(read_pid(&pidfile).to_string())
        .status();
}
