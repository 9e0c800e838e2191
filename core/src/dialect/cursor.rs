//! Cursor (IDE, CLI `agent`, cloud/background agents).
//!
//! Wire facts: `docs/protocols/cursor.md`. Event names are camelCase
//! (`hook_event_name`), payload and answer keys snake_case. The answer is
//! always one JSON object on stdout with exit 0; the no-op is exactly `{}`
//! on every event (empty stdout counts as a failure and blocks under
//! `failClosed`, §4.1/§4.7). Rules the capability table cannot express
//! (`ask` only on old builds, output replacement only for MCP tools, the
//! 10 000-character context limit) live in [`refine`].
//!
//! Cursor fires a generic and a specific hook for one tool call
//! (`preToolUse` + `beforeShellExecution`, ...); both decode to the same
//! kind and class, and `crate::dedupe` suppresses the second one.

mod quirks;

use serde_json::{Map, Value, json};

use super::DecodeOptions;
use super::common::merge_native;
use super::fields::Fields;
use crate::capability::{ASK_FALLBACK_REASON, Capability, value_text};
use crate::error::Error;
use crate::model::{
    AgentInfo, AskFallback, Canonical, Decision, DecisionKind as D, Event, Fail, Kind, McpInfo,
    Note, Policy, Provider, Response, SessionInfo, StopInfo, ToolCall, Unsupported, Usage,
};

const P: Provider = Provider::Cursor;

/// Every hook event Cursor is known to send (cursor.md §2), in table order.
pub const EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "beforeSubmitPrompt",
    "preToolUse",
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
    "postToolUse",
    "postToolUseFailure",
    "afterShellExecution",
    "afterMCPExecution",
    "afterFileEdit",
    "beforeTabFileRead",
    "afterTabFileEdit",
    "stop",
    "subagentStart",
    "subagentStop",
    "preCompact",
    "afterAgentResponse",
    "afterAgentThought",
    "workspaceOpen",
];

/// The generic tool events; the others are the per-tool ("specific") ones.
const GENERIC_TOOL_EVENTS: &[&str] = &["preToolUse", "postToolUse", "postToolUseFailure"];

/// The permission-style events (`permission` field).
const PERMISSION_EVENTS: &[&str] = &[
    "preToolUse",
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
];

/// Cursor drops an `additional_context` longer than this (after trimming)
/// entirely, rather than truncating it (§4.5); JavaScript string length,
/// i.e. UTF-16 code units.
pub const MAX_CONTEXT_UNITS: usize = 10_000;

/// The unified kind of a native event name (`other` when unmapped).
pub fn kind_of(native: &str) -> Kind {
    match native {
        "sessionStart" => Kind::SessionStart,
        "sessionEnd" => Kind::SessionEnd,
        "beforeSubmitPrompt" => Kind::PromptSubmitted,
        "preToolUse" | "beforeShellExecution" | "beforeMCPExecution" | "beforeReadFile" => {
            Kind::ToolPre
        }
        "postToolUse" | "afterShellExecution" | "afterMCPExecution" => Kind::ToolPost,
        "postToolUseFailure" => Kind::ToolError,
        "afterFileEdit" | "afterTabFileEdit" => Kind::FileEdited,
        "stop" => Kind::AgentStop,
        "subagentStart" => Kind::SubagentStart,
        "subagentStop" => Kind::SubagentStop,
        "preCompact" => Kind::CompactPre,
        "afterAgentResponse" | "afterAgentThought" => Kind::ModelResponse,
        _ => Kind::Other,
    }
}

/// Whether a native event is one of the generic tool events
/// (`preToolUse`, `postToolUse`, `postToolUseFailure`).
pub fn is_generic_tool_event(native: &str) -> bool {
    GENERIC_TOOL_EVENTS.contains(&native)
}

/// The capability row of a native event (§4.2).
pub fn capability(native: &str) -> Capability {
    let kind = kind_of(native);
    let (block, decisions, mods): (bool, &[D], &[&'static str]) = match native {
        // `updated_input` is honoured only here; `ask` is ignored here.
        "preToolUse" => (
            true,
            &[D::NoDecision, D::Allow, D::Deny],
            &["updated_input", "system_message", "block_reason"],
        ),
        // `ask` only on builds where Cursor enforces it (see `refine`).
        "beforeShellExecution" | "beforeMCPExecution" => (
            true,
            &[D::NoDecision, D::Allow, D::Deny, D::Ask],
            &["system_message", "block_reason"],
        ),
        // `permission` allow/deny only, no messages.
        "beforeReadFile" => (true, &[D::NoDecision, D::Allow, D::Deny], &[]),
        "beforeSubmitPrompt" => (
            true,
            &[D::NoDecision, D::AcceptPrompt, D::BlockPrompt],
            &["context", "system_message", "stop_agent", "block_reason"],
        ),
        // A flag is context appended after the tool result; replacement
        // only for MCP tools (see `refine`).
        "postToolUse" | "postToolUseFailure" => (
            false,
            &[D::NoDecision, D::Observed, D::FlagOutput, D::ReplaceOutput],
            &["context"],
        ),
        "afterMCPExecution" => (false, &[D::NoDecision, D::Observed, D::ReplaceOutput], &[]),
        "afterShellExecution" => (false, &[D::NoDecision, D::Observed], &[]),
        "stop" | "subagentStop" => (true, &[D::NoDecision, D::Finish, D::Continue], &[]),
        "sessionStart" => (false, &[D::NoDecision], &["context"]),
        // Gated by `permission` allow/deny, reachable through `native` only.
        "subagentStart" | "beforeTabFileRead" => (true, &[D::NoDecision], &[]),
        "preCompact" => (false, &[D::NoDecision], &["system_message"]),
        _ => (false, &[D::NoDecision], &[]),
    };
    let cap = Capability::new(P, native, kind, block, decisions, mods);
    match native {
        "beforeShellExecution" | "beforeMCPExecution" => cap.only_when(
            D::Ask,
            "the payload's `cursor_version` is older than 2.4.21 (later builds do not enforce `ask`)",
        ),
        "postToolUse" | "postToolUseFailure" => {
            cap.only_when(D::ReplaceOutput, "the tool is an MCP tool")
        }
        _ => cap,
    }
}

/// Decodes a Cursor payload.
pub fn decode(map: Map<String, Value>, opts: &DecodeOptions) -> Result<Event, Error> {
    let mut f = Fields::new(map);
    let native = f.event_name("hook_event_name", P, opts)?;
    let kind = kind_of(&native);
    let mut ev = Event::new(P, native.clone(), kind);

    let roots = f.strings("workspace_roots")?;
    let cwd = match f.str("cwd")? {
        Some(c) => c,
        None => roots.first().cloned().unwrap_or_default(),
    };
    ev.session = SessionInfo {
        id: match f.id("conversation_id")? {
            Some(id) => id,
            None => f.id("session_id")?.unwrap_or_default(),
        },
        turn_id: f.id("generation_id")?.unwrap_or_default(),
        cwd,
        workspace_roots: roots,
        transcript_path: f.str("transcript_path")?.unwrap_or_default(),
        model: match f.str("model")? {
            Some(m) => m,
            None => f.str("model_id")?.unwrap_or_default(),
        },
        permission_mode: String::new(),
        user_email: f.str("user_email")?.unwrap_or_default(),
    };
    ev.variant = match opts.variant.as_deref().filter(|v| !v.is_empty()) {
        Some(v) => v.to_string(),
        None => {
            // The fields the variant reads must have their types.
            f.bool("is_background_agent")?;
            f.str("cursor_version")?;
            f.str("composer_mode")?;
            variant(&f.map, None).unwrap_or_default().to_string()
        }
    };
    if let Some(id) = f.id("subagent_id")? {
        ev.agent = Some(AgentInfo {
            id,
            r#type: f.str_keep_empty("subagent_type")?.unwrap_or_default(),
        });
    }

    ev.tool = decode_tool(&native, &mut f, &ev.session)?;
    ev.duration_ms = match f.u64("duration_ms")? {
        Some(ms) => Some(ms),
        None => f.u64("duration")?,
    };
    match native.as_str() {
        "beforeSubmitPrompt" => ev.prompt = f.str("prompt")?,
        "postToolUse" => ev.set_output(json_text(f.take("tool_output"))),
        "postToolUseFailure" => {
            ev.failed = true;
            ev.error = match f.str("error_message")? {
                Some(e) => Some(e),
                None => match f.take("error") {
                    Value::Null => None,
                    Value::String(s) if s.is_empty() => None,
                    other => Some(value_text(&other)),
                },
            };
        }
        "afterShellExecution" => ev.set_output(f.take("output")),
        "afterMCPExecution" => {
            let out = match f.take("result_json") {
                Value::Null => f.take("tool_response"),
                v => v,
            };
            ev.set_output(json_text(out));
        }
        "stop" => {
            let loop_count = f.u64("loop_count")?;
            ev.stop = Some(StopInfo {
                previously_continued: loop_count.is_some_and(|n| n > 0),
                loop_count,
                final_message: f.str("text")?,
                usage: Usage {
                    input_tokens: f.u64("input_tokens")?,
                    output_tokens: f.u64("output_tokens")?,
                    cache_read_tokens: f.u64("cache_read_tokens")?,
                    cache_write_tokens: f.u64("cache_write_tokens")?,
                    cost: f.view().f64("cost")?,
                    loop_count: None,
                    status: f.str("status")?,
                },
            });
        }
        "subagentStop" => {
            let loop_count = f.u64("loop_count")?;
            ev.stop = Some(StopInfo {
                previously_continued: loop_count.is_some_and(|n| n > 0),
                loop_count,
                final_message: f.str("summary")?,
                usage: Usage {
                    status: f.str("status")?,
                    ..Usage::default()
                },
            });
        }
        "subagentStart" => ev.instructions = f.str("task")?,
        "sessionEnd" => ev.reason = f.str("reason")?,
        "preCompact" => ev.trigger = f.str("trigger")?,
        "afterAgentResponse" | "afterAgentThought" => ev.message = f.str("text")?,
        "afterFileEdit" | "beforeTabFileRead" => ev.path = f.str("file_path")?,
        "afterTabFileEdit" => {
            ev.path = f.str("file_path")?;
            ev.source = Some("tab".into());
        }
        _ => {}
    }
    Ok(ev)
}

/// The tool call of a tool event: generic events name the tool; the
/// specific ones imply it (`Shell`, `Read`, an MCP tool) and carry no id.
fn decode_tool(
    native: &str,
    f: &mut Fields,
    session: &SessionInfo,
) -> Result<Option<ToolCall>, Error> {
    let mut tool = match native {
        "preToolUse" | "postToolUse" | "postToolUseFailure" => {
            let Some(name) = f.str("tool_name")? else {
                return Ok(None);
            };
            let raw_input = f.take("tool_input");
            // Kept verbatim: ids such as "call_…\nctc_…" contain a newline.
            let id = f.id("tool_use_id")?;
            ToolCall::new(P, &name, raw_input, id)
        }
        "beforeShellExecution" | "afterShellExecution" => {
            // The shape of the generic `Shell` input, so both siblings
            // share class and facet.
            let mut input = Map::new();
            if let Some(c) = f.str_keep_empty("command")? {
                input.insert("command".into(), Value::String(c));
            }
            if let Some(c) = f.str("cwd")? {
                input.insert("cwd".into(), Value::String(c));
            }
            implied_tool("Shell", input)
        }
        "beforeReadFile" => {
            let mut input = Map::new();
            if let Some(p) = f.str("file_path")? {
                input.insert("file_path".into(), Value::String(p));
            }
            implied_tool("Read", input)
        }
        "beforeMCPExecution" | "afterMCPExecution" => {
            let Some(name) = f.str("tool_name")? else {
                return Ok(None);
            };
            let raw_input = f.take("tool_input");
            let mut t = ToolCall::new(P, &name, raw_input, None);
            // Canonical `mcp` even without the `MCP:` prefix.
            if t.canonical != Canonical::Mcp {
                t.canonical = Canonical::Mcp;
                t.command = None;
            }
            let m = t.mcp.get_or_insert_with(|| McpInfo {
                tool: name.strip_prefix("MCP:").unwrap_or(&name).to_string(),
                ..McpInfo::default()
            });
            if m.server.is_empty() {
                // Read by one bridge (impl); not in the docs.
                m.server = f.str("mcp_server_name")?.unwrap_or_default();
            }
            m.url = f.str("url")?;
            m.command = f.str("command")?;
            t
        }
        _ => return Ok(None),
    };
    if tool.id.is_empty() {
        tool.synthesize_id(&session.id, &session.turn_id);
    }
    Ok(Some(tool))
}

/// A tool the event implies but does not name; the agent sent no
/// `tool_input`, so `raw_input` stays absent.
fn implied_tool(name: &str, input: Map<String, Value>) -> ToolCall {
    let mut t = ToolCall::new(P, name, Value::Object(input), None);
    t.raw_input = Value::Null;
    t
}

/// The variant the payload shows (the one rule: decoding uses it, and so
/// does detection, `detect::detect`, which adds `CURSOR_VERSION` from the
/// environment as `env_version`), cursor.md §6.1:
///
/// 1. `is_background_agent: true` → `cloud`;
/// 2. a `cursor_version` (else `env_version`) that is a dated build
///    (`YYYY.MM.DD`, alone or followed by `-<build>`, e.g.
///    `2026.09.18-9a7762b`) → `cli`;
/// 3. one that is an app version (`major.minor[.patch][-pre]`, numeric,
///    major below 1000 so that no date reads as one, e.g. `2.0.77`) → `ide`;
/// 4. a non-empty string `composer_mode` (IDE only) → `ide`;
/// 5. otherwise none. Fields of another type are ignored here (decoding
///    reports them as `wrong_type` before asking).
///
/// `fixtures/cursor/sessionstart-variant-*.json` pin the cases where the
/// two copies this replaced disagreed.
pub(crate) fn variant(
    payload: &Map<String, Value>,
    env_version: Option<&str>,
) -> Option<&'static str> {
    if payload.get("is_background_agent") == Some(&Value::Bool(true)) {
        return Some("cloud");
    }
    let version = match payload.get("cursor_version") {
        Some(Value::String(v)) if !v.is_empty() => Some(v.as_str()),
        _ => env_version.filter(|v| !v.is_empty()),
    };
    if let Some(v) = version {
        if is_dated_build(v) {
            return Some("cli");
        }
        if semver(v).is_some_and(|(major, _, _)| major < 1000) {
            return Some("ide");
        }
    }
    match payload.get("composer_mode") {
        Some(Value::String(m)) if !m.is_empty() => Some("ide"),
        _ => None,
    }
}

/// `YYYY.MM.DD`, alone or followed by `-<build>` (cursor.md §6.1).
fn is_dated_build(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'.'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'.'
        && b[8..10].iter().all(u8::is_ascii_digit)
        && (b.len() == 10 || b[10] == b'-')
}

/// `major.minor[.patch]` of an IDE version (`2.0.77`), `None` for CLI builds.
fn semver(v: &str) -> Option<(u64, u64, u64)> {
    if is_dated_build(v) {
        return None;
    }
    let core = v.split(['-', '+', ' ']).next()?;
    let mut parts = core.split('.').map(|p| p.parse::<u64>().ok());
    let major = parts.next()??;
    let minor = parts.next()??;
    let patch = match parts.next() {
        Some(p) => p?,
        None => 0,
    };
    Some((major, minor, patch))
}

/// A JSON-encoded string (`tool_output`, `result_json`) parsed when it
/// holds an object or array; anything else stays as sent.
fn json_text(v: Value) -> Value {
    if let Value::String(s) = &v {
        let t = s.trim_start();
        if t.starts_with('{') || t.starts_with('[') {
            if let Ok(parsed) = super::json::parse_value(s) {
                return parsed;
            }
        }
    }
    v
}

/// Whether Cursor enforces `permission: "ask"` for this event: only
/// `beforeShellExecution` / `beforeMCPExecution` on IDE builds before
/// 2.4.21 (§4.3: 2.4.21–2.x read it as deny, 3.x as allow; CLI builds and
/// unknown versions are unverified).
pub fn ask_enforced(ev: &Event) -> bool {
    if !matches!(
        ev.native_name.as_str(),
        "beforeShellExecution" | "beforeMCPExecution"
    ) {
        return false;
    }
    cursor_version(ev)
        .and_then(|v| semver(&v))
        .is_some_and(|v| v < (2, 4, 21))
}

/// The payload's `cursor_version`, if any.
fn cursor_version(ev: &Event) -> Option<String> {
    match ev.raw_json().get("cursor_version") {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    }
}

/// Cursor-only rules on top of the capability table.
fn refine(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Decision, Error> {
    let strict = policy.unsupported == Unsupported::Strict;
    let unsupported = |what: &str| Error::UnsupportedDecision {
        provider: P.id(),
        event: ev.native_name.clone(),
        what: what.to_string(),
    };
    let mut d = d.clone();
    if d.kind == D::Ask && !ask_enforced(ev) {
        if strict {
            return Err(unsupported("ask"));
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
            "Cursor does not enforce `ask` on this build (broken since 2.4.21)",
        ));
        d.kind = to;
    }
    let is_mcp = ev
        .tool
        .as_ref()
        .is_some_and(|t| t.canonical == Canonical::Mcp);
    if d.kind == D::ReplaceOutput && !is_mcp {
        if strict {
            return Err(unsupported("replace_output"));
        }
        notes.push(Note::new(
            "degraded",
            Some("replace_output"),
            Some("flag_output"),
            "Cursor replaces tool output only for MCP tools; the replacement is added as context",
        ));
        d.kind = D::FlagOutput;
        d.reason = d.replaced_output.take().map(|v| value_text(&v));
    }
    if ev.native_name == "beforeReadFile"
        && d.kind == D::Deny
        && d.reason.as_deref().is_some_and(|r| !r.trim().is_empty())
    {
        // `permission` is the whole answer here: the reason has no field.
        notes.push(Note::new(
            "dropped",
            Some("reason"),
            None,
            "Cursor's beforeReadFile answer has no message field",
        ));
    }
    if ev.native_name == "beforeSubmitPrompt"
        && d.system_message.is_some()
        && d.kind != D::BlockPrompt
        && d.stop_agent.is_none()
    {
        // `user_message` is shown only when the prompt is blocked.
        if strict {
            return Err(unsupported("system_message"));
        }
        notes.push(Note::new(
            "dropped",
            Some("system_message"),
            None,
            "Cursor shows user_message only for a blocked prompt",
        ));
        d.system_message = None;
    }
    Ok(d)
}

/// Encodes a (planned) decision into Cursor's exact answer.
pub fn encode(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Response, Error> {
    let d = refine(ev, d, policy, notes)?;
    let native = ev.native_name.as_str();
    let mut out = Map::new();
    let nonempty = |s: &Option<String>| s.clone().filter(|r| !r.trim().is_empty());
    let human = joined(&[nonempty(&d.block_reason), nonempty(&d.system_message)]);
    let mut context = d.context.clone();

    if PERMISSION_EVENTS.contains(&native) {
        let permission = match d.kind {
            D::Allow => Some("allow"),
            D::Deny => Some("deny"),
            D::Ask => Some("ask"),
            _ => None,
        };
        if let Some(p) = permission {
            out.insert("permission".into(), json!(p));
            // The 1.7 shape's `continue`, harmless next to a permission (§4.4).
            out.insert("continue".into(), json!(true));
        }
        if native != "beforeReadFile" {
            // reason → the model; block reason and system message → the UI.
            let blocking = matches!(d.kind, D::Deny | D::Ask);
            let reason = nonempty(&d.reason).filter(|_| blocking);
            // Builds before 2.0.64 read the 1.7 camelCase keys (§4.4).
            let camel = (reason.is_some() || human.is_some())
                && cursor_version(ev)
                    .and_then(|v| semver(&v))
                    .is_some_and(|v| v < (2, 0, 64));
            for (snake, camel_key, value) in [
                ("agent_message", "agentMessage", reason),
                ("user_message", "userMessage", human),
            ] {
                if let Some(v) = value {
                    if camel {
                        out.insert(camel_key.into(), json!(v));
                    }
                    out.insert(snake.into(), json!(v));
                }
            }
        }
        if native == "preToolUse" {
            if let Some(u) = &d.updated_input {
                out.insert("updated_input".into(), Value::Object(u.clone()));
            }
        }
    } else {
        match ev.kind {
            Kind::PromptSubmitted => {
                let block = d.kind == D::BlockPrompt;
                if block || d.stop_agent.is_some() {
                    out.insert("continue".into(), json!(false));
                    let stop_reason = d.stop_agent.as_ref().and_then(|s| nonempty(&s.reason));
                    let text = human
                        .or_else(|| nonempty(&d.reason).filter(|_| block))
                        .or(stop_reason);
                    if let Some(t) = text {
                        out.insert("user_message".into(), json!(t));
                    }
                }
            }
            Kind::ToolPost | Kind::ToolError => match d.kind {
                D::FlagOutput => {
                    if let Some(r) = nonempty(&d.reason) {
                        context.insert(0, r);
                    }
                }
                D::ReplaceOutput => {
                    let v = d.replaced_output.clone().unwrap_or(Value::Null);
                    out.insert("updated_mcp_tool_output".into(), mcp_output(v, notes));
                }
                _ => {}
            },
            Kind::AgentStop | Kind::SubagentStop => {
                if d.kind == D::Continue {
                    let text = nonempty(&d.instruction)
                        .or_else(|| nonempty(&d.reason))
                        .unwrap_or_else(|| "Continue.".into());
                    out.insert("followup_message".into(), json!(text));
                }
            }
            Kind::CompactPre => {
                if let Some(u) = human {
                    out.insert("user_message".into(), json!(u));
                }
            }
            _ => {}
        }
    }
    if let Some(ctx) = context_text(&context, notes) {
        out.insert("additional_context".into(), json!(ctx));
    }
    if let Some(n) = &d.native {
        merge_native(&mut out, n);
    }
    // Never empty stdout: `{}` is the no-op on every event.
    Ok(Response::json(&Value::Object(out)))
}

/// Non-empty parts joined by a blank line, or `None`.
fn joined(parts: &[Option<String>]) -> Option<String> {
    let v: Vec<&str> = parts.iter().flatten().map(String::as_str).collect();
    (!v.is_empty()).then(|| v.join("\n\n"))
}

/// Contexts joined by a blank line and trimmed; cut to Cursor's limit
/// (a longer value would be dropped whole) with a `truncated` note.
fn context_text(parts: &[String], notes: &mut Vec<Note>) -> Option<String> {
    let parts: Vec<&str> = parts
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect();
    if parts.is_empty() {
        return None;
    }
    let text = parts.join("\n\n");
    let mut units = 0;
    let mut cut = None;
    for (i, c) in text.char_indices() {
        if units + c.len_utf16() > MAX_CONTEXT_UNITS {
            cut = Some(i);
            break;
        }
        units += c.len_utf16();
    }
    match cut {
        None => Some(text),
        Some(i) => {
            notes.push(Note::new(
                "truncated",
                Some("context"),
                None,
                format!("Cursor drops additional_context over {MAX_CONTEXT_UNITS} characters"),
            ));
            Some(text[..i].trim_end().to_string())
        }
    }
}

/// `updated_mcp_tool_output` takes a string or `{content: [...]}`; other
/// JSON is sent as its text.
fn mcp_output(v: Value, notes: &mut Vec<Note>) -> Value {
    match v {
        Value::String(_) => v,
        Value::Object(ref m) if m.get("content").is_some_and(Value::is_array) => v,
        other => {
            notes.push(Note::new(
                "reshaped",
                Some("json"),
                Some("string"),
                "Cursor takes a string or {content:[...]} as updated_mcp_tool_output",
            ));
            Value::String(value_text(&other))
        }
    }
}

/// The answer when the payload could not be decoded, per fail posture:
/// `{}` is neutral on every event; exit 2 blocks every gating event
/// (deny on permission events, `continue:false` on prompts and session
/// start) and is ignored elsewhere, with stderr as the reason (§4.1).
pub fn undecodable(fail: Fail, diag: &str) -> Response {
    match fail {
        Fail::Open => Response {
            stdout: "{}".into(),
            ..Response::default()
        },
        Fail::Closed => super::common::exit2_block(P, diag),
    }
}

/// The payload an older Cursor CLI build passed as an argv argument
/// (§1.2): the last argument after the program name that is a JSON
/// object, with its index, byte for byte. The runtime uses it only when
/// stdin is empty (see [`resolve_payload`]).
pub fn argv_payload<S: AsRef<str>>(argv: &[S]) -> Option<(usize, Vec<u8>)> {
    argv.iter()
        .enumerate()
        .skip(1)
        .rev()
        .find(|(_, a)| {
            let t = a.as_ref().trim();
            t.starts_with('{')
                && t.ends_with('}')
                && super::parse_object(t.as_bytes(), super::DEFAULT_MAX_BYTES).is_ok()
        })
        .map(|(i, a)| (i, a.as_ref().as_bytes().to_vec()))
}

/// Removes the argv payload (if any) from `argv`, so the rest parses as
/// the normal `agenthooks run` arguments, and returns it.
pub fn take_argv_payload(argv: &mut Vec<String>) -> Option<Vec<u8>> {
    let (i, bytes) = argv_payload(argv)?;
    argv.remove(i);
    Some(bytes)
}

/// Stdin when it holds anything but whitespace, else the argv payload,
/// else stdin as read (§1.2 decoder advice).
pub fn resolve_payload<S: AsRef<str>>(stdin: Vec<u8>, argv: &[S]) -> Vec<u8> {
    if !stdin.iter().all(u8::is_ascii_whitespace) {
        return stdin;
    }
    match argv_payload(argv) {
        Some((_, bytes)) => bytes,
        None => stdin,
    }
}

/// Tool names (`dialect::tool_names` has the sources and the rules).
/// Cursor (generic `preToolUse`/`postToolUse` names).
pub(crate) fn tool_class(name: &str) -> Option<crate::model::Canonical> {
    use crate::model::Canonical::{
        Fetch, FileEdit, FileRead, FileWrite, Other, Search, Shell, Task as Subagent,
    };
    Some(match name {
        "Shell" => Shell,
        "Read" => FileRead,
        "Write" => FileWrite,
        "StrReplace" | "Delete" => FileEdit,
        "Grep" | "Glob" => Search,
        "WebFetch" => Fetch,
        "Task" => Subagent,
        "AskQuestion" => Other,
        _ => return None,
    })
}

/// MCP tool names: `(server, tool)` (shapes in `dialect::tool_names`).
pub(crate) fn mcp_name(name: &str) -> Option<(&str, &str)> {
    use super::tool_names::cursor_prefix;
    cursor_prefix(name)
}

/// Everything about this agent, for [`super::agent`].
/// Variant: [`variant`], with `CURSOR_VERSION` for a payload without `cursor_version`.
pub(crate) static AGENT: super::Agent = super::Agent {
    provider: Provider::Cursor,
    events: EVENTS,
    capability,
    tool_class,
    mcp_name,
    variant: |payload, env| variant(payload, env("CURSOR_VERSION").as_deref()),
    quirks: quirks::QUIRKS,
    quirk_section: "§6.2",
    research: "cursor.md",
    page: "docs/agents/cursor.md",
    decode,
    encode,
    lazy_output: &[("afterShellExecution", "output")],
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
    fn argv_payload_is_found_and_removed() {
        let p = r#"{"hook_event_name":"beforeShellExecution","command":"ls"}"#;
        let mut argv: Vec<String> = [
            "/usr/local/bin/guard",
            "agenthooks",
            "run",
            "--provider=cursor",
            p,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(argv_payload(&argv), Some((4, p.as_bytes().to_vec())));
        assert_eq!(take_argv_payload(&mut argv), Some(p.as_bytes().to_vec()));
        assert_eq!(argv.len(), 4);
        assert_eq!(
            crate::runtime::parse_args(&argv)
                .unwrap()
                .unwrap()
                .provider
                .as_deref(),
            Some("cursor")
        );
        assert_eq!(take_argv_payload(&mut argv), None);
    }

    #[test]
    fn argv_payload_ignores_non_objects_and_the_program() {
        assert_eq!(argv_payload(&["{\"a\":1}"]), None);
        assert_eq!(
            argv_payload(&["g", "[1]", "{not json}", "--match={x}"]),
            None
        );
        let argv = ["g", "{\"a\":1}", "agenthooks", "{\"b\":2}"];
        assert_eq!(argv_payload(&argv), Some((3, b"{\"b\":2}".to_vec())));
        // Byte for byte, surrounding whitespace included.
        let argv = ["g", " {\"a\":1}\n"];
        assert_eq!(argv_payload(&argv).unwrap().1, b" {\"a\":1}\n".to_vec());
    }

    #[test]
    fn stdin_wins_over_argv() {
        let argv = ["g", "{\"a\":1}"];
        assert_eq!(resolve_payload(b"{\"b\":2}".to_vec(), &argv), b"{\"b\":2}");
        assert_eq!(resolve_payload(b" \n".to_vec(), &argv), b"{\"a\":1}");
        assert_eq!(resolve_payload(Vec::new(), &["g"]), b"");
        let e = ev(std::str::from_utf8(&resolve_payload(
            Vec::new(),
            &[
                "g",
                r#"{"hook_event_name":"beforeShellExecution","conversation_id":"c","generation_id":"g","command":"ls"}"#,
            ],
        ))
        .unwrap());
        assert_eq!(e.tool.unwrap().command(), "ls");
    }

    #[test]
    fn one_variant_rule() {
        let v = |payload: serde_json::Value, env: Option<&str>| match payload {
            Value::Object(m) => variant(&m, env),
            _ => None,
        };
        assert_eq!(
            v(json!({"cursor_version": "2026.09.18-9a7762b"}), None),
            Some("cli")
        );
        assert_eq!(
            v(json!({"cursor_version": "2026.09.18"}), None),
            Some("cli")
        );
        assert_eq!(v(json!({"cursor_version": "2.0.77"}), None), Some("ide"));
        assert_eq!(v(json!({"cursor_version": "3.2"}), None), Some("ide"));
        assert_eq!(v(json!({"cursor_version": "2026.1"}), None), None);
        assert_eq!(v(json!({"cursor_version": "2026.9.18-9a77"}), None), None);
        assert_eq!(v(json!({"cursor_version": "v2"}), None), None);
        assert_eq!(v(json!({"composer_mode": "agent"}), None), Some("ide"));
        assert_eq!(v(json!({"composer_mode": null}), None), None);
        assert_eq!(
            v(
                json!({"is_background_agent": true, "cursor_version": "2.0.77"}),
                None
            ),
            Some("cloud")
        );
        assert_eq!(v(json!({}), Some("2026.09.18-9a7762b")), Some("cli"));
        assert_eq!(
            v(
                json!({"cursor_version": "2.0.77"}),
                Some("2026.09.18-9a7762b")
            ),
            Some("ide")
        );
    }

    #[test]
    fn versions() {
        assert_eq!(semver("2.0.77"), Some((2, 0, 77)));
        assert_eq!(semver("3.2"), Some((3, 2, 0)));
        assert_eq!(semver("2026.09.18-9a7762b"), None);
        assert!(is_dated_build("2026.09.18-9a7762b"));
        assert!(!is_dated_build("2.4.21"));
        let shell = |v: &str| {
            ev(&format!(
                r#"{{"hook_event_name":"beforeShellExecution","cursor_version":"{v}","command":"ls"}}"#
            ))
        };
        assert!(ask_enforced(&shell("2.4.20")));
        assert!(!ask_enforced(&shell("2.4.21")));
        assert!(!ask_enforced(&shell("3.2.16")));
        assert!(!ask_enforced(&shell("2026.02.13-41ac335")));
    }

    #[test]
    fn long_context_is_cut_to_the_limit() {
        let e = ev(r#"{"hook_event_name":"sessionStart","conversation_id":"c"}"#);
        let long = "é".repeat(MAX_CONTEXT_UNITS + 5);
        let r = dialect::respond(
            &e,
            &Decision::no_decision().with_context(long),
            &Policy::default(),
        )
        .unwrap();
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        let ctx = v["additional_context"].as_str().unwrap();
        assert_eq!(ctx.encode_utf16().count(), MAX_CONTEXT_UNITS);
        assert_eq!(r.notes.len(), 1);
        assert_eq!(r.notes[0].code, "truncated");
        // An emoji is two UTF-16 units and is never split.
        let long = format!("a{}", "😀".repeat(MAX_CONTEXT_UNITS / 2));
        let r = dialect::respond(
            &e,
            &Decision::no_decision().with_context(long),
            &Policy::default(),
        )
        .unwrap();
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        let n = v["additional_context"]
            .as_str()
            .unwrap()
            .encode_utf16()
            .count();
        assert_eq!(n, MAX_CONTEXT_UNITS - 1);
        let ok = "x".repeat(MAX_CONTEXT_UNITS);
        let r = dialect::respond(
            &e,
            &Decision::no_decision().with_context(ok),
            &Policy::default(),
        )
        .unwrap();
        assert!(r.notes.is_empty());
    }

    #[test]
    fn every_event_answers_braces_for_no_decision() {
        for name in EVENTS.iter().chain(["somethingNew"].iter()) {
            let e = ev(&format!(
                r#"{{"hook_event_name":"{name}","conversation_id":"c","generation_id":"g","tool_name":"MCP:x","command":"ls"}}"#
            ));
            let r = dialect::respond(&e, &Decision::no_decision(), &Policy::default()).unwrap();
            assert_eq!(r.stdout, "{}", "{name}");
            assert_eq!(r.exit_code, 0);
            assert_eq!(capability(name).kind, kind_of(name));
        }
    }
}
