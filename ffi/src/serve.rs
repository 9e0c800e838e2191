//! Superseded by `ah_bridge_*` (the whole serve loop as the core's state
//! machine); kept, deprecated, for existing callers. The serve loop's
//! pure steps (`agenthooks::serve`) for serve loops in other languages (`<program> agenthooks serve --provider=...`, the
//! OpenCode / OpenClaw plugin bridges): which line is a request, and every
//! reply frame, come from the core, so every language replies exactly as
//! the Rust server does (`fixtures/serve/`). The loop itself (reading
//! lines within `ah_run_args_max_bytes`, running requests through
//! `ah_invocation_prepare` / the handlers / `ah_invocation_complete`,
//! writing each frame plus `\n`) is the caller's.

use agenthooks::Provider;
use agenthooks::serve::{self, Step};

use crate::buf::ah_buf;
use crate::error::{ah_error, ah_status};
use crate::panic::{guard, guard_value};
use crate::ptr::{self, ah_str};
use crate::respond::policy;
use crate::runtime::ah_run_args;

/// A blank line: nothing to write, nothing to run.
pub const AH_SERVE_SKIP: u32 = 0;
/// Write the frame in `*out` (a hello reply, or the reply to a line that
/// is not a request); nothing to run.
pub const AH_SERVE_REPLY: u32 = 1;
/// A request: `*out` is `{"seq": <seq>, "session": "<id>"}`; run the whole
/// line, then write `ah_serve_reply(seq, response)`. Requests of one
/// session must be answered in order.
pub const AH_SERVE_REQUEST: u32 = 2;

/// Classifies one line of the serve loop (`agenthooks::serve::step`):
/// `policy` is the router's policy JSON (NULL, length 0: the default;
/// `--fail` in `args` overrides it); `line` the line without its newline,
/// or, when `too_long` is not 0, the first `ah_serve_head_bytes()` bytes of
/// a line of `too_long` bytes (over `ah_run_args_max_bytes`, not kept).
/// On success `*out_kind` gets `AH_SERVE_SKIP`, `AH_SERVE_REPLY` or
/// `AH_SERVE_REQUEST`, and `*out` an owned `ah_buf` (NULL for a skip).
/// Fails with `AH_ERR_UNKNOWN_PROVIDER` or `AH_ERR_INVALID_ARGUMENT` (no
/// or an unknown `--provider`), `AH_ERR_INVALID_JSON` (policy) or
/// `AH_ERR_NULL_ARG`; then the outputs are untouched and, if `err` is not
/// NULL, `*err` gets an owned error. Thread-safe.
///
/// # Safety
/// `args` must be NULL or live; `policy` and `line` NULL or readable for
/// their lengths; `out_kind`, `out` and `err` NULL or writable.
#[allow(clippy::too_many_arguments)]
#[deprecated(note = "use the ah_bridge_* state machine")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_serve_step(
    args: *const ah_run_args,
    policy: *const u8,
    policy_len: usize,
    line: *const u8,
    line_len: usize,
    too_long: usize,
    out_kind: *mut u32,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out_kind, "out_kind")?;
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (a, p, bytes) = unsafe {
            (
                ptr::borrow(args, "args")?,
                self::policy(policy, policy_len)?,
                ptr::bytes(line, line_len, "line")?,
            )
        };
        let provider = match a.plan.args.provider.as_deref() {
            Some(name) => Provider::parse(name)?,
            None => {
                return Err(agenthooks::Error::InvalidArgument {
                    message: "`serve` needs --provider (opencode or openclaw)".into(),
                }
                .into());
            }
        };
        let long = (too_long > 0).then_some(too_long);
        let (kind, buf) = match serve::step(provider, &a.plan.args, &p, bytes, long) {
            Step::Skip => (AH_SERVE_SKIP, None),
            Step::Reply(v) => (AH_SERVE_REPLY, Some(v.to_string())),
            Step::Request { seq, session } => (
                AH_SERVE_REQUEST,
                Some(serde_json::json!({"seq": seq, "session": session}).to_string()),
            ),
        };
        // SAFETY: both checked non-NULL above.
        unsafe {
            ptr::put(out_kind, kind);
            match buf {
                Some(b) => ptr::give(out, ah_buf::new(b)),
                None => out.write(std::ptr::null_mut()),
            }
        }
        Ok(())
    })
}

/// The reply frame (`agenthooks::serve::reply_frame`, JSON without the
/// newline) to the request whose `seq` (JSON, as `ah_serve_step` gave it)
/// was answered with `response` (a response's JSON, as
/// `ah_response_json`: `{"stdout", "stderr", "exit_code", "notes"}`). On
/// success `*out` gets an owned `ah_buf`. Fails with `AH_ERR_INVALID_JSON`
/// or `AH_ERR_NULL_ARG`; then `*out` is untouched and, if `err` is not
/// NULL, `*err` gets an owned error. Thread-safe.
///
/// # Safety
/// `seq` and `response` must be readable for their lengths; `out` and
/// `err` NULL or writable.
#[deprecated(note = "use the ah_bridge_* state machine")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_serve_reply(
    seq: *const u8,
    seq_len: usize,
    response: *const u8,
    response_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (s, r) = unsafe {
            (
                ptr::text(seq, seq_len, "seq")?,
                ptr::text(response, response_len, "response")?,
            )
        };
        let bad = |what: &str, e: serde_json::Error| agenthooks::Error::InvalidJson {
            line: e.line(),
            column: e.column(),
            message: format!("{what}: {e}"),
        };
        let seq: serde_json::Value = serde_json::from_str(s).map_err(|e| bad("seq", e))?;
        let resp: agenthooks::Response = serde_json::from_str(r).map_err(|e| bad("response", e))?;
        let frame = serve::reply_frame(seq, &resp).to_string();
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::new(frame)) };
        Ok(())
    })
}

/// How many handlers past their deadline may still run before a serve
/// loop refuses requests (`agenthooks::serve::ABANDONED_CAP`): a refused
/// request is completed with `AH_ERR_HANDLER_ERROR` and the message
/// `ah_serve_overloaded_message()`, so the fail policy answers it.
/// Thread-safe.
#[deprecated(note = "use the ah_bridge_* state machine")]
#[unsafe(no_mangle)]
pub extern "C" fn ah_serve_abandoned_cap() -> usize {
    guard_value(|| serve::ABANDONED_CAP)
}

/// The message a refused request is completed with (see
/// `ah_serve_abandoned_cap`), static. Thread-safe.
#[deprecated(note = "use the ah_bridge_* state machine")]
#[unsafe(no_mangle)]
pub extern "C" fn ah_serve_overloaded_message() -> ah_str {
    guard_value(|| {
        static MSG: std::sync::OnceLock<crate::ptr::NulStr> = std::sync::OnceLock::new();
        MSG.get_or_init(|| crate::ptr::NulStr::new(serve::overloaded_message().into()))
            .view()
    })
}

/// How many leading bytes of a line over the limit `ah_serve_step` needs
/// (`agenthooks::serve::HEAD_BYTES`) to recover its `seq`. Thread-safe.
#[deprecated(note = "use the ah_bridge_* state machine")]
#[unsafe(no_mangle)]
pub extern "C" fn ah_serve_head_bytes() -> usize {
    guard_value(|| serve::HEAD_BYTES)
}
