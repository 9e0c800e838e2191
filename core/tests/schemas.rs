//! The committed `schemas/` files are exactly what the tables render
//! (`make schemas` rewrites them with `AGENTHOOKS_BLESS=1`; `make
//! schemas-check` runs this test), and every rendered schema keeps the
//! contract the generated native views rely on.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use agenthooks::Provider;
use agenthooks::schema;
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas")
}

/// Every `.json` file under `schemas/`, relative, sorted.
fn committed(dir: &Path, rel: &str, out: &mut BTreeSet<String>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let r = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if e.path().is_dir() {
            committed(&e.path(), &r, out);
        } else if name.ends_with(".json") {
            out.insert(r);
        }
    }
}

#[test]
fn committed_schemas_are_fresh() {
    let files = schema::files();
    let dir = root();
    if std::env::var_os("AGENTHOOKS_BLESS").is_some() {
        let mut old = BTreeSet::new();
        committed(&dir, "", &mut old);
        for stale in &old {
            if !files.iter().any(|(p, _)| p == stale) {
                std::fs::remove_file(dir.join(stale)).expect("remove stale schema");
            }
        }
        for (rel, text) in &files {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                std::fs::write(&path, text).expect("write schema");
            }
        }
        return;
    }
    let mut stale = Vec::new();
    for (rel, text) in &files {
        match std::fs::read_to_string(dir.join(rel)) {
            Ok(t) if t == *text => {}
            Ok(_) => stale.push(format!("{rel} (differs)")),
            Err(_) => stale.push(format!("{rel} (missing)")),
        }
    }
    let mut on_disk = BTreeSet::new();
    committed(&dir, "", &mut on_disk);
    for rel in on_disk {
        if !files.iter().any(|(p, _)| *p == rel) {
            stale.push(format!("{rel} (not generated any more)"));
        }
    }
    assert!(
        stale.is_empty(),
        "schemas/ is stale: run `make schemas` and commit it:\n{}",
        stale.join("\n")
    );
}

const TYPES: &[&str] = &[
    "string", "integer", "number", "boolean", "object", "array", "null",
];

/// A property schema: `type` absent, a type name or a list of them;
/// a description; objects' properties and arrays' items recursively.
fn check_property(v: &Value, at: &str) {
    let m = v
        .as_object()
        .unwrap_or_else(|| panic!("{at}: not an object"));
    match m.get("type") {
        None => {}
        Some(Value::String(t)) => assert!(TYPES.contains(&t.as_str()), "{at}: type {t}"),
        Some(Value::Array(ts)) => {
            assert!(ts.len() > 1, "{at}: a one-type list");
            for t in ts {
                assert!(TYPES.contains(&t.as_str().unwrap_or("")), "{at}: type {t}");
            }
        }
        Some(other) => panic!("{at}: type {other}"),
    }
    assert!(
        m.get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| !d.trim().is_empty()),
        "{at}: no description"
    );
    assert!(!m.contains_key("$ref"), "{at}: $ref");
    if let Some(props) = m.get("properties") {
        assert_eq!(
            m.get("additionalProperties"),
            Some(&Value::Bool(true)),
            "{at}"
        );
        for (k, p) in props.as_object().expect("properties") {
            check_property(p, &format!("{at}.{k}"));
        }
    }
    if let Some(items) = m.get("items") {
        check_property(items, &format!("{at}[]"));
    }
}

#[test]
fn every_schema_keeps_the_contract() {
    let files = schema::files();
    let index: Value = serde_json::from_str(
        &files
            .iter()
            .find(|(p, _)| p == "index.json")
            .expect("index")
            .1,
    )
    .expect("index JSON");
    let mut n = 0;
    for p in Provider::ALL {
        let entry = &index["agents"][p.id()];
        assert_eq!(
            entry["version"].as_str(),
            Some(schema::agent_version(p)),
            "{}",
            p.id()
        );
        let events = entry["events"].as_object().expect("events");
        let native: Vec<&str> = agenthooks::native_events(p).to_vec();
        assert_eq!(events.keys().count(), native.len(), "{}", p.id());
        for e in native {
            for (which, v) in [
                ("input", schema::input_schema(p, e)),
                ("output", schema::output_schema(p, e)),
            ] {
                let rel = events[e][which].as_str().expect("path");
                let text = &files.iter().find(|(f, _)| f == rel).expect(rel).1;
                assert_eq!(serde_json::from_str::<Value>(text).unwrap(), v, "{rel}");
                assert_eq!(
                    v["$schema"], "https://json-schema.org/draft/2020-12/schema",
                    "{rel}"
                );
                assert_eq!(v["$id"], format!("{}{rel}", schema::ID_BASE));
                assert_eq!(v["title"], format!("{} {e} {which}", p.id()), "{rel}");
                assert_eq!(v["type"], "object", "{rel}");
                assert!(v["required"].is_array(), "{rel}");
                check_property(&v, rel);
                n += 1;
            }
        }
    }
    for rel in ["canonical/event.json", "canonical/decision.json"] {
        let v: Value =
            serde_json::from_str(&files.iter().find(|(f, _)| f == rel).expect(rel).1).unwrap();
        check_property(&v, rel);
    }
    assert!(n > 400, "{n} schemas");
}

/// Unknown agents' events and unknown events are refused with a clear
/// error by the checked accessors; the unchecked ones fall back to the
/// agent's base fields.
#[test]
fn unknown_events_are_refused_or_get_the_base_fields() {
    let err = schema::input_schema_checked(Provider::ClaudeCode, "NoSuchEvent").unwrap_err();
    assert_eq!(err.code().as_str(), "invalid_argument");
    assert!(err.to_string().contains("NoSuchEvent"), "{err}");
    assert!(schema::output_schema_checked(Provider::Codex, "Nope").is_err());
    let base = schema::input_schema(Provider::ClaudeCode, "NoSuchEvent");
    assert!(base["properties"]["session_id"].is_object());
    assert!(base["properties"].get("stop_hook_active").is_none());
    assert_eq!(
        schema::output_schema(Provider::ClaudeCode, "NoSuchEvent")["x-agenthooks-stdout"],
        "empty"
    );
}
