//! Async hooks in real processes (`crate::detach`): the agent gets "no
//! opinion" at once and none of its pipes stays open, the detached child
//! finishes the work after the hook process exited, and it is killed at
//! the hook's deadline. A gating event ignores `--async`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agenthooks::{Decision, Router};

const HOOK: &str = "AH_ASYNC_HOOK";

/// The hook program: sleeps `AH_SLEEP_MS` in its handlers, then writes
/// `AH_MARKER` (its pid first into `AH_MARKER.pid`).
fn hook_main() -> ! {
    fn work() {
        let marker = PathBuf::from(std::env::var("AH_MARKER").unwrap_or_default());
        let ms: u64 = std::env::var("AH_SLEEP_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let _ = std::fs::write(marker.with_extension("pid"), std::process::id().to_string());
        std::thread::sleep(Duration::from_millis(ms));
        let _ = std::fs::write(&marker, b"done");
    }
    let mut r = Router::new();
    r.on_tool_post(|_| {
        work();
        Decision::no_decision()
    });
    r.on_tool_pre(|_| {
        work();
        Decision::deny("sync guard")
    });
    let argv: Vec<String> = std::env::args().collect();
    let code = agenthooks::process::run_process(r, &argv);
    std::process::exit(code)
}

struct Run {
    out: String,
    err: String,
    code: i32,
    took: Duration,
}

fn run_hook(state: &Path, args: &[&str], payload: &[u8], marker: &Path, sleep_ms: u64) -> Run {
    use std::io::Write;
    let t = Instant::now();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(args)
        .env(HOOK, "1")
        .env("AGENTHOOKS_STATE_DIR", state)
        .env("AH_MARKER", marker)
        .env("AH_SLEEP_MS", sleep_ms.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(payload).unwrap();
    // Returns only when every write end of the pipes is closed: a detached
    // child holding one would make this wait for its handler.
    let out = child.wait_with_output().unwrap();
    Run {
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
        took: t.elapsed(),
    }
}

fn wait_for(p: &Path, within: Duration) -> bool {
    let t = Instant::now();
    while t.elapsed() < within {
        if p.exists() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    p.exists()
}

/// Whether a pid is gone (or a zombie nobody reaped yet).
fn gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(s) => s
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

const AFTER_TOOL: &[u8] = br#"{"session_id":"s-async","cwd":"/w","hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"make"},"tool_response":{"llmContent":"ok"}}"#;
const BEFORE_TOOL: &[u8] = br#"{"session_id":"s-async","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"make"}}"#;

fn main() {
    if std::env::var_os(HOOK).is_some() {
        hook_main();
    }
    let base = std::env::temp_dir().join(format!("ah-async-process-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let state = base.join("state");

    // 1. The answer comes at once; the work finishes after the exit.
    let marker = base.join("m1");
    let argv = [
        "agenthooks",
        "run",
        "--provider=gemini",
        "--timeout=5",
        "--async",
    ];
    // (Bounds with room for a loaded CI machine: the handler's 2 s must
    // not be in what the agent waits for.)
    let r = run_hook(&state, &argv, AFTER_TOOL, &marker, 2000);
    assert_eq!((r.code, r.out.trim()), (0, "{}"), "stderr: {}", r.err);
    assert!(
        r.took < Duration::from_millis(1500),
        "the agent waited {:?} for an async hook",
        r.took
    );
    assert!(!marker.exists(), "the work ran before the answer");
    assert!(
        wait_for(&marker, Duration::from_secs(5)),
        "the detached work never finished"
    );
    let pid = std::fs::read_to_string(marker.with_extension("pid")).unwrap();
    let t = Instant::now();
    while !gone(&pid) && t.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(gone(&pid), "the detached child {pid} did not exit");

    // 2. Bounded: a handler running past the deadline (0.9 x 1 s) dies
    //    with its process; the marker never appears.
    let marker = base.join("m2");
    let argv = [
        "agenthooks",
        "run",
        "--provider=gemini",
        "--timeout=1",
        "--async",
    ];
    let r = run_hook(&state, &argv, AFTER_TOOL, &marker, 3000);
    assert_eq!((r.code, r.out.trim()), (0, "{}"), "stderr: {}", r.err);
    assert!(r.took < Duration::from_millis(1500), "{:?}", r.took);
    assert!(wait_for(
        &marker.with_extension("pid"),
        Duration::from_secs(3)
    ));
    let pid = std::fs::read_to_string(marker.with_extension("pid")).unwrap();
    let t = Instant::now();
    while !gone(&pid) && t.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(gone(&pid), "the detached child {pid} outlived its deadline");
    assert!(
        t.elapsed() < Duration::from_millis(2500),
        "killed only after {:?}",
        t.elapsed()
    );
    std::thread::sleep(Duration::from_millis(2500));
    assert!(!marker.exists(), "the work ran past the deadline");

    // 3. A gating event ignores --async: the decision reaches the agent.
    let marker = base.join("m3");
    let argv = [
        "agenthooks",
        "run",
        "--provider=gemini",
        "--timeout=5",
        "--async",
    ];
    let r = run_hook(&state, &argv, BEFORE_TOOL, &marker, 0);
    assert_eq!(r.code, 0, "stderr: {}", r.err);
    assert!(r.out.contains("deny"), "{}", r.out);
    assert!(r.err.contains("--async ignored on BeforeTool"), "{}", r.err);
    assert!(marker.exists());

    // 4. The payload copy is gone (nameless), only the slot locks remain.
    let left: Vec<String> = std::fs::read_dir(state.join("async"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("slot-"))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");

    let _ = std::fs::remove_dir_all(&base);
    println!("async_process: 4 checks passed");
}
