//! OpenClaw: typed plugin hooks of the Gateway, bridged by the agenthooks
//! plugin.
//!
//! Wire facts: `docs/protocols/openclaw.md` (e2e on 2026.9.6). A native
//! plugin registers `api.on(name, handler)`; each handler gets
//! `(event, ctx)` and answers by **returning** a result object (nothing =
//! no opinion, §4.6). Our plugin (`bindings/node/plugins/openclaw.js`)
//! turns each call into one JSON **frame**, the payload decoded here:
//!
//! ```text
//! {"hook": "<hook name>",
//!  "event": {...},            // the event object (alias: "input")
//!  "ctx": {...},              // the context, sanitized by the plugin: no
//!                             // functions, signals, Gateway `config` or
//!                             // credential fields (quirk 10)
//!  "plugin": {                // facts the plugin adds (all optional)
//!    "version",               // the OpenClaw version
//!    "workspace_dir", "model_provider_id", "model_id",
//!                             // remembered per session from agent hooks:
//!                             // tool contexts lack them (quirk 11)
//!    "llm_output",            // agent_end: the run's llm_output event (quirk 12)
//!    "loop_count"},           // before_agent_finalize: revisions so far
//!  "seq": n}                  // bridge frames only; ignored here
//! ```
//!
//! The answer ("wire") is the handler's **return value** as one JSON object
//! on stdout (`{block, blockReason}`, `{params}`, `{requireApproval}`,
//! `{outcome: "block", reason, message?}`, `{action: "revise", ...}`), or
//! empty stdout: return nothing (never `{}`, which `before_agent_run` reads
//! as an invalid shape and fails closed, §4.6).

mod quirks;

use serde_json::{Map, Value, json};

use super::DecodeOptions;
use super::common::{finish, merge_native};
use super::fields::{Fields, Obj, wrong};
use crate::capability::{ASK_FALLBACK_REASON, Capability, value_text};
use crate::error::Error;
use crate::model::{
    AgentInfo, AskFallback, Decision, DecisionKind as D, Event, Fail, Kind, Note, Policy, Provider,
    Response, SessionInfo, StopInfo, ToolCall, Unsupported, Usage,
};

const P: Provider = Provider::Openclaw;

/// Every typed plugin hook of OpenClaw (§2, table order).
pub const EVENTS: &[&str] = &[
    "before_agent_run",
    "before_prompt_build",
    "agent_turn_prepare",
    "before_model_resolve",
    "before_agent_start",
    "before_agent_reply",
    "llm_input",
    "llm_output",
    "model_call_started",
    "model_call_ended",
    "before_agent_finalize",
    "agent_end",
    "heartbeat_prompt_contribution",
    "before_tool_call",
    "after_tool_call",
    "resolve_exec_env",
    "tool_result_persist",
    "before_message_write",
    "session_start",
    "session_end",
    "before_compaction",
    "after_compaction",
    "before_reset",
    "subagent_spawning",
    "subagent_spawned",
    "subagent_ended",
    "subagent_delivery_target",
    "subagent_progress",
    "inbound_claim",
    "before_dispatch",
    "reply_dispatch",
    "message_received",
    "message_sent",
    "message_sending",
    "reply_payload_sending",
    "channel_pairing_requested",
    "gateway_start",
    "gateway_stop",
    "cron_changed",
    "cron_reconciled",
    "before_install",
    "skill_proposal_evaluate",
    "skill_proposal_changed",
    "skill_changed",
    "deactivate",
];

/// The first version whose `before_tool_call` takes `requireApproval`
/// (quirk 8).
pub const REQUIRE_APPROVAL_SINCE: (u32, u32, u32) = (2026, 3, 28);

/// The unified kind of a hook name (`other` when unmapped).
///
/// One hook per unified kind where OpenClaw has several for the same
/// moment, so handlers run once: `before_agent_run` is `prompt.submitted`
/// (it can block; `before_prompt_build` fires just before it and is
/// `other`); `llm_input` / `llm_output` are `model.request` /
/// `model.response` (`model_call_*` and `before_model_resolve` are
/// `other`); `before_agent_finalize` is `agent.stop` (it can ask for another
/// pass; `agent_end` follows it, observe-only, and is `other` with the run's
/// stop facts, quirk 12); `subagent_spawned` is `subagent.start`
/// (`subagent_spawning` is `other`, gated through `native`). `after_tool_call`
/// is `tool.error` when its `error` is set (see [`decode`]).
pub fn kind_of(native: &str) -> Kind {
    match native {
        "before_agent_run" => Kind::PromptSubmitted,
        "llm_input" => Kind::ModelRequest,
        "llm_output" => Kind::ModelResponse,
        "before_agent_finalize" => Kind::AgentStop,
        "before_tool_call" => Kind::ToolPre,
        "after_tool_call" => Kind::ToolPost,
        "session_start" => Kind::SessionStart,
        "session_end" => Kind::SessionEnd,
        "before_compaction" => Kind::CompactPre,
        "after_compaction" => Kind::CompactPost,
        "subagent_spawned" => Kind::SubagentStart,
        "subagent_ended" => Kind::SubagentStop,
        _ => Kind::Other,
    }
}

/// The capability row of a hook (§4).
pub fn capability(native: &str) -> Capability {
    let kind = kind_of(native);
    let (block, decisions, mods): (bool, &[D], &[&'static str]) = match native {
        // {block, blockReason}; {requireApproval} (see `refine` for old
        // versions); {params} replaces the parameters.
        "before_tool_call" => (true, &[D::NoDecision, D::Deny, D::Ask], &["updated_input"]),
        // {outcome: "block", reason, message?}: `message` is what the user
        // reads instead of the reply; `reason` stays out of the transcript.
        "before_agent_run" => (
            true,
            &[D::NoDecision, D::AcceptPrompt, D::BlockPrompt],
            &["block_reason"],
        ),
        // {action: "revise", reason, retry: {instruction, maxAttempts}}.
        "before_agent_finalize" => (true, &[D::NoDecision, D::Finish, D::Continue], &[]),
        // Observe hooks: return values are ignored (§1.4, §4.5).
        "after_tool_call" => (false, &[D::NoDecision, D::Observed], &[]),
        "subagent_ended" => (false, &[D::NoDecision, D::Finish], &[]),
        _ => (false, &[D::NoDecision], &[]),
    };
    Capability::new(P, native, kind, block, decisions, mods)
}

/// Decodes an OpenClaw plugin frame.
pub fn decode(map: Map<String, Value>, opts: &DecodeOptions) -> Result<Event, Error> {
    let mut f = Fields::new(map);
    let native = f.event_name("hook", P, opts)?;
    let event = match f.take("event") {
        Value::Null => f.take("input"),
        v => v,
    };
    let event = match event {
        Value::Null => Map::new(),
        Value::Object(m) => m,
        other => return Err(wrong("event", "an object", &other)),
    };
    let ctx = match f.take("ctx") {
        Value::Null => Map::new(),
        Value::Object(m) => m,
        other => return Err(wrong("ctx", "an object", &other)),
    };
    let plugin = match f.take("plugin") {
        Value::Null => Map::new(),
        Value::Object(m) => m,
        other => return Err(wrong("plugin", "an object", &other)),
    };
    let e = Obj::new(&event, "event");
    let c = Obj::new(&ctx, "ctx");
    let pl = Obj::new(&plugin, "plugin");

    let mut ev = Event::new(P, native.clone(), kind_of(&native));
    ev.session = SessionInfo {
        // `sessionId` is the stored session; `sessionKey` ("agent:main:main")
        // the conversation's routing key, used when no id is sent.
        id: first_id(&[
            (&c, "sessionId"),
            (&e, "sessionId"),
            (&c, "sessionKey"),
            (&e, "sessionKey"),
        ])?
        .unwrap_or_default(),
        turn_id: first_id(&[(&c, "runId"), (&e, "runId")])?.unwrap_or_default(),
        // Tool contexts carry no workspaceDir: the plugin remembers it per
        // session from an agent hook (quirk 11).
        cwd: first_str(&[(&c, "workspaceDir"), (&e, "cwd"), (&pl, "workspace_dir")])?
            .unwrap_or_default(),
        model: model(&[
            (&c, "modelProviderId", "modelId"),
            (&e, "provider", "model"),
            (&pl, "model_provider_id", "model_id"),
        ])?,
        ..SessionInfo::default()
    };

    match native.as_str() {
        "before_tool_call" | "after_tool_call" => {
            let name = first_str(&[(&e, "toolName"), (&c, "toolName")])?.unwrap_or_default();
            if !name.is_empty() {
                let raw_input = event.get("params").cloned().unwrap_or(Value::Null);
                // `toolCallId` is the dedupe key for a before_tool_call
                // fired more than once for one call (quirk 5).
                let id = match e.id("toolCallId")? {
                    Some(id) => Some(id),
                    None => c.id("toolCallId")?,
                };
                let mut t = ToolCall::new(P, &name, raw_input, id);
                if t.id.is_empty() {
                    t.synthesize_id(&ev.session.id, &ev.session.turn_id);
                }
                ev.tool = Some(t);
            }
            if native == "after_tool_call" {
                ev.set_output(event.get("result").cloned().unwrap_or(Value::Null));
                ev.duration_ms = e.u64("durationMs")?;
                let error = match event.get("error") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) if s.is_empty() => None,
                    Some(other) => Some(value_text(other)),
                };
                if error.is_some() {
                    // Failed, and also blocked, hook-failed and
                    // approval-denied calls that never ran (quirk 13):
                    // `reason` says which (`blocked`, `error`).
                    ev.kind = Kind::ToolError;
                    ev.failed = true;
                    ev.error = error;
                    ev.reason = ev
                        .output()
                        .pointer("/details/status")
                        .and_then(Value::as_str)
                        .filter(|s| !s.is_empty())
                        .map(str::to_string);
                }
            }
        }
        "before_agent_run"
        | "before_prompt_build"
        | "agent_turn_prepare"
        | "before_model_resolve" => ev.prompt = e.str_keep_empty("prompt")?,
        "before_agent_reply" => ev.prompt = e.str_keep_empty("cleanedBody")?,
        "llm_output" => ev.message = assistant_texts(&e)?,
        "before_agent_finalize" => {
            let stop = StopInfo {
                previously_continued: e.bool("stopHookActive")?.unwrap_or(false),
                loop_count: pl.u64("loop_count")?,
                final_message: e.str("lastAssistantMessage")?,
                usage: Usage::default(),
            };
            if !stop.is_empty() {
                ev.stop = Some(stop);
            }
            // `transcriptPath` carried the session key, not a file, on
            // 2026.9.6 (quirk 23): only an absolute path is a transcript.
            if let Some(p) = e.str("transcriptPath")? {
                if is_absolute_path(&p) {
                    ev.session.transcript_path = p;
                }
            }
        }
        "agent_end" => {
            // No final text on agent_end; the plugin splices in the run's
            // llm_output (which 2026.9.6 fires after agent_end, quirk 12),
            // else the last assistant message of `messages` has it.
            let llm = pl.obj("llm_output")?;
            let final_message = match assistant_last(&llm)? {
                Some(t) => Some(t),
                None => last_assistant_message(event.get("messages")),
            };
            let usage = usage_of(&llm.obj("usage")?)?;
            let stop = StopInfo {
                final_message,
                usage,
                ..StopInfo::default()
            };
            if !stop.is_empty() {
                ev.stop = Some(stop);
            }
            ev.error = e.str("error")?;
            ev.duration_ms = e.u64("durationMs")?;
            if ev.session.model.is_empty() {
                ev.session.model = model(&[(&llm, "provider", "model")])?;
            }
        }
        "session_end" => {
            ev.reason = e.str("reason")?;
            ev.session.transcript_path = e.str("sessionFile")?.unwrap_or_default();
        }
        "before_compaction" | "after_compaction" => {
            ev.session.transcript_path = e.str("sessionFile")?.unwrap_or_default();
        }
        "subagent_spawned" => {
            ev.agent = e.str("childSessionKey")?.map(|id| AgentInfo {
                id,
                r#type: String::new(),
            });
            if let (Some(a), Some(t)) = (ev.agent.as_mut(), e.str("agentId")?) {
                a.r#type = t;
            }
        }
        "subagent_ended" => {
            ev.agent = e.str("targetSessionKey")?.map(|id| AgentInfo {
                id,
                r#type: String::new(),
            });
            if let (Some(a), Some(t)) = (ev.agent.as_mut(), e.str("targetKind")?) {
                a.r#type = t;
            }
            ev.reason = e.str("reason")?;
            ev.error = e.str("error")?;
            let status = e.str("outcome")?;
            if status.is_some() {
                ev.stop = Some(StopInfo {
                    usage: Usage {
                        status,
                        ..Usage::default()
                    },
                    ..StopInfo::default()
                });
            }
        }
        "gateway_stop" | "before_reset" => ev.reason = e.str("reason")?,
        _ => {}
    }
    Ok(ev)
}

/// The first non-empty string among `(object, key)` pairs.
fn first_str(candidates: &[(&Obj, &str)]) -> Result<Option<String>, Error> {
    for (o, k) in candidates {
        if let Some(s) = o.str(k)? {
            return Ok(Some(s));
        }
    }
    Ok(None)
}

/// The first id (a string, or a number rendered as one) among `(object,
/// key)` pairs.
fn first_id(candidates: &[(&Obj, &str)]) -> Result<Option<String>, Error> {
    for (o, k) in candidates {
        if let Some(s) = o.id(k)? {
            return Ok(Some(s));
        }
    }
    Ok(None)
}

/// `provider/model` from the first `(object, provider key, model key)`
/// whose model is set.
fn model(candidates: &[(&Obj, &str, &str)]) -> Result<String, Error> {
    for (o, pk, mk) in candidates {
        if let Some(m) = o.str(mk)? {
            return Ok(match o.str(pk)? {
                Some(p) => format!("{p}/{m}"),
                None => m,
            });
        }
    }
    Ok(String::new())
}

/// `assistantTexts` of an `llm_output`, joined by a blank line.
fn assistant_texts(o: &Obj) -> Result<Option<String>, Error> {
    match o.get("assistantTexts") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(a)) => {
            let t: Vec<&str> = a
                .iter()
                .filter_map(Value::as_str)
                .filter(|s| !s.is_empty())
                .collect();
            Ok((!t.is_empty()).then(|| t.join("\n\n")))
        }
        Some(other) => Err(wrong("assistantTexts", "an array", other)),
    }
}

/// The last non-empty entry of `assistantTexts`.
fn assistant_last(o: &Obj) -> Result<Option<String>, Error> {
    match o.get("assistantTexts") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(a)) => Ok(a
            .iter()
            .rev()
            .filter_map(Value::as_str)
            .find(|s| !s.is_empty())
            .map(str::to_string)),
        Some(other) => Err(wrong("plugin.llm_output.assistantTexts", "an array", other)),
    }
}

/// The text of the last assistant message in a transcript array
/// (`content` a string or an array of `{type: "text", text}` parts).
fn last_assistant_message(messages: Option<&Value>) -> Option<String> {
    let Some(Value::Array(msgs)) = messages else {
        return None;
    };
    msgs.iter().rev().find_map(|m| {
        if m.get("role").and_then(Value::as_str) != Some("assistant") {
            return None;
        }
        let text = match m.get("content")? {
            Value::String(s) => s.clone(),
            Value::Array(parts) => parts
                .iter()
                .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(""),
            _ => return None,
        };
        (!text.is_empty()).then_some(text)
    })
}

/// `usage {input, output, cacheRead, cacheWrite, total, cost?}` of an
/// `llm_output` (`cost` a number or `{total}`).
fn usage_of(u: &Obj) -> Result<Usage, Error> {
    let cost = match u.get("cost") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::Object(c)) => c.get("total").and_then(Value::as_f64),
        Some(other) => return Err(wrong("usage.cost", "a number or an object", other)),
    };
    Ok(Usage {
        input_tokens: u.u64("input")?,
        output_tokens: u.u64("output")?,
        cache_read_tokens: u.u64("cacheRead")?,
        cache_write_tokens: u.u64("cacheWrite")?,
        cost,
        loop_count: None,
        status: None,
    })
}

fn is_absolute_path(p: &str) -> bool {
    let b = p.as_bytes();
    p.starts_with('/')
        || p.starts_with("\\\\")
        || (b.len() > 2
            && b[0].is_ascii_alphabetic()
            && b[1] == b':'
            && matches!(b[2], b'\\' | b'/'))
}

/// A date version `YYYY.M.D` (`2026.9.6`), or `None`.
pub fn version(v: &str) -> Option<(u32, u32, u32)> {
    let core = v.trim().trim_start_matches('v');
    let core = core.split(['-', '+', ' ']).next()?;
    let mut it = core.split('.').map(|p| p.parse::<u32>().ok());
    Some((it.next()??, it.next()??, it.next().flatten().unwrap_or(0)))
}

/// Encodes a (planned) decision into the handler's return value.
pub fn encode(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Response, Error> {
    let d = refine(ev, d, policy, notes)?;
    let nonempty = |s: &Option<String>| s.clone().filter(|r| !r.trim().is_empty());
    let mut out = Map::new();
    match ev.native_name.as_str() {
        "before_tool_call" => match d.kind {
            D::Deny => {
                // The model reads blockReason verbatim; a throw would give it
                // only a generic "hook failed" (quirk 16).
                let r = nonempty(&d.reason).unwrap_or_else(|| "Blocked by hook.".into());
                out.insert("block".into(), json!(true));
                out.insert("blockReason".into(), json!(r));
                if d.updated_input.is_some() {
                    notes.push(Note::new(
                        "dropped",
                        Some("updated_input"),
                        None,
                        "a blocked OpenClaw tool call never runs",
                    ));
                }
            }
            _ => {
                if d.kind == D::Ask {
                    // An immediate deny in non-interactive CLI runs (quirk 17).
                    let tool = ev.tool.as_ref().map(|t| t.name.as_str()).unwrap_or("tool");
                    let r = nonempty(&d.reason).unwrap_or_else(|| ASK_FALLBACK_REASON.into());
                    out.insert(
                        "requireApproval".into(),
                        json!({"title": format!("Approve {tool} call"), "description": r}),
                    );
                }
                if let Some(u) = &d.updated_input {
                    // Runs as rewritten; the model's history keeps the
                    // original arguments (quirk 21).
                    out.insert("params".into(), Value::Object(u.clone()));
                }
            }
        },
        "before_agent_run" => {
            if d.kind == D::BlockPrompt {
                // `reason` must be a non-empty string or the result is an
                // invalid shape (§4.2).
                let r = nonempty(&d.reason)
                    .or_else(|| nonempty(&d.block_reason))
                    .unwrap_or_else(|| "Prompt blocked by hook.".into());
                out.insert("outcome".into(), json!("block"));
                out.insert("reason".into(), json!(r));
                if let Some(m) = nonempty(&d.block_reason) {
                    out.insert("message".into(), json!(m));
                }
            }
        }
        "before_agent_finalize" => {
            if d.kind == D::Continue {
                let text = nonempty(&d.instruction)
                    .or_else(|| nonempty(&d.reason))
                    .unwrap_or_else(|| "Continue.".into());
                let mut retry = Map::new();
                retry.insert("instruction".into(), json!(text));
                if policy.continuation_cap > 0 {
                    // OpenClaw bounds revisions per instruction itself.
                    retry.insert("maxAttempts".into(), json!(policy.continuation_cap));
                }
                out.insert("action".into(), json!("revise"));
                out.insert("reason".into(), json!(text));
                out.insert("retry".into(), Value::Object(retry));
            }
        }
        _ => {}
    }
    if let Some(n) = &d.native {
        merge_native(&mut out, n);
    }
    Ok(finish(out))
}

/// Rules the capability table cannot express: `requireApproval` does not
/// exist before 2026.3.28 (quirk 8); then `ask` follows `ask_fallback`.
fn refine(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Decision, Error> {
    let mut d = d.clone();
    if d.kind == D::Ask && ev.native_name == "before_tool_call" {
        let old = plugin_version(ev).is_some_and(|v| v < REQUIRE_APPROVAL_SINCE);
        if old {
            if policy.unsupported == Unsupported::Strict {
                return Err(Error::UnsupportedDecision {
                    provider: P.id(),
                    event: ev.native_name.clone(),
                    what: "ask".into(),
                });
            }
            let to = match policy.ask_fallback {
                AskFallback::Deny => {
                    if d.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
                        d.reason = Some(ASK_FALLBACK_REASON.to_string());
                    }
                    D::Deny
                }
                AskFallback::NoDecision => D::NoDecision,
            };
            notes.push(Note::new(
                "degraded",
                Some("ask"),
                Some(to.as_str()),
                "OpenClaw before 2026.3.28 has no requireApproval",
            ));
            d.kind = to;
        }
    }
    Ok(d)
}

/// `plugin.version` of the frame, parsed.
fn plugin_version(ev: &Event) -> Option<(u32, u32, u32)> {
    let raw = ev.raw_json();
    version(raw.get("plugin")?.get("version")?.as_str()?)
}

/// The answer when the frame could not be decoded: nothing under
/// fail-open; under fail-closed one object that blocks both gates whatever
/// the hook (`before_tool_call` reads `block`; `before_agent_run` reads
/// `outcome` and fails closed on the extra keys anyway) and that the other
/// hooks ignore.
pub fn undecodable(fail: Fail, diag: &str) -> Response {
    match fail {
        Fail::Open => Response::empty(),
        Fail::Closed => {
            let code = diag
                .strip_prefix("agenthooks: ")
                .and_then(|rest| rest.split(':').next())
                .filter(|c| !c.is_empty() && !c.contains(' '))
                .unwrap_or("undecodable_input");
            let reason = format!(
                "Blocked because the hook could not read its input ({code}); policy is fail-closed."
            );
            let mut r = Response::json(&json!({
                "block": true,
                "blockReason": reason,
                "outcome": "block",
                "reason": reason,
            }));
            r.stderr = format!("{}\n", diag.trim_end());
            r
        }
    }
}

/// Tool names (`dialect::tool_names` has the sources and the rules).
/// OpenClaw (canonical OpenClaw tool ids).
pub(crate) fn tool_class(name: &str) -> Option<crate::model::Canonical> {
    use crate::model::Canonical::{
        Fetch, FileEdit, FileRead, FileWrite, Other, Search, Shell, Task as Subagent,
    };
    Some(match name {
        // `process`: manages background `exec` sessions.
        "exec" | "process" => Shell,
        "read" => FileRead,
        "write" => FileWrite,
        "edit" | "apply_patch" => FileEdit,
        "ls" => Search,
        "web_fetch" | "web_search" => Fetch,
        "spawn_agent" => Subagent,
        "message" | "session_status" | "sessions_yield" | "tool_call" | "tool_describe"
        | "tool_search" => Other,
        _ => return None,
    })
}

/// MCP tool names: none (MCP tools arrive under their own ids).
pub(crate) fn mcp_name(_: &str) -> Option<(&str, &str)> {
    None
}

/// Everything about this agent, for [`super::agent`].
pub(crate) static AGENT: super::Agent = super::Agent {
    provider: Provider::Openclaw,
    events: EVENTS,
    capability,
    tool_class,
    mcp_name,
    variant: super::no_variant,
    quirks: quirks::QUIRKS,
    quirk_section: "§6",
    research: "openclaw.md",
    page: "docs/agents/openclaw.md",
    decode,
    encode,
    lazy_output: &[],
    undecodable: Some(undecodable),
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect;

    fn ev(payload: &str) -> Event {
        dialect::decode(P, payload.as_bytes(), &DecodeOptions::default()).unwrap()
    }

    #[test]
    fn versions() {
        assert_eq!(version("2026.9.6"), Some((2026, 9, 6)));
        assert_eq!(version("2026.3.28-beta.1"), Some((2026, 3, 28)));
        assert_eq!(version("v2026.4"), Some((2026, 4, 0)));
        assert_eq!(version("x"), None);
        assert!(version("2026.3.27").unwrap() < REQUIRE_APPROVAL_SINCE);
    }

    #[test]
    fn every_hook_has_a_row_and_no_decision_is_empty_stdout() {
        for name in EVENTS.iter().chain(["something_new"].iter()) {
            let e = ev(&format!(
                r#"{{"hook":"{name}","event":{{"toolName":"exec","params":{{"command":"ls"}},"toolCallId":"c"}},"ctx":{{"sessionId":"s"}}}}"#
            ));
            let r = dialect::respond(&e, &Decision::no_decision(), &Policy::default()).unwrap();
            assert_eq!((r.stdout.as_str(), r.exit_code), ("", 0), "{name}");
            assert_eq!(capability(name).kind, kind_of(name));
        }
    }

    #[test]
    fn after_tool_call_error_with_any_result_shape() {
        let e = ev(
            r#"{"hook":"after_tool_call","event":{"toolName":"exec","params":{},"toolCallId":"c","result":"boom","error":"exit 1"}}"#,
        );
        assert_eq!(e.kind, Kind::ToolError);
        assert_eq!(e.reason, None);
        assert_eq!(e.error.as_deref(), Some("exit 1"));
    }

    #[test]
    fn paths() {
        assert!(is_absolute_path("/a"));
        assert!(is_absolute_path("C:\\a"));
        assert!(!is_absolute_path("agent:main:main"));
    }

    #[test]
    fn last_assistant_text() {
        let m = serde_json::json!([
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "toolCall"}]},
            {"role": "toolResult", "content": "x"},
        ]);
        assert_eq!(last_assistant_message(Some(&m)).as_deref(), Some("a"));
    }
}
