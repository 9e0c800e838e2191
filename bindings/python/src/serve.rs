//! The serve loop's pure steps (`agenthooks::serve`) for the Python loop
//! of `<program> agenthooks serve`: which line is a request, and every
//! reply frame, come from the core, so Python replies exactly as the Rust
//! server does (`fixtures/serve/`).

use agenthooks::serve;
use pyo3::prelude::*;

use crate::codec::provider_of;
use crate::error::IntoPyResult;
use crate::policy::PyPolicy;
use crate::response::PyResponse;
use crate::runtime::PyRunArgs;

/// `agenthooks::serve::step` for one line (`too_long`: the line's length
/// when it was over the limit; `line` then holds its first bytes):
/// `("skip", None, None)`, `("reply", frame_json, None)` (write it), or
/// `("request", seq_json, session)` (run the line, reply with
/// `serve_reply`).
#[pyfunction]
#[pyo3(signature = (args, policy, line, too_long=None))]
pub fn serve_step(
    args: &Bound<'_, PyRunArgs>,
    policy: &Bound<'_, PyPolicy>,
    line: &[u8],
    too_long: Option<usize>,
) -> PyResult<(&'static str, Option<String>, Option<String>)> {
    let a = args.get().args();
    let provider = provider_of(a.provider.as_deref().unwrap_or_default())?;
    Ok(
        match serve::step(provider, a, &policy.borrow().inner, line, too_long) {
            serve::Step::Skip => ("skip", None, None),
            serve::Step::Reply(v) => ("reply", Some(v.to_string()), None),
            serve::Step::Request { seq, session } => {
                ("request", Some(seq.to_string()), Some(session))
            }
        },
    )
}

/// `agenthooks::serve::reply_frame`: the reply line (JSON, no newline) to
/// the request `seq_json` answered with `resp`.
#[pyfunction]
pub fn serve_reply(seq_json: &str, resp: &Bound<'_, PyResponse>) -> PyResult<String> {
    let seq = serde_json::from_str(seq_json)
        .map_err(|e| agenthooks::Error::InvalidArgument {
            message: format!("seq: {e}"),
        })
        .py()?;
    Ok(serve::reply_frame(seq, &resp.borrow().inner).to_string())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SERVE_ABANDONED_CAP", serve::ABANDONED_CAP)?;
    m.add("SERVE_OVERLOADED", serve::overloaded_message())?;
    m.add("SERVE_HEAD_BYTES", serve::HEAD_BYTES)?;
    m.add_function(wrap_pyfunction!(serve_step, m)?)?;
    m.add_function(wrap_pyfunction!(serve_reply, m)?)?;
    Ok(())
}
