//! The author-side run, step by step, for `agenthooks.main`: argv parsing,
//! `prepare` (provider, stdin, decode, loop-guard count), the handler
//! deadline, `complete` (encode or apply the fail policy) and the stdout
//! guard. Python drives the steps so that its handlers run in Python
//! threads; every rule stays in the core.

use agenthooks::runtime::{self, Invocation, RunArgs, StdoutGuard};
use agenthooks::{Error, Fail};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::codec::payload_bytes;
use crate::decision::PyDecision;
use crate::error::{IntoPyResult, from_py_exception};
use crate::event::event_to_py;
use crate::policy::PyPolicy;
use crate::response::PyResponse;

/// Parsed `agenthooks run` arguments.
#[pyclass(module = "agenthooks._native", name = "RunArgs", frozen)]
pub struct PyRunArgs {
    inner: RunArgs,
}

#[pymethods]
impl PyRunArgs {
    /// Subcommand (`run`).
    #[getter]
    fn command(&self) -> &str {
        &self.inner.command
    }
    /// `--provider`.
    #[getter]
    fn provider(&self) -> Option<&str> {
        self.inner.provider.as_deref()
    }
    /// `--event`.
    #[getter]
    fn event(&self) -> Option<&str> {
        self.inner.event.as_deref()
    }
    /// `--variant`.
    #[getter]
    fn variant(&self) -> Option<&str> {
        self.inner.variant.as_deref()
    }
    /// `--timeout` in seconds.
    #[getter]
    fn timeout_s(&self) -> Option<f64> {
        self.inner.timeout_s
    }
    /// `--fail` override (`open` / `closed`).
    #[getter]
    fn fail(&self) -> Option<&'static str> {
        self.inner.fail.map(|f| match f {
            Fail::Open => "open",
            Fail::Closed => "closed",
        })
    }
    /// `--hook-id`.
    #[getter]
    fn hook_id(&self) -> Option<&str> {
        self.inner.hook_id.as_deref()
    }
    /// `--match`.
    #[getter]
    fn matcher(&self) -> Option<&str> {
        self.inner.matcher.as_deref()
    }
    /// `--max-bytes`.
    #[getter]
    fn max_bytes(&self) -> Option<usize> {
        self.inner.max_bytes
    }
    fn __repr__(&self) -> String {
        format!("RunArgs({:?})", self.inner)
    }
}

/// Finds the `agenthooks` word in argv and parses what follows it; None
/// when the word is absent. Bad options raise `InvalidArgumentError`.
#[pyfunction]
#[pyo3(signature = (argv, *, state_dir=None))]
pub fn parse_args(argv: Vec<String>, state_dir: Option<String>) -> PyResult<Option<PyRunArgs>> {
    Ok(runtime::parse_args(&argv).py()?.map(|mut inner| {
        inner.state_dir = state_dir.map(Into::into);
        PyRunArgs { inner }
    }))
}

/// One decoded hook invocation, ready for the handlers.
#[pyclass(module = "agenthooks._native", name = "Invocation", frozen)]
pub struct PyInvocation {
    inner: Invocation,
    event: Py<PyAny>,
}

#[pymethods]
impl PyInvocation {
    /// The decoded event (an instance of its kind's class).
    #[getter]
    fn event(&self, py: Python<'_>) -> Py<PyAny> {
        self.event.clone_ref(py)
    }
    /// The effective policy (the router's, with argv overrides).
    #[getter]
    fn policy(&self) -> PyPolicy {
        PyPolicy {
            inner: self.inner.policy.clone(),
        }
    }
    /// Handler deadline in milliseconds.
    #[getter]
    fn deadline_ms(&self) -> u64 {
        self.inner.deadline_ms
    }
    /// The agent's answer for the handlers' decision.
    fn complete(&self, decision: &Bound<'_, PyDecision>) -> PyResponse {
        self.inner.complete(Ok(decision.get().inner.clone())).into()
    }
    /// The agent's answer when the handlers raised `error` (fail policy).
    fn complete_error(&self, error: &Bound<'_, PyAny>) -> PyResponse {
        self.inner.complete(Err(from_py_exception(error))).into()
    }
    /// The agent's answer when the handlers missed the deadline.
    fn complete_timeout(&self) -> PyResponse {
        self.inner
            .complete(Err(Error::HandlerTimeout {
                ms: self.inner.deadline_ms,
            }))
            .into()
    }
}

/// Resolves the provider, reads the payload (stdin when `payload` is None,
/// up to the size limit) and decodes it. Returns the `Invocation`, or the
/// agent's complete `Response` when there is nothing to run (unknown
/// provider, bad input: the fail policy already answered).
#[pyfunction]
#[pyo3(signature = (args, policy, payload=None))]
pub fn prepare<'py>(
    py: Python<'py>,
    args: &Bound<'py, PyRunArgs>,
    policy: &Bound<'py, PyPolicy>,
    payload: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let args = &args.get().inner;
    let policy = &policy.get().inner;
    let bytes = match payload {
        Some(p) => Ok(payload_bytes(p)?.into_owned()),
        None => {
            let limit = args
                .max_bytes
                .unwrap_or(agenthooks::dialect::DEFAULT_MAX_BYTES);
            py.detach(|| runtime::read_limited(std::io::stdin().lock(), limit))
        }
    };
    match runtime::prepare(args, policy, bytes) {
        Ok(inner) => {
            let event = event_to_py(py, inner.event.clone())?.unbind();
            Ok(Bound::new(py, PyInvocation { inner, event })?.into_any())
        }
        Err(answer) => Ok(Bound::new(py, PyResponse::from(answer))?.into_any()),
    }
}

/// Keeps stray prints off stdout: while it lives, file descriptor 1 points
/// at stderr (so `print`, C extensions and child processes write there);
/// `write_answer` writes to the real stdout.
#[pyclass(module = "agenthooks._native", name = "StdoutGuard", frozen)]
pub struct PyStdoutGuard {
    inner: StdoutGuard,
}

#[pymethods]
impl PyStdoutGuard {
    /// Redirects fd 1 to fd 2, keeping the real stdout aside. Flush
    /// `sys.stdout` first.
    #[new]
    fn new() -> Self {
        PyStdoutGuard {
            inner: StdoutGuard::divert(),
        }
    }

    /// Writes the answer to the real stdout (and flushes it).
    fn write_answer(&self, py: Python<'_>, data: &Bound<'_, PyBytes>) -> PyResult<()> {
        let bytes = data.as_bytes().to_vec();
        py.detach(|| self.inner.write_answer(&bytes))
            .map_err(|e| Error::Io {
                what: "writing the answer to stdout".into(),
                source: e,
            })
            .py()
    }
}

/// Registers the runtime functions and classes.
/// The response as a hook process writes it: with `AGENTHOOKS_NOTES` set,
/// each note appended to stderr (the core's `with_notes_on_stderr`).
#[pyfunction]
pub fn with_notes_on_stderr(resp: &Bound<'_, PyResponse>) -> PyResponse {
    agenthooks::runtime::with_notes_on_stderr(resp.borrow().inner.clone()).into()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(with_notes_on_stderr, m)?)?;
    m.add_class::<PyRunArgs>()?;
    m.add_class::<PyInvocation>()?;
    m.add_class::<PyStdoutGuard>()?;
    m.add_function(wrap_pyfunction!(parse_args, m)?)?;
    m.add_function(wrap_pyfunction!(prepare, m)?)?;
    Ok(())
}
