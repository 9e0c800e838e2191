//! uniffi bindings of agenthooks: the core's surface as uniffi objects,
//! records and errors, for the Kotlin/JVM binding (`bindings/kotlin`) and
//! the generated Swift sources (`bindings/swift`, untested).
//!
//! Glue only: every semantic is the core's. Events stay core events behind
//! an object; decisions and policies cross as their canonical JSON; a
//! foreign handler becomes a core closure on the core's router, so the
//! dispatch table, fold, deadline and fail policy are the Rust runtime's.
//! The JSON entry points (host run, install / doctor, simulate / predict)
//! are the core's, one call each.

#![deny(missing_docs)]

uniffi::setup_scaffolding!();

pub mod error;
pub mod event;
pub mod json;
pub mod router;

pub use error::AgentHooksError;
pub use event::{HookEvent, Response};
pub use router::{Handler, Middleware, Next, Observer, Outcome, Router, ToolPredicate};
