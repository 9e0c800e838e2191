//! Every quirk in the registry (`agenthooks::quirks`) that a payload or an
//! answer can show must be pinned by a fixture under `fixtures/<provider>/`
//! that names it in its description (or file name). Accepted spellings, as
//! the existing fixtures write them:
//!
//! - `quirk 3`, `Quirk 6`, `quirk-3`, `quirk3`, `quirks 5, 16 and 17`,
//!   `quirks 1-2`
//! - the id: `codex/7`, `claude-code/13`
//! - the doc row: `codex.md §7 #1` (`§<section> #<n>`, section per
//!   `quirks::section`: §7, Cursor §6.2, Gemini/OpenCode/OpenClaw §6)
//!
//! Quirks marked `FixtureRule::NotApplicable` are skipped. A provider whose
//! dialect is not implemented yet and that has no fixture folder is
//! reported as deferred (counted, not failed); as soon as either exists its
//! quirks are enforced. The test prints covered / not-applicable / missing
//! per provider and fails when anything is missing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use agenthooks::Provider;
use agenthooks::quirks::{self, FixtureRule};
use serde_json::Value;

/// Reads a run of digits at the start of `s`.
fn digits(s: &str) -> Option<(u32, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 {
        return None;
    }
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// After a first number `first`, reads further list items (`, 5`,
/// ` and 5`, `/5`, ` & 5`, `, #5`) and ranges (`1-2`, `1–3`).
fn list_tail(first: u32, mut rest: &str, out: &mut BTreeSet<u32>) {
    let mut last = first;
    loop {
        if let Some(r) = rest.strip_prefix('-').or_else(|| rest.strip_prefix('–')) {
            if let Some((n, tail)) = digits(r) {
                if n > last && n - last <= 30 {
                    out.extend(last + 1..=n);
                }
                last = n;
                rest = tail;
                continue;
            }
        }
        let r = rest.trim_start_matches([' ', ',', '/', '&']);
        let r = r.strip_prefix("and ").unwrap_or(r);
        let r = r.trim_start().trim_start_matches('#');
        if r.len() == rest.len() {
            return;
        }
        match digits(r) {
            Some((n, tail)) => {
                out.insert(n);
                last = n;
                rest = tail;
            }
            None => return,
        }
    }
}

/// Quirk numbers a text names for `provider`.
fn named_numbers(text: &str, provider: Provider) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    let lower = text.to_ascii_lowercase();
    // `quirk 3`, `quirks 5, 16 and 17`, `quirk-3`, `quirk3`, `quirk #3`.
    for (i, _) in lower.match_indices("quirk") {
        let mut rest = &lower[i + "quirk".len()..];
        rest = rest.strip_prefix('s').unwrap_or(rest);
        let rest = rest.trim_start_matches([' ', '-', '_', '#']);
        if let Some((n, tail)) = digits(rest) {
            out.insert(n);
            list_tail(n, tail, &mut out);
        }
    }
    // The id: `codex/7`.
    let id = format!("{}/", provider.id());
    for (i, _) in lower.match_indices(&id) {
        if let Some((n, _)) = digits(&lower[i + id.len()..]) {
            out.insert(n);
        }
    }
    // The doc row: `§7 #1`.
    let sec = format!("{} #", quirks::section(provider));
    for (i, _) in lower.match_indices(&sec) {
        if let Some((n, tail)) = digits(&lower[i + sec.len()..]) {
            out.insert(n);
            list_tail(n, tail, &mut out);
        }
    }
    out
}

/// Every fixture's `(name, description)` in `fixtures/<provider>/`.
fn fixture_texts(dir: &Path) -> Vec<(String, String)> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(&f).ok()?;
            let stem = f.file_stem()?.to_string_lossy().to_string();
            // A file mid-edit by another writer: use its stem only.
            let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            let name = v
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or(stem);
            let desc = v
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            Some((name, desc))
        })
        .collect()
}

#[test]
fn spellings_are_recognised() {
    let p = Provider::Codex;
    let got = |s: &str| named_numbers(s, p).into_iter().collect::<Vec<_>>();
    assert_eq!(got("quirk 3 (claude-code.md §7, §4.1)"), vec![3]);
    assert_eq!(got("Quirk 6 for a file tool"), vec![6]);
    assert_eq!(got("Quirks 5, 16 and 17"), vec![5, 16, 17]);
    assert_eq!(got("pins codex/7 and codex/13."), vec![7, 13]);
    assert_eq!(got("see codex.md §7 #1, #4"), vec![1, 4]);
    assert_eq!(got("fail-closed-quirk3"), vec![3]);
    assert_eq!(got("Quirk 1 / §5: ask"), vec![1]);
    assert_eq!(got("quirk 13 (the tool)"), vec![13]);
    assert_eq!(got("(quirks 1-2: explicit JSON answers)"), vec![1, 2]);
    assert_eq!(got("quirks 3–5 and 9"), vec![3, 4, 5, 9]);
    assert_eq!(got("quirk 2-fold"), vec![2]);
    assert!(got("quirky behaviour, §4.2").is_empty());
    assert!(got("codex/pretooluse-bash").is_empty());
    assert_eq!(
        named_numbers("cursor.md §6.2 #3", Provider::Cursor)
            .into_iter()
            .collect::<Vec<_>>(),
        vec![3]
    );
}

#[test]
fn every_observable_quirk_has_a_fixture() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut missing_total = 0;
    let mut report: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let (mut covered_all, mut na_all, mut deferred_all) = (0, 0, 0);
    for p in Provider::ALL {
        let dir = root.join(p.id());
        let fixtures = fixture_texts(&dir);
        let enforced = !agenthooks::native_events(p).is_empty() || !fixtures.is_empty();
        let mut named: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        for (name, desc) in &fixtures {
            for n in named_numbers(&format!("{name} {desc}"), p) {
                named.entry(n).or_default().push(name.clone());
            }
        }
        let qs = quirks::for_provider(p);
        let (mut covered, mut na, mut missing) = (0, 0, Vec::new());
        for q in &qs {
            match q.fixture {
                FixtureRule::NotApplicable(_) => {
                    na += 1;
                    if let Some(by) = named.get(&q.number()) {
                        eprintln!(
                            "quirks_fixtures: note: {} is n/a but named by {}",
                            q.id,
                            by.join(", ")
                        );
                    }
                }
                FixtureRule::Required => {
                    if named.contains_key(&q.number()) {
                        covered += 1;
                    } else {
                        missing.push(q.id.to_string());
                    }
                }
            }
        }
        for n in named.keys() {
            if quirks::get(&format!("{}/{n}", p.id())).is_none() {
                eprintln!(
                    "quirks_fixtures: warning: {} names quirk {n}, which {} does not have",
                    named[n].join(", "),
                    p.id()
                );
            }
        }
        let state = if enforced {
            ""
        } else {
            "  (deferred: no dialect, no fixtures)"
        };
        eprintln!(
            "quirks_fixtures: {:<12} quirks {:>2}  covered {:>2}  n/a {:>2}  missing {:>2}{state}",
            p.id(),
            qs.len(),
            covered,
            na,
            missing.len()
        );
        covered_all += covered;
        na_all += na;
        if enforced {
            missing_total += missing.len();
            if !missing.is_empty() {
                report.insert(p.id(), missing);
            }
        } else {
            deferred_all += missing.len();
        }
    }
    eprintln!(
        "quirks_fixtures: total covered {covered_all}  n/a {na_all}  missing {missing_total}  deferred {deferred_all}"
    );
    for (p, ids) in &report {
        eprintln!("quirks_fixtures: MISSING {p}: {}", ids.join(" "));
    }
    assert_eq!(
        missing_total, 0,
        "{missing_total} quirk(s) without a fixture naming them; see stderr (docs/quirks.md lists them)"
    );
}
