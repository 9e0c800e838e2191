//! `<program> agenthooks serve --provider=opencode|openclaw`: the author
//! side of the plugin bridges, as NDJSON over stdio.
//!
//! The OpenCode and OpenClaw plugins (`bindings/node/plugins/`) spawn the
//! hook program once and exchange one JSON object per line:
//!
//! ```text
//! plugin  -> program  {"hello": {"provider", "versions", "context"}}   once, first
//! program -> plugin   {"hello": {"provider", "version", "policy", "deadline_ms"}}
//! plugin  -> program  {"seq": n, "hook": ..., ...}    one hook call: the dialect's frame
//! program -> plugin   {"seq": n, "output": {...} | null, "notes"?: [...], "error"?: {"code", "message"}}
//! ```
//!
//! Each request is decoded, run through the router within the deadline and
//! encoded exactly as `agenthooks run` would (`runtime::prepare`, the
//! handlers, `Invocation::complete`). Every rule below lives in the
//! [`crate::bridge`] state machine; this module is the Rust driver over
//! it (a worker pool, handler threads, stdin and stdout), as the Python,
//! Node and Go serve loops are theirs.
//!
//! **Every reply carries `output`**: the dialect's answer (the action
//! object), or `null` for "no opinion". When something failed (a handler
//! error, panic or timeout, a frame that does not decode, the bridge
//! overloaded) `output` is the fail policy's answer and `error` names what
//! failed. A line that is not a request (not JSON, not an object, no
//! `seq`, longer than `--max-bytes`, a hello naming another provider) gets
//! the same kind of reply: `output` is the fail policy's answer for an
//! undecodable frame (under fail-closed, a block whatever the hook), and
//! `seq` is recovered from the line's first bytes when they read
//! `{"seq": <integer or string>,` (the plugins always write `seq` first),
//! else `null`. A reply with `seq: null` cannot be matched to a request:
//! the plugin logs it, and the request (if it was one) is answered by the
//! plugin's own deadline with the fail policy. The loop never stops on bad
//! input. [`step`] is this classification of one line.
//!
//! Bounds (issue 21 §5): a fixed pool of [`Limits::workers`] threads runs
//! the requests; frames of one session are handled in order, sessions in
//! parallel; at most [`Limits::queue`] requests and [`Limits::queue_bytes`]
//! bytes of frames wait or run at once, and while that is full the loop
//! stops reading stdin (the pipe pushes back on the plugin) instead of
//! buffering. A session is tracked only while it has a request waiting or
//! running. A line is never kept beyond `--max-bytes`. A request that
//! waited in the queue past its deadline plus [`STALE_GRACE`] (the plugin
//! has given up on it) is answered by the fail policy (`handler_timeout`)
//! without running; a handler past its deadline is
//! abandoned on its thread, and while [`ABANDONED_CAP`] such handlers are
//! still running, new requests are answered by the fail policy
//! (`handler_error`, [`overloaded`]) instead of starting more threads.
//! Handlers' stray prints go to stderr. End of input: pending requests
//! finish, then the program exits 0.

use std::io::{BufRead, Write};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

pub use crate::bridge::{
    ABANDONED_CAP, HEAD_BYTES, Limits, STALE_GRACE, Step, error_reply, overloaded,
    overloaded_message, recover_seq, reply_frame, step,
};
use crate::bridge::{Bridge, Job, Outcome, Output};
use crate::dialect::DEFAULT_MAX_BYTES;
use crate::error::Error;
use crate::router::Router;
use crate::runtime::{self, RunArgs};

/// Where reply lines go (one `write_all` per line, then a flush).
pub type Sink = Arc<Mutex<dyn Write + Send>>;

/// One input line as [`read_frame`] read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A line within the limit (without the newline and a trailing `\r`).
    Line(Vec<u8>),
    /// A line of `len` bytes over the limit: only its first
    /// [`HEAD_BYTES`] bytes are kept.
    TooLong {
        /// The line's length.
        len: usize,
        /// Its first bytes.
        head: Vec<u8>,
    },
}

/// Reads one line of at most `max` bytes (without the newline). `None` at
/// end of input (or on a read error); a longer line is skipped without
/// being kept in memory, only its first [`HEAD_BYTES`] bytes.
pub fn read_frame(r: &mut impl BufRead, max: usize) -> Option<Frame> {
    let mut line = Vec::new();
    let mut head = Vec::new();
    let mut len = 0usize;
    let mut seen = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if buf.is_empty() {
            break;
        }
        seen = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if head.len() < HEAD_BYTES {
            let take = (HEAD_BYTES - head.len()).min(chunk.len());
            head.extend_from_slice(&chunk[..take]);
        }
        len = len.saturating_add(chunk.len());
        if len <= max {
            line.extend_from_slice(chunk);
        } else if !line.is_empty() {
            line = Vec::new();
        }
        let used = done.unwrap_or(buf.len());
        r.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !seen {
        return None;
    }
    if len > max {
        return Some(Frame::TooLong { len, head });
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Some(Frame::Line(line))
}

fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What the reader, the workers and the handler threads share.
struct Shared {
    router: Arc<Router>,
    bridge: Mutex<Bridge>,
    /// Signalled whenever a job finishes (room to read, or idle).
    changed: Condvar,
    sink: Sink,
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
}

impl Shared {
    /// Writes an output's frames and stderr, then starts its jobs (in
    /// that order: a session's next reply cannot overtake this one).
    fn emit(self: &Arc<Self>, out: Output) {
        for f in &out.frames {
            let mut line = Vec::with_capacity(f.len() + 1);
            line.extend_from_slice(f.as_bytes());
            line.push(b'\n');
            let mut w = lock(&self.sink);
            let _ = w.write_all(&line);
            let _ = w.flush();
        }
        if !out.stderr.is_empty() {
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(out.stderr.as_bytes());
            let _ = err.flush();
        }
        for job in out.jobs {
            let sent = lock(&self.jobs).as_ref().map(|tx| tx.send(job));
            match sent {
                Some(Ok(())) => {}
                // No worker could start: run it here, in order.
                Some(Err(mpsc::SendError(job))) => self.run(job),
                None => {}
            }
        }
    }

    /// One job: the router within the deadline, then its outcome to the
    /// bridge.
    fn run(self: &Arc<Self>, job: Job) {
        let id = job.id;
        let outcome = if self.router.runs_user_code(&job.event) {
            self.decide(job)
        } else {
            // No handler, observer or middleware: nothing can hang.
            Outcome::Done(self.router.decide(&job.event))
        };
        let out = lock(&self.bridge).finish(id, outcome);
        self.changed.notify_all();
        if let Ok(out) = out {
            self.emit(out);
        }
    }

    /// The router on a handler thread, abandoned after the deadline (its
    /// end is reported to the bridge when it comes).
    fn decide(self: &Arc<Self>, job: Job) -> Outcome {
        const RUNNING: u8 = 0;
        const DONE: u8 = 1;
        const ABANDONED: u8 = 2;
        let state = Arc::new(AtomicU8::new(RUNNING));
        let (tx, rx) = mpsc::channel();
        let (st, me, id, event) = (state.clone(), self.clone(), job.id, job.event);
        let spawned = std::thread::Builder::new()
            .name("agenthooks-handler".into())
            .spawn(move || {
                let r = std::panic::catch_unwind(AssertUnwindSafe(|| me.router.decide(&event)));
                if st.swap(DONE, Ordering::SeqCst) == ABANDONED {
                    lock(&me.bridge).abandoned_done(id);
                }
                let _ = tx.send(r);
            });
        if let Err(e) = spawned {
            return Outcome::Done(Err(Error::Io {
                what: "spawning the handler thread".into(),
                source: e,
            }));
        }
        let result = match rx.recv_timeout(Duration::from_millis(job.deadline_ms)) {
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if state
                    .compare_exchange(RUNNING, ABANDONED, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
                {
                    return Outcome::TimedOut;
                }
                // It finished just now: not abandoned.
                rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected)
            }
            other => other,
        };
        Outcome::Done(match result {
            Ok(Ok(r)) => r,
            Ok(Err(p)) => Err(Error::Panic {
                message: runtime::panic_message(p.as_ref()),
            }),
            Err(_) => Err(Error::Panic {
                message: "handler thread died".into(),
            }),
        })
    }
}

/// Runs the serve loop over `input` until end of input, writing reply
/// lines to `sink`, within [`Limits::for_machine`]. `args.provider` must
/// name the provider.
pub fn serve(
    router: Arc<Router>,
    args: &RunArgs,
    input: impl BufRead,
    sink: Sink,
) -> Result<(), Error> {
    let limits = Limits::for_machine(args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES));
    serve_with(router, args, input, sink, limits)
}

/// [`serve`] within the given limits (a zero is taken as 1): the Rust
/// driver of the [`Bridge`]. The reader feeds it lines while it wants
/// input; a pool of [`Limits::workers`] threads runs the jobs it hands
/// out; at end of input the pending requests finish.
pub fn serve_with(
    router: Arc<Router>,
    args: &RunArgs,
    mut input: impl BufRead,
    sink: Sink,
    limits: Limits,
) -> Result<(), Error> {
    let bridge = Bridge::new(args, router.get_policy(), limits)?;
    let (limits, max) = (bridge.limits(), bridge.max_line());
    let (tx, rx) = mpsc::channel::<Job>();
    let shared = Arc::new(Shared {
        router,
        bridge: Mutex::new(bridge),
        changed: Condvar::new(),
        sink,
        jobs: Mutex::new(Some(tx)),
    });
    let rx = Arc::new(Mutex::new(rx));
    let mut workers = Vec::with_capacity(limits.workers);
    for _ in 0..limits.workers {
        let (s, rx) = (shared.clone(), rx.clone());
        let spawned = std::thread::Builder::new()
            .name("agenthooks-serve".into())
            .spawn(move || {
                loop {
                    let job = lock(&rx).recv();
                    match job {
                        Ok(job) => s.run(job),
                        Err(_) => break,
                    }
                }
            });
        match spawned {
            Ok(h) => workers.push(h),
            Err(_) => break,
        }
    }
    drop(rx);
    if workers.is_empty() {
        // No thread could start: jobs run on the reader, in order.
        *lock(&shared.jobs) = None;
    }
    loop {
        {
            let mut b = lock(&shared.bridge);
            while !b.wants_input() {
                b = shared.changed.wait(b).unwrap_or_else(|p| p.into_inner());
            }
        }
        let Some(frame) = read_frame(&mut input, max) else {
            break;
        };
        let out = {
            let mut b = lock(&shared.bridge);
            match &frame {
                Frame::Line(l) => b.feed(l),
                Frame::TooLong { len, head } => b.feed_too_long(*len, head),
            }
        };
        if workers.is_empty() {
            run_inline(&shared, out);
        } else {
            shared.emit(out);
        }
    }
    {
        let mut b = lock(&shared.bridge);
        while !b.idle() {
            b = shared.changed.wait(b).unwrap_or_else(|p| p.into_inner());
        }
    }
    *lock(&shared.jobs) = None;
    for h in workers {
        let _ = h.join();
    }
    Ok(())
}

/// Without workers: an output's frames, then its jobs one after another
/// on this thread (each job's output likewise).
fn run_inline(shared: &Arc<Shared>, out: Output) {
    let mut pending: std::collections::VecDeque<Output> = [out].into();
    while let Some(mut out) = pending.pop_front() {
        let jobs = std::mem::take(&mut out.jobs);
        shared.emit(out);
        for job in jobs {
            let id = job.id;
            let outcome = if shared.router.runs_user_code(&job.event) {
                shared.decide(job)
            } else {
                Outcome::Done(shared.router.decide(&job.event))
            };
            if let Ok(o) = lock(&shared.bridge).finish(id, outcome) {
                pending.push_back(o);
            }
        }
    }
}

/// Writes through the real stdout while fd 1 points at stderr.
struct GuardSink(runtime::StdoutGuard);

impl Write for GuardSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write_answer(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The `serve` command of a hook program: stdin → router → stdout, with
/// handlers' prints diverted to stderr. Returns the exit code.
pub fn serve_process(router: Router, args: &RunArgs) -> i32 {
    let sink: Sink = Arc::new(Mutex::new(GuardSink(runtime::StdoutGuard::divert())));
    let stdin = std::io::stdin();
    match serve(Arc::new(router), args, stdin.lock(), sink) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("agenthooks: {}: {e}", e.code());
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Decision, Policy};
    use serde_json::{Value, json};

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn run_lines(router: Router, provider: &str, input: &str) -> Vec<Value> {
        let buf = Buf::default();
        let sink: Sink = Arc::new(Mutex::new(buf.clone()));
        let dir = std::env::temp_dir().join(format!("ah-serve-{}", std::process::id()));
        let args = RunArgs {
            command: "serve".into(),
            provider: Some(provider.into()),
            max_bytes: Some(4096),
            state_dir: Some(dir),
            ..RunArgs::default()
        };
        serve(Arc::new(router), &args, input.as_bytes(), sink).unwrap();
        let out = buf.0.lock().unwrap().clone();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    fn by_seq(frames: &[Value], seq: Value) -> &Value {
        frames
            .iter()
            .find(|f| f.get("seq") == Some(&seq))
            .unwrap_or_else(|| panic!("no reply for {seq}: {frames:?}"))
    }

    fn guard() -> Router {
        let mut r = Router::new();
        r.on_tool_pre(|e| {
            if e.tool.command().contains("rm -rf") {
                Decision::deny("destructive command")
            } else {
                Decision::no_decision()
            }
        });
        r
    }

    #[test]
    fn hello_requests_errors_and_big_lines() {
        let big = format!("{{\"seq\":9,\"x\":\"{}\"}}", "x".repeat(5000));
        let input = [
            r#"{"hello":{"provider":"opencode","versions":{"opencode":"1.18.33"},"context":{}}}"#,
            r#"{"seq":1,"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"s","callID":"c1"},"output":{"args":{"command":"rm -rf /"}}}"#,
            r#"{"seq":2,"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"s","callID":"c2"},"output":{"args":{"command":"ls"}}}"#,
            "not json",
            "",
            r#"{"hook":"tool.execute.before"}"#,
            &big,
            r#"{"seq":"x3","hook":7}"#,
            r#"{"hello":{"provider":"openclaw"}}"#,
        ]
        .join("\n");
        let frames = run_lines(guard(), "opencode", &input);
        assert_eq!(frames.len(), 8, "{frames:?}");
        assert_eq!(frames[0]["hello"]["provider"], "opencode");
        assert_eq!(frames[0]["hello"]["policy"]["fail"], "open");
        assert_eq!(
            by_seq(&frames, json!(1))["output"],
            json!({"throw": "destructive command"})
        );
        assert_eq!(by_seq(&frames, json!(2)).get("output"), Some(&Value::Null));
        let errors: Vec<&str> = frames
            .iter()
            .filter(|f| f.get("seq") == Some(&Value::Null))
            .map(|f| f["error"]["code"].as_str().unwrap())
            .collect();
        assert_eq!(
            errors,
            ["invalid_json", "invalid_argument", "invalid_argument"]
        );
        // The overlong line's seq comes from its first bytes.
        assert_eq!(by_seq(&frames, json!(9))["error"]["code"], "too_large");
        // A frame that does not decode: the fail policy's answer, plus the error.
        let bad = by_seq(&frames, json!("x3"));
        assert_eq!(bad["error"]["code"], "wrong_type");
        assert_eq!(bad.get("output"), Some(&Value::Null));
    }

    #[test]
    fn one_session_in_order_and_fail_closed_on_timeout() {
        let mut r = Router::new().policy(Policy::fail_closed().timeout_ms(100));
        r.on_tool_pre(|e| {
            if e.tool.command() == "slow" {
                std::thread::sleep(Duration::from_millis(400));
            }
            Decision::no_decision()
        });
        let mut lines = Vec::new();
        for (i, cmd) in ["slow", "a", "b"].iter().enumerate() {
            lines.push(format!(
                r#"{{"seq":{i},"hook":"before_tool_call","event":{{"toolName":"exec","params":{{"command":"{cmd}"}},"toolCallId":"t{i}"}},"ctx":{{"sessionId":"one"}}}}"#
            ));
        }
        let frames = run_lines(r, "openclaw", &lines.join("\n"));
        let order: Vec<i64> = frames.iter().map(|f| f["seq"].as_i64().unwrap()).collect();
        assert_eq!(order, [0, 1, 2]);
        assert_eq!(frames[0]["output"]["block"], true);
        assert_eq!(frames[0]["error"]["code"], "handler_timeout");
        assert_eq!(frames[1].get("output"), Some(&Value::Null));
    }

    #[test]
    fn read_frame_bounds() {
        let line = |s: &[u8]| Some(Frame::Line(s.to_vec()));
        let mut r = "ab\r\n\ncd".as_bytes();
        assert_eq!(read_frame(&mut r, 10), line(b"ab"));
        assert_eq!(read_frame(&mut r, 10), line(b""));
        assert_eq!(read_frame(&mut r, 10), line(b"cd"));
        assert_eq!(read_frame(&mut r, 10), None);
        let mut r = "abcdef\nx\n".as_bytes();
        assert_eq!(
            read_frame(&mut r, 3),
            Some(Frame::TooLong {
                len: 6,
                head: b"abcdef".to_vec()
            })
        );
        assert_eq!(read_frame(&mut r, 3), line(b"x"));
        // The head is capped; the rest of a long line is not kept.
        let long = format!("{}\n", "y".repeat(10_000));
        let mut r = std::io::BufReader::with_capacity(7, long.as_bytes());
        match read_frame(&mut r, 100) {
            Some(Frame::TooLong { len, head }) => {
                assert_eq!((len, head.len()), (10_000, HEAD_BYTES));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn seq_from_the_first_bytes() {
        let seq = |s: &str| recover_seq(s.as_bytes());
        assert_eq!(seq(r#"{"seq":12,"hook":"#), Some(json!(12)));
        assert_eq!(seq(r#" { "seq" : -3 , broken"#), Some(json!(-3)));
        assert_eq!(seq(r#"{"seq":"a\"b","#), Some(json!("a\"b")));
        assert_eq!(seq(r#"{"seq":7}"#), Some(json!(7)));
        for bad in [
            r#"{"hook":"x","seq":1,"#,
            r#"{"seq":1.5,"#,
            r#"{"seq":01,"#,
            r#"{"seq":1"#,
            r#"{"seq":true,"#,
            r#"{"seq":"\ud800","#,
            r#"{"seq":99999999999999999999999,"#,
            r#"[{"seq":1,"#,
            "not json",
            "",
        ] {
            assert_eq!(seq(bad), None, "{bad}");
        }
        let long = format!(r#"{{"seq":"{}","#, "s".repeat(HEAD_BYTES));
        assert_eq!(seq(&long), None);
    }

    #[test]
    fn overloaded_message_names_the_cap() {
        assert!(overloaded_message().starts_with(&format!("{ABANDONED_CAP} handlers")));
    }
}
