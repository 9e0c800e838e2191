//! JSON Schemas (draft 2020-12) of every agent's native hook payloads and
//! answers, rendered from one declarative table per agent
//! (`schema/table/<agent>.rs`): the fields each native event sends on
//! stdin and the fields the agent reads from the hook's stdout.
//!
//! The tables are the one source of truth: `make schemas` writes the
//! rendered files to `schemas/` (`make schemas-check` fails when they are
//! stale), the crate renders the same schemas without any files, and
//! drift detection ([`unknown_fields`]) compares payloads with them.

pub mod drift;
mod render;
pub(crate) mod table;

use serde_json::{Map, Value};

use crate::error::Error;
use crate::model::Provider;

pub use render::{canonical_decision_schema, canonical_event_schema};

/// The JSON Schema dialect every schema declares.
pub const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The base of every schema's `$id` (the file path is appended).
pub const ID_BASE: &str = "https://raw.githubusercontent.com/agenthooks/agenthooks/main/schemas/";

/// The agent version the table was written against (what the real-agent
/// suite pins).
pub fn agent_version(provider: Provider) -> &'static str {
    table::agent(provider).version
}

/// The native events the table describes, in documentation order (the
/// same list as `dialect::native_events`; a test keeps them equal).
pub fn events(provider: Provider) -> Vec<&'static str> {
    table::agent(provider)
        .events
        .iter()
        .map(|e| e.name)
        .collect()
}

/// The schema of the payload `provider` sends on `event`; an event the
/// table does not list gets the agent's base fields
/// ([`input_schema_checked`] refuses it instead).
pub fn input_schema(provider: Provider, event: &str) -> Value {
    render::input(table::agent(provider), event)
}

/// The schema of what `provider` reads from a hook's stdout on `event`.
pub fn output_schema(provider: Provider, event: &str) -> Value {
    render::output(table::agent(provider), event)
}

/// [`input_schema`], refusing an event the agent does not document.
pub fn input_schema_checked(provider: Provider, event: &str) -> Result<Value, Error> {
    check_event(provider, event)?;
    Ok(input_schema(provider, event))
}

/// [`output_schema`], refusing an event the agent does not document.
pub fn output_schema_checked(provider: Provider, event: &str) -> Result<Value, Error> {
    check_event(provider, event)?;
    Ok(output_schema(provider, event))
}

fn check_event(provider: Provider, event: &str) -> Result<(), Error> {
    if table::agent(provider).event(event).is_some() {
        Ok(())
    } else {
        Err(Error::InvalidArgument {
            message: format!(
                "{} has no native event `{event}` (known: {})",
                provider.id(),
                events(provider).join(", ")
            ),
        })
    }
}

/// The file name of a native event's schemas (without `.input.json`):
/// the native name, with characters unsafe in file names (anything but
/// ASCII letters, digits, `-`, `_` and `.`) replaced by `_`; native names
/// keep their dots (`tool.execute.before`). A name equal, ignoring case,
/// to an earlier native name of the same agent gets `.2` (Copilot CLI's
/// VS Code-compatible `SessionStart` beside its own `sessionStart`:
/// `SessionStart.2`), so no two files differ only in case (macOS,
/// Windows and Go modules treat those as one).
pub fn file_stem(provider: Provider, event: &str) -> String {
    let safe = |e: &str| -> String {
        e.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let stem = safe(event);
    let events = table::agent(provider).events;
    let earlier = events
        .iter()
        .take_while(|e| e.name != event)
        .any(|e| safe(e.name).eq_ignore_ascii_case(&stem));
    if earlier && events.iter().any(|e| e.name == event) {
        format!("{stem}.2")
    } else {
        stem
    }
}

/// Every schema file, as `(path relative to schemas/, rendered JSON
/// text)`, in a stable order: what `make schemas` writes.
pub fn files() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in Provider::ALL {
        for e in table::agent(p).events {
            let (input, output) = paths(p, e.name);
            out.push((input, pretty(&input_schema(p, e.name))));
            out.push((output, pretty(&output_schema(p, e.name))));
        }
    }
    out.push((
        "canonical/event.json".into(),
        pretty(&canonical_event_schema()),
    ));
    out.push((
        "canonical/decision.json".into(),
        pretty(&canonical_decision_schema()),
    ));
    out.push(("index.json".into(), pretty(&index())));
    out
}

/// The input and output schema paths of an event, relative to `schemas/`.
fn paths(p: Provider, event: &str) -> (String, String) {
    let stem = file_stem(p, event);
    (
        format!("{}/{stem}.input.json", p.id()),
        format!("{}/{stem}.output.json", p.id()),
    )
}

/// `schemas/index.json`: every agent's pinned version and its events'
/// schema files, and the canonical schemas.
pub fn index() -> Value {
    let mut agents = Map::new();
    for p in Provider::ALL {
        let t = table::agent(p);
        let mut evs = Map::new();
        for e in t.events {
            let (input, output) = paths(p, e.name);
            evs.insert(
                e.name.to_string(),
                serde_json::json!({"input": input, "output": output}),
            );
        }
        agents.insert(
            p.id().to_string(),
            serde_json::json!({"version": t.version, "events": evs}),
        );
    }
    serde_json::json!({
        "agents": agents,
        "canonical": {"event": "canonical/event.json", "decision": "canonical/decision.json"},
    })
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

/// The top-level payload fields (and fields one level inside objects the
/// table describes) that the table does not know for `provider`'s
/// `event`, as `(dotted name, JSON type)`, in payload order. Values are
/// never looked at beyond their type.
pub fn unknown_fields(
    provider: Provider,
    event: &str,
    payload: &Map<String, Value>,
) -> Vec<(String, &'static str)> {
    table::agent(provider).unknown_fields(event, payload)
}
