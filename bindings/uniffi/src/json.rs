//! The core's JSON entry points, one call each: JSON request in, JSON
//! answer out (errors are inside the answer, as for the C ABI and the
//! other bindings).

/// Runs an agent's hooks as the agent would (`agenthooks host run`):
/// the request and report of `agenthooks::host::json::run_json`.
#[uniffi::export]
pub fn host_run_json(request: String) -> String {
    agenthooks::host::json::run_json(&request)
}

/// Compiles a matcher in a dialect's flavour and tests subjects
/// (`agenthooks::host::json::matcher_json`).
#[uniffi::export]
pub fn matcher_json(request: String) -> String {
    agenthooks::host::json::matcher_json(&request)
}

/// Installs, uninstalls or diagnoses hooks (`agenthooks install` /
/// `uninstall` / `doctor`; `agenthooks::install::json::request_json`).
#[uniffi::export]
pub fn install_json(request: String) -> String {
    agenthooks::install::json::request_json(&request)
}

/// What an agent does with an answer (`agenthooks::simulate::json::predict_json`).
#[uniffi::export]
pub fn predict_json(request: String) -> String {
    agenthooks::simulate::json::predict_json(&request)
}

/// Runs a hook across agents and scenarios
/// (`agenthooks::simulate::json::simulate_json`).
#[uniffi::export]
pub fn simulate_json(request: String) -> String {
    agenthooks::simulate::json::simulate_json(&request)
}

/// The embedded fixture corpus (`agenthooks::simulate::json::corpus_json`).
#[uniffi::export]
pub fn corpus_json(request: String) -> String {
    agenthooks::simulate::json::corpus_json(&request)
}

/// The payloads of a scenario on each agent
/// (`agenthooks::simulate::json::scenario_payloads_json`).
#[uniffi::export]
pub fn scenario_payloads_json(request: String) -> String {
    agenthooks::simulate::json::scenario_payloads_json(&request)
}
