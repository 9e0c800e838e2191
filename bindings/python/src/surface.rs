//! The host-side, install and test-kit surfaces: the core's JSON-in / JSON-out entry
//! points (`host::json::run_json`, `host::json::matcher_json`,
//! `install::json::request_json`) as three native functions. They never
//! raise: the request and the response are JSON text, errors are
//! `{"error": {...}}`. The Python package (`agenthooks/host.py`) turns
//! dicts into requests and error objects into exceptions.
//!
//! Running hooks and writing files release the GIL.

use pyo3::prelude::*;

/// Runs the hooks of a Claude Code / Codex configuration for one event.
#[pyfunction]
fn host_run_json(py: Python<'_>, request: &str) -> String {
    py.detach(|| agenthooks::host::json::run_json(request))
}

/// Compiles a matcher in a dialect's flavour and tests subjects.
#[pyfunction]
fn matcher_json(request: &str) -> String {
    agenthooks::host::json::matcher_json(request)
}

/// Installs, uninstalls or diagnoses (`action`) a hook manifest.
#[pyfunction]
fn install_json(py: Python<'_>, request: &str) -> String {
    py.detach(|| agenthooks::install::json::request_json(request))
}

/// What an agent does with a hook's answer (the test kit's behaviour
/// reader; `agenthooks::simulate::json::predict_json`).
#[pyfunction]
fn predict_json(request: &str) -> String {
    agenthooks::simulate::json::predict_json(request)
}

/// Runs a hook command the way each agent would and predicts each agent's
/// behaviour (`agenthooks::simulate::json::simulate_json`).
#[pyfunction]
fn simulate_json(py: Python<'_>, request: &str) -> String {
    py.detach(|| agenthooks::simulate::json::simulate_json(request))
}

/// The fixture corpus shipped in the library
/// (`agenthooks::simulate::json::corpus_json`).
#[pyfunction]
fn fixture_corpus_json(request: &str) -> String {
    agenthooks::simulate::json::corpus_json(request)
}

/// Each agent's payload for each scenario
/// (`agenthooks::simulate::json::scenario_payloads_json`).
#[pyfunction]
fn scenario_payloads_json(request: &str) -> String {
    agenthooks::simulate::json::scenario_payloads_json(request)
}

/// Resolves an MCP server's transport from an agent's configuration
/// (`agenthooks::mcp::resolve_json`). Reads files only.
#[pyfunction]
fn mcp_resolve_json(py: Python<'_>, request: &str) -> String {
    py.detach(|| agenthooks::mcp::resolve_json(request))
}

/// One page of a transcript file (`agenthooks::transcript::page_json`).
#[pyfunction]
fn transcript_page_json(py: Python<'_>, request: &str) -> String {
    py.detach(|| agenthooks::transcript::page_json(request))
}

/// The test kit's verdict of an assertion over outcomes
/// (`agenthooks::simulate::verdict::verdict_json`).
#[pyfunction]
fn verdict_json(request: &str) -> String {
    agenthooks::simulate::verdict::verdict_json(request)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(host_run_json, m)?)?;
    m.add_function(wrap_pyfunction!(matcher_json, m)?)?;
    m.add_function(wrap_pyfunction!(install_json, m)?)?;
    m.add_function(wrap_pyfunction!(predict_json, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_json, m)?)?;
    m.add_function(wrap_pyfunction!(fixture_corpus_json, m)?)?;
    m.add_function(wrap_pyfunction!(scenario_payloads_json, m)?)?;
    m.add_function(wrap_pyfunction!(mcp_resolve_json, m)?)?;
    m.add_function(wrap_pyfunction!(transcript_page_json, m)?)?;
    m.add_function(wrap_pyfunction!(verdict_json, m)?)?;
    Ok(())
}
