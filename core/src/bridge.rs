//! The serve bridge as a state machine: the whole behaviour of
//! `<program> agenthooks serve` except moving bytes and calling handlers,
//! so that every language's serve loop is a thin driver over the same
//! rules (the Rust `serve` module, the C ABI `ah_bridge_*`, Python, Node, Go).
//!
//! A driver feeds it input lines ([`Bridge::feed`], or
//! [`Bridge::feed_too_long`] for a line over `--max-bytes`) and hands it
//! each job's outcome ([`Bridge::finish`]); each call returns an [`Output`]:
//! reply frames to write (in that order, each plus `\n`), text for stderr,
//! and the handler [`Job`]s that are now ready to run (each with its
//! decoded event and deadline). The machine owns:
//!
//! - which line is a request, the hello reply, and the reply to every line
//!   that is not a request ([`step`]; protocol in the `serve` module);
//! - per-session order: a session's next request is handed out only when
//!   its previous one is finished, sessions run in parallel;
//! - the bounds: at most [`Limits::queue`] requests and
//!   [`Limits::queue_bytes`] bytes of frames waiting or running; while that
//!   is full [`Bridge::wants_input`] is false and the driver stops reading
//!   (the pipe pushes back on the plugin);
//! - a request that waited past its deadline plus [`STALE_GRACE`] is
//!   answered by the fail policy (`handler_timeout`) without running;
//! - handlers past their deadline ([`Outcome::TimedOut`]) count as
//!   abandoned until the driver reports them done
//!   ([`Bridge::abandoned_done`]); while [`Limits::abandoned`] of them
//!   still run, requests are answered by the fail policy ([`overloaded`])
//!   instead of being handed out;
//! - decoding each request (`runtime::prepare`) and encoding its answer
//!   (`Invocation::complete`) into the reply frame.
//!
//! What each driver keeps: reading lines within `--max-bytes`, running a
//! job's handlers on its own workers within the job's deadline (threads,
//! goroutines, promises), and writing frames. A driver must report every
//! job it was given exactly once.

use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use crate::dialect::{self, DEFAULT_MAX_BYTES, parse_object};
use crate::error::Error;
use crate::model::{Decision, Event, Policy, Provider, Response};
use crate::runtime::{self, Invocation, RunArgs};

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

/// The bounds of the serve loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Threads running requests.
    pub workers: usize,
    /// Requests waiting or running; the driver stops reading while full.
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
    /// worker waiting plus one running; `queue_bytes` = the frame limit,
    /// at least 16 MiB.
    pub fn for_machine(max_bytes: usize) -> Limits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let workers = cores.saturating_mul(2).clamp(2, 16);
        Limits {
            workers,
            queue: workers.saturating_mul(5),
            queue_bytes: max_bytes.max(16 << 20),
            abandoned: ABANDONED_CAP,
        }
    }
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
/// [`Bridge`] calls it for every line.
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

/// The message of [`overloaded`].
pub fn overloaded_message() -> &'static str {
    "32 handlers are still running past their deadline; this request was not run (the bridge is overloaded)"
}

/// A request handed to the driver: run the handlers on `event` within
/// `deadline_ms`, then report the outcome with [`Bridge::finish`]`(id, ..)`.
#[derive(Debug, Clone)]
pub struct Job {
    /// Names the job in [`Bridge::finish`] and [`Bridge::abandoned_done`].
    pub id: u64,
    /// The request's `seq` (a number or a string).
    pub seq: Value,
    /// Its session (`""` when the frame names none).
    pub session: String,
    /// The decoded event.
    pub event: Arc<Event>,
    /// The handler deadline in milliseconds.
    pub deadline_ms: u64,
}

/// How a job's handlers ended.
// Passed once by value per job; boxing the decision would only add an
// allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Outcome {
    /// They returned in time: a decision, or the error (a handler error, a
    /// panic / exception) that the fail policy answers.
    Done(Result<Decision, Error>),
    /// The deadline passed; the handlers are abandoned and may still run:
    /// report their end with [`Bridge::abandoned_done`].
    TimedOut,
}

/// What the driver does after a call: write `frames` (in order, each plus
/// `\n`), write `stderr`, then start `jobs`.
#[derive(Debug, Default)]
pub struct Output {
    /// Reply lines (JSON, without the newline).
    pub frames: Vec<String>,
    /// Diagnostics for stderr (the answers' stderr).
    pub stderr: String,
    /// Jobs that are ready to run now.
    pub jobs: Vec<Job>,
}

impl Output {
    fn frame(&mut self, v: &Value) {
        self.frames
            .push(serde_json::to_string(v).unwrap_or_else(|_| "{}".into()));
    }
}

/// A request waiting for its session's previous one.
#[derive(Debug)]
struct Waiting {
    seq: Value,
    line: Vec<u8>,
    at: Instant,
}

/// A job handed out and not finished.
#[derive(Debug)]
struct Running {
    seq: Value,
    session: String,
    len: usize,
    inv: Invocation,
    /// [`Bridge::abandoned_done`] came before [`Outcome::TimedOut`] (the
    /// handlers returned just as the driver gave up on them).
    ended: bool,
}

/// The serve bridge's state (module docs). Not thread-safe by itself: a
/// driver with several workers holds it behind a lock; every call is
/// short (decoding one frame at most, never a handler).
#[derive(Debug)]
pub struct Bridge {
    provider: Provider,
    args: RunArgs,
    /// The router's policy (`--fail` applies on top, per request).
    policy: Policy,
    limits: Limits,
    /// Sessions with a job running: the requests waiting behind it.
    sessions: HashMap<String, VecDeque<Waiting>>,
    running: HashMap<u64, Running>,
    /// Requests waiting or running.
    pending: usize,
    /// Frame bytes waiting or running.
    bytes: usize,
    /// Jobs past their deadline whose handlers still run.
    abandoned: HashMap<u64, ()>,
    next_id: u64,
}

impl Bridge {
    /// A bridge for `args` (from `runtime::launch`'s serve plan; `--provider`
    /// must name the provider) and the router's `policy`, within `limits`
    /// (a zero is taken as 1). Fails with `invalid_argument` (no
    /// `--provider`) or `unknown_provider`.
    pub fn new(args: &RunArgs, policy: &Policy, limits: Limits) -> Result<Bridge, Error> {
        let provider = match args.provider.as_deref() {
            Some(p) => Provider::parse(p)?,
            None => {
                return Err(Error::InvalidArgument {
                    message: "`serve` needs --provider (opencode or openclaw)".into(),
                });
            }
        };
        Ok(Bridge {
            provider,
            args: args.clone(),
            policy: policy.clone(),
            limits: Limits {
                workers: limits.workers.max(1),
                queue: limits.queue.max(1),
                queue_bytes: limits.queue_bytes.max(1),
                abandoned: limits.abandoned.max(1),
            },
            sessions: HashMap::new(),
            running: HashMap::new(),
            pending: 0,
            bytes: 0,
            abandoned: HashMap::new(),
            next_id: 1,
        })
    }

    /// [`Bridge::new`] within [`Limits::for_machine`].
    pub fn for_machine(args: &RunArgs, policy: &Policy) -> Result<Bridge, Error> {
        let max = args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES);
        Bridge::new(args, policy, Limits::for_machine(max))
    }

    /// The bounds in force (drivers size their worker pools by
    /// `workers`).
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The longest line to accept (`--max-bytes`, else the default);
    /// longer lines go to [`Bridge::feed_too_long`].
    pub fn max_line(&self) -> usize {
        self.args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES)
    }

    /// Whether the driver may read another line: false while
    /// [`Limits::queue`] requests or [`Limits::queue_bytes`] bytes wait or
    /// run (never while nothing does).
    pub fn wants_input(&self) -> bool {
        self.pending == 0
            || (self.pending < self.limits.queue && self.bytes < self.limits.queue_bytes)
    }

    /// Whether no request waits or runs (abandoned handlers aside): at end
    /// of input a driver waits for this, then exits.
    pub fn idle(&self) -> bool {
        self.pending == 0
    }

    /// Handlers past their deadline still running.
    pub fn abandoned(&self) -> usize {
        self.abandoned.len()
    }

    /// One input line (without its newline and a trailing `\r`).
    pub fn feed(&mut self, line: &[u8]) -> Output {
        self.classify(line, None)
    }

    /// A line of `len` bytes over [`Bridge::max_line`], of which `head` are
    /// its first bytes (at least [`HEAD_BYTES`] of them when the line has
    /// that many): answered by the fail policy, tied to its `seq` when the
    /// head names one.
    pub fn feed_too_long(&mut self, len: usize, head: &[u8]) -> Output {
        self.classify(head, Some(len))
    }

    fn classify(&mut self, line: &[u8], too_long: Option<usize>) -> Output {
        let mut out = Output::default();
        match step(self.provider, &self.args, &self.policy, line, too_long) {
            Step::Skip => {}
            Step::Reply(v) => out.frame(&v),
            Step::Request { seq, session } => {
                self.pending = self.pending.saturating_add(1);
                self.bytes = self.bytes.saturating_add(line.len());
                let w = Waiting {
                    seq,
                    line: line.to_vec(),
                    at: Instant::now(),
                };
                match self.sessions.get_mut(&session) {
                    // Its session has a request running: it waits its turn.
                    Some(q) => q.push_back(w),
                    None => {
                        self.sessions.insert(session.clone(), VecDeque::new());
                        self.issue(session, w, &mut out);
                    }
                }
            }
        }
        out
    }

    /// A job's outcome; the reply frame, and the next request of its
    /// session if one waits. Fails with `invalid_argument` when `id` names
    /// no job that runs (unknown, or already finished).
    pub fn finish(&mut self, id: u64, outcome: Outcome) -> Result<Output, Error> {
        let Some(r) = self.running.remove(&id) else {
            return Err(Error::InvalidArgument {
                message: format!("bridge job {id} is not running (unknown or already finished)"),
            });
        };
        let decision = match outcome {
            Outcome::Done(d) => d,
            Outcome::TimedOut => {
                if !r.ended {
                    self.abandoned.insert(id, ());
                }
                Err(Error::HandlerTimeout {
                    ms: r.inv.deadline_ms,
                })
            }
        };
        let mut out = Output::default();
        let (seq, inv) = (r.seq, r.inv);
        self.answer(seq, &mut out, |_| inv.encode(decision));
        self.done(&r.session, r.len, &mut out);
        Ok(out)
    }

    /// The abandoned handlers of job `id` (finished, or about to be, with
    /// [`Outcome::TimedOut`]) have ended; no-op for any other id.
    pub fn abandoned_done(&mut self, id: u64) {
        if self.abandoned.remove(&id).is_none() {
            if let Some(r) = self.running.get_mut(&id) {
                r.ended = true;
            }
        }
    }

    /// A request of `session` (which is marked as having one running) is
    /// answered: frees its budget and hands out the session's next one.
    fn done(&mut self, session: &str, len: usize, out: &mut Output) {
        self.pending = self.pending.saturating_sub(1);
        self.bytes = self.bytes.saturating_sub(len);
        let next = self.sessions.get_mut(session).and_then(VecDeque::pop_front);
        match next {
            Some(w) => self.issue(session.to_string(), w, out),
            // Nothing waits: the session is not tracked any more.
            None => {
                self.sessions.remove(session);
            }
        }
    }

    /// Starts a request of `session` (marked as running one): decoded and
    /// handed out as a job, or answered at once (it does not decode, it
    /// waited too long, the bridge is overloaded); then the next one.
    fn issue(&mut self, session: String, w: Waiting, out: &mut Output) {
        let len = w.line.len();
        let (args, policy) = (&self.args, &self.policy);
        let prepared = std::panic::catch_unwind(AssertUnwindSafe(|| {
            runtime::prepare(args, policy, Ok(w.line))
        }));
        let refused = self.abandoned.len() >= self.limits.abandoned;
        let outcome = match prepared {
            Ok(Ok(inv)) => {
                let deadline = Duration::from_millis(inv.deadline_ms);
                if w.at.elapsed() >= deadline.saturating_add(STALE_GRACE) {
                    // The plugin has given up on it: answer, do not run.
                    let ms = inv.deadline_ms;
                    Err((inv, Error::HandlerTimeout { ms }))
                } else if refused {
                    Err((inv, overloaded()))
                } else {
                    Ok(inv)
                }
            }
            Ok(Err(answer)) => {
                self.answer(w.seq, out, |_| answer);
                return self.done(&session, len, out);
            }
            Err(p) => {
                let e = Error::Panic {
                    message: runtime::panic_message(p.as_ref()),
                };
                self.fail(w.seq, &e, out);
                return self.done(&session, len, out);
            }
        };
        match outcome {
            Ok(inv) => {
                let id = self.next_id;
                self.next_id = self.next_id.wrapping_add(1);
                out.jobs.push(Job {
                    id,
                    seq: w.seq.clone(),
                    session: session.clone(),
                    event: Arc::clone(&inv.event),
                    deadline_ms: inv.deadline_ms,
                });
                self.running.insert(
                    id,
                    Running {
                        seq: w.seq,
                        session,
                        len,
                        inv,
                        ended: false,
                    },
                );
            }
            Err((inv, e)) => {
                self.answer(w.seq, out, |_| inv.encode(Err(e)));
                self.done(&session, len, out);
            }
        }
    }

    /// The reply frame of a response, its stderr; a panic while encoding
    /// (a bug) is still answered by the fail policy.
    fn answer(&self, seq: Value, out: &mut Output, f: impl FnOnce(()) -> Response) {
        match std::panic::catch_unwind(AssertUnwindSafe(|| f(()))) {
            Ok(resp) => {
                out.frame(&reply_frame(seq, &resp));
                out.stderr.push_str(&resp.stderr);
            }
            Err(p) => {
                let e = Error::Panic {
                    message: runtime::panic_message(p.as_ref()),
                };
                self.fail(seq, &e, out);
            }
        }
    }

    fn fail(&self, seq: Value, e: &Error, out: &mut Output) {
        let policy = runtime::effective_policy_of(&self.policy, &self.args);
        out.frame(&error_reply(self.provider, &policy, seq, e));
        out.stderr
            .push_str(&format!("agenthooks: {}: {e}\n", e.code()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bridge(limits: Limits, extra: &str) -> Bridge {
        let argv = format!("hook agenthooks serve --provider=openclaw {extra}");
        let argv: Vec<&str> = argv.split_whitespace().collect();
        let mut args = runtime::parse_args(&argv).unwrap().unwrap();
        args.state_dir =
            Some(std::env::temp_dir().join(format!("ah-bridge-{}", std::process::id())));
        Bridge::new(&args, &Policy::default(), limits).unwrap()
    }

    fn req(seq: u64, session: &str, cmd: &str) -> Vec<u8> {
        format!(
            r#"{{"seq":{seq},"hook":"before_tool_call","event":{{"toolName":"exec","params":{{"command":"{cmd}"}},"toolCallId":"t{seq}"}},"ctx":{{"sessionId":"{session}"}}}}"#
        )
        .into_bytes()
    }

    fn limits(queue: usize, abandoned: usize) -> Limits {
        Limits {
            workers: 1,
            queue,
            queue_bytes: 1 << 20,
            abandoned,
        }
    }

    fn seqs(out: &Output) -> Vec<u64> {
        out.jobs.iter().map(|j| j.seq.as_u64().unwrap()).collect()
    }

    fn frame(out: &Output, i: usize) -> Value {
        serde_json::from_str(&out.frames[i]).unwrap()
    }

    #[test]
    fn sessions_run_in_parallel_each_in_order() {
        let mut b = bridge(limits(10, 4), "");
        assert_eq!(seqs(&b.feed(&req(1, "a", "ls"))), [1]);
        // `a` has one running: its next waits; `b` runs at once.
        assert!(b.feed(&req(2, "a", "ls")).jobs.is_empty());
        assert_eq!(seqs(&b.feed(&req(3, "b", "ls"))), [3]);
        let out = b
            .finish(1, Outcome::Done(Ok(Decision::deny("no"))))
            .unwrap();
        assert_eq!(frame(&out, 0)["seq"], 1);
        assert_eq!(frame(&out, 0)["output"]["block"], true);
        assert_eq!(seqs(&out), [2], "the session's next request follows");
        assert!(
            b.finish(1, Outcome::Done(Ok(Decision::no_decision())))
                .is_err()
        );
        let id2 = out.jobs[0].id;
        b.finish(id2, Outcome::Done(Ok(Decision::no_decision())))
            .unwrap();
        assert!(!b.idle());
        let id3 = 2;
        let out = b
            .finish(id3, Outcome::Done(Ok(Decision::no_decision())))
            .unwrap();
        assert_eq!(frame(&out, 0)["seq"], 3);
        assert!(
            b.idle() && b.sessions.is_empty(),
            "finished sessions are freed"
        );
    }

    #[test]
    fn backpressure_and_lines_that_are_no_request() {
        let mut b = bridge(limits(2, 4), "");
        assert!(b.wants_input());
        b.feed(&req(1, "a", "ls"));
        assert!(b.wants_input());
        b.feed(&req(2, "a", "ls"));
        assert!(!b.wants_input(), "two requests wait or run: stop reading");
        let out = b
            .finish(1, Outcome::Done(Ok(Decision::no_decision())))
            .unwrap();
        assert!(b.wants_input());
        assert_eq!(seqs(&out), [2]);
        // Not a request: answered at once, nothing runs.
        let out = b.feed(b"not json");
        assert_eq!((out.frames.len(), out.jobs.len()), (1, 0));
        assert_eq!(frame(&out, 0)["error"]["code"], "invalid_json");
        assert!(b.feed(b"  ").frames.is_empty());
        let out = b.feed_too_long(9000, br#"{"seq":7,"x":"#);
        assert_eq!(frame(&out, 0)["seq"], 7);
        assert_eq!(frame(&out, 0)["error"]["code"], "too_large");
        // A frame that does not decode is answered without a job.
        let out = b.feed(br#"{"seq":8,"hook":7}"#);
        assert_eq!(frame(&out, 0)["error"]["code"], "wrong_type");
        assert!(out.jobs.is_empty());
    }

    #[test]
    fn abandoned_handlers_cap_and_fail_closed_timeouts() {
        let mut b = bridge(limits(10, 1), "--fail=closed");
        let j = b.feed(&req(1, "a", "ls")).jobs.remove(0);
        let out = b.finish(j.id, Outcome::TimedOut).unwrap();
        assert_eq!(frame(&out, 0)["error"]["code"], "handler_timeout");
        assert_eq!(frame(&out, 0)["output"]["block"], true);
        assert_eq!(b.abandoned(), 1);
        // One abandoned handler still runs (the cap): refused, not run.
        let out = b.feed(&req(2, "b", "ls"));
        assert!(out.jobs.is_empty());
        assert_eq!(frame(&out, 0)["error"]["code"], "handler_error");
        let msg = frame(&out, 0)["error"]["message"].clone();
        assert!(msg.as_str().unwrap().contains("overloaded"), "{msg}");
        b.abandoned_done(j.id);
        let j = b.feed(&req(3, "b", "ls")).jobs.remove(0);
        // The handlers end just before the driver reports the timeout.
        b.abandoned_done(j.id);
        b.finish(j.id, Outcome::TimedOut).unwrap();
        assert_eq!(b.abandoned(), 0, "not counted as still running");
    }

    #[test]
    fn hello_names_the_policy() {
        let mut b = bridge(limits(10, 1), "--timeout=2");
        let out = b.feed(br#"{"hello":{"provider":"openclaw"}}"#);
        let f = frame(&out, 0);
        assert_eq!(f["hello"]["provider"], "openclaw");
        assert_eq!(f["hello"]["deadline_ms"], 1800);
        let out = b.feed(br#"{"hello":{"provider":"opencode"}}"#);
        assert_eq!(frame(&out, 0)["error"]["code"], "invalid_argument");
    }
}
