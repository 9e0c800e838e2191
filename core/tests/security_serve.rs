//! Attacks on the `agenthooks serve` bridge (issue 21 §5): the NDJSON loop
//! the OpenCode / OpenClaw plugins talk to must stay bounded in threads
//! and memory whatever the plugin (or whoever writes to its stdin) sends,
//! and every reply must carry the fail policy's answer, so a plugin never
//! reads an error as "no opinion".
//!
//! A plain `main` (harness = false): the serve loop runs in a child
//! process (this binary again, `AH_SERVE_CHILD` set), whose threads and
//! resident memory are read from `/proc/<pid>/status` while it runs.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agenthooks::serve::{self, Sink};
use agenthooks::{Decision, Policy, Router};
use serde_json::{Value, json};

const CHILD: &str = "AH_SERVE_CHILD";
const CHILD_ARGV: &str = "AH_SERVE_ARGV";

/// Threads the serve process may have at any time: the reader, at most 16
/// workers, one handler thread per worker and 32 abandoned handlers, plus
/// slack for the runtime. Before the fix it had one thread per session.
const MAX_THREADS: u64 = 72;

/// The routers a child can serve.
fn router(name: &str) -> Router {
    let mut r = Router::new();
    match name {
        // Denies `rm -rf`; panics on `panic`; no opinion otherwise.
        "guard" => {
            r.on_tool_pre(|e| {
                let cmd = e.tool.command();
                if cmd.contains("rm -rf") {
                    Decision::deny("destructive command")
                } else if cmd == "panic" {
                    panic!("handler blew up")
                } else if cmd == "slow" {
                    std::thread::sleep(Duration::from_secs(3));
                    Decision::no_decision()
                } else {
                    Decision::no_decision()
                }
            });
        }
        // Every handler hangs far past its 50 ms deadline.
        "hang" => {
            r = Router::new().policy(Policy::fail_closed().timeout_ms(50));
            r.on_tool_pre(|_| {
                std::thread::sleep(Duration::from_secs(3));
                Decision::no_decision()
            });
        }
        // A handler that stalls on `sleep`: input piles up behind it.
        "slow" => {
            r.on_tool_pre(|e| {
                if e.tool.command() == "sleep" {
                    std::thread::sleep(Duration::from_millis(100));
                }
                Decision::no_decision()
            });
        }
        other => panic!("unknown child router {other}"),
    }
    r
}

fn child_main(name: &str) -> ! {
    let argv: Vec<String> = std::env::var(CHILD_ARGV)
        .unwrap_or_default()
        .split(' ')
        .map(str::to_string)
        .collect();
    std::process::exit(agenthooks::process::run_process(router(name), &argv))
}

fn spawn(router: &str, argv: &str) -> Child {
    Command::new(std::env::current_exe().expect("own path"))
        .env(CHILD, router)
        .env(CHILD_ARGV, format!("hook {argv}"))
        .env(
            "AGENTHOOKS_STATE_DIR",
            std::env::temp_dir().join(format!("ah-security-serve-{}", std::process::id())),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the serve child")
}

/// A `/proc/<pid>/status` number (`Threads`, `VmRSS` in kB).
fn status(pid: u32, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line[key.len()..]
        .trim_start_matches(':')
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

struct Run {
    replies: Vec<Value>,
    max_threads: u64,
    max_rss_kb: u64,
    killed: Option<String>,
    elapsed: Duration,
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} replies in {:?}, at most {} threads and {} kB resident",
            self.replies.len(),
            self.elapsed,
            self.max_threads,
            self.max_rss_kb
        )
    }
}

/// Runs a child serving `argv`, feeds it `lines` (from a writer thread, so
/// backpressure blocks only the writer), collects every reply line, and
/// samples its threads and RSS; kills it when a bound is crossed.
fn drive(
    router: &str,
    argv: &str,
    lines: Box<dyn Iterator<Item = Vec<u8>> + Send>,
    max_rss_kb: u64,
) -> Run {
    let started = Instant::now();
    let mut child = spawn(router, argv);
    let pid = child.id();
    let mut stdin = BufWriter::with_capacity(1 << 16, child.stdin.take().expect("stdin"));
    let stdout = child.stdout.take().expect("stdout");
    let writer = std::thread::spawn(move || {
        for mut l in lines {
            l.push(b'\n');
            if stdin.write_all(&l).is_err() {
                return;
            }
        }
        let _ = stdin.flush();
    });
    let done = Arc::new(AtomicBool::new(false));
    let done2 = done.clone();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            out.push(
                serde_json::from_str::<Value>(&line)
                    .unwrap_or_else(|e| panic!("a reply line is not JSON ({e}): {line:?}")),
            );
        }
        done2.store(true, Ordering::SeqCst);
        out
    });
    let (mut threads, mut rss, mut killed) = (0, 0, None);
    while !done.load(Ordering::SeqCst) {
        if let Some(t) = status(pid, "Threads") {
            threads = threads.max(t);
        }
        if let Some(r) = status(pid, "VmRSS") {
            rss = rss.max(r);
        }
        let why = if threads > MAX_THREADS {
            Some(format!("{threads} threads"))
        } else if rss > max_rss_kb {
            Some(format!("{rss} kB resident"))
        } else if started.elapsed() > Duration::from_secs(60) {
            Some("still running after 60 s".to_string())
        } else {
            None
        };
        if let Some(w) = why {
            killed = Some(w);
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let replies = reader.join().expect("reader");
    let _ = writer.join();
    let _ = child.wait();
    let run = Run {
        replies,
        max_threads: threads,
        max_rss_kb: rss,
        killed,
        elapsed: started.elapsed(),
    };
    eprintln!("  {run}");
    run
}

fn oc_frame(seq: usize, session: &str, cmd: &str) -> Vec<u8> {
    json!({
        "seq": seq,
        "hook": "tool.execute.before",
        "input": {"tool": "bash", "sessionID": session, "callID": format!("c{seq}")},
        "output": {"args": {"command": cmd}},
    })
    .to_string()
    .into_bytes()
}

fn hello(provider: &str) -> Vec<u8> {
    json!({"hello": {"provider": provider, "versions": {}, "context": {}}})
        .to_string()
        .into_bytes()
}

/// Each seq in `0..n` answered exactly once, and every reply has `output`.
fn by_seq(replies: &[Value], n: usize) -> Vec<&Value> {
    let mut seen: Vec<Option<&Value>> = vec![None; n];
    for r in replies {
        if r.get("hello").is_some() {
            continue;
        }
        assert!(r.get("output").is_some(), "a reply without `output`: {r}");
        let seq = r["seq"]
            .as_u64()
            .unwrap_or_else(|| panic!("reply without a numeric seq: {r}"))
            as usize;
        assert!(seq < n, "unknown seq {seq}");
        assert!(seen[seq].is_none(), "seq {seq} answered twice");
        seen[seq] = Some(r);
    }
    let missing = seen.iter().filter(|s| s.is_none()).count();
    assert_eq!(missing, 0, "{missing} of {n} requests got no reply");
    seen.into_iter().flatten().collect()
}

/// 25 000 sessions, one request each, as fast as the pipe takes them:
/// every request is answered (with `output`), threads and RSS stay
/// bounded. Before the fix: a thread per session (the issue saw the
/// process abort at ~16 k threads and 1.6 GiB) and no `output` on "no
/// opinion" replies.
fn flood_of_sessions_stays_bounded() {
    const N: usize = 25_000;
    let lines = std::iter::once(hello("opencode")).chain((0..N).map(|i| {
        let cmd = if i % 7 == 0 { "rm -rf /" } else { "ls" };
        oc_frame(i, &format!("ses_{i}"), cmd)
    }));
    let run = drive(
        "guard",
        "agenthooks serve --provider=opencode",
        Box::new(lines),
        96 * 1024,
    );
    assert_eq!(
        run.killed, None,
        "the serve process crossed a bound ({} threads, {} kB resident at most)",
        run.max_threads, run.max_rss_kb
    );
    assert!(
        run.max_threads <= MAX_THREADS,
        "{} threads",
        run.max_threads
    );
    let replies = by_seq(&run.replies, N);
    for (i, r) in replies.iter().enumerate() {
        if i % 7 == 0 {
            assert_eq!(r["output"], json!({"throw": "destructive command"}), "{r}");
        } else {
            assert_eq!(r["output"], Value::Null, "{r}");
            assert!(r.get("error").is_none(), "{r}");
        }
    }
}

/// Handlers that hang past their deadline are abandoned, not waited for;
/// their threads must not pile up: past a cap the bridge answers at once
/// with the fail policy (here closed: a block) instead of starting more.
fn hung_handlers_do_not_pile_up() {
    const N: usize = 400;
    let lines = std::iter::once(hello("opencode"))
        .chain((0..N).map(|i| oc_frame(i, &format!("ses_{i}"), "sleep")));
    let run = drive(
        "hang",
        "agenthooks serve --provider=opencode",
        Box::new(lines),
        96 * 1024,
    );
    assert_eq!(
        run.killed, None,
        "the serve process crossed a bound ({} threads, {} kB resident at most)",
        run.max_threads, run.max_rss_kb
    );
    let replies = by_seq(&run.replies, N);
    for r in &replies {
        let reason = r["output"]["throw"].as_str().unwrap_or_default();
        assert!(
            reason.starts_with("Blocked because the hook failed"),
            "fail-closed answer expected: {r}"
        );
        let code = r["error"]["code"].as_str().unwrap_or_default();
        assert!(code == "handler_timeout" || code == "handler_error", "{r}");
    }
    assert!(
        replies
            .iter()
            .any(|r| r["error"]["code"] == "handler_error"),
        "past the cap, requests are refused, not run"
    );
}

/// A stalled handler and a fast writer: the input must not be buffered
/// without bound. 150 frames of 1 MiB in one session whose first 20
/// handlers take 100 ms each; the process must stop reading while its
/// queue is full (before the fix it read everything into memory).
fn big_frames_are_not_buffered() {
    const N: usize = 150;
    let pad = "x".repeat(1 << 20);
    let lines = std::iter::once(hello("opencode")).chain((0..N).map(move |i| {
        let cmd = if i < 20 { "sleep" } else { "ls" };
        format!(
            r#"{{"seq":{i},"hook":"tool.execute.before","input":{{"tool":"bash","sessionID":"one","callID":"c{i}"}},"output":{{"args":{{"command":"{cmd}","pad":"{pad}"}}}}}}"#
        )
        .into_bytes()
    }));
    let run = drive(
        "slow",
        "agenthooks serve --provider=opencode --max-bytes=2000000",
        Box::new(lines),
        96 * 1024,
    );
    assert_eq!(
        run.killed, None,
        "the serve process crossed a bound ({} threads, {} kB resident at most)",
        run.max_threads, run.max_rss_kb
    );
    by_seq(&run.replies, N);
}

/// One line of 256 MiB (over a 1 MB limit) is skipped without being kept,
/// and answered, tied to its `seq`, with the fail policy's answer.
fn overlong_line_is_answered_not_kept() {
    let big = {
        let mut l = br#"{"seq":0,"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"s"},"output":{"args":{"command":""#.to_vec();
        l.resize(l.len() + (256 << 20), b'x');
        l.extend_from_slice(br#""}}}"#);
        l
    };
    let lines = vec![hello("opencode"), big, oc_frame(1, "s", "rm -rf /")];
    let run = drive(
        "guard",
        "agenthooks serve --provider=opencode --fail=closed --max-bytes=1000000",
        Box::new(lines.into_iter()),
        64 * 1024,
    );
    assert_eq!(
        run.killed, None,
        "the serve process crossed a bound ({} threads, {} kB resident at most)",
        run.max_threads, run.max_rss_kb
    );
    let replies = by_seq(&run.replies, 2);
    assert_eq!(replies[0]["error"]["code"], "too_large", "{}", replies[0]);
    assert!(
        replies[0]["output"]["throw"]
            .as_str()
            .is_some_and(|t| t.starts_with("Blocked because the hook could not read its input")),
        "{}",
        replies[0]
    );
    assert_eq!(
        replies[1]["output"],
        json!({"throw": "destructive command"})
    );
}

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("buf").extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Serves `input` in-process; the reply frames.
fn serve_lines(router: Router, argv: &str, input: &[u8]) -> Vec<Value> {
    let buf = Buf::default();
    let sink: Sink = Arc::new(Mutex::new(buf.clone()));
    let mut args = agenthooks::runtime::parse_args(&argv.split(' ').collect::<Vec<_>>())
        .expect("argv")
        .expect("agenthooks word");
    args.state_dir =
        Some(std::env::temp_dir().join(format!("ah-security-serve-{}", std::process::id())));
    serve::serve(Arc::new(router), &args, input, sink).expect("serve");
    let out = buf.0.lock().expect("buf").clone();
    String::from_utf8(out)
        .expect("UTF-8 replies")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON reply"))
        .collect()
}

/// Every error reply (a line that is not JSON, not an object, has no
/// `seq`, is too long, names another provider; a frame that does not
/// decode; a handler that panics or times out) carries `output`: the fail
/// policy's answer in the plugin's form. Under fail-closed that is a
/// block, so a plugin that takes the reply as it is still blocks. Before
/// the fix the line-level errors had no `output` at all.
fn every_reply_carries_the_fail_answer() {
    let guard = || router("guard").policy(Policy::fail_closed().timeout_ms(1000));
    let big = format!(
        r#"{{"seq":9,"hook":"tool.execute.before","x":"{}"}}"#,
        "x".repeat(5000)
    );
    let lines = [
        r#"{"hello":{"provider":"opencode","versions":{},"context":{}}}"#.to_string(),
        "not json".into(),
        r#"{"seq":3,"hook":"tool.execute.before","input":{"tool":"bash""#.into(),
        "[1]".into(),
        r#"{"hook":"tool.execute.before"}"#.into(),
        big,
        r#"{"hello":{"provider":"vim"}}"#.into(),
        r#"{"seq":"x3","hook":7}"#.into(),
        String::from_utf8(oc_frame(4, "s", "panic")).expect("utf8"),
        String::from_utf8(oc_frame(5, "s", "slow")).expect("utf8"),
        String::from_utf8(oc_frame(6, "s", "ls")).expect("utf8"),
    ]
    .join("\n");
    let frames = serve_lines(
        guard(),
        "agenthooks serve --provider=opencode --max-bytes=4096",
        lines.as_bytes(),
    );
    assert_eq!(frames.len(), 11, "{frames:#?}");
    assert_eq!(frames[0]["hello"]["policy"]["fail"], "closed");
    let throw = |f: &Value| f["output"]["throw"].as_str().map(str::to_string);
    let mut errors = Vec::new();
    for f in &frames[1..] {
        assert!(f.get("output").is_some(), "a reply without `output`: {f}");
        if f["seq"] == json!(6) {
            assert_eq!(f["output"], Value::Null, "{f}");
            continue;
        }
        let t = throw(f).unwrap_or_else(|| panic!("fail-closed must block: {f}"));
        assert!(t.starts_with("Blocked because the hook"), "{f}");
        errors.push((f["seq"].clone(), f["error"]["code"].clone()));
    }
    errors.sort_by_key(|(s, c)| (s.to_string(), c.to_string()));
    let want = [
        (json!(3), json!("invalid_json")),
        (json!(4), json!("panic")),
        (json!(5), json!("handler_timeout")),
        (json!(9), json!("too_large")),
        (json!("x3"), json!("wrong_type")),
        (Value::Null, json!("invalid_argument")),
        (Value::Null, json!("invalid_argument")),
        (Value::Null, json!("invalid_json")),
        (Value::Null, json!("not_an_object")),
    ];
    let mut want = want.to_vec();
    want.sort_by_key(|(s, c)| (s.to_string(), c.to_string()));
    assert_eq!(errors, want);

    // Fail-open: the same lines, each reply says "no opinion" explicitly.
    let frames = serve_lines(
        router("guard"),
        "agenthooks serve --provider=openclaw --max-bytes=4096",
        b"not json\n{\"seq\":1}\n[]\n{\"seq\":2,\"hook\":\"before_tool_call\",\"event\":{\"toolName\":\"exec\",\"params\":{\"command\":\"panic\"}}}",
    );
    assert_eq!(frames.len(), 4, "{frames:#?}");
    for f in &frames {
        assert_eq!(f.get("output"), Some(&Value::Null), "{f}");
        assert!(f.get("error").is_some(), "{f}");
    }
}

fn main() {
    if let Ok(name) = std::env::var(CHILD) {
        child_main(&name);
    }
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let tests: [(&str, fn()); 5] = [
        (
            "every_reply_carries_the_fail_answer",
            every_reply_carries_the_fail_answer,
        ),
        (
            "flood_of_sessions_stays_bounded",
            flood_of_sessions_stays_bounded,
        ),
        ("hung_handlers_do_not_pile_up", hung_handlers_do_not_pile_up),
        ("big_frames_are_not_buffered", big_frames_are_not_buffered),
        (
            "overlong_line_is_answered_not_kept",
            overlong_line_is_answered_not_kept,
        ),
    ];
    let mut failed = Vec::new();
    for (name, t) in tests {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            continue;
        }
        eprintln!("test {name} ...");
        match std::panic::catch_unwind(t) {
            Ok(()) => eprintln!("test {name} ... ok"),
            Err(_) => {
                eprintln!("test {name} ... FAILED");
                failed.push(name);
            }
        }
    }
    assert!(failed.is_empty(), "failed: {failed:?}");
}
