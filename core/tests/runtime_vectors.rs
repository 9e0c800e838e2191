//! The shared runtime vectors (`fixtures/runtime/*.json`, schema in its
//! README): argv + stdin through the whole author-side run entry, in
//! process (`runtime::run_argv`), with the vector guard. Every binding runs
//! the same files through its own entry and must answer identically.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use agenthooks::{Decision, Policy, Router};
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Vector {
    name: String,
    description: String,
    argv: Vec<String>,
    #[serde(default)]
    router: Option<Value>,
    #[serde(default)]
    stdin: Option<Value>,
    #[serde(default)]
    stdin_text: Option<String>,
    #[serde(default)]
    stdin_b64: Option<String>,
    #[serde(default)]
    stdin_parts: Option<Vec<Part>>,
    expect: Expect,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Part {
    Text(String),
    Repeat(Repeat),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Repeat {
    repeat: String,
    times: usize,
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
}

fn b64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("bad base64 {c}"),
        }
    };
    let clean: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::new();
    for chunk in clean.chunks(4) {
        let mut n = 0u32;
        for (k, &c) in chunk.iter().enumerate() {
            n |= val(c) << (18 - 6 * k);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

/// The stdin bytes of a vector.
fn stdin_of(v: &Vector) -> Vec<u8> {
    let forms = [
        v.stdin.is_some(),
        v.stdin_text.is_some(),
        v.stdin_b64.is_some(),
        v.stdin_parts.is_some(),
    ];
    assert!(
        forms.iter().filter(|f| **f).count() <= 1,
        "{}: at most one stdin form",
        v.name
    );
    if let Some(j) = &v.stdin {
        return serde_json::to_vec(j).unwrap();
    }
    if let Some(t) = &v.stdin_text {
        return t.as_bytes().to_vec();
    }
    if let Some(b) = &v.stdin_b64 {
        return b64(b);
    }
    let mut out = Vec::new();
    for p in v.stdin_parts.iter().flatten() {
        match p {
            Part::Text(t) => out.extend_from_slice(t.as_bytes()),
            Part::Repeat(r) => out.extend_from_slice(r.repeat.repeat(r.times).as_bytes()),
        }
    }
    out
}

/// The vector guard (fixtures/runtime/README.md).
fn vector_router(policy: Option<&Value>) -> Router {
    let policy = match policy {
        Some(p) => Policy::from_json(&p.to_string()).expect("vector router policy"),
        None => Policy::default(),
    };
    let mut r = Router::new().policy(policy);
    r.on_tool_pre(|e| {
        if e.tool.command().contains("rm -rf") {
            Decision::deny("vector guard: rm -rf is not allowed")
        } else if e.tool.command().contains("needs-approval") {
            Decision::ask("vector guard: needs approval")
        } else {
            Decision::no_decision()
        }
    });
    r
}

fn run_vector(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let v: Vector = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let stem = path.file_stem().unwrap().to_string_lossy();
    if v.name != format!("runtime/{stem}") || v.description.trim().is_empty() {
        return Err(format!(
            "{}: name must be runtime/{stem}, with a description",
            path.display()
        ));
    }
    let stdin = stdin_of(&v);
    let router = Arc::new(vector_router(v.router.as_ref()));
    let r = agenthooks::runtime::run_argv(router, &v.argv, &stdin);
    let name = &v.name;
    let e = &v.expect;
    let mut errs = Vec::new();
    if r.exit_code != e.exit_code {
        errs.push(format!("exit code {} (want {})", r.exit_code, e.exit_code));
    }
    match (&e.stdout, &e.stdout_json) {
        (Some(s), None) if &r.stdout != s => {
            errs.push(format!("stdout {:?} (want {s:?})", r.stdout))
        }
        (None, Some(j)) => match serde_json::from_str::<Value>(&r.stdout) {
            Ok(got) if &got == j => {}
            _ => errs.push(format!("stdout {:?} (want JSON {j})", r.stdout)),
        },
        (Some(_), None) => {}
        _ => errs.push("expect needs exactly one of stdout / stdout_json".into()),
    }
    for want in &e.stderr_contains {
        if !r.stderr.contains(want.as_str()) {
            errs.push(format!("stderr lacks {want:?}"));
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{name}: {}\n  stderr: {:?}",
            errs.join("; "),
            r.stderr
        ))
    }
}

#[test]
fn runtime_vectors() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/runtime");
    let filter = std::env::var("AH_FIXTURE").ok();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures/runtime exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let total = files.len();
    let mut ran = 0;
    let mut names = HashSet::new();
    let mut failures = Vec::new();
    for f in &files {
        let stem = f.file_stem().unwrap().to_string_lossy().to_string();
        assert!(names.insert(stem.clone()), "duplicate vector {stem}");
        if filter
            .as_deref()
            .is_some_and(|flt| !format!("runtime/{stem}").contains(flt))
        {
            continue;
        }
        ran += 1;
        if let Err(e) = run_vector(f) {
            failures.push(e);
        }
    }
    eprintln!("runtime vectors: ran {ran} of {total}");
    assert!(total > 0, "no vectors");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if filter.is_none() {
        assert_eq!(ran, total);
    }
}
