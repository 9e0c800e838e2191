//! The author-side run, step by step, for `agenthooks.main`: `launch` (the
//! core's argv rules), `prepare` (the core's `start`: stdin or the argv
//! payload, bad argv values per the fail policy, provider, decode,
//! loop-guard count), the handler deadline, `complete` (encode or apply
//! the fail policy) and the stdout guard. Python drives the steps so that
//! its handlers run in Python threads; every rule stays in the core.

use std::sync::Arc;

use agenthooks::runtime::{self, Invocation, Launch, Plan, StdoutGuard};
use agenthooks::{Error, Fail};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::codec::payload_bytes;
use crate::decision::PyDecision;
use crate::error::{IntoPyResult, from_py_exception};
use crate::event::event_to_py;
use crate::policy::PyPolicy;
use crate::response::PyResponse;

/// Parsed `agenthooks run` arguments (the core's `runtime::Plan`: the
/// options, warnings, the first unusable value, the argv payload).
#[pyclass(module = "agenthooks._native", name = "RunArgs", frozen)]
pub struct PyRunArgs {
    plan: Plan,
}

impl PyRunArgs {
    pub(crate) fn args(&self) -> &agenthooks::runtime::RunArgs {
        &self.plan.args
    }
}

#[pymethods]
impl PyRunArgs {
    /// Subcommand (`run` or `serve`).
    #[getter]
    fn command(&self) -> &str {
        &self.plan.args.command
    }
    /// Warnings about argv for stderr (unknown options, ignored arguments),
    /// one line each; `prepare` puts them in front of a run's answer.
    #[getter]
    fn warnings(&self) -> &str {
        &self.plan.warnings
    }
    /// `(code, message)` of the first value argv cannot use (answered by
    /// `prepare` per the fail policy), or None.
    #[getter]
    fn problem(&self) -> Option<(&'static str, String)> {
        self.plan
            .problem
            .as_ref()
            .map(|e| (e.code().as_str(), e.to_string()))
    }
    /// Whether the last argument is a JSON object: the legacy argv
    /// payload, used only when stdin is empty.
    #[getter]
    fn argv_payload(&self) -> bool {
        self.plan.argv_payload.is_some()
    }
    /// `--provider`.
    #[getter]
    fn provider(&self) -> Option<&str> {
        self.args().provider.as_deref()
    }
    /// `--event`.
    #[getter]
    fn event(&self) -> Option<&str> {
        self.args().event.as_deref()
    }
    /// `--variant`.
    #[getter]
    fn variant(&self) -> Option<&str> {
        self.args().variant.as_deref()
    }
    /// `--timeout` in seconds.
    #[getter]
    fn timeout_s(&self) -> Option<f64> {
        self.args().timeout_s
    }
    /// `--fail` override (`open` / `closed`).
    #[getter]
    fn fail(&self) -> Option<&'static str> {
        self.args().fail.map(|f| match f {
            Fail::Open => "open",
            Fail::Closed => "closed",
        })
    }
    /// `--hook-id`.
    #[getter]
    fn hook_id(&self) -> Option<&str> {
        self.args().hook_id.as_deref()
    }
    /// `--match`.
    #[getter]
    fn matcher(&self) -> Option<&str> {
        self.args().matcher.as_deref()
    }
    /// `--max-bytes`.
    #[getter]
    fn max_bytes(&self) -> Option<usize> {
        self.args().max_bytes
    }
    fn __repr__(&self) -> String {
        format!("RunArgs({:?})", self.plan.args)
    }
}

/// Strict validation of a hook's argv: finds the `agenthooks` word and
/// parses what follows it; None when the word is absent. An unknown
/// option, a stray argument or a bad value raises `InvalidArgumentError`
/// (an unknown provider the provider's error). `main` uses `launch`.
#[pyfunction]
#[pyo3(signature = (argv, *, state_dir=None))]
pub fn parse_args(argv: Vec<String>, state_dir: Option<String>) -> PyResult<Option<PyRunArgs>> {
    Ok(runtime::parse_args(&argv).py()?.map(|mut args| {
        args.state_dir = state_dir.map(Into::into);
        PyRunArgs {
            plan: Plan {
                args,
                ..Plan::default()
            },
        }
    }))
}

/// How a hook process starts (the core's `runtime::launch`, the argv rules
/// every language shares): the `RunArgs` of a `run` or `serve`, or the
/// whole answer as a `Response` (no `agenthooks` word: usage, exit 64;
/// `serve` with a value it cannot use: exit 2).
/// `ancestry` (the ancestors' argv lists, nearest first) replaces `/proc`
/// for prompt backfill (tests and fixtures).
#[pyfunction]
#[pyo3(signature = (argv, *, state_dir=None, ancestry=None))]
pub fn launch<'py>(
    py: Python<'py>,
    argv: Vec<String>,
    state_dir: Option<String>,
    ancestry: Option<Vec<Vec<String>>>,
) -> PyResult<Bound<'py, PyAny>> {
    match runtime::launch(&argv) {
        Launch::Answer(r) => Ok(Bound::new(py, PyResponse::from(r))?.into_any()),
        Launch::Run(mut plan) | Launch::Serve(mut plan) => {
            plan.args.state_dir = state_dir.map(Into::into);
            plan.args.ancestry = ancestry;
            Ok(Bound::new(py, PyRunArgs { plan })?.into_any())
        }
    }
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
    /// Whether this run answers "no opinion" at once and leaves the work
    /// to a detached child (`--async` on a non-gating event).
    #[getter]
    fn detaching(&self) -> bool {
        self.inner.detaching()
    }
    /// Starts the detached child (`program_argv`: this interpreter, its
    /// flags and the script argv, with the `--async` it was started with)
    /// and returns the agent's answer; `None` when it cannot start (the
    /// handlers then run here, synchronously).
    fn detach(&self, py: Python<'_>, program_argv: Vec<String>) -> Option<PyResponse> {
        py.detach(|| self.inner.detach(&program_argv))
            .map(PyResponse::from)
    }
    /// The backfilled `prompt.submitted` to show the observers before this
    /// event (at most once per session), or `None`. Call it only when an
    /// observer is registered.
    fn backfill(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        match py.detach(|| self.inner.backfill()) {
            Some(ev) => Ok(Some(event_to_py(py, ev)?.unbind())),
            None => Ok(None),
        }
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

/// The core's `runtime::start`: reads stdin when `payload` is None (up to
/// the size limit plus one byte; a terminal is empty), takes the argv
/// payload when that is blank, answers a value argv cannot use per the
/// fail policy, resolves the provider and decodes. Returns the
/// `Invocation`, or the agent's complete `Response` when there is nothing
/// to run (unknown provider, bad argv value, bad input: the fail policy
/// already answered).
#[pyfunction]
#[pyo3(signature = (args, policy, payload=None))]
pub fn prepare<'py>(
    py: Python<'py>,
    args: &Bound<'py, PyRunArgs>,
    policy: &Bound<'py, PyPolicy>,
    payload: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let plan = &args.get().plan;
    let policy = &policy.get().inner;
    let bytes = match payload {
        Some(p) => Ok(payload_bytes(p)?.into_owned()),
        None => {
            let limit = plan.read_limit();
            py.detach(|| runtime::read_stdin(limit))
        }
    };
    match runtime::start(plan, policy, bytes) {
        Ok(inner) => {
            // Shared with the invocation, not copied (a large tool output
            // and the payload stay in one place).
            let event = event_to_py(py, Arc::clone(&inner.event))?.unbind();
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
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRunArgs>()?;
    m.add_class::<PyInvocation>()?;
    m.add_class::<PyStdoutGuard>()?;
    m.add_function(wrap_pyfunction!(parse_args, m)?)?;
    m.add_function(wrap_pyfunction!(launch, m)?)?;
    m.add_function(wrap_pyfunction!(prepare, m)?)?;
    Ok(())
}
