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

/// What an agent does with a hook's answer (the test kit's behaviour
/// reader, `agenthooks::simulate::json::predict_json`).
#[napi]
pub fn predict_json(request: String) -> String {
    agenthooks::simulate::json::predict_json(&request)
}

/// Runs a hook command the way each agent would and predicts each agent's
/// behaviour (`agenthooks::simulate::json::simulate_json`). Synchronous:
/// blocks until the hook runs finish (each bounded by its timeout).
#[napi]
pub fn simulate_json(request: String) -> String {
    agenthooks::simulate::json::simulate_json(&request)
}

/// The fixture corpus shipped in the library
/// (`agenthooks::simulate::json::corpus_json`).
#[napi]
pub fn fixture_corpus_json(request: String) -> String {
    agenthooks::simulate::json::corpus_json(&request)
}

/// Each agent's payload for each scenario
/// (`agenthooks::simulate::json::scenario_payloads_json`).
#[napi]
pub fn scenario_payloads_json(request: String) -> String {
    agenthooks::simulate::json::scenario_payloads_json(&request)
}
