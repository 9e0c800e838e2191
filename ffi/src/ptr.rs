//! Every raw-pointer helper of the crate. This is the only module that
//! turns C pointers into Rust references, slices and strings (and boxes
//! back into pointers); the API modules call these inside one `unsafe`
//! block per function, under the contract their doc comment states.

use std::ffi::c_char;

use crate::error::Fail;

pub(crate) use crate::text::NulStr;
pub use crate::text::ah_str;

/// Bytes given as pointer + length. NULL with length 0 is the empty
/// slice; NULL with a length is `AH_ERR_NULL_ARG`.
///
/// # Safety
/// A non-NULL `ptr` must point at `len` readable bytes that stay valid and
/// unmodified for `'a`.
pub(crate) unsafe fn bytes<'a>(
    ptr: *const u8,
    len: usize,
    what: &'static str,
) -> Result<&'a [u8], Fail> {
    if ptr.is_null() {
        return if len == 0 {
            Ok(&[])
        } else {
            Err(Fail::Null(what))
        };
    }
    // SAFETY: non-NULL; the caller guarantees `len` readable bytes for 'a.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Optional bytes: NULL (with length 0) is `None`.
///
/// # Safety
/// As for [`bytes`].
pub(crate) unsafe fn opt_bytes<'a>(
    ptr: *const u8,
    len: usize,
    what: &'static str,
) -> Result<Option<&'a [u8]>, Fail> {
    if ptr.is_null() && len == 0 {
        return Ok(None);
    }
    // SAFETY: forwarded caller contract.
    unsafe { bytes(ptr, len, what) }.map(Some)
}

fn utf8<'a>(b: &'a [u8], what: &'static str) -> Result<&'a str, Fail> {
    std::str::from_utf8(b).map_err(|e| Fail::Utf8(what, e.valid_up_to()))
}

/// A required UTF-8 string given as pointer + length (NULL is
/// `AH_ERR_NULL_ARG`, bad UTF-8 `AH_ERR_INVALID_UTF8`).
///
/// # Safety
/// As for [`bytes`].
pub(crate) unsafe fn text<'a>(
    ptr: *const u8,
    len: usize,
    what: &'static str,
) -> Result<&'a str, Fail> {
    if ptr.is_null() {
        return Err(Fail::Null(what));
    }
    // SAFETY: forwarded caller contract.
    utf8(unsafe { bytes(ptr, len, what) }?, what)
}

/// An optional UTF-8 string: NULL (with length 0) is `None`.
///
/// # Safety
/// As for [`bytes`].
pub(crate) unsafe fn opt_text<'a>(
    ptr: *const u8,
    len: usize,
    what: &'static str,
) -> Result<Option<&'a str>, Fail> {
    // SAFETY: forwarded caller contract.
    match unsafe { opt_bytes(ptr, len, what) }? {
        None => Ok(None),
        Some(b) => utf8(b, what).map(Some),
    }
}

/// A C argument vector: `argc` NUL-terminated UTF-8 strings. NULL with
/// `argc == 0` is the empty vector.
///
/// # Safety
/// A non-NULL `argv` must point at `argc` pointers, each NULL or pointing
/// at a NUL-terminated string, all valid for the call.
pub(crate) unsafe fn argv(argv: *const *const c_char, argc: usize) -> Result<Vec<String>, Fail> {
    if argv.is_null() {
        return if argc == 0 {
            Ok(Vec::new())
        } else {
            Err(Fail::Null("argv"))
        };
    }
    // SAFETY: non-NULL; the caller guarantees `argc` readable pointers.
    let ptrs = unsafe { std::slice::from_raw_parts(argv, argc) };
    let mut out = Vec::with_capacity(argc);
    for p in ptrs {
        if p.is_null() {
            return Err(Fail::Null("argv element"));
        }
        // SAFETY: non-NULL and NUL-terminated per the caller contract.
        let c = unsafe { std::ffi::CStr::from_ptr(*p) };
        out.push(utf8(c.to_bytes(), "argv element")?.to_string());
    }
    Ok(out)
}

/// A shared reference to a handle (NULL is `AH_ERR_NULL_ARG`).
///
/// # Safety
/// A non-NULL `p` must come from this library's `_new`/`_parse`/`_decode`
/// (or be a borrowed handle it returned), not yet freed, and not mutated
/// concurrently for `'a`.
pub(crate) unsafe fn borrow<'a, T>(p: *const T, what: &'static str) -> Result<&'a T, Fail> {
    // SAFETY: forwarded caller contract.
    unsafe { p.as_ref() }.ok_or(Fail::Null(what))
}

/// A shared reference, or `None` for NULL (for getters with sentinels).
///
/// # Safety
/// As for [`borrow`].
pub(crate) unsafe fn borrow_opt<'a, T>(p: *const T) -> Option<&'a T> {
    // SAFETY: forwarded caller contract.
    unsafe { p.as_ref() }
}

/// An exclusive reference to a handle (NULL is `AH_ERR_NULL_ARG`).
///
/// # Safety
/// As for [`borrow`], and no other reference to it may be in use for `'a`.
pub(crate) unsafe fn borrow_mut<'a, T>(p: *mut T, what: &'static str) -> Result<&'a mut T, Fail> {
    // SAFETY: forwarded caller contract.
    unsafe { p.as_mut() }.ok_or(Fail::Null(what))
}

/// Checks an output parameter before any work is done.
pub(crate) fn check_out<T>(out: *mut T, what: &'static str) -> Result<(), Fail> {
    if out.is_null() {
        Err(Fail::Null(what))
    } else {
        Ok(())
    }
}

/// Hands a new owned handle to the caller through `out`.
///
/// # Safety
/// `out` must be non-NULL (see [`check_out`]) and writable.
pub(crate) unsafe fn give<T>(out: *mut *mut T, v: T) {
    // SAFETY: the caller checked `out` and it is writable.
    unsafe { out.write(Box::into_raw(Box::new(v))) }
}

/// Writes a plain value through an output pointer.
///
/// # Safety
/// `out` must be non-NULL (see [`check_out`]) and writable.
pub(crate) unsafe fn put<T: Copy>(out: *mut T, v: T) {
    // SAFETY: the caller checked `out` and it is writable.
    unsafe { out.write(v) }
}

/// Frees a handle made by [`give`]; NULL is a no-op.
///
/// # Safety
/// A non-NULL `p` must come from [`give`] and not have been freed.
pub(crate) unsafe fn free<T>(p: *mut T) {
    if !p.is_null() {
        // SAFETY: `p` came from Box::into_raw and is freed once.
        drop(unsafe { Box::from_raw(p) })
    }
}
