//! Runs `fixtures/host/*.json` (format: `fixtures/host/README.md`).

use std::path::{Path, PathBuf};

use agenthooks::host::{self, Dialect, HostOptions, RawRun, RegistryBuilder};
use agenthooks::matcher::{ExactSet, INTERNER_CAPACITY, Interner, Matcher, MatcherMode};
use agenthooks::{DecodeOptions, Provider};
use serde::Deserialize;
use serde_json::{Map, Value, json};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    description: String,
    dialect: Dialect,
    #[serde(default)]
    config: Option<Value>,
    #[serde(default)]
    config_text: Option<String>,
    #[serde(default)]
    config_gen: Option<ConfigGen>,
    #[serde(default)]
    plugins: Vec<Plugin>,
    #[serde(default)]
    interner_preload: usize,
    #[serde(default)]
    matchers: Vec<MatcherCase>,
    #[serde(default)]
    event: Option<Value>,
    #[serde(default)]
    event_provider: Option<String>,
    #[serde(default)]
    runs: Option<Vec<RawRun>>,
    #[serde(default)]
    strict: bool,
    #[serde(default)]
    project_dir: Option<PathBuf>,
    expect: Expect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigGen {
    kind: String,
    count: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatcherCase {
    pattern: String,
    #[serde(default)]
    flags: Option<String>,
    #[serde(default)]
    event: String,
    #[serde(default)]
    mode: Option<MatcherMode>,
    #[serde(default)]
    checks: Vec<(String, bool)>,
    #[serde(default)]
    long_subject: Option<LongSubject>,
    #[serde(default)]
    error: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LongSubject {
    prefix: String,
    fill: String,
    bytes: usize,
    matches: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Plugin {
    root: PathBuf,
    config: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    #[serde(default)]
    diagnostics: Option<Vec<Map<String, Value>>>,
    #[serde(default)]
    rejected: bool,
    #[serde(default)]
    subjects: Option<Vec<String>>,
    #[serde(default)]
    selected: Option<Vec<String>>,
    #[serde(default)]
    commands: Option<Vec<String>>,
    #[serde(default)]
    argv: Option<Vec<Vec<String>>>,
    #[serde(default)]
    stdin: Option<Value>,
    #[serde(default)]
    outputs: Option<Vec<Value>>,
    #[serde(default)]
    outcome: Option<Value>,
    #[serde(default)]
    audit: Option<Vec<String>>,
}

fn generated(g: &ConfigGen) -> Value {
    assert_eq!(g.kind, "distinct_regex_groups", "unknown config_gen kind");
    let groups: Vec<Value> = (0..g.count)
        .map(|i| json!({"matcher": format!("^tool_{i}$"), "hooks": [{"type": "command", "command": "true"}]}))
        .collect();
    json!({"hooks": {"PreToolUse": groups}})
}

fn strip(mut v: Value, keys: &[&str]) -> Value {
    if let Value::Object(m) = &mut v {
        for k in keys {
            m.remove(*k);
        }
    }
    v
}

fn check_matcher(interner: &Interner, dialect: Dialect, m: &MatcherCase) -> Result<(), String> {
    let compiled = match &m.flags {
        Some(f) => Matcher::compile_ecma_with_flags_in(interner, &m.pattern, f),
        None => Matcher::compile_in(
            interner,
            dialect,
            ExactSet::for_event(dialect, &m.event),
            &m.pattern,
        ),
    };
    let at = format!("matcher {:?}", m.pattern);
    let matcher = match (compiled, &m.error) {
        (Err(d), Some(code)) if d.code.as_str() == code => return Ok(()),
        (Err(d), _) => return Err(format!("{at}: {d}")),
        (Ok(_), Some(code)) => return Err(format!("{at}: compiled, want {code}")),
        (Ok(x), None) => x,
    };
    if let Some(mode) = m.mode {
        if matcher.mode() != mode {
            return Err(format!("{at}: mode {:?}", matcher.mode()));
        }
    }
    for (subject, want) in &m.checks {
        if matcher.matches(subject) != *want {
            return Err(format!("{at} on {subject:?}: want {want}"));
        }
    }
    if let Some(l) = &m.long_subject {
        let mut s = l.prefix.clone();
        while s.len() < l.bytes {
            s.push_str(&l.fill);
        }
        if matcher.matches(&s) != l.matches {
            return Err(format!(
                "{at} on a {}-byte subject: want {}",
                s.len(),
                l.matches
            ));
        }
    }
    Ok(())
}

fn run_case(c: &Case) -> Result<(), String> {
    let interner = Interner::new(INTERNER_CAPACITY);
    for i in 0..c.interner_preload {
        interner
            .intern(c.dialect, "", &format!("^preload_{i}$"))
            .map_err(|d| format!("preload: {d}"))?;
    }
    for m in &c.matchers {
        check_matcher(&interner, c.dialect, m)?;
    }
    let mut b = RegistryBuilder::with_interner(c.dialect, &interner);
    b.strict(c.strict);
    let sources = [
        c.config.is_some(),
        c.config_text.is_some(),
        c.config_gen.is_some(),
    ];
    match sources.iter().filter(|x| **x).count() {
        0 if !c.matchers.is_empty() => return Ok(()),
        1 => {}
        _ => return Err("exactly one of config, config_text, config_gen".into()),
    }
    if let Some(v) = &c.config {
        b.add_settings("config", v);
    }
    if let Some(t) = &c.config_text {
        b.add_text("config", t);
    }
    if let Some(g) = &c.config_gen {
        b.add_settings("config", &generated(g));
    }
    for p in &c.plugins {
        b.add_plugin(
            &format!("plugin:{}", p.root.display()),
            p.root.clone(),
            None,
            &p.config,
        );
    }
    let built = b.build();
    let diags: Vec<Value> = match &built {
        Ok(r) => r
            .warnings()
            .iter()
            .map(|d| serde_json::to_value(d).unwrap())
            .collect(),
        Err(e) => e
            .diagnostics
            .iter()
            .map(|d| serde_json::to_value(d).unwrap())
            .collect(),
    };
    let e = &c.expect;
    if let Some(want) = &e.diagnostics {
        let brief = |d: &Value| {
            format!(
                "{}@{}[{}].{} {}",
                d["code"], d["event"], d["group_index"], d["handler_index"], d["pattern"]
            )
        };
        let got: Vec<String> = diags.iter().map(brief).collect();
        if want.len() != diags.len() {
            return Err(format!("diagnostics: want {} got {got:?}", want.len()));
        }
        for (w, g) in want.iter().zip(&diags) {
            for (k, v) in w {
                if g.get(k).unwrap_or(&Value::Null) != v {
                    return Err(format!("diagnostic {k}: want {v} in {}", brief(g)));
                }
            }
        }
    } else if !diags.is_empty() && !e.rejected {
        return Err(format!("unexpected diagnostics: {diags:?}"));
    }
    let registry = match (built, e.rejected) {
        (Err(_), true) => return Ok(()),
        (Err(err), false) => return Err(format!("rejected: {err}")),
        (Ok(_), true) => return Err("the configuration was accepted".into()),
        (Ok(r), false) => r,
    };
    let Some(payload) = &c.event else {
        return Ok(());
    };
    let provider = match &c.event_provider {
        Some(p) => Provider::parse(p).map_err(|e| e.to_string())?,
        None => c.dialect.provider(),
    };
    let bytes = serde_json::to_vec(payload).unwrap();
    let event = agenthooks::decode(provider, &bytes, &DecodeOptions::default())
        .map_err(|e| format!("event does not decode: {e}"))?;
    let opts = HostOptions {
        project_dir: c.project_dir.clone(),
        ..HostOptions::default()
    };
    let plan = host::plan(&registry, &event, &opts).map_err(|e| e.to_string())?;
    if let Some(want) = &e.subjects {
        if &plan.subjects != want {
            return Err(format!("subjects: want {want:?} got {:?}", plan.subjects));
        }
    }
    let ids: Vec<String> = plan.hooks.iter().map(|p| p.hook.id.to_string()).collect();
    if let Some(want) = &e.selected {
        if &ids != want {
            return Err(format!("selected: want {want:?} got {ids:?}"));
        }
    }
    if let Some(want) = &e.commands {
        let got: Vec<&str> = plan.hooks.iter().map(|p| p.hook.command.as_str()).collect();
        if got != *want {
            return Err(format!("commands: want {want:?} got {got:?}"));
        }
    }
    if let Some(want) = &e.argv {
        let got: Vec<&Vec<String>> = plan.hooks.iter().map(|p| &p.request.argv).collect();
        if got.len() != want.len() || got.iter().zip(want).any(|(g, w)| *g != w) {
            return Err(format!("argv: want {want:?} got {got:?}"));
        }
    }
    if let Some(want) = &e.stdin {
        let got = Value::Object(plan.payload.object.clone());
        if &got != want {
            return Err(format!("stdin: want {want} got {got}"));
        }
        let newline = plan.payload.bytes.last() == Some(&b'\n');
        if newline != (c.dialect == Dialect::ClaudeCode) {
            return Err("trailing newline iff claude-code".into());
        }
    }
    let needs_runs = e.outputs.is_some() || e.outcome.is_some() || e.audit.is_some();
    let runs = match (&c.runs, needs_runs) {
        (Some(r), _) => r.clone(),
        (None, false) => return Ok(()),
        (None, true) => return Err("expectations on outputs need `runs`".into()),
    };
    if runs.len() != plan.hooks.len() {
        return Err(format!(
            "{} runs for {} selected hooks {ids:?}",
            runs.len(),
            plan.hooks.len()
        ));
    }
    let report = host::finish(&plan, &runs, 0);
    if let Some(want) = &e.outputs {
        let got: Vec<Value> = report
            .hooks
            .iter()
            .map(|h| strip(serde_json::to_value(&h.output).unwrap(), &["error"]))
            .collect();
        if &got != want {
            return Err(format!(
                "outputs:\n want {}\n  got {}",
                json!(want),
                json!(got)
            ));
        }
    }
    if let Some(want) = &e.outcome {
        let mut got = serde_json::to_value(&report.outcome).unwrap();
        if let Some(Value::Array(errs)) = got.get_mut("errors") {
            for err in errs.iter_mut() {
                *err = strip(err.take(), &["message"]);
            }
        }
        if &got != want {
            return Err(format!("outcome:\n want {want}\n  got {got}"));
        }
    }
    if let Some(want) = &e.audit {
        let got: Vec<String> = report
            .audit
            .iter()
            .filter_map(|r| match serde_json::to_value(r).unwrap() {
                Value::Object(m) if m["record"] == "result" => {
                    m["decision"].as_str().map(str::to_string)
                }
                _ => None,
            })
            .collect();
        if &got != want {
            return Err(format!("audit: want {want:?} got {got:?}"));
        }
    }
    Ok(())
}

#[test]
fn host_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/host");
    let filter = std::env::var("AH_FIXTURE").ok();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/host")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let (mut total, mut ran, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let c: Case =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let stem = f.file_stem().unwrap().to_string_lossy();
        assert_eq!(c.name, format!("host/{stem}"), "{}", f.display());
        assert!(!c.description.is_empty(), "{}: description", c.name);
        total += 1;
        if filter
            .as_ref()
            .is_some_and(|x| !c.name.contains(x.as_str()))
        {
            skipped += 1;
            continue;
        }
        ran += 1;
        if let Err(why) = run_case(&c) {
            failures.push(format!("{}: {why}", c.name));
        }
    }
    assert_eq!(ran + skipped, total);
    assert!(
        failures.is_empty(),
        "{} of {ran} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        filter.is_some() || ran >= 40,
        "only {ran} host fixtures ran"
    );
    eprintln!("host fixtures: {ran} ran, {skipped} skipped, {total} total");
}
