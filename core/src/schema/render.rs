//! Renders the tables as JSON Schema 2020-12 documents.

use serde_json::{Map, Value, json};

use super::table::{self, AgentTable, Node, Out, TYPE_NAMES, Ty};
use super::{DRAFT, ID_BASE, file_stem};

fn type_value(ty: Ty) -> Option<Value> {
    let names: Vec<&str> = TYPE_NAMES
        .iter()
        .filter(|(bit, _)| ty & bit != 0)
        .map(|(_, n)| *n)
        .collect();
    match names.as_slice() {
        [] => None,
        [one] => Some(json!(one)),
        many => Some(json!(many)),
    }
}

/// The schema of one field (and, recursively, its known contents).
fn node_schema(n: &Node) -> Value {
    let mut m = Map::new();
    if let Some(t) = type_value(n.def.ty) {
        m.insert("type".into(), t);
    }
    m.insert("description".into(), json!(n.def.desc));
    if !n.children.is_empty() {
        object_body(&mut m, &n.children);
    }
    if let Some(item) = n.def.items.first() {
        m.insert("items".into(), node_schema(&item_node(*item)));
    }
    Value::Object(m)
}

fn item_node(def: table::Field) -> Node {
    Node::new(def, def.req)
}

/// `properties`, `required` and `additionalProperties: true` of an object.
fn object_body(m: &mut Map<String, Value>, children: &[Node]) {
    let mut props = Map::new();
    let mut req = Vec::new();
    for c in children {
        props.insert(c.def.name.to_string(), node_schema(c));
        if c.req {
            req.push(json!(c.def.name));
        }
    }
    m.insert("properties".into(), Value::Object(props));
    m.insert("required".into(), Value::Array(req));
    m.insert("additionalProperties".into(), json!(true));
}

fn document(
    path: &str,
    title: String,
    description: String,
    nodes: &[Node],
    extra: &[(&str, Value)],
) -> Value {
    let mut m = Map::new();
    m.insert("$schema".into(), json!(DRAFT));
    m.insert("$id".into(), json!(format!("{ID_BASE}{path}")));
    m.insert("title".into(), json!(title));
    m.insert("description".into(), json!(description));
    for (k, v) in extra {
        m.insert((*k).to_string(), v.clone());
    }
    m.insert("type".into(), json!("object"));
    object_body(&mut m, nodes);
    Value::Object(m)
}

fn nodes_or_base(t: &AgentTable, event: &str) -> Vec<Node> {
    // Every reference resolves (tables_resolve_and_match_the_dialects).
    t.input_nodes(event).unwrap_or_default()
}

pub(super) fn input(t: &AgentTable, event: &str) -> Value {
    let id = t.provider.id();
    let path = format!("{id}/{}.input.json", file_stem(t.provider, event));
    let what = match t.event(event) {
        Some(e) => e.desc.to_string(),
        None => format!(
            "An event {id} {} does not document: its base fields.",
            t.version
        ),
    };
    document(
        &path,
        format!("{id} {event} input"),
        format!(
            "{what} The payload {id} {} sends to a hook on `{event}` ({}).",
            t.version, t.source
        ),
        &nodes_or_base(t, event),
        &[],
    )
}

pub(super) fn output(t: &AgentTable, event: &str) -> Value {
    let id = t.provider.id();
    let path = format!("{id}/{}.output.json", file_stem(t.provider, event));
    let title = format!("{id} {event} output");
    match t.out(event) {
        Out::Json(refs) => {
            let nodes = t.output_nodes(event, refs).unwrap_or_default();
            document(
                &path,
                title,
                format!(
                    "The JSON object {id} {} reads from a hook's stdout on `{event}` (empty stdout: no opinion).",
                    t.version
                ),
                &nodes,
                &[("x-agenthooks-stdout", json!("json"))],
            )
        }
        Out::Text(desc) => document(
            &path,
            title,
            format!("{id} reads stdout on `{event}` as plain text, not JSON: {desc}"),
            &[],
            &[("x-agenthooks-stdout", json!("text"))],
        ),
        Out::Empty(desc) => document(
            &path,
            title,
            format!("{id} does not read stdout on `{event}`: {desc}"),
            &[],
            &[("x-agenthooks-stdout", json!("empty"))],
        ),
    }
}

/// The schema of the canonical event JSON (`docs/canonical-json.md`).
pub fn canonical_event_schema() -> Value {
    let nodes = table::canonical::event_nodes();
    document(
        "canonical/event.json",
        "canonical event".into(),
        "The unified event every agent's payload decodes to (docs/canonical-json.md). Absent, null, false, empty strings and empty arrays/objects are omitted.".into(),
        &nodes,
        &[],
    )
}

/// The schema of the decision JSON handlers answer with.
pub fn canonical_decision_schema() -> Value {
    let nodes = table::canonical::decision_nodes();
    document(
        "canonical/decision.json",
        "canonical decision".into(),
        "A handler's decision, encoded into each agent's wire answer (docs/canonical-json.md)."
            .into(),
        &nodes,
        &[],
    )
}
