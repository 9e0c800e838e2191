//! Encoding decisions into the agent's answer (`ah_response`), and the
//! fail policy's answers.

use std::sync::OnceLock;

use agenthooks::{Decision, Note, Policy, Response};

use crate::error::{Fail, ah_error, ah_status};
use crate::event::ah_event;
use crate::info::provider;
use crate::panic::{guard, guard_value};
use crate::ptr::{self, NulStr, ah_str};

/// The agent's answer: stdout bytes, stderr bytes, exit code, and notes on
/// what was degraded. Immutable: every `const ah_response *` call may run
/// concurrently from any thread. Free with `ah_response_free`.
#[derive(Debug)]
pub struct ah_response {
    stdout: NulStr,
    stderr: NulStr,
    exit_code: i32,
    notes: Vec<Note>,
    notes_json: OnceLock<NulStr>,
    json: OnceLock<NulStr>,
}

impl ah_response {
    pub(crate) fn new(r: Response) -> ah_response {
        ah_response {
            stdout: NulStr::new(r.stdout),
            stderr: NulStr::new(r.stderr),
            exit_code: r.exit_code,
            notes: r.notes,
            notes_json: OnceLock::new(),
            json: OnceLock::new(),
        }
    }
}

/// A partial policy given as JSON; NULL (length 0) is the default policy.
///
/// # Safety
/// As for `ptr::bytes`.
pub(crate) unsafe fn policy(p: *const u8, len: usize) -> Result<Policy, Fail> {
    // SAFETY: forwarded caller contract.
    match unsafe { ptr::opt_text(p, len, "policy") }? {
        None => Ok(Policy::default()),
        Some(t) => Ok(Policy::from_json(t)?),
    }
}

/// A decision given as JSON; NULL (length 0) is `no_decision`.
///
/// # Safety
/// As for `ptr::bytes`.
pub(crate) unsafe fn decision(p: *const u8, len: usize) -> Result<Decision, Fail> {
    // SAFETY: forwarded caller contract.
    match unsafe { ptr::opt_text(p, len, "decision") }? {
        None => Ok(Decision::no_decision()),
        Some(t) => Ok(Decision::from_json(t)?),
    }
}

/// Encodes a decision for the event's agent, degrading what it cannot
/// express per the policy. `decision` is decision JSON (`{"kind": "deny",
/// "reason": "..."}`, README "Decision"); NULL with length 0 means
/// `no_decision`. `policy` is a (partial) policy JSON; NULL with length 0
/// means the defaults.
///
/// On success `*out` gets an owned `ah_response` (free with
/// `ah_response_free`). On failure `*out` is untouched; the status is
/// `AH_ERR_INVALID_DECISION` (malformed or not valid for the event's
/// kind), `AH_ERR_UNSUPPORTED_DECISION` / `AH_ERR_LOSSY_UPDATE` (policy
/// `unsupported: strict`), `AH_ERR_INVALID_ARGUMENT` (bad policy),
/// `AH_ERR_INVALID_UTF8` or `AH_ERR_NULL_ARG`; if `err` is not NULL, `*err`
/// gets an owned error (pass it to `ah_event_fail_response` for the fail
/// policy's answer). Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `event` must be NULL or live; `decision` and `policy` NULL or readable
/// for their lengths; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_event_respond(
    event: *const ah_event,
    decision: *const u8,
    decision_len: usize,
    policy: *const u8,
    policy_len: usize,
    out: *mut *mut ah_response,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (e, p) = unsafe {
            (
                ptr::borrow(event, "event")?,
                self::policy(policy, policy_len)?,
            )
        };
        // SAFETY: pointer contract above.
        let d = unsafe { self::decision(decision, decision_len) }?;
        let r = agenthooks::respond(&e.event, &d, &p)?;
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_response::new(r)) };
        Ok(())
    })
}

/// The fail policy's answer for a decoded event whose hook failed: `error`
/// is the failure (from `ah_event_respond`, or made with `ah_error_new`
/// for a handler error, panic or timeout). The answer uses the agent's real
/// blocking mechanism where the event can block (policy `fail: closed`),
/// else "no opinion" with a diagnostic on stderr.
///
/// On success `*out` gets an owned `ah_response`. Fails only with
/// `AH_ERR_NULL_ARG`, `AH_ERR_INVALID_UTF8` or `AH_ERR_INVALID_ARGUMENT`
/// (bad policy); then `*out` is untouched and, if `err` is not NULL, `*err`
/// gets an owned error. Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `event` and `error` must be NULL or live; `policy` NULL or readable for
/// `policy_len`; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_event_fail_response(
    event: *const ah_event,
    error: *const ah_error,
    policy: *const u8,
    policy_len: usize,
    out: *mut *mut ah_response,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (e, x, p) = unsafe {
            (
                ptr::borrow(event, "event")?,
                ptr::borrow(error, "error")?,
                self::policy(policy, policy_len)?,
            )
        };
        let r = agenthooks::fail_response(e.event.provider, Some(&e.event), &x.to_core(), &p);
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_response::new(r)) };
        Ok(())
    })
}

/// The agent's answer to a payload that could not be decoded (`error` from
/// `ah_event_decode`), per the fail policy: each agent's own "no opinion"
/// or "block" for an unknown event (the bytes are peeked for an event name
/// so that, e.g., a stop event is never blocked into a loop).
///
/// On success `*out` gets an owned `ah_response`. Fails with
/// `AH_ERR_UNKNOWN_PROVIDER`, `AH_ERR_NULL_ARG`, `AH_ERR_INVALID_UTF8`
/// (provider) or `AH_ERR_INVALID_ARGUMENT` (bad policy); then `*out` is
/// untouched and, if `err` is not NULL, `*err` gets an owned error.
/// Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `provider` must point at `provider_len` readable bytes; `payload` at
/// `payload_len` (may be NULL with 0); `error` NULL or live; `policy` NULL
/// or readable; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_fail_response_for_payload(
    provider: *const u8,
    provider_len: usize,
    payload: *const u8,
    payload_len: usize,
    error: *const ah_error,
    policy: *const u8,
    policy_len: usize,
    out: *mut *mut ah_response,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (pv, bytes, x, p) = unsafe {
            (
                ptr::text(provider, provider_len, "provider")?,
                ptr::bytes(payload, payload_len, "payload")?,
                ptr::borrow(error, "error")?,
                self::policy(policy, policy_len)?,
            )
        };
        let pv = self::provider(pv)?;
        let r = agenthooks::dialect::fail_response_for_payload(pv, bytes, &x.to_core(), &p);
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_response::new(r)) };
        Ok(())
    })
}

/// Returns the bytes to write to stdout (may be empty). Valid until
/// `ah_response_free(resp)`; `{NULL, 0}` when `resp` is NULL. Thread-safe.
///
/// # Safety
/// `resp` must be NULL or a live `ah_response`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_response_stdout(resp: *const ah_response) -> ah_str {
    guard_value(|| {
        // SAFETY: `resp` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(resp) }.map_or(ah_str::NONE, |r| r.stdout.view())
    })
}

/// Returns the bytes to write to stderr (may be empty). Valid until
/// `ah_response_free(resp)`; `{NULL, 0}` when `resp` is NULL. Thread-safe.
///
/// # Safety
/// `resp` must be NULL or a live `ah_response`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_response_stderr(resp: *const ah_response) -> ah_str {
    guard_value(|| {
        // SAFETY: `resp` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(resp) }.map_or(ah_str::NONE, |r| r.stderr.view())
    })
}

/// Returns the process exit code the agent must see; -1 when `resp` is
/// NULL. Thread-safe.
///
/// # Safety
/// `resp` must be NULL or a live `ah_response`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_response_exit_code(resp: *const ah_response) -> i32 {
    guard_value(|| {
        // SAFETY: `resp` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(resp) }.map_or(-1, |r| r.exit_code)
    })
}

/// Returns the notes as a JSON array (`[{"code": "degraded", "from":
/// "ask", "to": "deny", "detail": "..."}]`, `[]` when none). Rendered on
/// first use and cached; valid until `ah_response_free(resp)`; `{NULL, 0}`
/// when `resp` is NULL. Thread-safe.
///
/// # Safety
/// `resp` must be NULL or a live `ah_response`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_response_notes_json(resp: *const ah_response) -> ah_str {
    guard_value(|| {
        // SAFETY: `resp` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(resp) }.map_or(ah_str::NONE, |r| {
            r.notes_json
                .get_or_init(|| {
                    NulStr::new(serde_json::to_string(&r.notes).unwrap_or_else(|_| "[]".into()))
                })
                .view()
        })
    })
}

/// Returns the whole response as JSON (`{"stdout", "stderr", "exit_code",
/// "notes"}`). Rendered on first use and cached; valid until
/// `ah_response_free(resp)`; `{NULL, 0}` when `resp` is NULL. Thread-safe.
///
/// # Safety
/// `resp` must be NULL or a live `ah_response`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_response_json(resp: *const ah_response) -> ah_str {
    guard_value(|| {
        // SAFETY: `resp` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(resp) }.map_or(ah_str::NONE, |r| {
            r.json
                .get_or_init(|| {
                    NulStr::new(
                        Response {
                            stdout: r.stdout.as_str().to_string(),
                            stderr: r.stderr.as_str().to_string(),
                            exit_code: r.exit_code,
                            notes: r.notes.clone(),
                        }
                        .to_json(),
                    )
                })
                .view()
        })
    })
}

/// Frees a response. NULL is a no-op; freeing twice is undefined
/// behaviour. Needs exclusive access.
///
/// # Safety
/// `resp` must be NULL or an `ah_response` from this library, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_response_free(resp: *mut ah_response) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(resp) }
    })
}
