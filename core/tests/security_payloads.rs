//! Agent-shaped property tests (issue 21 §1, issue 11 §7): generators that
//! write payloads the way `JSON.stringify` does (lone surrogates escaped as
//! `\udxxx`, any depth, JavaScript's number spellings, plus the numbers a
//! non-JavaScript writer or a model's raw arguments can hold: `1e999`,
//! 30-digit integers), and argv the way a config with typos looks. The
//! properties are the guarantees:
//!
//! - anything an agent can emit decodes, and the fields a guard needs (the
//!   event, the tool, the command) come through whatever odd value sits
//!   next to them;
//! - a guard that denies `rm -rf` denies it through the whole run entry;
//! - a fail-closed guard never answers a Stop with a block (exit 2 makes
//!   Claude Code continue), whatever the payload holds;
//! - no option typo, bad value or unknown provider turns a fail-closed
//!   guard into "no opinion".

use std::sync::Arc;

use agenthooks::{Decision, DecodeOptions, Provider, Router};
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::Value;

/// One UTF-16 code unit sequence as JSON.stringify writes it, and the
/// string the unified view must hold (lone surrogates as U+FFFD).
fn js_string() -> impl Strategy<Value = (String, String)> {
    let unit = prop_oneof![
        4 => 0x20u16..0x7f,
        1 => 0u16..0x20,
        2 => 0xa0u16..0xd800,
        2 => 0xd800u16..0xe000,
        1 => 0xe000u16..=0xffff,
    ];
    prop::collection::vec(unit, 0..24).prop_map(|units| {
        let mut json = String::from("\"");
        for r in char::decode_utf16(units.iter().copied()) {
            match r {
                Ok('"') => json.push_str("\\\""),
                Ok('\\') => json.push_str("\\\\"),
                Ok('\u{8}') => json.push_str("\\b"),
                Ok('\u{c}') => json.push_str("\\f"),
                Ok('\n') => json.push_str("\\n"),
                Ok('\r') => json.push_str("\\r"),
                Ok('\t') => json.push_str("\\t"),
                Ok(c) if (c as u32) < 0x20 => json.push_str(&format!("\\u{:04x}", c as u32)),
                Ok(c) => json.push(c),
                Err(e) => json.push_str(&format!("\\u{:04x}", e.unpaired_surrogate())),
            }
        }
        json.push('"');
        let unified: String = char::decode_utf16(units.iter().copied())
            .map(|r| r.unwrap_or('\u{fffd}'))
            .collect();
        (json, unified)
    })
}

/// A number as some writer spells it, and its value in the unified view.
fn js_number() -> impl Strategy<Value = (String, f64)> {
    prop_oneof![
        any::<i32>().prop_map(|n| (n.to_string(), f64::from(n))),
        // Binary fractions in JavaScript's exponent spelling (`1.5e+3`):
        // exact in every parser.
        (any::<i32>(), 0u32..12, any::<bool>()).prop_map(|(m, s, exp)| {
            let f = f64::from(m) / f64::from(1u32 << s);
            let text = if exp {
                format!("{f:e}").replace('e', "e+").replace("e+-", "e-")
            } else {
                format!("{f}")
            };
            (text, f)
        }),
        Just(("1e999".to_string(), f64::MAX)),
        Just(("-1e999".to_string(), -f64::MAX)),
        Just(("1E+400".to_string(), f64::MAX)),
        Just(("1e-999".to_string(), 0.0)),
        Just((
            "123456789012345678901234567890".to_string(),
            1.2345678901234568e29
        )),
        Just(("-0".to_string(), 0.0)),
    ]
}

/// A value nested `depth` containers deep (arrays and objects), JSON text.
fn deep() -> impl Strategy<Value = String> {
    (0usize..3000, any::<u64>()).prop_map(|(depth, shape)| {
        let mut open = String::new();
        let mut close = Vec::new();
        for k in 0..depth {
            if (shape >> (k % 64)) & 1 == 1 {
                open.push_str("{\"k\":");
                close.push('}');
            } else {
                open.push('[');
                close.push(']');
            }
        }
        close.reverse();
        format!("{open}0{}", close.into_iter().collect::<String>())
    })
}

/// A Claude Code PreToolUse; `extra` are (key, JSON value) pairs added to
/// the tool input after the command.
fn claude_pre(command: &str, extra: &[(String, String)]) -> Vec<u8> {
    let mut input = format!("{{\"command\":{}", serde_json::to_string(command).unwrap());
    for (k, v) in extra {
        input.push_str(&format!(",{}:{v}", serde_json::to_string(k).unwrap()));
    }
    input.push('}');
    format!(
        r#"{{"session_id":"s1","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{input},"tool_use_id":"toolu_1"}}"#
    )
    .into_bytes()
}

fn guard() -> Arc<Router> {
    let mut r = Router::new();
    r.on_tool_pre(|e| {
        if e.tool.command().contains("rm -rf") {
            Decision::deny("guard")
        } else {
            Decision::no_decision()
        }
    });
    Arc::new(r)
}

fn run(argv: &[&str], stdin: &[u8]) -> agenthooks::Response {
    agenthooks::runtime::run_argv(guard(), argv, stdin)
}

fn is_claude_deny(r: &agenthooks::Response) -> bool {
    r.exit_code == 0
        && serde_json::from_str::<Value>(&r.stdout)
            .is_ok_and(|v| v["hookSpecificOutput"]["permissionDecision"] == "deny")
}

proptest! {
    #![proptest_config(Config { cases: 64, ..Config::default() })]

    /// What JSON.stringify writes decodes; the guard's fields come through
    /// and the unified view holds U+FFFD for lone surrogates and ±f64::MAX
    /// for numbers beyond f64.
    #[test]
    fn stringified_payloads_decode_and_guard(
        (s_json, s_unified) in js_string(),
        (n_text, n_value) in js_number(),
        nested in deep(),
    ) {
        let mut payload = claude_pre(
            "rm -rf /srv",
            &[
                ("description".into(), s_json.clone()),
                ("n".into(), n_text.clone()),
                ("nested".into(), nested),
            ],
        );
        // A key with the same odd string (prefixed: never a real key).
        let key = format!(",\"k{}:1}}", &s_json[1..]);
        payload.truncate(payload.len() - "},\"tool_use_id\":\"toolu_1\"}".len());
        payload.extend_from_slice(key.as_bytes());
        payload.extend_from_slice(b",\"tool_use_id\":\"toolu_1\"}");
        for p in [Provider::ClaudeCode, Provider::Codex] {
            let ev = agenthooks::decode(p, &payload, &DecodeOptions::default())
                .map_err(|e| TestCaseError::fail(format!("{p}: {e}\n{}", String::from_utf8_lossy(&payload))))?;
            let tool = ev.tool.as_ref().expect("a tool call");
            prop_assert_eq!(tool.command(), "rm -rf /srv");
            prop_assert_eq!(&ev.raw, &payload);
            prop_assert_eq!(tool.input["description"].as_str(), Some(s_unified.as_str()));
            // serde_json parses decimals to within an ulp (no
            // `float_roundtrip`); the clamped values are exact.
            let n = tool.input["n"].as_f64().unwrap_or(f64::NAN);
            prop_assert!(
                n == n_value || (n - n_value).abs() <= n_value.abs() * 4.0 * f64::EPSILON,
                "{} read as {}", n_text, n
            );
            prop_assert_eq!(&tool.input[&format!("k{s_unified}")], &Value::from(1));
            let provider = format!("--provider={}", p.id());
            let r = run(&["guard", "agenthooks", "run", &provider], &payload);
            prop_assert!(
                r.exit_code == 0 && r.stdout.contains("deny"),
                "{}: {:?}", p, r
            );
        }
        prop_assert!(is_claude_deny(&run(&["guard", "agenthooks", "run", "--provider=claude-code"], &payload)));
    }

    /// A fail-closed guard never answers a Stop with exit 2 (continue),
    /// whatever odd bytes the payload holds around its event name.
    #[test]
    fn fail_closed_never_continues_a_stop(
        (s_json, _) in js_string(),
        (n_text, _) in js_number(),
        junk in prop::collection::vec(any::<u8>(), 0..16),
        cut in any::<bool>(),
    ) {
        let mut payload = format!(
            r#"{{"session_id":"s1","hook_event_name":"Stop","stop_hook_active":false,"m":{s_json},"n":{n_text},"j":""#
        )
        .into_bytes();
        payload.extend_from_slice(&junk);
        if !cut {
            payload.extend_from_slice(b"\"}");
        }
        for p in ["claude-code", "codex", "claude-cod"] {
            let provider = format!("--provider={p}");
            let r = run(&["guard", "agenthooks", "run", &provider, "--fail=closed"], &payload);
            prop_assert_ne!(r.exit_code, 2, "{}: {:?}\n{}", p, r, String::from_utf8_lossy(&payload));
        }
    }

    /// No typo in the configured command opens a fail-closed guard: `rm -rf`
    /// is denied (Claude's JSON deny) or blocked (exit 2).
    #[test]
    fn argv_typos_never_open_a_closed_guard(
        opts in prop::collection::vec(prop_oneof![
            Just("--timout=5".to_string()),
            Just("--provder=claude-code".to_string()),
            Just("--verbose".to_string()),
            Just("stray".to_string()),
            Just("--timeout=ten".to_string()),
            Just("--timeout".to_string()),
            Just("--timeout=-1".to_string()),
            Just("--timeout=NaN".to_string()),
            Just("--timeout=inf".to_string()),
            Just("--max-bytes=lots".to_string()),
            Just("--max-bytes=18446744073709551615".to_string()),
            Just("--max-bytes=99999999999999999999999".to_string()),
            Just("--max-bytes=16".to_string()),
            Just("--fail=closd".to_string()),
            Just("--fail".to_string()),
            Just("--event".to_string()),
            Just("--variant=x".to_string()),
            Just("--provider=claude-cod".to_string()),
            Just("--provider=".to_string()),
            Just("--provider".to_string()),
            Just("--provider=claude-code".to_string()),
            Just("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}".to_string()),
        ], 0..6),
        command in prop_oneof![Just("run"), Just("runn"), Just("")],
    ) {
        let mut argv: Vec<&str> = vec!["guard", "agenthooks"];
        if !command.is_empty() {
            argv.push(command);
        }
        argv.push("--provider=claude-code");
        argv.extend(opts.iter().map(String::as_str));
        argv.push("--fail=closed");
        let r = run(&argv, &claude_pre("rm -rf /srv", &[]));
        prop_assert!(
            is_claude_deny(&r) || (r.exit_code == 2 && r.stdout.is_empty()),
            "{:?} -> {:?}", argv, r
        );
    }
}

/// JSON.stringify of a 100 000-deep value, in a real process: decoded, no
/// stack overflow (the property above stays within a few thousand levels).
#[test]
fn very_deep_values_do_not_overflow_the_stack() {
    let depth = 100_000;
    let nested = "[".repeat(depth) + "0" + &"]".repeat(depth);
    let payload = claude_pre("rm -rf /srv", &[("nested".into(), nested)]);
    // On a thread with a small (256 KiB) stack: nothing on the way may
    // recurse per level.
    let r = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let ev = agenthooks::decode(Provider::ClaudeCode, &payload, &DecodeOptions::default())
                .expect("decodes");
            let json = ev.to_json();
            let cloned = ev.clone();
            drop(ev);
            (cloned.tool.map(|t| t.command().to_string()), json.len())
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert_eq!(r.0.as_deref(), Some("rm -rf /srv"));
}
