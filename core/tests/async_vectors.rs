//! The async and backfill vectors (`fixtures/async/`, schema in its
//! README), run in-process through `runtime::launch` + `run_plan` with an
//! injected ancestor chain and a fresh state directory per vector.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use agenthooks::{Decision, Router};
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Vector {
    name: String,
    description: String,
    #[serde(default)]
    ancestry: Option<Vec<Vec<String>>>,
    steps: Vec<Step>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    argv: Vec<String>,
    stdin: Value,
    expect: Expect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    #[serde(default)]
    stdout: Option<String>,
    #[serde(default)]
    stdout_json: Option<Value>,
    #[serde(default)]
    stderr_contains: Vec<String>,
    exit_code: i32,
    observed: Vec<Value>,
}

type Seen = Arc<Mutex<Vec<Value>>>;

/// The vector guard plus one observer that records what it sees.
fn vector_router(seen: Seen) -> Router {
    let mut r = Router::new();
    r.on_any(move |e| {
        let mut o = json!({"kind": e.kind.as_str(), "native_name": e.native_name});
        if e.backfilled {
            o["backfilled"] = json!(true);
        }
        if let Some(p) = &e.prompt {
            o["prompt"] = json!(p);
        }
        seen.lock().unwrap().push(o);
    });
    r.on_tool_pre(|e| {
        if e.tool.command().contains("rm -rf") {
            Decision::deny("vector guard: rm -rf is not allowed")
        } else {
            Decision::no_decision()
        }
    });
    r
}

fn run_vector(path: &Path, state: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let v: Vector = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let stem = path.file_stem().unwrap().to_string_lossy();
    if v.name != format!("async/{stem}") || v.description.trim().is_empty() || v.steps.is_empty() {
        return Err(format!(
            "{}: name must be async/{stem}, with a description and steps",
            path.display()
        ));
    }
    let mut errs = Vec::new();
    for (i, s) in v.steps.iter().enumerate() {
        let seen: Seen = Arc::default();
        let router = Arc::new(vector_router(Arc::clone(&seen)));
        let mut plan = match agenthooks::runtime::launch(&s.argv) {
            agenthooks::runtime::Launch::Run(p) => p,
            _ => return Err(format!("{}: step {i}: argv is not a run", v.name)),
        };
        plan.args.state_dir = Some(state.to_path_buf());
        plan.args.ancestry = v.ancestry.clone();
        let stdin = serde_json::to_vec(&s.stdin).unwrap();
        let r = agenthooks::runtime::run_plan(router, &plan, Ok(stdin));
        let e = &s.expect;
        if r.exit_code != e.exit_code {
            errs.push(format!(
                "step {i}: exit code {} (want {})",
                r.exit_code, e.exit_code
            ));
        }
        match (&e.stdout, &e.stdout_json) {
            (Some(want), None) => {
                if &r.stdout != want {
                    errs.push(format!("step {i}: stdout {:?} (want {want:?})", r.stdout));
                }
            }
            (None, Some(want)) => match serde_json::from_str::<Value>(&r.stdout) {
                Ok(got) if &got == want => {}
                _ => errs.push(format!("step {i}: stdout {:?} (want {want})", r.stdout)),
            },
            _ => {
                return Err(format!(
                    "{}: step {i}: exactly one of stdout, stdout_json",
                    v.name
                ));
            }
        }
        for want in &e.stderr_contains {
            if !r.stderr.contains(want.as_str()) {
                errs.push(format!("step {i}: stderr lacks {want:?}: {:?}", r.stderr));
            }
        }
        let got = seen.lock().unwrap().clone();
        if got != e.observed {
            errs.push(format!(
                "step {i}: observed {} (want {})",
                Value::from(got),
                Value::from(e.observed.clone())
            ));
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(format!("{}: {}", v.name, errs.join("; ")))
    }
}

#[test]
fn async_vectors() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/async");
    let filter = std::env::var("AH_FIXTURE").ok();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let base = std::env::temp_dir().join(format!("ah-async-vectors-{}", std::process::id()));
    let (mut ran, mut fails) = (0, Vec::new());
    for (n, f) in files.iter().enumerate() {
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        if filter.as_deref().is_some_and(|x| !name.contains(x)) {
            continue;
        }
        ran += 1;
        if let Err(e) = run_vector(f, &base.join(n.to_string())) {
            fails.push(e);
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    println!("ran {ran} of {}", files.len());
    assert!(fails.is_empty(), "{}", fails.join("\n"));
    assert!(ran > 0 && (filter.is_some() || ran == files.len()));
}
