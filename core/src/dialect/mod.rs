//! One module per agent: everything the core knows about an agent is found
//! from its file here (`dialect/<agent>.rs`), which defines the agent's
//! [`Agent`] row: its native events, kinds and capability rows, codec,
//! tool-name table and MCP naming, how its variant is told, its quirks
//! (`dialect/<agent>/quirks.rs`) and where its docs are. This module holds
//! the entry points, which look the row up with [`agent`]; detection
//! (`crate::detect`), tool classification ([`tool_names`]), the quirk
//! registry (`crate::quirks`) and the generated docs use the same rows.

pub mod claude;
pub mod codex;
mod common;
pub mod copilot;
pub mod cursor;
pub(crate) mod fields;
pub mod gemini;
pub use crate::json;
pub mod kimi;
pub mod openclaw;
pub mod opencode;
pub(crate) mod quirk;
pub mod tool_names;

use serde_json::{Map, Value};

use crate::capability::{self, Capability};
use crate::dialect::quirk::Quirk;
use crate::error::Error;
use crate::model::{
    Canonical, Decision, Detection, Event, Fail, Kind, Note, Policy, Provider, Response,
};

/// An agent's variant rule: the payload object and an environment lookup
/// to the variant, if one can be told.
pub type VariantRule =
    fn(&Map<String, Value>, &dyn Fn(&str) -> Option<String>) -> Option<&'static str>;

/// Everything the core knows about one agent, defined in the agent's own
/// file (`dialect/<agent>.rs`, its `AGENT`) and found with [`agent`].
pub struct Agent {
    /// Which agent.
    pub provider: Provider,
    /// The native events it documents, in documentation order.
    pub events: &'static [&'static str],
    /// The capability row of a native event (kind, decisions, fields).
    pub capability: fn(&str) -> Capability,
    /// Its own tool names: the canonical class of a built-in tool.
    pub tool_class: fn(&str) -> Option<Canonical>,
    /// Its MCP tool naming: `(server, tool)` from a tool name.
    pub mcp_name: fn(&str) -> Option<(&str, &str)>,
    /// The variant, from the payload object and the environment
    /// (detection; decoding asks with an empty environment).
    pub variant: VariantRule,
    /// Its quirks, in the order of its research's quirk table
    /// (`dialect/<agent>/quirks.rs`; all agents: `crate::quirks`).
    pub quirks: &'static [Quirk],
    /// The section of its protocol research that holds the quirk table
    /// (what `§<s> #<n>` in a fixture description refers to).
    pub quirk_section: &'static str,
    /// The file name of its protocol research, as quirk sources cite it
    /// (the research is not part of the repository).
    pub research: &'static str,
    /// Its user-facing page, from the repository root
    /// (`docs/agents/<id>.md`).
    pub page: &'static str,
    pub(crate) decode: fn(Map<String, Value>, &DecodeOptions) -> Result<Event, Error>,
    pub(crate) encode: fn(&Event, &Decision, &Policy, &mut Vec<Note>) -> Result<Response, Error>,
    /// `(native event, top-level key)` pairs whose value the decoder takes
    /// verbatim as the event's `output` (`ev.output = f.take(key)`, nothing
    /// else reads it): in a large payload that value is kept as a span of
    /// `raw` and parsed only when asked ([`Event::output`]).
    pub(crate) lazy_output: &'static [(&'static str, &'static str)],
    /// What it reads as "no opinion" / "block" without knowing the event
    /// (`None`: exit 0 / exit 2 with stderr, [`common::exit2_block`]).
    pub(crate) undecodable: Option<fn(Fail, &str) -> Response>,
}

/// The row of an agent.
pub const fn agent(provider: Provider) -> &'static Agent {
    match provider {
        Provider::ClaudeCode => &claude::AGENT,
        Provider::Codex => &codex::AGENT,
        Provider::Cursor => &cursor::AGENT,
        Provider::Gemini => &gemini::AGENT,
        Provider::KimiCode => &kimi::AGENT,
        Provider::Copilot => &copilot::AGENT,
        Provider::Opencode => &opencode::AGENT,
        Provider::Openclaw => &openclaw::AGENT,
    }
}

/// No variant to tell (the agents that have none).
pub(crate) fn no_variant(
    _: &Map<String, Value>,
    _: &dyn Fn(&str) -> Option<String>,
) -> Option<&'static str> {
    None
}

pub use common::{DEFAULT_MAX_BYTES, parse_object};

/// Options for [`decode`].
#[derive(Debug, Clone)]
pub struct DecodeOptions {
    /// Variant (`cli`, `ide`, ...), when known.
    pub variant: Option<String>,
    /// Native event name, for payloads that do not carry one.
    pub event: Option<String>,
    /// How the provider was identified.
    pub detection: Detection,
    /// Maximum payload size in bytes.
    pub max_bytes: usize,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            variant: None,
            event: None,
            detection: Detection::Config,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

/// Decodes one payload of `provider` into a unified event; `raw` keeps the bytes.
pub fn decode(provider: Provider, payload: &[u8], opts: &DecodeOptions) -> Result<Event, Error> {
    let mut ev = decode_fields(provider, payload, opts)?;
    ev.raw = payload.to_vec();
    Ok(ev)
}

/// Like [`decode`], but moves the buffer into `event.raw` instead of
/// copying it (a 10 MB payload is then held once, not twice). On error the
/// buffer is handed back with the error, e.g. for
/// [`fail_response_for_payload`].
pub fn decode_vec(
    provider: Provider,
    payload: Vec<u8>,
    opts: &DecodeOptions,
) -> Result<Event, (Error, Vec<u8>)> {
    match decode_fields(provider, &payload, opts) {
        Ok(mut ev) => {
            ev.raw = payload;
            Ok(ev)
        }
        Err(e) => Err((e, payload)),
    }
}

/// A look at the parsed payload object (see [`decode_vec_inspecting`]).
pub type Inspect<'a> = &'a mut dyn FnMut(&Map<String, Value>);

/// [`decode_vec`], showing `inspect` the parsed payload object before the
/// dialect consumes it (the runtime takes its key shape for drift
/// detection, `crate::schema::drift`).
pub fn decode_vec_inspecting(
    provider: Provider,
    payload: Vec<u8>,
    opts: &DecodeOptions,
    inspect: Inspect<'_>,
) -> Result<Event, (Error, Vec<u8>)> {
    match decode_fields_inspecting(provider, &payload, opts, Some(inspect)) {
        Ok(mut ev) => {
            ev.raw = payload;
            Ok(ev)
        }
        Err(e) => Err((e, payload)),
    }
}

fn decode_fields(provider: Provider, payload: &[u8], opts: &DecodeOptions) -> Result<Event, Error> {
    decode_fields_inspecting(provider, payload, opts, None)
}

fn decode_fields_inspecting(
    provider: Provider,
    payload: &[u8],
    opts: &DecodeOptions,
    inspect: Option<Inspect<'_>>,
) -> Result<Event, Error> {
    let lazy = lazy_output_plan(agent(provider), payload, opts);
    let (map, span) = match lazy {
        Some(LazyPlan { map, event, span }) => (map, Some((event, span))),
        None => (parse_object(payload, opts.max_bytes)?, None),
    };
    if let Some(f) = inspect {
        f(&map);
    }
    let mut ev = (agent(provider).decode)(map, opts)?;
    if let Some((event, (start, end))) = span {
        if ev.native_name != event {
            // The decoder named the event otherwise than the payload's
            // own name field did (an `--event` override): read it whole.
            return decode_fields_inspecting_eager(provider, payload, opts);
        }
        ev.output = crate::model::event::LazyOutput::span(start, end);
    }
    ev.detection = Some(opts.detection);
    if let Some(v) = &opts.variant {
        if ev.variant.is_empty() {
            ev.variant = v.clone();
        }
    }
    Ok(ev)
}

fn decode_fields_inspecting_eager(
    provider: Provider,
    payload: &[u8],
    opts: &DecodeOptions,
) -> Result<Event, Error> {
    let map = parse_object(payload, opts.max_bytes)?;
    let mut ev = (agent(provider).decode)(map, opts)?;
    ev.detection = Some(opts.detection);
    if let Some(v) = &opts.variant {
        if ev.variant.is_empty() {
            ev.variant = v.clone();
        }
    }
    Ok(ev)
}

/// Payloads from this size on are looked at for a lazy output.
pub(crate) const LAZY_PAYLOAD_MIN: usize = 64 * 1024;
/// An output value from this size on is kept lazy.
pub(crate) const LAZY_VALUE_MIN: usize = 16 * 1024;

/// A payload whose output stays unparsed: the rest of it, parsed, with
/// `null` in the output's place, and the output's byte range.
struct LazyPlan {
    map: Map<String, Value>,
    event: &'static str,
    span: (usize, usize),
}

/// Plans a lazy output (see [`Agent::lazy_output`]) when the payload is
/// large, its top-level event name is one the agent's row lists and the
/// value under that event's key is large. The whole payload is validated
/// (one scan that copies nothing); everything but the output is parsed as
/// [`parse_object`] parses it. `None` (parse it whole, as always) for
/// anything else, including every payload that scan refuses: the whole
/// parse then answers with its precise error or its lenient reading.
fn lazy_output_plan(a: &Agent, payload: &[u8], opts: &DecodeOptions) -> Option<LazyPlan> {
    if payload.len() < LAZY_PAYLOAD_MIN
        || payload.len() > opts.max_bytes
        || a.lazy_output.is_empty()
    {
        return None;
    }
    let text = std::str::from_utf8(payload).ok()?;
    let members = json::top_level_spans(text)?;
    // The payload's own event name (the last of a repeated key, as a
    // parse keeps it); the decoder's is compared after decoding.
    let name = json::EVENT_NAME_KEYS.iter().find_map(|k| {
        let &(_, from, to) = members.iter().rev().find(|(key, ..)| key == k)?;
        serde_json::from_str::<String>(text.get(from..to)?).ok()
    })?;
    let &(event, key) = a.lazy_output.iter().find(|(e, _)| *e == name)?;
    let &(_, start, end) = members.iter().rev().find(|(k, ..)| k == key)?;
    if end.checked_sub(start)? < LAZY_VALUE_MIN {
        return None;
    }
    let rest_len = text.len().checked_sub(end - start)?.checked_add(4)?;
    let mut rest = String::with_capacity(rest_len);
    rest.push_str(text.get(..start)?);
    rest.push_str("null");
    rest.push_str(text.get(end..)?);
    match json::parse_value(&rest).ok()? {
        Value::Object(map) => Some(LazyPlan {
            map,
            event,
            span: (start, end),
        }),
        _ => None,
    }
}

/// The capability row for a provider's native event.
pub fn capability(provider: Provider, native: &str) -> Capability {
    (agent(provider).capability)(native)
}

/// The native events a provider documents, in documentation order.
pub fn native_events(provider: Provider) -> &'static [&'static str] {
    agent(provider).events
}

/// Encodes a decision for the event's agent, degrading per policy, in the
/// session mode the event carries (`interactive`, unknown when absent).
pub fn respond(event: &Event, decision: &Decision, policy: &Policy) -> Result<Response, Error> {
    respond_in_mode(event, decision, policy, &event.mode())
}

/// [`respond`] in a session mode observed apart from the event (the
/// runtime observes it only when a decision needs it: an `ask`).
pub fn respond_in_mode(
    event: &Event,
    decision: &Decision,
    policy: &Policy,
    mode: &crate::mode::SessionMode,
) -> Result<Response, Error> {
    let cap = capability(event.provider, &event.native_name);
    if decision.patch_input.is_none() && decision.rewrite_conflicts.is_empty() {
        let (d, mut notes) = capability::plan_in_mode(event, decision, policy, &cap, mode)?;
        let mut resp = (agent(event.provider).encode)(event, &d, policy, &mut notes)?;
        resp.notes = notes;
        return Ok(resp);
    }
    decision.validate_for(event.kind)?;
    let mut notes: Vec<Note> = decision
        .rewrite_conflicts
        .iter()
        .map(|at| {
            Note::new(
                "rewrite_conflict",
                Some(at),
                None,
                "several handlers rewrote this part of the tool input; the later one won",
            )
        })
        .collect();
    let patched = decision.patch_input.is_some();
    let resolved = resolve_patch(event, decision)?;
    let (d, mut planned) = capability::plan_in_mode(event, &resolved, policy, &cap, mode)
        .map_err(|e| if patched { as_patch_error(e) } else { e })?;
    let mut resp = (agent(event.provider).encode)(event, &d, policy, &mut planned)
        .map_err(|e| if patched { as_patch_error(e) } else { e })?;
    if patched && decision.updated_input.is_none() {
        // The author wrote a patch: notes about the rewrite name it.
        for n in &mut planned {
            if n.from.as_deref() == Some("updated_input") {
                n.from = Some("patch_input".into());
            }
        }
    }
    notes.append(&mut planned);
    resp.notes = notes;
    Ok(resp)
}

/// Turns `patch_input` into the whole rewritten input (`updated_input`):
/// the patch applied to `updated_input` when the decision has one, else to
/// the tool input as the agent sent it. Every agent's rewrite is then
/// rendered from the full object (each replaces the arguments; Gemini's
/// old shallow merge is reported by its encoder as `lossy_update`).
pub(crate) fn resolve_patch(event: &Event, decision: &Decision) -> Result<Decision, Error> {
    let mut d = decision.clone();
    d.rewrite_conflicts.clear();
    let Some(patch) = d.patch_input.take() else {
        return Ok(d);
    };
    let mut input = match d.updated_input.take() {
        Some(u) => u,
        None => event
            .tool
            .as_ref()
            .map(|t| t.input.clone())
            .unwrap_or_default(),
    };
    crate::model::patch::apply(&mut input, &patch)?;
    d.updated_input = Some(input);
    Ok(d)
}

/// An error about the rewrite names the patch the author wrote.
fn as_patch_error(e: Error) -> Error {
    match e {
        Error::UnsupportedDecision {
            provider,
            event,
            what,
        } if what == "updated_input" => Error::UnsupportedDecision {
            provider,
            event,
            what: "patch_input".into(),
        },
        other => other,
    }
}

/// The answer to a payload that failed to decode, per the fail policy.
///
/// Like `fail_response(provider, None, ..)`, but it peeks at the bytes for
/// an event name first: on stop events a "block" would keep the agent
/// looping (Claude Code and Codex read exit 2 on Stop as "continue"), so a
/// fail-closed answer there is downgraded to logging.
pub fn fail_response_for_payload(
    provider: Provider,
    payload: &[u8],
    error: &Error,
    policy: &Policy,
) -> Response {
    if policy.fail == Fail::Closed {
        if let Some(name) = peek_event_name(payload) {
            let kind = kind_of(provider, &name);
            if provider == Provider::ClaudeCode && kind == Kind::PermissionRequest {
                // Claude Code ignores exit 2 on PermissionRequest (quirk 3):
                // only a JSON deny blocks there.
                let ev = Event::new(provider, name.clone(), kind);
                let reason = format!(
                    "Blocked because the hook failed ({}); policy is fail-closed.",
                    error.code()
                );
                if let Ok(mut r) = respond(&ev, &Decision::deny(reason), policy) {
                    r.stderr = format!(
                        "agenthooks: {}: {} (fail-closed: block)\n",
                        error.code(),
                        error
                    );
                    r.notes.insert(
                        0,
                        Note::new(
                            "fail_closed",
                            Some(error.code().as_str()),
                            Some("block"),
                            "",
                        ),
                    );
                    return r;
                }
            }
            if matches!(kind, Kind::AgentStop | Kind::SubagentStop) {
                let diag = format!("agenthooks: {}: {}", error.code(), error);
                let mut r = undecodable(provider, Fail::Open, &diag);
                r.stderr = format!("{diag} (fail-closed: logged_only on {name})\n");
                r.notes = vec![Note::new(
                    "fail_closed",
                    Some(error.code().as_str()),
                    Some("logged_only"),
                    "",
                )];
                return r;
            }
        }
    }
    fail_response(provider, None, error, policy)
}

/// The event name of a payload that may not decode at all (invalid UTF-8,
/// too large, not JSON): read tolerantly from its top-level keys, see
/// [`json::peek_event_name`].
fn peek_event_name(payload: &[u8]) -> Option<String> {
    json::peek_event_name(payload)
}

/// The unified kind of a provider's native event name.
pub fn kind_of(provider: Provider, native: &str) -> Kind {
    capability(provider, native).kind
}

/// The agent's answer when the hook failed (bad input, handler error,
/// panic, timeout), per the fail policy, enforced with the agent's real
/// blocking mechanism where the event can block. `event` is `None` when the
/// payload could not be decoded.
pub fn fail_response(
    provider: Provider,
    event: Option<&Event>,
    error: &Error,
    policy: &Policy,
) -> Response {
    let diag = format!("agenthooks: {}: {}", error.code(), error);
    match (policy.fail, event) {
        (Fail::Open, ev) => {
            let mut r = match ev {
                Some(e) => {
                    respond(e, &Decision::no_decision(), &Policy::default()).unwrap_or_default()
                }
                None => undecodable(provider, Fail::Open, &diag),
            };
            if r.stderr.is_empty() {
                r.stderr = format!("{diag} (fail-open: no decision)\n");
            }
            r.notes = vec![Note::new(
                "fail_open",
                Some(error.code().as_str()),
                Some("no_decision"),
                "",
            )];
            r
        }
        (Fail::Closed, None) => {
            // The event is unknown: exit 2 with stderr is the one answer both
            // Claude Code and Codex read as "block" on every gating event.
            let mut r = undecodable(provider, Fail::Closed, &diag);
            // `block` where the dialect blocks with a verdict on stdout (Gemini).
            let to = if r.exit_code == 2 { "exit_2" } else { "block" };
            r.notes = vec![Note::new(
                "fail_closed",
                Some(error.code().as_str()),
                Some(to),
                "",
            )];
            r
        }
        (Fail::Closed, Some(e)) => {
            let reason = format!(
                "Blocked because the hook failed ({}); policy is fail-closed.",
                error.code()
            );
            let d = match e.kind {
                Kind::ToolPre | Kind::PermissionRequest => Some(Decision::deny(reason)),
                Kind::PromptSubmitted => Some(Decision::block_prompt(reason)),
                _ => None,
            };
            let strict_free = Policy {
                unsupported: crate::model::Unsupported::Degrade,
                ..policy.clone()
            };
            let (mut r, to) = match d.and_then(|d| respond(e, &d, &strict_free).ok()) {
                Some(r) => {
                    // The block itself may have degraded (an agent that cannot
                    // deny here): then it was only logged.
                    let blocked = !r.notes.iter().any(|n| {
                        n.code == "degraded"
                            && matches!(n.from.as_deref(), Some("deny" | "block_prompt"))
                            && matches!(n.to.as_deref(), Some("no_decision" | "accept_prompt"))
                    });
                    (r, if blocked { "block" } else { "logged_only" })
                }
                None => (
                    respond(e, &Decision::no_decision(), &Policy::default()).unwrap_or_default(),
                    "logged_only",
                ),
            };
            if r.stderr.is_empty() {
                r.stderr = format!("{diag} (fail-closed: {to})\n");
            }
            let mut notes = vec![Note::new(
                "fail_closed",
                Some(error.code().as_str()),
                Some(to),
                "",
            )];
            notes.append(&mut r.notes);
            r.notes = notes;
            r
        }
    }
}

/// The answer to a payload that could not be decoded (the event is
/// unknown), per fail posture. Each dialect knows what its agent reads as
/// "no opinion" and as "block" without knowing the event.
fn undecodable(provider: Provider, fail: Fail, diag: &str) -> Response {
    match agent(provider).undecodable {
        Some(answer) => answer(fail, diag),
        // Claude Code and Codex: exit 2 with stderr blocks every gating
        // event; exit 0 with empty stdout is neutral everywhere.
        None => match fail {
            Fail::Open => Response::empty(),
            Fail::Closed => common::exit2_block(provider, diag),
        },
    }
}

#[cfg(test)]
mod lazy_tests;

#[cfg(test)]
mod tests {
    use super::*;

    /// Each agent's row is its own, and the entry points answer from it.
    #[test]
    fn every_agent_row_is_found_by_its_provider() {
        for p in Provider::ALL {
            let a = agent(p);
            assert_eq!(a.provider, p);
            assert!(!a.events.is_empty(), "{p:?}");
            assert_eq!(native_events(p), a.events);
            for n in a.events {
                assert_eq!(capability(p, n), (a.capability)(n), "{p:?} {n}");
            }
        }
        let none = |_: &str| None;
        let cursor_cli: Map<String, Value> =
            serde_json::from_str(r#"{"cursor_version":"2026.09.18-9a7762b"}"#).unwrap();
        assert_eq!(
            (agent(Provider::Cursor).variant)(&cursor_cli, &none),
            Some("cli")
        );
        assert_eq!((agent(Provider::Codex).variant)(&cursor_cli, &none), None);
        assert_eq!(
            (agent(Provider::Cursor).mcp_name)("MCP:gh:issue"),
            Some(("gh", "issue"))
        );
        assert_eq!((agent(Provider::Opencode).mcp_name)("gh_issue"), None);
    }

    /// A patch is merged into the input as the agent sent it; errors and
    /// notes about the rewrite name `patch_input`.
    #[test]
    fn respond_merges_a_patch_and_names_it() {
        let payload = br#"{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","description":"list"},"tool_use_id":"t"}"#;
        let ev = decode(Provider::ClaudeCode, payload, &DecodeOptions::default()).unwrap();
        let patch = |v: Value| v.as_object().cloned().unwrap_or_default();
        let d = Decision::allow().with_patch_input(patch(serde_json::json!({"command": "ls -la"})));
        let r = respond(&ev, &d, &Policy::default()).unwrap();
        let out: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(
            out["hookSpecificOutput"]["updatedInput"],
            serde_json::json!({"command": "ls -la", "description": "list"})
        );
        assert!(r.notes.is_empty());
        let kimi = br#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/w","tool_name":"Bash","tool_input":{"command":"ls"},"tool_call_id":"c"}"#;
        let ev = decode(Provider::KimiCode, kimi, &DecodeOptions::default()).unwrap();
        let d = Decision::no_decision().with_patch_input(patch(serde_json::json!({"x": 1})));
        let strict = Policy {
            unsupported: crate::model::Unsupported::Strict,
            ..Policy::default()
        };
        match respond(&ev, &d, &strict) {
            Err(Error::UnsupportedDecision { what, .. }) => assert_eq!(what, "patch_input"),
            other => panic!("{other:?}"),
        }
        let r = respond(&ev, &d, &Policy::default()).unwrap();
        assert!(
            r.notes
                .iter()
                .any(|n| n.code == "dropped" && n.from.as_deref() == Some("patch_input"))
        );
        // Too deep: invalid_decision, never a recursion.
        let mut deep = serde_json::Map::new();
        for _ in 0..200 {
            let mut o = serde_json::Map::new();
            o.insert("k".into(), Value::Object(deep));
            deep = o;
        }
        let e = respond(
            &ev,
            &Decision::no_decision().with_patch_input(deep),
            &Policy::default(),
        )
        .unwrap_err();
        assert_eq!(e.code().as_str(), "invalid_decision");
    }
}
