//! The stable C ABI of agenthooks (`include/agenthooks.h`).
//!
//! Glue only: every semantic lives in the `agenthooks` core; this crate
//! converts pointers, strings and JSON at the boundary, maps errors to
//! numbered [`ah_status`] codes and keeps panics from unwinding into C.
//! Conventions (naming, ownership, errors, threads) are in the header's
//! overview comment, which `cbindgen.toml` holds.
//!
//! Layout: `ptr` holds every raw-pointer helper, `panic` the guard every
//! body runs in; the other modules are one API area each.

#![allow(non_camel_case_types)]
#![deny(missing_docs)]

mod panic;
mod ptr;
mod sigpipe;
mod text;

pub mod bridge;
pub mod buf;
pub mod context;
pub mod error;
pub mod error_api;
pub mod event;
pub mod host;
pub mod info;
pub mod merge;
pub mod respond;
pub mod router;
pub mod runtime;
pub mod serve;
pub mod simulate;
pub mod version;

pub use bridge::{ah_bridge, ah_bridge_job, ah_bridge_output};
pub use buf::ah_buf;
pub use error::{ah_error, ah_status};
pub use event::{ah_decode_options, ah_event};
pub use merge::ah_fold;
pub use respond::ah_response;
pub use router::{ah_dispatch, ah_router};
pub use runtime::{ah_invocation, ah_run_args, ah_stdout_guard};
pub use text::ah_str;
pub use version::AH_ABI_VERSION;
