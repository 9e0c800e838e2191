//! The one error type of the binding: a variant per stable core error code
//! (`docs/errors.md`), carrying the core's message. Kotlin sees
//! `AgentHooksException.InvalidJson(message)` and so on; the code id
//! (`invalid_json`) is `AgentHooksException.code` in the Kotlin layer.

use agenthooks::{Error, ErrorCode};

/// A failure of a binding call, one variant per core error code.
#[derive(Debug, thiserror::Error, uniffi::Error)]
#[uniffi(flat_error)]
pub enum AgentHooksError {
    /// `invalid_json`
    #[error("{0}")]
    InvalidJson(String),
    /// `invalid_utf8`
    #[error("{0}")]
    InvalidUtf8(String),
    /// `not_an_object`
    #[error("{0}")]
    NotAnObject(String),
    /// `missing_event`
    #[error("{0}")]
    MissingEvent(String),
    /// `wrong_type`
    #[error("{0}")]
    WrongType(String),
    /// `too_large`
    #[error("{0}")]
    TooLarge(String),
    /// `too_deep`
    #[error("{0}")]
    TooDeep(String),
    /// `unknown_provider`
    #[error("{0}")]
    UnknownProvider(String),
    /// `unknown_event_spelling`
    #[error("{0}")]
    UnknownEventSpelling(String),
    /// `invalid_decision`
    #[error("{0}")]
    InvalidDecision(String),
    /// `unsupported_decision`
    #[error("{0}")]
    UnsupportedDecision(String),
    /// `lossy_update`
    #[error("{0}")]
    LossyUpdate(String),
    /// `handler_error`
    #[error("{0}")]
    HandlerError(String),
    /// `handler_timeout`
    #[error("{0}")]
    HandlerTimeout(String),
    /// `io`
    #[error("{0}")]
    Io(String),
    /// `panic`
    #[error("{0}")]
    Panic(String),
    /// `invalid_argument`
    #[error("{0}")]
    InvalidArgument(String),
}

impl AgentHooksError {
    /// The error of a code with a message.
    pub fn of(code: ErrorCode, message: String) -> AgentHooksError {
        use AgentHooksError as E;
        match code {
            ErrorCode::InvalidJson => E::InvalidJson(message),
            ErrorCode::InvalidUtf8 => E::InvalidUtf8(message),
            ErrorCode::NotAnObject => E::NotAnObject(message),
            ErrorCode::MissingEvent => E::MissingEvent(message),
            ErrorCode::WrongType => E::WrongType(message),
            ErrorCode::TooLarge => E::TooLarge(message),
            ErrorCode::TooDeep => E::TooDeep(message),
            ErrorCode::UnknownProvider => E::UnknownProvider(message),
            ErrorCode::UnknownEventSpelling => E::UnknownEventSpelling(message),
            ErrorCode::InvalidDecision => E::InvalidDecision(message),
            ErrorCode::UnsupportedDecision => E::UnsupportedDecision(message),
            ErrorCode::LossyUpdate => E::LossyUpdate(message),
            ErrorCode::HandlerError => E::HandlerError(message),
            ErrorCode::HandlerTimeout => E::HandlerTimeout(message),
            ErrorCode::Io => E::Io(message),
            ErrorCode::Panic => E::Panic(message),
            ErrorCode::InvalidArgument => E::InvalidArgument(message),
            // A code newer than this binding: the test below fails until
            // it has its own variant.
            _ => E::HandlerError(message),
        }
    }

    /// An invalid-argument error.
    pub fn invalid(message: impl Into<String>) -> AgentHooksError {
        AgentHooksError::InvalidArgument(message.into())
    }
}

impl From<Error> for AgentHooksError {
    fn from(e: Error) -> Self {
        let code = e.code();
        AgentHooksError::of(code, e.to_string())
    }
}

/// The core error of a code id (unknown or absent: `handler_error`) and a
/// message, as a handler's failure crosses back into the core.
pub fn core_error(code: Option<&str>, message: &str) -> Error {
    let c = code
        .and_then(ErrorCode::parse)
        .unwrap_or(ErrorCode::HandlerError);
    Error::from_code(c, message.to_string(), 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_variant() {
        for c in ErrorCode::ALL {
            let e = AgentHooksError::of(c, "m".into());
            let dbg = format!("{e:?}");
            let want: String = c
                .as_str()
                .split('_')
                .map(|w| {
                    let mut s = w.to_string();
                    if let Some(f) = s.get_mut(0..1) {
                        f.make_ascii_uppercase();
                    }
                    s
                })
                .collect();
            assert!(dbg.starts_with(&want), "{dbg} vs {want}");
            assert_eq!(e.to_string(), "m");
        }
    }

    #[test]
    fn unknown_codes_are_handler_errors() {
        assert_eq!(core_error(None, "x").code(), ErrorCode::HandlerError);
        assert_eq!(
            core_error(Some("nope"), "x").code(),
            ErrorCode::HandlerError
        );
        assert_eq!(core_error(Some("too_deep"), "x").code(), ErrorCode::TooDeep);
    }
}
