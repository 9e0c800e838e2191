//! Decoded events, responses, policies and decisions across the boundary.
//!
//! An event stays the core's `Event` behind a uniffi object; Kotlin reads
//! it through getters (the common facets) and the canonical JSON (all of
//! it). Decisions and policies cross as their canonical JSON, which the
//! core parses (the same text every binding produces).

use std::collections::HashMap;
use std::sync::Arc;

use agenthooks::{Decision, DecodeOptions, Detection, Event, Policy, Provider};

use crate::error::{AgentHooksError, core_error};

/// One hook event, decoded by the core.
#[derive(Debug, uniffi::Object)]
pub struct HookEvent {
    pub(crate) inner: Event,
}

impl HookEvent {
    pub(crate) fn of(inner: Event) -> Arc<HookEvent> {
        Arc::new(HookEvent { inner })
    }
}

/// One note of a response: what was degraded or dropped, and why.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Note {
    /// Stable code (`degraded`, `dropped`, `fail_closed`, ...).
    pub code: String,
    /// What was asked for.
    pub from: Option<String>,
    /// What was encoded instead.
    pub to: Option<String>,
    /// Human-readable detail (never compared by tests).
    pub detail: Option<String>,
}

/// The agent's answer, exactly: bytes for stdout and stderr, the exit code.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Response {
    /// Bytes for stdout (may be empty).
    pub stdout: String,
    /// Bytes for stderr (may be empty).
    pub stderr: String,
    /// The process exit code.
    pub exit_code: i32,
    /// What was degraded and why.
    pub notes: Vec<Note>,
}

impl From<agenthooks::Response> for Response {
    fn from(r: agenthooks::Response) -> Self {
        Response {
            stdout: r.stdout,
            stderr: r.stderr,
            exit_code: r.exit_code,
            notes: r
                .notes
                .into_iter()
                .map(|n| Note {
                    code: n.code,
                    from: n.from,
                    to: n.to,
                    detail: n.detail,
                })
                .collect(),
        }
    }
}

/// How to decode a payload (all optional).
#[derive(Debug, Clone, Default, uniffi::Record)]
pub struct DecodeOpts {
    /// The variant (`cli`, `ide`, ...), when known.
    #[uniffi(default = None)]
    pub variant: Option<String>,
    /// The native event name, for payloads that carry none.
    #[uniffi(default = None)]
    pub event: Option<String>,
    /// How the agent was identified (`config`, `env`, `shape`, ...; default `config`).
    #[uniffi(default = None)]
    pub detection: Option<String>,
    /// The size limit in bytes (default: the core's).
    #[uniffi(default = None)]
    pub max_bytes: Option<u64>,
}

pub(crate) fn provider(name: &str) -> Result<Provider, AgentHooksError> {
    Ok(Provider::parse(name)?)
}

pub(crate) fn policy(json: Option<String>) -> Result<Policy, AgentHooksError> {
    match json.as_deref().map(str::trim) {
        None | Some("") => Ok(Policy::default()),
        Some(t) => Ok(Policy::from_json(t)?),
    }
}

/// A decision from its JSON; `None` or empty is no decision.
pub(crate) fn decision(json: Option<&str>) -> Result<Decision, agenthooks::Error> {
    match json.map(str::trim) {
        None | Some("") => Ok(Decision::no_decision()),
        Some(t) => Decision::from_json(t),
    }
}

fn detection(s: &str) -> Result<Detection, AgentHooksError> {
    serde_json::from_value(serde_json::Value::String(s.to_string()))
        .map_err(|_| AgentHooksError::invalid(format!("unknown detection `{s}`")))
}

fn options(o: &DecodeOpts) -> Result<DecodeOptions, AgentHooksError> {
    let mut d = DecodeOptions {
        variant: o.variant.clone().filter(|v| !v.is_empty()),
        event: o.event.clone().filter(|v| !v.is_empty()),
        ..DecodeOptions::default()
    };
    if let Some(h) = &o.detection {
        d.detection = detection(h)?;
    }
    if let Some(n) = o.max_bytes {
        d.max_bytes = usize::try_from(n).unwrap_or(usize::MAX);
    }
    Ok(d)
}

/// Decodes an agent's hook payload into the unified event.
#[uniffi::export]
pub fn decode(
    provider: String,
    payload: Vec<u8>,
    options: Option<DecodeOpts>,
) -> Result<Arc<HookEvent>, AgentHooksError> {
    let p = self::provider(&provider)?;
    let o = self::options(&options.unwrap_or_default())?;
    match agenthooks::dialect::decode_vec(p, payload, &o) {
        Ok(ev) => Ok(HookEvent::of(ev)),
        Err((e, _)) => Err(e.into()),
    }
}

/// The fail policy's answer to a payload that could not be decoded
/// (`code`: the error id, unknown means `handler_error`).
#[uniffi::export]
pub fn fail_response_for_payload(
    provider: String,
    payload: Vec<u8>,
    code: String,
    message: String,
    policy_json: Option<String>,
) -> Result<Response, AgentHooksError> {
    let p = self::provider(&provider)?;
    let pol = self::policy(policy_json)?;
    let e = core_error(Some(&code), &message);
    Ok(agenthooks::dialect::fail_response_for_payload(p, &payload, &e, &pol).into())
}

#[uniffi::export]
impl HookEvent {
    /// The agent's id (`claude-code`, `codex`, ...).
    pub fn provider(&self) -> String {
        self.inner.provider.id().to_string()
    }
    /// The variant (`""`, `cli`, `ide`, ...).
    pub fn variant(&self) -> String {
        self.inner.variant.clone()
    }
    /// The native event name, verbatim.
    pub fn native_name(&self) -> String {
        self.inner.native_name.clone()
    }
    /// The unified kind (`tool.pre`, `stop`, ...).
    pub fn kind(&self) -> String {
        self.inner.kind.as_str().to_string()
    }
    /// The native tool name, for tool and permission events.
    pub fn tool_name(&self) -> Option<String> {
        self.inner.tool.as_ref().map(|t| t.name.clone())
    }
    /// The tool's canonical class (`shell`, `edit`, ...), for tool events.
    pub fn canonical(&self) -> Option<String> {
        self.inner
            .tool
            .as_ref()
            .map(|t| t.canonical.as_str().to_string())
    }
    /// The shell command of a shell tool call, else `""`.
    pub fn command(&self) -> String {
        self.inner
            .tool
            .as_ref()
            .map(|t| t.command().to_string())
            .unwrap_or_default()
    }
    /// The tool input (always an object) as JSON, for tool events.
    pub fn tool_input_json(&self) -> Option<String> {
        self.inner
            .tool
            .as_ref()
            .and_then(|t| serde_json::to_string(&t.input).ok())
    }
    /// The submitted prompt.
    pub fn prompt(&self) -> Option<String> {
        self.inner.prompt.clone()
    }
    /// The session id.
    pub fn session_id(&self) -> String {
        self.inner.session.id.clone()
    }
    /// The working directory.
    pub fn cwd(&self) -> String {
        self.inner.session.cwd.clone()
    }
    /// Whether the event comes from inside a subagent.
    pub fn is_subagent(&self) -> bool {
        self.inner.is_subagent()
    }
    /// The agent's last message, for stop events.
    pub fn stop_final_message(&self) -> Option<String> {
        self.inner
            .stop
            .as_ref()
            .and_then(|s| s.final_message.clone())
    }
    /// Whether a hook already kept the agent going once (stop events).
    pub fn stop_previously_continued(&self) -> bool {
        self.inner
            .stop
            .as_ref()
            .is_some_and(|s| s.previously_continued)
    }
    /// The canonical JSON, `raw` last (the payload bytes verbatim).
    pub fn to_json(&self) -> String {
        self.inner.to_json()
    }
    /// The canonical JSON without `raw`.
    pub fn to_json_without_raw(&self) -> String {
        self.inner.to_value_without_raw().to_string()
    }
    /// The canonical JSON without `output` and `raw`.
    pub fn head_json(&self) -> String {
        self.inner.head_json()
    }
    /// The tool output as JSON, when there is one.
    pub fn output_json(&self) -> Option<String> {
        self.inner.output_json()
    }
    /// The payload bytes, verbatim.
    pub fn raw(&self) -> Vec<u8> {
        self.inner.raw.clone()
    }
    /// Encodes a decision (its JSON; `None`: no decision) into this
    /// agent's exact answer under a policy (its JSON; `None`: defaults).
    pub fn respond(
        &self,
        decision_json: Option<String>,
        policy_json: Option<String>,
    ) -> Result<Response, AgentHooksError> {
        let d = decision(decision_json.as_deref())?;
        let p = policy(policy_json)?;
        Ok(agenthooks::respond(&self.inner, &d, &p)?.into())
    }
    /// The fail policy's answer to an error (`code`: its id, unknown means
    /// `handler_error`) while handling this event.
    pub fn fail_response(
        &self,
        code: String,
        message: String,
        policy_json: Option<String>,
    ) -> Result<Response, AgentHooksError> {
        let p = policy(policy_json)?;
        let e = core_error(Some(&code), &message);
        Ok(agenthooks::fail_response(self.inner.provider, Some(&self.inner), &e, &p).into())
    }
}

/// Normalizes decision JSON (checks it; fills nothing in): the canonical
/// decision JSON the core would act on.
#[uniffi::export]
pub fn normalize_decision(decision_json: String) -> Result<String, AgentHooksError> {
    Ok(Decision::from_json(&decision_json)?.to_json())
}

/// Normalizes policy JSON (a partial policy): the whole policy as JSON.
#[uniffi::export]
pub fn normalize_policy(policy_json: String) -> Result<String, AgentHooksError> {
    let p = policy(Some(policy_json))?;
    serde_json::to_string(&p).map_err(|e| AgentHooksError::invalid(e.to_string()))
}

fn decisions(list: &[String]) -> Result<Vec<Decision>, AgentHooksError> {
    list.iter()
        .map(|d| Decision::from_json(d).map_err(AgentHooksError::from))
        .collect()
}

/// The most restrictive of several decisions (JSON each), as JSON.
#[uniffi::export]
pub fn merge_all(decisions_json: Vec<String>) -> Result<String, AgentHooksError> {
    Ok(agenthooks::merge::merge_all(decisions(&decisions_json)?).to_json())
}

/// The first conclusive of several decisions (JSON each), with the
/// neutral ones before it folded in, as JSON.
#[uniffi::export]
pub fn merge_first(decisions_json: Vec<String>) -> Result<String, AgentHooksError> {
    Ok(agenthooks::merge::merge_first(decisions(&decisions_json)?).to_json())
}

/// Which agent sent a payload: the provider id, how it was identified
/// (`flag`, `env`, `argv`, `shape`, ...) and the variant.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Detected {
    /// The provider id.
    pub provider: String,
    /// How it was identified.
    pub detection: String,
    /// The variant, when known.
    pub variant: Option<String>,
}

/// Names the agent of a payload from the `--provider` flag, the
/// environment (`None`: the process's), argv and the payload's shape.
#[uniffi::export]
pub fn detect(
    flag: Option<String>,
    argv: Vec<String>,
    env: Option<HashMap<String, String>>,
    payload: Vec<u8>,
) -> Result<Detected, AgentHooksError> {
    let lookup = |k: &str| match &env {
        Some(m) => m.get(k).cloned(),
        None => std::env::var(k).ok(),
    };
    let (p, how, variant) = agenthooks::detect::detect(flag.as_deref(), &lookup, &argv, &payload)?;
    let how = serde_json::to_value(how)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    Ok(Detected {
        provider: p.id().to_string(),
        detection: how,
        variant,
    })
}

/// The canonical id of a provider name or alias.
#[uniffi::export]
pub fn parse_provider(name: String) -> Result<String, AgentHooksError> {
    Ok(provider(&name)?.id().to_string())
}

/// What an agent honours on each of its native events, as a JSON array
/// of capability rows.
#[uniffi::export]
pub fn capabilities_json(provider: String) -> Result<String, AgentHooksError> {
    let p = self::provider(&provider)?;
    let rows: Vec<_> = agenthooks::native_events(p)
        .iter()
        .map(|n| agenthooks::capability_of(p, n))
        .collect();
    serde_json::to_string(&rows).map_err(|e| AgentHooksError::invalid(e.to_string()))
}

/// One capability row (JSON) of an agent's native event.
#[uniffi::export]
pub fn capability_json(provider: String, native_name: String) -> Result<String, AgentHooksError> {
    let p = self::provider(&provider)?;
    serde_json::to_string(&agenthooks::capability_of(p, &native_name))
        .map_err(|e| AgentHooksError::invalid(e.to_string()))
}

/// The library version.
#[uniffi::export]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Names the agent as a hook process started with `argv` (program first)
/// would: the `--provider` flag among the arguments (a legacy argv
/// payload aside), else the environment (`None`: the process's), argv and
/// the payload's shape.
#[uniffi::export]
pub fn detect_argv(
    argv: Vec<String>,
    env: Option<HashMap<String, String>>,
    payload: Vec<u8>,
) -> Result<Detected, AgentHooksError> {
    let mut rest = argv.clone();
    let _ = agenthooks::dialect::cursor::take_argv_payload(&mut rest);
    let flag = agenthooks::runtime::parse_args(&rest)
        .ok()
        .flatten()
        .and_then(|a| a.provider);
    detect(flag, argv, env, payload)
}
