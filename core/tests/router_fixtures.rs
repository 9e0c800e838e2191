//! Runs `fixtures/router/*.json` against the Rust router combinators.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use agenthooks::{Decision, Error, Event, Handler, Kind, Provider, all, any};
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    description: String,
    mode: String,
    handlers: Vec<HandlerCase>,
    expect: Expect,
    called: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HandlerCase {
    #[serde(default)]
    decision: Option<Value>,
    #[serde(default)]
    error: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    #[serde(default)]
    decision: Option<Value>,
    #[serde(default)]
    error: Option<ErrorCode>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorCode {
    code: String,
}

#[test]
fn router_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/router");
    let filter = std::env::var("AH_FIXTURE").ok();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let (mut total, mut ran) = (0, 0);
    for f in files {
        let c: Case = serde_json::from_str(&std::fs::read_to_string(&f).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(
            c.name,
            format!("router/{}", f.file_stem().unwrap().to_string_lossy())
        );
        assert!(!c.description.is_empty());
        if filter
            .as_ref()
            .is_some_and(|x| !c.name.contains(x.as_str()))
        {
            continue;
        }
        total += 1;
        let calls = Arc::new(AtomicUsize::new(0));
        let hs: Vec<Handler> = c
            .handlers
            .iter()
            .map(|h| {
                let calls = calls.clone();
                let out: Result<Decision, String> = match (&h.decision, &h.error) {
                    (Some(d), None) => Ok(Decision::from_json(&d.to_string()).expect("decision")),
                    (None, Some(e)) => Err(e.clone()),
                    _ => panic!("{}: handler needs decision or error", c.name),
                };
                let h: Handler = Arc::new(move |_e: &Event| {
                    calls.fetch_add(1, Ordering::SeqCst);
                    out.clone().map_err(|m| Error::Handler { message: m })
                });
                h
            })
            .collect();
        let combined = match c.mode.as_str() {
            "stack" => any(hs),
            "all" => all(hs),
            m => panic!("{}: unknown mode {m}", c.name),
        };
        let ev = Event::new(Provider::ClaudeCode, "PreToolUse", Kind::ToolPre);
        let got = combined(&ev);
        match (&c.expect.decision, &c.expect.error, got) {
            (Some(want), None, Ok(d)) => {
                let want = Decision::from_json(&want.to_string()).unwrap();
                assert_eq!(d, want, "{}", c.name);
            }
            (None, Some(code), Err(e)) => assert_eq!(e.code().as_str(), code.code, "{}", c.name),
            (_, _, got) => panic!("{}: unexpected result {got:?}", c.name),
        }
        assert_eq!(
            calls.load(Ordering::SeqCst),
            c.called,
            "{}: handlers called",
            c.name
        );
        ran += 1;
    }
    eprintln!("router fixtures: ran {ran}, total {total}");
    assert_eq!(ran, total);
    assert!(total > 0);
}
