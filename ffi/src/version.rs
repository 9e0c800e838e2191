//! Library and ABI versions.

use std::ffi::c_char;

use crate::panic::guard_value;

/// The ABI version this header describes. Bumped on any breaking change
/// to signatures, semantics or status codes; compare it with
/// `ah_abi_version()` at startup and refuse a mismatch.
pub const AH_ABI_VERSION: u32 = 1;

/// The library version, NUL-terminated (from the workspace version).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// Returns the ABI version of the linked library (`AH_ABI_VERSION` of the
/// header it was built with). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn ah_abi_version() -> u32 {
    AH_ABI_VERSION
}

/// Returns the library version (`"0.1.0"`), equal to `AH_VERSION` of the
/// header it was built with. Static and NUL-terminated; never NULL.
/// Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn ah_version() -> *const c_char {
    guard_value(|| VERSION.as_ptr().cast())
}
