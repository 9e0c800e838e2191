//! The one error type of the core and its stable machine ids.

use serde::Serialize;

/// Stable machine id of an error, shared by every language binding.
///
/// Ids are never reused; a retired id stays here as a comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(u32)]
#[non_exhaustive]
pub enum ErrorCode {
    /// The payload is not valid JSON.
    InvalidJson = 1,
    /// The payload (or a string argument) is not valid UTF-8.
    InvalidUtf8 = 2,
    /// The payload is JSON but not an object.
    NotAnObject = 3,
    /// No event name in the payload and none given by the caller.
    MissingEvent = 4,
    /// A known field has the wrong JSON type.
    WrongType = 5,
    /// The payload exceeds the size limit.
    TooLarge = 6,
    /// The payload nests deeper than the parser allows.
    TooDeep = 7,
    /// The provider id is not one agenthooks knows.
    UnknownProvider = 8,
    /// An event-kind spelling could not be parsed.
    UnknownEventSpelling = 9,
    /// The decision is malformed or not valid for the event kind.
    InvalidDecision = 10,
    /// The agent cannot express the decision and the policy is `strict`.
    UnsupportedDecision = 11,
    /// An input rewrite would lose data on this agent and the policy is `strict`.
    LossyUpdate = 12,
    /// A handler returned an error.
    HandlerError = 13,
    /// A handler did not answer before the deadline.
    HandlerTimeout = 14,
    /// Reading or writing failed.
    Io = 15,
    /// A panic was caught.
    Panic = 16,
    /// A command-line argument or option is invalid.
    InvalidArgument = 17,
}

impl ErrorCode {
    /// Every code, in numeric order.
    pub const ALL: [ErrorCode; 17] = [
        ErrorCode::InvalidJson,
        ErrorCode::InvalidUtf8,
        ErrorCode::NotAnObject,
        ErrorCode::MissingEvent,
        ErrorCode::WrongType,
        ErrorCode::TooLarge,
        ErrorCode::TooDeep,
        ErrorCode::UnknownProvider,
        ErrorCode::UnknownEventSpelling,
        ErrorCode::InvalidDecision,
        ErrorCode::UnsupportedDecision,
        ErrorCode::LossyUpdate,
        ErrorCode::HandlerError,
        ErrorCode::HandlerTimeout,
        ErrorCode::Io,
        ErrorCode::Panic,
        ErrorCode::InvalidArgument,
    ];

    /// The snake_case id (`invalid_json`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "invalid_json",
            ErrorCode::InvalidUtf8 => "invalid_utf8",
            ErrorCode::NotAnObject => "not_an_object",
            ErrorCode::MissingEvent => "missing_event",
            ErrorCode::WrongType => "wrong_type",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::TooDeep => "too_deep",
            ErrorCode::UnknownProvider => "unknown_provider",
            ErrorCode::UnknownEventSpelling => "unknown_event_spelling",
            ErrorCode::InvalidDecision => "invalid_decision",
            ErrorCode::UnsupportedDecision => "unsupported_decision",
            ErrorCode::LossyUpdate => "lossy_update",
            ErrorCode::HandlerError => "handler_error",
            ErrorCode::HandlerTimeout => "handler_timeout",
            ErrorCode::Io => "io",
            ErrorCode::Panic => "panic",
            ErrorCode::InvalidArgument => "invalid_argument",
        }
    }

    /// Parses a snake_case id.
    pub fn parse(s: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Everything that can go wrong in the core.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The payload is not valid JSON.
    #[error("invalid JSON at line {line}, column {column}: {message}")]
    InvalidJson {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// Parser message.
        message: String,
    },
    /// Invalid UTF-8.
    #[error("invalid UTF-8 in {what} at byte {offset}")]
    InvalidUtf8 {
        /// What was being read.
        what: &'static str,
        /// Byte offset of the first invalid sequence.
        offset: usize,
    },
    /// Payload is not a JSON object.
    #[error("payload must be a JSON object, got {found}")]
    NotAnObject {
        /// The JSON type found.
        found: &'static str,
    },
    /// No event name.
    #[error("the {provider} payload names no event (expected field `{field}`); pass --event")]
    MissingEvent {
        /// Provider id.
        provider: &'static str,
        /// Field that should have named the event.
        field: &'static str,
    },
    /// A known field had the wrong type.
    #[error("field `{field}` must be {expected}, got {found}")]
    WrongType {
        /// Field path.
        field: String,
        /// Expected JSON type.
        expected: &'static str,
        /// Found JSON type.
        found: &'static str,
    },
    /// Too large.
    #[error("{what} is larger than the limit of {limit} bytes")]
    TooLarge {
        /// What was too large.
        what: &'static str,
        /// The limit in bytes.
        limit: usize,
    },
    /// Too deep.
    #[error("payload nests deeper than the parser limit ({message})")]
    TooDeep {
        /// Parser message.
        message: String,
    },
    /// Unknown provider.
    #[error(
        "unknown provider `{given}` (known: claude-code, codex, cursor, gemini, kimi-code, copilot, opencode, openclaw)"
    )]
    UnknownProvider {
        /// What was given.
        given: String,
    },
    /// Unknown event-kind spelling.
    #[error("unknown event kind `{given}`")]
    UnknownEventSpelling {
        /// What was given.
        given: String,
    },
    /// Invalid decision.
    #[error("invalid decision: {reason}")]
    InvalidDecision {
        /// Why.
        reason: String,
    },
    /// Unsupported decision under `strict`.
    #[error("{provider} cannot express `{what}` on {event} (policy unsupported=strict)")]
    UnsupportedDecision {
        /// Provider id.
        provider: &'static str,
        /// Native event name.
        event: String,
        /// The decision kind or modifier.
        what: String,
    },
    /// Lossy input update under `strict`.
    #[error("lossy input update on {provider} {event}: {detail}")]
    LossyUpdate {
        /// Provider id.
        provider: &'static str,
        /// Native event name.
        event: String,
        /// What would be lost.
        detail: String,
    },
    /// A handler failed.
    #[error("handler error: {message}")]
    Handler {
        /// The handler's message.
        message: String,
    },
    /// A handler timed out.
    #[error("handler did not answer within {ms} ms")]
    HandlerTimeout {
        /// The deadline in milliseconds.
        ms: u64,
    },
    /// I/O failure.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// A caught panic.
    #[error("panic: {message}")]
    Panic {
        /// The panic payload, when it was a string.
        message: String,
    },
    /// Invalid argument.
    #[error("invalid argument: {message}")]
    InvalidArgument {
        /// Why.
        message: String,
    },
}

impl Error {
    /// The answer of the JSON-in, JSON-out entry points (simulate, verdict,
    /// MCP resolution, transcript pages) to a request they reject:
    /// `{"error": {"code", "message"}}`.
    pub fn to_json_answer(&self) -> String {
        serde_json::json!({"error": {"code": self.code().as_str(), "message": self.to_string()}})
            .to_string()
    }

    /// The stable machine id of this error.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::InvalidJson { .. } => ErrorCode::InvalidJson,
            Error::InvalidUtf8 { .. } => ErrorCode::InvalidUtf8,
            Error::NotAnObject { .. } => ErrorCode::NotAnObject,
            Error::MissingEvent { .. } => ErrorCode::MissingEvent,
            Error::WrongType { .. } => ErrorCode::WrongType,
            Error::TooLarge { .. } => ErrorCode::TooLarge,
            Error::TooDeep { .. } => ErrorCode::TooDeep,
            Error::UnknownProvider { .. } => ErrorCode::UnknownProvider,
            Error::UnknownEventSpelling { .. } => ErrorCode::UnknownEventSpelling,
            Error::InvalidDecision { .. } => ErrorCode::InvalidDecision,
            Error::UnsupportedDecision { .. } => ErrorCode::UnsupportedDecision,
            Error::LossyUpdate { .. } => ErrorCode::LossyUpdate,
            Error::Handler { .. } => ErrorCode::HandlerError,
            Error::HandlerTimeout { .. } => ErrorCode::HandlerTimeout,
            Error::Io { .. } => ErrorCode::Io,
            Error::Panic { .. } => ErrorCode::Panic,
            Error::InvalidArgument { .. } => ErrorCode::InvalidArgument,
        }
    }

    /// Builds an error for a decision that is malformed or not valid here.
    pub fn invalid_decision(reason: impl Into<String>) -> Error {
        Error::InvalidDecision {
            reason: reason.into(),
        }
    }

    /// Maps a serde_json parse error of a payload to the right code.
    pub(crate) fn from_json(e: &serde_json::Error) -> Error {
        let msg = e.to_string();
        if msg.contains("recursion limit") {
            return Error::TooDeep { message: msg };
        }
        Error::InvalidJson {
            line: e.line(),
            column: e.column(),
            message: msg,
        }
    }
}

impl Error {
    /// An error of a given code from a code and a message, for callers that
    /// only carry those across a boundary (bindings, the C ABI). Variants
    /// whose fields are static descriptions get neutral ones; the code is
    /// always exact, so the fail policy answers exactly as for the original.
    pub fn from_code(code: ErrorCode, message: impl Into<String>, timeout_ms: u64) -> Error {
        let message = message.into();
        match code {
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
                provider: "the agent",
                event: String::new(),
                what: message,
            },
            ErrorCode::LossyUpdate => Error::LossyUpdate {
                provider: "the agent",
                event: String::new(),
                detail: message,
            },
            ErrorCode::HandlerError => Error::Handler { message },
            ErrorCode::HandlerTimeout => Error::HandlerTimeout { ms: timeout_ms },
            ErrorCode::Io => Error::Io {
                what: "I/O".into(),
                source: std::io::Error::other(message),
            },
            ErrorCode::Panic => Error::Panic { message },
            ErrorCode::InvalidArgument => Error::InvalidArgument { message },
        }
    }
}

/// Errors cross language boundaries and are kept by handles; `io::Error` is
/// not `Clone`, so a clone rebuilds it from its kind and text.
impl Clone for Error {
    fn clone(&self) -> Error {
        match self {
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
        }
    }
}

/// The JSON type name of a value, for error messages.
pub(crate) fn json_type(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

/// Result alias for the core.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_code_and_clone_keep_the_code() {
        for c in ErrorCode::ALL {
            let e = Error::from_code(c, "m", 7);
            assert_eq!(e.code(), c);
            assert_eq!(e.clone().code(), c);
            assert_eq!(e.clone().to_string(), e.to_string());
        }
    }
}
