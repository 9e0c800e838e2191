//! Gemini CLI: snake_case payloads with PascalCase event names, one JSON
//! object answered on stdout.
//!
//! Wire facts: `docs/protocols/gemini-cli.md` (e2e against 0.61.0; source
//! as of 0.56.0-nightly). The rules this dialect is built on:
//!
//! - **Always explicit JSON on stdout, exit 0** (§4.1, §4.7, quirk 1). The
//!   CLI reads stdout, and *stderr when stdout is empty*; plain text becomes
//!   a system message (exit 0/1) or a deny (any other code), and a JSON
//!   object wins over the exit code (quirk 2). So "no opinion" is `{}` (never
//!   empty stdout, which would hand the verdict to whatever reaches stderr),
//!   diagnostics on stderr are safe only because stdout is never empty, and
//!   no answer uses a non-zero exit. `deny` is the spelling used for every
//!   block (`block` works too, §4.2).
//! - **No real `allow`.** `decision: "allow"` only means "not blocking" and
//!   does not skip a confirmation (§4.2), so `allow` degrades to
//!   `no_decision` with a note (principle 5: no opinion is not approval).
//! - **`ask` only in a session known to be interactive** (quirk 6): it
//!   exists on BeforeTool only from v0.36.0, and headless (`-p --yolo`) it
//!   hangs the CLI until killed (e2e). Nothing in the payload or the hook's
//!   environment tells the modes apart; the Gemini process's argv does
//!   (`crate::mode`: `-p`, a positional prompt, stdin not a terminal). So
//!   `ask` is sent (`{"decision": "ask"}`, the reason also as
//!   `systemMessage`, which the prompt shows) only when the session is
//!   known interactive; in an unknown mode `ask_fallback` picks deny or no
//!   opinion, and a known headless one follows `headless_ask`.
//! - **Input rewrites** (`hookSpecificOutput.tool_input`, quirk 5): shallow
//!   `Object.assign` merge up to v0.35, whole replacement from v0.36.0, and
//!   still a shallow merge into the next hook's input in sequential mode on
//!   every version (§4.5). The payload, argv and environment carry no
//!   version, so a rewrite that removes a top-level key of the original
//!   input is reported on every version: `lossy_update` error under
//!   `unsupported: strict`, a `lossy_update` note under `degrade` (the
//!   complete object is still sent: exact on v0.36.0+, the removed keys
//!   survive on older versions). A rewrite with `deny` is dropped (the tool
//!   does not run).
//! - **Context** goes only where it is read: BeforeAgent, AfterTool and
//!   SessionStart `hookSpecificOutput.additionalContext`; BeforeTool ignores
//!   it (e2e), so it is dropped there with a note. The CLI replaces `<` and
//!   `>` by `&lt;`/`&gt;` (nothing else) and wraps the text in
//!   `<hook_context>…</hook_context>` (quirk 8): markup in context reaches the
//!   model escaped. We send context verbatim (escaping it ourselves would
//!   change nothing the model sees, since `&` is not escaped by the CLI).
//! - **No tool-call id** (quirk 9): ids are synthesized (there is no turn id
//!   either), so a BeforeTool and its AfterTool correlate unless a hook
//!   rewrote the input (AfterTool carries the input as executed).
//! - **Lifecycle matchers are exact strings** (§1.5): `SessionStart` matches
//!   `source`, `SessionEnd` `reason`, `PreCompress` `trigger` by string
//!   equality, not as a regex (`"startup|resume|clear"` never matches); tool
//!   matchers are unanchored JS regexes. Matchers live in the matcher and
//!   install modules; nothing here depends on them.
//!
//! `BeforeToolSelection` decodes as kind `other`: it fires right after
//! `BeforeModel` for the same model call (e2e), so mapping it to
//! `model.request` would run `model.request` handlers twice per call, and its
//! only lever (`toolConfig`, not even enforced on the reply) has no unified
//! decision. It is reachable with `on_native("BeforeToolSelection")` and the
//! `native` escape hatch.

mod quirks;

use serde_json::{Map, Value, json};

use super::DecodeOptions;
use super::common::{join_context, merge_native};
use super::fields::{Fields, wrong};
use crate::capability::{Capability, value_text};
use crate::error::Error;
use crate::model::{
    Canonical, Decision, DecisionKind as D, Event, Fail, Kind, McpInfo, Note, Policy, Provider,
    Response, SessionInfo, StopInfo, ToolCall, Unsupported,
};

const P: Provider = Provider::Gemini;

/// Every hook event of Gemini CLI (0.61.0), in the doc's order (§2).
pub const EVENTS: &[&str] = &[
    "SessionStart",
    "SessionEnd",
    "BeforeAgent",
    "AfterAgent",
    "BeforeModel",
    "BeforeToolSelection",
    "AfterModel",
    "BeforeTool",
    "AfterTool",
    "PreCompress",
    "Notification",
];

/// The unified kind of a native event name (`other` when unmapped).
/// `AfterTool` is `tool.post` here; [`decode`] makes it `tool.error` when
/// `tool_response.error` is present.
pub fn kind_of(native: &str) -> Kind {
    match native {
        "SessionStart" => Kind::SessionStart,
        "SessionEnd" => Kind::SessionEnd,
        "BeforeAgent" => Kind::PromptSubmitted,
        "AfterAgent" => Kind::AgentStop,
        "BeforeModel" => Kind::ModelRequest,
        "AfterModel" => Kind::ModelResponse,
        "BeforeTool" => Kind::ToolPre,
        "AfterTool" => Kind::ToolPost,
        "PreCompress" => Kind::CompactPre,
        "Notification" => Kind::Notification,
        // BeforeToolSelection: see the module doc.
        _ => Kind::Other,
    }
}

/// The capability row of a native event.
pub fn capability(native: &str) -> Capability {
    let kind = kind_of(native);
    let (block, decisions, mods): (bool, &[D], &[&'static str]) = match native {
        // `allow` is neutral on the wire (not offered); `ask` hangs
        // headless, so it is offered only in a session known to be
        // interactive (see the module doc). Context is ignored here (e2e).
        "BeforeTool" => (
            true,
            &[D::NoDecision, D::Deny, D::Ask],
            &[
                "updated_input",
                "system_message",
                "stop_agent",
                "block_reason",
            ],
        ),
        "BeforeAgent" => (
            true,
            &[D::NoDecision, D::AcceptPrompt, D::BlockPrompt],
            &["context", "system_message", "stop_agent", "block_reason"],
        ),
        "AfterAgent" => (
            true,
            &[D::NoDecision, D::Finish, D::Continue],
            &["system_message"],
        ),
        // A block hides the output and hands the model the reason as the
        // tool error; there is no way to substitute output text (the source
        // never reads `tool_output`), so replace_output degrades to a flag.
        "AfterTool" => (
            false,
            &[D::NoDecision, D::Observed, D::FlagOutput],
            &["context", "system_message", "stop_agent"],
        ),
        "SessionStart" => (false, &[D::NoDecision], &["context", "system_message"]),
        // Block / synthetic response / chunk replacement: `native` only.
        "BeforeModel" | "AfterModel" => (true, &[D::NoDecision], &["system_message"]),
        "SessionEnd" | "PreCompress" | "Notification" => {
            (false, &[D::NoDecision], &["system_message"])
        }
        // BeforeToolSelection honours only `toolConfig` (via `native`);
        // unknown events: nothing is known to be read.
        _ => (false, &[D::NoDecision], &[]),
    };
    let cap = Capability::new(P, native, kind, block, decisions, mods);
    if native == "BeforeTool" {
        cap.only_when(D::Ask, crate::capability::INTERACTIVE_ONLY)
    } else {
        cap
    }
}

/// Decodes a Gemini CLI payload.
pub fn decode(map: Map<String, Value>, opts: &DecodeOptions) -> Result<Event, Error> {
    let mut f = Fields::new(map);
    let native = f.event_name("hook_event_name", P, opts)?;
    let mut ev = Event::new(P, native.clone(), kind_of(&native));
    // No model, permission mode or turn id in any payload (§3.1); the model
    // of the model events is `llm_request.model`.
    ev.session = SessionInfo {
        id: f.id("session_id")?.unwrap_or_default(),
        cwd: f.str("cwd")?.unwrap_or_default(),
        transcript_path: f.str("transcript_path")?.unwrap_or_default(),
        model: match f.object("llm_request")? {
            Some(req) => nested_str(req, "model", "llm_request.model")?.unwrap_or_default(),
            None => String::new(),
        },
        ..SessionInfo::default()
    };
    match native.as_str() {
        "BeforeTool" | "AfterTool" => decode_tool(&mut f, &mut ev)?,
        "BeforeAgent" => ev.prompt = f.str("prompt")?,
        "AfterAgent" => {
            ev.prompt = f.str("prompt")?;
            ev.stop = Some(StopInfo {
                previously_continued: f.bool("stop_hook_active")?.unwrap_or(false),
                loop_count: None,
                final_message: f.str("prompt_response")?,
                usage: Default::default(),
            });
        }
        "AfterModel" => {
            if let Some(resp) = f.object("llm_response")? {
                ev.message = chunk_text(resp)?;
            }
        }
        "SessionStart" => ev.source = f.str("source")?,
        "SessionEnd" => ev.reason = f.str("reason")?,
        "PreCompress" => ev.trigger = f.str("trigger")?,
        "Notification" => ev.message = f.str("message")?,
        _ => {}
    }
    Ok(ev)
}

/// BeforeTool / AfterTool: the call, MCP attribution, output and failure.
fn decode_tool(f: &mut Fields, ev: &mut Event) -> Result<(), Error> {
    let name = f.str("tool_name")?.unwrap_or_default();
    let raw_input = f.take("tool_input");
    let mut tool = ToolCall::new(P, &name, raw_input, None);
    if let Some(ctx) = f.object("mcp_context")? {
        apply_mcp_context(&mut tool, ctx)?;
    }
    if !name.is_empty() {
        tool.synthesize_id(&ev.session.id, &ev.session.turn_id);
        ev.tool = Some(tool);
    }
    if ev.native_name == "AfterTool" {
        let error = match f.map.get("tool_response") {
            Some(Value::Object(resp)) => tool_error(resp)?,
            _ => None,
        };
        if let Some(message) = error {
            ev.kind = Kind::ToolError;
            ev.failed = true;
            ev.error = message;
        }
        ev.set_output(f.take("tool_response"));
    }
    Ok(())
}

/// `mcp_context` (§3.3) wins over parsing `mcp_<server>_<tool>`, which cuts
/// a server name containing `_` at its first `_`.
fn apply_mcp_context(tool: &mut ToolCall, ctx: &Map<String, Value>) -> Result<(), Error> {
    let server = nested_str(ctx, "server_name", "mcp_context.server_name")?;
    let own_name = nested_str(ctx, "tool_name", "mcp_context.tool_name")?;
    let url = nested_str(ctx, "url", "mcp_context.url")?;
    let command = nested_str(ctx, "command", "mcp_context.command")?;
    if server.is_none() && own_name.is_none() && url.is_none() && command.is_none() {
        return Ok(());
    }
    let m = tool.mcp.get_or_insert_with(McpInfo::default);
    if let Some(s) = server {
        if own_name.is_none() {
            // Re-split the name with the known server: `mcp_my_srv_do`.
            if let Some(rest) = tool
                .name
                .strip_prefix("mcp_")
                .and_then(|r| r.strip_prefix(s.as_str()))
                .and_then(|r| r.strip_prefix('_'))
                .filter(|r| !r.is_empty())
            {
                m.tool = rest.to_string();
            }
        }
        m.server = s;
    }
    if let Some(t) = own_name {
        m.tool = t;
    }
    m.url = url;
    m.command = command;
    tool.canonical = Canonical::Mcp;
    Ok(())
}

/// `tool_response.error`: an object `{message, type?}` (§3.2); a bare
/// string is accepted too. `Some(None)` = failed without a message.
fn tool_error(resp: &Map<String, Value>) -> Result<Option<Option<String>>, Error> {
    match resp.get("error") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(Some(s.clone()).filter(|s| !s.is_empty()))),
        Some(Value::Object(e)) => Ok(Some(nested_str(
            e,
            "message",
            "tool_response.error.message",
        )?)),
        Some(other) => Err(wrong("tool_response.error", "an object", other)),
    }
}

/// The text of one streamed AfterModel chunk: `llm_response.text` (e2e),
/// else the string parts of the first candidate (the documented shape).
fn chunk_text(resp: &Map<String, Value>) -> Result<Option<String>, Error> {
    if let Some(t) = nested_str(resp, "text", "llm_response.text")? {
        return Ok(Some(t));
    }
    let parts = resp
        .get("candidates")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .and_then(|c| c.get("content"))
        .and_then(|c| c.get("parts"))
        .and_then(Value::as_array);
    let text: String = parts
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    Ok(Some(text).filter(|t| !t.is_empty()))
}

/// A string inside a nested object (`null`, absent and `""` are `None`).
fn nested_str(m: &Map<String, Value>, key: &str, path: &str) -> Result<Option<String>, Error> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(wrong(path, "a string", other)),
    }
}

/// Gemini-only rules on top of the capability table: input rewrites.
fn refine(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Decision, Error> {
    let mut d = d.clone();
    if ev.kind != Kind::ToolPre || d.updated_input.is_none() {
        return Ok(d);
    }
    let strict = policy.unsupported == Unsupported::Strict;
    if d.kind == D::Deny {
        if strict {
            return Err(Error::UnsupportedDecision {
                provider: P.id(),
                event: ev.native_name.clone(),
                what: "updated_input".into(),
            });
        }
        notes.push(Note::new(
            "dropped",
            Some("updated_input"),
            None,
            "the tool does not run after a deny, so its input rewrite is not sent",
        ));
        d.updated_input = None;
        return Ok(d);
    }
    let original = ev.tool.as_ref().map(|t| &t.input);
    let updated = d.updated_input.as_ref();
    let removed: Vec<&str> = original
        .into_iter()
        .flat_map(|m| m.keys())
        .filter(|k| updated.is_some_and(|u| !u.contains_key(*k)))
        .map(String::as_str)
        .collect();
    if !removed.is_empty() {
        let detail = format!(
            "the rewrite removes {}; Gemini CLI before v0.36.0 (and the next hook in \
             sequential mode) shallow-merges tool_input, so removed keys survive there",
            removed.join(", ")
        );
        if strict {
            return Err(Error::LossyUpdate {
                provider: P.id(),
                event: ev.native_name.clone(),
                detail,
            });
        }
        notes.push(Note::new(
            "lossy_update",
            Some("updated_input"),
            None,
            detail,
        ));
    }
    Ok(d)
}

/// Encodes a (planned) decision into Gemini CLI's exact answer: always one
/// JSON object on stdout, exit 0, nothing on stderr.
pub fn encode(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Response, Error> {
    let d = refine(ev, d, policy, notes)?;
    let native = ev.native_name.as_str();
    let mut out = Map::new();
    let mut hso = Map::new();
    let mut system_message = d.system_message.clone();
    let nonempty = |s: Option<String>| s.filter(|r| !r.trim().is_empty());
    let mut deny = |reason: String| {
        out.insert("decision".into(), json!("deny"));
        out.insert("reason".into(), json!(reason));
    };
    match ev.kind {
        Kind::ToolPre => {
            if d.kind == D::Deny {
                // The model gets `Tool execution blocked: <reason>`.
                deny(nonempty(d.reason.clone()).unwrap_or_else(|| "Blocked by hook.".into()));
                if system_message.is_none() {
                    system_message = d.block_reason.clone();
                }
            }
            if d.kind == D::Ask {
                // Planned only in a session known to be interactive: the
                // prompt shows `systemMessage`, not the reason.
                out.insert("decision".into(), json!("ask"));
                if let Some(r) = nonempty(d.reason.clone()) {
                    out.insert("reason".into(), json!(r));
                    if system_message.is_none() {
                        system_message = Some(r);
                    }
                }
            }
            if let Some(u) = &d.updated_input {
                hso.insert("tool_input".into(), Value::Object(u.clone()));
            }
        }
        Kind::PromptSubmitted => {
            if d.kind == D::BlockPrompt {
                // No model call follows: the reason reaches the user only
                // (`Agent execution blocked: <reason>`), so the human-facing
                // text comes first.
                deny(
                    nonempty(d.block_reason.clone())
                        .or_else(|| nonempty(d.reason.clone()))
                        .unwrap_or_else(|| "Prompt blocked by hook.".into()),
                );
            }
        }
        Kind::AgentStop => {
            if d.kind == D::Continue {
                // Sent to the model as a new user message; the CLI has no
                // effective loop guard (§5), the runtime's counter is it.
                deny(
                    nonempty(d.instruction.clone())
                        .or_else(|| nonempty(d.reason.clone()))
                        .unwrap_or_else(|| "Continue.".into()),
                );
            }
        }
        Kind::ToolPost | Kind::ToolError => {
            if d.kind == D::FlagOutput {
                // The model gets the bare reason as the tool error instead of
                // the output (e2e, quirk 13); a replace_output degraded to a
                // flag therefore sends its replacement text.
                let replacement = d.replaced_output.as_ref().map(value_text);
                deny(
                    nonempty(replacement)
                        .or_else(|| nonempty(d.reason.clone()))
                        .unwrap_or_else(|| "Tool output withheld by hook.".into()),
                );
            }
        }
        _ => {}
    }
    if let Some(ctx) = join_context(&d.context) {
        hso.insert("additionalContext".into(), json!(ctx));
    }
    if let Some(stop) = &d.stop_agent {
        out.insert("continue".into(), json!(false));
        if let Some(r) = &stop.reason {
            out.insert("stopReason".into(), json!(r));
        }
    }
    if let Some(sm) = system_message {
        out.insert("systemMessage".into(), json!(sm));
    }
    if !hso.is_empty() {
        let mut h = Map::new();
        h.insert("hookEventName".into(), json!(native));
        h.extend(hso);
        out.insert("hookSpecificOutput".into(), Value::Object(h));
    }
    if let Some(n) = &d.native {
        merge_native(&mut out, n);
        if let Some(Value::Object(h)) = out.get_mut("hookSpecificOutput") {
            h.entry("hookEventName").or_insert_with(|| json!(native));
        }
    }
    Ok(Response::json(&Value::Object(out)))
}

/// The answer when the payload could not be decoded (the event is unknown),
/// per fail posture. Open: `{}`, the explicit no-op every event reads as
/// neutral. Closed: a JSON `deny`, which blocks every event that can block
/// (BeforeTool, AfterTool, BeforeAgent, AfterAgent, BeforeModel, AfterModel)
/// and is ignored by the advisory ones; exit 0, since JSON beats the exit
/// code and a bare exit 2 without text does not block at all (quirk 2).
/// On AfterAgent a deny means "run again" with no effective loop guard (§5),
/// so when the bytes still name AfterAgent, `fail_response_for_payload`
/// answers the fail-open `{}` instead (logged only). The diagnostic goes to
/// stderr, which the CLI does not read while stdout holds JSON.
pub fn undecodable(fail: Fail, diag: &str) -> Response {
    let stdout = match fail {
        Fail::Open => json!({}),
        Fail::Closed => json!({
            "decision": "deny",
            "reason": "Blocked because the hook could not read its input; policy is fail-closed."
        }),
    };
    let mut r = Response::json(&stdout);
    if fail == Fail::Closed {
        let diag = diag.trim_end();
        r.stderr = format!("{diag} (fail-closed: block)\n");
    }
    r
}

/// Tool names (`dialect::tool_names` has the sources and the rules).
/// Gemini CLI.
pub(crate) fn tool_class(name: &str) -> Option<crate::model::Canonical> {
    use crate::model::Canonical::{
        Fetch, FileEdit, FileRead, FileWrite, Other, Search, Shell, Task as Subagent,
    };
    Some(match name {
        "run_shell_command" => Shell,
        "read_file" | "read_many_files" => FileRead,
        "write_file" => FileWrite,
        "replace" => FileEdit,
        // `search_file_content`: older grep tool; `grep`, `ls`: names written
        // by `gemini hooks migrate` (no current tool has them).
        "glob" | "grep_search" | "search_file_content" | "list_directory" | "grep" | "ls" => Search,
        "web_fetch" | "google_web_search" => Fetch,
        "invoke_agent" => Subagent,
        // The MCP resource tools are built-ins, not tools of an MCP server.
        "write_todos" | "ask_user" | "activate_skill" | "enter_plan_mode" | "exit_plan_mode"
        | "read_mcp_resource" | "list_mcp_resources" | "complete_task" | "update_topic"
        | "get_internal_docs" => Other,
        _ => return None,
    })
}

/// MCP tool names: `(server, tool)` (shapes in `dialect::tool_names`).
pub(crate) fn mcp_name(name: &str) -> Option<(&str, &str)> {
    use super::tool_names::{double_underscore, qualified, single_underscore};
    double_underscore(name)
        .or_else(|| single_underscore(name))
        .or_else(|| qualified(name))
}

/// Everything about this agent, for [`super::agent`].
pub(crate) static AGENT: super::Agent = super::Agent {
    provider: Provider::Gemini,
    events: EVENTS,
    capability,
    tool_class,
    mcp_name,
    variant: super::no_variant,
    quirks: quirks::QUIRKS,
    quirk_section: "§6",
    research: "gemini-cli.md",
    page: "docs/agents/gemini.md",
    decode,
    encode,
    lazy_output: &[],
    undecodable: Some(undecodable),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_has_a_row_and_neutral_is_explicit_json() {
        for native in EVENTS {
            let cap = capability(native);
            assert!(cap.decisions.contains(&D::NoDecision), "{native}");
            let ev = Event::new(P, *native, kind_of(native));
            let r = encode(
                &ev,
                &Decision::no_decision(),
                &Policy::default(),
                &mut vec![],
            )
            .unwrap();
            assert_eq!(r.stdout, "{}", "{native}");
            assert_eq!(r.exit_code, 0);
        }
        assert_eq!(kind_of("BeforeToolSelection"), Kind::Other);
        assert_eq!(undecodable(Fail::Open, "x").stdout, "{}");
        assert_eq!(undecodable(Fail::Closed, "x").exit_code, 0);
    }
}
