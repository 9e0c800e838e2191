//! Drift: payload fields the tables do not know, recorded per agent,
//! agent version and event (names and JSON types, never values) in the
//! per-user state root, so a new agent version shows its changes on the
//! first run (`agenthooks drift`).
//!
//! Cost on the hook path: [`Shape::of`] copies the payload's top-level
//! key names (and the keys of the few objects the tables describe) before
//! the dialect consumes the payload; [`Shape::unknown`] compares them with
//! a table compiled once per process. Nothing touches the disk unless an
//! unknown field was seen, and the file is rewritten only when it gains an
//! entry.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde_json::{Map, Value, json};

use super::table;
use crate::error::{Error, json_type};
use crate::model::Provider;
use crate::state::StateDir;

/// The state subdirectory and file.
pub const SUBDIR: &str = "drift";
const FILE: &str = "fields.json";
/// At most this many entries are kept (the oldest go first).
pub const MAX_ENTRIES: usize = 512;
/// The file is never read past this size.
const READ_LIMIT: usize = 1024 * 1024;
/// Objects with more keys than this are not looked into.
const MAX_CHILD_KEYS: usize = 256;

/// A key's name and JSON type.
type Key = (String, &'static str);

/// The key names and JSON types of a payload (top level, and one level
/// inside the objects the tables describe).
#[derive(Debug, Default, Clone)]
pub struct Shape {
    provider: Option<Provider>,
    /// Top-level keys, each with the keys inside it (described objects only).
    top: Vec<(Key, Vec<Key>)>,
    version: Option<String>,
}

impl Shape {
    /// Takes the shape of a payload of `provider`: every top-level key
    /// with its type, and the keys inside each top-level object (up to
    /// [`MAX_CHILD_KEYS`]; names and types only, nothing is parsed). The
    /// tables are consulted only by [`Shape::unknown`], for one event: a
    /// hook process never compiles the other events' (doing so cost 1.2 ms
    /// of every hook process).
    pub fn of(provider: Provider, map: &Map<String, Value>) -> Shape {
        let top = map
            .iter()
            .map(|(key, v)| {
                let children = match v {
                    Value::Object(m) if m.len() <= MAX_CHILD_KEYS => {
                        m.iter().map(|(c, cv)| (c.clone(), json_type(cv))).collect()
                    }
                    _ => Vec::new(),
                };
                ((key.clone(), json_type(v)), children)
            })
            .collect();
        Shape {
            provider: Some(provider),
            top,
            version: payload_version(provider, map),
        }
    }

    /// The fields the table does not know for `event`, as `(dotted name,
    /// JSON type)`, in payload order.
    pub fn unknown(&self, event: &str) -> Vec<(String, &'static str)> {
        let Some(p) = self.provider else {
            return Vec::new();
        };
        // This event's fields only (an unlisted event: the base and
        // generic fields); a table bug reports nothing rather than all.
        let Some(nodes) = input_nodes(p, event) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for ((key, ty), children) in &self.top {
            match nodes.iter().find(|n| n.def.name == key) {
                None => out.push((key.clone(), *ty)),
                Some(n) if !n.children.is_empty() => {
                    for (c, cty) in children {
                        if n.child(c).is_none() {
                            out.push((format!("{key}.{c}"), *cty));
                        }
                    }
                }
                Some(_) => {}
            }
        }
        out
    }

    /// The agent version the payload reveals (Cursor's `cursor_version`,
    /// the OpenCode/OpenClaw plugin's `plugin.version`).
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }
}

/// An event's resolved input fields, resolved once per process per
/// (agent, event): a serve loop or an in-process router checks every event
/// it decodes, and resolving allocates. At most [`CACHED_EVENTS`] are kept
/// (event names come from payloads); past that each is resolved afresh.
fn input_nodes(p: Provider, event: &str) -> Option<Arc<Vec<table::Node>>> {
    type Cache = Mutex<Vec<(Provider, Box<str>, Arc<Vec<table::Node>>)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    let mut held = cache.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((.., nodes)) = held.iter().find(|(q, e, _)| *q == p && &**e == event) {
        return Some(Arc::clone(nodes));
    }
    // A table bug reports nothing rather than everything.
    let nodes = Arc::new(table::agent(p).input_nodes(event).ok()?);
    if held.len() < CACHED_EVENTS {
        held.push((p, event.into(), Arc::clone(&nodes)));
    }
    Some(nodes)
}

/// How many (agent, event) field trees a process keeps resolved.
const CACHED_EVENTS: usize = 128;

fn payload_version(p: Provider, map: &Map<String, Value>) -> Option<String> {
    let v = match p {
        Provider::Cursor => map.get("cursor_version"),
        Provider::Opencode | Provider::Openclaw => map.get("plugin").and_then(|x| x.get("version")),
        _ => None,
    };
    v.and_then(Value::as_str)
        .filter(|s| !s.is_empty() && s.len() <= 64)
        .map(str::to_string)
}

/// The agent version the hook's environment reveals (Copilot CLI's
/// `COPILOT_CLI_BINARY_VERSION`), when the payload does not.
pub fn env_version(p: Provider, env: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    match p {
        Provider::Copilot => {
            env("COPILOT_CLI_BINARY_VERSION").filter(|s| !s.is_empty() && s.len() <= 64)
        }
        _ => None,
    }
}

/// One recorded unknown field.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    /// Agent id.
    pub agent: String,
    /// Agent version (`unknown` when neither payload nor environment says).
    pub version: String,
    /// Native event name.
    pub event: String,
    /// Dotted field name.
    pub field: String,
    /// JSON type seen.
    pub r#type: String,
}

impl Entry {
    fn to_json(&self) -> Value {
        json!({"agent": self.agent, "version": self.version, "event": self.event,
               "field": self.field, "type": self.r#type})
    }

    fn from_json(v: &Value) -> Option<Entry> {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        Some(Entry {
            agent: s("agent")?,
            version: s("version")?,
            event: s("event")?,
            field: s("field")?,
            r#type: s("type")?,
        })
    }
}

/// The entries recorded under `dir` (the `drift` subdirectory), oldest
/// first; a missing or unreadable file is empty.
pub fn read(dir: &StateDir) -> Vec<Entry> {
    let Ok(Some(bytes)) = dir.read(FILE, READ_LIMIT) else {
        return Vec::new();
    };
    let Ok(v) = serde_json::from_slice::<Value>(&bytes) else {
        return Vec::new();
    };
    v.get("entries")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Entry::from_json).collect())
        .unwrap_or_default()
}

/// Records `unknown` fields of one payload; returns how many entries were
/// new. The file is written only when something is new; at most
/// [`MAX_ENTRIES`] are kept (oldest dropped). Two hooks writing at once
/// may lose one's new entry; the next payload that carries it adds it.
pub fn record(
    dir: &StateDir,
    agent: Provider,
    version: Option<&str>,
    event: &str,
    unknown: &[(String, &'static str)],
) -> Result<usize, Error> {
    // A long-lived process (`agenthooks serve`) sees the same unknown
    // field on every frame: once recorded here, it costs no more I/O.
    let unknown: Vec<&(String, &'static str)> = unknown
        .iter()
        .filter(|(f, t)| !seen(dir, agent, version, event, f, t))
        .collect();
    if unknown.is_empty() {
        return Ok(0);
    }
    let mut entries = read(dir);
    let mut added = 0usize;
    for (field, ty) in unknown.iter().copied() {
        let e = Entry {
            agent: agent.id().to_string(),
            version: version.unwrap_or("unknown").to_string(),
            event: event.chars().take(128).collect(),
            field: field.chars().take(256).collect(),
            r#type: (*ty).to_string(),
        };
        if !entries.contains(&e) {
            entries.push(e);
            added += 1;
        }
    }
    if added == 0 {
        return Ok(0);
    }
    let excess = entries.len().saturating_sub(MAX_ENTRIES);
    entries.drain(..excess);
    write(dir, &entries)?;
    Ok(added)
}

/// Whether this process already recorded the entry under `dir` (and
/// notes it as recorded).
fn seen(
    dir: &StateDir,
    agent: Provider,
    version: Option<&str>,
    event: &str,
    field: &str,
    ty: &str,
) -> bool {
    static SEEN: std::sync::Mutex<BTreeSet<String>> = std::sync::Mutex::new(BTreeSet::new());
    let key = format!(
        "{}\u{0}{}\u{0}{}\u{0}{event}\u{0}{field}\u{0}{ty}",
        dir.path().display(),
        agent.id(),
        version.unwrap_or("")
    );
    match SEEN.lock() {
        Ok(mut s) if s.len() < 4096 => !s.insert(key),
        _ => false,
    }
}

fn write(dir: &StateDir, entries: &[Entry]) -> Result<(), Error> {
    let doc = json!({"entries": entries.iter().map(Entry::to_json).collect::<Vec<_>>()});
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    dir.write_replace(FILE, text.as_bytes())
}

/// Forgets every entry.
pub fn clear(dir: &StateDir) -> Result<(), Error> {
    dir.remove(FILE)
}

/// The entries as a JSON document (`agenthooks drift --json`).
pub fn to_json(entries: &[Entry]) -> Value {
    json!({"entries": entries.iter().map(Entry::to_json).collect::<Vec<_>>()})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn shape_names_unknown_fields_and_types_only() {
        let m = obj(
            json!({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"x": 1}, "mcp_server": {"name": "m", "transport": "stdio"},
            "brand_new": {"secret": "sk-1"}}),
        );
        let s = Shape::of(Provider::ClaudeCode, &m);
        assert_eq!(
            s.unknown("PreToolUse"),
            vec![
                ("brand_new".to_string(), "object"),
                ("mcp_server.transport".to_string(), "string")
            ]
        );
        // On Stop the tool fields are not part of the event; the field
        // trees are cached per (agent, event), so asking again, or after
        // another event, answers the same.
        assert!(s.unknown("Stop").iter().any(|(k, _)| k == "tool_name"));
        assert_eq!(s.unknown("PreToolUse").len(), 2);
        assert!(s.unknown("Stop").iter().any(|(k, _)| k == "tool_name"));
        let cursor = Shape::of(Provider::Cursor, &m);
        assert!(
            cursor
                .unknown("PreToolUse")
                .iter()
                .any(|(k, _)| k == "tool_input")
        );
        // An event the table does not list: base and generic fields.
        assert!(
            !s.unknown("FutureEvent")
                .iter()
                .any(|(k, _)| k == "tool_name")
        );
        let m = obj(
            json!({"conversation_id": "c", "hook_event_name": "stop", "cursor_version": "2.6.1"}),
        );
        assert_eq!(Shape::of(Provider::Cursor, &m).version(), Some("2.6.1"));
        let env = |k: &str| (k == "COPILOT_CLI_BINARY_VERSION").then(|| "1.0.102".to_string());
        assert_eq!(
            env_version(Provider::Copilot, &env).as_deref(),
            Some("1.0.102")
        );
        assert_eq!(env_version(Provider::ClaudeCode, &env), None);
    }

    #[test]
    fn record_dedupes_bounds_and_writes_only_when_new() {
        let root = crate::state::TempRoot::new("drift").unwrap();
        let dir = root.dir().subdir(SUBDIR).unwrap();
        assert_eq!(record(&dir, Provider::Codex, None, "Stop", &[]).unwrap(), 0);
        assert!(
            dir.read(FILE, READ_LIMIT).unwrap().is_none(),
            "nothing new: no file"
        );
        let u = vec![("new_key".to_string(), "string")];
        assert_eq!(record(&dir, Provider::Codex, None, "Stop", &u).unwrap(), 1);
        let before = dir.read_with_mtime(FILE, READ_LIMIT).unwrap();
        assert_eq!(record(&dir, Provider::Codex, None, "Stop", &u).unwrap(), 0);
        assert_eq!(dir.read_with_mtime(FILE, READ_LIMIT).unwrap(), before);
        let got = read(&dir);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].version, "unknown");
        assert_eq!(got[0].field, "new_key");
        for i in 0..(MAX_ENTRIES + 10) {
            let u = vec![(format!("k{i}"), "number")];
            record(&dir, Provider::Codex, Some("0.171.0"), "Stop", &u).unwrap();
        }
        let got = read(&dir);
        assert_eq!(got.len(), MAX_ENTRIES);
        assert_eq!(got.last().unwrap().field, format!("k{}", MAX_ENTRIES + 9));
        clear(&dir).unwrap();
        assert!(read(&dir).is_empty());
    }
}
