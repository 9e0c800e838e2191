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
    match c {
        ErrorCode::InvalidJson => Error::InvalidJson {
            line: 0,
            column: 0,
            message,
        },
        ErrorCode::InvalidUtf8 => Error::InvalidUtf8 {
            what: "input",
            offset: 0,
        },
        ErrorCode::NotAnObject => Error::NotAnObject {
            found: "a non-object",
        },
        ErrorCode::MissingEvent => Error::MissingEvent {
            provider: "the agent",
            field: "hook_event_name",
        },
        ErrorCode::WrongType => Error::WrongType {
            field: message,
            expected: "another type",
            found: "a value",
        },
        ErrorCode::TooLarge => Error::TooLarge {
            what: "input",
            limit: 0,
        },
        ErrorCode::TooDeep => Error::TooDeep { message },
        ErrorCode::UnknownProvider => Error::UnknownProvider { given: message },
        ErrorCode::UnknownEventSpelling => Error::UnknownEventSpelling { given: message },
        ErrorCode::InvalidDecision => Error::InvalidDecision { reason: message },
        ErrorCode::UnsupportedDecision => Error::UnsupportedDecision {
            provider: "agent",
            event: String::new(),
            what: message,
        },
        ErrorCode::LossyUpdate => Error::LossyUpdate {
            provider: "agent",
            event: String::new(),
            detail: message,
        },
        ErrorCode::HandlerError => Error::Handler { message },
        ErrorCode::HandlerTimeout => Error::HandlerTimeout { ms },
        ErrorCode::Io => Error::Io {
            what: "io".into(),
            source: std::io::Error::other(message),
        },
        ErrorCode::Panic => Error::Panic { message },
        ErrorCode::InvalidArgument => Error::InvalidArgument { message },
        // A code added to the core after this binding: keep the message.
        _ => Error::Handler { message },
    }
}

/// An owned copy of a core error (the core type is not `Clone` because of
/// `io::Error`; the copy keeps the kind and message).
pub(crate) fn copy(e: &Error) -> Error {
    match e {
        Error::InvalidJson {
            line,
            column,
            message,
        } => Error::InvalidJson {
            line: *line,
            column: *column,
            message: message.clone(),
        },
        Error::InvalidUtf8 { what, offset } => Error::InvalidUtf8 {
            what,
            offset: *offset,
        },
        Error::NotAnObject { found } => Error::NotAnObject { found },
        Error::MissingEvent { provider, field } => Error::MissingEvent { provider, field },
        Error::WrongType {
            field,
            expected,
            found,
        } => Error::WrongType {
            field: field.clone(),
            expected,
            found,
        },
        Error::TooLarge { what, limit } => Error::TooLarge {
            what,
            limit: *limit,
        },
        Error::TooDeep { message } => Error::TooDeep {
            message: message.clone(),
        },
        Error::UnknownProvider { given } => Error::UnknownProvider {
            given: given.clone(),
        },
        Error::UnknownEventSpelling { given } => Error::UnknownEventSpelling {
            given: given.clone(),
        },
        Error::InvalidDecision { reason } => Error::InvalidDecision {
            reason: reason.clone(),
        },
        Error::UnsupportedDecision {
            provider,
            event,
            what,
        } => Error::UnsupportedDecision {
            provider,
            event: event.clone(),
            what: what.clone(),
        },
        Error::LossyUpdate {
            provider,
            event,
            detail,
        } => Error::LossyUpdate {
            provider,
            event: event.clone(),
            detail: detail.clone(),
        },
        Error::Handler { message } => Error::Handler {
            message: message.clone(),
        },
        Error::HandlerTimeout { ms } => Error::HandlerTimeout { ms: *ms },
        Error::Io { what, source } => Error::Io {
            what: what.clone(),
            source: std::io::Error::new(source.kind(), source.to_string()),
        },
        Error::Panic { message } => Error::Panic {
            message: message.clone(),
        },
        Error::InvalidArgument { message } => Error::InvalidArgument {
            message: message.clone(),
        },
        other => Error::Handler {
            message: other.to_string(),
        },
    }
}
