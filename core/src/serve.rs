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
//! handlers, `Invocation::complete`).
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
//! input. [`step`] is this classification of one line, shared with the
//! Python and Go serve loops so that all three reply alike
//! (`fixtures/serve/`).
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

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, Write};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use crate::dialect::{self, DEFAULT_MAX_BYTES, parse_object};
use crate::error::Error;
use crate::model::{Decision, Event, Policy, Provider, Response};
use crate::router::Router;
use crate::runtime::{self, RunArgs};

/// How many leading bytes of a line are kept to recover its `seq` when
/// the line is too long or does not parse.
pub const HEAD_BYTES: usize = 256;

/// Handlers past their deadline that may still be running before new
/// requests are refused (answered by the fail policy without running).
pub const ABANDONED_CAP: usize = 32;

/// A request that waited in the queue longer than its deadline plus this
/// is answered by the fail policy without running: the plugin waits the
/// deadline plus 500 ms (`bindings/node/plugins/common.js`), so nobody is
/// waiting for it any more.
pub const STALE_GRACE: Duration = Duration::from_millis(500);

/// Where reply lines go (one `write_all` per line, then a flush).
pub type Sink = Arc<Mutex<dyn Write + Send>>;

/// The bounds of the serve loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Threads running requests.
    pub workers: usize,
    /// Requests waiting for a worker; the loop stops reading while full.
    pub queue: usize,
    /// Bytes of frames waiting or running; the loop stops reading while
    /// a frame would cross it (a frame alone is always admitted).
    pub queue_bytes: usize,
    /// Handlers past their deadline that may still run (see [`ABANDONED_CAP`]).
    pub abandoned: usize,
}

impl Limits {
    /// The defaults for this machine and frame limit: `workers` = twice
    /// the available cores, at least 2 and at most 16 (handlers mostly
    /// wait on I/O or on nothing, so two per core keeps the cores busy
    /// while some block; past 16 more threads only add memory, and a
    /// session's frames run one at a time anyway); `queue` = 4 per
    /// worker; `queue_bytes` = the frame limit, at least 16 MiB.
    pub fn for_machine(max_bytes: usize) -> Limits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let workers = cores.saturating_mul(2).clamp(2, 16);
        Limits {
            workers,
            queue: workers.saturating_mul(4),
            queue_bytes: max_bytes.max(16 << 20),
            abandoned: ABANDONED_CAP,
        }
    }
}

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

/// What the serve loop does with one line.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// A blank line: nothing.
    Skip,
    /// Write this frame (the hello reply, or the reply to a line that is
    /// not a request); nothing runs.
    Reply(Value),
    /// A request: run the whole line as the dialect's payload
    /// (`runtime::prepare`, the handlers, `complete`) and reply with
    /// [`reply_frame`]. Requests of one `session` run in order.
    Request {
        /// The request's `seq` (a number or a string).
        seq: Value,
        /// Its session id (`""` when it names none).
        session: String,
    },
}

/// Classifies one input line (`too_long`: the line was longer than the
/// limit and `line` holds only its first bytes). `policy` is the router's;
/// `--fail` in `args` overrides it, as in `runtime::prepare`. Pure: the
/// Rust, Python and Go serve loops all call it.
pub fn step(
    provider: Provider,
    args: &RunArgs,
    policy: &Policy,
    line: &[u8],
    too_long: Option<usize>,
) -> Step {
    let mut policy = policy.clone();
    if let Some(f) = args.fail {
        policy.fail = f;
    }
    let max = args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES);
    let fail = |seq: Option<Value>, e: Error| {
        Step::Reply(error_reply(
            provider,
            &policy,
            seq.unwrap_or(Value::Null),
            &e,
        ))
    };
    if too_long.is_some() {
        return fail(
            recover_seq(line),
            Error::TooLarge {
                what: "frame",
                limit: max,
            },
        );
    }
    if line.iter().all(u8::is_ascii_whitespace) {
        return Step::Skip;
    }
    let map = match parse_object(line, max) {
        Ok(m) => m,
        Err(e) => return fail(recover_seq(line), e),
    };
    if let Some(h) = map.get("hello") {
        if let Some(p) = h.get("provider").and_then(Value::as_str) {
            if Provider::parse(p).ok() != Some(provider) {
                return fail(
                    None,
                    Error::InvalidArgument {
                        message: format!(
                            "hello names provider `{p}` but this program serves `{}`",
                            provider.id()
                        ),
                    },
                );
            }
        }
        return Step::Reply(json!({
            "hello": {
                "provider": provider.id(),
                "version": env!("CARGO_PKG_VERSION"),
                "policy": serde_json::to_value(&policy).unwrap_or(Value::Null),
                "deadline_ms": policy.deadline_ms(args.timeout_s),
            }
        }));
    }
    match map.get("seq") {
        Some(v @ (Value::Number(_) | Value::String(_))) => Step::Request {
            seq: v.clone(),
            session: session_key(&map),
        },
        _ => fail(
            None,
            Error::InvalidArgument {
                message: "a request frame needs a `seq` (number or string)".into(),
            },
        ),
    }
}

/// The `seq` of a line that is too long or does not parse, from its
/// first [`HEAD_BYTES`] bytes: they must read `{"seq": <v>` followed by
/// `,` or `}` (JSON whitespace allowed between tokens), `<v>` an integer
/// (`-?(0|[1-9][0-9]*)` within the 64-bit range) or a JSON string.
pub fn recover_seq(line: &[u8]) -> Option<Value> {
    let head = &line[..line.len().min(HEAD_BYTES)];
    let ws = |mut i: usize| {
        while matches!(head.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            i += 1;
        }
        i
    };
    let mut i = ws(0);
    if head.get(i) != Some(&b'{') {
        return None;
    }
    i = ws(i + 1);
    if !head.get(i..)?.starts_with(b"\"seq\"") {
        return None;
    }
    i = ws(i + 5);
    if head.get(i) != Some(&b':') {
        return None;
    }
    i = ws(i + 1);
    let start = i;
    match head.get(i)? {
        b'"' => {
            i += 1;
            loop {
                match head.get(i)? {
                    b'\\' => i += 2,
                    b'"' => {
                        i += 1;
                        break;
                    }
                    _ => i += 1,
                }
            }
        }
        b'-' | b'0'..=b'9' => {
            if head[i] == b'-' {
                i += 1;
            }
            while head.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        _ => return None,
    }
    let token = head.get(start..i)?;
    if !matches!(head.get(ws(i)), Some(b',' | b'}')) {
        return None;
    }
    match serde_json::from_slice::<Value>(token).ok()? {
        v @ Value::String(_) => Some(v),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(Value::Number(n)),
        _ => None,
    }
}

/// The session a frame belongs to, for ordering: the first session id
/// found in the frame's usual places (OpenCode `input.sessionID`,
/// `input.info.id`, `input.part.sessionID`; OpenClaw `ctx.sessionId`,
/// `event.sessionId`, `ctx.sessionKey`); `""` when none.
fn session_key(frame: &Map<String, Value>) -> String {
    let paths: [&[&str]; 9] = [
        &["input", "sessionID"],
        &["input", "info", "sessionID"],
        &["input", "info", "id"],
        &["input", "part", "sessionID"],
        &["ctx", "sessionId"],
        &["event", "sessionId"],
        &["ctx", "sessionKey"],
        &["event", "sessionKey"],
        &["input", "sessionId"],
    ];
    for path in paths {
        let mut v = frame.get(path[0]);
        for k in &path[1..] {
            v = v.and_then(|x| x.get(*k));
        }
        if let Some(Value::String(s)) = v {
            return s.clone();
        }
    }
    String::new()
}

/// `output` of a response: its stdout JSON, `null` when empty (or, never
/// expected, not JSON: then the error says so).
fn output_of(r: &Response) -> (Value, Option<Value>) {
    let text = r.stdout.trim();
    if text.is_empty() {
        return (Value::Null, None);
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v) => (v, None),
        Err(e) => (
            Value::Null,
            Some(json!({"code": "io", "message": format!("the answer is not JSON: {e}")})),
        ),
    }
}

/// The reply to a line that is not a request, or a request that could not
/// be answered: `output` is the fail policy's answer for an undecodable
/// frame of `provider` (`policy` is the effective one), `error` names `e`.
pub fn error_reply(provider: Provider, policy: &Policy, seq: Value, e: &Error) -> Value {
    let r = dialect::fail_response(provider, None, e, policy);
    let (output, _) = output_of(&r);
    let mut out = Map::new();
    out.insert("seq".into(), seq);
    out.insert("output".into(), output);
    if !r.notes.is_empty() {
        out.insert(
            "notes".into(),
            serde_json::to_value(&r.notes).unwrap_or(Value::Null),
        );
    }
    out.insert(
        "error".into(),
        json!({"code": e.code().as_str(), "message": e.to_string()}),
    );
    Value::Object(out)
}

/// `{"seq", "output", "notes"?, "error"?}` for a response: `output` is the
/// stdout JSON (`null` when empty: no opinion); `error` is set when the
/// fail policy answered (its note names the error code).
pub fn reply_frame(seq: Value, r: &Response) -> Value {
    let mut out = Map::new();
    out.insert("seq".into(), seq);
    let (output, bad) = output_of(r);
    out.insert("output".into(), output);
    if let Some(b) = bad {
        out.insert("error".into(), b);
    }
    if !r.notes.is_empty() {
        out.insert(
            "notes".into(),
            serde_json::to_value(&r.notes).unwrap_or(Value::Null),
        );
    }
    if let Some(n) = r
        .notes
        .iter()
        .find(|n| n.code == "fail_open" || n.code == "fail_closed")
    {
        out.entry("error").or_insert_with(|| {
            json!({
                "code": n.from.clone().unwrap_or_else(|| "handler_error".into()),
                "message": r.stderr.trim(),
            })
        });
    }
    Value::Object(out)
}

/// The error a request is answered with when [`ABANDONED_CAP`] handlers
/// are still running past their deadline (the fail policy answers it).
pub fn overloaded() -> Error {
    Error::Handler {
        message: overloaded_message().into(),
    }
}

/// The message of [`overloaded`] (for the bindings' serve loops).
pub fn overloaded_message() -> &'static str {
    "32 handlers are still running past their deadline; this request was not run (the bridge is overloaded)"
}

fn write_line(sink: &Sink, v: &Value) {
    let mut line = serde_json::to_vec(v).unwrap_or_else(|_| b"{}".to_vec());
    line.push(b'\n');
    let mut w = sink.lock().unwrap_or_else(|p| p.into_inner());
    let _ = w.write_all(&line);
    let _ = w.flush();
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// One request waiting for a worker.
struct Job {
    seq: Value,
    line: Vec<u8>,
    at: Instant,
}

/// A session with requests waiting or running.
#[derive(Default)]
struct Session {
    jobs: VecDeque<Job>,
    running: bool,
}

#[derive(Default)]
struct QueueState {
    sessions: HashMap<String, Session>,
    /// Sessions with a job waiting and none running, oldest first.
    ready: VecDeque<String>,
    /// Jobs waiting.
    queued: usize,
    /// Frame bytes waiting or running.
    bytes: usize,
    closed: bool,
}

/// The bounded, per-session-ordered queue between the reader and the
/// workers.
#[derive(Default)]
struct Queue {
    state: Mutex<QueueState>,
    work: Condvar,
    space: Condvar,
}

impl Queue {
    /// Adds a job; blocks while the queue is full.
    fn submit(&self, key: String, job: Job, limits: &Limits) {
        let len = job.line.len();
        let mut st = lock(&self.state);
        while !(st.queued == 0 && st.bytes == 0)
            && (st.queued >= limits.queue || st.bytes.saturating_add(len) > limits.queue_bytes)
        {
            st = self.space.wait(st).unwrap_or_else(|p| p.into_inner());
        }
        let st = &mut *st;
        st.queued += 1;
        st.bytes = st.bytes.saturating_add(len);
        let s = st.sessions.entry(key.clone()).or_default();
        s.jobs.push_back(job);
        if !s.running && s.jobs.len() == 1 {
            st.ready.push_back(key);
            self.work.notify_one();
        }
    }

    /// The next job to run, with its session; `None` once closed and drained.
    fn next(&self) -> Option<(String, Job)> {
        let mut guard = lock(&self.state);
        loop {
            let st = &mut *guard;
            while let Some(key) = st.ready.pop_front() {
                let Some(s) = st.sessions.get_mut(&key) else {
                    continue;
                };
                let Some(job) = s.jobs.pop_front() else {
                    continue;
                };
                s.running = true;
                st.queued = st.queued.saturating_sub(1);
                self.space.notify_one();
                return Some((key, job));
            }
            if st.closed {
                return None;
            }
            guard = self.work.wait(guard).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// A job of `key` of `len` bytes finished.
    fn done(&self, key: &str, len: usize) {
        let mut guard = lock(&self.state);
        let st = &mut *guard;
        st.bytes = st.bytes.saturating_sub(len);
        if let Some(s) = st.sessions.get_mut(key) {
            s.running = false;
            if s.jobs.is_empty() {
                // A session with nothing waiting is not tracked.
                st.sessions.remove(key);
            } else {
                st.ready.push_back(key.to_string());
                self.work.notify_one();
            }
        }
        self.space.notify_one();
    }

    fn close(&self) {
        lock(&self.state).closed = true;
        self.work.notify_all();
    }
}

/// What the workers share.
struct Shared {
    router: Arc<Router>,
    args: RunArgs,
    provider: Provider,
    sink: Sink,
    limits: Limits,
    queue: Queue,
    /// Handlers past their deadline still running.
    abandoned: Arc<AtomicUsize>,
}

impl Shared {
    fn work(&self) {
        while let Some((key, job)) = self.queue.next() {
            let len = job.line.len();
            self.process(job);
            self.queue.done(&key, len);
        }
    }

    fn process(&self, job: Job) {
        let seq = job.seq.clone();
        let stderr = match std::panic::catch_unwind(AssertUnwindSafe(|| {
            let resp = self.answer(job);
            (reply_frame(seq.clone(), &resp), resp.stderr)
        })) {
            Ok((frame, stderr)) => {
                write_line(&self.sink, &frame);
                stderr
            }
            Err(p) => {
                // A bug below the handlers: still the fail policy's answer.
                let e = Error::Panic {
                    message: runtime::panic_message(p.as_ref()),
                };
                let policy = runtime::effective_policy(&self.router, &self.args);
                write_line(&self.sink, &error_reply(self.provider, &policy, seq, &e));
                format!("agenthooks: {}: {e}\n", e.code())
            }
        };
        if !stderr.is_empty() {
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(stderr.as_bytes());
            let _ = err.flush();
        }
    }

    /// One request, as `agenthooks run` answers it, within the bounds.
    fn answer(&self, job: Job) -> Response {
        let inv = match runtime::prepare(&self.args, self.router.get_policy(), Ok(job.line)) {
            Ok(inv) => inv,
            Err(r) => return r,
        };
        let deadline = Duration::from_millis(inv.deadline_ms);
        let outcome = if job.at.elapsed() >= deadline.saturating_add(STALE_GRACE) {
            // It waited in the queue so long that the plugin has given up
            // on it: answer at once instead of running it.
            Err(Error::HandlerTimeout {
                ms: inv.deadline_ms,
            })
        } else if !self.router.runs_user_code(&inv.event) {
            // No handler, observer or middleware: nothing can hang.
            self.router.decide(&inv.event)
        } else {
            self.decide(Arc::clone(&inv.event), deadline, inv.deadline_ms)
        };
        inv.complete(outcome)
    }

    /// The router on a handler thread, abandoned after `wait`; refused
    /// while too many abandoned handlers still run.
    fn decide(
        &self,
        event: Arc<Event>,
        wait: Duration,
        deadline_ms: u64,
    ) -> Result<Decision, Error> {
        const RUNNING: u8 = 0;
        const DONE: u8 = 1;
        const ABANDONED: u8 = 2;
        if self.abandoned.load(Ordering::SeqCst) >= self.limits.abandoned {
            return Err(overloaded());
        }
        let state = Arc::new(AtomicU8::new(RUNNING));
        let (tx, rx) = mpsc::channel();
        let router = self.router.clone();
        let (st, abandoned) = (state.clone(), self.abandoned.clone());
        let spawned = std::thread::Builder::new()
            .name("agenthooks-handler".into())
            .spawn(move || {
                let r = std::panic::catch_unwind(AssertUnwindSafe(|| router.decide(&event)));
                if st.swap(DONE, Ordering::SeqCst) == ABANDONED {
                    abandoned.fetch_sub(1, Ordering::SeqCst);
                }
                let _ = tx.send(r);
            });
        if let Err(e) = spawned {
            return Err(Error::Io {
                what: "spawning the handler thread".into(),
                source: e,
            });
        }
        match rx.recv_timeout(wait) {
            Ok(Ok(r)) => r,
            Ok(Err(p)) => Err(Error::Panic {
                message: runtime::panic_message(p.as_ref()),
            }),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                self.abandoned.fetch_add(1, Ordering::SeqCst);
                if state
                    .compare_exchange(RUNNING, ABANDONED, Ordering::SeqCst, Ordering::SeqCst)
                    .is_err()
                {
                    // It finished just now: not abandoned.
                    self.abandoned.fetch_sub(1, Ordering::SeqCst);
                }
                Err(Error::HandlerTimeout { ms: deadline_ms })
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(Error::Panic {
                message: "handler thread died".into(),
            }),
        }
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

/// [`serve`] within the given limits (a zero is taken as 1).
pub fn serve_with(
    router: Arc<Router>,
    args: &RunArgs,
    mut input: impl BufRead,
    sink: Sink,
    limits: Limits,
) -> Result<(), Error> {
    let provider = match args.provider.as_deref() {
        Some(p) => Provider::parse(p)?,
        None => {
            return Err(Error::InvalidArgument {
                message: "`serve` needs --provider (opencode or openclaw)".into(),
            });
        }
    };
    let limits = Limits {
        workers: limits.workers.max(1),
        queue: limits.queue.max(1),
        queue_bytes: limits.queue_bytes.max(1),
        abandoned: limits.abandoned.max(1),
    };
    let max = args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES);
    let shared = Arc::new(Shared {
        router,
        args: args.clone(),
        provider,
        sink,
        limits,
        queue: Queue::default(),
        abandoned: Arc::new(AtomicUsize::new(0)),
    });
    let mut workers = Vec::with_capacity(limits.workers);
    for _ in 0..limits.workers {
        let s = shared.clone();
        match std::thread::Builder::new()
            .name("agenthooks-serve".into())
            .spawn(move || s.work())
        {
            Ok(h) => workers.push(h),
            Err(_) => break,
        }
    }
    let policy = shared.router.get_policy().clone();
    while let Some(frame) = read_frame(&mut input, max) {
        let (line, too_long) = match frame {
            Frame::Line(l) => (l, None),
            Frame::TooLong { len, head } => (head, Some(len)),
        };
        match step(provider, &shared.args, &policy, &line, too_long) {
            Step::Skip => {}
            Step::Reply(v) => write_line(&shared.sink, &v),
            Step::Request { seq, session } => {
                let job = Job {
                    seq,
                    line,
                    at: Instant::now(),
                };
                if workers.is_empty() {
                    // No thread could start: answer here, in order.
                    shared.process(job);
                } else {
                    shared.queue.submit(session, job, &limits);
                }
            }
        }
    }
    shared.queue.close();
    for h in workers {
        let _ = h.join();
    }
    Ok(())
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
    use crate::model::Policy;

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
    fn queue_bounds_and_frees_sessions() {
        let q = Queue::default();
        let limits = Limits {
            workers: 1,
            queue: 2,
            queue_bytes: 10,
            abandoned: 1,
        };
        let job = |n: usize| Job {
            seq: json!(n),
            line: vec![b'x'; n],
            at: Instant::now(),
        };
        q.submit("a".into(), job(4), &limits);
        q.submit("a".into(), job(4), &limits);
        // Session `a` is ordered: its second job waits for the first.
        let (k, j) = q.next().unwrap();
        assert_eq!((k.as_str(), j.seq.clone()), ("a", json!(4)));
        assert!(lock(&q.state).ready.is_empty());
        q.done("a", 4);
        let (_, j) = q.next().unwrap();
        assert_eq!(j.line.len(), 4);
        q.done("a", 4);
        assert!(
            lock(&q.state).sessions.is_empty(),
            "finished sessions are freed"
        );
        // A frame larger than the byte budget is admitted alone.
        q.submit("b".into(), job(50), &limits);
        assert_eq!(lock(&q.state).bytes, 50);
        q.close();
        assert!(q.next().is_some());
        q.done("b", 50);
        assert!(q.next().is_none());
        assert_eq!(lock(&q.state).bytes, 0);
    }

    #[test]
    fn overloaded_message_names_the_cap() {
        assert!(overloaded_message().starts_with(&format!("{ABANDONED_CAP} handlers")));
    }
}
