//! The lazily read output (`Agent::lazy_output`): a large payload decodes
//! to the same event, the same canonical JSON and the same answers as the
//! whole parse, whatever the output holds.

use serde_json::{Value, json};

use super::*;

fn eager(p: Provider, payload: &[u8]) -> Result<Event, Error> {
    let mut ev = decode_fields_inspecting_eager(p, payload, &DecodeOptions::default())?;
    ev.raw = payload.to_vec();
    Ok(ev)
}

/// Decodes both ways and holds every view of the event equal; the lazy
/// way must really be taken.
fn same_both_ways(p: Provider, payload: &[u8], what: &str) {
    assert!(
        lazy_output_plan(agent(p), payload, &DecodeOptions::default()).is_some(),
        "{what}: the lazy path was not taken"
    );
    let lazy = decode(p, payload, &DecodeOptions::default()).unwrap();
    let whole = eager(p, payload).unwrap();
    assert!(lazy.output.is_span(), "{what}");
    // Nothing read yet: the head, the "has output" answer and any answer
    // that does not look at the output leave it unparsed.
    assert_eq!(lazy.head_json(), whole.head_json(), "{what}");
    assert_eq!(lazy.has_output(), whole.has_output(), "{what}");
    let allow = respond(&lazy, &Decision::no_decision(), &Policy::default()).unwrap();
    assert_eq!(
        allow,
        respond(&whole, &Decision::no_decision(), &Policy::default()).unwrap()
    );
    assert!(
        !lazy.output.is_read(),
        "{what}: parsed before it was asked for"
    );
    // Then every view, including the canonical JSON and the output.
    assert_eq!(lazy.output_json(), whole.output_json(), "{what}");
    assert_eq!(lazy.output(), whole.output(), "{what}");
    assert_eq!(lazy.to_json(), whole.to_json(), "{what}");
    let text = lazy.clone();
    assert_eq!(
        text.to_value_without_raw(),
        whole.to_value_without_raw(),
        "{what}"
    );
}

fn big_text(n: usize) -> String {
    let line = "2026-12-02T10:00:00Z\tINFO \"step\" done é\n";
    line.repeat(n / line.len() + 1)
}

/// Every fixture payload of every (agent, event) the rows list, with its
/// output grown past the threshold, decodes and answers the same both ways.
#[test]
fn fixture_payloads_with_large_outputs_decode_the_same_both_ways() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut checked = 0;
    for p in Provider::ALL {
        let rows = agent(p).lazy_output;
        let dir = root.join(p.id());
        let Ok(files) = std::fs::read_dir(&dir) else {
            continue;
        };
        for f in files.flatten() {
            let text = std::fs::read_to_string(f.path()).unwrap();
            let case: Value = serde_json::from_str(&text).unwrap();
            let Some(Value::Object(mut payload)) = case.get("payload").cloned() else {
                continue;
            };
            let name = payload
                .get("hook_event_name")
                .and_then(Value::as_str)
                .unwrap_or("");
            let Some(&(_, key)) = rows.iter().find(|(e, _)| *e == name) else {
                continue;
            };
            if case.pointer("/expect/error").is_some() {
                continue;
            }
            let grown = match payload.remove(key) {
                Some(Value::Object(mut m)) => {
                    m.insert("stdout".into(), json!(big_text(200_000)));
                    Value::Object(m)
                }
                _ => json!(big_text(200_000)),
            };
            payload.insert(key.into(), grown);
            let bytes = serde_json::to_vec(&payload).unwrap();
            let what = f.path().display().to_string();
            same_both_ways(p, &bytes, &what);
            // And every decision the fixture answers, both ways alike.
            let lazy = decode(p, &bytes, &DecodeOptions::default()).unwrap();
            let whole = eager(p, &bytes).unwrap();
            for r in case["responses"].as_array().into_iter().flatten() {
                let Some(d) = r.get("decision") else { continue };
                let Ok(d) = serde_json::from_value::<Decision>(d.clone()) else {
                    continue;
                };
                assert_eq!(
                    respond(&lazy, &d, &Policy::default()).ok(),
                    respond(&whole, &d, &Policy::default()).ok(),
                    "{what}"
                );
            }
            checked += 1;
        }
    }
    // Claude Code, Codex and Kimi PostToolUse, Cursor afterShellExecution.
    assert!(checked >= 8, "only {checked} fixture payloads checked");
}

fn claude_post(output_json: &str) -> Vec<u8> {
    format!(
        r#"{{"session_id":"s","cwd":"/w","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{{"command":"make"}},"tool_response":{output_json},"tool_use_id":"t"}}"#
    )
    .into_bytes()
}

/// Outputs whose reading is the lenient parser's (`crate::json`): the
/// scan accepts them, and the lazy read bounds and mends them exactly as
/// the whole parse does.
#[test]
fn unusual_outputs_read_as_the_whole_parse_reads_them() {
    let pad = "x".repeat(20_000);
    let deep = format!("{}1{}", "[".repeat(150), "]".repeat(150));
    let cases = [
        ("string", format!("\"{pad}\"")),
        (
            "lone surrogate",
            format!("{{\"stdout\":\"{pad}\\ud800 end\"}}"),
        ),
        (
            "too deep",
            format!("{{\"stdout\":\"{pad}\",\"deep\":{deep}}}"),
        ),
        (
            "number beyond f64",
            format!("{{\"stdout\":\"{pad}\",\"n\":1e999}}"),
        ),
        (
            "escapes",
            format!("{{\"stdout\":\"{pad}\\u00e9\\/\\n\\\"\"}}"),
        ),
        ("empty array padded", format!("[{}]", " ".repeat(70_000))),
        (
            "empty object padded",
            format!("{{{}}}", "\n".repeat(70_000)),
        ),
        ("numbers", format!("[{}1]", "1,".repeat(40_000))),
    ];
    for (what, out) in &cases {
        let mut out = out.clone();
        if out.len() < LAZY_PAYLOAD_MIN {
            out = format!("{{\"a\":{out},\"b\":\"{}\"}}", "y".repeat(LAZY_PAYLOAD_MIN));
        }
        let payload = claude_post(&out);
        same_both_ways(Provider::ClaudeCode, &payload, what);
    }
}

/// A key that repeats (the last one counts, as in the whole parse), a key
/// written with escapes, and an output that is not JSON.
#[test]
fn repeated_and_escaped_keys_and_bad_outputs() {
    let big = format!("\"{}\"", "z".repeat(70_000));
    let last_small = format!(
        r#"{{"hook_event_name":"PostToolUse","session_id":"s","tool_name":"Bash","tool_input":{{}},"tool_response":{big},"tool_response":"small"}}"#
    );
    let ev = decode(
        Provider::ClaudeCode,
        last_small.as_bytes(),
        &DecodeOptions::default(),
    )
    .unwrap();
    assert_eq!(ev.output(), &json!("small"));
    let last_big = format!(
        r#"{{"hook_event_name":"PostToolUse","session_id":"s","tool_name":"Bash","tool_input":{{}},"tool_response":"small","tool_response":{big}}}"#
    );
    same_both_ways(
        Provider::ClaudeCode,
        last_big.as_bytes(),
        "repeated key, last large",
    );
    let escaped = format!(
        r#"{{"hook_event_name":"PostToolUse","session_id":"s","tool_name":"Bash","tool_input":{{}},"tool\u005fresponse":{big}}}"#
    );
    same_both_ways(Provider::ClaudeCode, escaped.as_bytes(), "escaped key");
    // Not JSON inside the output: the same error as the whole parse.
    for bad in [
        format!("\"{}\u{1}\"", "z".repeat(70_000)),
        format!("[{}", "1,".repeat(40_000)),
        format!("\"{}\\q\"", "z".repeat(70_000)),
    ] {
        let payload = claude_post(&bad);
        let got = decode(Provider::ClaudeCode, &payload, &DecodeOptions::default()).unwrap_err();
        let want = eager(Provider::ClaudeCode, &payload).unwrap_err();
        assert_eq!(got.code(), want.code());
    }
    // An event the rows do not list, or a small output: parsed whole.
    let pre = format!(
        r#"{{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{{"command":{big}}}}}"#
    );
    assert!(
        lazy_output_plan(
            agent(Provider::ClaudeCode),
            pre.as_bytes(),
            &DecodeOptions::default()
        )
        .is_none()
    );
    let small_out = claude_post(&format!(
        "{{\"stdout\":\"ok\",\"pad\":0}},\"pad\":\"{}\"",
        "p".repeat(70_000)
    ));
    assert!(
        lazy_output_plan(
            agent(Provider::ClaudeCode),
            &small_out,
            &DecodeOptions::default()
        )
        .is_none()
    );
}

/// An event from the canonical JSON, or built by hand, has its output as
/// set; a replaced `raw` never turns a lazy read into a panic.
#[test]
fn set_outputs_and_replaced_raw() {
    let mut ev = Event::new(
        Provider::ClaudeCode,
        "PostToolUse",
        crate::model::Kind::ToolPost,
    );
    assert!(!ev.has_output());
    ev.set_output(json!({"stdout": "x"}));
    assert!(ev.has_output());
    let back: Event = serde_json::from_str(&serde_json::to_string(&ev).unwrap()).unwrap();
    assert_eq!(back.output(), &json!({"stdout": "x"}));
    let payload = claude_post(&format!("\"{}\"", "z".repeat(70_000)));
    let mut lazy = decode(Provider::ClaudeCode, &payload, &DecodeOptions::default()).unwrap();
    lazy.raw = b"{}".to_vec();
    assert_eq!(lazy.output(), &Value::Null);
}
