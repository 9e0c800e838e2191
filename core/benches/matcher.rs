//! Criterion benchmarks of hook selection: 1 000 configured hooks matched
//! against one tool name, per matcher mode and dialect, plus single-matcher
//! costs.
//!
//! Run: `cargo bench -p agenthooks --bench matcher -- --warm-up-time 1 --measurement-time 2`.
//! Results: `docs/benchmarks.md`, "Host matcher".

use std::hint::black_box;

use agenthooks::host::{Dialect, Registry, RegistryBuilder};
use agenthooks::matcher::{ExactSet, Interner, Matcher};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Map, Value, json};

const HOOKS: usize = 1000;

/// Name, dialect, and the matcher of group `i`.
type SelectCase = (&'static str, Dialect, Box<dyn Fn(usize) -> String>);

/// 1 000 PreToolUse groups, one handler each; `pattern(i)` is group i's matcher.
fn registry(dialect: Dialect, interner: &Interner, pattern: impl Fn(usize) -> String) -> Registry {
    let groups: Vec<Value> = (0..HOOKS)
        .map(|i| json!({"matcher": pattern(i), "hooks": [{"type": "command", "command": format!("hook-{i}")}]}))
        .collect();
    let mut b = RegistryBuilder::with_interner(dialect, interner);
    b.add_settings("bench", &json!({"hooks": {"PreToolUse": groups}}));
    b.build().expect("bench config loads")
}

fn payload(tool: &str) -> Map<String, Value> {
    json!({"session_id": "s", "cwd": "/srv", "hook_event_name": "PreToolUse", "tool_name": tool,
           "tool_input": {"command": "cargo test"}, "tool_use_id": "t"})
    .as_object()
    .cloned()
    .unwrap_or_default()
}

fn bench_select(c: &mut Criterion) {
    let mut g = c.benchmark_group("select_1000_hooks");
    g.throughput(Throughput::Elements(HOOKS as u64));
    let big = Interner::new(4 * HOOKS);
    let tool = payload("mcp__github__create_issue");
    let cases: Vec<SelectCase> = vec![
        (
            "claude/exact",
            Dialect::ClaudeCode,
            Box::new(|i| format!("Tool{i}|Other{i}")),
        ),
        (
            "codex/exact",
            Dialect::Codex,
            Box::new(|i| format!("Tool{i}|Other{i}")),
        ),
        (
            "claude/regex_distinct",
            Dialect::ClaudeCode,
            Box::new(|i| format!("^mcp__srv{i}__.*")),
        ),
        (
            "codex/regex_distinct",
            Dialect::Codex,
            Box::new(|i| format!("^mcp__srv{i}__.*")),
        ),
        // The realistic shape under the 128-pattern bound: 1 000 hooks, 100
        // distinct regexes, 900 exact lists, the match-all groups in between.
        (
            "claude/mixed_100_regex",
            Dialect::ClaudeCode,
            Box::new(mixed),
        ),
        ("codex/mixed_100_regex", Dialect::Codex, Box::new(mixed)),
    ];
    for (name, dialect, pattern) in &cases {
        let reg = registry(*dialect, &big, pattern);
        g.bench_function(*name, |b| {
            b.iter(|| black_box(reg.select(black_box("PreToolUse"), black_box(&tool))).len())
        });
    }
    g.finish();
}

fn mixed(i: usize) -> String {
    match i % 10 {
        0 => format!("^mcp__srv{}__.*", i / 10),
        5 => "*".into(),
        _ => format!("Edit|Write|Tool{i}"),
    }
}

fn bench_single(c: &mut Criterion) {
    let mut g = c.benchmark_group("matcher_single");
    let i = Interner::new(16);
    let cases = [
        ("claude/exact", Dialect::ClaudeCode, "Edit|Write|MultiEdit"),
        ("claude/regex", Dialect::ClaudeCode, "mcp__github__.*"),
        ("codex/regex", Dialect::Codex, "mcp__github__.*"),
    ];
    for (name, d, p) in cases {
        let m = Matcher::compile_in(&i, d, ExactSet::for_event(d, ""), p).expect("compiles");
        g.bench_function(name, |b| {
            b.iter(|| m.matches(black_box("mcp__github__create_issue")))
        });
    }
    // Adversarial subjects exactly at each pattern's subject bound: the
    // backtracking policy's worst case.
    for (name, p, unit) in [
        ("claude/worst_at_bound/.*a.*b.*c", ".*a.*b.*c", "ab"),
        ("claude/worst_at_bound/a*a*a*a*c", "a*a*a*a*c", "a"),
    ] {
        let m =
            Matcher::compile_in(&i, Dialect::ClaudeCode, ExactSet::Claude, p).expect("compiles");
        let n = m.max_subject().unwrap_or(0);
        let subject: String = unit.repeat(n / unit.len());
        g.bench_function(format!("{name} (n={n})"), |b| {
            b.iter(|| m.matches(black_box(&subject)))
        });
    }
    g.bench_function("claude/compile_uncached", |b| {
        b.iter(|| {
            let fresh = Interner::new(1);
            Matcher::compile_in(
                &fresh,
                Dialect::ClaudeCode,
                ExactSet::Claude,
                black_box("^mcp__.*__write.*$"),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, bench_select, bench_single);
criterion_main!(benches);
