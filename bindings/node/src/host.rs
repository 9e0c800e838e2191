//! The host side and install surfaces: the core's JSON-in / JSON-out entry
//! points, passed through unchanged (they never panic and always answer
//! JSON; `lib/index.js` parses the answer and throws on `{"error": ...}`).

use napi_derive::napi;

/// Runs the hooks of a Claude Code / Codex config for one event
/// (`agenthooks::host::json::run_json`): request and response JSON text.
#[napi]
pub fn host_run_json(request: String) -> String {
    agenthooks::host::json::run_json(&request)
}

/// Compiles a matcher in a dialect's flavour and tests subjects
/// (`agenthooks::host::json::matcher_json`).
#[napi]
pub fn matcher_json(request: String) -> String {
    agenthooks::host::json::matcher_json(&request)
}

/// Install, uninstall or doctor (`agenthooks::install::json::request_json`).
#[napi]
pub fn install_json(request: String) -> String {
    agenthooks::install::json::request_json(&request)
}
