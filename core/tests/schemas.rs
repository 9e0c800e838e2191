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

/// The folders `make schemas` writes: `schemas/`, and its mirrors in the
/// packages that ship it (a Go module, a wheel and an npm package cannot
/// take files from outside their own folder): the Go module's
/// `//go:embed` folder, the wheel's package data, the npm package's files.
fn roots() -> [PathBuf; 4] {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    [
        root(),
        repo.join("bindings/go/schemas/files"),
        repo.join("bindings/python/python/agenthooks/schemas"),
        repo.join("bindings/node/schemas"),
    ]
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
    let bless = std::env::var_os("AGENTHOOKS_BLESS").is_some();
    let mut stale = Vec::new();
    for dir in roots() {
        let mut on_disk = BTreeSet::new();
        committed(&dir, "", &mut on_disk);
        for rel in &on_disk {
            if !files.iter().any(|(p, _)| p == rel) {
                if bless {
                    std::fs::remove_file(dir.join(rel)).expect("remove stale schema");
                } else {
                    stale.push(format!(
                        "{} (not generated any more)",
                        dir.join(rel).display()
                    ));
                }
            }
        }
        for (rel, text) in &files {
            let path = dir.join(rel);
            if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
                continue;
            }
            if bless {
                std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
                std::fs::write(&path, text).expect("write schema");
            } else {
                stale.push(format!("{} (differs or missing)", path.display()));
            }
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
    // No two files of an agent differ only in case.
    for p in Provider::ALL {
        let mut seen = BTreeSet::new();
        for e in agenthooks::native_events(p) {
            assert!(
                seen.insert(schema::file_stem(p, e).to_ascii_lowercase()),
                "{} {e}",
                p.id()
            );
        }
    }
    assert_eq!(
        schema::file_stem(Provider::Copilot, "SessionStart"),
        "SessionStart.2"
    );
    assert_eq!(
        schema::file_stem(Provider::Copilot, "sessionStart"),
        "sessionStart"
    );
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

/// One fixture case of a provider folder.
struct Case {
    name: String,
    provider: Provider,
    case: Value,
}

fn provider_cases() -> Vec<Case> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut out = Vec::new();
    for p in Provider::ALL {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(p.id()))
            .expect("fixture folder")
            .flatten()
            .map(|e| e.path())
            .filter(|f| f.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for f in files {
            let case: Value =
                serde_json::from_str(&std::fs::read_to_string(&f).expect("read")).expect("JSON");
            out.push(Case {
                name: case["name"].as_str().unwrap_or_default().to_string(),
                provider: p,
                case,
            });
        }
    }
    out
}

fn validate(schema: &Value, instance: &Value, what: &str, problems: &mut Vec<String>) {
    let v = jsonschema::draft202012::new(schema).expect("a valid schema");
    for e in v.iter_errors(instance) {
        problems.push(format!("{what}: {} at {}", e, e.instance_path));
    }
}

/// Every fixture payload (JSON payload forms that decode) validates
/// against its event's input schema, every JSON answer against the
/// event's output schema, every expected canonical event against
/// `canonical/event.json` and every decision against
/// `canonical/decision.json`; empty answers are counted, never parsed.
#[test]
fn every_fixture_payload_and_answer_validates() {
    let cases = provider_cases();
    // The totals, counted apart from the validation below.
    let mut want = (0usize, 0usize, 0usize);
    for c in &cases {
        if c.case.get("payload").is_some_and(Value::is_object)
            && c.case.pointer("/expect/error").is_none()
        {
            want.0 += 1;
            for r in c.case["responses"].as_array().into_iter().flatten() {
                if r.pointer("/wire/stdout_json").is_some() {
                    want.1 += 1;
                } else {
                    want.2 += 1;
                }
            }
        }
    }
    let event_schema = schema::canonical_event_schema();
    let decision_schema = schema::canonical_decision_schema();
    let (mut payloads, mut answers, mut text) = (0usize, 0usize, 0usize);
    let mut problems = Vec::new();
    for c in &cases {
        let Some(payload) = c.case.get("payload").filter(|p| p.is_object()) else {
            continue; // byte-exact, generated or malformed payload forms
        };
        if c.case.pointer("/expect/error").is_some() {
            continue; // undecodable on purpose: no event to pick a schema by
        }
        let opts = agenthooks::DecodeOptions {
            event: c
                .case
                .get("event")
                .and_then(Value::as_str)
                .map(str::to_string),
            ..Default::default()
        };
        let bytes = serde_json::to_vec(payload).expect("serialize");
        let ev = agenthooks::decode(c.provider, &bytes, &opts)
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let native = ev.native_name.as_str();
        validate(
            &schema::input_schema(c.provider, native),
            payload,
            &format!("{} payload ({native})", c.name),
            &mut problems,
        );
        payloads += 1;
        if let Some(expected) = c.case.pointer("/expect/event") {
            validate(
                &event_schema,
                expected,
                &format!("{} expect.event", c.name),
                &mut problems,
            );
        }
        let out = schema::output_schema(c.provider, native);
        for (i, r) in c.case["responses"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            if let Some(d) = r.get("decision") {
                validate(
                    &decision_schema,
                    d,
                    &format!("{} responses[{i}].decision", c.name),
                    &mut problems,
                );
            }
            match r.pointer("/wire/stdout_json") {
                Some(answer) => {
                    if out["x-agenthooks-stdout"] != "json" {
                        problems.push(format!(
                            "{} responses[{i}]: a JSON answer where {} reads stdout as {}",
                            c.name, native, out["x-agenthooks-stdout"]
                        ));
                    }
                    validate(
                        &out,
                        answer,
                        &format!("{} responses[{i}] ({native})", c.name),
                        &mut problems,
                    );
                    answers += 1;
                }
                None => text += 1,
            }
        }
    }
    println!("validated {payloads} payloads, {answers} answers, {text} text answers");
    assert!(
        problems.is_empty(),
        "{} schema violations:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(payloads > 0 && answers > 0 && text > 0);
    assert_eq!((payloads, answers, text), want);
}
