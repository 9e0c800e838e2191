//! The serve bridge (`agenthooks::bridge`) for serve loops in other
//! languages (`<program> agenthooks serve --provider=...`, the OpenCode /
//! OpenClaw plugin bridges): every rule of the loop (which line is a
//! request, per-session order, the bounds and backpressure, stale and
//! refused requests, every reply frame) is the core's state machine; the
//! caller moves bytes and runs handlers.
//!
//! A driver: `ah_bridge_new` from the `serve` arguments of `ah_run_start`;
//! then, while `ah_bridge_wants_input`, read a line of at most
//! `ah_bridge_max_line` bytes and pass it to `ah_bridge_feed` (a longer
//! line: its first `ah_bridge_head_bytes()` bytes and its length). Every
//! call returns an `ah_bridge_output`: write its frames to stdout and its
//! stderr to stderr, then take its jobs (`ah_bridge_output_take_job`) and
//! run each one's handlers on the job's event within
//! `ah_bridge_job_deadline_ms`, on any thread; report the outcome with
//! `ah_bridge_finish` (a decision) or `ah_bridge_finish_error` (an error,
//! or `AH_ERR_HANDLER_TIMEOUT` when the deadline passed), whose output is
//! handled the same way. A handler abandoned at its deadline is reported
//! with `ah_bridge_abandoned_done` when it finally returns. At end of
//! input, wait until `ah_bridge_idle`, then exit 0.

use std::sync::{Mutex, MutexGuard};

use agenthooks::bridge::{Bridge, HEAD_BYTES, Outcome, Output};
use agenthooks::{Error, ErrorCode};

use crate::error::{Fail, ah_error, ah_status, core_code, error_of, status_from_u32};
use crate::event::ah_event;
use crate::panic::{guard, guard_value};
use crate::ptr::{self, NulStr, ah_str};
use crate::respond::{decision, policy};
use crate::runtime::ah_run_args;

/// The serve bridge's state machine. Every call is thread-safe (the
/// state is locked inside; no call waits on a handler). Free with
/// `ah_bridge_free`.
pub struct ah_bridge {
    inner: Mutex<Bridge>,
}

/// What to do after a bridge call: frames to write, stderr text, jobs to
/// run. `const` calls may run concurrently; taking a job needs exclusive
/// access. Free with `ah_bridge_output_free` (jobs not taken are dropped:
/// take every one, a job never reported stalls its session).
pub struct ah_bridge_output {
    frames: NulStr,
    stderr: NulStr,
    jobs: Vec<Option<ah_bridge_job>>,
}

/// One request to run: its event and deadline. Immutable; `const` calls
/// may run concurrently. Free with `ah_bridge_job_free` (after
/// reporting it, or while an abandoned handler still reads the event:
/// free it when that handler is done).
pub struct ah_bridge_job {
    id: u64,
    deadline_ms: u64,
    event: ah_event,
}

impl ah_bridge {
    fn lock(&self) -> MutexGuard<'_, Bridge> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn output(o: Output) -> ah_bridge_output {
    let mut frames = String::new();
    for f in &o.frames {
        frames.push_str(f);
        frames.push('\n');
    }
    ah_bridge_output {
        frames: NulStr::new(frames),
        stderr: NulStr::new(o.stderr),
        jobs: o
            .jobs
            .into_iter()
            .map(|j| {
                Some(ah_bridge_job {
                    id: j.id,
                    deadline_ms: j.deadline_ms,
                    event: ah_event::view_of(j.event),
                })
            })
            .collect(),
    }
}

/// Makes a bridge for the `serve` arguments of `ah_run_start` (its
/// `--provider`, `--fail`, `--timeout`, `--max-bytes`) and the hook's
/// (partial) policy JSON (NULL, length 0: the defaults), with the bounds
/// of this machine. On success `*out` gets an owned bridge. Fails with
/// `AH_ERR_INVALID_ARGUMENT` (no `--provider`, a bad policy),
/// `AH_ERR_UNKNOWN_PROVIDER`, `AH_ERR_INVALID_UTF8` or `AH_ERR_NULL_ARG`;
/// then `*out` is untouched and, if `err` is not NULL, `*err` gets an
/// owned error. Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `args` must be NULL or live; `policy` NULL or readable for
/// `policy_len`; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_new(
    args: *const ah_run_args,
    policy: *const u8,
    policy_len: usize,
    out: *mut *mut ah_bridge,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (a, p) = unsafe {
            (
                ptr::borrow(args, "args")?,
                self::policy(policy, policy_len)?,
            )
        };
        let b = Bridge::for_machine(&a.plan.args, &p)?;
        // SAFETY: `out` checked non-NULL above.
        unsafe {
            ptr::give(
                out,
                ah_bridge {
                    inner: Mutex::new(b),
                },
            )
        };
        Ok(())
    })
}

/// Returns the longest line to pass whole to `ah_bridge_feed`
/// (`--max-bytes`, else the default); 0 when `bridge` is NULL.
/// Thread-safe.
///
/// # Safety
/// `bridge` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_max_line(bridge: *const ah_bridge) -> usize {
    guard_value(|| {
        // SAFETY: `bridge` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(bridge) }.map_or(0, |b| b.lock().max_line())
    })
}

/// Returns how many handlers are worth running at once on this machine
/// (size a worker pool by it); 0 when `bridge` is NULL. Thread-safe.
///
/// # Safety
/// `bridge` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_workers(bridge: *const ah_bridge) -> usize {
    guard_value(|| {
        // SAFETY: `bridge` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(bridge) }.map_or(0, |b| b.lock().limits().workers)
    })
}

/// Returns how many leading bytes of a line over the limit
/// `ah_bridge_feed` needs to recover its `seq`. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn ah_bridge_head_bytes() -> usize {
    guard_value(|| HEAD_BYTES)
}

/// Whether to read another line now: false while the bridge's queue is
/// full (wait for a job to finish: the pipe then pushes back on the
/// plugin) and when `bridge` is NULL. Thread-safe.
///
/// # Safety
/// `bridge` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_wants_input(bridge: *const ah_bridge) -> bool {
    guard_value(|| {
        // SAFETY: `bridge` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(bridge) }.is_some_and(|b| b.lock().wants_input())
    })
}

/// Whether no request waits or runs (abandoned handlers aside): at end of
/// input, exit once this holds. True when `bridge` is NULL. Thread-safe.
///
/// # Safety
/// `bridge` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_idle(bridge: *const ah_bridge) -> bool {
    guard_value(|| {
        // SAFETY: `bridge` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(bridge) }.is_none_or(|b| b.lock().idle())
    })
}

/// Feeds one input line: `line` without its newline (and a trailing
/// `\r`), `too_long` 0; or, for a line over `ah_bridge_max_line`, its
/// first `ah_bridge_head_bytes()` bytes and `too_long` its length (the
/// rest is not kept). On success `*out` gets an owned output. Fails only
/// with `AH_ERR_NULL_ARG`; then `*out` is untouched and, if `err` is not
/// NULL, `*err` gets an owned error. Thread-safe; keeps no pointer after
/// return.
///
/// # Safety
/// `bridge` must be NULL or live; `line` NULL or readable for `line_len`;
/// `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_feed(
    bridge: *const ah_bridge,
    line: *const u8,
    line_len: usize,
    too_long: usize,
    out: *mut *mut ah_bridge_output,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (b, l) = unsafe {
            (
                ptr::borrow(bridge, "bridge")?,
                ptr::bytes(line, line_len, "line")?,
            )
        };
        let o = if too_long > 0 {
            b.lock().feed_too_long(too_long, l)
        } else {
            b.lock().feed(l)
        };
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, output(o)) };
        Ok(())
    })
}

fn finish(
    b: &ah_bridge,
    job: u64,
    o: Outcome,
    out: *mut *mut ah_bridge_output,
) -> Result<(), Fail> {
    let r = b.lock().finish(job, o)?;
    // SAFETY: the caller checked `out` non-NULL.
    unsafe { ptr::give(out, output(r)) };
    Ok(())
}

/// Reports a job's handlers' decision (decision JSON; NULL with length 0
/// is `no_decision`; a malformed one is answered per the fail policy).
/// On success `*out` gets an owned output (the reply frame, the next
/// request of the job's session). Fails with `AH_ERR_INVALID_ARGUMENT`
/// (`job` is not running: unknown, or already reported) or
/// `AH_ERR_NULL_ARG`; then `*out` is untouched and, if `err` is not NULL,
/// `*err` gets an owned error. Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `bridge` must be NULL or live; `decision` NULL or readable for
/// `decision_len`; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_finish(
    bridge: *const ah_bridge,
    job: u64,
    decision: *const u8,
    decision_len: usize,
    out: *mut *mut ah_bridge_output,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let b = unsafe { ptr::borrow(bridge, "bridge") }?;
        // SAFETY: pointer contract above.
        let d = match unsafe { self::decision(decision, decision_len) } {
            Ok(d) => Ok(d),
            Err(Fail::Core(e)) => Err(e),
            Err(Fail::Utf8(what, offset)) => Err(Error::InvalidUtf8 { what, offset }),
            Err(other) => return Err(other),
        };
        finish(b, job, Outcome::Done(d), out)
    })
}

/// Reports that a job's handlers failed: `code` is `AH_ERR_HANDLER_ERROR`
/// (a handler returned an error), `AH_ERR_PANIC` (it panicked / threw),
/// `AH_ERR_HANDLER_TIMEOUT` (the deadline passed: the handlers are
/// abandoned; report their end with `ah_bridge_abandoned_done`; the
/// message is ignored) or another core status; `message` says what
/// happened. The fail policy answers. On success `*out` gets an owned
/// output. Fails with `AH_ERR_INVALID_ARGUMENT` (`job` is not running, or
/// a code that is no core status), `AH_ERR_INVALID_UTF8` (message) or
/// `AH_ERR_NULL_ARG`; then `*out` is untouched and, if `err` is not NULL,
/// `*err` gets an owned error. Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `bridge` must be NULL or live; `message` NULL or readable for
/// `message_len`; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_finish_error(
    bridge: *const ah_bridge,
    job: u64,
    code: u32,
    message: *const u8,
    message_len: usize,
    out: *mut *mut ah_bridge_output,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (b, msg) = unsafe {
            (
                ptr::borrow(bridge, "bridge")?,
                ptr::opt_text(message, message_len, "message")?.unwrap_or(""),
            )
        };
        let Some(c) = status_from_u32(code).and_then(core_code) else {
            return Err(Fail::Core(Error::InvalidArgument {
                message: format!("{code} is not the status of a core error code"),
            }));
        };
        let o = match c {
            ErrorCode::HandlerTimeout => Outcome::TimedOut,
            c => Outcome::Done(Err(error_of(c, msg, 0))),
        };
        finish(b, job, o, out)
    })
}

/// Reports that the handlers of a job finished with
/// `AH_ERR_HANDLER_TIMEOUT` have returned at last (they no longer count
/// against the bridge's cap of abandoned handlers). No-op for any other
/// id or a NULL `bridge`. Thread-safe.
///
/// # Safety
/// `bridge` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_abandoned_done(bridge: *const ah_bridge, job: u64) {
    guard_value(|| {
        // SAFETY: `bridge` is NULL or live (caller contract).
        if let Some(b) = unsafe { ptr::borrow_opt(bridge) } {
            b.lock().abandoned_done(job);
        }
    })
}

/// Frees a bridge. NULL is a no-op; freeing twice is undefined behaviour.
/// Needs exclusive access (jobs already taken stay valid).
///
/// # Safety
/// `bridge` must be NULL or from `ah_bridge_new`, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_free(bridge: *mut ah_bridge) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(bridge) }
    })
}

/// Returns the reply lines to write to stdout, in order, each ending in
/// `\n` (write them as they are); empty when none. Valid until
/// `ah_bridge_output_free(output)`; `{NULL, 0}` when `output` is NULL.
/// Thread-safe.
///
/// # Safety
/// `output` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_output_frames(output: *const ah_bridge_output) -> ah_str {
    guard_value(|| {
        // SAFETY: `output` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(output) }.map_or(ah_str::NONE, |o| o.frames.view())
    })
}

/// Returns the text for stderr (the answers' diagnostics); empty when
/// none. Valid until `ah_bridge_output_free(output)`; `{NULL, 0}` when
/// `output` is NULL. Thread-safe.
///
/// # Safety
/// `output` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_output_stderr(output: *const ah_bridge_output) -> ah_str {
    guard_value(|| {
        // SAFETY: `output` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(output) }.map_or(ah_str::NONE, |o| o.stderr.view())
    })
}

/// Returns how many jobs the output hands out (0 when `output` is NULL).
/// Thread-safe.
///
/// # Safety
/// `output` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_output_job_count(output: *const ah_bridge_output) -> usize {
    guard_value(|| {
        // SAFETY: `output` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(output) }.map_or(0, |o| o.jobs.len())
    })
}

/// Takes job `index` (below `ah_bridge_output_job_count`) out of the
/// output. On success `*out` gets an owned job. Fails with
/// `AH_ERR_INVALID_ARGUMENT` (index out of range), `AH_ERR_ALREADY_USED`
/// (taken before) or `AH_ERR_NULL_ARG`; then `*out` is untouched and, if
/// `err` is not NULL, `*err` gets an owned error. Needs exclusive access
/// to `output`.
///
/// # Safety
/// `output` must be NULL or live; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_output_take_job(
    output: *mut ah_bridge_output,
    index: usize,
    out: *mut *mut ah_bridge_job,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let o = unsafe { ptr::borrow_mut(output, "output") }?;
        let n = o.jobs.len();
        let Some(slot) = o.jobs.get_mut(index) else {
            return Err(Fail::Core(Error::InvalidArgument {
                message: format!("job index {index} is out of range (the output has {n})"),
            }));
        };
        let Some(job) = slot.take() else {
            return Err(Fail::Used("ah_bridge_output_take_job"));
        };
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, job) };
        Ok(())
    })
}

/// Frees an output (and any job not taken). NULL is a no-op; freeing
/// twice is undefined behaviour. Needs exclusive access.
///
/// # Safety
/// `output` must be NULL or from a bridge call, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_output_free(output: *mut ah_bridge_output) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(output) }
    })
}

/// Returns the job's id (for `ah_bridge_finish`); 0 when `job` is NULL.
/// Thread-safe.
///
/// # Safety
/// `job` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_job_id(job: *const ah_bridge_job) -> u64 {
    guard_value(|| {
        // SAFETY: `job` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(job) }.map_or(0, |j| j.id)
    })
}

/// Returns the handler deadline in milliseconds: report
/// `AH_ERR_HANDLER_TIMEOUT` when the handlers run longer. 0 when `job` is
/// NULL. Thread-safe.
///
/// # Safety
/// `job` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_job_deadline_ms(job: *const ah_bridge_job) -> u64 {
    guard_value(|| {
        // SAFETY: `job` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(job) }.map_or(0, |j| j.deadline_ms)
    })
}

/// Returns the job's decoded event, borrowed: valid until
/// `ah_bridge_job_free(job)`, never to be passed to `ah_event_free`. NULL
/// when `job` is NULL. Thread-safe.
///
/// # Safety
/// `job` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_job_event(job: *const ah_bridge_job) -> *const ah_event {
    guard_value(|| {
        // SAFETY: `job` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(job) }.map_or(std::ptr::null(), |j| &j.event as *const ah_event)
    })
}

/// Frees a job (and its event). NULL is a no-op; freeing twice is
/// undefined behaviour. Needs exclusive access.
///
/// # Safety
/// `job` must be NULL or from `ah_bridge_output_take_job`, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_bridge_job_free(job: *mut ah_bridge_job) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(job) }
    })
}
