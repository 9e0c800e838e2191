//! The embedded fixture corpus (`core/src/simulate/corpus.json`) equals what
//! the fixtures give; `AGENTHOOKS_BLESS=1` (`make sim-corpus`) rewrites it.
//! Every entry decodes to its kind.

use std::path::Path;

use agenthooks::Provider;
use agenthooks::simulate::corpus;
use serde_json::{Value, json};

fn generate() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut out = Vec::new();
    for p in Provider::ALL {
        let mut files: Vec<_> = std::fs::read_dir(root.join(p.id()))
            .expect("fixture dir")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|f| f.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for f in files {
            let c: Value = serde_json::from_str(&std::fs::read_to_string(&f).expect("read"))
                .expect("fixture JSON");
            let (Some(payload), Some(ev)) = (c.get("payload"), c.pointer("/expect/event")) else {
                continue;
            };
            if !payload.is_object() {
                continue;
            }
            let event = ev["native_name"].as_str().expect("native_name").to_string();
            let names_event = c.get("event").is_none();
            let mut e = json!({
                "agent": p.id(),
                "name": c["name"],
                "event": event,
                "kind": ev["kind"],
                "names_event": names_event,
                "payload": payload,
            });
            if let Some(v) = c
                .get("variant")
                .and_then(Value::as_str)
                .filter(|v| !v.is_empty())
            {
                e["variant"] = json!(v);
            }
            out.push(e);
        }
    }
    let mut s = String::from("[\n");
    for (i, e) in out.iter().enumerate() {
        s.push_str(&e.to_string());
        s.push_str(if i + 1 < out.len() { ",\n" } else { "\n" });
    }
    s.push_str("]\n");
    s
}

#[test]
fn embedded_corpus_matches_the_fixtures() {
    let fresh = generate();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/simulate/corpus.json");
    if std::env::var_os("AGENTHOOKS_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write corpus");
        return;
    }
    assert!(
        fresh == corpus::CORPUS_JSON,
        "core/src/simulate/corpus.json is stale: run `make sim-corpus` and commit it"
    );
}

#[test]
fn every_corpus_entry_decodes_to_its_kind() {
    let all = corpus::all();
    assert!(all.len() > 300, "corpus has {} entries", all.len());
    for p in Provider::ALL {
        assert!(!corpus::of(p, None).is_empty(), "{}", p.id());
    }
    for e in all {
        let ev = e.decode().unwrap_or_else(|err| panic!("{}: {err}", e.name));
        assert_eq!(ev.kind, e.kind, "{}", e.name);
        assert_eq!(ev.native_name, e.event, "{}", e.name);
    }
}
