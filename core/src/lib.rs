//! agenthooks: write a coding-agent hook once, run it on every agent.
//!
//! The core decodes each agent's hook payload into one unified [`Event`]
//! (keeping the raw bytes), and encodes a [`Decision`] back into the agent's
//! exact wire answer ([`Response`]), degrading what the agent cannot express
//! under a declared [`Policy`].
//!
//! ```
//! use agenthooks::{Decision, DecodeOptions, Policy, Provider};
//! let payload = br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}"#;
//! let event = agenthooks::decode(Provider::ClaudeCode, payload, &DecodeOptions::default()).unwrap();
//! assert_eq!(event.tool.as_ref().unwrap().command(), "rm -rf /");
//! let resp = agenthooks::respond(&event, &Decision::deny("no"), &Policy::default()).unwrap();
//! assert!(resp.stdout.contains("\"permissionDecision\":\"deny\""));
//! ```

#![deny(unsafe_code)]
#![deny(missing_docs)]

#[cfg(unix)]
mod alarm;
pub mod ancestry;
pub mod audit;
pub mod backfill;
pub mod capability;
pub mod dedupe;
pub mod detach;
pub mod detect;
pub mod dialect;
pub mod error;
pub mod failsafe;
pub mod install;
pub mod json;
pub mod matrix;
pub mod mcp;
pub mod mode;
pub mod model;
pub mod native;
pub mod quirks;
pub mod schema;

pub use capability::Capability;
pub use dialect::{
    DecodeOptions, capability as capability_of, decode, fail_response, native_events, respond,
};
pub use error::{Error, ErrorCode, Result};
pub use model::*;
pub mod bridge;
pub mod dispatch;
pub mod host;
/// The agents' hook matchers (part of the host side; kept at this path).
pub use host::matcher;
pub mod merge;
pub mod process;
pub mod router;
pub mod runtime;
pub mod serve;
pub mod simulate;
pub mod state;
pub mod testing;
pub mod transcript;
mod usage;
pub use process::main;
pub use router::{
    Handler, Matcher, PermissionRequestEvent, PromptEvent, Router, StopEvent, ToolErrorEvent,
    ToolPostEvent, ToolPreEvent, all, any, handler, when,
};
