//! The test kit (`agenthooks/testing`): the core's simulation entry points
//! (`agenthooks::simulate::json`), JSON text in and out, passed through
//! unchanged (they never panic and always answer JSON; `lib/index.js` and
//! `lib/testing.js` parse the answer and throw on `{"error": ...}`). The names are the C
//! ABI's (`ah_predict_json`, ...); `simulateJsonAsync` is `simulateJson`
//! resolving a Promise from a worker thread.

use napi::{Env, Task, bindgen_prelude::AsyncTask};
use napi_derive::napi;

/// What an agent does with a hook's answer
/// (`agenthooks::simulate::json::predict_json`).
#[napi]
pub fn predict_json(request: String) -> String {
    agenthooks::simulate::json::predict_json(&request)
}

/// The fixture corpus embedded in the core
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

/// The test kit's verdict of an assertion over outcomes
/// (`agenthooks::simulate::verdict::verdict_json`).
#[napi]
pub fn verdict_json(request: String) -> String {
    agenthooks::simulate::verdict::verdict_json(&request)
}

/// Runs a hook command the way each agent would and predicts each agent's
/// behaviour (`agenthooks::simulate::json::simulate_json`). Synchronous:
/// blocks until the hook runs finish (each bounded by its timeout).
#[napi]
pub fn simulate_json(request: String) -> String {
    agenthooks::simulate::json::simulate_json(&request)
}

/// [`simulate_json`] off the JS thread (the test kit waits for hook
/// processes without blocking timers and other tests).
pub struct Simulate {
    request: String,
}

impl Task for Simulate {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> napi::Result<String> {
        Ok(agenthooks::simulate::json::simulate_json(&self.request))
    }

    fn resolve(&mut self, _env: Env, output: String) -> napi::Result<String> {
        Ok(output)
    }
}

/// [`simulate_json`] on a worker thread: resolves to the response JSON text.
#[napi(ts_return_type = "Promise<string>")]
pub fn simulate_json_async(request: String) -> AsyncTask<Simulate> {
    AsyncTask::new(Simulate { request })
}

/// Resolves an MCP server's transport from an agent's own configuration
/// (`agenthooks::mcp::resolve_json`): an explicit lookup or `{"event"}`.
#[napi]
pub fn mcp_resolve_json(request: String) -> String {
    agenthooks::mcp::resolve_json(&request)
}

/// One page of a transcript file (`agenthooks::transcript::page_json`).
#[napi]
pub fn transcript_page_json(request: String) -> String {
    agenthooks::transcript::page_json(&request)
}
