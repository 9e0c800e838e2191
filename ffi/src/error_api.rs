//! The `ah_error` functions: status ids, code, message, new, free.

use std::ffi::c_char;

use agenthooks::Error;

use crate::error::ah_status::AH_OK;
use crate::error::{Fail, ah_error, ah_status, core_code, error_of, status_from_u32, status_id};
use crate::panic::{guard, guard_value};
use crate::ptr::{self, ah_str};

/// Returns the snake_case id of a status code (`"ok"`, `"null_arg"`,
/// `"invalid_json"`, ...; `"unknown"` for a number that is no status): the
/// same ids every agenthooks language uses. The string is static and
/// NUL-terminated; never NULL. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn ah_status_id(status: u32) -> *const c_char {
    guard_value(|| {
        status_from_u32(status)
            .map(status_id)
            .unwrap_or(c"unknown")
            .as_ptr()
    })
}

/// Returns the status code of an error; `AH_OK` when `err` is NULL.
/// Thread-safe.
///
/// # Safety
/// `err` must be NULL or a live `ah_error`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_error_code(err: *const ah_error) -> ah_status {
    guard_value(|| {
        // SAFETY: `err` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(err) }.map_or(AH_OK, |e| e.status)
    })
}

/// Returns the error's message (human-readable, never compared by tests).
/// The view is valid until `ah_error_free(err)`; `{NULL, 0}` when `err` is
/// NULL. Thread-safe.
///
/// # Safety
/// `err` must be NULL or a live `ah_error`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_error_message(err: *const ah_error) -> ah_str {
    guard_value(|| {
        // SAFETY: `err` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(err) }.map_or(ah_str::NONE, |e| e.message.view())
    })
}

/// Makes an error of a core code (`code` is an `ah_status` value from 100
/// up, or `AH_ERR_INVALID_UTF8` / `AH_ERR_PANIC`) with a message, for
/// failures that arise in the caller's language: a handler error, a panic,
/// an I/O failure. Use it with `ah_fail_response_for_payload`,
/// `ah_event_fail_response` and `ah_invocation_prepare`.
///
/// On success `*out` gets an owned `ah_error` (free with `ah_error_free`).
/// A `code` that is not such a status is `AH_ERR_INVALID_ARGUMENT`; NULL
/// `out` is `AH_ERR_NULL_ARG`; a message that is not UTF-8 is
/// `AH_ERR_INVALID_UTF8` (`message` may be NULL with length 0). On failure
/// `*out` is untouched and, if `err` is not NULL, `*err` gets an owned
/// error. Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `message` must be NULL or point at `message_len` readable bytes; `out`
/// and `err` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_error_new(
    code: u32,
    message: *const u8,
    message_len: usize,
    out: *mut *mut ah_error,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let msg = unsafe { ptr::opt_text(message, message_len, "message") }?.unwrap_or("");
        let Some(core) = status_from_u32(code).and_then(core_code) else {
            return Err(Fail::Core(Error::InvalidArgument {
                message: format!("{code} is not the status of a core error code"),
            }));
        };
        let e = Fail::Core(error_of(core, msg, 0)).into_error();
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, e) };
        Ok(())
    })
}

/// Frees an error. NULL is a no-op; freeing twice is undefined behaviour.
/// Needs exclusive access.
///
/// # Safety
/// `err` must be NULL or an `ah_error` from this library, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_error_free(err: *mut ah_error) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(err) }
    })
}
