//! The typed native views (`agenthooks::native`, generated from `schemas/`)
//! against every provider fixture whose payload is a JSON object that
//! decodes: the view of its event must hold each property the event's
//! input schema declares exactly as the payload has it, every required
//! property must be there, and the view re-serialized must be the payload
//! (undeclared fields kept in `extra`). The schemas are read here, not
//! through the generated code, so a generator bug cannot hide itself.

use std::path::{Path, PathBuf};

use agenthooks::native::{self, Native};
use agenthooks::{DecodeOptions, ErrorCode, Event, Provider};
use serde_json::{Map, Value};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn schemas_dir() -> PathBuf {
    // An override for working against another schema set (the generator's --schemas).
    match std::env::var_os("AH_SCHEMAS_DIR") {
        Some(d) => PathBuf::from(d),
        None => root().join("schemas"),
    }
}

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The payload of a fixture when it is a JSON object (the forms that give one).
fn object_payload(case: &Value) -> Option<Vec<u8>> {
    if let Some(p) = case.get("payload") {
        return p.is_object().then(|| serde_json::to_vec(p).unwrap());
    }
    if let Some(Value::String(t)) = case.get("payload_text") {
        // Read as the core reads payloads (lone surrogates, deep nesting).
        let v = agenthooks::json::parse_value(t).ok()?;
        return v.is_object().then(|| t.as_bytes().to_vec());
    }
    if let Some(g) = case.get("payload_gen") {
        if g["kind"] == "big_field" {
            let mut base = g["base"].as_object().cloned().unwrap();
            let n = g["bytes"].as_u64().unwrap() as usize;
            base.insert(
                g["field"].as_str().unwrap().to_string(),
                Value::String("x".repeat(n)),
            );
            return Some(serde_json::to_vec(&Value::Object(base)).unwrap());
        }
    }
    None
}

/// JSON equality with numbers compared as numbers (a `number` property is
/// an f64 in the view: `5` comes back as `5.0`), and a `null` in the
/// payload matching an absent key in the view where the view types the
/// value as optional (`Option::None` is not re-serialized).
fn same(view: &Value, payload: &Value, path: &str) -> Result<(), String> {
    match (view, payload) {
        (Value::Number(a), Value::Number(b)) => {
            let eq = match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ => a.as_f64() == b.as_f64(),
            };
            if eq {
                Ok(())
            } else {
                Err(format!("{path}: view {a} != payload {b}"))
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                return Err(format!(
                    "{path}: {} items in the view, {} in the payload",
                    a.len(),
                    b.len()
                ));
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                same(x, y, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        (Value::Object(a), Value::Object(b)) => same_object(a, b, path),
        _ if view == payload => Ok(()),
        _ => Err(format!("{path}: view {view} != payload {payload}")),
    }
}

fn same_object(a: &Map<String, Value>, b: &Map<String, Value>, path: &str) -> Result<(), String> {
    for (k, pv) in b {
        match a.get(k) {
            Some(vv) => same(vv, pv, &format!("{path}.{k}"))?,
            None if pv.is_null() => {}
            None => return Err(format!("{path}.{k}: in the payload, not in the view")),
        }
    }
    for k in a.keys() {
        if !b.contains_key(k) {
            return Err(format!("{path}.{k}: in the view, not in the payload"));
        }
    }
    Ok(())
}

#[test]
fn every_object_payload_reads_through_its_typed_view() {
    let dir = schemas_dir();
    let index = read_json(&dir.join("index.json"));
    let mut checked = 0usize;
    let mut eligible = 0usize;
    let mut unlisted = Vec::new();
    let mut failures = Vec::new();
    for p in Provider::ALL {
        let agent = p.id();
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures").join(agent))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for f in files {
            let case = read_json(&f);
            let name = case["name"].as_str().unwrap_or("?").to_string();
            if case["expect"].get("event").is_none() {
                continue; // an error case: nothing decodes
            }
            let Some(bytes) = object_payload(&case) else {
                continue;
            };
            let opts = DecodeOptions {
                variant: case["variant"].as_str().map(str::to_string),
                event: case["event"].as_str().map(str::to_string),
                ..DecodeOptions::default()
            };
            let ev: Event = match agenthooks::decode(p, &bytes, &opts) {
                Ok(ev) => ev,
                Err(e) => {
                    failures.push(format!("{name}: does not decode: {e}"));
                    continue;
                }
            };
            let Some(entry) = index["agents"][agent]["events"].get(&ev.native_name) else {
                // Not in the schemas: the view is the payload, untyped.
                match ev.native() {
                    Ok(n) if is_other(&n) && n.to_value() == ev.raw_json() => unlisted.push(name),
                    other => failures.push(format!("{name}: unlisted event gave {other:?}")),
                }
                continue;
            };
            eligible += 1;
            let schema = read_json(&dir.join(entry["input"].as_str().unwrap()));
            let payload =
                agenthooks::json::parse_value(std::str::from_utf8(&bytes).unwrap()).unwrap();
            match check_one(&ev, &schema, &payload) {
                Ok(()) => checked += 1,
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!(
        "native views (rust): {checked} payloads checked ({} of events the schemas do not list: {})",
        unlisted.len(),
        unlisted.join(", ")
    );
    assert!(checked > 0);
    assert_eq!(checked, eligible);
}

fn check_one(ev: &Event, schema: &Value, payload: &Value) -> Result<(), String> {
    let native = ev.native().map_err(|e| format!("no typed view: {e}"))?;
    // The agent's enum chose the variant of this event (not `Other`).
    if is_other(&native) {
        return Err(format!("the event {} came back untyped", ev.native_name));
    }
    let view = native.to_value();
    let view = view.as_object().ok_or("the view is not an object")?;
    let payload = payload.as_object().ok_or("the payload is not an object")?;
    let props = schema["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let extra = native.extra().ok_or("no top-level extra")?;
    for k in props.keys() {
        if extra.contains_key(k) {
            return Err(format!("{k}: declared, but the view left it in `extra`"));
        }
    }
    let mut declared = 0;
    for (k, _) in props.iter() {
        let Some(pv) = payload.get(k) else { continue };
        declared += 1;
        match view.get(k) {
            Some(vv) => same(vv, pv, k)?,
            None if pv.is_null() => {}
            None => return Err(format!("{k}: declared and in the payload, not in the view")),
        }
    }
    for r in schema["required"].as_array().into_iter().flatten() {
        let r = r.as_str().ok_or("a required entry is not a string")?;
        if !payload.contains_key(r) {
            return Err(format!("required {r} is not in the payload"));
        }
        if !view.contains_key(r) && !payload[r].is_null() {
            return Err(format!("required {r} is not in the view"));
        }
    }
    // The whole view (declared + extra) is the payload again.
    same_object(view, payload, "$")?;
    if declared == 0 && !props.is_empty() {
        return Err("no declared property is in the payload".into());
    }
    Ok(())
}

#[test]
fn a_view_of_another_event_or_agent_is_an_error_not_a_panic() {
    let payload = br#"{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false}"#;
    let ev = agenthooks::decode(Provider::ClaudeCode, payload, &DecodeOptions::default()).unwrap();
    let e = native::claude_code::PreToolUse::from_event(&ev).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidArgument, "{e}");
    let e = native::codex::Stop::from_event(&ev).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidArgument, "{e}");
}

#[test]
fn a_payload_of_the_wrong_type_is_wrong_type() {
    // tool_name is a string in every PreToolUse schema; a number is not.
    let payload = br#"{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":7,"tool_input":{},"tool_use_id":"t"}"#;
    let mut ev = Event::new(
        Provider::ClaudeCode,
        "PreToolUse",
        agenthooks::Kind::ToolPre,
    );
    ev.raw = payload.to_vec();
    let e = native::claude_code::PreToolUse::from_event(&ev).unwrap_err();
    assert_eq!(e.code(), ErrorCode::WrongType, "{e}");
    assert!(e.to_string().contains("PreToolUse"), "{e}");
    // Not JSON at all, or not an object: the decode errors, no panic.
    ev.raw = b"{\"session_id\":".to_vec();
    assert_eq!(
        native::claude_code::PreToolUse::from_event(&ev)
            .unwrap_err()
            .code(),
        ErrorCode::InvalidJson
    );
    ev.raw = b"[1]".to_vec();
    assert_eq!(
        native::claude_code::PreToolUse::from_event(&ev)
            .unwrap_err()
            .code(),
        ErrorCode::NotAnObject
    );
}

fn is_other(n: &Native) -> bool {
    use native::*;
    matches!(
        n,
        Native::ClaudeCode(claude_code::Input::Other { .. })
            | Native::Codex(codex::Input::Other { .. })
            | Native::Cursor(cursor::Input::Other { .. })
            | Native::Gemini(gemini::Input::Other { .. })
            | Native::KimiCode(kimi_code::Input::Other { .. })
            | Native::Copilot(copilot::Input::Other { .. })
            | Native::Opencode(opencode::Input::Other { .. })
            | Native::Openclaw(openclaw::Input::Other { .. })
    )
}
