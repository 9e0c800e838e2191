//! Text the library owns and the views it lends (`ah_str`): a leaf
//! module every other one may use.

use std::ffi::c_char;

/// A borrowed view of UTF-8 text owned by the library: `len` bytes at
/// `ptr`, always followed by a NUL byte that `len` does not count (so
/// `ptr` can be printed as a C string, unless the text itself holds a NUL;
/// `len` is authoritative). How long the view stays valid is stated by
/// the function that returns it. `{NULL, 0}` is the "no value" sentinel.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct ah_str {
    /// First byte (NUL-terminated; NULL only in the sentinel).
    pub ptr: *const c_char,
    /// Number of bytes, without the terminating NUL.
    pub len: usize,
}

impl ah_str {
    /// The "no value" sentinel.
    pub(crate) const NONE: ah_str = ah_str {
        ptr: std::ptr::null(),
        len: 0,
    };

    /// A view of a static, NUL-terminated string.
    pub(crate) fn from_static(s: &'static std::ffi::CStr) -> ah_str {
        ah_str {
            ptr: s.as_ptr(),
            len: s.to_bytes().len(),
        }
    }
}

/// An owned string stored with a trailing NUL, so views of it are C
/// strings too. Invariant: the last byte is the NUL.
#[derive(Debug, Clone)]
pub(crate) struct NulStr(String);

impl NulStr {
    pub(crate) fn new(mut s: String) -> NulStr {
        s.push('\0');
        NulStr(s)
    }

    /// The text without the NUL.
    pub(crate) fn as_str(&self) -> &str {
        &self.0[..self.0.len() - 1]
    }

    /// A borrowed view, valid while `self` lives and is not mutated.
    pub(crate) fn view(&self) -> ah_str {
        ah_str {
            ptr: self.0.as_ptr().cast(),
            len: self.0.len() - 1,
        }
    }
}
