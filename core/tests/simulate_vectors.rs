//! Runs the behaviour reader over every row of `fixtures/simulate/*.json`
//! and, when it exists, `fixtures/simulate/observed/*.json` (rows observed
//! on the real agents in tier 2). Format: `fixtures/simulate/README.md`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use agenthooks::Provider;
use agenthooks::simulate::{Answer, Effect, Mode, WarningCode, predict_in};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    agent: String,
    /// Observed files: the agent version the rows were observed on.
    #[serde(default)]
    #[allow(dead_code)]
    agent_version: Option<String>,
    rows: Vec<Row>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    name: String,
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    event: String,
    #[serde(default)]
    tool: Option<String>,
    answer: Answer,
    effect: String,
    #[serde(default, deserialize_with = "present")]
    model_sees: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    user_sees: Option<Option<String>>,
    #[serde(default)]
    warnings: Vec<String>,
    /// Observed files: what else was seen.
    #[serde(default)]
    #[allow(dead_code)]
    note: Option<String>,
}

/// `Some(None)` for an explicit null, `None` when the field is absent.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

/// `observed`: rows seen on the real agents in headless runs; their
/// warnings are a subset (warnings are predictions, not observations).
fn check_file(path: &Path, observed: bool, failures: &mut Vec<String>) -> usize {
    let text = std::fs::read_to_string(path).expect("read vector file");
    let f: File = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: not a vector file: {e}", path.display()));
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    assert_eq!(
        f.agent,
        stem,
        "{}: agent must equal the file stem",
        path.display()
    );
    let agent = Provider::parse(&f.agent).expect("known agent");
    assert_eq!(
        agent.id(),
        f.agent,
        "{}: use the provider id",
        path.display()
    );
    let mut names = BTreeSet::new();
    for r in &f.rows {
        let id = format!("{}/{}", path.display(), r.name);
        assert!(names.insert(r.name.clone()), "{id}: duplicate name");
        assert!(
            agenthooks::native_events(agent).contains(&r.event.as_str()),
            "{id}: `{}` is not a native event of {}",
            r.event,
            f.agent
        );
        let want = Effect::parse(&r.effect).unwrap_or_else(|| panic!("{id}: unknown effect"));
        let want_w: BTreeSet<String> = r.warnings.iter().cloned().collect();
        for w in &want_w {
            assert!(
                WarningCode::parse(w).is_some(),
                "{id}: unknown warning `{w}`"
            );
        }
        let mode = if observed {
            Mode::Headless
        } else {
            Mode::Interactive
        };
        let p = predict_in(agent, &r.event, r.tool.as_deref(), &r.answer, mode);
        let got_w: BTreeSet<String> = p
            .warnings
            .iter()
            .map(|w| w.code.as_str().to_string())
            .collect();
        let mut bad = Vec::new();
        if p.effect != want {
            bad.push(format!(
                "effect {} (want {})",
                p.effect.as_str(),
                want.as_str()
            ));
        }
        if if observed {
            !want_w.is_subset(&got_w)
        } else {
            got_w != want_w
        } {
            bad.push(format!("warnings {got_w:?} (want {want_w:?})"));
        }
        for (what, want, got) in [
            ("model_sees", &r.model_sees, &p.model_sees),
            ("user_sees", &r.user_sees, &p.user_sees),
        ] {
            match (want, got) {
                (None, _) | (Some(None), None) => {}
                (Some(Some(w)), Some(g)) if g.contains(w.as_str()) => {}
                (w, g) => bad.push(format!("{what} {g:?} (want {w:?})")),
            }
        }
        if !bad.is_empty() {
            failures.push(format!("{id}: {}", bad.join("; ")));
        }
    }
    f.rows.len()
}

#[test]
fn every_behaviour_vector() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/simulate");
    let mut failures = Vec::new();
    let mut ran = 0;
    let research = files(&root);
    assert!(research.len() >= 8, "one vector file per agent");
    for p in &research {
        ran += check_file(p, false, &mut failures);
    }
    for p in &files(&root.join("observed")) {
        ran += check_file(p, true, &mut failures);
    }
    println!("simulate vectors: ran {ran}, failed {}", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_agent_has_research_rows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/simulate");
    for p in Provider::ALL {
        assert!(
            root.join(format!("{}.json", p.id())).is_file(),
            "{}",
            p.id()
        );
    }
}
