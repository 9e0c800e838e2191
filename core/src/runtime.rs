//! The author-side run: argv/env/stdin in, stdout/stderr/exit code out.
//!
//! The argv contract written into generated configs:
//! `<program> agenthooks run --provider=<id> [--event=<native name>]
//! [--variant=..] [--timeout=<s>] [--fail=open|closed] [--hook-id=<id>]
//! [--match=<matcher>] [--max-bytes=<n>]`; the word `agenthooks` may stand
//! anywhere in argv (what comes before it belongs to the program).
//!
//! Every language's run entry goes through the same two core steps, so they
//! all answer byte for byte alike: [`launch`] (argv alone: usage, `serve`,
//! or a [`Plan`] for one call) and [`start`] (the plan, the router's policy
//! and the stdin bytes: the complete answer, or an [`Invocation`] for the
//! handlers). The argv rules, decided once here:
//!
//! - **An unknown option** (`--timout=5`) is ignored with a warning on
//!   stderr, and everything else still applies: an older program meets a
//!   config written by a newer install. An unexpected positional argument
//!   is ignored the same way.
//! - **A value that cannot be used** (`--timeout=ten`, `--fail=closd`,
//!   `--max-bytes=lots`, an option without its value, an unknown command)
//!   or **an unknown provider** (`--provider=claude-cod`) stops the run:
//!   the answer is the fail policy's, in the most blocking form the agent
//!   understands, with a message on stderr. The policy is `--fail` when it
//!   parses, else the router's; an unparsable `--fail` counts as `closed`
//!   (a typo must never open a guard that was configured closed, and a
//!   config with a typo has to be fixed either way).
//! - With a known provider that answer is the provider's own (its deny
//!   where the event can be denied: [`dialect::fail_response`]). With an
//!   unknown provider the dialect is unknown: fail-open answers "no
//!   opinion" (exit 0, empty stdout, a message on stderr); fail-closed
//!   answers **exit 2 with the reason on stderr and nothing on stdout**, the
//!   one answer every command-hook agent reads as a block (Claude Code,
//!   Codex, Cursor, Gemini CLI, Kimi Code and Copilot CLI; see
//!   [`universal_answer`] and `fixtures/runtime/`), except on stop events,
//!   where exit 2 means "continue" and "no opinion" is answered instead.
//! - **The payload** is stdin, read first and bounded by `--max-bytes`. The
//!   legacy argv-payload modes (older Cursor CLI builds, Codex `notify`:
//!   cursor.md §1.2, codex.md §4.7) append the JSON as the *last* argument
//!   and leave stdin empty; so the last argument is the payload only when
//!   it comes after the `agenthooks` word, is a JSON object, and stdin holds
//!   nothing but whitespace. A JSON argument anywhere else (a config blob
//!   of the program, before the word) is never a payload.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use crate::dialect::{self, DEFAULT_MAX_BYTES, DecodeOptions};
use crate::error::Error;
use crate::model::{
    Decision, DecisionKind, Detection, Event, Fail, Kind, Note, Policy, Provider, Response,
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
    /// `--async`: answer "no opinion" at once and run the handlers in a
    /// detached child ([`crate::detach`]); ignored on gating events.
    pub async_run: bool,
    /// `--async-child`: this process is that detached child.
    pub async_child: bool,
    /// The ancestors' argv lists, nearest first, instead of `/proc` (what
    /// prompt backfill reads, [`crate::backfill`]); not an argv option,
    /// for tests and fixtures.
    pub ancestry: Option<Vec<Vec<String>>>,
    /// `--observed=<json>`: the session observation (environment and
    /// ancestors' argv, `crate::mode::Observation::from_json`) to decide
    /// the session mode from, instead of this process's own; for tests,
    /// the shared vectors and hosts that know better.
    pub observed: Option<crate::mode::Observation>,
    /// `--log` / `--log=payloads`: write this invocation to the audit log
    /// ([`crate::audit`]; `AGENTHOOKS_LOG`, when set, wins).
    pub log: Option<crate::audit::LogMode>,
}

/// How a hook process starts, decided from argv alone (no I/O): see
/// [`launch`].
#[derive(Debug)]
pub enum Launch {
    /// The run ends here: write this answer and exit with its code (no
    /// `agenthooks` word: usage and 64; `serve` with an option it cannot
    /// use: a message and 2).
    Answer(Response),
    /// One hook call: read stdin up to [`Plan::read_limit`]
    /// ([`read_stdin`]), then [`start`].
    Run(Plan),
    /// The NDJSON loop of the plugin bridges: write [`Plan::warnings`] to
    /// stderr, then serve with `plan.args`.
    Serve(Plan),
}

/// One hook call as argv describes it (the result of [`launch`]).
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// The arguments, as far as they parsed (`fail` is `closed` when the
    /// `--fail` value did not parse).
    pub args: RunArgs,
    /// Warnings for stderr (unknown options, ignored arguments), one line
    /// each, each ending in a newline; [`start`] puts them in front of the
    /// answer's stderr.
    pub warnings: String,
    /// The first value that cannot be used (or the unknown provider or
    /// command): [`start`] answers it per the fail policy.
    pub problem: Option<Error>,
    /// The last argument when it is a JSON object after the `agenthooks`
    /// word: the payload of the legacy argv modes, used only when stdin
    /// holds nothing but whitespace.
    pub argv_payload: Option<Vec<u8>>,
}

impl Plan {
    /// How many bytes of stdin to accept (`--max-bytes`, else the
    /// default); [`read_bounded`] keeps one more to detect "too large".
    pub fn read_limit(&self) -> usize {
        let limit = self.args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES);
        if self.args.async_child {
            // The handoff header line comes before the payload.
            return limit.saturating_add(crate::detach::MAX_HEADER.saturating_add(64));
        }
        limit
    }
}

/// The usage line for a program started without the `agenthooks` word.
pub fn usage(program: Option<&str>) -> String {
    format!(
        "agenthooks: this program is a coding-agent hook; run it as `{} agenthooks run --provider=<agent>` with the payload on stdin\n",
        program.unwrap_or("<program>")
    )
}

/// Whether argv asks for the run entry's usage: `--help` or `-h` after the
/// `agenthooks` word (what comes before it belongs to the program).
fn wants_help<S: AsRef<str>>(argv: &[S]) -> bool {
    argv.iter()
        .position(|a| a.as_ref() == "agenthooks")
        .is_some_and(|pos| {
            argv[pos + 1..]
                .iter()
                .any(|a| matches!(a.as_ref(), "--help" | "-h"))
        })
}

pub use crate::usage::run_usage;

/// Decides how a hook process starts from its argv (program first), with
/// the rules of the module docs. Never fails: what cannot be used is a
/// warning or the plan's `problem`.
pub fn launch<S: AsRef<str>>(argv: &[S]) -> Launch {
    if wants_help(argv) {
        // Before anything else: no stdin is read, nothing is decided.
        return Launch::Answer(Response {
            stdout: run_usage(),
            exit_code: 0,
            ..Response::default()
        });
    }
    let Some(plan) = parse_plan(argv) else {
        return Launch::Answer(Response {
            stderr: usage(argv.first().map(AsRef::as_ref)),
            exit_code: 64,
            ..Response::default()
        });
    };
    if plan.args.command != "serve" {
        return Launch::Run(plan);
    }
    match &plan.problem {
        // The bridge sees the process end and applies its own fail policy.
        Some(e) => Launch::Answer(Response {
            stderr: format!(
                "{}agenthooks: {}: {e} (cannot serve)\n",
                plan.warnings,
                e.code()
            ),
            exit_code: 2,
            ..Response::default()
        }),
        None => Launch::Serve(plan),
    }
}

/// Whether an argument is the JSON-object payload of the legacy argv modes.
fn is_json_object(a: &str) -> bool {
    let t = a.trim();
    t.starts_with('{')
        && t.ends_with('}')
        && crate::dialect::parse_object(t.as_bytes(), DEFAULT_MAX_BYTES).is_ok()
}

fn parse_plan<S: AsRef<str>>(argv: &[S]) -> Option<Plan> {
    let pos = argv.iter().position(|a| a.as_ref() == "agenthooks")?;
    let mut rest: Vec<&str> = argv[pos + 1..].iter().map(AsRef::as_ref).collect();
    let mut plan = Plan {
        args: RunArgs {
            command: "run".into(),
            ..RunArgs::default()
        },
        ..Plan::default()
    };
    if rest
        .last()
        .is_some_and(|a| !a.starts_with("--") && is_json_object(a))
    {
        plan.argv_payload = rest.pop().map(|a| a.as_bytes().to_vec());
    }
    let bad = |m: String| Error::InvalidArgument { message: m };
    fn problem(plan: &mut Plan, e: Error) {
        if plan.problem.is_none() {
            plan.problem = Some(e);
        }
    }
    let mut i = 0;
    if let Some(first) = rest.first().filter(|a| !a.starts_with("--")) {
        plan.args.command = first.to_string();
        i = 1;
        if *first != "run" && *first != "serve" {
            let e = bad(format!(
                "unknown command `{first}` (expected `run` or `serve`)"
            ));
            problem(&mut plan, e);
        }
    }
    while i < rest.len() {
        let a = rest[i];
        i += 1;
        if !a.starts_with("--") {
            plan.warnings.push_str(&format!(
                "agenthooks: warning: ignored unexpected argument `{a}`\n"
            ));
            continue;
        }
        // The two switches (no value).
        match a.split_once('=').map_or(a, |(k, _)| k) {
            crate::detach::ASYNC_FLAG | crate::detach::CHILD_FLAG if a.contains('=') => {
                let e = bad(format!("`{a}`: this option takes no value"));
                problem(&mut plan, e);
                continue;
            }
            crate::detach::ASYNC_FLAG => {
                plan.args.async_run = true;
                continue;
            }
            crate::detach::CHILD_FLAG => {
                plan.args.async_child = true;
                continue;
            }
            "--log" => {
                plan.args.log = Some(match a.split_once('=') {
                    None => crate::audit::LogMode::On,
                    Some((_, "payloads")) => crate::audit::LogMode::Payloads,
                    Some((_, v)) => {
                        let e = bad(format!(
                            "--log: `{v}` is not `payloads` (write `--log` or `--log=payloads`)"
                        ));
                        problem(&mut plan, e);
                        crate::audit::LogMode::On
                    }
                });
                continue;
            }
            _ => {}
        }
        let known = matches!(
            a.split_once('=').map_or(a, |(k, _)| k),
            "--provider"
                | "--agent"
                | "--dialect"
                | "--event"
                | "--variant"
                | "--timeout"
                | "--fail"
                | "--hook-id"
                | "--match"
                | "--max-bytes"
                | "--observed"
        );
        if !known {
            plan.warnings.push_str(&format!(
                "agenthooks: warning: ignored unknown option `{a}` (a newer agenthooks wrote this config?)\n"
            ));
            continue;
        }
        let (key, val) = match a.split_once('=') {
            Some((k, v)) => (k, v.to_string()),
            // The space form takes the next argument, unless that is an
            // option itself (`--provider --fail=closed`: a missing value,
            // and `--fail=closed` still applies).
            None => match rest.get(i).filter(|v| !v.starts_with("--")) {
                Some(v) => {
                    i += 1;
                    (a, v.to_string())
                }
                None => {
                    let e = bad(format!("`{a}` needs a value"));
                    problem(&mut plan, e);
                    match a {
                        "--fail" => plan.args.fail = Some(Fail::Closed),
                        // Named but unusable: the provider is unknown (no
                        // guessing from the environment or the payload).
                        "--provider" | "--agent" | "--dialect" => {
                            plan.args.provider = Some(String::new())
                        }
                        _ => {}
                    }
                    continue;
                }
            },
        };
        match key {
            "--provider" | "--agent" | "--dialect" => {
                if let Err(e) = Provider::parse(&val) {
                    problem(&mut plan, e);
                }
                plan.args.provider = Some(val);
            }
            "--event" => plan.args.event = Some(val),
            "--variant" => plan.args.variant = Some(val),
            "--hook-id" => plan.args.hook_id = Some(val),
            "--match" => plan.args.matcher = Some(val),
            "--timeout" => match val.trim().parse::<f64>() {
                Ok(t) if t.is_finite() && t > 0.0 => plan.args.timeout_s = Some(t),
                _ => {
                    let e = bad(format!(
                        "--timeout: `{val}` is not a number of seconds greater than 0"
                    ));
                    problem(&mut plan, e);
                }
            },
            "--fail" => match val.as_str() {
                "open" => plan.args.fail = Some(Fail::Open),
                "closed" => plan.args.fail = Some(Fail::Closed),
                _ => {
                    // A typo must not open a guard: read it as closed.
                    plan.args.fail = Some(Fail::Closed);
                    let e = bad(format!(
                        "--fail: `{val}` is neither `open` nor `closed` (read as closed)"
                    ));
                    problem(&mut plan, e);
                }
            },
            "--observed" => match crate::mode::Observation::from_json(&val) {
                Ok(o) => plan.args.observed = Some(o),
                Err(e) => problem(&mut plan, e),
            },
            "--max-bytes" => match val.trim().parse::<usize>() {
                Ok(n) => plan.args.max_bytes = Some(n),
                Err(_) => {
                    let e = bad(format!(
                        "--max-bytes: `{val}` is not a byte count (0 to {})",
                        usize::MAX
                    ));
                    problem(&mut plan, e);
                }
            },
            _ => {}
        }
    }
    Some(plan)
}

/// Strict parsing, for tools that validate a configured command: finds the
/// `agenthooks` word and parses what follows it; `Ok(None)` when the word
/// is absent. Unlike a hook run ([`launch`]), an unknown option, an
/// ignored argument, a bad value or an unknown provider is an
/// `invalid_argument` (or `unknown_provider`) error. A JSON-object last
/// argument is the legacy argv payload, not an error.
pub fn parse_args<S: AsRef<str>>(argv: &[S]) -> Result<Option<RunArgs>, Error> {
    let Some(plan) = parse_plan(argv) else {
        return Ok(None);
    };
    if let Some(e) = plan.problem {
        return Err(e);
    }
    if let Some(w) = plan.warnings.lines().next() {
        return Err(Error::InvalidArgument {
            message: w.trim_start_matches("agenthooks: warning: ").to_string(),
        });
    }
    Ok(Some(plan.args))
}

/// Reads at most `limit` bytes; more is a `too_large` error.
pub fn read_limited(r: impl Read, limit: usize) -> Result<Vec<u8>, Error> {
    let buf = read_bounded(r, limit)?;
    if buf.len() > limit {
        return Err(Error::TooLarge {
            what: "stdin payload",
            limit,
        });
    }
    Ok(buf)
}

/// Reads to the end, keeping at most `limit + 1` bytes: a result longer
/// than `limit` means the input was too large, and [`start`] answers
/// `too_large` per the fail policy with what was read (enough to tell a
/// stop event from a gating one). Fails only with `io`.
pub fn read_bounded(r: impl Read, limit: usize) -> Result<Vec<u8>, Error> {
    let mut buf = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    r.take(cap).read_to_end(&mut buf).map_err(|e| Error::Io {
        what: "reading stdin".into(),
        source: e,
    })?;
    Ok(buf)
}

/// The process's stdin as [`read_bounded`] reads it; a terminal counts as
/// empty (nobody piped a payload: never wait for a human to type one).
pub fn read_stdin(limit: usize) -> Result<Vec<u8>, Error> {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Ok(Vec::new());
    }
    read_bounded(stdin.lock(), limit)
}

/// The effective policy: the router's, with argv overrides.
pub fn effective_policy(router: &Router, args: &RunArgs) -> Policy {
    effective_policy_of(router.get_policy(), args)
}

/// The effective policy: `policy`, with argv overrides.
pub fn effective_policy_of(policy: &Policy, args: &RunArgs) -> Policy {
    let mut p = policy.clone();
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
    /// The decoded event, shared (handler threads and the bindings' event
    /// objects hold it without copying a large tool output or payload).
    pub event: Arc<Event>,
    /// The effective policy.
    pub policy: Policy,
    /// Handler deadline in milliseconds.
    pub deadline_ms: u64,
    counter: Option<ContinuationCounter>,
    /// Diagnostics for stderr (unsafe state, argv warnings, an unknown
    /// event name, ...), added to the answer.
    warnings: Vec<String>,
    /// A `serve` line: its reply frame carries the notes in their own
    /// field, so [`Invocation::complete`] leaves them off stderr.
    serve: bool,
    /// `--async` on a non-gating event: answer now, work in a detached
    /// child ([`Invocation::detach`]).
    detach: std::sync::atomic::AtomicBool,
    /// This process is the detached child: its answer goes nowhere.
    child: bool,
    /// The backfilled prompt event, once [`Invocation::backfill`] ran (or
    /// handed over by the parent to the child).
    backfill: std::sync::OnceLock<Option<Arc<Event>>>,
    /// Warnings found after [`start`] (a child that could not detach).
    late_warnings: std::sync::Mutex<Vec<String>>,
    state_dir: Option<PathBuf>,
    ancestry: Option<Vec<Vec<String>>>,
    /// `--observed`: the injected observation, else the live one.
    observed: Option<crate::mode::Observation>,
    /// The session mode, observed on first need.
    mode: std::sync::OnceLock<crate::mode::SessionMode>,
    /// Whether [`Invocation::complete`] writes an audit log line.
    log: crate::audit::LogMode,
    /// `--hook-id`, for the audit log.
    hook_id: Option<String>,
    /// When decoding started (the log's latency).
    started: std::time::Instant,
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
    let started = std::time::Instant::now();
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
        // Unknown agent: the fail policy in a form every agent reads.
        Err(e) => {
            let bytes = payload.as_deref().ok();
            return Err(universal_answer(&e, &policy, bytes, args.event.as_deref()));
        }
    };
    let payload = payload.map_err(|e| dialect::fail_response(provider, None, &e, &policy))?;
    let opts = DecodeOptions {
        variant: args.variant.clone().or(variant),
        event: args.event.clone(),
        max_bytes: args.max_bytes.unwrap_or(DEFAULT_MAX_BYTES),
        detection,
    };
    let mut shape = crate::schema::drift::Shape::default();
    let mut take_shape = |m: &serde_json::Map<String, serde_json::Value>| {
        shape = crate::schema::drift::Shape::of(provider, m);
    };
    let mut event = dialect::decode_vec_inspecting(provider, payload, &opts, &mut take_shape)
        .map_err(|(e, bytes)| dialect::fail_response_for_payload(provider, &bytes, &e, &policy))?;
    // Drift: fields the tables do not know are recorded (names and types
    // only); no I/O unless there is one. A state problem never changes the
    // answer: it is only reported on stderr.
    let mut warnings = Vec::new();
    if !args.async_child {
        let unknown = shape.unknown(&event.native_name);
        if !unknown.is_empty() {
            let version = shape
                .version()
                .map(str::to_string)
                .or_else(|| crate::schema::drift::env_version(provider, &env));
            let recorded = open_state(args)
                .and_then(|root| root.subdir(crate::schema::drift::SUBDIR))
                .and_then(|dir| {
                    crate::schema::drift::record(
                        &dir,
                        provider,
                        version.as_deref(),
                        &event.native_name,
                        &unknown,
                    )
                });
            if let Err(e) = recorded {
                warnings.push(format!(
                    "agenthooks: {}: {e} (unknown payload fields not recorded)\n",
                    e.code()
                ));
            }
        }
    }
    // `--match` / `--hook-id`: where an agent's matcher dialect could not
    // express the manifest's matcher, the config matches broadly and we
    // filter here (a non-matching call answers the no-op).
    crate::install::filter::gate(args.matcher.as_deref(), &event, &policy)?;
    // Cursor fires a generic and a specific hook for one call, each in its
    // own process: the second to arrive answers the no-op. State that
    // cannot be used safely is reported; the event is handled (a double
    // delivery beats a dropped decision).
    // The detached child: the parent claimed the call already.
    if !args.async_child && crate::dedupe::applies(&event) {
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
    // (The detached child's answer reaches no agent: it neither reads nor
    // records the count.)
    let counter = if !args.async_child && ContinuationCounter::applies(&event) {
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
    // An injected observation costs nothing to decide: record its mode on
    // the event, so handlers in every language read the same mode as the
    // `ask` path (`Event::session_mode`, `ah_event_session_mode_json`).
    if let (Some(o), None) = (&args.observed, event.interactive) {
        let m = crate::mode::decide(&event, o);
        event.set_mode(&m);
    }
    let deadline_ms = policy.deadline_ms(args.timeout_s);
    Ok(Invocation {
        event: Arc::new(event),
        policy,
        deadline_ms,
        counter,
        warnings,
        serve: args.command == "serve",
        detach: std::sync::atomic::AtomicBool::new(false),
        child: args.async_child,
        backfill: std::sync::OnceLock::new(),
        late_warnings: std::sync::Mutex::new(Vec::new()),
        state_dir: args.state_dir.clone(),
        ancestry: args.ancestry.clone(),
        observed: args.observed.clone(),
        mode: std::sync::OnceLock::new(),
        log: crate::audit::LogMode::current(args.log),
        hook_id: args.hook_id.clone(),
        started,
    })
}

impl Invocation {
    /// The session mode (interactive, headless or unknown, and the signal
    /// that decided), observed on first call from `--observed` or else from
    /// this process's environment and `/proc` (`crate::mode`); a mode the
    /// event already carries wins.
    pub fn session_mode(&self) -> &crate::mode::SessionMode {
        self.mode.get_or_init(|| {
            if self.event.interactive.is_some() {
                return self.event.mode();
            }
            crate::mode::observe_for(&self.event, self.observed.as_ref())
        })
    }

    /// Encodes the handlers' outcome (a decision, or the error / panic /
    /// timeout that replaced it) into the agent's answer, as the hook
    /// process writes it (with the opt-in notes on stderr:
    /// [`with_notes_on_stderr`]). Every language's run completes here.
    pub fn complete(&self, decision: Result<Decision, Error>) -> Response {
        let outcome = if self.log.is_on() {
            Some(match &decision {
                Ok(d) => (d.kind.as_str().to_string(), None),
                Err(e) => ("error".to_string(), Some(e.code().as_str().to_string())),
            })
        } else {
            None
        };
        let mut r = self.encode(decision);
        if self.child {
            // The detached child: the agent has its answer already.
            r.stdout.clear();
        }
        if let Some((kind, error)) = outcome {
            self.write_log(&mut r, kind, error);
        }
        if self.serve {
            r
        } else {
            with_notes_on_stderr(r)
        }
    }

    /// The answer [`Invocation::complete`] gives when the handlers miss
    /// the deadline, rendered ahead (the process-owning run's alarm writes
    /// it from a signal handler). Has no side effects: a failed run
    /// records no continuation.
    pub(crate) fn timeout_answer(&self) -> Response {
        let mut r = self.encode(Err(Error::HandlerTimeout {
            ms: self.deadline_ms,
        }));
        if self.child {
            r.stdout.clear();
        }
        with_notes_on_stderr(r)
    }

    /// [`Invocation::complete`] without the notes on stderr: the serve
    /// bridge carries the notes in its reply frame.
    /// Whether this run answers "no opinion" at once and leaves the work to
    /// a detached child (`--async` on a non-gating event; see
    /// [`crate::detach`]): the driver calls [`Invocation::detach`].
    pub fn detaching(&self) -> bool {
        self.detach.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Whether this process is the detached child of an async hook.
    pub fn is_async_child(&self) -> bool {
        self.child
    }

    /// Starts the detached child and returns the agent's answer now: the
    /// event's "no opinion". `program_argv` is how to run this program
    /// again, program first (the Rust binary: `current_exe` and its argv;
    /// a binding: its interpreter, interpreter flags and script argv), with
    /// the `--async` it was started with. The payload (and the backfilled
    /// prompt, when [`Invocation::backfill`] found one) reaches the child
    /// on its stdin. `None` when the child cannot be started (every slot
    /// busy, a spawn error): the reason is kept as a warning and the
    /// driver runs the handlers itself, synchronously.
    pub fn detach<S: AsRef<str>>(&self, program_argv: &[S]) -> Option<Response> {
        if !self.detaching() {
            return None;
        }
        let handoff = crate::detach::Handoff {
            backfill_prompt: self
                .backfill
                .get()
                .and_then(Option::as_ref)
                .and_then(|b| b.prompt.clone()),
        };
        let input = crate::detach::envelope(&handoff, &self.event.raw);
        let state = match &self.state_dir {
            Some(d) => crate::state::root_at(d),
            None => crate::state::root(),
        };
        let spawned = state
            .map_err(crate::detach::DetachError::from)
            .and_then(|st| crate::detach::spawn(&st, program_argv, &input));
        match spawned {
            Ok(_) => Some(self.complete(Ok(Decision::no_decision()))),
            Err(e) => {
                self.detach
                    .store(false, std::sync::atomic::Ordering::SeqCst);
                if let Ok(mut w) = self.late_warnings.lock() {
                    w.push(format!(
                        "agenthooks: warning: async hook not detached: {e}; it ran synchronously\n"
                    ));
                }
                None
            }
        }
    }

    /// The backfilled `prompt.submitted` to deliver to observers before
    /// this event, at most once per session ([`crate::backfill`]). Drivers
    /// call it only when an observer is registered (it may read `/proc`
    /// and the state root); later calls return the first result.
    pub fn backfill(&self) -> Option<Arc<Event>> {
        if self.child || self.serve {
            return self.backfill.get().cloned().flatten();
        }
        self.backfill.get_or_init(|| self.find_backfill()).clone()
    }

    fn find_backfill(&self) -> Option<Arc<Event>> {
        let ev = Arc::clone(&self.event);
        if !crate::backfill::may_skip_prompt(ev.provider) {
            return None;
        }
        let dir = || {
            match &self.state_dir {
                Some(d) => crate::state::root_at(d),
                None => crate::state::root(),
            }
            .and_then(|r| r.subdir(crate::backfill::SUBDIR))
            .ok()
        };
        if ev.kind == Kind::PromptSubmitted {
            // The agent fired its prompt event: never backfill this session.
            if let Some(d) = dir() {
                crate::backfill::claim(&d, &ev);
            }
            return None;
        }
        let chain: Vec<crate::ancestry::Process> = match &self.ancestry {
            Some(list) => list
                .iter()
                .zip(2u32..)
                .map(|(argv, pid)| crate::ancestry::Process {
                    pid,
                    argv: argv.clone(),
                    truncated: false,
                    tty: None,
                })
                .collect(),
            None => crate::ancestry::ancestors(),
        };
        let b = crate::backfill::synthesize(&ev, &chain)?;
        if !crate::backfill::claim(&dir()?, &ev) {
            return None;
        }
        Some(Arc::new(b))
    }

    /// Appends this invocation's audit line (logging is on). A line that
    /// cannot be written costs a warning on stderr where no agent reads
    /// stderr as the answer (exit 0), never the answer itself.
    fn write_log(&self, r: &mut Response, decision: String, error: Option<String>) {
        let mut e = crate::audit::Entry::for_event(&self.event, self.hook_id.as_deref());
        e.decision = decision;
        e.detached = self.child;
        let mut e = e.answered(r, error, self.started.elapsed());
        if self.log == crate::audit::LogMode::Payloads {
            e = e.with_payload(&self.event.raw_json());
        }
        let written =
            crate::audit::dir(self.state_dir.as_deref()).and_then(|d| crate::audit::append(&d, &e));
        if let Err(err) = written {
            if r.exit_code == 0 {
                r.stderr.push_str(&format!(
                    "agenthooks: warning: audit log not written: {}: {err}\n",
                    err.code()
                ));
            }
        }
    }

    pub(crate) fn encode(&self, decision: Result<Decision, Error>) -> Response {
        let ev = &*self.event;
        let answer = |d: Decision| {
            // The session mode costs a walk of /proc: only an `ask` needs it.
            let r = if d.kind == DecisionKind::Ask {
                dialect::respond_in_mode(ev, &d, &self.policy, self.session_mode())
            } else {
                dialect::respond(ev, &d, &self.policy)
            };
            Ok((d.kind, r?))
        };
        let mut r = match decision.and_then(answer) {
            Ok((kind, r)) => {
                if let Some(c) = &self.counter {
                    let capped = r.notes.iter().any(|n| n.code == "continuation_capped");
                    c.record(kind == DecisionKind::Continue && !capped);
                }
                r
            }
            Err(e) => dialect::fail_response(ev.provider, Some(ev), &e, &self.policy),
        };
        if let Ok(late) = self.late_warnings.lock() {
            if !late.is_empty() {
                r.stderr.insert_str(0, &late.concat());
            }
        }
        if !self.warnings.is_empty() {
            r.stderr.insert_str(0, &self.warnings.concat());
        }
        r
    }
}

/// Step one of a hook run from a [`Plan`] (every language's run entry calls
/// it): picks the payload (stdin, else the legacy argv payload), answers a
/// plan `problem` per the fail policy (module docs), else [`prepare`]s the
/// invocation. `policy` is the router's; `stdin` what [`read_bounded`]
/// (or [`read_stdin`]) returned. `Err` is the complete answer. The plan's
/// warnings, and a note on an event name agenthooks does not know, are put
/// in front of the answer's stderr.
pub fn start(
    plan: &Plan,
    policy: &Policy,
    stdin: Result<Vec<u8>, Error>,
) -> Result<Invocation, Response> {
    let started = std::time::Instant::now();
    let log = crate::audit::LogMode::current(plan.args.log);
    // Only when logging: the event name, for a line about an answer given
    // before decoding.
    let peeked = match (&stdin, log.is_on()) {
        (Ok(b), true) => dialect::json::peek_event_name(b),
        _ => None,
    };
    start_inner(plan, policy, stdin).map_err(|mut r| {
        if log.is_on() {
            log_early_answer(plan, peeked, &mut r, started.elapsed());
        }
        r
    })
}

/// The audit line of an answer given before any handler ran: what argv
/// and the payload say, without decoding again.
fn log_early_answer(plan: &Plan, peeked: Option<String>, r: &mut Response, latency: Duration) {
    let args = &plan.args;
    let mut e = crate::audit::Entry {
        v: crate::audit::VERSION,
        agent: args
            .provider
            .as_deref()
            .and_then(|p| Provider::parse(p).ok())
            .map(|p| p.id().to_string())
            .unwrap_or_default(),
        event: crate::audit::clip(&peeked.or_else(|| args.event.clone()).unwrap_or_default()),
        hook_id: args.hook_id.as_deref().map(crate::audit::clip),
        decision: "none".into(),
        detached: args.async_child,
        ..crate::audit::Entry::default()
    };
    if !e.agent.is_empty() && !e.event.is_empty() {
        if let Ok(p) = Provider::parse(&e.agent) {
            e.kind = dialect::kind_of(p, &e.event).as_str().to_string();
        }
    }
    let e = e.answered(
        r,
        plan.problem.as_ref().map(|p| p.code().as_str().to_string()),
        latency,
    );
    let written =
        crate::audit::dir(args.state_dir.as_deref()).and_then(|d| crate::audit::append(&d, &e));
    if let Err(err) = written {
        if r.exit_code == 0 {
            r.stderr.push_str(&format!(
                "agenthooks: warning: audit log not written: {}: {err}\n",
                err.code()
            ));
        }
    }
}

fn start_inner(
    plan: &Plan,
    policy: &Policy,
    stdin: Result<Vec<u8>, Error>,
) -> Result<Invocation, Response> {
    let blank = |b: &[u8]| b.iter().all(u8::is_ascii_whitespace);
    let payload = match (stdin, &plan.argv_payload) {
        (Ok(b), Some(ap)) if blank(&b) => Ok(ap.clone()),
        // No usable stdin at all (closed): the argv payload, if any.
        (Err(Error::Io { .. }), Some(ap)) => Ok(ap.clone()),
        (other, _) => other,
    };
    let serve = plan.args.command == "serve";
    // The detached child: the parent's handoff line, then the payload.
    let mut handoff = crate::detach::Handoff::default();
    let payload = match payload {
        Ok(b) if plan.args.async_child => match crate::detach::open_envelope(b) {
            Ok((h, p)) => {
                handoff = h;
                Ok(p)
            }
            Err(e) => Err(e),
        },
        other => other,
    };
    let with_warnings = |mut r: Response| {
        r.stderr.insert_str(0, &plan.warnings);
        if serve { r } else { with_notes_on_stderr(r) }
    };
    if let Some(problem) = &plan.problem {
        return Err(with_warnings(problem_answer(
            plan, policy, problem, payload,
        )));
    }
    match prepare(&plan.args, policy, payload) {
        Ok(mut inv) => {
            // Argv warnings lead, then what prepare found.
            if !plan.warnings.is_empty() {
                inv.warnings.insert(0, plan.warnings.clone());
            }
            if let Some(n) = unrecognised_event(&inv.event) {
                inv.warnings.push(n);
            }
            if let Some(p) = handoff.backfill_prompt {
                let b = crate::backfill::event_with_prompt(&inv.event, p);
                let _ = inv.backfill.set(Some(Arc::new(b)));
            }
            if plan.args.async_run && !plan.args.async_child && !serve {
                if crate::detach::gating(inv.event.kind) {
                    inv.warnings.push(format!(
                        "agenthooks: warning: --async ignored on {} (`{}`): a gating event's answer must reach the agent, so the hook ran synchronously\n",
                        inv.event.native_name,
                        inv.event.kind.as_str()
                    ));
                } else {
                    inv.detach = std::sync::atomic::AtomicBool::new(true);
                }
            }
            Ok(inv)
        }
        Err(answer) => Err(with_warnings(answer)),
    }
}

/// The answer to a plan whose argv cannot be used: the fail policy (argv's
/// `--fail`, else the router's), in the provider's own form when the
/// provider is known (a decoded event gets its exact blocking answer),
/// else in the [`universal_answer`].
fn problem_answer(
    plan: &Plan,
    policy: &Policy,
    problem: &Error,
    payload: Result<Vec<u8>, Error>,
) -> Response {
    let args = &plan.args;
    let mut policy = policy.clone();
    if let Some(f) = args.fail {
        policy.fail = f;
    }
    let env = |k: &str| std::env::var(k).ok();
    let provider = match (args.provider.as_deref(), &payload) {
        (Some(p), _) => Provider::parse(p).ok(),
        (None, Ok(bytes)) if bytes.len() <= plan.read_limit() => {
            crate::detect::detect(None, &env, &[], bytes)
                .ok()
                .map(|(p, _, _)| p)
        }
        (None, _) => None,
    };
    let Some(provider) = provider else {
        return universal_answer(
            problem,
            &policy,
            payload.as_deref().ok(),
            args.event.as_deref(),
        );
    };
    let bytes = match payload {
        Ok(b) => b,
        Err(_) => return dialect::fail_response(provider, None, problem, &policy),
    };
    let opts = DecodeOptions {
        variant: args.variant.clone(),
        event: args.event.clone(),
        max_bytes: plan.read_limit(),
        detection: Detection::Config,
    };
    match dialect::decode_vec(provider, bytes, &opts) {
        Ok(ev) => dialect::fail_response(provider, Some(&ev), problem, &policy),
        Err((_, bytes)) => dialect::fail_response_for_payload(provider, &bytes, problem, &policy),
    }
}

/// The fail policy's answer when the agent is unknown (an unknown or
/// missing `--provider` that the environment and payload do not settle),
/// so the answer must mean the same to every agent that runs command
/// hooks:
///
/// - fail-open: exit 0, empty stdout, the message on stderr: "no opinion"
///   everywhere (Cursor and Gemini CLI log or show the message).
/// - fail-closed: exit 2, empty stdout, the message on stderr. Exit 2 with
///   a non-empty stderr blocks every gating event of Claude Code
///   (claude-code.md §4.1, quirk 2), Codex (codex.md §4.1: stderr must not
///   be empty), Cursor (cursor.md §4.1: permission events deny), Gemini CLI
///   (gemini-cli.md §4.1: exit 2 with plain text on stderr and nothing on
///   stdout is a deny), Kimi Code (kimi-code.md: exit 2 is its only block)
///   and Copilot CLI (copilot-cli.md quirk 4: any non-zero exit denies
///   `preToolUse`). Claude Code's `PermissionRequest` ignores exit 2
///   (quirk 3) and shows its permission dialog: never an allow.
/// - fail-closed on a stop event (the name read tolerantly from the
///   payload, else `--event`): exit 2 there makes Claude Code, Codex and
///   Gemini CLI *continue* the turn, so "no opinion" is answered and the
///   failure is logged.
///
/// The vectors `fixtures/runtime/unknown-provider-*.json` pin these.
pub fn universal_answer(
    error: &Error,
    policy: &Policy,
    payload: Option<&[u8]>,
    event_hint: Option<&str>,
) -> Response {
    let code = error.code();
    let diag = format!("agenthooks: {code}: {error}");
    if policy.fail == Fail::Open {
        return Response {
            stderr: format!("{diag} (fail-open: no decision)\n"),
            notes: vec![Note::new(
                "fail_open",
                Some(code.as_str()),
                Some("no_decision"),
                "",
            )],
            ..Response::default()
        };
    }
    let name = payload
        .and_then(dialect::json::peek_event_name)
        .or_else(|| event_hint.map(str::to_string));
    if let Some(name) = name.filter(|n| is_stop_event_anywhere(n)) {
        return Response {
            stderr: format!(
                "{diag} (fail-closed: logged_only on {name}; a block there would make the agent continue)\n"
            ),
            notes: vec![Note::new(
                "fail_closed",
                Some(code.as_str()),
                Some("logged_only"),
                "",
            )],
            ..Response::default()
        };
    }
    Response {
        stdout: String::new(),
        stderr: format!("{diag} (fail-closed: exit 2, the block every agent reads)\n"),
        exit_code: 2,
        notes: vec![Note::new(
            "fail_closed",
            Some(code.as_str()),
            Some("exit_2"),
            "",
        )],
    }
}

/// Whether any agent names a stop event so.
fn is_stop_event_anywhere(name: &str) -> bool {
    Provider::ALL.iter().any(|p| {
        matches!(
            dialect::kind_of(*p, name),
            Kind::AgentStop | Kind::SubagentStop
        )
    })
}

/// A stderr line for an event name the provider does not document (it
/// still decodes, as kind `other`, by design): a lowercase `pretooluse`
/// would otherwise pass a fail-closed guard in silence.
pub fn unrecognised_event(ev: &Event) -> Option<String> {
    if ev.kind != Kind::Other {
        return None;
    }
    let known = dialect::native_events(ev.provider);
    if known.contains(&ev.native_name.as_str()) {
        return None;
    }
    let hint = known
        .iter()
        .find(|k| k.eq_ignore_ascii_case(&ev.native_name))
        .map(|k| format!(" (event names are case-sensitive: did you mean `{k}`?)"))
        .unwrap_or_default();
    // A payload of another agent (or a wrong `--provider`): say whose it
    // looks like.
    let other = match ev.raw_json() {
        serde_json::Value::Object(map) => crate::detect::detect_shape(&map),
        _ => None,
    }
    .filter(|p| *p != ev.provider && dialect::kind_of(*p, &ev.native_name) != Kind::Other)
    .map(|p| {
        format!(
            "; the payload looks like {}'s (is `--provider={}` meant?)",
            p.display_name(),
            p.id()
        )
    })
    .unwrap_or_default();
    Some(format!(
        "agenthooks: warning: {} sent the event `{}`, which agenthooks does not know{hint}; it decodes as kind `other`, so handlers for known kinds did not run{other}\n",
        ev.provider.id(),
        ev.native_name
    ))
}

/// The whole run of one hook call after [`launch`]: [`start`], the router
/// within the deadline, [`Invocation::complete`].
pub fn run_plan(router: Arc<Router>, plan: &Plan, stdin: Result<Vec<u8>, Error>) -> Response {
    run_plan_as(router, plan, stdin, None::<&[String]>)
}

/// [`run_plan`] for a hook process that can start its own detached child
/// (`--async`): `program_argv` is how to run this program again (see
/// [`Invocation::detach`]). Without it (in-process runs: tests,
/// embedding) an async run answers "no opinion" just the same and runs
/// the handlers before returning, their outcome dropped.
pub fn run_plan_as<S: AsRef<str>>(
    router: Arc<Router>,
    plan: &Plan,
    stdin: Result<Vec<u8>, Error>,
    program_argv: Option<&[S]>,
) -> Response {
    let again = program_argv.map(|a| move || a.iter().map(|s| s.as_ref().to_string()).collect());
    run_plan_with(router, plan, stdin, again, &decide_event)
}

/// How to run the handlers of an invocation (after the backfilled event,
/// if any) and bound them by its deadline: [`decide_event`] (a worker
/// thread), or the process-owning run's alarm (`crate::process`).
pub(crate) type Decide<'a> =
    &'a dyn Fn(&Arc<Router>, Option<Arc<Event>>, &Invocation) -> Result<Decision, Error>;

/// [`run_plan_as`] with the program's argv computed only when an async
/// run detaches, and the handlers run by `decide`.
pub(crate) fn run_plan_with<F: FnOnce() -> Vec<String>>(
    router: Arc<Router>,
    plan: &Plan,
    stdin: Result<Vec<u8>, Error>,
    program_argv: Option<F>,
    decide: Decide<'_>,
) -> Response {
    let inv = match start(plan, router.get_policy(), stdin) {
        Ok(inv) => inv,
        Err(answer) => return answer,
    };
    // Prompt backfill only when an observer can see it (zero cost else).
    let backfill = if router.table().has_observers() {
        inv.backfill()
    } else {
        None
    };
    if inv.detaching() {
        match program_argv {
            Some(argv) => {
                if let Some(answer) = inv.detach(&argv()) {
                    return answer;
                }
            }
            None => {
                let answer = inv.complete(Ok(Decision::no_decision()));
                let _ = decide_event(&router, backfill, &inv);
                return answer;
            }
        }
    }
    let decision = decide(&router, backfill, &inv);
    inv.complete(decision)
}

/// The router on the invocation's event (after the backfilled one, if
/// any), within the deadline when user code runs.
pub(crate) fn decide_event(
    router: &Arc<Router>,
    backfill: Option<Arc<Event>>,
    inv: &Invocation,
) -> Result<Decision, Error> {
    // No handler, observer or middleware for this event (a guard that
    // ignores PostToolUse, say): nothing can hang, so no handler thread.
    if router.runs_user_code(&inv.event) || backfill.is_some() {
        decide_with_deadline_after(
            Arc::clone(router),
            backfill,
            Arc::clone(&inv.event),
            inv.deadline_ms,
        )
    } else {
        router.decide(&inv.event)
    }
}

/// A hook process's answer for `argv` and these stdin bytes, in-process
/// (tests, embedding, the shared `fixtures/runtime` vectors): what
/// [`run_process`] writes, without touching the process's stdio. `serve`
/// is not run here (an answer with exit 2 says so).
pub fn run_argv<S: AsRef<str>>(router: Arc<Router>, argv: &[S], stdin: &[u8]) -> Response {
    match launch(argv) {
        Launch::Answer(r) => r,
        Launch::Serve(plan) => Response {
            stderr: format!(
                "{}agenthooks: `serve` runs only as a process\n",
                plan.warnings
            ),
            exit_code: 2,
            ..Response::default()
        },
        Launch::Run(plan) => {
            let bytes = read_bounded(stdin, plan.read_limit());
            run_plan(router, &plan, bytes)
        }
    }
}

/// Runs one hook invocation end to end and returns the agent's answer.
/// Never panics; handler panics, errors and timeouts go through the fail
/// policy.
pub fn run(router: Arc<Router>, args: &RunArgs, payload: Result<Vec<u8>, Error>) -> Response {
    let inv = match prepare(args, router.get_policy(), payload) {
        Ok(inv) => inv,
        Err(answer) => return with_notes_on_stderr(answer),
    };
    // No handler, observer or middleware for this event (a guard that
    // ignores PostToolUse, say): nothing can hang, so no handler thread.
    let decision = if router.runs_user_code(&inv.event) {
        decide_with_deadline(router, Arc::clone(&inv.event), inv.deadline_ms)
    } else {
        router.decide(&inv.event)
    };
    inv.complete(decision)
}

/// Runs the router on a worker thread, abandoning it at the deadline.
pub fn decide_with_deadline(
    router: Arc<Router>,
    event: Arc<Event>,
    deadline_ms: u64,
) -> Result<Decision, Error> {
    decide_with_deadline_after(router, None, event, deadline_ms)
}

/// [`decide_with_deadline`], delivering a backfilled event to the
/// observers first on the same thread and within the same deadline (its
/// outcome is dropped: it never answers the agent).
pub fn decide_with_deadline_after(
    router: Arc<Router>,
    backfill: Option<Arc<Event>>,
    event: Arc<Event>,
    deadline_ms: u64,
) -> Result<Decision, Error> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("agenthooks-handler".into())
        .spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                if let Some(b) = &backfill {
                    let _ = router.decide(b);
                }
                router.decide(&event)
            }));
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
            // Close-on-exec: a child a handler starts must not inherit the
            // agent's stdout (it could answer in our name, or hold the pipe
            // open so the agent waits for it).
            let saved = rustix::io::fcntl_dupfd_cloexec(rustix::stdio::stdout(), 3).ok();
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

    /// The descriptor the answer goes to (the real stdout).
    #[cfg(unix)]
    pub(crate) fn answer_fd(&self) -> i32 {
        use std::os::fd::AsRawFd;
        self.saved.as_ref().map_or(1, AsRawFd::as_raw_fd)
    }

    /// Writes the answer to the real stdout.
    pub fn write_answer(&self, bytes: &[u8]) -> std::io::Result<()> {
        let _ = std::io::stdout().flush();
        #[cfg(unix)]
        if let Some(fd) = &self.saved {
            // Straight to the saved descriptor (no duplicate to close).
            let mut rest = bytes;
            while !rest.is_empty() {
                match rustix::io::write(fd, rest) {
                    Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                    Ok(n) => rest = rest.get(n..).unwrap_or_default(),
                    Err(rustix::io::Errno::INTR) => {}
                    Err(e) => return Err(e.into()),
                }
            }
            return Ok(());
        }
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)?;
        out.flush()
    }
}

/// The response as a hook process writes it, with its notes (what the
/// agent could not express, and what it became instead) appended to stderr
/// as `agenthooks: note: …` lines when [`notes_wanted`] says so. Every
/// language's `main()` calls this.
pub fn with_notes_on_stderr(mut resp: Response) -> Response {
    let setting = std::env::var("AGENTHOOKS_NOTES").ok();
    if notes_wanted(setting.as_deref(), &resp) {
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

/// Whether a hook process's notes go to stderr, per `AGENTHOOKS_NOTES`:
/// `0` (or `off`, `false`, `no`) never; any other non-empty value always;
/// unset or empty: only where no agent reads stderr as part of the answer,
/// i.e. exit code 0. On exit 0 every agent only logs stderr (Claude Code:
/// debug log; Codex, Cursor, Kimi Code, Copilot CLI: logged or ignored);
/// Gemini CLI reads stderr only when stdout is empty, and its answers on
/// exit 0 always carry JSON on stdout (checked over every fixture by
/// `core/tests/notes_default.rs`). On exit 2 stderr is the block reason
/// (or the continuation instruction) the model reads, so notes stay out.
pub fn notes_wanted(setting: Option<&str>, resp: &Response) -> bool {
    match setting.map(str::trim) {
        None | Some("") => resp.exit_code == 0,
        Some(v) => !matches!(
            v.to_ascii_lowercase().as_str(),
            "0" | "off" | "false" | "no"
        ),
    }
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
        // Nothing recognisable: the fail policy in the form every agent
        // reads (fail-open: no opinion; fail-closed: exit 2 + stderr).
        let answer = prepare(&a, &Policy::default(), Ok(b"{}".to_vec())).unwrap_err();
        assert_eq!((answer.stdout.as_str(), answer.exit_code), ("", 0));
        assert!(
            answer.stderr.contains("unknown_provider"),
            "{}",
            answer.stderr
        );
        let answer = prepare(&a, &Policy::fail_closed(), Ok(b"{}".to_vec())).unwrap_err();
        assert_eq!((answer.stdout.as_str(), answer.exit_code), ("", 2));
        assert!(answer.stderr.contains("unknown_provider"));
    }
}
