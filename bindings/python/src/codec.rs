//! Decode, respond, fail answers, capabilities, merge rules and detection:
//! thin wrappers over the core's functions.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use agenthooks::merge::{self, Fold};
use agenthooks::{Canonical, Decision, DecodeOptions, Detection, Kind, Policy, Provider, dialect};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

use crate::decision::PyDecision;
use crate::error::{IntoPyResult, from_py_exception};
use crate::event::{PyEvent, event_to_py};
use crate::policy::PyPolicy;
use crate::response::{PyCapability, PyResponse};

/// Payloads bigger than this are decoded with the GIL released.
const RELEASE_GIL_BYTES: usize = 64 * 1024;

/// The bytes of a `bytes`, `bytearray` or `str` payload (no copy for `bytes`).
pub fn payload_bytes<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Cow<'a, [u8]>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Cow::Borrowed(b.as_bytes()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(match s.to_cow()? {
            Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Cow::Owned(s.into_bytes()),
        });
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Cow::Owned(b.to_vec()));
    }
    Err(PyTypeError::new_err("payload must be bytes or str"))
}

pub(crate) fn provider_of(s: &str) -> PyResult<Provider> {
    Provider::parse(s).py()
}

pub(crate) fn policy_or_default(p: Option<&Bound<'_, PyPolicy>>) -> Policy {
    p.map(|p| p.get().inner.clone()).unwrap_or_default()
}

/// Decodes one payload of `provider` into the event of its kind's class.
/// `detection` records how the provider was identified (`config`, the
/// default; `env`; `shape`: see `detect`).
#[pyfunction]
#[pyo3(signature = (provider, payload, *, event=None, variant=None, max_bytes=None, detection=None))]
pub fn decode<'py>(
    py: Python<'py>,
    provider: &str,
    payload: &Bound<'py, PyAny>,
    event: Option<String>,
    variant: Option<String>,
    max_bytes: Option<usize>,
    detection: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let provider = provider_of(provider)?;
    let bytes = payload_bytes(payload)?;
    let detection = Detection::parse(detection.unwrap_or("config")).py()?;
    let opts = DecodeOptions {
        variant,
        event,
        max_bytes: max_bytes.unwrap_or(dialect::DEFAULT_MAX_BYTES),
        detection,
    };
    let ev = if bytes.len() > RELEASE_GIL_BYTES {
        let owned = bytes.into_owned();
        py.detach(|| agenthooks::decode(provider, &owned, &opts))
    } else {
        agenthooks::decode(provider, &bytes, &opts)
    };
    event_to_py(py, Arc::new(ev.py()?))
}

/// Encodes a decision for the event's agent, degrading per policy.
#[pyfunction]
#[pyo3(signature = (event, decision, policy=None))]
pub fn respond(
    event: &Bound<'_, PyEvent>,
    decision: &Bound<'_, PyDecision>,
    policy: Option<&Bound<'_, PyPolicy>>,
) -> PyResult<PyResponse> {
    let ev = &event.get().inner;
    let d = &decision.get().inner;
    match policy {
        Some(p) => agenthooks::respond(ev, d, &p.get().inner),
        None => agenthooks::respond(ev, d, &Policy::default()),
    }
    .py()
    .map(Into::into)
}

/// The agent's answer when the hook failed (`error`: the exception, e.g.
/// an `AgentHooksError`), per the fail policy. `event` is None when the
/// payload could not be decoded.
#[pyfunction]
#[pyo3(signature = (provider, event, error, policy=None))]
pub fn fail_response(
    provider: &str,
    event: Option<&Bound<'_, PyEvent>>,
    error: &Bound<'_, PyAny>,
    policy: Option<&Bound<'_, PyPolicy>>,
) -> PyResult<PyResponse> {
    let provider = provider_of(provider)?;
    let err = from_py_exception(error);
    let ev = event.map(|e| e.get().inner.clone());
    Ok(agenthooks::fail_response(provider, ev.as_deref(), &err, &policy_or_default(policy)).into())
}

/// The answer to a payload that failed to decode, per the fail policy
/// (peeks at the bytes for the event name).
#[pyfunction]
#[pyo3(signature = (provider, payload, error, policy=None))]
pub fn fail_response_for_payload(
    provider: &str,
    payload: &Bound<'_, PyAny>,
    error: &Bound<'_, PyAny>,
    policy: Option<&Bound<'_, PyPolicy>>,
) -> PyResult<PyResponse> {
    let provider = provider_of(provider)?;
    let bytes = payload_bytes(payload)?;
    let err = from_py_exception(error);
    Ok(
        dialect::fail_response_for_payload(provider, &bytes, &err, &policy_or_default(policy))
            .into(),
    )
}

/// What `provider` can express on the native event `native`.
#[pyfunction]
pub fn capability_of(provider: &str, native: &str) -> PyResult<PyCapability> {
    Ok(PyCapability {
        inner: agenthooks::capability_of(provider_of(provider)?, native),
    })
}

/// The native events a provider documents, in documentation order.
#[pyfunction]
pub fn native_events(provider: &str) -> PyResult<Vec<&'static str>> {
    Ok(agenthooks::native_events(provider_of(provider)?).to_vec())
}

/// The unified kind of a provider's native event name.
#[pyfunction]
pub fn kind_of(provider: &str, native: &str) -> PyResult<&'static str> {
    Ok(dialect::kind_of(provider_of(provider)?, native).as_str())
}

/// The canonical id of a provider id or alias (`claude` -> `claude-code`).
#[pyfunction]
pub fn parse_provider(s: &str) -> PyResult<&'static str> {
    Ok(provider_of(s)?.id())
}

/// The canonical kind id of any spelling (`PreToolUse` -> `tool.pre`).
#[pyfunction]
pub fn parse_kind(s: &str) -> PyResult<&'static str> {
    Ok(Kind::parse(s).py()?.as_str())
}

/// Every provider id, in documentation order.
#[pyfunction]
pub fn providers() -> Vec<&'static str> {
    Provider::ALL.iter().map(|p| p.id()).collect()
}

/// Every kind id.
#[pyfunction]
pub fn kinds() -> Vec<&'static str> {
    Kind::ALL.iter().map(|k| k.as_str()).collect()
}

/// Every canonical tool class.
#[pyfunction]
pub fn canonicals() -> Vec<&'static str> {
    [
        Canonical::Shell,
        Canonical::FileRead,
        Canonical::FileWrite,
        Canonical::FileEdit,
        Canonical::Search,
        Canonical::Fetch,
        Canonical::Task,
        Canonical::Mcp,
        Canonical::Other,
    ]
    .iter()
    .map(|c| c.as_str())
    .collect()
}

/// Names the calling agent: `flag` (`--provider`), then the environment,
/// then the payload's shape. Returns `(provider id, how, variant)` where
/// `how` is `config`, `env` or `shape`. `env` defaults to the process
/// environment.
#[pyfunction]
#[pyo3(signature = (flag=None, env=None, argv=None, payload=None))]
pub fn detect(
    flag: Option<&str>,
    env: Option<HashMap<String, String>>,
    argv: Option<Vec<String>>,
    payload: Option<&Bound<'_, PyAny>>,
) -> PyResult<(&'static str, &'static str, Option<String>)> {
    let bytes = match payload {
        Some(p) => payload_bytes(p)?,
        None => Cow::Borrowed(&b""[..]),
    };
    let lookup = |k: &str| -> Option<String> {
        match &env {
            Some(m) => m.get(k).cloned(),
            None => std::env::var(k).ok(),
        }
    };
    let argv = argv.unwrap_or_default();
    let (p, how, variant) = agenthooks::detect::detect(flag, &lookup, &argv, &bytes).py()?;
    let how = match how {
        agenthooks::Detection::Config => "config",
        agenthooks::Detection::Env => "env",
        agenthooks::Detection::Shape => "shape",
    };
    Ok((p.id(), how, variant))
}

/// The quirk registry (every documented agent quirk), optionally of one
/// provider, as dicts (`id`, `provider`, `versions`, `event`,
/// `capability`, `behaviour`, `mitigation`, `source`, `fixture`).
#[pyfunction]
#[pyo3(signature = (provider=None))]
pub fn quirks<'py>(py: Python<'py>, provider: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
    let list: Vec<&agenthooks::quirks::Quirk> = match provider {
        Some(p) => agenthooks::quirks::for_provider(provider_of(p)?),
        None => agenthooks::quirks::all().iter().collect(),
    };
    crate::convert::to_py(py, &serde_json::to_value(list).unwrap_or_default())
}

/// Splits a Cursor argv payload (older Cursor CLI builds pass the payload
/// as an argument) off `argv`: `(the other arguments, the payload or None)`.
#[pyfunction]
pub fn take_argv_payload(py: Python<'_>, argv: Vec<String>) -> (Vec<String>, Option<Py<PyBytes>>) {
    let mut rest = argv;
    let payload = dialect::cursor::take_argv_payload(&mut rest);
    (rest, payload.map(|b| PyBytes::new(py, &b).unbind()))
}

/// Incremental first-conclusive-wins fold (the router's stacking rule).
#[pyclass(module = "agenthooks._native", name = "Fold")]
pub struct PyFold {
    inner: Option<Fold>,
}

#[pymethods]
impl PyFold {
    #[new]
    fn new() -> Self {
        PyFold {
            inner: Some(Fold::new()),
        }
    }

    /// Adds the next handler's decision; True when the fold is done and no
    /// further handler should run.
    fn push(&mut self, decision: &Bound<'_, PyDecision>) -> PyResult<bool> {
        let f = self
            .inner
            .as_mut()
            .ok_or_else(|| PyRuntimeError::new_err("Fold.finish() was already called"))?;
        Ok(f.push(decision.get().inner.clone()))
    }

    /// Whether a conclusive decision has arrived.
    #[getter]
    fn is_done(&self) -> bool {
        self.inner.as_ref().is_some_and(Fold::is_done)
    }

    /// The result: the winner, else the merged neutrals, else no_decision.
    fn finish(&mut self) -> PyResult<PyDecision> {
        let f = self
            .inner
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("Fold.finish() was already called"))?;
        Ok(f.finish().into())
    }
}

fn decisions_of(ds: Vec<Bound<'_, PyDecision>>) -> Vec<Decision> {
    ds.iter().map(|d| d.get().inner.clone()).collect()
}

/// Stacking semantics over a list: first conclusive wins.
#[pyfunction]
pub fn merge_first(decisions: Vec<Bound<'_, PyDecision>>) -> PyDecision {
    merge::merge_first(decisions_of(decisions)).into()
}

/// `all` semantics: the most restrictive decision wins, contexts from all.
#[pyfunction]
pub fn merge_all(decisions: Vec<Bound<'_, PyDecision>>) -> PyDecision {
    merge::merge_all(decisions_of(decisions)).into()
}

/// Registers the functions and classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(respond, m)?)?;
    m.add_function(wrap_pyfunction!(fail_response, m)?)?;
    m.add_function(wrap_pyfunction!(fail_response_for_payload, m)?)?;
    m.add_function(wrap_pyfunction!(capability_of, m)?)?;
    m.add_function(wrap_pyfunction!(native_events, m)?)?;
    m.add_function(wrap_pyfunction!(kind_of, m)?)?;
    m.add_function(wrap_pyfunction!(parse_provider, m)?)?;
    m.add_function(wrap_pyfunction!(parse_kind, m)?)?;
    m.add_function(wrap_pyfunction!(providers, m)?)?;
    m.add_function(wrap_pyfunction!(kinds, m)?)?;
    m.add_function(wrap_pyfunction!(canonicals, m)?)?;
    m.add_function(wrap_pyfunction!(detect, m)?)?;
    m.add_function(wrap_pyfunction!(quirks, m)?)?;
    m.add_function(wrap_pyfunction!(take_argv_payload, m)?)?;
    m.add_function(wrap_pyfunction!(merge_first, m)?)?;
    m.add_function(wrap_pyfunction!(merge_all, m)?)?;
    m.add_class::<PyFold>()?;
    Ok(())
}
