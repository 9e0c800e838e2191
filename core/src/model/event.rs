//! The unified event and its parts (the canonical JSON).

use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::{Kind, Provider, ToolCall, is_empty_value};

/// How agenthooks learned which agent called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Detection {
    /// Named by configuration (`--provider`).
    Config,
    /// Inferred from environment variables.
    Env,
    /// Inferred from the payload's shape.
    Shape,
}

/// Session-level facts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionInfo {
    /// Session id.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// Turn / prompt / generation id.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub turn_id: String,
    /// Working directory.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub cwd: String,
    /// Workspace roots.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub workspace_roots: Vec<String>,
    /// Transcript file.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub transcript_path: String,
    /// Model slug.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub model: String,
    /// Permission mode.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub permission_mode: String,
    /// User e-mail.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub user_email: String,
}

impl SessionInfo {
    /// True when no field is set.
    pub fn is_empty(&self) -> bool {
        self == &SessionInfo::default()
    }
}

/// The subagent an event comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentInfo {
    /// Subagent instance id.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// Subagent type (may be empty, e.g. Claude's compaction agent).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub r#type: String,
}

/// Token and cost usage reported with a stop.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Input tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    /// Output tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// Cache-read tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_read_tokens: Option<u64>,
    /// Cache-write tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_tokens: Option<u64>,
    /// Cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
    /// Agent loop count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_count: Option<u64>,
    /// Status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

impl Usage {
    /// True when no field is set.
    pub fn is_empty(&self) -> bool {
        self == &Usage::default()
    }
}

/// Stop-event facts and the loop guard.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StopInfo {
    /// The agent is already continuing because a stop hook said so
    /// (Claude/Codex `stop_hook_active`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub previously_continued: bool,
    /// Consecutive continuations so far (reported by the agent, or counted
    /// by agenthooks' runtime where the agent reports only a flag).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_count: Option<u64>,
    /// The agent's last message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_message: Option<String>,
    /// Usage.
    #[serde(default, skip_serializing_if = "Usage::is_empty")]
    pub usage: Usage,
}

impl StopInfo {
    /// True when no field is set.
    pub fn is_empty(&self) -> bool {
        self == &StopInfo::default()
    }
}

/// The tool output of an event: parsed when the event is decoded, or —
/// for a large payload whose output a decoder takes verbatim (the agent
/// row's `lazy_output`) — the span of `raw` it occupies, parsed on first
/// use ([`Event::output`]). A hook whose handlers never read the output
/// of a 1 MiB PostToolUse then never unescapes or copies it.
#[derive(Debug, Clone, Default)]
pub(crate) struct LazyOutput {
    value: OnceLock<Value>,
    /// Byte range of the value in `raw` (lazy events only).
    span: Option<(usize, usize)>,
}

impl LazyOutput {
    fn of(v: Value) -> LazyOutput {
        LazyOutput {
            value: OnceLock::from(v),
            span: None,
        }
    }

    /// Skips serializing when empty (`Event`'s `Serialize` has read the
    /// value by then).
    fn is_unset(&self) -> bool {
        self.value.get().is_none_or(is_empty_value)
    }

    /// Kept as a span of `raw` (tests).
    #[cfg(test)]
    pub(crate) fn is_span(&self) -> bool {
        self.span.is_some()
    }

    /// Parsed already (tests).
    #[cfg(test)]
    pub(crate) fn is_read(&self) -> bool {
        self.value.get().is_some()
    }

    /// A value not read yet: `raw[start..end]`.
    pub(crate) fn span(start: usize, end: usize) -> LazyOutput {
        LazyOutput {
            value: OnceLock::new(),
            span: Some((start, end)),
        }
    }

    /// Empty in the sense of [`is_empty_value`]; a span read without
    /// parsing: the decoder keeps only large values lazy, so the only
    /// empty ones are `""`, `[]` and `{}` padded with whitespace.
    fn is_empty_in(&self, raw: &[u8]) -> bool {
        if let Some(v) = self.value.get() {
            return is_empty_value(v);
        }
        let Some(text) = self.span.and_then(|(a, b)| raw.get(a..b)) else {
            return true;
        };
        let close = match text.first() {
            Some(b'{') => b'}',
            Some(b'[') => b']',
            Some(b'"') => b'"',
            // Numbers and `true` are never empty; `null`/`false` are
            // too short to be kept lazy.
            Some(_) => return false,
            None => return true,
        };
        let rest = &text[1..];
        let first = rest
            .iter()
            .position(|c| !c.is_ascii_whitespace() || close == b'"');
        first.is_some_and(|i| rest[i] == close)
    }
}

impl PartialEq for LazyOutput {
    /// Two spans are equal when they are the same span (`raw` is compared
    /// beside); parsed values by value. A span is not compared with a
    /// parsed value (read [`Event::output`] on both to compare contents).
    fn eq(&self, other: &Self) -> bool {
        match (self.span, other.span) {
            (Some(a), Some(b)) => a == b,
            (None, None) => self.value.get() == other.value.get(),
            _ => false,
        }
    }
}

impl Serialize for LazyOutput {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // `Event`'s own `Serialize` reads the output first, so a span is
        // parsed by then.
        self.value.get().unwrap_or(&Value::Null).serialize(s)
    }
}

impl<'de> Deserialize<'de> for LazyOutput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Value::deserialize(d).map(LazyOutput::of)
    }
}

/// One hook event, decoded from any agent. `raw` keeps the payload bytes.
///
/// (`remote = "Self"`: the derived code serializes the fields, and the
/// `Serialize` impl below reads the lazy output before it does.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub struct Event {
    /// Which agent sent it.
    pub provider: Provider,
    /// Variant (`""`, `cli`, `ide`, `cloud`, ...).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub variant: String,
    /// Native event name, verbatim.
    pub native_name: String,
    /// Unified kind.
    pub kind: Kind,
    /// How the agent was identified.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detection: Option<Detection>,
    /// Session facts.
    #[serde(default, skip_serializing_if = "SessionInfo::is_empty")]
    pub session: SessionInfo,
    /// Present only inside a subagent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<AgentInfo>,
    /// The tool call of tool and permission events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<ToolCall>,
    /// The submitted prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// Tool output as JSON: read it with [`Event::output`], set it with
    /// [`Event::set_output`] (large outputs are parsed on first read).
    #[serde(default, skip_serializing_if = "LazyOutput::is_unset")]
    pub(crate) output: LazyOutput,
    /// The tool failed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
    /// Error text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Tool duration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// Stop facts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<StopInfo>,
    /// Source (session start source, config source...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Reason (session end reason, denial reason...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Trigger (compaction `manual`/`auto`, setup trigger...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// Instructions (compaction custom instructions...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// Message (notification text...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Path (changed file...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// True only for events the agent never sent.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub backfilled: bool,
    /// Whether a person can answer a prompt in this session: `true`
    /// interactive, `false` headless, absent when unknown or not observed
    /// (see `crate::mode`; the runtime observes it when a decision needs
    /// it). Unlike other booleans, `false` is rendered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interactive: Option<bool>,
    /// The signal that decided `interactive` (`env:NAME=VALUE`, `argv:-p`,
    /// `ci:CI=true`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode_signal: Option<String>,
    /// Whether the mode was decided for this event (an injected
    /// `--observed` observation can decide "unknown": then the live
    /// observation must not be consulted behind its back).
    #[serde(skip)]
    pub mode_decided: bool,
    /// The verbatim payload bytes (valid UTF-8 JSON).
    #[serde(skip)]
    pub raw: Vec<u8>,
}

impl Serialize for Event {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.output();
        Event::serialize(self, s)
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Event::deserialize(d)
    }
}

impl Event {
    /// The tool output as JSON (`null` when the event has none). A large
    /// output is parsed here, on the first call, from its span of `raw`.
    pub fn output(&self) -> &Value {
        self.output.value.get_or_init(|| {
            let text = self
                .output
                .span
                .and_then(|(a, b)| self.raw.get(a..b))
                .and_then(|b| std::str::from_utf8(b).ok());
            text.map(crate::json::parse_member).unwrap_or(Value::Null)
        })
    }

    /// Sets the tool output.
    pub fn set_output(&mut self, output: Value) {
        self.output = LazyOutput::of(output);
    }

    /// Whether the event carries a tool output (the canonical `output`
    /// is present), without parsing a lazy one.
    pub fn has_output(&self) -> bool {
        !self.output.is_empty_in(&self.raw)
    }

    /// A blank event of a kind, for tests and builders.
    pub fn new(provider: Provider, native_name: impl Into<String>, kind: Kind) -> Event {
        Event {
            provider,
            variant: String::new(),
            native_name: native_name.into(),
            kind,
            detection: None,
            session: SessionInfo::default(),
            agent: None,
            tool: None,
            prompt: None,
            output: LazyOutput::default(),
            failed: false,
            error: None,
            duration_ms: None,
            stop: None,
            source: None,
            reason: None,
            trigger: None,
            instructions: None,
            message: None,
            path: None,
            backfilled: false,
            interactive: None,
            mode_signal: None,
            mode_decided: false,
            raw: b"{}".to_vec(),
        }
    }

    /// The verbatim payload as text.
    pub fn raw_str(&self) -> &str {
        std::str::from_utf8(&self.raw).unwrap_or("{}")
    }

    /// The payload parsed (parsed on each call; keep the result), as the
    /// unified view reads it (`dialect::json`: lone surrogates as U+FFFD,
    /// containers nested 128 deep or more as their JSON text); `null` when
    /// it is not JSON.
    pub fn raw_json(&self) -> Value {
        std::str::from_utf8(&self.raw)
            .ok()
            .and_then(|t| crate::json::parse_value(t).ok())
            .unwrap_or(Value::Null)
    }

    /// The session mode as far as it is known on the event.
    pub fn mode(&self) -> super::SessionMode {
        super::SessionMode {
            interactive: self.interactive,
            signal: self.mode_signal.clone(),
        }
    }

    /// The session mode for a handler: "is a person there?". The mode the
    /// event carries if any, else observed now from this process's
    /// environment and `/proc` (once per process, shared with the `ask`
    /// path: [`crate::mode::observe_for`]).
    pub fn session_mode(&self) -> super::SessionMode {
        crate::mode::observe_for(self, None)
    }

    /// Records a session mode on the event.
    pub fn set_mode(&mut self, mode: &super::SessionMode) {
        self.interactive = mode.interactive;
        self.mode_signal = mode.signal.clone();
        self.mode_decided = true;
    }

    /// Whether the event comes from inside a subagent.
    pub fn is_subagent(&self) -> bool {
        self.agent.is_some() || matches!(self.kind, Kind::SubagentStart | Kind::SubagentStop)
    }

    /// The canonical JSON (with `raw` spliced in verbatim, not re-serialized).
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string(self).unwrap_or_else(|_| "{}".into());
        // `s` always ends with `}` and has at least provider/kind keys.
        s.pop();
        s.reserve(self.raw.len().saturating_add(8));
        s.push_str(",\"raw\":");
        s.push_str(self.raw_str().trim());
        s.push('}');
        s
    }

    /// The canonical JSON without `output` and `raw`: the small part of an
    /// event, for bindings that hand the tool output and the payload to
    /// their language only when a handler asks (see `ah_event_head_json`).
    /// [`Event::output_json`] and `raw` complete it.
    pub fn head_json(&self) -> String {
        // Every field but the two large ones; a struct literal, so a new
        // field cannot be forgotten here.
        let head = Event {
            provider: self.provider,
            variant: self.variant.clone(),
            native_name: self.native_name.clone(),
            kind: self.kind,
            detection: self.detection,
            session: self.session.clone(),
            agent: self.agent.clone(),
            tool: self.tool.clone(),
            prompt: self.prompt.clone(),
            output: LazyOutput::default(),
            failed: self.failed,
            error: self.error.clone(),
            duration_ms: self.duration_ms,
            stop: self.stop.clone(),
            source: self.source.clone(),
            reason: self.reason.clone(),
            trigger: self.trigger.clone(),
            instructions: self.instructions.clone(),
            message: self.message.clone(),
            path: self.path.clone(),
            backfilled: self.backfilled,
            interactive: self.interactive,
            mode_signal: self.mode_signal.clone(),
            mode_decided: self.mode_decided,
            raw: Vec::new(),
        };
        serde_json::to_string(&head).unwrap_or_else(|_| "{}".into())
    }

    /// The tool output as canonical JSON text (as in [`Event::to_json`]),
    /// or `None` when the event has none (the field is then absent).
    pub fn output_json(&self) -> Option<String> {
        if !self.has_output() {
            return None;
        }
        serde_json::to_string(self.output()).ok()
    }

    /// The canonical JSON without `raw`, as a value (what fixtures compare).
    pub fn to_value_without_raw(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
