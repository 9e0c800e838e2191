//! Status codes, the `ah_error` handle, and the mapping from the core's
//! error codes.

use std::ffi::CStr;

use agenthooks::{Error, ErrorCode};

use crate::text::NulStr;

/// cbindgen:prefix-with-name=false
/// The result of every fallible call. `AH_OK` is 0; 1-99 are generic
/// codes of the C boundary; 100 and up are the core's error codes (the
/// core's `invalid_utf8` and `panic` share the generic codes 2 and 3, so
/// every status has exactly one snake_case id, see `ah_status_id`). Codes
/// are never reused; a retired code stays as a comment.
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ah_status {
    /// Success.
    AH_OK = 0,
    /// A required pointer argument was NULL (`null_arg`).
    AH_ERR_NULL_ARG = 1,
    /// A string argument or the payload is not valid UTF-8 (`invalid_utf8`).
    AH_ERR_INVALID_UTF8 = 2,
    /// A panic was caught inside the library or a handler (`panic`).
    AH_ERR_PANIC = 3,
    /// A one-shot handle was used a second time, e.g. `ah_fold_finish` or
    /// `ah_invocation_complete` called twice (`already_used`).
    AH_ERR_ALREADY_USED = 4,
    /// A core error this library version cannot name; never returned by a
    /// library built from one source tree (`unknown`).
    AH_ERR_UNKNOWN = 99,
    /// The payload is not valid JSON (`invalid_json`).
    AH_ERR_INVALID_JSON = 101,
    // 102 is not used: the core's `invalid_utf8` is AH_ERR_INVALID_UTF8.
    /// The payload is JSON but not an object (`not_an_object`).
    AH_ERR_NOT_AN_OBJECT = 103,
    /// No event name in the payload and none given (`missing_event`).
    AH_ERR_MISSING_EVENT = 104,
    /// A known field has the wrong JSON type (`wrong_type`).
    AH_ERR_WRONG_TYPE = 105,
    /// The payload exceeds the size limit (`too_large`).
    AH_ERR_TOO_LARGE = 106,
    /// The payload nests deeper than the parser allows (`too_deep`).
    AH_ERR_TOO_DEEP = 107,
    /// The provider id is not one agenthooks knows (`unknown_provider`).
    AH_ERR_UNKNOWN_PROVIDER = 108,
    /// An event-kind spelling could not be parsed (`unknown_event_spelling`).
    AH_ERR_UNKNOWN_EVENT_SPELLING = 109,
    /// The decision is malformed or not valid for the event (`invalid_decision`).
    AH_ERR_INVALID_DECISION = 110,
    /// The agent cannot express the decision under `unsupported: strict`
    /// (`unsupported_decision`).
    AH_ERR_UNSUPPORTED_DECISION = 111,
    /// An input rewrite would lose data under `strict` (`lossy_update`).
    AH_ERR_LOSSY_UPDATE = 112,
    /// A handler returned an error (`handler_error`).
    AH_ERR_HANDLER_ERROR = 113,
    /// A handler did not answer before the deadline (`handler_timeout`).
    AH_ERR_HANDLER_TIMEOUT = 114,
    /// Reading or writing failed (`io`).
    AH_ERR_IO = 115,
    // 116 is not used: the core's `panic` is AH_ERR_PANIC.
    /// An argument or option is invalid, e.g. a malformed policy JSON
    /// (`invalid_argument`).
    AH_ERR_INVALID_ARGUMENT = 117,
}

use ah_status::*;

/// Every status, for tables and tests.
pub(crate) const ALL_STATUSES: [ah_status; 21] = [
    AH_OK,
    AH_ERR_NULL_ARG,
    AH_ERR_INVALID_UTF8,
    AH_ERR_PANIC,
    AH_ERR_ALREADY_USED,
    AH_ERR_UNKNOWN,
    AH_ERR_INVALID_JSON,
    AH_ERR_NOT_AN_OBJECT,
    AH_ERR_MISSING_EVENT,
    AH_ERR_WRONG_TYPE,
    AH_ERR_TOO_LARGE,
    AH_ERR_TOO_DEEP,
    AH_ERR_UNKNOWN_PROVIDER,
    AH_ERR_UNKNOWN_EVENT_SPELLING,
    AH_ERR_INVALID_DECISION,
    AH_ERR_UNSUPPORTED_DECISION,
    AH_ERR_LOSSY_UPDATE,
    AH_ERR_HANDLER_ERROR,
    AH_ERR_HANDLER_TIMEOUT,
    AH_ERR_IO,
    AH_ERR_INVALID_ARGUMENT,
];

// The core's code list is `#[non_exhaustive]`, so a match on it from this
// crate needs a wildcard arm. This assertion stands in for the missing
// exhaustiveness check: a new core code changes `ErrorCode::ALL`'s length,
// and this crate stops compiling until `status_of` and `core_code` map it.
const _: [ErrorCode; 17] = ErrorCode::ALL;

/// The status of a core error code.
pub(crate) fn status_of(code: ErrorCode) -> ah_status {
    match code {
        ErrorCode::InvalidJson => AH_ERR_INVALID_JSON,
        ErrorCode::InvalidUtf8 => AH_ERR_INVALID_UTF8,
        ErrorCode::NotAnObject => AH_ERR_NOT_AN_OBJECT,
        ErrorCode::MissingEvent => AH_ERR_MISSING_EVENT,
        ErrorCode::WrongType => AH_ERR_WRONG_TYPE,
        ErrorCode::TooLarge => AH_ERR_TOO_LARGE,
        ErrorCode::TooDeep => AH_ERR_TOO_DEEP,
        ErrorCode::UnknownProvider => AH_ERR_UNKNOWN_PROVIDER,
        ErrorCode::UnknownEventSpelling => AH_ERR_UNKNOWN_EVENT_SPELLING,
        ErrorCode::InvalidDecision => AH_ERR_INVALID_DECISION,
        ErrorCode::UnsupportedDecision => AH_ERR_UNSUPPORTED_DECISION,
        ErrorCode::LossyUpdate => AH_ERR_LOSSY_UPDATE,
        ErrorCode::HandlerError => AH_ERR_HANDLER_ERROR,
        ErrorCode::HandlerTimeout => AH_ERR_HANDLER_TIMEOUT,
        ErrorCode::Io => AH_ERR_IO,
        ErrorCode::Panic => AH_ERR_PANIC,
        ErrorCode::InvalidArgument => AH_ERR_INVALID_ARGUMENT,
        // Unreachable while the assertion above holds.
        _ => AH_ERR_UNKNOWN,
    }
}

/// The core code of a status, if it has one.
pub(crate) fn core_code(s: ah_status) -> Option<ErrorCode> {
    Some(match s {
        AH_OK | AH_ERR_NULL_ARG | AH_ERR_ALREADY_USED | AH_ERR_UNKNOWN => return None,
        AH_ERR_INVALID_UTF8 => ErrorCode::InvalidUtf8,
        AH_ERR_PANIC => ErrorCode::Panic,
        AH_ERR_INVALID_JSON => ErrorCode::InvalidJson,
        AH_ERR_NOT_AN_OBJECT => ErrorCode::NotAnObject,
        AH_ERR_MISSING_EVENT => ErrorCode::MissingEvent,
        AH_ERR_WRONG_TYPE => ErrorCode::WrongType,
        AH_ERR_TOO_LARGE => ErrorCode::TooLarge,
        AH_ERR_TOO_DEEP => ErrorCode::TooDeep,
        AH_ERR_UNKNOWN_PROVIDER => ErrorCode::UnknownProvider,
        AH_ERR_UNKNOWN_EVENT_SPELLING => ErrorCode::UnknownEventSpelling,
        AH_ERR_INVALID_DECISION => ErrorCode::InvalidDecision,
        AH_ERR_UNSUPPORTED_DECISION => ErrorCode::UnsupportedDecision,
        AH_ERR_LOSSY_UPDATE => ErrorCode::LossyUpdate,
        AH_ERR_HANDLER_ERROR => ErrorCode::HandlerError,
        AH_ERR_HANDLER_TIMEOUT => ErrorCode::HandlerTimeout,
        AH_ERR_IO => ErrorCode::Io,
        AH_ERR_INVALID_ARGUMENT => ErrorCode::InvalidArgument,
    })
}

/// The snake_case id of a status, NUL-terminated and static.
pub(crate) fn status_id(s: ah_status) -> &'static CStr {
    match s {
        AH_OK => c"ok",
        AH_ERR_NULL_ARG => c"null_arg",
        AH_ERR_ALREADY_USED => c"already_used",
        AH_ERR_UNKNOWN => c"unknown",
        AH_ERR_INVALID_UTF8 => c"invalid_utf8",
        AH_ERR_PANIC => c"panic",
        AH_ERR_INVALID_JSON => c"invalid_json",
        AH_ERR_NOT_AN_OBJECT => c"not_an_object",
        AH_ERR_MISSING_EVENT => c"missing_event",
        AH_ERR_WRONG_TYPE => c"wrong_type",
        AH_ERR_TOO_LARGE => c"too_large",
        AH_ERR_TOO_DEEP => c"too_deep",
        AH_ERR_UNKNOWN_PROVIDER => c"unknown_provider",
        AH_ERR_UNKNOWN_EVENT_SPELLING => c"unknown_event_spelling",
        AH_ERR_INVALID_DECISION => c"invalid_decision",
        AH_ERR_UNSUPPORTED_DECISION => c"unsupported_decision",
        AH_ERR_LOSSY_UPDATE => c"lossy_update",
        AH_ERR_HANDLER_ERROR => c"handler_error",
        AH_ERR_HANDLER_TIMEOUT => c"handler_timeout",
        AH_ERR_IO => c"io",
        AH_ERR_INVALID_ARGUMENT => c"invalid_argument",
    }
}

pub(crate) fn status_from_u32(v: u32) -> Option<ah_status> {
    ALL_STATUSES.into_iter().find(|s| *s as u32 == v)
}

/// A copy of a core error (the core's `Error` is not `Clone`: `Io` holds
/// an `io::Error`, copied here by kind and text).
pub(crate) fn clone_error(e: &Error) -> Error {
    e.clone()
}

/// A core error of a code, built from a message (for errors that arise in
/// the caller's language: handler errors, panics, I/O). Variants with a
/// text field carry `message`; the others use a fixed description.
/// `timeout_ms` fills `handler_timeout`.
pub(crate) fn error_of(code: ErrorCode, message: &str, timeout_ms: u64) -> Error {
    Error::from_code(code, message, timeout_ms)
}

/// Why a call failed, before it becomes an `ah_error`.
#[derive(Debug)]
pub(crate) enum Fail {
    /// A required pointer was NULL.
    Null(&'static str),
    /// An argument was not UTF-8 (name, offset of the first bad byte).
    Utf8(&'static str, usize),
    /// A one-shot handle was used twice (what was called).
    Used(&'static str),
    /// A caught panic (its message).
    Panic(String),
    /// A core error.
    Core(Error),
}

impl From<Error> for Fail {
    fn from(e: Error) -> Fail {
        Fail::Core(e)
    }
}

impl Fail {
    pub(crate) fn status(&self) -> ah_status {
        match self {
            Fail::Null(_) => AH_ERR_NULL_ARG,
            Fail::Utf8(..) => AH_ERR_INVALID_UTF8,
            Fail::Used(_) => AH_ERR_ALREADY_USED,
            Fail::Panic(_) => AH_ERR_PANIC,
            Fail::Core(e) => status_of(e.code()),
        }
    }

    pub(crate) fn into_error(self) -> ah_error {
        let status = self.status();
        let (message, core) = match self {
            Fail::Null(what) => (format!("`{what}` must not be NULL"), None),
            Fail::Utf8(what, at) => (format!("`{what}` is not valid UTF-8 (byte {at})"), None),
            Fail::Used(what) => (format!("{what} was already called on this handle"), None),
            Fail::Panic(m) => (format!("panic inside agenthooks: {m}"), None),
            Fail::Core(e) => (e.to_string(), Some(e)),
        };
        ah_error {
            status,
            message: NulStr::new(message),
            core,
        }
    }
}

/// An error: a status code and a message. Immutable; every `const
/// ah_error *` call may run concurrently from any thread. Free with
/// `ah_error_free`.
#[derive(Debug)]
pub struct ah_error {
    pub(crate) status: ah_status,
    pub(crate) message: NulStr,
    /// The core error it came from, kept so that fail responses built from
    /// it are exactly the core's.
    core: Option<Error>,
}

impl ah_error {
    /// The core error behind this error (rebuilt from code and message when
    /// it arose at the boundary).
    pub(crate) fn to_core(&self) -> Error {
        match &self.core {
            Some(e) => clone_error(e),
            None => {
                let code = core_code(self.status).unwrap_or(ErrorCode::InvalidArgument);
                error_of(code, self.message.as_str(), 0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_code_has_a_status_with_the_same_id() {
        for c in ErrorCode::ALL {
            let s = status_of(c);
            assert_ne!(s, AH_ERR_UNKNOWN);
            assert_eq!(status_id(s).to_str().unwrap(), c.as_str());
            assert_eq!(core_code(s), Some(c));
            assert_eq!(error_of(c, "m", 1).code(), c);
        }
        let mut ids = std::collections::HashSet::new();
        for s in ALL_STATUSES {
            assert!(ids.insert(status_id(s)), "{s:?}");
            assert_eq!(status_from_u32(s as u32), Some(s));
        }
    }
}
