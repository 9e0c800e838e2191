//! What goes back to the agent (`Response`, `Note`) and what each agent
//! can express (`Capability`).

use agenthooks::{Capability, Note, Response};
use pyo3::prelude::*;

/// The agent's answer, exactly: stdout, stderr, exit code, plus notes.
#[pyclass(module = "agenthooks._native", name = "Response", frozen, eq)]
#[derive(PartialEq)]
pub struct PyResponse {
    pub(crate) inner: Response,
}

impl From<Response> for PyResponse {
    fn from(inner: Response) -> Self {
        PyResponse { inner }
    }
}

#[pymethods]
impl PyResponse {
    /// A response (notes are only made by the core).
    #[new]
    #[pyo3(signature = (*, stdout=String::new(), stderr=String::new(), exit_code=0))]
    fn new(stdout: String, stderr: String, exit_code: i32) -> Self {
        Response {
            stdout,
            stderr,
            exit_code,
            notes: Vec::new(),
        }
        .into()
    }
    /// Text for stdout (may be empty).
    #[getter]
    fn stdout(&self) -> &str {
        &self.inner.stdout
    }
    /// Text for stderr (may be empty).
    #[getter]
    fn stderr(&self) -> &str {
        &self.inner.stderr
    }
    /// Process exit code.
    #[getter]
    fn exit_code(&self) -> i32 {
        self.inner.exit_code
    }
    /// What was degraded and why.
    #[getter]
    fn notes(&self) -> Vec<PyNote> {
        self.inner
            .notes
            .iter()
            .map(|n| PyNote { inner: n.clone() })
            .collect()
    }
    /// The response as JSON (`stdout`, `stderr`, `exit_code`, `notes`).
    fn to_json(&self) -> String {
        self.inner.to_json()
    }
    fn __repr__(&self) -> String {
        format!("Response({})", self.inner.to_json())
    }
}

/// A remark about how a decision was encoded (degraded, dropped, ...).
#[pyclass(module = "agenthooks._native", name = "Note", frozen, eq)]
#[derive(PartialEq)]
pub struct PyNote {
    inner: Note,
}

#[pymethods]
impl PyNote {
    /// Stable code: `degraded`, `dropped`, `fail_open`, ...
    #[getter]
    fn code(&self) -> &str {
        &self.inner.code
    }
    /// What was asked for (`from` in the JSON).
    #[getter]
    fn from_(&self) -> Option<&str> {
        self.inner.from.as_deref()
    }
    /// What was encoded instead.
    #[getter]
    fn to(&self) -> Option<&str> {
        self.inner.to.as_deref()
    }
    /// Human-readable detail (never compared by tests).
    #[getter]
    fn detail(&self) -> Option<&str> {
        self.inner.detail.as_deref()
    }
    fn __repr__(&self) -> String {
        format!(
            "Note({})",
            serde_json::to_string(&self.inner).unwrap_or_default()
        )
    }
}

/// What one native event of one agent can express.
#[pyclass(module = "agenthooks._native", name = "Capability", frozen)]
pub struct PyCapability {
    pub(crate) inner: Capability,
}

#[pymethods]
impl PyCapability {
    /// Provider id.
    #[getter]
    fn provider(&self) -> &'static str {
        self.inner.provider.id()
    }
    /// Native event name.
    #[getter]
    fn native_name(&self) -> &str {
        &self.inner.native_name
    }
    /// Unified kind.
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind.as_str()
    }
    /// Whether the event can block or redirect the action at all.
    #[getter]
    fn can_block(&self) -> bool {
        self.inner.can_block
    }
    /// Decision kinds the agent honours here.
    #[getter]
    fn decisions(&self) -> Vec<&'static str> {
        self.inner.decisions.iter().map(|d| d.as_str()).collect()
    }
    /// Modifiers the agent honours here.
    #[getter]
    fn modifiers(&self) -> Vec<&'static str> {
        self.inner.modifiers.clone()
    }
    /// Whether a decision kind or modifier is expressible here.
    fn can(&self, what: &str) -> bool {
        self.inner.can(what)
    }
    fn __repr__(&self) -> String {
        format!(
            "<Capability {} {} decisions={:?}>",
            self.inner.provider.id(),
            self.inner.native_name,
            self.decisions()
        )
    }
}
