//! Core errors in JS: thrown errors carry the stable `code`; errors that
//! feed a fail response cross as a [`NativeError`] handle holding the core
//! value itself.

use agenthooks::{Error, ErrorCode};
use napi_derive::napi;

/// The `code` property of errors thrown by this addon: a core error id.
#[derive(Debug, Clone, Copy)]
pub struct Code(pub &'static str);

impl AsRef<str> for Code {
    fn as_ref(&self) -> &str {
        self.0
    }
}

/// Result of a function that throws a JS `Error` whose `code` is the core id.
pub type Result<T> = napi::Result<T, Code>;

/// Converts a core error into a thrown error (`code` = the core id,
/// `message` = the core message).
pub fn throw(e: Error) -> napi::Error<Code> {
    napi::Error::new(Code(e.code().as_str()), e.to_string())
}

/// A core error, kept whole so a fail response can use it.
#[napi]
pub struct NativeError {
    pub(crate) inner: Error,
}

#[napi]
impl NativeError {
    /// Builds an error from a code and message (for errors that arise in
    /// JS: a handler exception, a timeout, an invalid decision). `ms` is the
    /// deadline of a `handler_timeout`. Throws `invalid_argument` for an
    /// unknown code.
    #[napi(factory)]
    pub fn create(code: String, message: String, ms: Option<f64>) -> Result<NativeError> {
        let Some(c) = ErrorCode::parse(&code) else {
            return Err(throw(Error::InvalidArgument {
                message: format!("unknown error code `{code}`"),
            }));
        };
        Ok(NativeError {
            inner: from_code(c, message, ms.unwrap_or(0.0) as u64),
        })
    }

    /// The stable snake_case id.
    #[napi(getter)]
    pub fn code(&self) -> String {
        self.inner.code().as_str().to_string()
    }

    /// The core's message.
    #[napi(getter)]
    pub fn message(&self) -> String {
        self.inner.to_string()
    }
}

impl NativeError {
    pub(crate) fn new(e: Error) -> NativeError {
        NativeError { inner: e }
    }
}

/// A core error of a given code. Variants whose fields are static
/// descriptions get neutral ones; the code is always exact.
fn from_code(c: ErrorCode, message: String, ms: u64) -> Error {
    Error::from_code(c, message, ms)
}

/// An owned copy of a core error (the core type is not `Clone` because of
/// `io::Error`; the copy keeps the kind and message).
pub(crate) fn copy(e: &Error) -> Error {
    e.clone()
}
