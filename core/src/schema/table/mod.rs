//! The declarative field tables: per agent, a glossary of named field
//! definitions, the base fields every payload carries, and per native
//! event the fields it adds (references into the glossary) and what the
//! agent reads from stdout.
//!
//! References are names, optionally dotted (`input.sessionID`: the field
//! `sessionID` inside the object `input`) and suffixed with `!` when the
//! field is required. A reference is resolved in the glossary as
//! `<event>:<path>`, then `<path>`, then its last segment, so one
//! glossary serves events whose nested shapes differ.

pub(crate) mod canonical;
mod claude;
mod codex;
mod copilot;
mod cursor;
mod gemini;
mod kimi;
mod openclaw;
mod opencode;

use serde_json::{Map, Value};

use crate::model::Provider;

/// JSON types, as bits (`ANY` = no `type` keyword).
pub(crate) type Ty = u8;
pub(crate) const S: Ty = 1;
pub(crate) const I: Ty = 2;
pub(crate) const N: Ty = 4;
pub(crate) const B: Ty = 8;
pub(crate) const O: Ty = 16;
pub(crate) const A: Ty = 32;
pub(crate) const NUL: Ty = 64;
pub(crate) const ANY: Ty = 0;

/// The JSON Schema type names, in bit order.
pub(crate) const TYPE_NAMES: [(Ty, &str); 7] = [
    (S, "string"),
    (I, "integer"),
    (N, "number"),
    (B, "boolean"),
    (O, "object"),
    (A, "array"),
    (NUL, "null"),
];

/// One field: its name, JSON type(s), whether it is required, a one-line
/// description, and (objects) its known properties or (arrays) its items.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    pub(crate) name: &'static str,
    pub(crate) ty: Ty,
    pub(crate) req: bool,
    pub(crate) desc: &'static str,
    pub(crate) props: &'static [Field],
    /// Zero or one element: the schema of an array's items.
    pub(crate) items: &'static [Field],
}

/// A field definition.
pub(crate) const fn f(name: &'static str, ty: Ty, desc: &'static str) -> Field {
    Field {
        name,
        ty,
        req: false,
        desc,
        props: &[],
        items: &[],
    }
}

impl Field {
    /// Required.
    pub(crate) const fn req(mut self) -> Field {
        self.req = true;
        self
    }
    /// An object's known properties (more may come).
    pub(crate) const fn props(mut self, props: &'static [Field]) -> Field {
        self.props = props;
        self
    }
    /// An array's items (one definition; its name is ignored).
    pub(crate) const fn items(mut self, item: &'static [Field]) -> Field {
        self.items = item;
        self
    }
}

/// What an agent reads from a hook's stdout on one event.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Out {
    /// One JSON object with these fields (references into the agent's
    /// output glossary).
    Json(&'static [&'static str]),
    /// Plain text (the description says what it becomes).
    Text(&'static str),
    /// Nothing: stdout is ignored (the description says why).
    Empty(&'static str),
}

/// One native event.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EventSpec {
    pub(crate) name: &'static str,
    pub(crate) desc: &'static str,
    /// The fields it adds to the base (references into the glossary).
    pub(crate) fields: &'static [&'static str],
    pub(crate) out: Out,
}

/// An event row.
pub(crate) const fn ev(
    name: &'static str,
    desc: &'static str,
    fields: &'static [&'static str],
    out: Out,
) -> EventSpec {
    EventSpec {
        name,
        desc,
        fields,
        out,
    }
}

/// One agent's table.
pub(crate) struct AgentTable {
    pub(crate) provider: Provider,
    /// The version the table was checked against (the real-agent suite's pin).
    pub(crate) version: &'static str,
    /// Where the facts come from.
    pub(crate) source: &'static str,
    /// Input field definitions.
    pub(crate) glossary: &'static [Field],
    /// Named runs of references that several lists share: `@name` in a
    /// reference list (input or output) stands for the run.
    pub(crate) groups: &'static [(&'static str, &'static [&'static str])],
    /// Fields of every payload (references).
    pub(crate) base: &'static [&'static str],
    /// Fields the decoder reads on any event, so an event the table does
    /// not list gets them besides the base fields (references).
    pub(crate) generic: &'static [&'static str],
    /// Keys the decoder reads though this version never sends them
    /// (older builds, or a decoder shared with another agent); drift
    /// reports them when they do arrive.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) tolerated: &'static [&'static str],
    /// Output field definitions.
    pub(crate) out_glossary: &'static [Field],
    /// The native events, in documentation order.
    pub(crate) events: &'static [EventSpec],
    /// What it reads on stdout on an event it does not document.
    pub(crate) unknown_out: Out,
}

/// The table of an agent.
pub(crate) fn agent(p: Provider) -> &'static AgentTable {
    match p {
        Provider::ClaudeCode => &claude::TABLE,
        Provider::Codex => &codex::TABLE,
        Provider::Cursor => &cursor::TABLE,
        Provider::Gemini => &gemini::TABLE,
        Provider::KimiCode => &kimi::TABLE,
        Provider::Copilot => &copilot::TABLE,
        Provider::Opencode => &opencode::TABLE,
        Provider::Openclaw => &openclaw::TABLE,
    }
}

/// A resolved field tree (what the renderer and drift walk).
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) def: Field,
    pub(crate) req: bool,
    /// Known properties, in table order (base, then the event's).
    pub(crate) children: Vec<Node>,
}

impl Node {
    pub(crate) fn new(def: Field, req: bool) -> Node {
        Node {
            def,
            req,
            children: def.props.iter().map(|p| Node::new(*p, p.req)).collect(),
        }
    }

    pub(crate) fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.def.name == name)
    }
}

/// Looks a reference up in a glossary: `<event>:<path>`, `<path>`, last segment.
fn lookup(
    glossary: &'static [Field],
    event: &str,
    path: &str,
    leaf: &'static str,
) -> Option<Field> {
    let qualified = format!("{event}:{path}");
    [qualified.as_str(), path, leaf]
        .iter()
        .find_map(|k| glossary.iter().find(|g| g.name == *k))
        .map(|g| Field { name: leaf, ..*g })
}

/// Builds the field tree of a list of references; `Err` names a reference
/// the glossary does not define (a table bug, caught by the tests).
pub(crate) fn resolve(
    glossary: &'static [Field],
    event: &str,
    refs: &[&'static str],
) -> Result<Vec<Node>, String> {
    let mut roots: Vec<Node> = Vec::new();
    for r in refs {
        let (path, req) = match r.strip_suffix('!') {
            Some(p) => (p, true),
            None => (*r, false),
        };
        let segs: Vec<&'static str> = path.split('.').collect();
        let mut level = &mut roots;
        for i in 0..segs.len() {
            let sub = segs[..=i].join(".");
            let last = i + 1 == segs.len();
            let def = lookup(glossary, event, &sub, segs[i])
                .ok_or_else(|| format!("no glossary entry for `{sub}` (event {event})"))?;
            let pos = match level.iter().position(|n| n.def.name == def.name) {
                Some(p) => {
                    if last {
                        // A later reference refines an earlier one (the event's
                        // own definition or requirement wins over the base's).
                        let keep = std::mem::take(&mut level[p].children);
                        level[p] = Node::new(def, req);
                        for k in keep {
                            if level[p].child(k.def.name).is_none() {
                                level[p].children.push(k);
                            }
                        }
                    }
                    p
                }
                None => {
                    level.push(Node::new(def, last && req));
                    level.len() - 1
                }
            };
            if !last && req {
                // A required child makes its parent present too.
                level[pos].req = true;
            }
            level = &mut level[pos].children;
        }
    }
    Ok(roots)
}

impl AgentTable {
    pub(crate) fn event(&self, name: &str) -> Option<&EventSpec> {
        self.events.iter().find(|e| e.name == name)
    }

    /// The input field tree of an event (base fields then the event's; an
    /// unknown event has the base fields only).
    pub(crate) fn input_nodes(&self, event: &str) -> Result<Vec<Node>, String> {
        let mut refs = self.expand(self.base)?;
        match self.event(event) {
            Some(e) => refs.extend(self.expand(e.fields)?),
            None => refs.extend(self.expand(self.generic)?),
        }
        resolve(self.glossary, event, &refs)
    }

    /// The output field tree of a list of output references.
    pub(crate) fn output_nodes(
        &self,
        event: &str,
        refs: &[&'static str],
    ) -> Result<Vec<Node>, String> {
        resolve(self.out_glossary, event, &self.expand(refs)?)
    }

    /// A reference list with its `@group`s spelled out (`Err` names a
    /// group the table does not define: a table bug, caught by the tests).
    pub(crate) fn expand(&self, refs: &[&'static str]) -> Result<Vec<&'static str>, String> {
        let mut out = Vec::with_capacity(refs.len());
        for r in refs {
            match r.strip_prefix('@') {
                Some(name) => {
                    let (_, run) = self
                        .groups
                        .iter()
                        .find(|(n, _)| *n == name)
                        .ok_or_else(|| format!("no reference group `@{name}`"))?;
                    out.extend_from_slice(run);
                }
                None => out.push(*r),
            }
        }
        Ok(out)
    }

    /// What the agent reads on stdout for an event.
    pub(crate) fn out(&self, event: &str) -> Out {
        self.event(event).map_or(self.unknown_out, |e| e.out)
    }

    /// Fields of the payload the table does not know for the event: top
    /// level, and one level inside objects with known properties.
    pub(crate) fn unknown_fields(
        &self,
        event: &str,
        payload: &Map<String, Value>,
    ) -> Vec<(String, &'static str)> {
        let Ok(nodes) = self.input_nodes(event) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (k, v) in payload {
            match nodes.iter().find(|n| n.def.name == k) {
                None => out.push((k.clone(), crate::error::json_type(v))),
                Some(n) => {
                    if let (Value::Object(m), false) = (v, n.children.is_empty()) {
                        for (k2, v2) in m {
                            if n.child(k2).is_none() {
                                out.push((format!("{k}.{k2}"), crate::error::json_type(v2)));
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every reference of every table resolves, and every table lists
    /// exactly the dialect's native events, in the same order.
    #[test]
    fn tables_resolve_and_match_the_dialects() {
        for p in Provider::ALL {
            let t = agent(p);
            assert_eq!(t.provider, p);
            let names: Vec<&str> = t.events.iter().map(|e| e.name).collect();
            assert_eq!(names, crate::dialect::native_events(p), "{}", p.id());
            for e in t.events {
                t.input_nodes(e.name)
                    .unwrap_or_else(|m| panic!("{}: {m}", p.id()));
                if let Out::Json(refs) = e.out {
                    t.output_nodes(e.name, refs)
                        .unwrap_or_else(|m| panic!("{} output: {m}", p.id()));
                }
            }
            t.input_nodes("NoSuchEvent").unwrap();
            // Every group stands for a run some list shares, and is flat.
            for (name, run) in t.groups {
                let token = format!("@{name}");
                let used = t
                    .events
                    .iter()
                    .flat_map(|e| {
                        let out: &[&str] = match e.out {
                            Out::Json(r) => r,
                            _ => &[],
                        };
                        e.fields.iter().chain(out)
                    })
                    .chain(t.base.iter().chain(t.generic))
                    .any(|r| *r == token);
                assert!(used, "{}: group {token} is never used", p.id());
                assert!(run.iter().all(|r| !r.starts_with('@')), "{token} nests");
            }
            assert!(t.expand(&["@no-such-group"]).is_err());
            for g in t.glossary.iter().chain(t.out_glossary) {
                assert!(
                    !g.desc.trim().is_empty(),
                    "{} {}: no description",
                    p.id(),
                    g.name
                );
            }
        }
    }

    /// One decoded fixture payload and the keys its decoder read.
    struct Decoded {
        name: String,
        event: String,
        payload: Map<String, Value>,
        reads: Vec<String>,
    }

    /// The fixture payloads of an agent that decode (JSON payload forms).
    fn fixture_payloads(p: Provider) -> Vec<Decoded> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures")
            .join(p.id());
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        names.sort();
        let mut out = Vec::new();
        for path in names {
            let text = std::fs::read_to_string(&path).unwrap();
            let case: Value = serde_json::from_str(&text).unwrap();
            let Some(Value::Object(payload)) = case.get("payload") else {
                continue;
            };
            if case.pointer("/expect/error").is_some() {
                continue;
            }
            let opts = crate::dialect::DecodeOptions {
                event: case
                    .get("event")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                ..Default::default()
            };
            let bytes = serde_json::to_vec(payload).unwrap();
            crate::dialect::fields::record::start();
            let decoded = crate::dialect::decode(p, &bytes, &opts);
            let reads = crate::dialect::fields::record::stop();
            out.push(Decoded {
                name: case["name"].as_str().unwrap_or_default().to_string(),
                event: decoded
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                    .native_name,
                payload: payload.clone(),
                reads,
            });
        }
        out
    }

    /// Whether a dotted path is declared: found, or inside a declared
    /// object whose properties are left open.
    fn declared(nodes: &[Node], path: &str) -> bool {
        let mut level = nodes;
        for seg in path.split('.') {
            let Some(n) = level.iter().find(|n| n.def.name == seg) else {
                return false;
            };
            if n.children.is_empty() {
                return true;
            }
            level = &n.children;
        }
        true
    }

    /// A decoder names a nested object's fields from where it starts
    /// (`model.id` for the payload's `input.model.id`): the candidates
    /// are the path itself and the path under each top-level object.
    fn candidates(payload: &Map<String, Value>, path: &str) -> Vec<String> {
        let mut c = vec![path.to_string()];
        for (k, v) in payload {
            if v.is_object() {
                c.push(format!("{k}.{path}"));
            }
        }
        c
    }

    fn present(payload: &Map<String, Value>, path: &str) -> bool {
        let mut cur: Option<&Value> = None;
        for (i, seg) in path.split('.').enumerate() {
            cur = if i == 0 {
                payload.get(seg)
            } else {
                cur.and_then(|v| v.get(seg))
            };
        }
        cur.is_some()
    }

    /// The tables are proved against the decoders: every key a decoder
    /// reads (through `Fields`/`Obj`) while decoding a fixture payload is
    /// declared for that agent and event when the payload has it, and is
    /// declared for the agent (some event) when it does not.
    #[test]
    fn every_key_a_decoder_reads_is_declared() {
        let mut checked = 0usize;
        let mut missing = Vec::new();
        for p in Provider::ALL {
            let t = agent(p);
            let mut everywhere: Vec<Vec<Node>> = t
                .events
                .iter()
                .map(|e| t.input_nodes(e.name).unwrap())
                .collect();
            everywhere.push(t.input_nodes("").unwrap());
            for d in fixture_payloads(p) {
                let nodes = t.input_nodes(&d.event).unwrap();
                for key in &d.reads {
                    checked += 1;
                    let cands = candidates(&d.payload, key);
                    let ok = match cands.iter().find(|c| present(&d.payload, c)) {
                        Some(c) => declared(&nodes, c),
                        None => {
                            t.tolerated.contains(&key.as_str())
                                || cands
                                    .iter()
                                    .any(|c| everywhere.iter().any(|n| declared(n, c)))
                        }
                    };
                    if !ok {
                        missing.push(format!("{} {}: `{key}` ({})", p.id(), d.event, d.name));
                    }
                }
            }
        }
        missing.sort();
        missing.dedup();
        assert!(checked > 500, "only {checked} reads recorded");
        assert!(
            missing.is_empty(),
            "keys read but not declared:\n{}",
            missing.join("\n")
        );
    }

    /// The proof above can fail: the recorder sees the decoder's reads,
    /// and a key the table does not declare is caught.
    #[test]
    fn the_read_recorder_and_the_declared_check_bite() {
        crate::dialect::fields::record::start();
        let payload = br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"mcp_server":{"name":"m"}}"#;
        crate::dialect::decode(Provider::ClaudeCode, payload, &Default::default()).unwrap();
        let reads = crate::dialect::fields::record::stop();
        for k in [
            "hook_event_name",
            "session_id",
            "tool_name",
            "tool_input",
            "mcp_server",
        ] {
            assert!(reads.iter().any(|r| r == k), "{k} not recorded: {reads:?}");
        }
        let nodes = agent(Provider::ClaudeCode)
            .input_nodes("PreToolUse")
            .unwrap();
        assert!(declared(&nodes, "tool_name"));
        assert!(declared(&nodes, "mcp_server.name"));
        assert!(
            declared(&nodes, "tool_input.anything"),
            "tool_input is open"
        );
        assert!(!declared(&nodes, "no_such_field"));
        assert!(!declared(&nodes, "mcp_server.no_such_field"));
        let stop = agent(Provider::ClaudeCode).input_nodes("Stop").unwrap();
        assert!(
            !declared(&stop, "tool_name"),
            "events do not share their fields"
        );
    }

    /// Drift: unknown top-level keys, and unknown keys one level inside
    /// objects with known properties, with their JSON type; values never.
    #[test]
    fn unknown_fields_name_and_type_only() {
        let payload: Value = serde_json::json!({
            "session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"brand_new_arg": 1},
            "mcp_server": {"name": "m", "transport": "stdio"},
            "new_top": [1, 2], "secret_looking": "sk-123"
        });
        let Value::Object(m) = payload else {
            unreachable!()
        };
        let u = agent(Provider::ClaudeCode).unknown_fields("PreToolUse", &m);
        assert_eq!(
            u,
            vec![
                ("mcp_server.transport".to_string(), "string"),
                ("new_top".to_string(), "array"),
                ("secret_looking".to_string(), "string"),
            ]
        );
    }
}
