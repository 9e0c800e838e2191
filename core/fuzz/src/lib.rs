//! The body shared by every fuzz target: decode the bytes as one agent's
//! payload; when that succeeds, answer it with a few decisions under both
//! fail postures and render the canonical JSON. Nothing may panic; errors
//! are fine. The same body replays the corpus in `core/tests/fuzz_corpus.rs`.

use agenthooks::{Decision, DecodeOptions, Policy, Provider};

/// Decisions every decoded event is answered with (most are refused by
/// some event kinds: that is an error, not a panic).
fn decisions() -> Vec<Decision> {
    let mut input = serde_json::Map::new();
    input.insert("command".into(), serde_json::Value::String("true".into()));
    vec![
        Decision::no_decision(),
        Decision::allow(),
        Decision::allow().with_updated_input(input),
        Decision::deny("fuzz deny"),
        Decision::ask("fuzz ask"),
        Decision::flag_output("fuzz flag"),
        Decision::replace_output("fuzz replacement"),
        Decision::continue_with("fuzz continue"),
        Decision::block_prompt("fuzz block"),
    ]
}

/// One fuzz input through decode, respond, fail_response and to_json.
pub fn run(provider: Provider, data: &[u8]) {
    let opts = DecodeOptions::default();
    let ev = match agenthooks::decode(provider, data, &opts) {
        Ok(ev) => ev,
        Err(e) => {
            let _ = e.code().as_str();
            let _ = agenthooks::fail_response(provider, None, &e, &Policy::fail_closed());
            return;
        }
    };
    let json = ev.to_json();
    assert!(
        serde_json::from_str::<serde_json::Value>(&json).is_ok(),
        "to_json is not JSON: {json}"
    );
    assert_eq!(ev.raw, data, "raw is not the payload");
    for d in decisions() {
        for policy in [Policy::default(), Policy::fail_closed()] {
            match agenthooks::respond(&ev, &d, &policy) {
                Ok(r) => {
                    let _ = r.to_json();
                }
                Err(e) => {
                    let _ = agenthooks::fail_response(provider, Some(&ev), &e, &policy);
                }
            }
        }
    }
}
