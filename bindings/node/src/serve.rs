//! The serve bridge (`agenthooks::bridge`) for the Node serve loop of
//! `<program> agenthooks serve`: every rule of the loop (which line is a
//! request, per-session order, the bounds and backpressure, stale and
//! refused requests, every reply frame) is the core's state machine;
//! `lib/index.js` moves bytes and runs handlers as promises.

use std::sync::{Arc, Mutex, MutexGuard};

use agenthooks::bridge::{Bridge, HEAD_BYTES, Outcome, Output};
use agenthooks::{Decision, Error, Event};
use napi::bindgen_prelude::{Buffer, External};
use napi_derive::napi;

use crate::error::{self, NativeError, Result, throw};
use crate::event::{handle, policy};
use crate::runtime::{NativePlan, RunArgs};

/// A job the bridge hands out: run the handlers on `event` within
/// `deadlineMs`, then report it by `id`.
#[napi(object, object_to_js = true, object_from_js = false)]
pub struct BridgeJob {
    /// Names the job in `finish*` and `abandonedDone`.
    pub id: f64,
    /// The handler deadline in milliseconds.
    pub deadline_ms: f64,
    /// The decoded event.
    #[napi(ts_type = "ExternalObject<'agenthooks:Event'>")]
    pub event: External<Arc<Event>>,
}

/// What to do after a bridge call: write `frames` (reply lines, each
/// ending in a newline) to stdout and `stderr` to stderr, then run `jobs`.
#[napi(object, object_from_js = false)]
pub struct BridgeOutput {
    /// Reply lines, each ending in a newline (empty: none).
    pub frames: String,
    /// Text for stderr.
    pub stderr: String,
    /// Jobs that are ready to run now.
    pub jobs: Vec<BridgeJob>,
}

fn output(o: Output) -> BridgeOutput {
    let mut frames = String::new();
    for f in &o.frames {
        frames.push_str(f);
        frames.push('\n');
    }
    BridgeOutput {
        frames,
        stderr: o.stderr,
        jobs: o
            .jobs
            .into_iter()
            .map(|j| BridgeJob {
                id: j.id as f64,
                deadline_ms: j.deadline_ms as f64,
                event: handle(j.event),
            })
            .collect(),
    }
}

/// The serve bridge state machine (the core's `bridge::Bridge`).
#[napi]
pub struct NativeBridge {
    inner: Mutex<Bridge>,
}

impl NativeBridge {
    fn lock(&self) -> MutexGuard<'_, Bridge> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn finish_with(&self, id: f64, o: Outcome) -> Result<BridgeOutput> {
        let out = self.lock().finish(id as u64, o).map_err(throw)?;
        Ok(output(out))
    }
}

#[napi]
impl NativeBridge {
    /// A bridge for a `serve` plan (from `launch`; `args` replaces its
    /// arguments, e.g. with a `stateDir`) and the router's policy JSON,
    /// with the bounds of this machine. Throws `invalid_argument` (no
    /// `--provider`, a bad policy) or `unknown_provider`.
    #[napi(constructor)]
    pub fn new(
        plan: &NativePlan,
        args: Option<RunArgs>,
        policy_json: Option<String>,
    ) -> Result<Self> {
        let p = policy(policy_json.as_deref())?;
        let a = match args {
            Some(a) => {
                let mut core = a.to_core()?;
                core.observed = plan.core_args().observed.clone();
                core.log = plan.core_args().log;
                core
            }
            None => plan.core_args().clone(),
        };
        let b = Bridge::for_machine(&a, &p).map_err(throw)?;
        Ok(NativeBridge {
            inner: Mutex::new(b),
        })
    }

    /// The longest line to pass whole to `feed`.
    #[napi(getter)]
    pub fn max_line(&self) -> f64 {
        self.lock().max_line() as f64
    }

    /// How many leading bytes of a longer line `feed` needs.
    #[napi(getter)]
    pub fn head_bytes(&self) -> u32 {
        HEAD_BYTES as u32
    }

    /// Whether to read more input now (false while the queue is full).
    #[napi]
    pub fn wants_input(&self) -> bool {
        self.lock().wants_input()
    }

    /// Whether no request waits or runs (abandoned handlers aside).
    #[napi]
    pub fn idle(&self) -> bool {
        self.lock().idle()
    }

    /// One input line without its newline; for a line over `maxLine`, its
    /// first `headBytes` bytes and `tooLong` its length.
    #[napi]
    pub fn feed(&self, line: Buffer, too_long: Option<f64>) -> BridgeOutput {
        let o = match too_long {
            Some(n) if n > 0.0 => self.lock().feed_too_long(n as usize, &line),
            _ => self.lock().feed(&line),
        };
        output(o)
    }

    /// The job's handlers decided in time (decision JSON; a malformed one
    /// is answered per the fail policy).
    #[napi]
    pub fn finish(&self, id: f64, decision_json: String) -> Result<BridgeOutput> {
        let d: std::result::Result<Decision, Error> = Decision::from_json(&decision_json);
        self.finish_with(id, Outcome::Done(d))
    }

    /// The job's handlers failed (an exception, a rejection).
    #[napi]
    pub fn finish_error(&self, id: f64, error: &NativeError) -> Result<BridgeOutput> {
        self.finish_with(id, Outcome::Done(Err(error::copy(&error.inner))))
    }

    /// The job's handlers missed the deadline and are abandoned: call
    /// `abandonedDone` when they settle.
    #[napi]
    pub fn finish_timeout(&self, id: f64) -> Result<BridgeOutput> {
        self.finish_with(id, Outcome::TimedOut)
    }

    /// The abandoned handlers of job `id` have settled.
    #[napi]
    pub fn abandoned_done(&self, id: f64) {
        self.lock().abandoned_done(id as u64);
    }
}
