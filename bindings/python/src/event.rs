//! `Event` and its parts as Python classes.
//!
//! An event is decoded once in Rust and shared (`Arc`); every Python object
//! that looks into it (the event, its `tool`, `session`, `stop`, ...) is a
//! view that converts a field only when it is read, so a handler that reads
//! `event.tool.command` never pays for turning the payload into dicts.
//! One class per kind (`ToolPreEvent`, `PromptEvent`, ...), all subclasses
//! of `Event`; the tool, prompt and stop kinds narrow `tool` / `prompt` /
//! `stop` to non-optional, like the Rust router's typed events.

use std::sync::{Arc, OnceLock};

use agenthooks::{Event, Kind, Provider, StopInfo, ToolCall, Usage};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use pyo3::{PyClassInitializer, PyTypeInfo};

use crate::convert::{map_to_py, to_py};
use crate::response::PyCapability;

/// One hook event, decoded from any agent.
#[pyclass(module = "agenthooks._native", name = "Event", subclass, frozen)]
pub struct PyEvent {
    pub(crate) inner: Arc<Event>,
    /// The payload as Python values, built by the first `native()` call.
    native: OnceLock<Py<PyAny>>,
}

fn opt(s: &Option<String>) -> Option<&str> {
    s.as_deref()
}

#[pymethods]
impl PyEvent {
    /// Provider id (`claude-code`, `codex`, ...).
    #[getter]
    fn provider(&self) -> &'static str {
        self.inner.provider.id()
    }
    /// Variant (`""`, `cli`, `ide`, `cloud`, ...).
    #[getter]
    fn variant(&self) -> &str {
        &self.inner.variant
    }
    /// Native event name, verbatim.
    #[getter]
    fn native_name(&self) -> &str {
        &self.inner.native_name
    }
    /// Unified kind (`tool.pre`, ...).
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind.as_str()
    }
    /// How the agent was identified (`config`, `env`, `shape`).
    #[getter]
    fn detection(&self) -> Option<&'static str> {
        self.inner.detection.map(|d| match d {
            agenthooks::Detection::Config => "config",
            agenthooks::Detection::Env => "env",
            agenthooks::Detection::Shape => "shape",
        })
    }
    /// Session facts.
    #[getter]
    fn session(&self) -> SessionInfo {
        SessionInfo {
            ev: self.inner.clone(),
        }
    }
    /// The subagent the event comes from, if any.
    #[getter]
    fn agent(&self) -> Option<AgentInfo> {
        self.inner.agent.as_ref().map(|a| AgentInfo {
            id: a.id.clone(),
            r#type: a.r#type.clone(),
        })
    }
    /// The tool call (tool and permission events).
    #[getter]
    fn tool(&self) -> Option<PyToolCall> {
        self.inner.tool.as_ref().map(|_| PyToolCall {
            ev: self.inner.clone(),
        })
    }
    /// The submitted prompt.
    #[getter]
    fn prompt(&self) -> Option<&str> {
        opt(&self.inner.prompt)
    }
    /// Tool output (JSON as Python objects; converted on each read).
    #[getter]
    fn output<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.inner.output())
    }
    /// The tool failed.
    #[getter]
    fn failed(&self) -> bool {
        self.inner.failed
    }
    /// Error text.
    #[getter]
    fn error(&self) -> Option<&str> {
        opt(&self.inner.error)
    }
    /// Tool duration in milliseconds.
    #[getter]
    fn duration_ms(&self) -> Option<u64> {
        self.inner.duration_ms
    }
    /// The transport of the MCP server this tool call names (`{"server",
    /// "transport", "command", "args", "url", "from_config", "config_path",
    /// "scope"}`), read lazily from the agent's own MCP configuration and
    /// cached per session; `None` when the call is not an MCP call or no
    /// configuration names the server.
    fn mcp_transport<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let ev = self.inner.clone();
        match py.detach(move || agenthooks::mcp::resolve_for_event(&ev)) {
            Ok(Some(t)) => {
                let v = serde_json::to_value(t).unwrap_or(serde_json::Value::Null);
                Ok(Some(crate::convert::to_py(py, &v)?))
            }
            Ok(None) => Ok(None),
            Err(e) => Err(crate::error::to_py_err(e)),
        }
    }
    /// Stop facts (stop events).
    #[getter]
    fn stop(&self) -> Option<PyStopInfo> {
        self.inner.stop.as_ref().map(|_| PyStopInfo {
            ev: self.inner.clone(),
        })
    }
    /// Source (session start source, ...).
    #[getter]
    fn source(&self) -> Option<&str> {
        opt(&self.inner.source)
    }
    /// Reason (session end reason, ...).
    #[getter]
    fn reason(&self) -> Option<&str> {
        opt(&self.inner.reason)
    }
    /// Trigger (compaction `manual` / `auto`, ...).
    #[getter]
    fn trigger(&self) -> Option<&str> {
        opt(&self.inner.trigger)
    }
    /// Instructions (compaction custom instructions, ...).
    #[getter]
    fn instructions(&self) -> Option<&str> {
        opt(&self.inner.instructions)
    }
    /// Message (notification text, ...).
    #[getter]
    fn message(&self) -> Option<&str> {
        opt(&self.inner.message)
    }
    /// Path (changed file, ...).
    #[getter]
    fn path(&self) -> Option<&str> {
        opt(&self.inner.path)
    }
    /// True only for events the agent never sent.
    #[getter]
    fn backfilled(&self) -> bool {
        self.inner.backfilled
    }
    /// Whether the event comes from inside a subagent.
    #[getter]
    fn is_subagent(&self) -> bool {
        self.inner.is_subagent()
    }
    /// Whether a person can answer a prompt in this session: `True`
    /// interactive, `False` headless, `None` unknown. The mode the event
    /// carries (a run's `--observed` one), else observed on first read from
    /// this process's environment and `/proc`, once per process (the same
    /// observation an `ask` uses).
    #[getter]
    fn interactive(&self) -> Option<bool> {
        self.inner.session_mode().interactive
    }
    /// The signal that decided `interactive` (`argv:-p`,
    /// `env:CLAUDE_CODE_SESSION_ATTENDED=0`, ...); `None` when unknown.
    #[getter]
    fn mode_signal(&self) -> Option<String> {
        self.inner.session_mode().signal
    }
    /// The verbatim payload bytes.
    #[getter]
    fn raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.raw)
    }
    /// The payload parsed (parsed on each call; keep the result).
    fn raw_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.inner.raw_json())
    }
    /// The payload as the agent sent it (a dict for the object payloads of
    /// every agent), parsed once on the first call and then the same
    /// object; typed per agent and event by the TypedDicts of
    /// `agenthooks.native` (generated from the published JSON Schemas).
    /// Read it, do not modify it.
    ///
    /// `native(view)` with one of those TypedDicts (e.g.
    /// `agenthooks.native.claude_code.PreToolUse`) first checks that the
    /// event is that agent's event (else `invalid_argument`), and types the
    /// result as that TypedDict.
    #[pyo3(signature = (view=None))]
    fn native<'py>(
        &self,
        py: Python<'py>,
        view: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(view) = view {
            let want: Option<(String, String)> = view
                .getattr("__native_event__")
                .ok()
                .and_then(|w| w.extract().ok());
            let invalid = |message: String| {
                crate::error::to_py_err(agenthooks::Error::InvalidArgument { message })
            };
            let Some((agent, name)) = want else {
                return Err(invalid(
                    "native(view): view must be a TypedDict of agenthooks.native".into(),
                ));
            };
            if agent != self.inner.provider.id() || name != self.inner.native_name {
                return Err(invalid(format!(
                    "a {agent} {name} view of a {} {} event",
                    self.inner.provider.id(),
                    self.inner.native_name
                )));
            }
        }
        if let Some(v) = self.native.get() {
            return Ok(v.bind(py).clone());
        }
        // Python's own parser: the payload exactly (deep nesting, lone
        // surrogates), like `json.loads(event.raw)`; the core's reading
        // when that fails (nesting beyond Python's recursion limit).
        let v = match py
            .import("json")
            .and_then(|j| j.call_method1("loads", (PyBytes::new(py, &self.inner.raw),)))
        {
            Ok(v) => v.unbind(),
            Err(_) => to_py(py, &self.inner.raw_json())?.unbind(),
        };
        // Another thread may have won the race: every caller then gets its value.
        let v = self.native.get_or_init(|| v);
        Ok(v.bind(py).clone())
    }
    /// The canonical JSON, `raw` spliced in verbatim (what `agenthooks decode` prints).
    fn to_json(&self) -> String {
        self.inner.to_json()
    }
    /// What this agent can express on this native event.
    #[getter]
    fn capability(&self) -> PyCapability {
        PyCapability {
            inner: agenthooks::capability_of(self.inner.provider, &self.inner.native_name),
        }
    }
    /// Whether the agent honours a decision kind or modifier here
    /// (`"ask"`, `"updated_input"`, ...).
    fn can(&self, what: &str) -> bool {
        agenthooks::capability_of(self.inner.provider, &self.inner.native_name).can(what)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> String {
        let e = &slf.get().inner;
        let cls = slf
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "Event".into());
        format!(
            "<{cls} {} {} ({})>",
            e.provider.id(),
            e.native_name,
            e.kind.as_str()
        )
    }
}

/// Session-level facts (a view into the event).
#[pyclass(module = "agenthooks._native", frozen)]
pub struct SessionInfo {
    ev: Arc<Event>,
}

#[pymethods]
impl SessionInfo {
    /// Session id.
    #[getter]
    fn id(&self) -> &str {
        &self.ev.session.id
    }
    /// Turn / prompt / generation id.
    #[getter]
    fn turn_id(&self) -> &str {
        &self.ev.session.turn_id
    }
    /// Working directory.
    #[getter]
    fn cwd(&self) -> &str {
        &self.ev.session.cwd
    }
    /// Workspace roots.
    #[getter]
    fn workspace_roots(&self) -> Vec<String> {
        self.ev.session.workspace_roots.clone()
    }
    /// Transcript file.
    #[getter]
    fn transcript_path(&self) -> &str {
        &self.ev.session.transcript_path
    }
    /// Model slug.
    #[getter]
    fn model(&self) -> &str {
        &self.ev.session.model
    }
    /// Permission mode.
    #[getter]
    fn permission_mode(&self) -> &str {
        &self.ev.session.permission_mode
    }
    /// User e-mail.
    #[getter]
    fn user_email(&self) -> &str {
        &self.ev.session.user_email
    }
    fn __repr__(&self) -> String {
        format!("<SessionInfo id={:?}>", self.ev.session.id)
    }
}

/// The subagent an event comes from.
#[pyclass(module = "agenthooks._native", frozen)]
pub struct AgentInfo {
    /// Subagent instance id.
    #[pyo3(get)]
    id: String,
    /// Subagent type (may be empty).
    #[pyo3(get)]
    r#type: String,
}

#[pymethods]
impl AgentInfo {
    fn __repr__(&self) -> String {
        format!("<AgentInfo id={:?} type={:?}>", self.id, self.r#type)
    }
}

/// The MCP server and tool behind an MCP tool call.
#[pyclass(module = "agenthooks._native", frozen)]
pub struct McpInfo {
    /// Server name.
    #[pyo3(get)]
    server: String,
    /// Tool name on that server.
    #[pyo3(get)]
    tool: String,
    /// Server URL, when the agent reports it.
    #[pyo3(get)]
    url: Option<String>,
    /// Server command, when the agent reports it.
    #[pyo3(get)]
    command: Option<String>,
}

#[pymethods]
impl McpInfo {
    fn __repr__(&self) -> String {
        format!("<McpInfo server={:?} tool={:?}>", self.server, self.tool)
    }
}

fn empty_tool() -> &'static ToolCall {
    static EMPTY: OnceLock<ToolCall> = OnceLock::new();
    EMPTY.get_or_init(|| ToolCall::new(Provider::ClaudeCode, "", serde_json::Value::Null, None))
}

/// One tool call, normalized (a view into the event).
#[pyclass(module = "agenthooks._native", name = "ToolCall", frozen)]
pub struct PyToolCall {
    ev: Arc<Event>,
}

impl PyToolCall {
    fn t(&self) -> &ToolCall {
        self.ev.tool.as_ref().unwrap_or_else(|| empty_tool())
    }
}

#[pymethods]
impl PyToolCall {
    /// The agent's id for the call, or a synthesized one.
    #[getter]
    fn id(&self) -> &str {
        &self.t().id
    }
    /// True when the agent sent no id and `id` was derived.
    #[getter]
    fn synthesized(&self) -> bool {
        self.t().synthesized
    }
    /// Native tool name, verbatim.
    #[getter]
    fn name(&self) -> &str {
        &self.t().name
    }
    /// Canonical class (`shell`, `file.read`, `file.write`, `file.edit`,
    /// `search`, `fetch`, `task`, `mcp`, `other`).
    #[getter]
    fn canonical(&self) -> &'static str {
        self.t().canonical.as_str()
    }
    /// MCP attribution.
    #[getter]
    fn mcp(&self) -> Option<McpInfo> {
        self.t().mcp.as_ref().map(|m| McpInfo {
            server: m.server.clone(),
            tool: m.tool.clone(),
            url: m.url.clone(),
            command: m.command.clone(),
        })
    }
    /// The input, always a dict (a new dict on each read).
    #[getter]
    fn input<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        map_to_py(py, &self.t().input)
    }
    /// The input exactly as the agent sent it.
    #[getter]
    fn raw_input<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.t().raw_input)
    }
    /// Shell command facet.
    #[getter]
    fn command(&self) -> Option<&str> {
        self.t().command.as_deref()
    }
    /// File paths named by the call.
    #[getter]
    fn paths(&self) -> Vec<String> {
        self.t().paths.clone()
    }
    /// Search pattern facet.
    #[getter]
    fn pattern(&self) -> Option<&str> {
        self.t().pattern.as_deref()
    }
    /// Glob facet.
    #[getter]
    fn glob(&self) -> Option<&str> {
        self.t().glob.as_deref()
    }
    /// Whether the call may change files, as far as that is knowable.
    fn is_mutation(&self) -> bool {
        self.t().is_mutation()
    }
    /// The facet that identifies the call (for ids and dedupe).
    fn stable_facet(&self) -> String {
        self.t().stable_facet()
    }
    fn __repr__(&self) -> String {
        let t = self.t();
        format!(
            "<ToolCall {} ({}) id={:?}>",
            t.name,
            t.canonical.as_str(),
            t.id
        )
    }
}

fn stop_of(ev: &Event) -> &StopInfo {
    static EMPTY: OnceLock<StopInfo> = OnceLock::new();
    ev.stop
        .as_ref()
        .unwrap_or_else(|| EMPTY.get_or_init(StopInfo::default))
}

/// Stop-event facts and the loop guard (a view into the event).
#[pyclass(module = "agenthooks._native", name = "StopInfo", frozen)]
pub struct PyStopInfo {
    ev: Arc<Event>,
}

#[pymethods]
impl PyStopInfo {
    /// The agent is already continuing because a stop hook said so.
    #[getter]
    fn previously_continued(&self) -> bool {
        stop_of(&self.ev).previously_continued
    }
    /// Consecutive continuations so far.
    #[getter]
    fn loop_count(&self) -> Option<u64> {
        stop_of(&self.ev).loop_count
    }
    /// The agent's last message.
    #[getter]
    fn final_message(&self) -> Option<&str> {
        stop_of(&self.ev).final_message.as_deref()
    }
    /// Token and cost usage.
    #[getter]
    fn usage(&self) -> PyUsage {
        PyUsage {
            ev: self.ev.clone(),
        }
    }
    fn __repr__(&self) -> String {
        let s = stop_of(&self.ev);
        format!(
            "<StopInfo previously_continued={} loop_count={:?}>",
            s.previously_continued, s.loop_count
        )
    }
}

/// Token and cost usage reported with a stop (a view into the event).
#[pyclass(module = "agenthooks._native", name = "Usage", frozen)]
pub struct PyUsage {
    ev: Arc<Event>,
}

impl PyUsage {
    fn u(&self) -> &Usage {
        &stop_of(&self.ev).usage
    }
}

#[pymethods]
impl PyUsage {
    /// Input tokens.
    #[getter]
    fn input_tokens(&self) -> Option<u64> {
        self.u().input_tokens
    }
    /// Output tokens.
    #[getter]
    fn output_tokens(&self) -> Option<u64> {
        self.u().output_tokens
    }
    /// Cache-read tokens.
    #[getter]
    fn cache_read_tokens(&self) -> Option<u64> {
        self.u().cache_read_tokens
    }
    /// Cache-write tokens.
    #[getter]
    fn cache_write_tokens(&self) -> Option<u64> {
        self.u().cache_write_tokens
    }
    /// Cost.
    #[getter]
    fn cost(&self) -> Option<f64> {
        self.u().cost
    }
    /// Agent loop count.
    #[getter]
    fn loop_count(&self) -> Option<u64> {
        self.u().loop_count
    }
    /// Status.
    #[getter]
    fn status(&self) -> Option<&str> {
        self.u().status.as_deref()
    }
}

/// Declares a per-kind subclass of `Event` with no extra fields.
macro_rules! plain_kind {
    ($(#[$m:meta])* $ty:ident, $name:literal) => {
        $(#[$m])*
        #[pyclass(module = "agenthooks._native", name = $name, extends = PyEvent, frozen)]
        pub struct $ty;
    };
}

/// Declares a per-kind subclass whose `tool` is never `None`.
macro_rules! tool_kind {
    ($(#[$m:meta])* $ty:ident, $name:literal) => {
        $(#[$m])*
        #[pyclass(module = "agenthooks._native", name = $name, extends = PyEvent, frozen)]
        pub struct $ty;

        #[pymethods]
        impl $ty {
            /// The tool call (always present on this kind).
            #[getter]
            fn tool(slf: &Bound<'_, Self>) -> PyToolCall {
                PyToolCall {
                    ev: slf.as_super().get().inner.clone(),
                }
            }
        }
    };
}

tool_kind!(
    /// `tool.pre`: a tool is about to run.
    ToolPreEvent,
    "ToolPreEvent"
);
tool_kind!(
    /// `tool.post`: a tool ran.
    ToolPostEvent,
    "ToolPostEvent"
);
tool_kind!(
    /// `tool.error`: a tool failed.
    ToolErrorEvent,
    "ToolErrorEvent"
);
tool_kind!(
    /// `permission.request`: the agent is about to ask the user.
    PermissionRequestEvent,
    "PermissionRequestEvent"
);

/// `prompt.submitted`: the user submitted a prompt.
#[pyclass(module = "agenthooks._native", extends = PyEvent, frozen)]
pub struct PromptEvent;

#[pymethods]
impl PromptEvent {
    /// The submitted prompt (`""` when the agent sent none).
    #[getter]
    fn prompt(slf: &Bound<'_, Self>) -> String {
        slf.as_super()
            .get()
            .inner
            .prompt
            .clone()
            .unwrap_or_default()
    }
}

/// `agent.stop`: the agent is about to stop.
#[pyclass(module = "agenthooks._native", extends = PyEvent, subclass, frozen)]
pub struct StopEvent;

#[pymethods]
impl StopEvent {
    /// Stop facts (always present on this kind).
    #[getter]
    fn stop(slf: &Bound<'_, Self>) -> PyStopInfo {
        PyStopInfo {
            ev: slf.as_super().get().inner.clone(),
        }
    }
}

/// `subagent.stop`: a subagent is about to stop.
#[pyclass(module = "agenthooks._native", extends = StopEvent, frozen)]
pub struct SubagentStopEvent;

plain_kind!(
    /// `session.start`: a session began or resumed.
    SessionStartEvent,
    "SessionStartEvent"
);
plain_kind!(
    /// `session.end`: a session ended.
    SessionEndEvent,
    "SessionEndEvent"
);
plain_kind!(
    /// `subagent.start`: a subagent started.
    SubagentStartEvent,
    "SubagentStartEvent"
);
plain_kind!(
    /// `compact.pre`: context compaction is about to run.
    CompactPreEvent,
    "CompactPreEvent"
);
plain_kind!(
    /// `compact.post`: context compaction ran.
    CompactPostEvent,
    "CompactPostEvent"
);
plain_kind!(
    /// `notification`: the agent sent a notification.
    NotificationEvent,
    "NotificationEvent"
);
plain_kind!(
    /// `file.edited`: a file was edited or changed.
    FileEditedEvent,
    "FileEditedEvent"
);
plain_kind!(
    /// `model.request`: a model request is about to be sent.
    ModelRequestEvent,
    "ModelRequestEvent"
);
plain_kind!(
    /// `model.response`: a model response arrived.
    ModelResponseEvent,
    "ModelResponseEvent"
);
plain_kind!(
    /// `other`: a native event with no unified mapping.
    OtherEvent,
    "OtherEvent"
);

/// The event as an instance of its kind's class.
pub fn event_to_py(py: Python<'_>, ev: Arc<Event>) -> PyResult<Bound<'_, PyAny>> {
    let kind = ev.kind;
    let base = PyClassInitializer::from(PyEvent {
        inner: ev,
        native: OnceLock::new(),
    });
    macro_rules! new {
        ($ty:ident) => {
            Bound::new(py, base.add_subclass($ty)).map(Bound::into_any)
        };
    }
    match kind {
        Kind::ToolPre => new!(ToolPreEvent),
        Kind::ToolPost => new!(ToolPostEvent),
        Kind::ToolError => new!(ToolErrorEvent),
        Kind::PermissionRequest => new!(PermissionRequestEvent),
        Kind::PromptSubmitted => new!(PromptEvent),
        Kind::AgentStop => new!(StopEvent),
        Kind::SubagentStop => Bound::new(
            py,
            base.add_subclass(StopEvent).add_subclass(SubagentStopEvent),
        )
        .map(Bound::into_any),
        Kind::SessionStart => new!(SessionStartEvent),
        Kind::SessionEnd => new!(SessionEndEvent),
        Kind::SubagentStart => new!(SubagentStartEvent),
        Kind::CompactPre => new!(CompactPreEvent),
        Kind::CompactPost => new!(CompactPostEvent),
        Kind::Notification => new!(NotificationEvent),
        Kind::FileEdited => new!(FileEditedEvent),
        Kind::ModelRequest => new!(ModelRequestEvent),
        Kind::ModelResponse => new!(ModelResponseEvent),
        // `other`, and kinds added to the core later.
        _ => new!(OtherEvent),
    }
}

/// The class for each kind id, for the Python router's typing and tests.
pub fn kind_classes(py: Python<'_>) -> Vec<(&'static str, Bound<'_, pyo3::types::PyType>)> {
    vec![
        ("session.start", SessionStartEvent::type_object(py)),
        ("session.end", SessionEndEvent::type_object(py)),
        ("prompt.submitted", PromptEvent::type_object(py)),
        ("tool.pre", ToolPreEvent::type_object(py)),
        ("tool.post", ToolPostEvent::type_object(py)),
        ("tool.error", ToolErrorEvent::type_object(py)),
        (
            "permission.request",
            PermissionRequestEvent::type_object(py),
        ),
        ("agent.stop", StopEvent::type_object(py)),
        ("subagent.start", SubagentStartEvent::type_object(py)),
        ("subagent.stop", SubagentStopEvent::type_object(py)),
        ("compact.pre", CompactPreEvent::type_object(py)),
        ("compact.post", CompactPostEvent::type_object(py)),
        ("notification", NotificationEvent::type_object(py)),
        ("file.edited", FileEditedEvent::type_object(py)),
        ("model.request", ModelRequestEvent::type_object(py)),
        ("model.response", ModelResponseEvent::type_object(py)),
        ("other", OtherEvent::type_object(py)),
    ]
}

/// Registers the event classes.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEvent>()?;
    m.add_class::<SessionInfo>()?;
    m.add_class::<AgentInfo>()?;
    m.add_class::<McpInfo>()?;
    m.add_class::<PyToolCall>()?;
    m.add_class::<PyStopInfo>()?;
    m.add_class::<PyUsage>()?;
    for (_, cls) in kind_classes(m.py()) {
        let name = cls.name()?;
        m.add(name, cls)?;
    }
    Ok(())
}
