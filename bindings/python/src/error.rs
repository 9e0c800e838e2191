//! Core errors <-> Python exceptions.
//!
//! The exception classes live in Python (`agenthooks/errors.py`: one base
//! `AgentHooksError` with `.code`, subclasses that also inherit `ValueError`
//! for bad input). A core error raises the class `errors._from_native`
//! picks for its code; the exception keeps the core error (`_handle`) so
//! that handing it back to the core (`fail_response`, `Invocation.complete`)
//! loses nothing.

use std::sync::Arc;

use agenthooks::{Error, ErrorCode};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;

/// A core error, kept inside the Python exception that carries it.
#[pyclass(module = "agenthooks._native", name = "CoreError", frozen)]
pub struct CoreError {
    pub(crate) inner: Arc<Error>,
}

#[pymethods]
impl CoreError {
    /// The stable machine id (`invalid_json`, ...).
    #[getter]
    fn code(&self) -> &'static str {
        self.inner.code().as_str()
    }

    /// The human-readable message.
    #[getter]
    fn message(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("CoreError({:?}, {:?})", self.code(), self.message())
    }
}

static FROM_NATIVE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The Python exception for a core error.
pub fn to_py_err(e: Error) -> PyErr {
    Python::attach(|py| {
        let code = e.code().as_str();
        let message = e.to_string();
        let made = FROM_NATIVE
            .get_or_try_init(py, || -> PyResult<Py<PyAny>> {
                Ok(py
                    .import("agenthooks.errors")?
                    .getattr("_from_native")?
                    .unbind())
            })
            .and_then(|f| {
                let handle = Py::new(py, CoreError { inner: Arc::new(e) })?;
                f.bind(py).call1((code, message.as_str(), handle))
            });
        match made {
            Ok(exc) => PyErr::from_value(exc),
            // The package is broken (errors.py missing): still say what failed.
            Err(_) => pyo3::exceptions::PyRuntimeError::new_err(format!("{code}: {message}")),
        }
    })
}

/// `Result` conversion helper: `core_call().map_err(to_py_err)?`.
pub trait IntoPyResult<T> {
    /// Maps the core error to its Python exception.
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for Result<T, Error> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_py_err)
    }
}

/// The core error a Python exception stands for: the one it carries when
/// it came from the core, the one its `.code` names when it is an
/// `AgentHooksError`, else a `handler_error` with the exception's text.
pub fn from_py_exception(exc: &Bound<'_, PyAny>) -> Error {
    if let Ok(h) = exc.getattr("_handle") {
        if let Ok(h) = h.cast::<CoreError>() {
            return clone_error(&h.get().inner);
        }
    }
    let text = exc
        .str()
        .map(|s| s.to_cow().map(|c| c.into_owned()).unwrap_or_default())
        .unwrap_or_default();
    if let Ok(code) = exc.getattr("code") {
        if let Ok(code) = code.cast::<PyString>() {
            if let Some(c) = code.to_cow().ok().and_then(|c| ErrorCode::parse(&c)) {
                return error_from_code(c, text);
            }
        }
    }
    let ty = exc
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "Exception".into());
    Error::Handler {
        message: if text.is_empty() {
            ty
        } else {
            format!("{ty}: {text}")
        },
    }
}

/// A core error of a code, carrying `message` where the variant has text.
pub fn error_from_code(code: ErrorCode, message: String) -> Error {
    Error::from_code(code, message, 0)
}

/// A copy of a core error (`Error` is not `Clone`: it may hold an
/// `io::Error`, copied here by kind and text).
pub fn clone_error(e: &Error) -> Error {
    e.clone()
}

/// Every error code id, in numeric order (`ErrorCode::ALL`).
#[pyfunction]
pub fn error_codes() -> Vec<&'static str> {
    ErrorCode::ALL.iter().map(|c| c.as_str()).collect()
}
