//! Criterion benchmarks of the hot path of every hook invocation: decode,
//! and decode + respond, beside a parse-only floor (`serde_json` skipping
//! the same bytes into `IgnoredAny`), per dialect that decodes today.
//!
//! Inputs are the shared fixtures (`fixtures/<provider>/`): a typical
//! PreToolUse as the fixture has it, a ~1.5 KB edit built on the same
//! session fields (Claude Code, Codex), and a PostToolUse whose
//! `tool_response` string is grown to 1 MB and 10 MB. A dialect without
//! fixtures, or whose decoder still fails on them, gets no group.
//!
//! Run: `cargo bench -p agenthooks -- --warm-up-time 1 --measurement-time 3`.
//! Results and the machine: `docs/benchmarks.md`. Peak memory of the 10 MB
//! case: `cargo run --release -p agenthooks --example mem_10mb`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use agenthooks::{Decision, DecodeOptions, Policy, Provider};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::de::IgnoredAny;
use serde_json::{Map, Value, json};

/// Candidate names of the tool-output field, in the order they are tried.
const OUTPUT_FIELDS: &[&str] = &["tool_response", "tool_output", "toolResult", "output"];

/// Text members of an object-shaped tool output, in the order tried.
const TEXT_MEMBERS: &[&str] = &[
    "llmContent",
    "stdout",
    "output",
    "content",
    "textResultForLlm",
];

fn fixtures_dir(p: Provider) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(p.id())
}

/// `(file stem, payload object)` of every fixture of `p` with a JSON payload.
fn fixture_payloads(p: Provider) -> Vec<(String, Map<String, Value>)> {
    let Ok(dir) = std::fs::read_dir(fixtures_dir(p)) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = dir
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            let case: Value = serde_json::from_str(&text).ok()?;
            let payload = case.get("payload")?.as_object()?.clone();
            let stem = path.file_stem()?.to_string_lossy().into_owned();
            Some((stem, payload))
        })
        .collect()
}

/// Fixture-name prefixes of PreToolUse-like and PostToolUse-like events
/// (Gemini CLI calls them BeforeTool and AfterTool).
const PRE: &[&str] = &["pretooluse", "beforetool-"];
const POST: &[&str] = &["posttooluse-", "aftertool-"];

/// The fixture to use for an event family: one about a shell tool when
/// there is one, else the first by name.
fn pick(
    all: &[(String, Map<String, Value>)],
    prefixes: &[&str],
) -> Option<(String, Map<String, Value>)> {
    let family: Vec<_> = all
        .iter()
        .filter(|(stem, _)| {
            let stem = stem.to_ascii_lowercase();
            prefixes.iter().any(|p| stem.starts_with(p))
        })
        .collect();
    family
        .iter()
        .find(|(stem, _)| stem.ends_with("-bash") || stem.ends_with("-shell"))
        .or_else(|| family.first())
        .map(|(s, m)| (s.clone(), m.clone()))
}

fn decodes(p: Provider, payload: &[u8]) -> bool {
    agenthooks::decode(p, payload, &DecodeOptions::default()).is_ok()
}

/// A realistic ~1.5 KB edit call on the fixture's session fields.
fn typical_edit(p: Provider, base: &Map<String, Value>) -> Option<Vec<u8>> {
    let old = "fn pool_size(cfg: &Config) -> usize {\n    // Keep in step with the \"db.max\" setting.\n    cfg.db.max.unwrap_or(8)\n}\n";
    let new = "fn pool_size(cfg: &Config) -> usize {\n    // Keep in step with the \"db.max\" setting; 16 since the burst test.\n    cfg.db.max.unwrap_or(16).clamp(1, 256)\n}\n";
    let mut m = base.clone();
    match p {
        Provider::ClaudeCode => {
            m.insert("tool_name".into(), json!("Edit"));
            m.insert(
                "tool_input".into(),
                json!({
                    "file_path": "/srv/shop/src/db/pool.rs",
                    "old_string": old.repeat(3),
                    "new_string": new.repeat(3),
                    "replace_all": false
                }),
            );
        }
        Provider::Codex => {
            let minus: String = old.lines().map(|l| format!("-{l}\n")).collect();
            let plus: String = new.lines().map(|l| format!("+{l}\n")).collect();
            let hunk = format!("@@\n{minus}{plus}");
            let patch = format!(
                "*** Begin Patch\n*** Update File: src/db/pool.rs\n{}*** Update File: src/db/mod.rs\n{}*** End Patch",
                hunk.repeat(2),
                hunk.repeat(2)
            );
            m.insert("tool_name".into(), json!("apply_patch"));
            m.insert("tool_input".into(), json!({ "command": patch }));
        }
        _ => return None,
    }
    serde_json::to_vec(&Value::Object(m)).ok()
}

/// Log-like tool output of exactly `n` bytes: lines, tabs and a few quotes,
/// so the parser meets escapes as in real command output.
fn big_output(n: usize) -> String {
    let mut s = String::with_capacity(n + 128);
    let mut i = 0u64;
    while s.len() < n {
        s.push_str(&format!(
            "test db::pool::case_{i:06} ... ok\t(\"burst\" {} ms)\n",
            i % 97
        ));
        i += 1;
    }
    s.truncate(n);
    s
}

/// A PostToolUse payload of `p` with an `n`-byte output string, built on the
/// PostToolUse fixture (or, for the Claude-shaped dialects, on the
/// PreToolUse one).
fn post_payload(
    p: Provider,
    post: Option<&Map<String, Value>>,
    pre: &Map<String, Value>,
    n: usize,
) -> Option<Vec<u8>> {
    let (mut m, field) = match post {
        Some(m) => {
            let field = OUTPUT_FIELDS.iter().find(|f| m.contains_key(**f))?;
            (m.clone(), *field)
        }
        None if matches!(p, Provider::ClaudeCode | Provider::Codex) => {
            let mut m = pre.clone();
            m.insert("hook_event_name".into(), json!("PostToolUse"));
            (m, "tool_response")
        }
        None => return None,
    };
    // Where the output is an object (Gemini's `{llmContent, ...}`), grow
    // its text member; else the field becomes the string.
    let text = Value::String(big_output(n));
    match m.get_mut(field) {
        Some(Value::Object(o)) => {
            let key = TEXT_MEMBERS
                .iter()
                .find(|k| o.get(**k).is_some_and(Value::is_string));
            match key {
                Some(k) => {
                    o.insert((*k).into(), text);
                }
                None => {
                    m.insert(field.into(), text);
                }
            }
        }
        _ => {
            m.insert(field.into(), text);
        }
    }
    serde_json::to_vec(&Value::Object(m)).ok()
}

fn floor(bytes: &[u8]) {
    let _: IgnoredAny = serde_json::from_slice(bytes).expect("valid JSON");
}

fn decode_respond(p: Provider, bytes: &[u8], d: &Decision, policy: &Policy) -> usize {
    let ev = agenthooks::decode(p, bytes, &DecodeOptions::default()).expect("decodes");
    let r = agenthooks::respond(&ev, d, policy).expect("responds");
    r.stdout.len() + ev.raw.len()
}

fn bench_group(c: &mut Criterion, p: Provider, name: &str, bytes: &[u8], with_deny: bool) {
    let opts = DecodeOptions::default();
    let policy = Policy::default();
    let none = Decision::no_decision();
    let deny = Decision::deny("Blocked by the benchmark policy.");
    let big = bytes.len() >= 1 << 20;
    let mut g = c.benchmark_group(format!("{}/{name}", p.id()));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    if big {
        g.sample_size(10);
    }
    g.bench_function("parse_floor", |b| b.iter(|| floor(black_box(bytes))));
    g.bench_function("decode", |b| {
        b.iter(|| agenthooks::decode(p, black_box(bytes), &opts).expect("decodes"))
    });
    // What the hook runtime does: decode, plus the payload's key shape
    // compared with the schema tables (drift; no I/O when nothing is new).
    g.bench_function("decode+drift_check", |b| {
        b.iter(|| {
            let mut shape = agenthooks::schema::drift::Shape::default();
            let ev = agenthooks::dialect::decode_vec_inspecting(
                p,
                black_box(bytes).to_vec(),
                &opts,
                &mut |m| shape = agenthooks::schema::drift::Shape::of(p, m),
            )
            .expect("decodes");
            shape.unknown(&ev.native_name).len()
        })
    });
    g.bench_function("decode_vec", |b| {
        b.iter(|| {
            agenthooks::dialect::decode_vec(p, black_box(bytes).to_vec(), &opts)
                .expect("decodes")
                .raw
                .len()
        })
    });
    g.bench_function("decode+respond_no_decision", |b| {
        b.iter(|| decode_respond(p, black_box(bytes), &none, &policy))
    });
    if with_deny {
        g.bench_function("decode+respond_deny", |b| {
            b.iter(|| decode_respond(p, black_box(bytes), &deny, &policy))
        });
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    for p in Provider::ALL {
        let all = fixture_payloads(p);
        let Some((pre_stem, pre)) = pick(&all, PRE) else {
            continue;
        };
        let Ok(pre_bytes) = serde_json::to_vec(&Value::Object(pre.clone())) else {
            continue;
        };
        if !decodes(p, &pre_bytes) {
            eprintln!(
                "bench: skipping {}: its decoder fails on {pre_stem}",
                p.id()
            );
            continue;
        }
        bench_group(c, p, &pre_stem, &pre_bytes, true);
        if let Some(edit) = typical_edit(p, &pre).filter(|b| decodes(p, b)) {
            bench_group(c, p, "pretooluse-edit-1.5k", &edit, true);
        }
        let post = pick(&all, POST).map(|(_, m)| m);
        for (label, n) in [("posttooluse-1mb", 1 << 20), ("posttooluse-10mb", 10 << 20)] {
            if let Some(big) = post_payload(p, post.as_ref(), &pre, n).filter(|b| decodes(p, b)) {
                bench_group(c, p, label, &big, false);
            }
        }
    }
}

criterion_group! {
    name = decode;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(decode);
