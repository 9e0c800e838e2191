//! Runs every `fixtures/serve/*.json` vector (frames in, frames out)
//! through the Rust serve loop. Schema and the vector router:
//! `fixtures/serve/README.md`. The Python and Go suites run the same
//! vectors through their own serve loops.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agenthooks::serve::{self, Sink};
use agenthooks::{Decision, Router};
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Vector {
    name: String,
    description: String,
    provider: String,
    #[serde(default)]
    args: Vec<String>,
    input: Vec<Value>,
    output: Vec<Value>,
    #[serde(default)]
    in_order: Vec<Vec<Value>>,
}

/// The router every language builds for the vectors (README.md).
fn vector_router() -> Router {
    let mut r = Router::new();
    r.on_tool_pre(|e| -> Result<Decision, String> {
        let cmd = e.tool.command();
        if cmd.contains("rm -rf") {
            Ok(Decision::deny("destructive command"))
        } else if cmd == "fail" {
            Err("boom".into())
        } else if cmd == "slow" {
            std::thread::sleep(Duration::from_secs(3));
            Ok(Decision::no_decision())
        } else if let Some(ms) = cmd.strip_prefix("sleep ").and_then(|n| n.parse().ok()) {
            std::thread::sleep(Duration::from_millis(ms));
            Ok(Decision::no_decision())
        } else {
            Ok(Decision::no_decision())
        }
    });
    r
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
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::new();
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c) << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// One input entry as its line: a string is the exact line, an object is
/// written as compact JSON, `{"$b64": ...}` and `{"$gen": ...}` as
/// README.md says.
fn line_of(v: &Value) -> Vec<u8> {
    match v {
        Value::String(s) => s.clone().into_bytes(),
        Value::Object(m) if m.contains_key("$b64") => b64(m["$b64"].as_str().expect("$b64")),
        Value::Object(m) if m.contains_key("$gen") => {
            let g = &m["$gen"];
            let mut l = g["prefix"].as_str().expect("prefix").as_bytes().to_vec();
            let fill = g["fill"].as_str().expect("fill");
            let n = g["repeat"].as_u64().expect("repeat") as usize;
            l.extend(fill.repeat(n).bytes());
            l.extend(g["suffix"].as_str().expect("suffix").bytes());
            l
        }
        Value::Object(_) => serde_json::to_vec(v).expect("JSON"),
        other => panic!("bad input entry {other}"),
    }
}

/// `$VERSION` in an expected frame is the library version.
fn expand(v: &Value) -> Value {
    match v {
        Value::String(s) if s == "$VERSION" => Value::String(env!("CARGO_PKG_VERSION").into()),
        Value::Array(a) => Value::Array(a.iter().map(expand).collect()),
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), expand(v))).collect()),
        other => other.clone(),
    }
}

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

static RUN: AtomicUsize = AtomicUsize::new(0);

fn run(v: &Vector) -> Vec<Value> {
    let mut argv = vec![
        "hook".to_string(),
        "agenthooks".into(),
        "serve".into(),
        format!("--provider={}", v.provider),
    ];
    argv.extend(v.args.iter().cloned());
    let mut args = agenthooks::runtime::parse_args(&argv)
        .expect("argv")
        .expect("agenthooks word");
    args.state_dir = Some(std::env::temp_dir().join(format!(
        "ah-serve-vectors-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, Ordering::SeqCst)
    )));
    let mut input = Vec::new();
    for l in &v.input {
        input.extend(line_of(l));
        input.push(b'\n');
    }
    let buf = Buf::default();
    let sink: Sink = Arc::new(Mutex::new(buf.clone()));
    serve::serve(Arc::new(vector_router()), &args, &input[..], sink).expect("serve");
    let out = buf.0.lock().unwrap().clone();
    String::from_utf8(out)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a reply line is JSON"))
        .collect()
}

/// Compares replies as a multiset (replies of different sessions may come
/// in any order), then checks each `in_order` list.
fn check(v: &Vector, got: &[Value]) -> Result<(), String> {
    let want: Vec<Value> = v.output.iter().map(expand).collect();
    let mut g: Vec<String> = got.iter().map(Value::to_string).collect();
    let mut w: Vec<String> = want.iter().map(Value::to_string).collect();
    g.sort();
    w.sort();
    if g != w {
        let extra: Vec<&String> = g.iter().filter(|x| !w.contains(x)).collect();
        let missing: Vec<&String> = w.iter().filter(|x| !g.contains(x)).collect();
        return Err(format!(
            "replies differ\n  unexpected: {extra:#?}\n  missing: {missing:#?}"
        ));
    }
    if got.first() != want.first() && want.first().is_some_and(|f| f.get("hello").is_some()) {
        return Err(format!("the hello reply must come first: {got:#?}"));
    }
    for order in &v.in_order {
        let pos: Vec<usize> = order
            .iter()
            .map(|s| {
                got.iter()
                    .position(|f| f.get("seq") == Some(s))
                    .unwrap_or(usize::MAX)
            })
            .collect();
        if pos.windows(2).any(|w| w[0] >= w[1]) {
            return Err(format!("seqs {order:?} out of order: {got:#?}"));
        }
    }
    Ok(())
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/serve")
}

#[test]
fn serve_vectors() {
    let filter = std::env::var("AH_FIXTURE").ok();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root())
        .expect("fixtures/serve exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let (mut total, mut ran) = (0, 0);
    let mut names = HashSet::new();
    let mut failures = Vec::new();
    for f in &files {
        total += 1;
        let text = std::fs::read_to_string(f).expect("read");
        let v: Vector = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not a serve vector: {e}", f.display()));
        let stem = f.file_stem().unwrap().to_string_lossy();
        assert_eq!(v.name, format!("serve/{stem}"), "name must equal the path");
        assert!(!v.description.trim().is_empty(), "{}: description", v.name);
        assert!(names.insert(v.name.clone()), "duplicate name {}", v.name);
        if filter.as_deref().is_some_and(|x| !v.name.contains(x)) {
            total -= 1;
            continue;
        }
        let got = run(&v);
        if let Err(e) = check(&v, &got) {
            failures.push(format!("{}: {e}", v.name));
        }
        ran += 1;
    }
    println!("serve vectors: ran {ran} of {total}");
    assert_eq!(ran, total);
    assert!(
        filter.is_some() || total >= 8,
        "too few serve vectors: {total}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
