//! The author-side run: argv/env/stdin in, stdout/stderr/exit code out.
//!
//! The argv contract written into generated configs:
//! `<program> agenthooks run --provider=<id> [--event=<native name>]
//! [--variant=..] [--timeout=<s>] [--fail=open|closed] [--hook-id=<id>]
//! [--match=<matcher>]`; the word `agenthooks` may stand anywhere in argv.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use crate::dialect::{self, DEFAULT_MAX_BYTES, DecodeOptions};
use crate::error::Error;
use crate::model::{
    Decision, DecisionKind, Detection, Event, Fail, Kind, Policy, Provider, Response,
};
use crate::router::Router;

/// Parsed `agenthooks run` arguments.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunArgs {
    /// Subcommand (`run` or `serve`).
    pub command: String,
    /// `--provider` (aliases `--agent`, `--dialect`).
    pub provider: Option<String>,
    /// `--event`: native event name for payloads that lack one.
    pub event: Option<String>,
    /// `--variant`.
    pub variant: Option<String>,
    /// `--timeout` in seconds, as configured for the agent.
    pub timeout_s: Option<f64>,
    /// `--fail` override.
    pub fail: Option<Fail>,
    /// `--hook-id`.
    pub hook_id: Option<String>,
    /// `--match`.
    pub matcher: Option<String>,
    /// `--max-bytes` (stdin limit).
    pub max_bytes: Option<usize>,
    /// Where cross-process state lives (default: [`state_dir`]); not an
    /// argv option, for embedding and tests.
    pub state_dir: Option<PathBuf>,
}

/// Finds the `agenthooks` word in argv and parses what follows it.
/// Returns `Ok(None)` when the word is absent.
pub fn parse_args<S: AsRef<str>>(argv: &[S]) -> Result<Option<RunArgs>, Error> {
    let Some(pos) = argv.iter().position(|a| a.as_ref() == "agenthooks") else {
        return Ok(None);
    };
    let rest: Vec<&str> = argv[pos + 1..].iter().map(AsRef::as_ref).collect();
    let mut args = RunArgs {
        command: "run".into(),
        ..RunArgs::default()
    };
    let bad = |m: String| Error::InvalidArgument { message: m };
    let mut i = 0;
    while i < rest.len() {
        let a = rest[i];
        if !a.starts_with("--") {
            if i == 0 {
                args.command = a.to_string();
                i += 1;
                continue;
            }
            return Err(bad(format!("unexpected argument `{a}`")));
        }
        let (key, val) = match a.split_once('=') {
            Some((k, v)) => (k, v.to_string()),
            None => {
                let v = rest
                    .get(i + 1)
                    .ok_or_else(|| bad(format!("`{a}` needs a value")))?;
                i += 1;
                (a, v.to_string())
            }
        };
        match key {
            "--provider" | "--agent" | "--dialect" => args.provider = Some(val),
            "--event" => args.event = Some(val),
            "--variant" => args.variant = Some(val),
            "--timeout" => {
                args.timeout_s = Some(
                    val.parse()
                        .map_err(|_| bad(format!("--timeout: `{val}` is not a number")))?,
                )
            }
            "--fail" => {
                args.fail = Some(match val.as_str() {
                    "open" => Fail::Open,
                    "closed" => Fail::Closed,
                    _ => return Err(bad(format!("--fail: `{val}` (expected open or closed)"))),
                })
            }
            "--hook-id" => args.hook_id = Some(val),
            "--match" => args.matcher = Some(val),
            "--max-bytes" => {
                args.max_bytes = Some(
                    val.parse()
                        .map_err(|_| bad(format!("--max-bytes: `{val}`")))?,
                )
            }
            _ => return Err(bad(format!("unknown option `{key}`"))),
        }
        i += 1;
    }
    if args.command != "run" && args.command != "serve" {
        return Err(bad(format!(
            "unknown command `{}` (expected `run` or `serve`)",
            args.command
        )));
    }
    Ok(Some(args))
}

/// Reads at most `limit` bytes; more is a `too_large` error.
pub fn read_limited(mut r: impl Read, limit: usize) -> Result<Vec<u8>, Error> {
    let mut buf = Vec::new();
    (&mut r)
        .take(limit as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Error::Io {
            what: "reading stdin".into(),
            source: e,
        })?;
    if buf.len() > limit {
        return Err(Error::TooLarge {
            what: "stdin payload",
            limit,
        });
    }
    Ok(buf)
}

/// The effective policy: the router's, with argv overrides.
pub fn effective_policy(router: &Router, args: &RunArgs) -> Policy {
    let mut p = router.get_policy().clone();
    if let Some(f) = args.fail {
        p.fail = f;
    }
    p
}

/// One decoded hook invocation, ready for handlers in any language.
///
/// Bindings drive the run in three steps so that every semantic stays in
/// the core: [`prepare`] (provider, stdin, decode, loop-guard count), run
/// their own handlers within [`Invocation::deadline_ms`], then
/// [`Invocation::complete`] (encode or apply the fail policy, record the
/// continuation).
#[derive(Debug)]
pub struct Invocation {
    /// The decoded event.
    pub event: Event,
    /// The effective policy.
    pub policy: Policy,
    /// Handler deadline in milliseconds.
    pub deadline_ms: u64,
    counter: Option<ContinuationCounter>,
    /// Diagnostics for stderr (unsafe state, ...), added to the answer.
    warnings: Vec<String>,
}

/// The state root for this run: `args.state_dir` (embedding, tests) or the
/// user's ([`crate::state::root`]).
fn open_state(args: &RunArgs) -> Result<crate::state::StateDir, Error> {
    match &args.state_dir {
        Some(d) => crate::state::root_at(d),
        None => crate::state::root(),
    }
}

/// Resolves the provider, decodes the payload and fills the loop-guard
/// count. `Err` carries the agent's complete answer (unknown provider, bad
/// input, per the fail policy): write it and stop.
pub fn prepare(
    args: &RunArgs,
    policy: &Policy,
    payload: Result<Vec<u8>, Error>,
) -> Result<Invocation, Response> {
    let mut policy = policy.clone();
    if let Some(f) = args.fail {
        policy.fail = f;
    }
    // Which agent called: `--provider` first, then environment, then the
    // payload's shape (see `detect`).
    let env = |k: &str| std::env::var(k).ok();
    let detected = match (args.provider.as_deref(), &payload) {
        (Some(p), _) => Provider::parse(p).map(|p| (p, Detection::Config, None)),
        (None, Ok(bytes)) => crate::detect::detect(None, &env, &[], bytes),
        (None, Err(e)) => Err(Error::InvalidArgument {
            message: format!("no --provider given and the payload could not be read ({e})"),
        }),
    };
    let (provider, detection, variant) = match detected {
        Ok(d) => d,
        Err(e) => {
            // Unknown agent: the safest answer every agent reads as "no
            // opinion" is exit 0 with empty stdout, plus a diagnostic.
            return Err(Response {
                stderr: format!("agenthooks: {}: {e}\n", e.code()),
                ..Response::default()
            });
        }
    };
    let payload = payload.map_err(|e| dialect::fail_response(provider, None, &e, &policy))?;
    let opts = DecodeOptions {
        variant: args.variant.clone().or(variant),
        event: args.event.clone(),
        max_bytes: args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES),
        detection,
    };
    let mut event = dialect::decode_vec(provider, payload, &opts)
        .map_err(|(e, bytes)| dialect::fail_response_for_payload(provider, &bytes, &e, &policy))?;
    // `--match` / `--hook-id`: where an agent's matcher dialect could not
    // express the manifest's matcher, the config matches broadly and we
    // filter here (a non-matching call answers the no-op).
    crate::install::filter::gate(args, &event, &policy)?;
    // Cursor fires a generic and a specific hook for one call, each in its
    // own process: the second to arrive answers the no-op. State that
    // cannot be used safely is reported; the event is handled (a double
    // delivery beats a dropped decision).
    let mut warnings = Vec::new();
    if crate::dedupe::applies(&event) {
        let claim = open_state(args)
            .and_then(|root| root.subdir(crate::dedupe::SUBDIR))
            .map(|dir| crate::dedupe::claim_at(&dir, &event, &crate::dedupe::process_identity()));
        match claim {
            Ok(crate::dedupe::Claim::Duplicate) => {
                return Err(crate::dedupe::suppressed_response(&event));
            }
            Ok(_) => {}
            Err(e) => warnings.push(format!(
                "agenthooks: {}: {e} (deduplication off for this call)\n",
                e.code()
            )),
        }
    }
    // The stop-continuation counter: without safe state the cap cannot
    // hold across processes, so the fail policy answers (which never
    // continues the agent).
    let counter = if ContinuationCounter::applies(&event) {
        match open_state(args).and_then(|root| ContinuationCounter::for_event(&event, &root)) {
            Ok(c) => Some(c),
            Err(e) => {
                let mut r = dialect::fail_response(event.provider, Some(&event), &e, &policy);
                r.stderr.insert_str(0, &warnings.concat());
                return Err(r);
            }
        }
    } else {
        None
    };
    if let Some(c) = &counter {
        // Always consult the counter: a stop without the flag resets it,
        // even when the dialect omitted an empty `stop` object.
        let previously = event.stop.as_ref().is_some_and(|s| s.previously_continued);
        let count = c.current(previously);
        if count > 0 || event.stop.is_some() {
            let stop = event.stop.get_or_insert_with(Default::default);
            if stop.loop_count.is_none() {
                stop.loop_count = Some(count);
            }
        }
    }
    let deadline_ms = policy.deadline_ms(args.timeout_s);
    Ok(Invocation {
        event,
        policy,
        deadline_ms,
        counter,
        warnings,
    })
}

impl Invocation {
    /// Encodes the handlers' outcome (a decision, or the error / panic /
    /// timeout that replaced it) into the agent's answer.
    pub fn complete(&self, decision: Result<Decision, Error>) -> Response {
        let ev = &self.event;
        let mut r =
            match decision.and_then(|d| Ok((d.kind, dialect::respond(ev, &d, &self.policy)?))) {
                Ok((kind, r)) => {
                    if let Some(c) = &self.counter {
                        let capped = r.notes.iter().any(|n| n.code == "continuation_capped");
                        c.record(kind == DecisionKind::Continue && !capped);
                    }
                    r
                }
                Err(e) => dialect::fail_response(ev.provider, Some(ev), &e, &self.policy),
            };
        if !self.warnings.is_empty() {
            r.stderr.insert_str(0, &self.warnings.concat());
        }
        r
    }
}

/// Runs one hook invocation end to end and returns the agent's answer.
/// Never panics; handler panics, errors and timeouts go through the fail
/// policy.
pub fn run(router: Arc<Router>, args: &RunArgs, payload: Result<Vec<u8>, Error>) -> Response {
    let inv = match prepare(args, router.get_policy(), payload) {
        Ok(inv) => inv,
        Err(answer) => return answer,
    };
    let event = Arc::new(inv.event.clone());
    let decision = decide_with_deadline(router, event, inv.deadline_ms);
    inv.complete(decision)
}

/// Runs the router on a worker thread, abandoning it at the deadline.
pub fn decide_with_deadline(
    router: Arc<Router>,
    event: Arc<Event>,
    deadline_ms: u64,
) -> Result<Decision, Error> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("agenthooks-handler".into())
        .spawn(move || {
            let r =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| router.decide(&event)));
            let _ = tx.send(r);
        });
    if let Err(e) = spawned {
        return Err(Error::Io {
            what: "spawning the handler thread".into(),
            source: e,
        });
    }
    match rx.recv_timeout(Duration::from_millis(deadline_ms)) {
        Ok(Ok(r)) => r,
        Ok(Err(p)) => Err(Error::Panic {
            message: panic_message(p.as_ref()),
        }),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(Error::HandlerTimeout { ms: deadline_ms }),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(Error::Panic {
            message: "handler thread died".into(),
        }),
    }
}

/// The text of a panic payload.
pub fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".into()
    }
}

/// Counts consecutive stop continuations per session for agents that only
/// report a `stop_hook_active` flag (Claude Code, Codex), so the policy's
/// `continuation_cap` holds across processes. One small file per session
/// in the `continuations` subdirectory of the private state root
/// ([`crate::state`]: no symlink followed, replaced atomically).
#[derive(Debug)]
struct ContinuationCounter {
    dir: crate::state::StateDir,
    name: String,
}

impl ContinuationCounter {
    fn applies(e: &Event) -> bool {
        matches!(e.kind, Kind::AgentStop | Kind::SubagentStop) && !e.session.id.is_empty()
    }

    fn for_event(e: &Event, root: &crate::state::StateDir) -> Result<ContinuationCounter, Error> {
        let agent = e.agent.as_ref().map(|a| a.id.as_str()).unwrap_or("");
        let key = format!("{}|{}|{}", e.provider.id(), e.session.id, agent);
        let hash = crate::model::sorted_json(&serde_json::Value::String(key));
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in hash.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        Ok(ContinuationCounter {
            dir: root.subdir("continuations")?,
            name: format!("{h:016x}"),
        })
    }

    fn read(&self) -> Option<u64> {
        let bytes = self.dir.read(&self.name, 64).ok()??;
        std::str::from_utf8(&bytes).ok()?.trim().parse().ok()
    }

    fn current(&self, previously_continued: bool) -> u64 {
        if !previously_continued {
            let _ = self.dir.remove(&self.name);
            return 0;
        }
        self.read().unwrap_or(1)
    }

    fn record(&self, continued: bool) {
        if continued {
            let next = self.read().unwrap_or(0).saturating_add(1);
            let _ = self
                .dir
                .write_replace(&self.name, next.to_string().as_bytes());
        } else {
            let _ = self.dir.remove(&self.name);
        }
    }
}

/// Where cross-process state lives: see [`crate::state::root_path`].
pub fn state_dir() -> Option<PathBuf> {
    Some(crate::state::root_path())
}

/// Keeps stray prints of handlers off stdout: while alive, fd 1 points at
/// stderr; [`StdoutGuard::write_answer`] writes to the real stdout.
pub struct StdoutGuard {
    #[cfg(unix)]
    saved: Option<std::os::fd::OwnedFd>,
}

impl StdoutGuard {
    /// Redirects fd 1 to fd 2, keeping the real stdout aside.
    pub fn divert() -> StdoutGuard {
        #[cfg(unix)]
        {
            let _ = std::io::stdout().flush();
            let saved = rustix::io::dup(rustix::stdio::stdout()).ok();
            if saved.is_some() {
                let _ = rustix::stdio::dup2_stdout(rustix::stdio::stderr());
            }
            StdoutGuard { saved }
        }
        #[cfg(not(unix))]
        {
            StdoutGuard {}
        }
    }

    /// Writes the answer to the real stdout.
    pub fn write_answer(&self, bytes: &[u8]) -> std::io::Result<()> {
        let _ = std::io::stdout().flush();
        #[cfg(unix)]
        if let Some(fd) = &self.saved {
            let mut f = std::fs::File::from(fd.try_clone()?);
            f.write_all(bytes)?;
            return f.flush();
        }
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)?;
        out.flush()
    }
}

/// The whole author-side run for a Rust hook program: parses argv, reads
/// stdin, runs the router, writes the agent's answer and exits.
pub fn main(router: Router) -> ! {
    let argv: Vec<String> = std::env::args().collect();
    let code = run_process(router, &argv);
    std::process::exit(code)
}

/// The response as a hook process writes it: with `AGENTHOOKS_NOTES` set
/// (opt-in, for demos and debugging — some agents read stderr as a verdict),
/// each note is appended to stderr. Every language's `main()` calls this.
pub fn with_notes_on_stderr(mut resp: Response) -> Response {
    if std::env::var_os("AGENTHOOKS_NOTES").is_some_and(|v| !v.is_empty()) {
        for n in &resp.notes {
            resp.stderr.push_str(&format!(
                "agenthooks: note: {} {} -> {}{}\n",
                n.code,
                n.from.as_deref().unwrap_or("-"),
                n.to.as_deref().unwrap_or("-"),
                n.detail
                    .as_deref()
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default()
            ));
        }
    }
    resp
}

/// [`main`] without the exit, for tests and embedding.
pub fn run_process(router: Router, argv: &[String]) -> i32 {
    let mut argv = argv.to_vec();
    let argv_payload = crate::dialect::cursor::take_argv_payload(&mut argv);
    let argv = argv.as_slice();
    let args = match parse_args(argv) {
        Ok(Some(a)) => a,
        Ok(None) => {
            eprintln!(
                "agenthooks: this program is a coding-agent hook; run it as `{} agenthooks run --provider=<agent>` with the payload on stdin",
                argv.first().map(String::as_str).unwrap_or("<program>")
            );
            return 64;
        }
        Err(e) => {
            // A config we cannot read: say so, answer "no opinion".
            eprintln!("agenthooks: {}: {e}", e.code());
            return 0;
        }
    };
    if args.command == "serve" {
        // NDJSON over stdio for the OpenCode / OpenClaw plugin bridges.
        return crate::serve::serve_process(router, &args);
    }
    let guard = StdoutGuard::divert();
    let limit = args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES);
    let payload = match argv_payload {
        // Legacy argv-payload modes (older Cursor CLI builds, Codex
        // `notify`): the JSON is the last argument; stdin is not read.
        Some(bytes) if bytes.len() <= limit => Ok(bytes),
        Some(_) => Err(Error::TooLarge {
            what: "argv payload",
            limit,
        }),
        None => read_limited(std::io::stdin().lock(), limit),
    };
    let resp = with_notes_on_stderr(run(Arc::new(router), &args, payload));
    if !resp.stderr.is_empty() {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(resp.stderr.as_bytes());
        let _ = err.flush();
    }
    if guard.write_answer(resp.stdout.as_bytes()).is_err() {
        return 1;
    }
    resp.exit_code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argv_contract() {
        let a = parse_args(&[
            "/bin/guard",
            "agenthooks",
            "run",
            "--provider=codex",
            "--timeout",
            "20",
            "--fail=closed",
        ])
        .unwrap()
        .unwrap();
        assert_eq!(a.provider.as_deref(), Some("codex"));
        assert_eq!(a.timeout_s, Some(20.0));
        assert_eq!(a.fail, Some(Fail::Closed));
        assert_eq!(parse_args(&["guard", "x"]).unwrap(), None);
        let a = parse_args(&["python3", "g.py", "agenthooks", "--agent", "claude"])
            .unwrap()
            .unwrap();
        assert_eq!(a.command, "run");
        assert_eq!(a.provider.as_deref(), Some("claude"));
        assert!(parse_args(&["g", "agenthooks", "run", "--bogus=1"]).is_err());
        assert!(parse_args(&["g", "agenthooks", "run", "--fail=maybe"]).is_err());
    }

    #[test]
    fn stdin_limit() {
        assert_eq!(read_limited(&b"abc"[..], 3).unwrap(), b"abc");
        assert_eq!(
            read_limited(&b"abcd"[..], 3).unwrap_err().code().as_str(),
            "too_large"
        );
    }

    fn args(p: &str) -> RunArgs {
        RunArgs {
            command: "run".into(),
            provider: Some(p.into()),
            ..RunArgs::default()
        }
    }

    const PRE: &[u8] = br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}"#;

    #[test]
    fn handler_panic_and_timeout_follow_fail_policy() {
        let mut r = Router::new().policy(Policy::fail_closed());
        r.on_tool_pre(|_e| -> Decision { panic!("boom") });
        let resp = run(Arc::new(r), &args("codex"), Ok(PRE.to_vec()));
        assert!(resp.stdout.contains("\"deny\""), "{resp:?}");
        assert!(resp.stderr.contains("panic"));

        let mut r = Router::new().policy(Policy::fail_open().timeout_ms(50));
        r.on_tool_pre(|_e| {
            std::thread::sleep(Duration::from_secs(2));
            Decision::deny("late")
        });
        let resp = run(Arc::new(r), &args("codex"), Ok(PRE.to_vec()));
        assert_eq!(resp.stdout, "");
        assert!(resp.stderr.contains("handler_timeout"));
    }

    #[test]
    fn continuation_cap_counts_across_runs() {
        let dir = std::env::temp_dir().join(format!("ah-cont-test-{}", std::process::id()));
        let stop = |active: bool| {
            format!(r#"{{"session_id":"cap","turn_id":"t","hook_event_name":"Stop","stop_hook_active":{active}}}"#)
                .into_bytes()
        };
        let mut r = Router::new().policy(Policy::default().continuation_cap(2));
        r.on_stop(|_e| Decision::continue_with("again"));
        let r = Arc::new(r);
        let a = RunArgs {
            state_dir: Some(dir.clone()),
            ..args("codex")
        };
        // First stop: continue (count 0 -> 1).
        let first = run(r.clone(), &a, Ok(stop(false)));
        assert!(first.stdout.contains("\"block\""), "{first:?}");
        // Codex reports only the flag; our counter carries the count.
        let second = run(r.clone(), &a, Ok(stop(true)));
        assert!(second.stdout.contains("\"block\""), "{second:?}");
        let third = run(r.clone(), &a, Ok(stop(true)));
        assert_eq!(third.stdout, "", "capped: {third:?}");
        assert_eq!(third.notes[0].code, "continuation_capped");
        // A fresh stop (flag false) resets the count.
        let fresh = run(r, &a, Ok(stop(false)));
        assert!(fresh.stdout.contains("\"block\""));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn provider_detected_by_shape_when_not_given() {
        let a = RunArgs {
            command: "run".into(),
            ..RunArgs::default()
        };
        let codex = br#"{"session_id":"s","turn_id":"t","model":"gpt-5","cwd":"/w","hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"c"}"#;
        let inv = prepare(&a, &Policy::default(), Ok(codex.to_vec())).unwrap();
        assert_eq!(inv.event.provider, Provider::Codex);
        assert_eq!(inv.event.detection, Some(Detection::Shape));
        let cursor = br#"{"conversation_id":"c","generation_id":"g","hook_event_name":"beforeShellExecution","command":"ls","cwd":"/w","workspace_roots":["/w"]}"#;
        let inv = prepare(&a, &Policy::default(), Ok(cursor.to_vec())).unwrap();
        assert_eq!(inv.event.provider, Provider::Cursor);
        // Nothing recognisable: a neutral answer with a diagnostic.
        let answer = prepare(&a, &Policy::fail_closed(), Ok(b"{}".to_vec())).unwrap_err();
        assert_eq!((answer.stdout.as_str(), answer.exit_code), ("", 0));
        assert!(
            answer.stderr.contains("unknown_provider"),
            "{}",
            answer.stderr
        );
    }
}
