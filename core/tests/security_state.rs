//! Security suite: the private per-user state root (issue 11 §1, 21 §3).
//!
//! Each test performs an attack against the files agenthooks keeps between
//! processes and checks it does no harm. The multi-user tests create a real
//! second user (`ahattacker`, with `useradd`) and run the attacker's steps
//! as that user through `setpriv`; they need root and print `SKIPPED` with
//! the reason otherwise.
//!
//! The victim is this test binary re-run as a hook process (`child` mode,
//! `AH_SEC_CHILD` set): it runs `agenthooks::process::run_process` with a
//! router that continues every stop, denies `rm` on Cursor and observes
//! (no decision) when told to be an "audit" hook.

use std::io::Write;
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agenthooks::{Decision, Router};

const CHILD: &str = "AH_SEC_CHILD";

/// Child mode: a hook process. `AH_SEC_CHILD` is the role (`guard` or
/// `audit`), `AH_SEC_ARGV` the argv (separated by U+001F).
#[test]
fn child() {
    let Ok(role) = std::env::var(CHILD) else {
        return;
    };
    let argv: Vec<String> = std::env::var("AH_SEC_ARGV")
        .unwrap_or_default()
        .split("\u{1f}")
        .map(String::from)
        .collect();
    let mut r = Router::new();
    if role == "guard" {
        r.on_stop(|_e| Decision::continue_with("keep going"));
        r.on_tool_pre(|e| {
            if e.tool.command().contains("rm -rf") {
                Decision::deny("destructive")
            } else {
                Decision::no_decision()
            }
        });
    }
    let code = agenthooks::process::run_process(r, &argv);
    std::process::exit(code);
}

struct Out {
    stdout: String,
    stderr: String,
    code: i32,
}

/// Runs a hook process (`role`) with `argv`, `env` and `stdin`; extra
/// words in the test binary's own argv make its process identity differ.
fn hook(role: &str, identity: &str, argv: &[&str], env: &[(&str, &str)], stdin: &[u8]) -> Out {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args(["child", "--exact", "--nocapture", "--test-threads=1"]);
    if !identity.is_empty() {
        c.arg(identity);
    }
    c.env(CHILD, role)
        .env("AH_SEC_ARGV", argv.join("\u{1f}"))
        .env_remove("AGENTHOOKS_STATE_DIR")
        .env_remove("XDG_STATE_HOME")
        .env_remove("AGENTHOOKS_NOTES")
        .env_remove("AGENTHOOKS_LOG");
    for (k, v) in env {
        if v.is_empty() && *k == "HOME" {
            c.env_remove("HOME");
        } else {
            c.env(k, v);
        }
    }
    c.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let start = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(start.elapsed() < Duration::from_secs(20), "hook hung");
    // libtest prints its own lines; the hook's answer is the JSON line or
    // nothing. Keep only what run_process wrote (it exits before libtest's
    // summary, so stdout holds libtest's "running 1 test" header first).
    let stdout = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with("running ") && !l.is_empty())
        .map(|l| l.strip_prefix("test child ... ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    Out {
        stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ah-sec-state-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A real second user for the attacker, or `None` (with a SKIPPED line)
/// when this process cannot create or switch to one.
fn attacker() -> Option<(u32, u32)> {
    if rustix::process::geteuid().as_raw() != 0 {
        eprintln!("SKIPPED: multi-user attack needs root (useradd + setpriv); running as non-root");
        return None;
    }
    let id = |flag: &str| -> Option<u32> {
        let o = Command::new("id")
            .args([flag, "ahattacker"])
            .output()
            .ok()?;
        String::from_utf8_lossy(&o.stdout).trim().parse().ok()
    };
    if id("-u").is_none() {
        let _ = Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                "ahattacker",
            ])
            .status();
    }
    match (id("-u"), id("-g")) {
        (Some(u), Some(g)) => Some((u, g)),
        _ => {
            eprintln!("SKIPPED: could not create the user `ahattacker` with useradd");
            None
        }
    }
}

/// Runs `script` with `sh -c` as the attacker.
fn as_attacker(who: (u32, u32), script: &str) {
    let st = Command::new("setpriv")
        .arg(format!("--reuid={}", who.0))
        .arg(format!("--regid={}", who.1))
        .args(["--clear-groups", "--", "sh", "-c", script])
        .status()
        .expect("setpriv runs");
    assert!(st.success(), "attacker script failed: {script}");
}

/// The continuation counter's file name for a Codex Stop of `session`
/// (the name the pre-fix code wrote through; computed like the core).
fn counter_name(session: &str) -> String {
    let key = format!("codex|{session}|");
    let quoted = serde_json::to_string(&key).unwrap();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in quoted.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn stop(session: &str, active: bool) -> Vec<u8> {
    format!(r#"{{"session_id":"{session}","turn_id":"t","hook_event_name":"Stop","stop_hook_active":{active}}}"#).into_bytes()
}

const RUN_CODEX: &[&str] = &["guard", "agenthooks", "run", "--provider=codex"];

/// Issue 11 §1: another user pre-creates the shared fallback state dir
/// (mode 777) with a symlink at the counter's name pointing at the
/// victim's `.bashrc`. Two Stop runs used to turn `.bashrc` into `1`.
#[test]
fn other_user_cannot_redirect_the_continuation_counter() {
    let Some(who) = attacker() else { return };
    let d = scratch("hijack");
    // A shared, sticky temp dir both users can write, like /tmp.
    let tmp = d.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
    let bashrc = d.join("bashrc");
    std::fs::write(&bashrc, "export PATH=/usr/bin\n").unwrap();
    let euid = rustix::process::geteuid().as_raw();
    let planted = tmp.join(format!("agenthooks-{euid}"));
    as_attacker(
        who,
        &format!(
            "umask 0; mkdir -m 777 {p} {p}/continuations {p}/dedupe && ln -s {b} {p}/continuations/{n}",
            p = planted.display(),
            b = bashrc.display(),
            n = counter_name("victim")
        ),
    );
    // No HOME: the state root falls back to <tmp>/agenthooks-<euid>.
    let env = [("HOME", ""), ("TMPDIR", tmp.to_str().unwrap())];
    let first = hook("guard", "", RUN_CODEX, &env, &stop("victim", true));
    let second = hook("guard", "", RUN_CODEX, &env, &stop("victim", true));
    assert_eq!(
        std::fs::read_to_string(&bashrc).unwrap(),
        "export PATH=/usr/bin\n",
        "the victim's file was written through the planted symlink"
    );
    for o in [&first, &second] {
        assert!(
            o.stderr.contains("refusing state directory") && o.stderr.contains("owned by uid"),
            "the refusal is named: {}",
            o.stderr
        );
        // The fail policy's answer (fail-open: no opinion) — never a
        // continuation the cap could not count.
        assert!(!o.stdout.contains("block"), "{}", o.stdout);
        assert_eq!(o.code, 0);
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// Issue 11 §1: a state dir (even our own) that others can write is
/// refused, not used; fail-closed gets the fail policy's answer.
#[test]
fn group_or_world_writable_state_dir_is_refused() {
    let d = scratch("perm");
    let state = d.join("state");
    std::fs::create_dir_all(&state).unwrap();
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o777)).unwrap();
    let env = [("AGENTHOOKS_STATE_DIR", state.to_str().unwrap())];
    let argv = [
        "guard",
        "agenthooks",
        "run",
        "--provider=codex",
        "--fail=closed",
    ];
    let o = hook("guard", "", &argv, &env, &stop("s1", true));
    assert!(
        o.stderr.contains("writable by group or others"),
        "{}",
        o.stderr
    );
    assert!(!o.stdout.contains("block"), "never continues: {}", o.stdout);
    assert!(std::fs::read_dir(&state).unwrap().next().is_none());
    std::fs::remove_dir_all(&d).unwrap();
}

/// Issue 11 §1: a repository's `env` can set the state variables; empty
/// or relative values are ignored instead of writing into the project.
#[test]
fn empty_or_relative_state_variables_never_write_into_the_project() {
    let d = scratch("relative");
    let project = d.join("project");
    let home = d.join("home");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    for (k, v) in [
        ("AGENTHOOKS_STATE_DIR", ""),
        ("AGENTHOOKS_STATE_DIR", "state"),
        ("XDG_STATE_HOME", ""),
        ("XDG_STATE_HOME", ".state"),
    ] {
        let mut c = Command::new(std::env::current_exe().unwrap());
        c.args(["child", "--exact", "--nocapture"])
            .current_dir(&project)
            .env(CHILD, "guard")
            .env("AH_SEC_ARGV", RUN_CODEX.join("\u{1f}"))
            .env("HOME", &home)
            .env_remove("AGENTHOOKS_STATE_DIR")
            .env_remove("XDG_STATE_HOME")
            .env(k, v)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(&stop("rel", true))
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("block"),
            "{k}={v:?}: the guard still answers"
        );
        let left: Vec<_> = std::fs::read_dir(&project).unwrap().collect();
        assert!(
            left.is_empty(),
            "{k}={v:?} wrote into the project: {left:?}"
        );
    }
    // The state went to the user's home.
    let st = home.join(".local/state/agenthooks");
    assert_eq!(std::fs::metadata(&st).unwrap().mode() & 0o777, 0o700);
    std::fs::remove_dir_all(&d).unwrap();
}

/// Symlink, hard link and FIFO planted at the counter's name inside the
/// user's own state root: never followed, written through or blocked on.
#[test]
fn planted_links_and_fifos_in_the_state_root_are_harmless() {
    let d = scratch("planted");
    let state = d.join("state");
    let env = [("AGENTHOOKS_STATE_DIR", state.to_str().unwrap())];
    // Create the root and the subdirectory through a first run.
    let o = hook("guard", "", RUN_CODEX, &env, &stop("p", false));
    assert!(o.stdout.contains("block"), "{}", o.stdout);
    let counter = state.join("continuations").join(counter_name("p"));
    let victim = d.join("victim");
    let reset = || std::fs::write(&victim, "precious").unwrap();

    // Symlink.
    reset();
    let _ = std::fs::remove_file(&counter);
    symlink(&victim, &counter).unwrap();
    hook("guard", "", RUN_CODEX, &env, &stop("p", true));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");

    // Hard link.
    reset();
    let _ = std::fs::remove_file(&counter);
    std::fs::hard_link(&victim, &counter).unwrap();
    hook("guard", "", RUN_CODEX, &env, &stop("p", true));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");

    // FIFO: nothing blocks on it.
    let _ = std::fs::remove_file(&counter);
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        &counter,
        rustix::fs::Mode::from_raw_mode(0o600),
    )
    .unwrap();
    let o = hook("guard", "", RUN_CODEX, &env, &stop("p", true));
    assert_eq!(o.code, 0);
    std::fs::remove_dir_all(&d).unwrap();
}

const CURSOR_GENERIC: &str = r#"{"hook_event_name":"preToolUse","conversation_id":"c-obs","generation_id":"g1","workspace_roots":["/w"],"tool_name":"Shell","tool_input":{"command":"rm -rf /w","cwd":"/w"},"tool_use_id":"call_1\nctc_1"}"#;
const CURSOR_SPECIFIC: &str = r#"{"hook_event_name":"beforeShellExecution","conversation_id":"c-obs","generation_id":"g1","workspace_roots":["/w"],"command":"rm -rf /w","cwd":"/w"}"#;
const RUN_CURSOR: &[&str] = &["hook", "agenthooks", "run", "--provider=cursor"];

/// Issue 21 §3: an audit hook (another agenthooks program on the same
/// Cursor event) claims the call first; the guard must still deny.
#[test]
fn an_observer_hook_cannot_silence_the_guard_through_dedupe() {
    let d = scratch("observer");
    let state = d.join("state");
    let env = [("AGENTHOOKS_STATE_DIR", state.to_str().unwrap())];
    let audit = hook(
        "audit",
        "audit-hook",
        RUN_CURSOR,
        &env,
        CURSOR_GENERIC.as_bytes(),
    );
    assert_eq!(audit.stdout, "{}", "{}", audit.stderr);
    let guard = hook(
        "guard",
        "guard-hook",
        RUN_CURSOR,
        &env,
        CURSOR_GENERIC.as_bytes(),
    );
    assert!(
        guard.stdout.contains("\"permission\":\"deny\""),
        "the guard's deny was silenced: {} / {}",
        guard.stdout,
        guard.stderr
    );
    // The same hook's own sibling delivery is still deduplicated.
    let sibling = hook(
        "audit",
        "audit-hook",
        RUN_CURSOR,
        &env,
        CURSOR_SPECIFIC.as_bytes(),
    );
    assert_eq!(sibling.stdout, "{}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// Issue 11 §1: markers in a state root another user planted are never
/// trusted: the dedupe state is refused (with a warning) and the guard
/// decides.
#[test]
fn other_users_markers_cannot_suppress_the_guard() {
    let Some(who) = attacker() else { return };
    let d = scratch("markers");
    let tmp = d.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
    let euid = rustix::process::geteuid().as_raw();
    let planted = tmp.join(format!("agenthooks-{euid}"));
    as_attacker(
        who,
        &format!(
            "umask 0; mkdir -m 777 {p} {p}/dedupe",
            p = planted.display()
        ),
    );
    let env = [("HOME", ""), ("TMPDIR", tmp.to_str().unwrap())];
    let o = hook(
        "guard",
        "guard-hook",
        RUN_CURSOR,
        &env,
        CURSOR_SPECIFIC.as_bytes(),
    );
    assert!(o.stdout.contains("\"permission\":\"deny\""), "{}", o.stdout);
    assert!(
        o.stderr.contains("refusing state directory"),
        "{}",
        o.stderr
    );
    // Nothing of ours was written into the attacker's directory.
    assert!(
        std::fs::read_dir(planted.join("dedupe"))
            .unwrap()
            .next()
            .is_none()
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// Issue 11 §1: the install lock no longer lives in a shared temp dir:
/// another user's pre-created `agenthooks-locks-<uid>` (or any TMPDIR)
/// neither stalls an install nor receives its lock files.
#[test]
fn install_locks_live_in_the_private_state_root() {
    let d = scratch("locks");
    let home = d.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let state = d.join("state");
    // SAFETY of the test: env changes are process-wide; this test only
    // reads them through the paths it passes explicitly.
    let path = home.join("settings.json");
    let lock = agenthooks::install::fsio::lock_name(&path);
    assert!(lock.ends_with(".lock") && !lock.contains('/'));
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["lock_child", "--exact", "--nocapture"])
        .env("AH_SEC_LOCK", &path)
        .env("AGENTHOOKS_STATE_DIR", &state)
        .env("TMPDIR", d.join("nonexistent-tmp"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lock_file = state.join("locks").join(&lock);
    let m = std::fs::symlink_metadata(&lock_file).unwrap();
    assert!(m.is_file());
    assert_eq!(m.mode() & 0o777, 0o600);
    assert_eq!(
        std::fs::metadata(state.join("locks")).unwrap().mode() & 0o777,
        0o700
    );
    // A symlink planted at the lock's name is refused, not followed.
    let victim = d.join("victim");
    std::fs::write(&victim, "x").unwrap();
    std::fs::remove_file(&lock_file).unwrap();
    symlink(&victim, &lock_file).unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["lock_child", "--exact", "--nocapture"])
        .env("AH_SEC_LOCK", &path)
        .env("AGENTHOOKS_STATE_DIR", &state)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "x");
    std::fs::remove_dir_all(&d).unwrap();
}

/// Child mode for the lock test: takes the install lock on a path.
#[test]
fn lock_child() {
    let Ok(p) = std::env::var("AH_SEC_LOCK") else {
        return;
    };
    let r =
        agenthooks::install::fsio::lock_all(&[Path::new(&p).to_path_buf()], Duration::from_secs(2));
    std::process::exit(if r.is_ok() { 0 } else { 3 });
}

/// Issue 15 §4: the opt-in audit log is a file in the state root too. A
/// symlink, hard link or FIFO planted at its name, or a symlinked `log`
/// directory, never redirects a line into another file, and the guard's
/// answer is unchanged.
#[test]
fn planted_links_at_the_audit_log_are_refused() {
    let d = scratch("auditlog");
    let state = d.join("state");
    let env = [
        ("AGENTHOOKS_STATE_DIR", state.to_str().unwrap()),
        ("AGENTHOOKS_LOG", "1"),
    ];
    let deny = |o: &Out| {
        assert!(
            o.stdout.contains("deny"),
            "the guard still answers: {}",
            o.stdout
        );
    };
    // A first run creates log/invocations.jsonl.
    let o = hook("guard", "", RUN_CURSOR, &env, CURSOR_SPECIFIC.as_bytes());
    deny(&o);
    let log = state.join("log").join("invocations.jsonl");
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 1);
    let victim = d.join("victim");
    let reset = || std::fs::write(&victim, "precious").unwrap();
    let fresh = |n: &str| CURSOR_SPECIFIC.replace("g1", n);

    // Symlink at the log file.
    reset();
    std::fs::remove_file(&log).unwrap();
    symlink(&victim, &log).unwrap();
    deny(&hook("guard", "", RUN_CURSOR, &env, fresh("g2").as_bytes()));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");

    // Hard link at the log file.
    reset();
    std::fs::remove_file(&log).unwrap();
    std::fs::hard_link(&victim, &log).unwrap();
    deny(&hook("guard", "", RUN_CURSOR, &env, fresh("g3").as_bytes()));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");

    // FIFO at the log file: nothing blocks.
    std::fs::remove_file(&log).unwrap();
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        &log,
        rustix::fs::Mode::from_raw_mode(0o600),
    )
    .unwrap();
    deny(&hook("guard", "", RUN_CURSOR, &env, fresh("g4").as_bytes()));
    std::fs::remove_file(&log).unwrap();

    // Symlinked log directory.
    reset();
    let elsewhere = d.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::remove_dir_all(state.join("log")).unwrap();
    symlink(&elsewhere, state.join("log")).unwrap();
    deny(&hook("guard", "", RUN_CURSOR, &env, fresh("g5").as_bytes()));
    assert_eq!(
        std::fs::read_dir(&elsewhere).unwrap().count(),
        0,
        "nothing was written through the symlinked directory"
    );

    std::fs::remove_dir_all(&d).unwrap();
}
