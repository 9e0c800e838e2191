//! The author-side run, in the core's steps (shared by every language):
//! [`launch`] (the argv rules), [`NativePlan::prepare`] (the core's
//! `runtime::start`), the JS handlers (within `deadlineMs`),
//! [`NativeInvocation::complete`]. Plus the stdout guard and a watchdog
//! that answers when a handler blocks the event loop past the deadline.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use agenthooks::runtime::{self, Invocation, Launch, Plan, StdoutGuard};
use agenthooks::{Decision, Error, Event, Fail};
use napi::bindgen_prelude::{Buffer, Either, External};
use napi_derive::napi;

use crate::error::{self, NativeError, Result, throw};
use crate::event::{Response, handle, policy};

/// Parsed `agenthooks run` arguments (the core's `RunArgs`).
#[napi(object)]
pub struct RunArgs {
    /// Subcommand (`run`).
    pub command: String,
    /// `--provider` (aliases `--agent`, `--dialect`).
    pub provider: Option<String>,
    /// `--event`.
    pub event: Option<String>,
    /// `--variant`.
    pub variant: Option<String>,
    /// `--timeout` in seconds.
    pub timeout_s: Option<f64>,
    /// `--fail`: `open` or `closed`.
    pub fail: Option<String>,
    /// `--hook-id`.
    pub hook_id: Option<String>,
    /// `--match`.
    pub matcher: Option<String>,
    /// `--max-bytes`.
    pub max_bytes: Option<f64>,
    /// Where cross-process state lives (default: the core's `state_dir()`).
    pub state_dir: Option<String>,
    /// `--async`: answer at once, run the handlers in a detached child.
    pub async_run: Option<bool>,
    /// `--async-child`: this process is that child.
    pub async_child: Option<bool>,
    /// The ancestors' argv lists, nearest first, instead of `/proc`
    /// (prompt backfill; tests and fixtures).
    pub ancestry: Option<Vec<Vec<String>>>,
}

impl From<runtime::RunArgs> for RunArgs {
    fn from(a: runtime::RunArgs) -> Self {
        RunArgs {
            command: a.command,
            provider: a.provider,
            event: a.event,
            variant: a.variant,
            timeout_s: a.timeout_s,
            fail: a.fail.map(|f| match f {
                Fail::Open => "open".to_string(),
                Fail::Closed => "closed".to_string(),
            }),
            hook_id: a.hook_id,
            matcher: a.matcher,
            max_bytes: a.max_bytes.map(|m| m as f64),
            state_dir: a.state_dir.map(|p| p.to_string_lossy().into_owned()),
            async_run: Some(a.async_run),
            async_child: Some(a.async_child),
            ancestry: a.ancestry,
        }
    }
}

impl RunArgs {
    pub(crate) fn to_core(&self) -> Result<runtime::RunArgs> {
        let fail = match self.fail.as_deref() {
            None => None,
            Some("open") => Some(Fail::Open),
            Some("closed") => Some(Fail::Closed),
            Some(f) => {
                return Err(throw(Error::InvalidArgument {
                    message: format!("--fail: `{f}` (expected open or closed)"),
                }));
            }
        };
        Ok(runtime::RunArgs {
            command: self.command.clone(),
            provider: self.provider.clone(),
            event: self.event.clone(),
            variant: self.variant.clone(),
            timeout_s: self.timeout_s,
            fail,
            hook_id: self.hook_id.clone(),
            matcher: self.matcher.clone(),
            max_bytes: self.max_bytes.map(|m| m as usize),
            state_dir: self.state_dir.clone().map(Into::into),
            async_run: self.async_run.unwrap_or(false),
            async_child: self.async_child.unwrap_or(false),
            ancestry: self.ancestry.clone(),
            // Not an option of the JS-side args: argv's `--observed` only
            // (`NativePlan::prepare` keeps the plan's).
            observed: None,
            // Likewise argv's `--log` (kept from the plan in `prepare`).
            log: None,
        })
    }
}

/// Strict validation of a hook's argv: the `agenthooks` word and what
/// follows it are parsed; `null` when the word is absent; throws
/// `invalid_argument` for an unknown option, a stray argument or a bad
/// value (`unknown_provider` for an unknown provider). A JSON object as
/// the last argument is the legacy argv payload, not an error. `main` is
/// lenient where it can be (see [`launch`]).
#[napi]
pub fn parse_args(argv: Vec<String>) -> Result<Option<RunArgs>> {
    Ok(runtime::parse_args(&argv).map_err(throw)?.map(Into::into))
}

/// One hook call as argv describes it (the core's `runtime::Plan`): the
/// arguments, warnings, the first value that cannot be used, the legacy
/// argv payload.
#[napi]
pub struct NativePlan {
    plan: Plan,
}

impl NativePlan {
    pub(crate) fn core_args(&self) -> &runtime::RunArgs {
        &self.plan.args
    }
}

#[napi]
impl NativePlan {
    /// The parsed arguments.
    #[napi(getter)]
    pub fn args(&self) -> RunArgs {
        self.plan.args.clone().into()
    }

    /// `run` or `serve`.
    #[napi(getter)]
    pub fn command(&self) -> String {
        self.plan.args.command.clone()
    }

    /// Warnings about argv for stderr (unknown options, ignored
    /// arguments), one line each; `prepare` puts them in front of a run's
    /// answer.
    #[napi(getter)]
    pub fn warnings(&self) -> String {
        self.plan.warnings.clone()
    }

    /// Step one (the core's `runtime::start`): `args` are this plan's
    /// (possibly with a `stateDir`); `payload` the stdin bytes (embedding,
    /// tests), else stdin is read here (up to `--max-bytes` plus one byte;
    /// a terminal is empty). The argv payload is used when stdin is blank;
    /// a value argv cannot use is answered per the fail policy. Returns
    /// the invocation, or the complete answer when the run ends here
    /// (unknown provider, bad argv value, undecodable input, a duplicate).
    #[napi]
    pub fn prepare(
        &self,
        args: RunArgs,
        policy_json: Option<String>,
        payload: Option<Buffer>,
    ) -> Result<Either<NativeInvocation, Response>> {
        let mut core = args.to_core()?;
        // `--observed` lives in argv only: keep the plan's.
        core.observed = self.plan.args.observed.clone();
        core.log = self.plan.args.log;
        let plan = Plan {
            args: core,
            ..self.plan.clone()
        };
        let pol = policy(policy_json.as_deref())?;
        let bytes = match payload {
            Some(b) => Ok(b.to_vec()),
            None => runtime::read_stdin(plan.read_limit()),
        };
        Ok(match runtime::start(&plan, &pol, bytes) {
            Ok(inv) => Either::A(NativeInvocation {
                inner: Arc::new(Shared {
                    inv,
                    claimed: AtomicBool::new(false),
                }),
            }),
            Err(answer) => Either::B(answer.into()),
        })
    }
}

/// How a hook process starts from its argv, program first (the core's
/// `runtime::launch`, the argv rules every language shares): the plan of
/// a `run` or `serve`, or the whole answer (no `agenthooks` word: usage,
/// exit 64; `serve` with a value it cannot use: exit 2). An unknown option
/// is only a warning.
#[napi]
pub fn launch(argv: Vec<String>) -> Either<NativePlan, Response> {
    match runtime::launch(&argv) {
        Launch::Answer(r) => Either::B(r.into()),
        Launch::Run(plan) | Launch::Serve(plan) => Either::A(NativePlan { plan }),
    }
}

struct Shared {
    inv: Invocation,
    claimed: AtomicBool,
}

/// One prepared hook invocation (the core's `Invocation`).
#[napi]
pub struct NativeInvocation {
    inner: Arc<Shared>,
}

#[napi]
impl NativeInvocation {
    /// The decoded event (loop-guard count filled).
    #[napi(ts_return_type = "ExternalObject<'agenthooks:Event'>")]
    pub fn event(&self) -> External<Arc<Event>> {
        handle(Arc::clone(&self.inner.inv.event))
    }

    /// The effective policy (JSON).
    #[napi]
    pub fn policy_json(&self) -> String {
        serde_json::to_string(&self.inner.inv.policy).unwrap_or_else(|_| "{}".into())
    }

    /// The handler deadline in milliseconds.
    #[napi(getter)]
    pub fn deadline_ms(&self) -> f64 {
        self.inner.inv.deadline_ms as f64
    }

    /// Step three: encodes the handlers' decision (JSON), or applies the
    /// fail policy to a bad one, and records the loop-guard count.
    #[napi]
    pub fn complete(&self, decision_json: String) -> Response {
        self.inner
            .inv
            .complete(Decision::from_json(&decision_json))
            .into()
    }

    /// Step three for a failed run: the handlers' error (exception,
    /// timeout) through the fail policy.
    #[napi]
    pub fn complete_error(&self, error: &NativeError) -> Response {
        self.inner
            .inv
            .complete(Err(error::copy(&error.inner)))
            .into()
    }

    /// Whether this run answers "no opinion" at once and leaves the work
    /// to a detached child (`--async` on a non-gating event).
    #[napi(getter)]
    pub fn detaching(&self) -> bool {
        self.inner.inv.detaching()
    }

    /// Starts the detached child (`program_argv`: `process.execPath`, its
    /// `execArgv` and the script argv, with the `--async` it was started
    /// with) and returns the agent's answer; `null` when it cannot start
    /// (the handlers then run here, synchronously).
    #[napi]
    pub fn detach(&self, program_argv: Vec<String>) -> Option<Response> {
        self.inner.inv.detach(&program_argv).map(Into::into)
    }

    /// The backfilled `prompt.submitted` to show the observers before this
    /// event (at most once per session), or `null`. Call it only when an
    /// observer is registered.
    #[napi(ts_return_type = "ExternalObject<'agenthooks:Event'> | null")]
    pub fn backfill(&self) -> Option<External<Arc<Event>>> {
        self.inner.inv.backfill().map(handle)
    }

    /// Takes the right to answer: `true` once, for the first caller (the
    /// JS path or the watchdog).
    #[napi]
    pub fn claim(&self) -> bool {
        !self.inner.claimed.swap(true, Ordering::SeqCst)
    }

    /// Arms the watchdog: if nobody claimed the answer `afterMs` from now
    /// (a handler blocks the event loop), it writes the `handler_timeout`
    /// answer through `guard` and ends the process with its exit code.
    #[napi]
    pub fn arm_watchdog(&self, guard: &NativeStdoutGuard, after_ms: f64) -> Result<()> {
        let shared = self.inner.clone();
        let out = guard.inner.clone();
        let after = Duration::from_millis(after_ms.max(0.0) as u64);
        std::thread::Builder::new()
            .name("agenthooks-watchdog".into())
            .spawn(move || {
                std::thread::sleep(after);
                if shared.claimed.swap(true, Ordering::SeqCst) {
                    return;
                }
                let ms = shared.inv.deadline_ms;
                let resp = shared.inv.complete(Err(Error::HandlerTimeout { ms }));
                let code = write_out(&out, &resp.into());
                hard_exit(code);
            })
            .map(|_| ())
            .map_err(|e| {
                throw(Error::Io {
                    what: "spawning the watchdog thread".into(),
                    source: e,
                })
            })
    }
}

fn write_out(out: &StdoutGuard, r: &Response) -> i32 {
    use std::io::Write;
    if !r.stderr.is_empty() {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(r.stderr.as_bytes());
        let _ = err.flush();
    }
    if out.write_answer(r.stdout.as_bytes()).is_err() {
        return 1;
    }
    r.exit_code
}

#[cfg(unix)]
fn hard_exit(code: i32) -> ! {
    // SAFETY: `_exit` takes no pointers and never returns; it skips atexit
    // handlers, which must not run while the JS thread is still executing
    // (the answer is already written and flushed above).
    unsafe { libc::_exit(code) }
}

#[cfg(not(unix))]
fn hard_exit(code: i32) -> ! {
    std::process::exit(code)
}

/// Keeps stray prints off stdout: while it lives, fd 1 points at stderr;
/// `writeAnswer` writes to the real stdout (the core's `StdoutGuard`).
#[napi]
pub struct NativeStdoutGuard {
    inner: Arc<StdoutGuard>,
}

#[napi]
impl NativeStdoutGuard {
    /// Redirects fd 1 to fd 2, keeping the real stdout aside.
    #[napi(factory)]
    pub fn divert() -> NativeStdoutGuard {
        NativeStdoutGuard {
            inner: Arc::new(StdoutGuard::divert()),
        }
    }

    /// Writes text to the real stdout (throws `io`).
    #[napi]
    pub fn write_answer(&self, text: String) -> Result<()> {
        self.inner.write_answer(text.as_bytes()).map_err(|e| {
            throw(Error::Io {
                what: "writing the answer".into(),
                source: e,
            })
        })
    }
}
