//! `Policy`: the declared fail posture, degradation, ask fallback and caps.

use agenthooks::{AskFallback, Error, Fail, HeadlessAsk, Policy, Unsupported};
use pyo3::prelude::*;

use crate::error::IntoPyResult;

/// The policy a hook declares. Immutable.
#[pyclass(module = "agenthooks._native", name = "Policy", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyPolicy {
    pub(crate) inner: Policy,
}

#[pymethods]
impl PyPolicy {
    /// `fail`: `"open"` | `"closed"`; `unsupported`: `"degrade"` |
    /// `"strict"`; `ask_fallback`: `"deny"` | `"no_decision"`;
    /// `headless_ask` (what `ask` becomes in a session known to be
    /// headless): `"deny"` | `"no_decision"` | `"native"`;
    /// `continuation_cap` (0 = no cap); `timeout_ms` (None = 90% of the
    /// configured timeout, else 55 000). Invalid values raise
    /// `InvalidArgumentError`.
    #[new]
    #[pyo3(signature = (*, fail="open", unsupported="degrade", ask_fallback="deny",
        continuation_cap=5, timeout_ms=None, headless_ask="deny"))]
    fn new(
        fail: &str,
        unsupported: &str,
        ask_fallback: &str,
        continuation_cap: u32,
        timeout_ms: Option<u64>,
        headless_ask: &str,
    ) -> PyResult<Self> {
        // The core's wire names (one table), errors prefixed `policy: `.
        fn named<T>(r: Result<T, Error>) -> PyResult<T> {
            r.map_err(|e| match e {
                Error::InvalidArgument { message } => Error::InvalidArgument {
                    message: format!("policy: {message}"),
                },
                other => other,
            })
            .py()
        }
        let base = match named(Fail::parse(fail))? {
            Fail::Open => Policy::fail_open(),
            Fail::Closed => Policy::fail_closed(),
        };
        let unsupported = named(Unsupported::parse(unsupported))?;
        let ask_fallback = named(AskFallback::parse(ask_fallback))?;
        let headless_ask = named(HeadlessAsk::parse(headless_ask))?;
        // The core's builders: fields it adds later keep their defaults.
        let mut inner = base
            .unsupported(unsupported)
            .ask_fallback(ask_fallback)
            .headless_ask(headless_ask)
            .continuation_cap(continuation_cap);
        if let Some(ms) = timeout_ms {
            inner = inner.timeout_ms(ms);
        }
        Ok(PyPolicy { inner })
    }

    /// Parses a (partial) policy JSON; missing fields take the defaults.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        Ok(PyPolicy {
            inner: Policy::from_json(text).py()?,
        })
    }

    /// The policy as JSON.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.inner).unwrap_or_default()
    }

    /// The effective handler deadline given the hook timeout the agent's
    /// config passed (seconds).
    #[pyo3(signature = (configured_timeout_s=None))]
    fn deadline_ms(&self, configured_timeout_s: Option<f64>) -> u64 {
        self.inner.deadline_ms(configured_timeout_s)
    }

    /// `"open"` or `"closed"`.
    #[getter]
    fn fail(&self) -> &'static str {
        match self.inner.fail {
            Fail::Open => "open",
            Fail::Closed => "closed",
        }
    }
    /// `"degrade"` or `"strict"`.
    #[getter]
    fn unsupported(&self) -> &'static str {
        match self.inner.unsupported {
            Unsupported::Degrade => "degrade",
            Unsupported::Strict => "strict",
        }
    }
    /// `"deny"` or `"no_decision"`.
    #[getter]
    fn ask_fallback(&self) -> &'static str {
        match self.inner.ask_fallback {
            AskFallback::Deny => "deny",
            AskFallback::NoDecision => "no_decision",
        }
    }
    /// `"deny"`, `"no_decision"` or `"native"`: what `ask` becomes in a
    /// session known to be headless.
    #[getter]
    fn headless_ask(&self) -> &'static str {
        self.inner.headless_ask.as_str()
    }
    /// Maximum consecutive `continue` decisions on stop events (0 = no cap).
    #[getter]
    fn continuation_cap(&self) -> u32 {
        self.inner.continuation_cap
    }
    /// Handler deadline in milliseconds, when set.
    #[getter]
    fn timeout_ms(&self) -> Option<u64> {
        self.inner.timeout_ms
    }

    fn __repr__(&self) -> String {
        format!("Policy.from_json({:?})", self.to_json())
    }
}
