//! Property tests of the decode/respond invariants.
//!
//! For every dialect whose payload shape is generated here (Claude Code and
//! Codex): any well-typed payload, written with any key order and
//! whitespace, decodes; `raw` keeps the bytes exactly; `to_json` is valid
//! JSON whose `raw` is the payload; `no_decision` is the agent's no-op. For
//! every provider: arbitrary and mutated bytes never make decode (or
//! respond, when decode succeeds) panic.

use agenthooks::{Decision, DecodeOptions, ErrorCode, Event, Policy, Provider};
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::Value;

/// A JSON value whose object key order is part of the value.
#[derive(Debug, Clone)]
enum J {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

/// How a value is written: whitespace between tokens, `\u` escapes.
struct Style<'a> {
    ws: &'a [u8],
    i: usize,
    escape_non_ascii: bool,
}

impl Style<'_> {
    fn space(&mut self, out: &mut String) {
        if self.ws.is_empty() {
            return;
        }
        let w = self.ws[self.i % self.ws.len()];
        self.i += 1;
        // Most gaps are empty; the rest are 1-3 JSON whitespace bytes.
        let n = (w >> 6) as usize;
        for k in 0..n {
            out.push([' ', '\n', '\t', '\r'][((w >> (2 * k)) & 3) as usize]);
        }
    }

    fn string(&mut self, s: &str, out: &mut String) {
        if !self.escape_non_ascii {
            out.push_str(&serde_json::to_string(s).expect("string serializes"));
            return;
        }
        out.push('"');
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                c if (c as u32) < 0x20 || !c.is_ascii() => {
                    let mut buf = [0u16; 2];
                    for unit in c.encode_utf16(&mut buf) {
                        out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
                c => out.push(c),
            }
        }
        out.push('"');
    }

    fn write(&mut self, v: &J, out: &mut String) {
        match v {
            J::Null => out.push_str("null"),
            J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            J::Int(n) => out.push_str(&n.to_string()),
            J::Float(f) => out.push_str(&serde_json::to_string(f).expect("finite float")),
            J::Str(s) => self.string(s, out),
            J::Arr(items) => {
                out.push('[');
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        self.space(out);
                        out.push(',');
                    }
                    self.space(out);
                    self.write(item, out);
                    self.space(out);
                }
                out.push(']');
            }
            J::Obj(fields) => {
                out.push('{');
                for (k, (key, val)) in fields.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    self.space(out);
                    self.string(key, out);
                    self.space(out);
                    out.push(':');
                    self.space(out);
                    self.write(val, out);
                    self.space(out);
                }
                out.push('}');
            }
        }
    }
}

/// Strings that stress escaping: ASCII words, any Unicode, and the
/// characters JSON must escape (quotes, backslashes, newlines, controls).
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9_ ./-]{0,16}",
        any::<String>(),
        prop::collection::vec(
            prop_oneof![
                Just("\"".to_string()),
                Just("\\".to_string()),
                Just("\n".to_string()),
                Just("\r\n".to_string()),
                Just("\t".to_string()),
                Just("\u{0}".to_string()),
                Just("\u{2028}".to_string()),
                Just("é".to_string()),
                Just("日本".to_string()),
                Just("🦀".to_string()),
                Just("rm -rf /".to_string()),
                "[a-z ]{0,6}",
            ],
            0..8
        )
        .prop_map(|parts| parts.concat()),
    ]
}

fn non_empty_text() -> impl Strategy<Value = String> {
    text().prop_map(|s| if s.is_empty() { "x".into() } else { s })
}

/// Any JSON value (for unknown fields and tool output).
fn any_json() -> impl Strategy<Value = J> {
    let leaf = prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        any::<i64>().prop_map(J::Int),
        (-1e12f64..1e12).prop_map(J::Float),
        text().prop_map(J::Str),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(J::Arr),
            prop::collection::vec((text(), inner), 0..4)
                .prop_map(dedupe)
                .prop_map(J::Obj),
        ]
    })
}

fn dedupe(fields: Vec<(String, J)>) -> Vec<(String, J)> {
    let mut seen = std::collections::HashSet::new();
    fields
        .into_iter()
        .filter(|(k, _)| seen.insert(k.clone()))
        .collect()
}

const CLAUDE_TOOLS: &[&str] = &[
    "Bash",
    "PowerShell",
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Glob",
    "Grep",
    "LS",
    "WebFetch",
    "WebSearch",
    "Agent",
    "Task",
    "AskUserQuestion",
    "ExitPlanMode",
    "TodoWrite",
    "Skill",
    "mcp__memory__create_entities",
    "mcp__plugin_acme_db__query",
    "mcp__github__get_issue",
    "mcp__memory",
];

const CODEX_TOOLS: &[&str] = &[
    "Bash",
    "exec_command",
    "shell",
    "write_stdin",
    "apply_patch",
    "Edit",
    "Write",
    "spawn_agent",
    "Agent",
    "WebSearch",
    "web_search",
    "update_plan",
    "NetworkAccess",
    "mcp__docs__search",
    "mcp__github__create_pull_request",
];

fn tool_table(p: Provider) -> &'static [&'static str] {
    match p {
        Provider::ClaudeCode => CLAUDE_TOOLS,
        _ => CODEX_TOOLS,
    }
}

/// A tool input: an object of strings (a `command` most of the time), or
/// occasionally an argv array or another value.
fn tool_input() -> impl Strategy<Value = J> {
    let keys = prop_oneof![
        Just("command".to_string()),
        Just("file_path".to_string()),
        Just("description".to_string()),
        Just("pattern".to_string()),
        Just("old_string".to_string()),
        "[a-z_]{1,10}",
    ];
    prop_oneof![
        8 => (
            prop::option::of(text()),
            prop::collection::vec((keys, prop_oneof![3 => text().prop_map(J::Str), 1 => any_json()]), 0..5),
        )
            .prop_map(|(cmd, rest)| {
                let mut fields = Vec::new();
                if let Some(c) = cmd {
                    fields.push(("command".to_string(), J::Str(c)));
                }
                fields.extend(rest);
                J::Obj(dedupe(fields))
            }),
        1 => prop::collection::vec(text().prop_map(J::Str), 0..4).prop_map(|argv| J::Obj(vec![("command".into(), J::Arr(argv))])),
        1 => any_json(),
    ]
}

/// A well-typed Claude Code / Codex payload with fields in generation order.
fn payload_fields(p: Provider) -> impl Strategy<Value = Vec<(String, J)>> {
    let events: Vec<String> = agenthooks::native_events(p)
        .iter()
        .map(|s| s.to_string())
        .collect();
    let event = prop_oneof![
        4 => prop::sample::select(events),
        1 => "[A-Za-z][A-Za-z0-9_-]{0,20}",
    ];
    let tool = prop_oneof![
        4 => prop::sample::select(tool_table(p)).prop_map(str::to_string),
        1 => non_empty_text(),
    ];
    let session = prop_oneof![
        3 => text().prop_map(J::Str),
        1 => (0i64..i64::MAX).prop_map(J::Int),
    ];
    let opt_str = || prop::option::of(text().prop_map(J::Str));
    // Optional known fields, each with the type the dialect reads.
    let known = (
        (
            opt_str(),
            opt_str(),
            opt_str(),
            opt_str(),
            opt_str(),
            opt_str(),
        ),
        (
            prop::option::of(tool),
            prop::option::of(tool_input()),
            prop::option::of(prop_oneof![
                text().prop_map(J::Str),
                (0i64..1 << 40).prop_map(J::Int)
            ]),
            prop::option::of(any_json()),
            prop::option::of(any::<bool>().prop_map(J::Bool)),
            prop::option::of((0i64..1 << 40).prop_map(J::Int)),
        ),
        (
            opt_str(),
            opt_str(),
            opt_str(),
            opt_str(),
            opt_str(),
            opt_str(),
        ),
    );
    let unknown = prop::collection::vec(("x_[a-zA-Z0-9_]{0,12}", any_json()), 0..4);
    (event, session, known, unknown).prop_map(|(event, session, known, unknown)| {
        let ((cwd, transcript, model, mode, turn, prompt), tool_part, misc) = known;
        let (tool_name, input, tool_id, response, stop_active, duration) = tool_part;
        let (last_msg, error, source, reason, trigger, message) = misc;
        let mut f: Vec<(String, J)> = vec![
            ("hook_event_name".into(), J::Str(event)),
            ("session_id".into(), session),
        ];
        let mut put = |k: &str, v: Option<J>| {
            if let Some(v) = v {
                f.push((k.to_string(), v));
            }
        };
        put("cwd", cwd);
        put("transcript_path", transcript);
        put("model", model);
        put("permission_mode", mode);
        put("turn_id", turn);
        put("prompt", prompt);
        put("tool_name", tool_name.map(J::Str));
        put("tool_input", input);
        put("tool_use_id", tool_id);
        put("tool_response", response);
        put("stop_hook_active", stop_active);
        put("duration_ms", duration);
        put("last_assistant_message", last_msg);
        put("error", error);
        put("source", source);
        put("reason", reason);
        put("trigger", trigger);
        put("message", message);
        f.extend(unknown);
        dedupe(f)
    })
}

/// The payload bytes: fields shuffled, random whitespace, maybe `\u` escapes.
fn payload(p: Provider) -> impl Strategy<Value = Vec<u8>> {
    (
        payload_fields(p).prop_shuffle(),
        prop::collection::vec(any::<u8>(), 0..32),
        any::<bool>(),
    )
        .prop_map(|(fields, ws, escape_non_ascii)| {
            let mut style = Style {
                ws: &ws,
                i: 0,
                escape_non_ascii,
            };
            let mut out = String::new();
            style.space(&mut out);
            style.write(&J::Obj(fields), &mut out);
            style.space(&mut out);
            out.into_bytes()
        })
}

/// What `respond(no_decision)` writes on stdout for this event: Claude
/// Code's no-op is `{}` on the events it documents, except where it reads
/// stdout as text (and on unknown events, where only empty stdout is safe);
/// Codex's is empty stdout.
fn no_op_stdout(ev: &Event) -> &'static str {
    let name = ev.native_name.as_str();
    let known = agenthooks::native_events(ev.provider).contains(&name);
    match ev.provider {
        Provider::ClaudeCode
            if known && !matches!(name, "PreCompact" | "PostCompact" | "WorktreeCreate") =>
        {
            "{}"
        }
        _ => "",
    }
}

fn check_round_trip(p: Provider, bytes: &[u8]) -> Result<(), TestCaseError> {
    let text = String::from_utf8_lossy(bytes);
    let ev = match agenthooks::decode(p, bytes, &DecodeOptions::default()) {
        Ok(ev) => ev,
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "{p}: decode failed with {}: {e}\npayload: {text}",
                e.code()
            )));
        }
    };
    prop_assert_eq!(&ev.raw, &bytes.to_vec(), "raw is not the payload");
    let canonical: Value = serde_json::from_str(&ev.to_json())
        .map_err(|e| TestCaseError::fail(format!("to_json is not JSON: {e}\n{}", ev.to_json())))?;
    let input: Value = serde_json::from_slice(bytes).expect("generated payload is JSON");
    prop_assert_eq!(canonical.get("raw"), Some(&input), "canonical raw differs");
    let r = agenthooks::respond(&ev, &Decision::no_decision(), &Policy::default())
        .map_err(|e| TestCaseError::fail(format!("respond(no_decision) failed: {e}")))?;
    prop_assert_eq!(
        r.stdout.as_str(),
        no_op_stdout(&ev),
        "{} {}",
        p,
        ev.native_name
    );
    prop_assert_eq!(r.stderr.as_str(), "");
    prop_assert_eq!(r.exit_code, 0);
    prop_assert!(r.notes.is_empty(), "notes: {:?}", r.notes);
    Ok(())
}

/// Decodes without panicking; an error has a stable code; a success is
/// answerable (respond may refuse a decision but must not panic) and its
/// canonical JSON is valid.
fn check_no_panic(p: Provider, bytes: &[u8]) -> Result<(), TestCaseError> {
    match agenthooks::decode(p, bytes, &DecodeOptions::default()) {
        Err(e) => {
            let code = e.code();
            prop_assert_eq!(ErrorCode::parse(code.as_str()), Some(code));
            let _ = agenthooks::fail_response(p, None, &e, &Policy::fail_closed());
        }
        Ok(ev) => {
            // JSON as JSON.parse reads it: `raw` is spliced in verbatim and
            // may hold lone surrogates, any depth or 1e999.
            prop_assert!(
                agenthooks::dialect::json::parse_value(&ev.to_json()).is_ok(),
                "to_json is not JSON: {}",
                ev.to_json()
            );
            for d in decisions() {
                for policy in [Policy::default(), Policy::fail_closed()] {
                    if let Err(e) = agenthooks::respond(&ev, &d, &policy) {
                        let _ = agenthooks::fail_response(p, Some(&ev), &e, &policy);
                    }
                }
            }
        }
    }
    Ok(())
}

fn decisions() -> Vec<Decision> {
    vec![
        Decision::no_decision(),
        Decision::allow(),
        Decision::deny("no"),
        Decision::ask("sure?"),
        Decision::flag_output("bad"),
        Decision::replace_output("redacted"),
    ]
}

/// A mutation of a byte string: flip, delete, insert or truncate.
#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Delete(usize, usize),
    Insert(usize, Vec<u8>),
    Truncate(usize),
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    let m = prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), 0usize..8).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (
            any::<usize>(),
            prop_oneof![
                prop::collection::vec(any::<u8>(), 1..4),
                prop::sample::select(vec![
                    b"\"".to_vec(),
                    b"{".to_vec(),
                    b"}".to_vec(),
                    b"[".to_vec(),
                    b"\\u".to_vec(),
                    b"null".to_vec(),
                    b"1e999".to_vec(),
                    b"\xff".to_vec(),
                    b",\"hook_event_name\":\"Stop\"".to_vec(),
                ]),
            ]
        )
            .prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Truncate),
    ];
    prop::collection::vec(m, 1..5)
}

fn mutate(mut bytes: Vec<u8>, ms: &[Mutation]) -> Vec<u8> {
    for m in ms {
        let len = bytes.len();
        match m {
            Mutation::Flip(i, b) if len > 0 => bytes[i % len] ^= b | 1,
            Mutation::Delete(i, n) if len > 0 => {
                let at = i % len;
                let end = (at + n).min(len);
                bytes.drain(at..end);
            }
            Mutation::Insert(i, b) => {
                let at = i % (len + 1);
                bytes.splice(at..at, b.iter().copied());
            }
            Mutation::Truncate(i) => bytes.truncate(i % (len + 1)),
            _ => {}
        }
    }
    bytes
}

proptest! {
    #![proptest_config(Config { cases: 256, ..Config::default() })]

    #[test]
    fn claude_payloads_round_trip(bytes in payload(Provider::ClaudeCode)) {
        check_round_trip(Provider::ClaudeCode, &bytes)?;
    }

    #[test]
    fn codex_payloads_round_trip(bytes in payload(Provider::Codex)) {
        check_round_trip(Provider::Codex, &bytes)?;
    }

    #[test]
    fn valid_payloads_never_panic_any_provider(bytes in payload(Provider::ClaudeCode)) {
        for p in Provider::ALL {
            check_no_panic(p, &bytes)?;
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in any::<Vec<u8>>()) {
        for p in Provider::ALL {
            check_no_panic(p, &bytes)?;
        }
    }

    #[test]
    fn mutated_claude_payloads_never_panic(
        bytes in payload(Provider::ClaudeCode),
        ms in mutations(),
    ) {
        let bytes = mutate(bytes, &ms);
        for p in Provider::ALL {
            check_no_panic(p, &bytes)?;
        }
    }

    #[test]
    fn mutated_codex_payloads_never_panic(
        bytes in payload(Provider::Codex),
        ms in mutations(),
    ) {
        let bytes = mutate(bytes, &ms);
        for p in Provider::ALL {
            check_no_panic(p, &bytes)?;
        }
    }
}
