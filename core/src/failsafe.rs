//! The failsafe table: what a hook answers when its own native part (the
//! Python extension, the Node addon) cannot load.
//!
//! A guard whose native code fails to load must not vanish: a Python hook
//! that dies with a traceback exits 1, which most agents read as "no
//! opinion", and an OpenCode plugin whose import throws is dropped without
//! a word. The bindings therefore catch the failed load and answer with
//! the declared fail policy without any native code, from this table,
//! which is rendered here from the core's own fail answers and committed
//! as JSON into both packages (`bindings/python/python/agenthooks/_fail_table.json`,
//! `bindings/node/lib/fail-table.json`); `core/tests/failsafe_table.rs`
//! fails when a committed copy is stale.
//!
//! Each answer is what [`crate::dialect::fail_response_for_payload`] gives
//! for that agent (the payload cannot be decoded without the core), with
//! the error replaced by the placeholder [`PLACEHOLDER`]: the binding puts
//! `native_unavailable: <why the load failed>` there (JSON-escaped inside
//! `stdout`, which is JSON text), so every stderr line starts with
//! [`MARKER`], which `agenthooks doctor` looks for.

use serde_json::{Map, Value, json};

use crate::dialect::{self, DEFAULT_MAX_BYTES, DecodeOptions};
use crate::error::{Error, ErrorCode};
use crate::model::{Event, Kind, Policy, Provider, Response};

/// The code a binding reports when its native part cannot load (not a core
/// [`ErrorCode`]: the core is what is missing).
pub const CODE: &str = "native_unavailable";

/// How every failsafe diagnostic line starts (stderr, agent logs).
pub const MARKER: &str = "agenthooks: native_unavailable: ";

/// Stands for `native_unavailable: <cause>` in the table's answers.
pub const PLACEHOLDER: &str = "@@CAUSE@@";

/// Version of the table's layout (bumped when a field changes meaning).
pub const FORMAT: u32 = 1;

/// The sentinel error the answers are rendered with; its code and message
/// are then replaced by [`PLACEHOLDER`].
const SENTINEL_MESSAGE: &str = "@@DETAIL@@";

fn sentinel() -> Error {
    Error::Handler {
        message: SENTINEL_MESSAGE.into(),
    }
}

/// Replaces the sentinel's `<code>: <message>` and any remaining bare code
/// (e.g. `Blocked because the hook could not read its input (<code>)`).
fn templated(s: &str) -> String {
    let err = sentinel();
    let code = err.code().as_str();
    s.replace(&format!("{code}: {err}"), PLACEHOLDER)
        .replace(code, PLACEHOLDER)
}

fn answer(r: &Response) -> Value {
    json!({
        "stdout": templated(&r.stdout),
        "stderr": templated(&r.stderr),
        "exit_code": r.exit_code,
    })
}

/// Every native event name any dialect documents, sorted and deduplicated.
fn all_native_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Provider::ALL
        .iter()
        .flat_map(|p| dialect::native_events(*p).iter().copied())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The payload fields that may name the event, the dialect's own first (as
/// it reports it when missing: `hook_event_name`, `hook`, `hookName`), then
/// the two the core peeks at in any payload.
fn event_fields(p: Provider) -> Vec<String> {
    let mut fields = Vec::new();
    if let Err(Error::MissingEvent { field, .. }) =
        dialect::decode(p, b"{}", &DecodeOptions::default())
    {
        if let Some(first) = field.split_whitespace().next() {
            fields.push(first.to_string());
        }
    }
    for f in ["hook_event_name", "hookEventName"] {
        if !fields.iter().any(|x| x == f) {
            fields.push(f.to_string());
        }
    }
    fields
}

/// How `Kind::parse` compares spellings (see `model::kind`): `.`, `-`, `_`
/// and spaces dropped, lower case.
fn normalize_kind_spelling(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '.' | '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

fn provider_entry(p: Provider, names: &[&'static str]) -> Value {
    let err = sentinel();
    let closed = Policy::fail_closed();
    let open = Policy::default();
    let closed_default = dialect::fail_response_for_payload(p, b"", &err, &closed);
    let open_default = dialect::fail_response_for_payload(p, b"", &err, &open);
    // Events the core answers differently once it can peek at their name
    // (Claude Code's PermissionRequest, stop events: quirk-driven).
    let mut closed_events = Map::new();
    for name in names {
        let payload = json!({ "hook_event_name": name }).to_string();
        let r = dialect::fail_response_for_payload(p, payload.as_bytes(), &err, &closed);
        if r.stdout != closed_default.stdout
            || r.stderr != closed_default.stderr
            || r.exit_code != closed_default.exit_code
        {
            closed_events.insert((*name).to_string(), answer(&r));
        }
    }
    let mut kinds = Map::new();
    // The events on which a failing handler blocks (the core's
    // `fail_response` for a decoded event notes `fail_closed` -> `block`);
    // on every other event fail-closed only logs.
    let mut blocks = Vec::new();
    for name in names {
        let k = dialect::kind_of(p, name);
        if k != Kind::Other {
            kinds.insert((*name).to_string(), json!(k.as_str()));
        }
        let ev = Event::new(p, *name, k);
        let r = dialect::fail_response(p, Some(&ev), &err, &closed);
        if r.notes
            .iter()
            .any(|n| n.code == "fail_closed" && n.to.as_deref() == Some("block"))
        {
            blocks.push(*name);
        }
    }
    json!({
        "event_fields": event_fields(p),
        "kinds": kinds,
        "closed_blocks": blocks,
        "open": answer(&open_default),
        "closed": answer(&closed_default),
        "closed_events": closed_events,
    })
}

/// The whole table (see the module docs). Deterministic: maps are sorted.
pub fn table() -> Value {
    let names = all_native_names();
    let mut providers = Map::new();
    for p in Provider::ALL {
        providers.insert(p.id().to_string(), provider_entry(p, &names));
    }
    // Every spelling `Kind::parse` accepts among the kinds' own names and
    // the native event names, normalized as it normalizes them.
    let mut spellings = Map::new();
    let candidates = Kind::ALL
        .iter()
        .map(|k| k.as_str())
        .chain(names.iter().copied());
    for c in candidates {
        if let Ok(k) = Kind::parse(c) {
            spellings.insert(normalize_kind_spelling(c), json!(k.as_str()));
        }
    }
    let err = sentinel();
    // An agent the failsafe cannot name (no `--provider`, an alias it does
    // not know): exit 2 with the reason on stderr blocks on the gating
    // events of every command-hook agent (Claude Code, Codex, Cursor,
    // Gemini CLI, Kimi Code, Copilot CLI); exit 0 is neutral everywhere.
    let unknown_closed =
        dialect::fail_response_for_payload(Provider::ClaudeCode, b"", &err, &Policy::fail_closed());
    let unknown_open =
        dialect::fail_response_for_payload(Provider::ClaudeCode, b"", &err, &Policy::default());
    json!({
        "format": FORMAT,
        "generated_by": "core/src/failsafe.rs (make fail-table); do not edit",
        "version": env!("CARGO_PKG_VERSION"),
        "code": CODE,
        "marker": MARKER,
        "placeholder": PLACEHOLDER,
        // `<program> agenthooks run --help`: the usage on stdout, exit 0.
        "run_usage": crate::usage::run_usage(),
        "max_bytes": DEFAULT_MAX_BYTES,
        "policy": Policy::default(),
        "error_codes": ErrorCode::ALL.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
        "provider_ids": Provider::ALL.iter().map(|p| p.id()).collect::<Vec<_>>(),
        "kinds": Kind::ALL.iter().map(|k| k.as_str()).collect::<Vec<_>>(),
        "kind_spellings": spellings,
        // Every `--provider` spelling the core accepts (normalized as
        // `Provider::parse` normalizes: trimmed, ASCII lower case, `_` as
        // `-`), with its id: an alias names the agent without the core too.
        "provider_spellings": Provider::SPELLINGS
            .iter()
            .map(|(s, p)| ((*s).to_string(), json!(p.id())))
            .collect::<Map<String, Value>>(),
        "unknown_provider": {
            "open": answer(&unknown_open),
            "closed": answer(&unknown_closed),
        },
        "providers": providers,
    })
}

/// [`table`] as the committed file holds it: pretty JSON, one trailing newline.
pub fn table_json() -> String {
    let mut s = serde_json::to_string_pretty(&table()).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

/// The cause a hook's stderr reports when its native part could not load
/// (the text after [`MARKER`] on the first line that has it), for
/// `agenthooks doctor`.
pub fn native_unavailable_cause(stderr: &str) -> Option<&str> {
    stderr
        .lines()
        .find_map(|l| l.split_once(MARKER).map(|(_, rest)| rest.trim_end()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_sentinel_survives_and_every_closed_answer_names_the_cause() {
        let v = table();
        let answers = format!("{}{}", v["providers"], v["unknown_provider"]);
        assert!(!answers.contains(SENTINEL_MESSAGE), "{answers}");
        assert!(!answers.contains("handler_error"), "{answers}");
        for (id, p) in v["providers"].as_object().unwrap() {
            let closed = &p["closed"];
            let text = format!("{}{}", closed["stdout"], closed["stderr"]);
            assert!(text.contains(PLACEHOLDER), "{id}: {closed}");
            assert!(
                closed["stderr"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("agenthooks: {PLACEHOLDER}")),
                "{id}: {closed}"
            );
        }
    }

    #[test]
    fn doctor_marker_is_found_on_any_line() {
        let e = "note\nagenthooks: native_unavailable: cannot load x\n";
        assert_eq!(native_unavailable_cause(e), Some("cannot load x"));
        assert_eq!(native_unavailable_cause("agenthooks: io: x\n"), None);
    }
}
