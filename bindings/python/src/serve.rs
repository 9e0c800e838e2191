//! The serve bridge (`agenthooks::bridge`) for the Python serve loop of
//! `<program> agenthooks serve`: every rule of the loop (which line is a
//! request, per-session order, the bounds and backpressure, stale and
//! refused requests, every reply frame) is the core's state machine;
//! `agenthooks.runtime._serve` moves bytes and runs handlers on threads.

use std::sync::{Mutex, MutexGuard};

use agenthooks::bridge::{self, Bridge, Outcome, Output};
use agenthooks::{Decision, Error};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

use crate::decision::PyDecision;
use crate::error::{IntoPyResult, from_py_exception};
use crate::event::event_to_py;
use crate::policy::PyPolicy;
use crate::runtime::PyRunArgs;

/// The serve bridge. Every method returns `(frames, stderr, jobs)`:
/// `frames` the reply lines to write (bytes, each ending in a newline),
/// `stderr` text for stderr, `jobs` a list of `(id, event, deadline_ms)`
/// to run (then report with `finish`, `finish_error` or
/// `finish_timeout`). Thread-safe.
#[pyclass(module = "agenthooks._native", name = "Bridge", frozen)]
pub struct PyBridge {
    inner: Mutex<Bridge>,
}

impl PyBridge {
    fn lock(&self) -> MutexGuard<'_, Bridge> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn finish_with<'py>(
        &self,
        py: Python<'py>,
        id: u64,
        o: Outcome,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let out = self.lock().finish(id, o).py()?;
        output(py, out)
    }
}

fn output(py: Python<'_>, o: Output) -> PyResult<Bound<'_, PyTuple>> {
    let mut frames = Vec::new();
    for f in &o.frames {
        frames.extend_from_slice(f.as_bytes());
        frames.push(b'\n');
    }
    let jobs = PyList::empty(py);
    for j in o.jobs {
        let ev = event_to_py(py, j.event)?;
        jobs.append((j.id, ev, j.deadline_ms))?;
    }
    (PyBytes::new(py, &frames), o.stderr, jobs).into_pyobject(py)
}

#[pymethods]
impl PyBridge {
    /// A bridge for the `serve` arguments of `launch` and the router's
    /// policy, with the bounds of this machine. Raises
    /// `InvalidArgumentError` (no `--provider`) or the unknown provider's
    /// error.
    #[new]
    fn new(args: &Bound<'_, PyRunArgs>, policy: &Bound<'_, PyPolicy>) -> PyResult<Self> {
        let b = Bridge::for_machine(args.get().args(), &policy.borrow().inner).py()?;
        Ok(PyBridge {
            inner: Mutex::new(b),
        })
    }

    /// The longest line to pass whole to `feed`.
    #[getter]
    fn max_line(&self) -> usize {
        self.lock().max_line()
    }

    /// How many handlers are worth running at once.
    #[getter]
    fn workers(&self) -> usize {
        self.lock().limits().workers
    }

    /// Whether to read another line now (false while the queue is full).
    fn wants_input(&self) -> bool {
        self.lock().wants_input()
    }

    /// Whether no request waits or runs (abandoned handlers aside).
    fn idle(&self) -> bool {
        self.lock().idle()
    }

    /// One input line (without its newline); for a line over `max_line`,
    /// its first bytes and `too_long` its length.
    #[pyo3(signature = (line, too_long=None))]
    fn feed<'py>(
        &self,
        py: Python<'py>,
        line: &[u8],
        too_long: Option<usize>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let out = match too_long {
            Some(n) => self.lock().feed_too_long(n, line),
            None => self.lock().feed(line),
        };
        output(py, out)
    }

    /// The job's handlers decided in time.
    fn finish<'py>(
        &self,
        py: Python<'py>,
        id: u64,
        decision: &Bound<'py, PyDecision>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let d: Decision = decision.get().inner.clone();
        self.finish_with(py, id, Outcome::Done(Ok(d)))
    }

    /// The job's handlers raised `error` (the fail policy answers).
    fn finish_error<'py>(
        &self,
        py: Python<'py>,
        id: u64,
        error: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let e: Error = from_py_exception(error);
        self.finish_with(py, id, Outcome::Done(Err(e)))
    }

    /// The job's handlers missed the deadline and are abandoned: report
    /// their end with `abandoned_done`.
    fn finish_timeout<'py>(&self, py: Python<'py>, id: u64) -> PyResult<Bound<'py, PyTuple>> {
        self.finish_with(py, id, Outcome::TimedOut)
    }

    /// The abandoned handlers of job `id` have returned.
    fn abandoned_done(&self, id: u64) {
        self.lock().abandoned_done(id);
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SERVE_ABANDONED_CAP", bridge::ABANDONED_CAP)?;
    m.add("SERVE_OVERLOADED", bridge::overloaded_message())?;
    m.add("SERVE_HEAD_BYTES", bridge::HEAD_BYTES)?;
    m.add_class::<PyBridge>()?;
    Ok(())
}
