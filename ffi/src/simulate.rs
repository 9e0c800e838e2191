//! The test kit (issue 17): what an agent does with a hook's answer, running
//! a hook as each agent would, the shipped fixture corpus and each agent's
//! payload for a scenario. One JSON request in, one JSON answer out,
//! exactly the core's `agenthooks::simulate::json`; the status convention
//! of `host.rs` (a request the core rejects is `AH_OK` with `{"error":
//! {"code", "message"}}`).

use crate::buf::ah_buf;
use crate::error::{ah_error, ah_status};
use crate::host::json_call;

/// What an agent does with a hook's answer. `req` is `{"agent", "event",
/// "tool"?, "answer": {"stdout", "stderr", "exit", "timed_out"}}` or
/// `{"agent", "payload", "event"?, "decision", "policy"?}`. On success
/// `*out` gets an owned `ah_buf` with `{"agent", "event", "kind", "effect",
/// "decision"?, "model_sees"?, "user_sees"?, "updated_input"?, "warnings":
/// [{"code", "message"}]}` (+ `"answer"`, `"notes"` for the decision form),
/// or `{"error": {...}}` — still `AH_OK`. Fails only with
/// `AH_ERR_NULL_ARG`, `AH_ERR_INVALID_UTF8` or `AH_ERR_PANIC`; then `*out`
/// is untouched and, if `err` is not NULL, `*err` gets an owned error.
/// Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `req` must point at `req_len` readable bytes; `out` and `err` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_predict_json(
    req: *const u8,
    req_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    // SAFETY: forwarded caller contract.
    unsafe {
        json_call(
            req,
            req_len,
            out,
            err,
            agenthooks::simulate::json::predict_json,
            false,
        )
    }
}

/// Runs a hook command the way each agent would and predicts each agent's
/// behaviour (the same as `agenthooks simulate --json`). `req` is
/// `{"command": [argv...], "scenarios"?: "builtin" | [{"event", "tool"?,
/// "command"?, "path"?, "prompt"?, "name"?} | {"agent", "payload",
/// "event"?}], "agents"?: [ids], "cwd"?, "timeout_ms"?}`. On success `*out`
/// gets an owned `ah_buf` with `{"outcomes": [...]}` or `{"error": {...}}`
/// — still `AH_OK`. Failures as for `ah_predict_json`. Blocks while the
/// hooks run (each bounded by its timeout); SIGPIPE is blocked on the
/// calling thread for the call; thread-safe; keeps no pointer after return.
///
/// # Safety
/// `req` must point at `req_len` readable bytes; `out` and `err` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_simulate_json(
    req: *const u8,
    req_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    // SAFETY: forwarded caller contract.
    unsafe {
        json_call(
            req,
            req_len,
            out,
            err,
            agenthooks::simulate::json::simulate_json,
            true,
        )
    }
}

/// The fixture corpus shipped in the library: every decodable payload of
/// every agent. `req` is `{"agent"?, "kind"?}` (`{}` or empty for all). On
/// success `*out` gets an owned `ah_buf` with `{"fixtures": [{"agent",
/// "name", "event", "kind", "variant"?, "names_event", "payload"}]}` or
/// `{"error": {...}}` — still `AH_OK`. Failures as for `ah_predict_json`.
///
/// # Safety
/// `req` must point at `req_len` readable bytes; `out` and `err` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_fixture_corpus_json(
    req: *const u8,
    req_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    // SAFETY: forwarded caller contract.
    unsafe {
        json_call(
            req,
            req_len,
            out,
            err,
            agenthooks::simulate::json::corpus_json,
            false,
        )
    }
}

/// Each agent's payload for each scenario, to run a router in-process and
/// then `ah_predict_json` its answer. `req` is `{"scenarios"?, "agents"?,
/// "cwd"?}`. On success `*out` gets an owned `ah_buf` with `{"cases":
/// [{"agent", "scenario", "event", "tool"?, "payload"} | {"agent",
/// "scenario", "skipped"}]}` or `{"error": {...}}` — still `AH_OK`.
/// Failures as for `ah_predict_json`.
///
/// # Safety
/// `req` must point at `req_len` readable bytes; `out` and `err` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_scenario_payloads_json(
    req: *const u8,
    req_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    // SAFETY: forwarded caller contract.
    unsafe {
        json_call(
            req,
            req_len,
            out,
            err,
            agenthooks::simulate::json::scenario_payloads_json,
            false,
        )
    }
}

/// The test kit's verdict over outcomes (the same rules in every
/// language; docs/testing.md). `req` is `{"assertion": "blocked_everywhere"
/// | "runs_everywhere" | "no_empty_allow", "outcomes": [...]}` (outcomes
/// as `ah_simulate_json` gives them). On success `*out` gets an owned
/// `ah_buf` with `{"assertion", "holds", "checked", "offending": [{"index",
/// "agent", "scenario", "event", "reason"}], "nothing_checked"?}` or
/// `{"error": {...}}` — still `AH_OK`. Failures as for `ah_predict_json`.
/// Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `req` must point at `req_len` readable bytes; `out` and `err` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_verdict_json(
    req: *const u8,
    req_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    // SAFETY: forwarded caller contract.
    unsafe {
        json_call(
            req,
            req_len,
            out,
            err,
            agenthooks::simulate::verdict::verdict_json,
            false,
        )
    }
}
