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

// ------------------------------------------------------- shell injection

fn registry(dialect: Dialect, doc: Value) -> host::Registry {
    let mut b = RegistryBuilder::new(dialect);
    b.add_settings("test", &doc);
    b.build().expect("configuration loads")
}

fn write_hook(dir: &Path, deny_reason: &str) {
    let script = dir.join("hook.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '{}'\n",
            DENY.replace("\"no\"", &format!("\"{deny_reason}\""))
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Issue 21 §2: a `cwd` the agent `cd`-ed into, named `x$(touch PWNED)`,
/// was the default CLAUDE_PROJECT_DIR and was pasted into `sh -c`: PWNED
/// was created and the blocking hook never ran. The project dir is the
/// session root (here: explicit) and reaches the shell as a variable.
#[test]
fn project_dir_with_shell_syntax_is_not_shell_code() {
    let dir = scratch("inject-project");
    let evil = dir.0.join("x$(touch PWNED)");
    std::fs::create_dir_all(&evil).unwrap();
    write_hook(&evil, "project hook");
    let reg = registry(
        Dialect::ClaudeCode,
        json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "\"${CLAUDE_PROJECT_DIR}\"/hook.sh", "timeout": 10}
        ]}]}}),
    );
    let opts = HostOptions {
        project_dir: Some(evil.clone()),
        ..HostOptions::default()
    };
    let report = host::run_event(&reg, &claude_event(&evil, "Bash"), &opts).unwrap();
    assert!(
        !evil.join("PWNED").exists(),
        "the project path ran as shell code"
    );
    assert!(
        !dir.0.join("PWNED").exists(),
        "the project path ran as shell code"
    );
    assert_eq!(
        report.outcome.decision,
        Some(HookDecision::Deny),
        "{:?}",
        report.hooks[0].run
    );
}

/// The payload's `cwd` is not the project dir: it follows the agent's `cd`
/// (into a directory the model may have named). With no explicit project
/// dir, CLAUDE_PROJECT_DIR is this process's directory, never the payload's.
#[test]
fn payload_cwd_is_not_the_project_dir() {
    let dir = scratch("inject-cwd");
    let evil = dir.0.join("x$(touch PWNED)");
    std::fs::create_dir_all(&evil).unwrap();
    let reg = registry(
        Dialect::ClaudeCode,
        json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "cat >/dev/null; cd \"${CLAUDE_PROJECT_DIR}\" && printf '%s' \"$PWD\" >&2", "timeout": 10}
        ]}]}}),
    );
    let report =
        host::run_event(&reg, &claude_event(&evil, "Bash"), &HostOptions::default()).unwrap();
    assert!(
        !evil.join("PWNED").exists(),
        "the payload cwd ran as shell code"
    );
    let here = std::env::current_dir().unwrap();
    assert_eq!(
        Path::new(report.hooks[0].run.stderr.trim()),
        here,
        "CLAUDE_PROJECT_DIR followed the payload cwd"
    );
}

/// Exec form (`args`): Claude substitutes `${CLAUDE_PROJECT_DIR}` as plain
/// text; no shell reads it.
#[test]
fn exec_form_substitutes_the_project_dir_as_one_argument() {
    let dir = scratch("inject-exec");
    let evil = dir.0.join("a b;$(touch PWNED)");
    std::fs::create_dir_all(&evil).unwrap();
    let reg = registry(
        Dialect::ClaudeCode,
        json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "printf", "args": ["%s", "${CLAUDE_PROJECT_DIR}"], "timeout": 10}
        ]}]}}),
    );
    let opts = HostOptions {
        project_dir: Some(evil.clone()),
        ..HostOptions::default()
    };
    let report = host::run_event(&reg, &claude_event(&dir.0, "Bash"), &opts).unwrap();
    assert!(!evil.join("PWNED").exists() && !dir.0.join("PWNED").exists());
    assert_eq!(report.hooks[0].run.stdout, evil.to_string_lossy());
}

/// A plugin root with shell syntax in a shell-form plugin hook: Claude
/// exports CLAUDE_PLUGIN_ROOT and lets the shell expand it; the host used
/// to paste the path into the command.
#[test]
fn plugin_root_with_shell_syntax_is_not_shell_code() {
    let dir = scratch("inject-plugin");
    let root = dir.0.join("plug$(touch PWNED)");
    std::fs::create_dir_all(&root).unwrap();
    write_hook(&root, "plugin hook");
    let mut b = RegistryBuilder::new(Dialect::ClaudeCode);
    b.add_plugin(
        "plugin",
        root.clone(),
        None,
        &json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/hook.sh", "timeout": 10}
        ]}]}}),
    );
    let reg = b.build().unwrap();
    let report =
        host::run_event(&reg, &claude_event(&dir.0, "Bash"), &HostOptions::default()).unwrap();
    assert!(!root.join("PWNED").exists() && !dir.0.join("PWNED").exists());
    assert_eq!(report.outcome.decision, Some(HookDecision::Deny));
}

/// A payload `cwd` that does not exist (Codex fails the hook): the spawn
/// error names the directory instead of blaming the shell.
#[test]
fn missing_cwd_is_named() {
    let dir = scratch("missing-cwd");
    let gone = dir.0.join("no-such-dir");
    let reg = registry(
        Dialect::Codex,
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}),
    );
    let report = host::run_event(&reg, &codex_event(&gone), &HostOptions::default()).unwrap();
    let err = report.hooks[0].run.spawn_error.clone().unwrap_or_default();
    assert!(
        err.contains("no-such-dir") && !err.contains("cannot start"),
        "{err}"
    );
}

// ---------------------------------------------------------------- matchers

fn deny_hook(reason: &str) -> Value {
    json!({"type": "command", "command": format!(
        "cat >/dev/null; printf '%s\\n' '{}'", DENY.replace("\"no\"", &format!("\"{reason}\""))),
        "timeout": 10})
}

/// Issue 11 §6: `mcp__.*__.*delete.*` has a subject bound of about 80
/// bytes for the backtracking engine; a 100-byte MCP tool name silently
/// ran no hook, where Claude Code runs the deny hook.
#[test]
fn long_mcp_tool_name_still_runs_the_deny_hook() {
    let dir = scratch("long-mcp");
    let reg = registry(
        Dialect::ClaudeCode,
        json!({"hooks": {"PreToolUse": [{"matcher": "mcp__.*__.*delete.*", "hooks": [deny_hook("mcp delete")]}]}}),
    );
    let tool = format!("mcp__{}__delete_{}", "s".repeat(40), "x".repeat(46));
    assert_eq!(tool.len(), 100);
    let report =
        host::run_event(&reg, &claude_event(&dir.0, &tool), &HostOptions::default()).unwrap();
    assert_eq!(report.hooks.len(), 1, "the deny hook was skipped");
    assert_eq!(report.outcome.decision, Some(HookDecision::Deny));
    assert!(
        report.diagnostics.is_empty(),
        "decided exactly: {:?}",
        report.diagnostics
    );
    // And a long name that does not match is still decided (no hook).
    let other = format!("mcp__{}__create_{}", "s".repeat(40), "x".repeat(46));
    let report =
        host::run_event(&reg, &claude_event(&dir.0, &other), &HostOptions::default()).unwrap();
    assert!(report.hooks.is_empty());
}

/// A pattern with no linear twin (lookbehind) on a subject past its bound
/// cannot be decided safely: the hook runs and a diagnostic says so.
#[test]
fn undecidable_matcher_runs_the_hook_and_says_so() {
    let dir = scratch("undecided");
    let pattern = "(?<=mcp__).*__.*delete.*";
    let reg = registry(
        Dialect::ClaudeCode,
        json!({"hooks": {"PreToolUse": [{"matcher": pattern, "hooks": [deny_hook("lookbehind")]}]}}),
    );
    let tool = format!("mcp__{}__delete_{}", "s".repeat(200), "x".repeat(200));
    let report =
        host::run_event(&reg, &claude_event(&dir.0, &tool), &HostOptions::default()).unwrap();
    assert_eq!(report.outcome.decision, Some(HookDecision::Deny));
    assert_eq!(report.diagnostics.len(), 1, "{:?}", report.diagnostics);
    assert_eq!(report.diagnostics[0].code.as_str(), "matcher_undecided");
    assert_eq!(report.diagnostics[0].pattern.as_deref(), Some(pattern));
}

/// ReDoS: exponential patterns on long adversarial subjects are decided
/// exactly (JS says no match) in linear time, not by backtracking.
#[test]
fn catastrophic_patterns_are_decided_in_linear_time() {
    let dir = scratch("redos");
    for pattern in ["^(\\w+\\s?)*$", "(a+)+$", "^(a|aa)+$", "(.*a){20}"] {
        let reg = registry(
            Dialect::ClaudeCode,
            json!({"hooks": {"PreToolUse": [{"matcher": pattern, "hooks": [deny_hook("redos")]}]}}),
        );
        let tool = format!("{}!", "a".repeat(5000));
        let t = Instant::now();
        let plan = host::plan(&reg, &claude_event(&dir.0, &tool), &HostOptions::default()).unwrap();
        let took = t.elapsed();
        assert!(took < Duration::from_secs(2), "{pattern}: {took:?}");
        let want = pattern == "(.*a){20}";
        assert_eq!(!plan.hooks.is_empty(), want, "{pattern}");
        assert!(
            plan.diagnostics.is_empty(),
            "{pattern}: {:?}",
            plan.diagnostics
        );
    }
}

// ------------------------------------------------------ oversized output

/// Issue 11 §6: a deny answer longer than the capture cap (here: after
/// 100 kB of blanks) was truncated, read as empty and so as "no decision"
/// (the tool ran). Both agents read the whole output, trim it and deny
/// (observed up to 60 MB).
#[test]
fn oversized_deny_is_not_an_allow() {
    let dir = scratch("oversized");
    for dialect in [Dialect::ClaudeCode, Dialect::Codex] {
        let cmd = format!(
            "cat >/dev/null; head -c 100000 /dev/zero | tr '\\0' ' '; printf '%s\\n' '{DENY}'"
        );
        let reg = registry(
            dialect,
            json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": cmd, "timeout": 10}]}]}}),
        );
        let opts = HostOptions {
            output_cap: 4096,
            ..HostOptions::default()
        };
        let ev = match dialect {
            Dialect::ClaudeCode => claude_event(&dir.0, "Bash"),
            Dialect::Codex => codex_event(&dir.0),
        };
        let report = host::run_event(&reg, &ev, &opts).unwrap();
        assert!(report.hooks[0].run.stdout_truncated);
        assert_eq!(
            report.outcome.decision,
            Some(HookDecision::Deny),
            "{dialect}: {:?}",
            report.hooks[0].output
        );
    }
}

fn codex_event(cwd: &Path) -> Event {
    let payload = json!({
        "session_id": "s", "turn_id": "t", "transcript_path": null, "cwd": cwd,
        "hook_event_name": "PreToolUse", "model": "m", "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "c1"
    });
    let bytes = serde_json::to_vec(&payload).unwrap();
    agenthooks::decode(Provider::Codex, &bytes, &DecodeOptions::default()).unwrap()
}

// -------------------------------------------------- one bad entry, not all

/// Issue 11 §6: one bad entry in another configuration (`"timeout":
/// "ten"`, an invalid regex on another event) rejected every hook,
/// including the user's deny hook. The agents skip only what they skip
/// (observed: a Claude event of that source, a Codex source).
#[test]
fn a_bad_entry_elsewhere_does_not_disable_the_deny_hook() {
    let dir = scratch("bad-entry");
    for dialect in [Dialect::ClaudeCode, Dialect::Codex] {
        let mut b = RegistryBuilder::new(dialect);
        b.add_settings(
            "user",
            &json!({"hooks": {"PreToolUse": [{"hooks": [deny_hook("user deny")]}]}}),
        );
        b.add_settings(
            "project",
            &json!({"hooks": {
                "PreToolUse": [{"hooks": [{"type": "command", "command": "true", "timeout": "ten"}]}],
                "PostToolUse": [{"matcher": "Write(", "hooks": [{"type": "command", "command": "true"}]}]
            }}),
        );
        b.add_text("broken", "{ not json");
        let reg = b.build().expect("the good configuration still loads");
        let codes: Vec<&str> = reg.warnings().iter().map(|d| d.code.as_str()).collect();
        assert!(codes.contains(&"wrong_type"), "{dialect}: {codes:?}");
        assert!(codes.contains(&"invalid_json"), "{dialect}: {codes:?}");
        let ev = match dialect {
            Dialect::ClaudeCode => claude_event(&dir.0, "Bash"),
            Dialect::Codex => codex_event(&dir.0),
        };
        let report = host::run_event(&reg, &ev, &HostOptions::default()).unwrap();
        assert_eq!(report.hooks.len(), 1, "{dialect}");
        assert_eq!(
            report.outcome.decision,
            Some(HookDecision::Deny),
            "{dialect}"
        );
    }
}

// --------------------------------------------- descendants holding pipes

/// A hook that answers and exits, leaving a background process holding
/// its stdout: Claude Code reads on for a 500 ms quiet window, then honours
/// a deny at once (and refuses an allow: a block). The host waited for
/// end of file (20 s).
#[test]
fn claude_hook_leaving_a_process_on_stdout_answers_at_once() {
    let dir = scratch("held-claude");
    let allow = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"rm -rf /"}}}"#;
    for (i, (answer, want)) in [(DENY, "no"), (allow, "refusing")].into_iter().enumerate() {
        let pidfile = dir.0.join(format!("sleeper{i}.pid"));
        let cmd = format!(
            "cat >/dev/null; printf '%s\\n' '{answer}'; (sleep 20 & echo $! > '{}')",
            pidfile.display()
        );
        let reg = registry(
            Dialect::ClaudeCode,
            json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": cmd, "timeout": 30}]}]}}),
        );
        let t = Instant::now();
        let report =
            host::run_event(&reg, &claude_event(&dir.0, "Bash"), &HostOptions::default()).unwrap();
        let took = t.elapsed();
        assert!(took < Duration::from_secs(5), "took {took:?}");
        assert!(report.hooks[0].run.pipes_held);
        assert_eq!(report.outcome.decision, Some(HookDecision::Deny));
        assert!(
            report
                .outcome
                .reason
                .clone()
                .unwrap_or_default()
                .contains(want),
            "{:?}",
            report.outcome
        );
        assert_eq!(report.outcome.updated_input, None);
        // Like Claude Code, the host leaves the process alone; the test
        // does not.
        let _ = std::process::Command::new("kill")
            .arg(read_pid(&pidfile).to_string())
            .status();
    }
}

/// Codex waits for end of file until the hook's timeout: the run is a
/// timeout (fail open) and is bounded by it.
#[test]
fn codex_hook_leaving_a_process_on_stdout_is_bounded_by_its_timeout() {
    let dir = scratch("held-codex");
    let cmd = format!("cat >/dev/null; printf '%s\\n' '{DENY}'; (sleep 20 &)");
    let reg = registry(
        Dialect::Codex,
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": cmd, "timeout": 2}]}]}}),
    );
    let t = Instant::now();
    let report = host::run_event(&reg, &codex_event(&dir.0), &HostOptions::default()).unwrap();
    let took = t.elapsed();
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(report.hooks[0].run.timed_out);
    assert_eq!(report.outcome.decision, None);
}

// ------------------------------------------------- second pass (attacks)

/// A NUL byte in a payload value that becomes an environment variable
/// (`session_id` → CLAUDE_CODE_SESSION_ID) made every spawn fail ("nul
/// byte found"), so every hook, the deny hook included, failed open.
#[test]
fn nul_in_a_payload_value_does_not_stop_the_hooks() {
    let dir = scratch("nul-env");
    let reg = registry(
        Dialect::ClaudeCode,
        json!({"hooks": {"PreToolUse": [{"hooks": [deny_hook("nul")]}]}}),
    );
    let payload = json!({
        "session_id": "sess\u{0}evil", "transcript_path": "/tmp/t.jsonl", "cwd": dir.0,
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1",
        "effort": {"level": "hi\u{0}gh"}
    });
    let bytes = serde_json::to_vec(&payload).unwrap();
    let ev = agenthooks::decode(Provider::ClaudeCode, &bytes, &DecodeOptions::default()).unwrap();
    let report = host::run_event(&reg, &ev, &HostOptions::default()).unwrap();
    assert_eq!(
        report.outcome.decision,
        Some(HookDecision::Deny),
        "{:?}",
        report.hooks[0].run
    );
}

/// Claude Code 2.1.328 runs hooks from its launch directory (else the
/// project root) when the working directory no longer exists, with a
/// warning; a missing `cwd` used to fail every hook open.
#[test]
fn claude_missing_cwd_falls_back_to_the_project_dir() {
    let dir = scratch("cwd-fallback");
    let reg = registry(
        Dialect::ClaudeCode,
        json!({"hooks": {"PreToolUse": [{"hooks": [deny_hook("fallback")]}]}}),
    );
    let opts = HostOptions {
        project_dir: Some(dir.0.clone()),
        ..HostOptions::default()
    };
    let gone = dir.0.join("deleted");
    let report = host::run_event(&reg, &claude_event(&gone, "Bash"), &opts).unwrap();
    assert_eq!(report.outcome.decision, Some(HookDecision::Deny));
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.code.as_str() == "cwd_missing" && d.reason.contains("deleted")),
        "{:?}",
        report.diagnostics
    );
}

/// An `if` rule with a relative path pattern was tried against every
/// suffix of the payload's path: a path of 100 000 components made
/// selection quadratic (no deadline applies before any hook runs).
#[test]
fn if_rule_on_a_huge_path_is_linear() {
    let dir = scratch("if-path");
    let reg = registry(
        Dialect::ClaudeCode,
        json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "true", "if": "Write(*.env)"}
        ]}]}}),
    );
    let path = format!("{}/x.txt", "/a".repeat(100_000));
    let payload = json!({
        "session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": dir.0,
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": "Write", "tool_input": {"file_path": path, "content": ""},
        "tool_use_id": "t1"
    });
    let bytes = serde_json::to_vec(&payload).unwrap();
    let ev = agenthooks::decode(Provider::ClaudeCode, &bytes, &DecodeOptions::default()).unwrap();
    let t = Instant::now();
    let plan = host::plan(&reg, &ev, &HostOptions::default()).unwrap();
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert!(plan.hooks.is_empty(), "x.txt is not *.env");
}
