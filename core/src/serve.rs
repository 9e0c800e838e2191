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
//! program -> plugin   {"seq": n, "output"?: {...}, "notes"?: [...], "error"?: {"code", "message"}}
//! ```
//!
//! Each request is decoded, run through the router within the deadline and
//! encoded exactly as `agenthooks run` would (`runtime::prepare`, the
//! handlers, `Invocation::complete`): `output` is the dialect's answer (the
//! action object), absent for "no opinion". A handler error, panic or
//! timeout, or a frame that does not decode, still gets `output` per the
//! fail policy, plus `error` naming what failed. A line that is not a frame
//! (not JSON, no `seq`, longer than `--max-bytes`) gets an error frame with
//! `seq` (or `null` when unknown) and no `output`; the loop never stops on
//! bad input. Replies come in any order: frames of one session are handled
//! in order, sessions in parallel. Handlers' stray prints go to stderr.
//! End of input: pending requests finish, then the program exits 0.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::dialect::{DEFAULT_MAX_BYTES, parse_object};
use crate::error::Error;
use crate::model::{Provider, Response};
use crate::router::Router;
use crate::runtime::{self, RunArgs};

/// A session worker exits after this long without work (a new one starts
/// on the session's next frame).
const IDLE: Duration = Duration::from_secs(30);

/// Where reply lines go (one `write_all` per line, then a flush).
pub type Sink = Arc<Mutex<dyn Write + Send>>;

/// Reads one line of at most `max` bytes (without the newline). `None` at
/// end of input; `Some(Err(n))` for a line of `n` > `max` bytes, which is
/// skipped without being kept in memory.
pub fn read_frame(r: &mut impl BufRead, max: usize) -> Option<Result<Vec<u8>, usize>> {
    let mut line = Vec::new();
    let mut len = 0usize;
    let mut seen = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buf.is_empty() {
            if !seen {
                return None;
            }
            break;
        }
        seen = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        len += chunk.len();
        if len <= max {
            line.extend_from_slice(chunk);
        } else {
            line = Vec::new();
        }
        let used = done.unwrap_or(buf.len());
        r.consume(used);
        if done.is_some() {
            break;
        }
    }
    if len > max {
        return Some(Err(len));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Some(Ok(line))
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

/// One request for a session worker.
struct Job {
    seq: Value,
    line: Vec<u8>,
}

/// The serve loop's shared state.
struct Server {
    router: Arc<Router>,
    args: RunArgs,
    provider: Provider,
    sink: Sink,
    sessions: Arc<Mutex<HashMap<String, Sender<Job>>>>,
    workers: Vec<JoinHandle<()>>,
}

impl Server {
    fn write(&self, v: &Value) {
        write_line(&self.sink, v);
    }

    fn error_frame(&self, seq: Value, e: &Error) {
        self.write(&json!({
            "seq": seq,
            "error": {"code": e.code().as_str(), "message": e.to_string()},
        }));
    }

    fn hello(&self, hello: &Value) {
        if let Some(p) = hello.get("provider").and_then(Value::as_str) {
            match Provider::parse(p) {
                Ok(p) if p == self.provider => {}
                _ => {
                    return self.error_frame(
                        Value::Null,
                        &Error::InvalidArgument {
                            message: format!(
                                "hello names provider `{p}` but this program serves `{}`",
                                self.provider.id()
                            ),
                        },
                    );
                }
            }
        }
        let policy = runtime::effective_policy(&self.router, &self.args);
        let deadline = policy.deadline_ms(self.args.timeout_s);
        self.write(&json!({
            "hello": {
                "provider": self.provider.id(),
                "version": env!("CARGO_PKG_VERSION"),
                "policy": serde_json::to_value(&policy).unwrap_or(Value::Null),
                "deadline_ms": deadline,
            }
        }));
    }

    fn handle(&mut self, frame: Result<Vec<u8>, usize>) {
        let max = self.args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES);
        let line = match frame {
            Ok(l) => l,
            Err(_) => {
                return self.error_frame(
                    Value::Null,
                    &Error::TooLarge {
                        what: "frame",
                        limit: max,
                    },
                );
            }
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let map = match parse_object(&line, max) {
            Ok(m) => m,
            Err(e) => return self.error_frame(Value::Null, &e),
        };
        if let Some(h) = map.get("hello") {
            return self.hello(h);
        }
        let seq = match map.get("seq") {
            Some(v @ (Value::Number(_) | Value::String(_))) => v.clone(),
            _ => {
                return self.error_frame(
                    Value::Null,
                    &Error::InvalidArgument {
                        message: "a request frame needs a `seq` (number or string)".into(),
                    },
                );
            }
        };
        let key = session_key(&map);
        let job = Job {
            seq: seq.clone(),
            line,
        };
        let mut sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        let job = match sessions.get(&key) {
            Some(tx) => match tx.send(job) {
                Ok(()) => return,
                // That worker just left (idle): start another.
                Err(mpsc::SendError(job)) => job,
            },
            None => job,
        };
        let (tx, rx) = mpsc::channel();
        let _ = tx.send(job);
        sessions.insert(key.clone(), tx);
        drop(sessions);
        self.workers.retain(|h| !h.is_finished());
        let w = Worker {
            router: self.router.clone(),
            args: self.args.clone(),
            sink: self.sink.clone(),
            sessions: self.sessions.clone(),
            key,
        };
        match std::thread::Builder::new()
            .name("agenthooks-serve".into())
            .spawn(move || w.run(rx))
        {
            Ok(h) => self.workers.push(h),
            // The request went down with the thread; the next frame of the
            // session finds the closed channel and tries again.
            Err(e) => self.error_frame(
                seq,
                &Error::Io {
                    what: "spawning a session worker".into(),
                    source: e,
                },
            ),
        }
    }

    fn finish(mut self) {
        self.sessions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
        for h in self.workers.drain(..) {
            let _ = h.join();
        }
    }
}

/// Handles one session's requests in order.
struct Worker {
    router: Arc<Router>,
    args: RunArgs,
    sink: Sink,
    sessions: Arc<Mutex<HashMap<String, Sender<Job>>>>,
    key: String,
}

impl Worker {
    fn run(self, rx: Receiver<Job>) {
        loop {
            match rx.recv_timeout(IDLE) {
                Ok(job) => self.process(job),
                Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => {
                    // Leave only if nothing arrived: the reader sends under
                    // the same lock, so no request is lost.
                    let mut sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
                    match rx.try_recv() {
                        Ok(job) => {
                            drop(sessions);
                            self.process(job);
                        }
                        Err(_) => {
                            sessions.remove(&self.key);
                            return;
                        }
                    }
                }
            }
        }
    }

    fn process(&self, job: Job) {
        let resp = answer(&self.router, &self.args, job.line);
        write_line(&self.sink, &reply_frame(job.seq, &resp));
        if !resp.stderr.is_empty() {
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(resp.stderr.as_bytes());
            let _ = err.flush();
        }
    }
}

/// One request, exactly as `agenthooks run` answers it.
fn answer(router: &Arc<Router>, args: &RunArgs, payload: Vec<u8>) -> Response {
    let inv = match runtime::prepare(args, router.get_policy(), Ok(payload)) {
        Ok(inv) => inv,
        Err(r) => return r,
    };
    let decision =
        runtime::decide_with_deadline(router.clone(), Arc::clone(&inv.event), inv.deadline_ms);
    inv.complete(decision)
}

/// `{"seq", "output"?, "notes"?, "error"?}` for a response: `output` is the
/// stdout JSON (absent when empty); `error` is set when the fail policy
/// answered (its note names the error code).
pub fn reply_frame(seq: Value, r: &Response) -> Value {
    let mut out = Map::new();
    out.insert("seq".into(), seq);
    let text = r.stdout.trim();
    if !text.is_empty() {
        match serde_json::from_str::<Value>(text) {
            Ok(v) => {
                out.insert("output".into(), v);
            }
            Err(e) => {
                out.insert(
                    "error".into(),
                    json!({"code": "io", "message": format!("the answer is not JSON: {e}")}),
                );
            }
        }
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

fn write_line(sink: &Sink, v: &Value) {
    let mut line = serde_json::to_vec(v).unwrap_or_else(|_| b"{}".to_vec());
    line.push(b'\n');
    let mut w = sink.lock().unwrap_or_else(|p| p.into_inner());
    let _ = w.write_all(&line);
    let _ = w.flush();
}

/// Runs the serve loop over `input` until end of input, writing reply
/// lines to `sink`. `args.provider` must name the provider.
pub fn serve(
    router: Arc<Router>,
    args: &RunArgs,
    mut input: impl BufRead,
    sink: Sink,
) -> Result<(), Error> {
    let provider = match args.provider.as_deref() {
        Some(p) => Provider::parse(p)?,
        None => {
            return Err(Error::InvalidArgument {
                message: "`serve` needs --provider (opencode or openclaw)".into(),
            });
        }
    };
    let max = args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES);
    let mut server = Server {
        router,
        args: args.clone(),
        provider,
        sink,
        sessions: Arc::new(Mutex::new(HashMap::new())),
        workers: Vec::new(),
    };
    while let Some(frame) = read_frame(&mut input, max) {
        server.handle(frame);
    }
    server.finish();
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
    use crate::model::{Decision, Policy};

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
        assert_eq!(by_seq(&frames, json!(2)).get("output"), None);
        let errors: Vec<&str> = frames
            .iter()
            .filter(|f| f.get("seq") == Some(&Value::Null))
            .map(|f| f["error"]["code"].as_str().unwrap())
            .collect();
        assert_eq!(
            errors,
            [
                "invalid_json",
                "invalid_argument",
                "too_large",
                "invalid_argument"
            ]
        );
        // A frame that does not decode: the fail policy's answer, plus the error.
        let bad = by_seq(&frames, json!("x3"));
        assert_eq!(bad["error"]["code"], "wrong_type");
        assert_eq!(bad.get("output"), None);
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
        assert_eq!(frames[1].get("output"), None);
    }

    #[test]
    fn read_frame_bounds() {
        let mut r = "ab\r\n\ncd".as_bytes();
        assert_eq!(read_frame(&mut r, 10), Some(Ok(b"ab".to_vec())));
        assert_eq!(read_frame(&mut r, 10), Some(Ok(Vec::new())));
        assert_eq!(read_frame(&mut r, 10), Some(Ok(b"cd".to_vec())));
        assert_eq!(read_frame(&mut r, 10), None);
        let mut r = "abcdef\nx\n".as_bytes();
        assert_eq!(read_frame(&mut r, 3), Some(Err(6)));
        assert_eq!(read_frame(&mut r, 3), Some(Ok(b"x".to_vec())));
    }
}
