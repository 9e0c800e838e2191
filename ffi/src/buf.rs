//! `ah_buf`: an owned result (UTF-8 JSON, except where a function says
//! the bytes are raw input).

use crate::panic::guard_value;
use crate::ptr::{self, ah_str};

/// An owned result the library returns: UTF-8 JSON unless the function
/// that made it says otherwise. Immutable; `const ah_buf *` calls may run
/// concurrently from any thread. Free with `ah_buf_free`.
#[derive(Debug)]
pub struct ah_buf {
    /// The bytes plus a trailing NUL (not counted).
    data: Vec<u8>,
}

impl ah_buf {
    pub(crate) fn new(s: String) -> ah_buf {
        ah_buf::from_bytes(s.into_bytes())
    }

    pub(crate) fn from_bytes(mut data: Vec<u8>) -> ah_buf {
        data.push(0);
        ah_buf { data }
    }
}

/// Returns the buffer's contents (followed by a NUL that `len` does not
/// count). The view is valid until `ah_buf_free(buf)`; `{NULL, 0}` when
/// `buf` is NULL. Thread-safe.
///
/// # Safety
/// `buf` must be NULL or a live `ah_buf`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_buf_str(buf: *const ah_buf) -> ah_str {
    guard_value(|| {
        // SAFETY: `buf` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(buf) }.map_or(ah_str::NONE, |b| ah_str {
            ptr: b.data.as_ptr().cast(),
            len: b.data.len() - 1,
        })
    })
}

/// Frees a buffer. NULL is a no-op; freeing twice is undefined behaviour.
/// Needs exclusive access.
///
/// # Safety
/// `buf` must be NULL or an `ah_buf` from this library, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_buf_free(buf: *mut ah_buf) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(buf) }
    })
}
