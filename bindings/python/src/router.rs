//! The core's dispatch table and machine (`agenthooks::dispatch`) for the
//! pure-Python router: it registers its callables here and calls what the
//! core asks for. No dispatch rule lives in Python.

use agenthooks::dispatch::{Dispatch, Key, Outcome, Role, Table, When};
use pyo3::prelude::*;

use crate::decision::PyDecision;
use crate::error::{IntoPyResult, from_py_exception, to_py_err};
use crate::event::PyEvent;

/// The registration table (ids count up from 0 in registration order).
#[pyclass(module = "agenthooks._native", name = "RouterTable")]
#[derive(Default)]
pub struct PyTable {
    inner: Table,
}

#[pymethods]
impl PyTable {
    #[new]
    fn new() -> Self {
        PyTable::default()
    }

    /// Registers an entry: `role` 0 handler, 1 observer, 2 middleware;
    /// `on` `*`, `kind:<kind>` or `native:<name>`; `when` ``,
    /// `canonical:<class>`, `names:<A|B>` or `guard`. Returns its id.
    fn add(&mut self, role: u32, on: &str, when: &str) -> PyResult<u32> {
        let role = Role::from_u32(role).py()?;
        self.inner.add_spec(role, on, when).py()
    }

    /// Whether a handler is registered on the event's kind or native name.
    fn handles(&self, event: &Bound<'_, PyEvent>) -> bool {
        self.inner.handles(Key::of(&event.get().inner))
    }

    /// Whether deciding the event runs any user code.
    fn runs_user_code(&self, event: &Bound<'_, PyEvent>) -> bool {
        self.inner.runs_user_code(Key::of(&event.get().inner))
    }

    /// Starts dispatching an event.
    fn start(slf: &Bound<'_, Self>, event: &Bound<'_, PyEvent>) -> PyDispatch {
        let ev = &event.get().inner;
        // A backfilled event runs the observers only (dispatch rule 5).
        let inner = if ev.backfilled {
            slf.borrow().inner.start_observers()
        } else {
            slf.borrow().inner.start(Key::of(ev))
        };
        PyDispatch {
            table: slf.clone().unbind(),
            inner,
            raised: Vec::new(),
        }
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }
}

/// One event's walk through the table.
#[pyclass(module = "agenthooks._native", name = "Dispatch")]
pub struct PyDispatch {
    table: Py<PyTable>,
    inner: Dispatch,
    // The exceptions handed back, by the core error they became: `result`
    // re-raises the caller's own exception object.
    raised: Vec<(String, Py<PyAny>)>,
}

#[pymethods]
impl PyDispatch {
    /// `(tag, id, level)`: 0 observe, 1 middleware, 2 guard, 3 handler,
    /// 4 return (take `result()`).
    fn step(&mut self) -> (u32, u32, u32) {
        self.inner.step().wire()
    }

    /// The called entry returned a decision (None: no decision).
    #[pyo3(signature = (decision=None))]
    fn give(&mut self, decision: Option<&Bound<'_, PyDecision>>) {
        self.inner.give(match decision {
            Some(d) => Outcome::Decision(d.get().inner.clone()),
            None => Outcome::NoDecision,
        });
    }

    /// The called entry raised `exc`.
    fn give_error(&mut self, exc: &Bound<'_, PyAny>) {
        let e = from_py_exception(exc);
        self.raised.push((e.to_string(), exc.clone().unbind()));
        self.inner.give(Outcome::Error(e));
    }

    /// The answer to a guard step.
    fn guard(&mut self, held: bool) {
        self.inner.guard(held);
    }

    /// A middleware's `next` at `level` was called with `event`; raises
    /// `HandlerError` when it was already called.
    fn enter(&mut self, py: Python<'_>, level: u32, event: &Bound<'_, PyEvent>) -> PyResult<()> {
        let t = self.table.borrow(py);
        self.inner
            .enter(&t.inner, level, Key::of(&event.get().inner))
            .py()
    }

    /// The finished level's answer (raises its error: the caller's own
    /// exception when one caused it).
    fn result(&mut self, py: Python<'_>) -> PyResult<PyDecision> {
        match self.inner.result() {
            Ok(d) => Ok(d.into()),
            Err(e) => {
                let key = e.to_string();
                match self.raised.iter().rev().find(|(k, _)| *k == key) {
                    Some((_, exc)) => Err(PyErr::from_value(exc.bind(py).clone())),
                    None => Err(to_py_err(e)),
                }
            }
        }
    }
}

/// Whether `spec` (`canonical:<class>` or `names:<A|B>`) matches the
/// event's tool call (the core's `when`; events without a tool never match).
#[pyfunction]
pub fn when_matches(spec: &str, event: &Bound<'_, PyEvent>) -> PyResult<bool> {
    let w = When::parse(spec).py()?;
    let ev = &event.get().inner;
    Ok(ev.tool.is_some() && w.matches(Key::of(ev).tool))
}

/// Registers the classes and functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTable>()?;
    m.add_class::<PyDispatch>()?;
    m.add_function(wrap_pyfunction!(when_matches, m)?)?;
    Ok(())
}
