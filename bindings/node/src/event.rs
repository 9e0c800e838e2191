//! Events: decode, respond, the fail answers, capabilities.

use std::sync::Arc;

use agenthooks::dialect::{self, DEFAULT_MAX_BYTES};
use agenthooks::{Decision, Detection, Error, Event, Policy, Provider};
use napi::bindgen_prelude::{Buffer, Either, External};
use napi_derive::napi;

use crate::error::{self, NativeError, Result, throw};

/// Options of [`decode`].
#[napi(object)]
pub struct DecodeOptions {
    /// Variant (`cli`, `ide`, ...), when known.
    pub variant: Option<String>,
    /// Native event name, for payloads that do not carry one.
    pub event: Option<String>,
    /// Payload size limit in bytes (default 16 MiB).
    pub max_bytes: Option<f64>,
    /// How the provider was identified: `config` (default), `env`, `shape`.
    pub detection: Option<String>,
}

/// What goes back to the agent (the core `Response`, snake_case keys).
#[napi(object)]
pub struct Response {
    /// Exact stdout.
    pub stdout: String,
    /// Exact stderr.
    pub stderr: String,
    /// Process exit code.
    #[napi(js_name = "exit_code")]
    pub exit_code: i32,
    /// What happened on the way (degradations, fail policy, ...).
    pub notes: Vec<Note>,
}

/// One note of a response.
#[napi(object)]
pub struct Note {
    /// `degraded`, `dropped`, `fail_open`, ...
    pub code: String,
    /// What it was.
    pub from: Option<String>,
    /// What it became.
    pub to: Option<String>,
    /// Free text (never compared by tests).
    pub detail: Option<String>,
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

impl From<Response> for agenthooks::Response {
    fn from(r: Response) -> Self {
        agenthooks::Response {
            stdout: r.stdout,
            stderr: r.stderr,
            exit_code: r.exit_code,
            notes: r
                .notes
                .into_iter()
                .map(|n| agenthooks::Note {
                    code: n.code,
                    from: n.from,
                    to: n.to,
                    detail: n.detail,
                })
                .collect(),
        }
    }
}

/// What one native event of one agent can express.
#[napi(object)]
pub struct Capability {
    /// Provider id.
    pub provider: String,
    /// Native event name.
    #[napi(js_name = "native_name")]
    pub native_name: String,
    /// Unified kind.
    pub kind: String,
    /// Whether the event can block or redirect the action at all.
    #[napi(js_name = "can_block")]
    pub can_block: bool,
    /// Decision kinds the agent honours here.
    pub decisions: Vec<String>,
    /// Modifiers the agent honours here.
    pub modifiers: Vec<String>,
}

pub(crate) fn provider(s: &str) -> Result<Provider> {
    Provider::parse(s).map_err(throw)
}

pub(crate) fn policy(json: Option<&str>) -> Result<Policy> {
    match json {
        None | Some("") => Ok(Policy::default()),
        Some(j) => Policy::from_json(j).map_err(throw),
    }
}

fn bytes(payload: &Either<String, Buffer>) -> &[u8] {
    match payload {
        Either::A(s) => s.as_bytes(),
        Either::B(b) => b,
    }
}

fn detection(s: Option<&str>) -> Result<Detection> {
    Detection::parse(s.unwrap_or("config")).map_err(throw)
}

// An event crosses to JS as an opaque external holding the core `Event`
// (raw bytes included, shared with the invocation it came from): much
// cheaper to create than a class instance, and this happens on every hook
// call.
pub(crate) fn handle(e: Arc<Event>) -> External<Arc<Event>> {
    External::new(e)
}

/// The canonical JSON without `output` and `raw`: what JS parses up front
/// (both of those are parsed only when a handler reads them).
#[napi]
pub fn event_head_json(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Event'>")] event: &External<Arc<Event>>,
) -> String {
    event.head_json()
}

/// Whether the event carries a tool output (the canonical `output`).
#[napi]
pub fn event_has_output(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Event'>")] event: &External<Arc<Event>>,
) -> bool {
    event.has_output()
}

/// The tool output as canonical JSON; null when the event has none.
#[napi]
pub fn event_output_json(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Event'>")] event: &External<Arc<Event>>,
) -> Option<String> {
    event.output_json()
}

/// The canonical JSON, `raw` spliced in verbatim.
#[napi]
pub fn event_canonical_json(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Event'>")] event: &External<Arc<Event>>,
) -> String {
    event.to_json()
}

/// The verbatim payload text.
#[napi]
pub fn event_raw_text(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Event'>")] event: &External<Arc<Event>>,
) -> String {
    event.raw_str().to_string()
}

/// Encodes a decision (JSON) for the event's agent under a policy
/// (partial JSON, default when absent). Returns the error (invalid or
/// unsupported decision, lossy update) instead of throwing, so the caller
/// can hand it to `failResponse`.
#[napi]
pub fn event_respond(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Event'>")] event: &External<Arc<Event>>,
    decision_json: String,
    policy_json: Option<String>,
) -> Result<Either<Response, NativeError>> {
    let p = policy(policy_json.as_deref())?;
    let r = Decision::from_json(&decision_json).and_then(|d| agenthooks::respond(event, &d, &p));
    Ok(match r {
        Ok(r) => Either::A(r.into()),
        Err(e) => Either::B(NativeError::new(e)),
    })
}

/// The whole answer for a handler outcome: the decision's response, else
/// (bad decision, or `error` given) the fail policy's answer to that
/// error. This is `Invocation::complete` for in-process callers (no
/// loop-guard bookkeeping).
#[napi]
pub fn event_answer(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Event'>")] event: &External<Arc<Event>>,
    decision_json: Option<String>,
    error: Option<&NativeError>,
    policy_json: Option<String>,
) -> Result<Answer> {
    let p = policy(policy_json.as_deref())?;
    let outcome = match (error, decision_json) {
        (Some(e), _) => Err(error::copy(&e.inner)),
        (None, Some(d)) => Decision::from_json(&d),
        (None, None) => Ok(Decision::no_decision()),
    };
    let ev: &Event = event;
    let (resp, err) = match outcome.and_then(|d| agenthooks::respond(ev, &d, &p)) {
        Ok(r) => (r, None),
        Err(e) => (
            agenthooks::fail_response(ev.provider, Some(ev), &e, &p),
            Some(e),
        ),
    };
    Ok(Answer {
        response: resp.into(),
        error_code: err.as_ref().map(|e| e.code().as_str().to_string()),
        error_message: err.map(|e| e.to_string()),
    })
}

/// Whether the event's tool call mutates files (where knowable).
#[napi]
pub fn event_is_mutation(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Event'>")] event: &External<Arc<Event>>,
) -> bool {
    event.tool.as_ref().is_some_and(|t| t.is_mutation())
}

/// Whether the event comes from inside a subagent.
#[napi]
pub fn event_is_subagent(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Event'>")] event: &External<Arc<Event>>,
) -> bool {
    event.is_subagent()
}

/// The session mode as JSON, `{"interactive": true|false|null, "signal":
/// "..."|null}`: the mode the event carries (a run's `--observed` one),
/// else observed now from this process's environment and `/proc`, once per
/// process (the same observation an `ask` uses).
#[napi]
pub fn event_session_mode_json(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Event'>")] event: &External<Arc<Event>>,
) -> String {
    let m = event.session_mode();
    serde_json::json!({"interactive": m.interactive, "signal": m.signal}).to_string()
}

/// The result of [`event_answer`].
#[napi(object)]
pub struct Answer {
    /// What to send to the agent.
    pub response: Response,
    /// The error behind a fail answer.
    #[napi(js_name = "error_code")]
    pub error_code: Option<String>,
    /// Its message.
    #[napi(js_name = "error_message")]
    pub error_message: Option<String>,
}

/// Decodes one payload (text or bytes) of a provider. Returns the decode
/// error as a [`NativeError`] (throws only for a bad provider or option).
#[napi(ts_return_type = "ExternalObject<'agenthooks:Event'> | NativeError")]
pub fn decode(
    provider_id: String,
    payload: Either<String, Buffer>,
    options: Option<DecodeOptions>,
) -> Result<Either<External<Arc<Event>>, NativeError>> {
    let p = provider(&provider_id)?;
    let mut opts = agenthooks::DecodeOptions::default();
    if let Some(o) = options {
        opts.variant = o.variant;
        opts.event = o.event;
        opts.detection = detection(o.detection.as_deref())?;
        if let Some(m) = o.max_bytes {
            opts.max_bytes = if m > 0.0 {
                m as usize
            } else {
                DEFAULT_MAX_BYTES
            };
        }
    }
    Ok(match agenthooks::decode(p, bytes(&payload), &opts) {
        Ok(e) => Either::A(handle(Arc::new(e))),
        Err(e) => Either::B(NativeError::new(e)),
    })
}

/// Rebuilds an event from its canonical JSON (without `raw`) and the raw
/// payload text, for events built or edited in JS.
#[napi(ts_return_type = "ExternalObject<'agenthooks:Event'>")]
pub fn event_from_json(json: String, raw: String) -> Result<External<Arc<Event>>> {
    let mut e: Event = serde_json::from_str(&json).map_err(|e| {
        throw(Error::InvalidArgument {
            message: format!("event JSON: {e}"),
        })
    })?;
    e.raw = raw.into_bytes();
    Ok(handle(Arc::new(e)))
}

/// The fail policy's answer for an event (`None`: the event is unknown).
#[napi]
pub fn fail_response(
    provider_id: String,
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Event'> | undefined | null")] event: Option<
        &External<Arc<Event>>,
    >,
    error: &NativeError,
    policy_json: Option<String>,
) -> Result<Response> {
    let p = provider(&provider_id)?;
    let pol = policy(policy_json.as_deref())?;
    Ok(agenthooks::fail_response(p, event.map(|e| &***e), &error.inner, &pol).into())
}

/// The answer to a payload that failed to decode, per the fail policy.
#[napi]
pub fn fail_response_for_payload(
    provider_id: String,
    payload: Either<String, Buffer>,
    error: &NativeError,
    policy_json: Option<String>,
) -> Result<Response> {
    let p = provider(&provider_id)?;
    let pol = policy(policy_json.as_deref())?;
    Ok(dialect::fail_response_for_payload(p, bytes(&payload), &error.inner, &pol).into())
}

/// What a provider's native event can express.
#[napi]
pub fn capability(provider_id: String, native_name: String) -> Result<Capability> {
    let c = agenthooks::capability_of(provider(&provider_id)?, &native_name);
    Ok(Capability {
        provider: c.provider.id().to_string(),
        native_name: c.native_name,
        kind: c.kind.as_str().to_string(),
        can_block: c.can_block,
        decisions: c.decisions.iter().map(|d| d.as_str().to_string()).collect(),
        modifiers: c.modifiers.iter().map(|m| m.to_string()).collect(),
    })
}

/// The native events a provider documents, in documentation order.
#[napi]
pub fn native_events(provider_id: String) -> Result<Vec<String>> {
    Ok(agenthooks::native_events(provider(&provider_id)?)
        .iter()
        .map(|s| s.to_string())
        .collect())
}

/// The unified kind of a provider's native event name.
#[napi]
pub fn kind_of(provider_id: String, native_name: String) -> Result<String> {
    Ok(dialect::kind_of(provider(&provider_id)?, &native_name)
        .as_str()
        .to_string())
}
