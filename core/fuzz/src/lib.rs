//! The bodies shared by the fuzz targets, replayed by
//! `core/tests/fuzz_corpus.rs`:
//!
//! - [`run`] (`decode_<agent>`): decode the bytes as one agent's payload;
//!   when that succeeds, answer it with a few decisions under both fail
//!   postures and render the canonical JSON.
//! - [`run_entry`] (`runtime_entry`): argv and stdin together through the
//!   author-side run entry (`runtime::launch` / `runtime::start`), with a
//!   guard that denies `rm -rf`.
//!
//! Nothing may panic; errors are fine.

use std::sync::Arc;

use agenthooks::runtime::{self, Launch};
use agenthooks::{Decision, DecodeOptions, Policy, Provider, Router};

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
    // JSON as JSON.parse reads it: `raw` is spliced in verbatim and may
    // hold lone surrogates, any depth or 1e999.
    assert!(
        agenthooks::dialect::json::parse_value(&json).is_ok(),
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

/// Splits a `runtime_entry` input: argv lines (`\n`-separated) up to the
/// first empty line, then the stdin bytes. Without an empty line, the whole
/// input is stdin for `guard agenthooks run --provider=claude-code`.
pub fn split_entry(data: &[u8]) -> (Vec<String>, &[u8]) {
    match data.windows(2).position(|w| w == b"\n\n") {
        Some(i) => {
            let argv = data[..i]
                .split(|b| *b == b'\n')
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect();
            (argv, &data[i + 2..])
        }
        None => (
            ["guard", "agenthooks", "run", "--provider=claude-code"]
                .map(String::from)
                .to_vec(),
            data,
        ),
    }
}

/// One `runtime_entry` input: argv + stdin through launch, start, a guard
/// that denies `rm -rf`, complete. The answer must be one a hook process
/// can give: exit 0 or 2 (64 for usage), stdout empty or JSON.
pub fn run_entry(data: &[u8]) {
    let (argv, stdin) = split_entry(data);
    let fail_closed = data.first().is_some_and(|b| b % 2 == 1);
    for policy in [Policy::default(), Policy::fail_closed()] {
        if fail_closed != (policy.fail == agenthooks::Fail::Closed) {
            continue;
        }
        let mut r = Router::new().policy(policy);
        r.on_tool_pre(|e| {
            if e.tool.command().contains("rm -rf") {
                Decision::deny("fuzz guard")
            } else {
                Decision::no_decision()
            }
        });
        let router = Arc::new(r);
        let resp = match runtime::launch(&argv) {
            Launch::Answer(r) => r,
            Launch::Serve(_) => continue,
            Launch::Run(mut plan) => {
                // Cross-process state (loop guard, Cursor dedupe) stays in
                // a scratch directory.
                plan.args.state_dir = Some(std::env::temp_dir().join("agenthooks-fuzz-state"));
                let bytes = runtime::read_bounded(stdin, plan.read_limit());
                runtime::run_plan(router, &plan, bytes)
            }
        };
        assert!(
            matches!(resp.exit_code, 0 | 2 | 64),
            "exit code {}: {resp:?}",
            resp.exit_code
        );
        let out = resp.stdout.trim();
        assert!(
            out.is_empty() || serde_json::from_str::<serde_json::Value>(out).is_ok(),
            "stdout is neither empty nor JSON: {out:?}"
        );
        let _ = resp.to_json();
    }
}
