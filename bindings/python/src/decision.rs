//! `Decision`: constructors, modifiers (each returns a new decision) and
//! the decision JSON, all delegated to the core.

use agenthooks::{Decision, DecisionKind, Kind, StopAgent};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};

use crate::convert::{from_py, map_from_py, map_to_py, to_py};
use crate::error::IntoPyResult;

/// A hook's decision plus modifiers. Immutable: modifiers return a copy.
#[pyclass(module = "agenthooks._native", name = "Decision", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyDecision {
    pub(crate) inner: Decision,
}

impl From<Decision> for PyDecision {
    fn from(inner: Decision) -> Self {
        PyDecision { inner }
    }
}

fn context_list(obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(vec![s.to_cow()?.into_owned()]);
    }
    obj.extract::<Vec<String>>()
        .map_err(|_| PyTypeError::new_err("context must be a str or a list of str"))
}

fn stop_agent_of(obj: &Bound<'_, PyAny>) -> PyResult<Option<StopAgent>> {
    if obj.is_none() {
        return Ok(None);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(b.is_true().then(StopAgent::default));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Some(StopAgent {
            reason: Some(s.to_cow()?.into_owned()),
        }));
    }
    Err(PyTypeError::new_err(
        "stop_agent must be a bool or a reason (str)",
    ))
}

#[pymethods]
impl PyDecision {
    /// Any decision, by kind id (`"deny"`, `"no_decision"`, ... any
    /// spelling), with its modifiers.
    #[new]
    #[pyo3(signature = (kind, *, reason=None, instruction=None, context=None, system_message=None,
        block_reason=None, stop_agent=None, updated_input=None, replaced_output=None, native=None,
        patch_input=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        kind: &str,
        reason: Option<String>,
        instruction: Option<String>,
        context: Option<&Bound<'_, PyAny>>,
        system_message: Option<String>,
        block_reason: Option<String>,
        stop_agent: Option<&Bound<'_, PyAny>>,
        updated_input: Option<&Bound<'_, PyAny>>,
        replaced_output: Option<&Bound<'_, PyAny>>,
        native: Option<&Bound<'_, PyAny>>,
        patch_input: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut d = Decision::of(DecisionKind::parse(kind).py()?);
        d.reason = reason;
        d.instruction = instruction;
        if let Some(c) = context {
            d.context = context_list(c)?;
        }
        d.system_message = system_message;
        d.block_reason = block_reason;
        if let Some(s) = stop_agent {
            d.stop_agent = stop_agent_of(s)?;
        }
        if let Some(u) = updated_input.filter(|u| !u.is_none()) {
            d.updated_input = Some(map_from_py(u)?);
        }
        if let Some(p) = patch_input.filter(|p| !p.is_none()) {
            d.patch_input = Some(map_from_py(p)?);
        }
        if let Some(r) = replaced_output.filter(|r| !r.is_none()) {
            d.replaced_output = Some(from_py(r)?);
        }
        if let Some(n) = native.filter(|n| !n.is_none()) {
            d.native = Some(map_from_py(n)?);
        }
        Ok(d.into())
    }

    /// Parses decision JSON (`{"kind": "deny", "reason": "..."}`), strictly.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        Decision::from_json(text).py().map(Into::into)
    }

    /// The decision JSON.
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// The decision JSON as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &serde_json::to_value(&self.inner).unwrap_or_default())
    }

    /// Raises `InvalidDecisionError` unless this decision (kind and
    /// modifiers) is one events of `kind` take.
    fn validate_for(&self, kind: &str) -> PyResult<()> {
        self.inner.validate_for(Kind::parse(kind).py()?).py()
    }

    /// The decision kind id (`no_decision`, `deny`, ...).
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind.as_str()
    }
    /// Shown to the model.
    #[getter]
    fn reason(&self) -> Option<&str> {
        self.inner.reason.as_deref()
    }
    /// What the agent should do next (continue).
    #[getter]
    fn instruction(&self) -> Option<&str> {
        self.inner.instruction.as_deref()
    }
    /// Extra context for the model, in order.
    #[getter]
    fn context(&self) -> Vec<String> {
        self.inner.context.clone()
    }
    /// Shown to the human only.
    #[getter]
    fn system_message(&self) -> Option<&str> {
        self.inner.system_message.as_deref()
    }
    /// Human-facing message for a block.
    #[getter]
    fn block_reason(&self) -> Option<&str> {
        self.inner.block_reason.as_deref()
    }
    /// Whether the decision stops the agent entirely.
    #[getter]
    fn stop_agent(&self) -> bool {
        self.inner.stop_agent.is_some()
    }
    /// The reason shown when the agent is stopped.
    #[getter]
    fn stop_reason(&self) -> Option<&str> {
        self.inner
            .stop_agent
            .as_ref()
            .and_then(|s| s.reason.as_deref())
    }
    /// Replacement tool input.
    #[getter]
    fn updated_input<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.inner
            .updated_input
            .as_ref()
            .map(|m| map_to_py(py, m))
            .transpose()
    }
    /// RFC 7396 merge patch against the tool input as the agent sent it.
    #[getter]
    fn patch_input<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.inner
            .patch_input
            .as_ref()
            .map(|m| map_to_py(py, m))
            .transpose()
    }
    /// Where the router's fold saw handlers' rewrites collide (JSON
    /// Pointers of patch keys, or `updated_input`).
    #[getter]
    fn rewrite_conflicts(&self) -> Vec<String> {
        self.inner.rewrite_conflicts.clone()
    }
    /// Replacement tool output.
    #[getter]
    fn replaced_output<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.inner
            .replaced_output
            .as_ref()
            .map(|v| to_py(py, v))
            .transpose()
    }
    /// Escape hatch merged verbatim into the agent's answer.
    #[getter]
    fn native<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.inner
            .native
            .as_ref()
            .map(|m| map_to_py(py, m))
            .transpose()
    }
    /// Whether the router falls through this decision (no_decision,
    /// accept_prompt, finish, observed).
    #[getter]
    fn is_neutral(&self) -> bool {
        self.inner.kind.is_neutral()
    }

    /// A copy with the reason set.
    fn with_reason(&self, reason: String) -> Self {
        self.inner.clone().with_reason(reason).into()
    }
    /// A copy with model context appended.
    fn with_context(&self, context: String) -> Self {
        self.inner.clone().with_context(context).into()
    }
    /// A copy with the human-only message set.
    fn with_system_message(&self, message: String) -> Self {
        self.inner.clone().with_system_message(message).into()
    }
    /// A copy with the human-facing block message set.
    fn with_block_reason(&self, message: String) -> Self {
        self.inner.clone().with_block_reason(message).into()
    }
    /// A copy that stops the agent after this hook.
    #[pyo3(signature = (reason=None))]
    fn with_stop_agent(&self, reason: Option<String>) -> Self {
        self.inner.clone().with_stop_agent(reason).into()
    }
    /// A copy that rewrites the tool input (a whole dict).
    fn with_updated_input(&self, input: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(self
            .inner
            .clone()
            .with_updated_input(map_from_py(input)?)
            .into())
    }
    /// A copy that patches the tool input: an RFC 7396 merge patch against
    /// the input as the agent sent it (`None` deletes a key, dicts merge,
    /// lists and scalars replace). Several handlers' patches compose in
    /// order; the core renders each agent's own rewrite.
    fn with_patch_input(&self, patch: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(self
            .inner
            .clone()
            .with_patch_input(map_from_py(patch)?)
            .into())
    }
    /// A copy with a native object merged into the answer.
    fn with_native(&self, native: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(self.inner.clone().with_native(map_from_py(native)?).into())
    }

    fn __repr__(&self) -> String {
        format!("Decision({})", self.inner.to_json())
    }
}

/// No opinion: the agent's own flow runs (never the same as allow).
#[pyfunction]
pub fn no_decision() -> PyDecision {
    Decision::no_decision().into()
}
/// Approve the tool call (skips the agent's prompt).
#[pyfunction]
pub fn allow() -> PyDecision {
    Decision::allow().into()
}
/// Block the tool call; `reason` goes to the model.
#[pyfunction]
pub fn deny(reason: String) -> PyDecision {
    Decision::deny(reason).into()
}
/// Ask the human.
#[pyfunction]
pub fn ask(reason: String) -> PyDecision {
    Decision::ask(reason).into()
}
/// Claude Code `defer`: end the run and hand the call back.
#[pyfunction]
pub fn defer() -> PyDecision {
    Decision::defer().into()
}
/// Let the prompt through.
#[pyfunction]
pub fn accept_prompt() -> PyDecision {
    Decision::accept_prompt().into()
}
/// Block the prompt.
#[pyfunction]
pub fn block_prompt(reason: String) -> PyDecision {
    Decision::block_prompt(reason).into()
}
/// Let the agent stop.
#[pyfunction]
pub fn finish() -> PyDecision {
    Decision::finish().into()
}
/// Keep the agent going with `instruction`.
#[pyfunction]
pub fn continue_with(instruction: String) -> PyDecision {
    Decision::continue_with(instruction).into()
}
/// Saw the output.
#[pyfunction]
pub fn observed() -> PyDecision {
    Decision::observed().into()
}
/// Tell the model something is wrong with the output.
#[pyfunction]
pub fn flag_output(reason: String) -> PyDecision {
    Decision::flag_output(reason).into()
}
/// Replace the output the model sees (any JSON value).
#[pyfunction]
pub fn replace_output(output: &Bound<'_, PyAny>) -> PyResult<PyDecision> {
    Ok(Decision::replace_output(from_py(output)?).into())
}

/// Every decision kind id.
#[pyfunction]
pub fn decision_kinds() -> Vec<&'static str> {
    [
        DecisionKind::NoDecision,
        DecisionKind::Allow,
        DecisionKind::Deny,
        DecisionKind::Ask,
        DecisionKind::Defer,
        DecisionKind::AcceptPrompt,
        DecisionKind::BlockPrompt,
        DecisionKind::Finish,
        DecisionKind::Continue,
        DecisionKind::Observed,
        DecisionKind::FlagOutput,
        DecisionKind::ReplaceOutput,
    ]
    .iter()
    .map(|k| k.as_str())
    .collect()
}

/// Registers the class and the constructors.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDecision>()?;
    m.add_function(wrap_pyfunction!(no_decision, m)?)?;
    m.add_function(wrap_pyfunction!(allow, m)?)?;
    m.add_function(wrap_pyfunction!(deny, m)?)?;
    m.add_function(wrap_pyfunction!(ask, m)?)?;
    m.add_function(wrap_pyfunction!(defer, m)?)?;
    m.add_function(wrap_pyfunction!(accept_prompt, m)?)?;
    m.add_function(wrap_pyfunction!(block_prompt, m)?)?;
    m.add_function(wrap_pyfunction!(finish, m)?)?;
    m.add_function(wrap_pyfunction!(continue_with, m)?)?;
    m.add_function(wrap_pyfunction!(observed, m)?)?;
    m.add_function(wrap_pyfunction!(flag_output, m)?)?;
    m.add_function(wrap_pyfunction!(replace_output, m)?)?;
    m.add_function(wrap_pyfunction!(decision_kinds, m)?)?;
    Ok(())
}
