//! The whole author-side run in a real process: nothing but the answer
//! reaches stdout, even when a handler prints.

use std::io::Write;
use std::process::{Command, Stdio};

use std::time::Duration;

use agenthooks::{Decision, Policy, Router};

const CHILD: &str = "AH_RUNTIME_CHILD";
static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn child_main() -> ! {
    let mode = std::env::var("AH_RUNTIME_MODE").unwrap_or_default();
    let mut r = Router::new();
    match mode.as_str() {
        // The handler deadline of the process-owning run (an alarm on the
        // main thread, core/src/alarm.rs), under a fail-closed policy with
        // a 300 ms deadline.
        "hang" | "hang-threads" | "panic" | "fast" => {
            r = r.policy(Policy::fail_closed().timeout_ms(300));
            let m = mode.clone();
            r.on_tool_pre(move |_e| {
                match m.as_str() {
                    "hang" => {
                        // Half an answer-looking print, then hang.
                        print!("{{\"partial\":");
                        std::thread::sleep(Duration::from_secs(30));
                    }
                    "hang-threads" => {
                        // Threads of its own (the signal may land on any
                        // of them), all stuck.
                        for _ in 0..3 {
                            std::thread::spawn(|| std::thread::sleep(Duration::from_secs(30)));
                        }
                        std::thread::sleep(Duration::from_secs(30));
                    }
                    "panic" => panic!("handler blew up"),
                    _ => {}
                }
                Decision::deny(format!("threads={}", threads()))
            });
        }
        _ => {
            r.on_tool_pre(|e| {
                println!("stray print from a handler: {}", e.tool.command());
                print!("no newline either");
                Decision::deny(format!("noisy handler says no (threads={})", threads()))
            });
        }
    }
    let argv: Vec<String> = std::env::var("AH_RUNTIME_ARGV")
        .unwrap()
        .split(' ')
        .map(str::to_string)
        .collect();
    let code = agenthooks::process::run_process(r, &argv);
    if mode == "fast" {
        // Past the deadline after the run: a timer left armed would kill
        // the process now (or answer a second time).
        std::thread::sleep(Duration::from_millis(600));
        eprint!("after the deadline");
    }
    std::process::exit(code)
}

/// The threads of this process (Linux: /proc/self/task), 0 elsewhere.
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, Iterator::count)
}

fn run_mode(mode: &str, argv: &str, stdin: &[u8]) -> (String, String, i32, Duration) {
    let t = std::time::Instant::now();
    // No backtrace: symbolizing one in a debug build can take longer than
    // the 300 ms deadline on a loaded machine (RUST_BACKTRACE=1 made the
    // panic case answer as a timeout), and the answer is what is tested.
    let (out, err, code) = run_child_env(
        argv,
        stdin,
        &[("AH_RUNTIME_MODE", mode), ("RUST_BACKTRACE", "0")],
    );
    (out, err, code, t.elapsed())
}

/// The process-owning run bounds handlers with an alarm on the main
/// thread: no thread on the deny path, and a hung handler (alone or with
/// threads of its own), a panicking one and a fast one each get exactly
/// one answer.
fn handler_deadline_without_a_thread(payload: &[u8]) {
    let argv = "hook agenthooks run --provider=claude-code";
    let (out, err, code) = run_child(argv, payload);
    assert_eq!(code, 0, "stderr: {err}");
    #[cfg(target_os = "linux")]
    assert!(
        out.contains("threads=1)"),
        "the handler ran on the only thread: {out}"
    );

    // Fail-closed: Claude Code's deny, exactly once (stdout parses as one
    // JSON value and keeps nothing the handler printed).
    let failed = |mode: &str, out: &str, code: i32, err: &str| -> String {
        assert_eq!(code, 0, "{mode}: stderr: {err}");
        let v: serde_json::Value = serde_json::from_str(out)
            .unwrap_or_else(|e| panic!("{mode}: one answer on stdout ({e}): {out:?}"));
        assert_eq!(
            v["hookSpecificOutput"]["permissionDecision"], "deny",
            "{mode}: {out}"
        );
        v["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    for mode in ["hang", "hang-threads"] {
        let (out, err, code, took) = run_mode(mode, argv, payload);
        let reason = failed(mode, &out, code, &err);
        assert!(reason.contains("(handler_timeout)"), "{mode}: {out}");
        assert_eq!(
            err.matches("agenthooks: handler_timeout:").count(),
            1,
            "{mode}: {err}"
        );
        assert!(
            took < Duration::from_secs(10),
            "{mode}: answered at the deadline, took {took:?}"
        );
    }
    let (out, err, code, _) = run_mode("panic", argv, payload);
    let reason = failed("panic", &out, code, &err);
    assert!(reason.contains("(panic)"), "{out}");
    assert!(err.contains("handler blew up"), "{err}");
    assert!(!err.contains("handler_timeout"), "{err}");

    let (out, err, code, _) = run_mode("fast", argv, payload);
    assert_eq!(code, 0, "fast: stderr: {err}");
    let v: serde_json::Value = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("one answer on stdout ({e}): {out:?}"));
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
    #[cfg(target_os = "linux")]
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecisionReason"], "threads=1",
        "{out}"
    );
    assert!(
        err.ends_with("after the deadline"),
        "no alarm after the run: {err:?}"
    );
    assert!(!err.contains("handler_timeout"), "{err}");
}

fn run_child(argv: &str, stdin: &[u8]) -> (String, String, i32) {
    run_child_env(argv, stdin, &[])
}

fn run_child_env(argv: &str, stdin: &[u8], env: &[(&str, &str)]) -> (String, String, i32) {
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new(exe)
        .envs(env.iter().copied())
        .env(CHILD, "1")
        .env("AH_RUNTIME_ARGV", argv)
        // A fresh state dir per run: Cursor's cross-process dedupe would
        // otherwise suppress a repeat of the same call within its TTL.
        .env(
            "AGENTHOOKS_STATE_DIR",
            std::env::temp_dir().join(format!(
                "ah-runtime-process-{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
            )),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A run that answers without reading (usage, exit 64) may have exited
    // already: a broken pipe here is the child's choice, not a failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// A plain `main` (harness = false): libtest would print to stdout itself.
fn main() {
    if std::env::var_os(CHILD).is_some() {
        child_main();
    }
    let payload = br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}"#;
    let (out, err, code) = run_child("hook agenthooks run --provider=claude-code", payload);
    assert_eq!(code, 0, "stderr: {err}");
    let v: serde_json::Value = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("stdout is not only JSON ({e}): {out:?}"));
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(
        err.contains("stray print from a handler: ls"),
        "the print went to stderr: {err}"
    );

    handler_deadline_without_a_thread(payload);

    // Bad input under the default (fail-open) policy: empty stdout, exit 0, a diagnostic.
    let (out, err, code) = run_child("hook agenthooks run --provider=codex", b"{not json");
    assert_eq!((out.as_str(), code), ("", 0));
    assert!(err.contains("invalid_json"), "{err}");

    // Fail-closed from argv: exit 2 with a reason on stderr (Codex needs it non-empty).
    let (out, err, code) = run_child("hook agenthooks run --provider=codex --fail=closed", b"[1]");
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("not_an_object"), "{err}");

    // Legacy argv-payload mode: the JSON is the last argument, stdin unused.
    let argv = format!(
        "hook agenthooks run --provider=cursor {}",
        r#"{"conversation_id":"c1","generation_id":"g1","hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"ls"},"tool_use_id":"tu1"}"#
    );
    let (out, err, code) = run_child(&argv, b"");
    assert_eq!(code, 0, "stderr: {err}");
    assert!(
        out.contains("deny"),
        "argv payload decoded and answered: {out}"
    );

    // Without the `agenthooks` word the program explains itself and exits 64.
    let (out, _err, code) = run_child("hook", b"{}");
    assert_eq!((out.as_str(), code), ("", 64));
    // `--help` after the word: the run entry's usage on stdout, exit 0, and
    // stdin is never read (it stays open here and the run still ends).
    help_never_reads_stdin();
    println!("runtime_process: 11 process runs passed");
}

fn help_never_reads_stdin() {
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new(exe)
        .env(CHILD, "1")
        .env("AH_RUNTIME_ARGV", "hook agenthooks run --help")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Keep the write end open: a run that read stdin would wait forever.
    let stdin = child.stdin.take();
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            panic!("`agenthooks run --help` waited for stdin");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(status.code(), Some(0), "{text}");
    assert!(
        text.starts_with("usage: <program> agenthooks run --provider=<agent>"),
        "{text}"
    );
    assert!(text.contains("--fail=open|closed"), "{text}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
