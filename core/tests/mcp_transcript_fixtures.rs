//! Runs `fixtures/mcp/` (MCP transport resolution against fake HOME /
//! project trees) and `fixtures/transcript/` (transcript files read page by
//! page) through the core's JSON APIs — the same calls every binding makes.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

fn filter() -> Option<String> {
    std::env::var("AH_FIXTURE").ok().filter(|s| !s.is_empty())
}

#[test]
fn mcp_fixtures() {
    let dir = fixtures().join("mcp");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("case.json").is_file())
        .collect();
    cases.sort();
    let total = cases.len();
    assert!(
        total >= 20,
        "only {total} MCP cases found in {}",
        dir.display()
    );
    let (mut ran, mut skipped) = (0, 0);
    for case in cases {
        let root = std::fs::canonicalize(&case).unwrap();
        let text = std::fs::read_to_string(case.join("case.json")).unwrap();
        let text = text.replace("{root}", root.to_str().unwrap());
        let c: Value = serde_json::from_str(&text).unwrap();
        let obj = c.as_object().unwrap();
        for k in obj.keys() {
            assert!(
                ["name", "description", "request", "expect"].contains(&k.as_str()),
                "{}: unknown field {k}",
                case.display()
            );
        }
        let name = c["name"].as_str().unwrap();
        let stem = case.file_name().unwrap().to_str().unwrap();
        assert_eq!(name, format!("mcp/{stem}"), "name must equal the path");
        if filter().is_some_and(|f| !name.contains(&f)) {
            skipped += 1;
            continue;
        }
        let got: Value =
            serde_json::from_str(&agenthooks::mcp::resolve_json(&c["request"].to_string()))
                .unwrap();
        let want = &c["expect"];
        if let Some(code) = want.pointer("/error/code") {
            assert_eq!(got.pointer("/error/code"), Some(code), "{name}: {got}");
        } else {
            assert_eq!(&got, want, "{name}");
            // Secrets planted in every tree never come back.
            assert!(!got.to_string().contains("s3cret"), "{name}: {got}");
        }
        ran += 1;
    }
    println!("mcp fixtures: ran {ran}, skipped {skipped}, total {total}");
    assert_eq!(ran + skipped, total);
}

/// Reads a transcript the way the bindings do: pages of `page_size`
/// entries through the JSON page API until `done`.
fn read_pages(path: &Path, format: &str, max_line: Option<u64>, page_size: u64) -> Vec<Value> {
    let mut out = Vec::new();
    let (mut offset, mut line) = (0u64, 1u64);
    for _ in 0..10_000 {
        let mut req = json!({"path": path, "format": format, "offset": offset, "line": line,
                             "max_entries": page_size});
        if let Some(m) = max_line {
            req["max_line_bytes"] = json!(m);
        }
        let page: Value =
            serde_json::from_str(&agenthooks::transcript::page_json(&req.to_string())).unwrap();
        assert!(page.get("error").is_none(), "{page}");
        out.extend(page["entries"].as_array().unwrap().iter().cloned());
        offset = page["next_offset"].as_u64().unwrap();
        line = page["next_line"].as_u64().unwrap();
        if page["done"].as_bool().unwrap() {
            return out;
        }
    }
    panic!("transcript paging did not finish");
}

#[test]
fn transcript_fixtures() {
    let dir = fixtures().join("transcript");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    cases.sort();
    let total = cases.len();
    assert!(total >= 4, "only {total} transcript cases");
    let update = std::env::var("AH_UPDATE_TRANSCRIPT").is_ok();
    let (mut ran, mut skipped) = (0, 0);
    for case in cases {
        let mut c: Value = serde_json::from_str(&std::fs::read_to_string(&case).unwrap()).unwrap();
        for k in c.as_object().unwrap().keys() {
            assert!(
                [
                    "name",
                    "description",
                    "file",
                    "format",
                    "max_line_bytes",
                    "page_size",
                    "expect"
                ]
                .contains(&k.as_str()),
                "{}: unknown field {k}",
                case.display()
            );
        }
        let name = c["name"].as_str().unwrap().to_string();
        let stem = case.file_stem().unwrap().to_str().unwrap();
        assert_eq!(name, format!("transcript/{stem}"));
        if filter().is_some_and(|f| !name.contains(&f)) {
            skipped += 1;
            continue;
        }
        let file = dir.join(c["file"].as_str().unwrap());
        let got = read_pages(
            &file,
            c["format"].as_str().unwrap_or("auto"),
            c["max_line_bytes"].as_u64(),
            c["page_size"].as_u64().unwrap_or(256),
        );
        // Paging must not change the result: one big page reads the same.
        let whole = read_pages(
            &file,
            c["format"].as_str().unwrap_or("auto"),
            c["max_line_bytes"].as_u64(),
            4096,
        );
        assert_eq!(got, whole, "{name}: paged and whole reads differ");
        if update {
            c["expect"] = Value::Array(got);
            std::fs::write(&case, serde_json::to_string_pretty(&c).unwrap() + "\n").unwrap();
        } else {
            assert_eq!(&Value::Array(got), &c["expect"], "{name}");
        }
        ran += 1;
    }
    println!("transcript fixtures: ran {ran}, skipped {skipped}, total {total}");
    assert_eq!(ran + skipped, total);
}

/// The Rust iterator reads the same entries as the page API.
#[test]
fn iterator_matches_pages() {
    let file = fixtures().join("transcript/codex-e2e.jsonl");
    let it: Vec<Value> =
        agenthooks::transcript::Reader::open(&file, agenthooks::transcript::Format::Codex, 8192)
            .unwrap()
            .map(|e| serde_json::to_value(e.unwrap()).unwrap())
            .collect();
    assert_eq!(it, read_pages(&file, "codex", Some(8192), 3));
    assert!(it.len() > 5);
}

#[test]
fn transcript_errors_are_clear() {
    let ans: Value = serde_json::from_str(&agenthooks::transcript::page_json(
        r#"{"path": "/nonexistent/agenthooks/t.jsonl"}"#,
    ))
    .unwrap();
    assert_eq!(ans["error"]["code"], "io");
    let ans: Value = serde_json::from_str(&agenthooks::transcript::page_json(
        r#"{"path": "/x", "bogus": 1}"#,
    ))
    .unwrap();
    assert_eq!(ans["error"]["code"], "invalid_argument");
    // A directory (or FIFO) is refused, never read or waited on.
    let ans: Value =
        serde_json::from_str(&agenthooks::transcript::page_json(r#"{"path": "/tmp"}"#)).unwrap();
    assert_eq!(ans["error"]["code"], "io");
    // A FIFO with no writer: refused at once (opening it blocking would hang).
    let dir = std::env::temp_dir().join(format!("ah-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("t.jsonl");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let req = json!({"path": fifo}).to_string();
        let t0 = std::time::Instant::now();
        let ans: Value = serde_json::from_str(&agenthooks::transcript::page_json(&req)).unwrap();
        assert_eq!(ans["error"]["code"], "io", "{ans}");
        assert!(t0.elapsed() < std::time::Duration::from_secs(5));
        // The same guard protects MCP config reads: a FIFO `.mcp.json` is skipped.
        std::fs::create_dir_all(dir.join("p")).unwrap();
        std::process::Command::new("mkfifo")
            .arg(dir.join("p/.mcp.json"))
            .status()
            .unwrap();
        let req =
            json!({"provider": "claude-code", "server": "x", "cwd": dir.join("p"), "home": dir});
        let ans: Value =
            serde_json::from_str(&agenthooks::mcp::resolve_json(&req.to_string())).unwrap();
        assert_eq!(ans["error"]["code"], "io", "{ans}");
    } else {
        panic!("mkfifo is needed for this test");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
