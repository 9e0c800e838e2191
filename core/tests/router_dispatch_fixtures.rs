//! Runs `fixtures/router/dispatch/*.json` against the Rust `Router` (a
//! driver over the core's dispatch table). Async entries run synchronously
//! here (Rust handlers are synchronous); the vector still runs.

use std::path::Path;
use std::sync::{Arc, Mutex};

use agenthooks::dialect::{DecodeOptions, decode};
use agenthooks::{Decision, Error, Event, Kind, Matcher, Provider, Router, handler};
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    description: String,
    event: EventSpec,
    entries: Vec<Entry>,
    expect: Value,
    calls: Vec<String>,
    handles: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventSpec {
    provider: String,
    payload: Value,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Entry {
    id: String,
    role: String,
    on: String,
    #[serde(default)]
    when: Option<String>,
    #[serde(default)]
    guard: Option<bool>,
    #[serde(default, rename = "async")]
    is_async: bool,
    does: Does,
}

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields)]
struct Does {
    #[serde(default)]
    decision: Option<Value>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    next: Option<usize>,
    #[serde(default, rename = "return")]
    ret: Option<Value>,
}

fn decision(v: &Value) -> Decision {
    Decision::from_json(&v.to_string()).expect("vector decision")
}

type Log = Arc<Mutex<Vec<String>>>;

fn build(entries: &[Entry], log: &Log) -> Router {
    let mut r = Router::new();
    for e in entries.iter().cloned() {
        let log = log.clone();
        let id = e.id.clone();
        match e.role.as_str() {
            "observer" => {
                // Rust observers cannot fail: a failing one is a panic-free
                // no-op here (its failure rule is pinned in the core's
                // dispatch tests); it still must not gate.
                r.on_any(move |_e| log.lock().unwrap().push(id.clone()));
            }
            "middleware" => {
                let does = e.does.clone();
                r.middleware(move |ev, next| {
                    log.lock().unwrap().push(id.clone());
                    let (mut inner, mut err) = (None, None);
                    for _ in 0..does.next.unwrap_or(0) {
                        match next(ev) {
                            Ok(d) => inner = inner.or(Some(d)),
                            Err(e) => err = Some(e),
                        }
                    }
                    if let Some(m) = &does.error {
                        return Err(Error::Handler { message: m.clone() });
                    }
                    match &does.ret {
                        Some(Value::String(s)) if s == "inner" => match (inner, err) {
                            (Some(d), _) => Ok(d),
                            (None, Some(e)) => Err(e),
                            (None, None) => Ok(Decision::no_decision()),
                        },
                        Some(Value::Null) | None => Ok(Decision::no_decision()),
                        Some(v) => Ok(decision(v)),
                    }
                });
            }
            "handler" => {
                let does = e.does.clone();
                let h = handler(move |_ev: &Event| -> Result<Decision, String> {
                    log.lock().unwrap().push(id.clone());
                    match (&does.decision, &does.error) {
                        (_, Some(m)) => Err(m.clone()),
                        (Some(d), None) => Ok(decision(d)),
                        (None, None) => Ok(Decision::no_decision()),
                    }
                });
                let when = e.when.clone().unwrap_or_default();
                if let Some(name) = e.on.strip_prefix("native:") {
                    assert!(when.is_empty(), "native handlers take no when");
                    r.on_native(name, h);
                    continue;
                }
                let kind = Kind::parse(e.on.strip_prefix("kind:").expect("kind:")).unwrap();
                if when.is_empty() {
                    r.on(kind, h);
                } else if when == "guard" {
                    let g = e.guard.expect("guard value");
                    r.on_when(kind, Matcher::Predicate(Arc::new(move |_t| g)), h);
                } else if let Some(c) = when.strip_prefix("canonical:") {
                    let c = serde_json::from_value(Value::String(c.into())).unwrap();
                    r.on_when(kind, Matcher::Canonical(c), h);
                } else {
                    r.on_when(kind, when.strip_prefix("names:").expect("names:"), h);
                }
            }
            other => panic!("unknown role {other}"),
        }
        let _ = e.is_async;
    }
    r
}

#[test]
fn router_dispatch_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/router/dispatch");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "dispatch vectors missing");
    for f in &files {
        let c: Case = serde_json::from_str(&std::fs::read_to_string(f).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let stem = f.file_stem().unwrap().to_string_lossy();
        assert_eq!(c.name, format!("router/dispatch/{stem}"));
        assert!(!c.description.is_empty());
        let p = Provider::parse(&c.event.provider).unwrap();
        let ev = decode(
            p,
            c.event.payload.to_string().as_bytes(),
            &DecodeOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{}: decode: {e}", c.name));
        let log: Log = Arc::default();
        let r = build(&c.entries, &log);
        assert_eq!(r.handles(&ev), c.handles, "{}: handles", c.name);
        let got = r.decide(&ev);
        match (&got, c.expect.get("decision"), c.expect.get("error")) {
            (Ok(d), Some(want), None) => assert_eq!(
                serde_json::from_str::<Value>(&d.to_json()).unwrap(),
                serde_json::from_str::<Value>(&decision(want).to_json()).unwrap(),
                "{}",
                c.name
            ),
            (Err(e), None, Some(want)) => {
                assert_eq!(
                    e.code().as_str(),
                    want["code"].as_str().unwrap(),
                    "{}",
                    c.name
                )
            }
            _ => panic!("{}: got {got:?}, want {}", c.name, c.expect),
        }
        assert_eq!(*log.lock().unwrap(), c.calls, "{}: calls", c.name);
    }
}
