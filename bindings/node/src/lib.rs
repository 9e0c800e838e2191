//! The native layer of the npm package `agenthooks`: type conversion and
//! error mapping over the core crate, nothing else. Every semantic (decode,
//! respond, merge, fail policy, the author-side run) is the core's; the
//! hand-written JS layer in `lib/` adds the router, `main()` and the types.
//!
//! Conventions: values that are JSON in the core (decisions, policies)
//! cross as JSON text; events and core errors cross as opaque handles
//! (an external holding the core `Event`, [`NativeError`]) so the exact core value survives a
//! round trip through JS; functions whose failure feeds a fail response
//! return `Either<T, NativeError>` instead of throwing.

#![deny(clippy::all)]

mod detect;
mod error;
mod event;
mod host;
mod merge;
mod router;
mod runtime;
mod serve;
mod testing;

use agenthooks::{ErrorCode, Kind, Provider};
use napi_derive::napi;

pub use error::NativeError;

/// The crate version (the workspace version).
#[napi]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Every stable error code, in numeric order.
#[napi]
pub fn error_codes() -> Vec<String> {
    ErrorCode::ALL
        .iter()
        .map(|c| c.as_str().to_string())
        .collect()
}

/// Every provider id.
#[napi]
pub fn providers() -> Vec<String> {
    Provider::ALL.iter().map(|p| p.id().to_string()).collect()
}

/// Every unified event kind.
#[napi]
pub fn kinds() -> Vec<String> {
    Kind::ALL.iter().map(|k| k.as_str().to_string()).collect()
}

/// Parses a provider id or alias into its id (throws `unknown_provider`).
#[napi]
pub fn parse_provider(s: String) -> error::Result<String> {
    Ok(Provider::parse(&s).map_err(error::throw)?.id().to_string())
}

/// Parses any spelling of an event kind (throws `unknown_event_spelling`).
#[napi]
pub fn parse_kind(s: String) -> error::Result<String> {
    Ok(Kind::parse(&s).map_err(error::throw)?.as_str().to_string())
}

/// The display name of a provider (`Claude Code`).
#[napi]
pub fn provider_display_name(provider: String) -> error::Result<String> {
    Ok(Provider::parse(&provider)
        .map_err(error::throw)?
        .display_name()
        .to_string())
}
