//! The panic guard every `extern "C"` body runs in: a panic becomes
//! `AH_ERR_PANIC` (or a getter's sentinel), never an unwind into C.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::error::{Fail, ah_error, ah_status};
use crate::ptr::ah_str;

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    agenthooks::runtime::panic_message(p)
}

/// Runs a fallible body. `Ok` is `AH_OK`; a failure or a panic becomes
/// its status, and, when `err` is not NULL, an owned `ah_error` in `*err`.
pub(crate) fn guard<F>(err: *mut *mut ah_error, f: F) -> ah_status
where
    F: FnOnce() -> Result<(), Fail>,
{
    let fail = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => return ah_status::AH_OK,
        Ok(Err(fail)) => fail,
        Err(p) => Fail::Panic(panic_text(p.as_ref())),
    };
    let status = fail.status();
    if !err.is_null() {
        // Building the error allocates; keep even that from unwinding.
        if let Ok(e) = catch_unwind(AssertUnwindSafe(|| fail.into_error())) {
            // SAFETY: `err` is non-NULL and writable (every function's
            // contract); ownership of the box passes to the caller.
            unsafe { err.write(Box::into_raw(Box::new(e))) };
        }
    }
    status
}

/// The value an infallible getter returns for a NULL handle or after a
/// caught panic. A trait, never `mem::zeroed()`.
pub(crate) trait Sentinel {
    fn sentinel() -> Self;
}

impl Sentinel for () {
    fn sentinel() {}
}
impl Sentinel for ah_str {
    fn sentinel() -> ah_str {
        ah_str::NONE
    }
}
impl Sentinel for bool {
    fn sentinel() -> bool {
        false
    }
}
impl Sentinel for u32 {
    fn sentinel() -> u32 {
        0
    }
}
impl Sentinel for u64 {
    fn sentinel() -> u64 {
        0
    }
}
impl Sentinel for usize {
    fn sentinel() -> usize {
        0
    }
}
impl Sentinel for i32 {
    /// Exit codes: -1 is never a hook's exit code.
    fn sentinel() -> i32 {
        -1
    }
}
impl Sentinel for ah_status {
    fn sentinel() -> ah_status {
        ah_status::AH_ERR_PANIC
    }
}
impl<T> Sentinel for *const T {
    fn sentinel() -> *const T {
        std::ptr::null()
    }
}
impl<T> Sentinel for *mut T {
    fn sentinel() -> *mut T {
        std::ptr::null_mut()
    }
}

/// Runs an infallible body; a panic yields the sentinel.
pub(crate) fn guard_value<T: Sentinel, F: FnOnce() -> T>(f: F) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| T::sentinel())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_status_and_an_error() {
        let mut err: *mut ah_error = std::ptr::null_mut();
        let st = guard(&mut err, || panic!("boom"));
        assert_eq!(st, ah_status::AH_ERR_PANIC);
        // SAFETY: `err` was just written by `guard` and is freed once.
        let e = unsafe { Box::from_raw(err) };
        assert_eq!(e.status, ah_status::AH_ERR_PANIC);
        assert!(e.message.as_str().contains("boom"));
        // NULL err: only the status.
        assert_eq!(
            guard(std::ptr::null_mut(), || panic!("x")),
            ah_status::AH_ERR_PANIC
        );
        assert_eq!(guard_value(|| -> i32 { panic!("y") }), -1);
        assert!(guard_value(|| -> ah_str { panic!("z") }).ptr.is_null());
    }
}
