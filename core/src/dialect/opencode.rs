//! OpenCode: in-process plugin hooks, bridged by the agenthooks plugin.
//!
//! Wire facts: `docs/protocols/opencode.md` (e2e on 1.18.33). OpenCode has
//! no hook process: a plugin receives `(input, output)` objects, mutates
//! `output` in place or throws, and sees bus events through one `event`
//! hook. Our plugin (`bindings/node/plugins/opencode.js`) turns each call
//! into one JSON **frame**, the payload decoded here:
//!
//! ```text
//! {"hook": "<named hook or bus event type>",
//!  "input": {...},            // hook input, or the bus event's `properties`
//!  "output": {...},           // the live output object (named hooks only)
//!  "plugin": {                // facts the plugin adds (all optional)
//!    "directory", "worktree", "version",
//!    "mcp": {"<server>": {"type","command","url","enabled"}} | ["<server>", ...],
//!    "parent_session_id",     // the session is a child (subagent) of this one
//!    "final_message",         // session.idle: last assistant text, read via the SDK
//!    "loop_count"},           // session.idle: consecutive continuations so far
//!  "seq": n}                  // bridge frames only; ignored here
//! ```
//!
//! The answer ("wire") is one JSON **action object** on stdout that the
//! plugin applies to the live objects, or empty stdout for "no opinion"
//! (every hook's no-op is to do nothing, §4.3). Keys, applied in this
//! order: `args` (make `output.args` equal this object **in place**: a
//! reassignment is ignored by OpenCode, quirk 4), `set` (dotted path →
//! value assigned into `output`), `append` (dotted path → text appended to
//! the string there), `push` (dotted path → items appended to the array
//! there), `reply` (answer a `permission.asked` request through OpenCode's
//! API, §4.4), `prompt` (send a prompt into a session, §4.5), `throw`
//! (throw `new Error(throw)`: blocks a tool, aborts a prompt, §4.2).
//! `docs/canonical-json.md` has the full table.

mod quirks;

use serde_json::{Map, Value, json};

use super::DecodeOptions;
use super::common::{finish, merge_native};
use super::fields::{Fields, Obj, wrong};
use crate::capability::{Capability, value_text};
use crate::error::Error;
use crate::model::{
    AgentInfo, Canonical, Decision, DecisionKind as D, Event, Fail, Kind, McpInfo, Note, Policy,
    Provider, Response, SessionInfo, StopInfo, ToolCall, Unsupported,
};

const P: Provider = Provider::Opencode;

/// Every hook OpenCode 1.18.33 documents or sends: the named hooks (§2.1,
/// table order), then the bus events (§2.2: the documented list, then the
/// ones only observed).
pub const EVENTS: &[&str] = &[
    "chat.message",
    "chat.params",
    "chat.headers",
    "tool.execute.before",
    "tool.execute.after",
    "permission.ask",
    "command.execute.before",
    "shell.env",
    "tool.definition",
    "experimental.chat.messages.transform",
    "experimental.chat.system.transform",
    "experimental.session.compacting",
    "experimental.compaction.autocontinue",
    "experimental.text.complete",
    "experimental.provider.small_model",
    "config",
    "dispose",
    "command.executed",
    "file.edited",
    "file.watcher.updated",
    "installation.updated",
    "lsp.client.diagnostics",
    "lsp.updated",
    "message.part.removed",
    "message.part.updated",
    "message.part.delta",
    "message.removed",
    "message.updated",
    "permission.asked",
    "permission.replied",
    "permission.updated",
    "server.connected",
    "server.instance.disposed",
    "session.created",
    "session.compacted",
    "session.deleted",
    "session.diff",
    "session.error",
    "session.idle",
    "session.status",
    "session.updated",
    "todo.updated",
    "tui.prompt.append",
    "tui.command.execute",
    "tui.toast.show",
    "question.asked",
    "question.replied",
    "plugin.added",
    "catalog.updated",
    "reference.updated",
    "integration.updated",
];

/// The named hooks (called as `fn(input, output)`); every other name is a
/// bus event (`input` = the event's `properties`, no `output`).
const NAMED_HOOKS: &[&str] = &[
    "chat.message",
    "chat.params",
    "chat.headers",
    "tool.execute.before",
    "tool.execute.after",
    "permission.ask",
    "command.execute.before",
    "shell.env",
    "tool.definition",
    "experimental.chat.messages.transform",
    "experimental.chat.system.transform",
    "experimental.session.compacting",
    "experimental.compaction.autocontinue",
    "experimental.text.complete",
    "experimental.provider.small_model",
    "config",
    "dispose",
];

/// Whether `native` is a named hook (not a bus event).
pub fn is_named_hook(native: &str) -> bool {
    NAMED_HOOKS.contains(&native)
}

/// The unified kind of a hook or bus event name (`other` when unmapped).
///
/// Three names change kind with the payload (see [`decode`]):
/// `session.created` of a child session is `subagent.start`, `session.idle`
/// of a child session `subagent.stop`, and `message.part.updated` of a tool
/// part in state `error` is `tool.error` (quirk 2). One name per unified
/// kind where OpenCode has several for the same moment: `chat.params` is
/// `model.request` (`chat.headers` and the transforms fire for the same
/// model call and are `other`); `session.idle` is `agent.stop`
/// (`session.status` idle is its twin and `other`, quirk 17).
pub fn kind_of(native: &str) -> Kind {
    match native {
        "chat.message" => Kind::PromptSubmitted,
        "chat.params" => Kind::ModelRequest,
        "tool.execute.before" => Kind::ToolPre,
        "tool.execute.after" => Kind::ToolPost,
        "permission.ask" | "permission.asked" | "permission.updated" => Kind::PermissionRequest,
        "experimental.session.compacting" => Kind::CompactPre,
        "experimental.text.complete" => Kind::ModelResponse,
        "session.created" => Kind::SessionStart,
        "session.idle" => Kind::AgentStop,
        "session.compacted" => Kind::CompactPost,
        "server.instance.disposed" => Kind::SessionEnd,
        "file.edited" => Kind::FileEdited,
        "tui.toast.show" => Kind::Notification,
        _ => Kind::Other,
    }
}

/// The capability row of a hook or bus event (§4).
pub fn capability(native: &str) -> Capability {
    let kind = kind_of(native);
    let (block, decisions, mods): (bool, &[D], &[&'static str]) = match native {
        // Throw to block (the model reads the message, §4.2); `args` rewrite
        // in place. No allow (nothing to skip: the permission check runs in
        // the tool body) and no ask from a plugin.
        "tool.execute.before" => (true, &[D::NoDecision, D::Deny], &["updated_input"]),
        // `output.output` / MCP `content` reach the model (§4.1); context is
        // appended to the output the model reads.
        "tool.execute.after" => (
            false,
            &[D::NoDecision, D::Observed, D::FlagOutput, D::ReplaceOutput],
            &["context"],
        ),
        // A throw aborts the prompt (quirk 8); context is a pushed text part.
        "chat.message" => (
            true,
            &[D::NoDecision, D::AcceptPrompt, D::BlockPrompt],
            &["context"],
        ),
        // `reply` once / reject (+ message); `ask` = no reply, the prompt shows.
        "permission.asked" | "permission.updated" | "permission.ask" => {
            (true, &[D::NoDecision, D::Allow, D::Deny, D::Ask], &[])
        }
        // A new prompt into the session keeps the agent going (§4.5, §5).
        "session.idle" => (true, &[D::NoDecision, D::Finish, D::Continue], &[]),
        // Bus event, fire-and-forget: a tool error can only be observed.
        "message.part.updated" => (false, &[D::NoDecision, D::Observed], &[]),
        _ => (false, &[D::NoDecision], &[]),
    };
    Capability::new(P, native, kind, block, decisions, mods)
}

/// Decodes an OpenCode plugin frame.
pub fn decode(map: Map<String, Value>, opts: &DecodeOptions) -> Result<Event, Error> {
    let mut f = Fields::new(map);
    let native = f.event_name("hook", P, opts)?;
    let input = match f.take("input") {
        Value::Null => Map::new(),
        Value::Object(m) => m,
        other => return Err(wrong("input", "an object", &other)),
    };
    let mut output = f.take("output");
    let plugin = match f.take("plugin") {
        Value::Null => Map::new(),
        Value::Object(m) => m,
        other => return Err(wrong("plugin", "an object", &other)),
    };
    let pl = Obj::new(&plugin, "plugin");
    let inp = Obj::new(&input, "input");

    let mut ev = Event::new(P, native.clone(), kind_of(&native));
    let mut session_id = session_id_of(&native, &inp)?;
    let directory = pl.str("directory")?;
    ev.session = SessionInfo {
        cwd: directory.clone().unwrap_or_default(),
        workspace_roots: pl.str("worktree")?.into_iter().collect(),
        ..SessionInfo::default()
    };
    // A child (subagent) session: the session is the parent's, the agent
    // is the child session (quirk 19).
    let parent = pl.str("parent_session_id")?;

    match native.as_str() {
        "tool.execute.before" | "tool.execute.after" => {
            let name = inp.str("tool")?.unwrap_or_default();
            let raw_input = if native == "tool.execute.before" {
                match &output {
                    Value::Object(o) => o.get("args").cloned().unwrap_or(Value::Null),
                    Value::Null => Value::Null,
                    other => return Err(wrong("output", "an object", other)),
                }
            } else {
                input.get("args").cloned().unwrap_or(Value::Null)
            };
            if !name.is_empty() {
                let mut t = ToolCall::new(P, &name, raw_input, inp.id("callID")?);
                attribute(&mut t, &pl)?;
                if t.id.is_empty() {
                    t.synthesize_id(session_id.as_deref().unwrap_or(""), "");
                }
                ev.tool = Some(t);
            }
            if native == "tool.execute.after" {
                ev.set_output(std::mem::take(&mut output));
            }
        }
        "chat.message" => {
            let out = Obj::of(&output, "output")?;
            let message = out.obj("message")?;
            if session_id.is_none() {
                session_id = message.str("sessionID")?;
            }
            ev.session.turn_id = match inp.str("messageID")? {
                Some(m) => m,
                None => message.str("id")?.unwrap_or_default(),
            };
            ev.session.model = match model_of(&inp, "model")? {
                Some(m) => m,
                None => model_of(&message, "model")?.unwrap_or_default(),
            };
            ev.prompt = prompt_text(out.get("parts"))?;
        }
        "chat.params" | "chat.headers" | "experimental.chat.system.transform" => {
            ev.session.model = model_of(&inp, "model")?.unwrap_or_default();
            // `build`, or `title` for the title request (quirk 9).
            ev.source = match inp.get("agent") {
                Some(Value::Object(a)) => Obj::new(a, "input.agent").str("name")?,
                _ => inp.str("agent")?,
            };
        }
        "experimental.compaction.autocontinue" => {
            ev.session.model = model_of(&inp, "model")?.unwrap_or_default();
        }
        "experimental.text.complete" => {
            ev.message = Obj::of(&output, "output")?.str_keep_empty("text")?;
        }
        "shell.env" => {
            if let Some(cwd) = inp.str("cwd")? {
                ev.session.cwd = cwd;
            }
        }
        "permission.asked" | "permission.updated" | "permission.ask" => {
            // `permission.asked`: {id, sessionID, permission, patterns,
            // metadata, always, tool?: {messageID, callID}}; the legacy
            // Permission object of `permission.updated` / `permission.ask`:
            // {id, type, pattern, sessionID, messageID, callID?, title, metadata}.
            let name = match inp.str("permission")? {
                Some(p) => Some(p),
                None => inp.str("type")?,
            };
            let call_id = match inp.get("tool") {
                Some(Value::Object(t)) => Obj::new(t, "input.tool").id("callID")?,
                _ => inp.id("callID")?,
            };
            if let Some(name) = name {
                let raw_input = input.get("metadata").cloned().unwrap_or(Value::Null);
                let mut t = ToolCall::new(P, &name, raw_input, call_id);
                attribute(&mut t, &pl)?;
                if t.id.is_empty() {
                    t.synthesize_id(session_id.as_deref().unwrap_or(""), "");
                }
                ev.tool = Some(t);
            }
            if native == "permission.updated" || native == "permission.ask" {
                ev.message = inp.str("title")?;
            }
        }
        "permission.replied" => ev.reason = inp.str("reply")?,
        "message.part.updated" => {
            let part = inp.obj("part")?;
            let state = part.obj("state")?;
            if part.str("type")?.as_deref() == Some("tool")
                && state.str("status")?.as_deref() == Some("error")
            {
                // Tool failures, including a throw from
                // tool.execute.before/after: tool.execute.after does not
                // fire for them (quirk 2).
                ev.kind = Kind::ToolError;
                if let Some(name) = part.str("tool")? {
                    let raw_input = state.get("input").cloned().unwrap_or(Value::Null);
                    let mut t = ToolCall::new(P, &name, raw_input, part.id("callID")?);
                    attribute(&mut t, &pl)?;
                    if t.id.is_empty() {
                        t.synthesize_id(session_id.as_deref().unwrap_or(""), "");
                    }
                    ev.tool = Some(t);
                }
                ev.failed = true;
                ev.error = match state.get("error") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) if s.is_empty() => None,
                    Some(other) => Some(value_text(other)),
                };
                let time = state.obj("time")?;
                if let (Some(start), Some(end)) = (time.u64("start")?, time.u64("end")?) {
                    ev.duration_ms = end.checked_sub(start);
                }
            }
        }
        "message.updated" => {
            let info = inp.obj("info")?;
            if let (Some(p), Some(m)) = (info.str("providerID")?, info.str("modelID")?) {
                ev.session.model = format!("{p}/{m}");
            }
        }
        "session.created" | "session.updated" | "session.deleted" => {
            let info = inp.obj("info")?;
            if ev.session.cwd.is_empty() {
                ev.session.cwd = info.str("directory")?.unwrap_or_default();
            }
            if native == "session.created" {
                // `info.parentID` names the parent session; it is nested
                // under `info`, never a top-level property (§7.3).
                if let Some(p) = info.str("parentID")? {
                    ev.kind = Kind::SubagentStart;
                    ev.agent = Some(AgentInfo {
                        id: session_id.clone().unwrap_or_default(),
                        r#type: String::new(),
                    });
                    session_id = Some(p);
                }
            }
        }
        "session.idle" => {
            let loop_count = pl.u64("loop_count")?;
            let stop = StopInfo {
                previously_continued: loop_count.is_some_and(|n| n > 0),
                loop_count,
                final_message: pl.str("final_message")?,
                usage: Default::default(),
            };
            if !stop.is_empty() {
                ev.stop = Some(stop);
            }
        }
        "session.error" => {
            ev.error = match inp.get("error") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()).filter(|s| !s.is_empty()),
                Some(Value::Object(e)) => {
                    let e = Obj::new(e, "input.error");
                    match e.get("data") {
                        Some(Value::Object(d)) => Obj::new(d, "input.error.data").str("message")?,
                        _ => None,
                    }
                    .or(e.str("message")?)
                    .or(e.str("name")?)
                }
                Some(other) => Some(value_text(other)),
            };
        }
        "file.edited" | "file.watcher.updated" => ev.path = inp.str("file")?,
        "server.instance.disposed" => {
            if ev.session.cwd.is_empty() {
                ev.session.cwd = inp.str("directory")?.unwrap_or_default();
            }
        }
        "tui.toast.show" => {
            ev.message = inp.str("message")?;
        }
        _ => {}
    }
    if let (Some(p), Some(child)) = (parent, session_id.clone()) {
        if ev.agent.is_none() && p != child {
            ev.agent = Some(AgentInfo {
                id: child,
                r#type: String::new(),
            });
            session_id = Some(p);
            match ev.kind {
                Kind::AgentStop => ev.kind = Kind::SubagentStop,
                Kind::SessionStart => ev.kind = Kind::SubagentStart,
                _ => {}
            }
        }
    }
    ev.session.id = session_id.unwrap_or_default();
    Ok(ev)
}

/// The session id of a frame: `input.sessionID` (named hooks and most bus
/// events); else `info.sessionID` (`message.updated`), `info.id`
/// (`session.*` in the older `{info}` envelope, quirk 18) or
/// `part.sessionID`.
fn session_id_of(native: &str, inp: &Obj) -> Result<Option<String>, Error> {
    if let Some(s) = inp.id("sessionID")? {
        return Ok(Some(s));
    }
    let info = inp.obj("info")?;
    if let Some(s) = info.id("sessionID")? {
        return Ok(Some(s));
    }
    if native.starts_with("session.") {
        if let Some(s) = info.id("id")? {
            return Ok(Some(s));
        }
    }
    inp.obj("part")?.id("sessionID")
}

/// `provider/model` from `{providerID, modelID}` (chat.message) or the full
/// model object `{id, providerID, ...}` (chat.params); a string as is.
fn model_of(o: &Obj, key: &str) -> Result<Option<String>, Error> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone()).filter(|s| !s.is_empty())),
        Some(Value::Object(m)) => {
            let m = Obj::new(m, key);
            let model = match m.str("modelID")? {
                Some(id) => Some(id),
                None => m.str("id")?,
            };
            Ok(match (m.str("providerID")?, model) {
                (Some(p), Some(id)) => Some(format!("{p}/{id}")),
                (None, id) => id,
                (Some(p), None) => Some(p),
            })
        }
        Some(other) => Err(wrong(key, "an object", other)),
    }
}

/// The prompt of `chat.message`: the text of its text parts (not the
/// `synthetic` ones, which hooks injected), joined by a newline, verbatim
/// (`opencode run` wraps it in literal quotes, quirk 11).
fn prompt_text(parts: Option<&Value>) -> Result<Option<String>, Error> {
    let parts = match parts {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(a)) => a,
        Some(other) => return Err(wrong("output.parts", "an array", other)),
    };
    let mut texts = Vec::new();
    for p in parts {
        let Value::Object(p) = p else { continue };
        let is_text = matches!(p.get("type").and_then(Value::as_str), Some("text") | None);
        let synthetic = p.get("synthetic").and_then(Value::as_bool) == Some(true);
        if !is_text || synthetic {
            continue;
        }
        match p.get("text") {
            Some(Value::String(s)) => texts.push(s.as_str()),
            None | Some(Value::Null) => {}
            Some(other) => return Err(wrong("output.parts[].text", "a string", other)),
        }
    }
    Ok((!texts.is_empty()).then(|| texts.join("\n")))
}

/// Attributes an OpenCode MCP tool (`<server>_<tool>`, no reserved prefix,
/// quirk 15) against the server list the plugin passes in `plugin.mcp`.
fn attribute(t: &mut ToolCall, plugin: &Obj) -> Result<(), Error> {
    let servers = mcp_servers(plugin)?;
    if servers.is_empty() {
        return Ok(());
    }
    if let Some(m) = attribute_mcp(&t.name, &servers) {
        if t.canonical == Canonical::Shell {
            t.command = None;
        }
        if !matches!(
            t.canonical,
            Canonical::Search | Canonical::FileRead | Canonical::Other
        ) {
            // The facet rule of MCP tools (pattern, else regex, else query).
            t.pattern = ["pattern", "regex", "query"]
                .iter()
                .find_map(|k| t.input.get(*k).and_then(Value::as_str))
                .map(str::to_string);
        }
        t.canonical = Canonical::Mcp;
        t.mcp = Some(m);
    }
    Ok(())
}

/// One configured MCP server, as the plugin reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpServer {
    /// The server's name in the `mcp` config map.
    pub name: String,
    /// `url` of a remote server.
    pub url: Option<String>,
    /// `command` of a local server (argv joined by spaces).
    pub command: Option<String>,
}

/// The servers of `plugin.mcp`: a map name → `{type, command, url,
/// enabled}` (OpenCode's `mcp` config; disabled servers are skipped) or a
/// list of names.
fn mcp_servers(plugin: &Obj) -> Result<Vec<McpServer>, Error> {
    match plugin.get("mcp") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(McpServer {
                    name: s.clone(),
                    ..McpServer::default()
                }),
                other => Err(wrong("plugin.mcp[]", "a string", other)),
            })
            .collect(),
        Some(Value::Object(m)) => {
            let mut out = Vec::new();
            for (name, cfg) in m {
                let cfg = match cfg {
                    Value::Object(c) => c,
                    Value::Null => {
                        out.push(McpServer {
                            name: name.clone(),
                            ..McpServer::default()
                        });
                        continue;
                    }
                    other => return Err(wrong("plugin.mcp.<server>", "an object", other)),
                };
                if cfg.get("enabled").and_then(Value::as_bool) == Some(false) {
                    continue;
                }
                let command = match cfg.get("command") {
                    Some(Value::Array(a)) => {
                        let parts: Vec<&str> = a.iter().filter_map(Value::as_str).collect();
                        (!parts.is_empty()).then(|| parts.join(" "))
                    }
                    Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
                    _ => None,
                };
                out.push(McpServer {
                    name: name.clone(),
                    url: cfg
                        .get("url")
                        .and_then(Value::as_str)
                        .filter(|s| !s.is_empty())
                        .map(str::to_string),
                    command,
                });
            }
            Ok(out)
        }
        Some(other) => Err(wrong("plugin.mcp", "an object or an array", other)),
    }
}

/// OpenCode's sanitizing of MCP names: characters outside `[A-Za-z0-9_-]`
/// become `_` (§3.3).
pub fn sanitize_mcp_name(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Attributes a tool name `<server>_<tool>` to one of `servers`: the
/// longest sanitized server name that prefixes the name (followed by `_`
/// and a non-empty tool) wins; two servers tied for the longest match leave
/// the name unattributed (§3.3). The tool part is reported as it appears in
/// the name (sanitized by OpenCode).
pub fn attribute_mcp(name: &str, servers: &[McpServer]) -> Option<McpInfo> {
    let mut best: Option<(&McpServer, usize)> = None;
    let mut tie = false;
    for s in servers {
        let prefix = sanitize_mcp_name(&s.name);
        if prefix.is_empty() {
            continue;
        }
        let Some(rest) = name.strip_prefix(prefix.as_str()) else {
            continue;
        };
        let Some(tool) = rest.strip_prefix('_') else {
            continue;
        };
        if tool.is_empty() {
            continue;
        }
        match best {
            Some((_, len)) if len > prefix.len() => {}
            Some((_, len)) if len == prefix.len() => tie = true,
            _ => {
                best = Some((s, prefix.len()));
                tie = false;
            }
        }
    }
    if tie {
        return None;
    }
    let (s, len) = best?;
    Some(McpInfo {
        server: s.name.clone(),
        tool: name[len + 1..].to_string(),
        url: s.url.clone(),
        command: s.command.clone(),
    })
}

/// Encodes a (planned) decision into the plugin's action object.
pub fn encode(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Response, Error> {
    let d = refine(ev, d, policy, notes)?;
    // The frame's `input`, parsed only where an answer names its ids.
    let input = || ev.raw_json().get("input").cloned().unwrap_or(Value::Null);
    let native = ev.native_name.as_str();
    let mut out = Map::new();
    let nonempty = |s: &Option<String>| s.clone().filter(|r| !r.trim().is_empty());
    match native {
        "tool.execute.before" => {
            if d.kind == D::Deny {
                // The model's tool result is exactly this message (§4.2).
                let r = nonempty(&d.reason).unwrap_or_else(|| "Blocked by hook.".into());
                out.insert("throw".into(), json!(r));
                if d.updated_input.is_some() {
                    notes.push(dropped(
                        "updated_input",
                        "a blocked OpenCode tool call never runs",
                    ));
                }
            } else if let Some(u) = &d.updated_input {
                // Applied key by key into the existing output.args (quirk 4).
                out.insert("args".into(), Value::Object(u.clone()));
            }
        }
        "tool.execute.after" => {
            let mcp = is_mcp_result(ev.output());
            let mut texts: Vec<String> = Vec::new();
            match d.kind {
                D::ReplaceOutput => {
                    let v = d.replaced_output.clone().unwrap_or(Value::Null);
                    let mut set = Map::new();
                    if mcp {
                        // MCP tools: the raw MCP result (quirk 16).
                        let content = match v {
                            Value::Object(ref m)
                                if m.get("content").is_some_and(Value::is_array) =>
                            {
                                m["content"].clone()
                            }
                            Value::String(s) => json!([{"type": "text", "text": s}]),
                            other => {
                                notes.push(reshaped("mcp_content"));
                                json!([{"type": "text", "text": value_text(&other)}])
                            }
                        };
                        set.insert("content".into(), content);
                    } else {
                        let text = match v {
                            Value::String(s) => s,
                            other => {
                                notes.push(reshaped("string"));
                                value_text(&other)
                            }
                        };
                        // `metadata.output` keeps the raw text unless it is
                        // overwritten too (quirk 6).
                        if ev.output().pointer("/metadata/output").is_some() {
                            set.insert("metadata.output".into(), json!(text));
                        }
                        set.insert("output".into(), json!(text));
                    }
                    out.insert("set".into(), Value::Object(set));
                }
                D::FlagOutput => texts
                    .push(nonempty(&d.reason).unwrap_or_else(|| "Output flagged by hook.".into())),
                _ => {}
            }
            texts.extend(d.context.iter().filter(|c| !c.trim().is_empty()).cloned());
            if !texts.is_empty() {
                let text = texts.join("\n\n");
                if mcp {
                    out.insert(
                        "push".into(),
                        json!({"content": [{"type": "text", "text": text}]}),
                    );
                } else {
                    out.insert("append".into(), json!({"output": format!("\n\n{text}")}));
                }
            }
        }
        "chat.message" => {
            if d.kind == D::BlockPrompt {
                // Aborts the prompt; `opencode run` shows only a generic
                // error and exits 1 (quirk 8).
                let r = nonempty(&d.reason).unwrap_or_else(|| "Prompt blocked by hook.".into());
                out.insert("throw".into(), json!(r));
            } else {
                let ctx: Vec<&str> = d
                    .context
                    .iter()
                    .map(String::as_str)
                    .filter(|c| !c.trim().is_empty())
                    .collect();
                if !ctx.is_empty() {
                    out.insert(
                        "push".into(),
                        json!({"parts": [{"type": "text", "text": ctx.join("\n\n"), "synthetic": true}]}),
                    );
                }
            }
        }
        "permission.asked" | "permission.updated" => {
            let reply = match d.kind {
                D::Allow => Some("once"),
                D::Deny => Some("reject"),
                // `ask`: no reply, the prompt stays with the human.
                _ => None,
            };
            if let Some(reply) = reply {
                let input = input();
                let mut r = Map::new();
                r.insert(
                    "requestID".into(),
                    input.get("id").cloned().unwrap_or(Value::Null),
                );
                r.insert(
                    "sessionID".into(),
                    input.get("sessionID").cloned().unwrap_or(Value::Null),
                );
                r.insert("reply".into(), json!(reply));
                if d.kind == D::Deny {
                    // With a message the model is told and continues; without
                    // one the rejection halts the call (§4.4).
                    if let Some(m) = nonempty(&d.reason) {
                        r.insert("message".into(), json!(m));
                    }
                }
                out.insert("reply".into(), Value::Object(r));
            }
        }
        "permission.ask" => {
            // The legacy hook (never called since the permission rework,
            // quirk 1): `output.status`.
            let status = match d.kind {
                D::Allow => Some("allow"),
                D::Deny => Some("deny"),
                _ => None,
            };
            if let Some(s) = status {
                out.insert("set".into(), json!({"status": s}));
            }
        }
        "session.idle" => {
            if d.kind == D::Continue {
                let text = nonempty(&d.instruction)
                    .or_else(|| nonempty(&d.reason))
                    .unwrap_or_else(|| "Continue.".into());
                let input = input();
                out.insert(
                    "prompt".into(),
                    json!({"sessionID": input.get("sessionID").cloned().unwrap_or(Value::Null), "text": text}),
                );
            }
        }
        _ => {}
    }
    if let Some(n) = &d.native {
        merge_native(&mut out, n);
    }
    Ok(finish(out))
}

/// Rules the capability table cannot express: a child session's idle
/// cannot be continued (its turn belongs to the parent's task tool).
fn refine(
    ev: &Event,
    d: &Decision,
    policy: &Policy,
    notes: &mut Vec<Note>,
) -> Result<Decision, Error> {
    let mut d = d.clone();
    if ev.kind == Kind::SubagentStop && d.kind == D::Continue {
        if policy.unsupported == Unsupported::Strict {
            return Err(Error::UnsupportedDecision {
                provider: P.id(),
                event: ev.native_name.clone(),
                what: "continue".into(),
            });
        }
        notes.push(Note::new(
            "degraded",
            Some("continue"),
            Some("finish"),
            "a subagent's session cannot be continued from OpenCode's session.idle",
        ));
        d.kind = D::Finish;
        d.instruction = None;
    }
    Ok(d)
}

/// Whether a `tool.execute.after` output is a raw MCP result
/// (`{content: [...]}`) rather than `{title, output, metadata}`.
fn is_mcp_result(output: &Value) -> bool {
    match output {
        Value::Object(m) => {
            m.get("content").is_some_and(Value::is_array) && !m.contains_key("output")
        }
        _ => false,
    }
}

fn dropped(what: &str, detail: &str) -> Note {
    Note::new("dropped", Some(what), None, detail)
}

fn reshaped(to: &str) -> Note {
    Note::new(
        "reshaped",
        Some("json"),
        Some(to),
        "the replacement was rewrapped in the shape the tool's output has",
    )
}

/// The answer when the frame could not be decoded: nothing under
/// fail-open; a throw under fail-closed (it blocks a tool or a prompt and
/// replaces a tool result; on bus events OpenCode only logs it).
pub fn undecodable(fail: Fail, diag: &str) -> Response {
    match fail {
        Fail::Open => Response::empty(),
        Fail::Closed => {
            let code = diag
                .strip_prefix("agenthooks: ")
                .and_then(|rest| rest.split(':').next())
                .filter(|c| !c.is_empty() && !c.contains(' '))
                .unwrap_or("undecodable_input");
            let mut r = Response::json(&json!({
                "throw": format!("Blocked because the hook could not read its input ({code}); policy is fail-closed.")
            }));
            r.stderr = format!("{}\n", diag.trim_end());
            r
        }
    }
}

/// Tool names (`dialect::tool_names` has the sources and the rules).
/// OpenCode (lower-case tool ids).
pub(crate) fn tool_class(name: &str) -> Option<crate::model::Canonical> {
    use crate::model::Canonical::{
        Fetch, FileEdit, FileRead, FileWrite, Other, Search, Shell, Task as Subagent,
    };
    Some(match name {
        "bash" => Shell,
        "read" => FileRead,
        "write" => FileWrite,
        "edit" => FileEdit,
        "glob" | "grep" | "list" => Search,
        "webfetch" => Fetch,
        "task" => Subagent,
        // `invalid`: a call to an unavailable tool, rerouted.
        "todowrite" | "invalid" | "question" | "skill" => Other,
        _ => return None,
    })
}

/// MCP tool names: none (MCP tools arrive under their own ids).
pub(crate) fn mcp_name(_: &str) -> Option<(&str, &str)> {
    None
}

/// Everything about this agent, for [`super::agent`].
pub(crate) static AGENT: super::Agent = super::Agent {
    provider: Provider::Opencode,
    events: EVENTS,
    capability,
    tool_class,
    mcp_name,
    variant: super::no_variant,
    quirks: quirks::QUIRKS,
    quirk_section: "§6",
    research: "opencode.md",
    page: "docs/agents/opencode.md",
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

    fn srv(name: &str) -> McpServer {
        McpServer {
            name: name.into(),
            ..McpServer::default()
        }
    }

    #[test]
    fn mcp_attribution_longest_prefix_and_ties() {
        let servers = [srv("github"), srv("git"), srv("my server")];
        let m = attribute_mcp("github_create_issue", &servers).unwrap();
        assert_eq!(
            (m.server.as_str(), m.tool.as_str()),
            ("github", "create_issue")
        );
        let m = attribute_mcp("git_log", &servers).unwrap();
        assert_eq!(m.server, "git");
        // Sanitized server names match; the reported server is the config name.
        let m = attribute_mcp("my_server_query", &servers).unwrap();
        assert_eq!((m.server.as_str(), m.tool.as_str()), ("my server", "query"));
        assert_eq!(attribute_mcp("github_", &servers), None);
        assert_eq!(attribute_mcp("gitlab_x", &servers), None);
        assert_eq!(attribute_mcp("bash", &servers), None);
        // Two servers sanitizing to the same name: ambiguous.
        assert_eq!(
            attribute_mcp("my_server_query", &[srv("my server"), srv("my_server")]),
            None
        );
    }

    #[test]
    fn every_event_has_a_row_and_no_decision_is_empty_stdout() {
        for name in EVENTS.iter().chain(["something.new"].iter()) {
            let e = ev(&format!(
                r#"{{"hook":"{name}","input":{{"sessionID":"ses_1","tool":"bash","callID":"c"}},"output":{{"args":{{"command":"ls"}}}}}}"#
            ));
            let r = dialect::respond(&e, &Decision::no_decision(), &Policy::default()).unwrap();
            assert_eq!((r.stdout.as_str(), r.exit_code), ("", 0), "{name}");
            assert_eq!(capability(name).kind, kind_of(name));
        }
        assert_eq!(NAMED_HOOKS.len() + 34, EVENTS.len());
    }

    #[test]
    fn child_sessions_are_subagents() {
        let e = ev(
            r#"{"hook":"session.idle","input":{"sessionID":"ses_child"},"plugin":{"parent_session_id":"ses_main"}}"#,
        );
        assert_eq!(e.kind, Kind::SubagentStop);
        assert_eq!(e.session.id, "ses_main");
        assert_eq!(e.agent.unwrap().id, "ses_child");
        let r = dialect::respond(
            &ev(r#"{"hook":"session.idle","input":{"sessionID":"ses_child"},"plugin":{"parent_session_id":"ses_main"}}"#),
            &Decision::continue_with("more"),
            &Policy::default(),
        )
        .unwrap();
        assert_eq!(r.stdout, "");
        assert_eq!(r.notes[0].code, "degraded");
    }
}
