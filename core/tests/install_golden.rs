//! Golden install fixtures: `fixtures/install/<agent>/<case>/` (format in
//! `fixtures/install/README.md`). Each case lays out `before/` under a temp
//! root (`home/`, `project/`), runs the action, and compares the whole tree
//! with `after/`; install cases are then run again and must change nothing.
//!
//! `AH_FIXTURE=<agent>/<case>` filters; `AH_UPDATE_INSTALL_FIXTURES=1`
//! rewrites `after/` from the result (review the diff before committing).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use agenthooks::Provider;
use agenthooks::install::{self, Action, Manifest, Scope, Target};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    description: String,
    agent: String,
    scope: String,
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    cursor_events: Option<Vec<String>>,
    /// Expected error (substring); the tree must then be unchanged.
    #[serde(default)]
    error: Option<String>,
    /// Substrings each expected in some note of the plan.
    #[serde(default)]
    notes: Vec<String>,
}

const ROOT: &str = "{{ROOT}}";

fn tree(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    fn walk(base: &Path, d: &Path, out: &mut BTreeMap<String, String>) {
        let Ok(rd) = fs::read_dir(d) else { return };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                let rel = p
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(
                    rel,
                    fs::read_to_string(&p).unwrap_or_else(|_| "<binary>".into()),
                );
            }
        }
    }
    walk(dir, dir, &mut out);
    out
}

fn write_tree(dir: &Path, files: &BTreeMap<String, String>) {
    for (rel, text) in files {
        let p = dir.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
}

fn cases() -> Vec<PathBuf> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/install");
    let mut out = Vec::new();
    for agent in fs::read_dir(&base)
        .expect("fixtures/install exists")
        .flatten()
    {
        if !agent.path().is_dir() {
            continue;
        }
        for c in fs::read_dir(agent.path()).unwrap().flatten() {
            if c.path().join("case.json").is_file() {
                out.push(c.path());
            }
        }
    }
    out.sort();
    out
}

fn run_case(dir: &Path, update: bool) -> Result<(), String> {
    let case: Case = serde_json::from_str(&fs::read_to_string(dir.join("case.json")).unwrap())
        .map_err(|e| format!("case.json: {e}"))?;
    assert!(!case.description.is_empty());
    let manifest = Manifest::load(&dir.join("manifest.toml")).map_err(|e| e.to_string())?;
    let tmp = tempdir();
    let root = tmp.join("root");
    fs::create_dir_all(root.join("home")).unwrap();
    fs::create_dir_all(root.join("project")).unwrap();
    let root_s = root.to_string_lossy().to_string();
    let sub = |m: BTreeMap<String, String>| -> BTreeMap<String, String> {
        m.into_iter()
            .map(|(k, v)| (k, v.replace(ROOT, &root_s)))
            .collect()
    };
    let before = sub(tree(&dir.join("before")));
    write_tree(&root, &before);
    let agent = Provider::parse(&case.agent).map_err(|e| e.to_string())?;
    let scope = Scope::parse(&case.scope).map_err(|e| e.to_string())?;
    let mut t = Target::new(agent, scope, &root.join("home"), &root.join("project"));
    t.env = case
        .env
        .iter()
        .map(|(k, v)| (k.clone(), v.replace(ROOT, &root_s)))
        .collect();
    t.cursor_events = case.cursor_events.clone();
    let action = match case.action.as_deref() {
        None | Some("install") => Action::Install,
        Some("uninstall") => Action::Uninstall,
        Some(a) => return Err(format!("unknown action {a}")),
    };
    let result = install::apply(&manifest, &t, action);
    let mut got = tree(&root);
    got.retain(|k, _| !k.ends_with(".agenthooks.bak"));
    match (&case.error, result) {
        (Some(want), Err(e)) => {
            let msg = e.to_string().replace(&root_s, ROOT);
            if !msg.contains(want.as_str()) {
                return Err(format!("error `{msg}` does not contain `{want}`"));
            }
            if got != before {
                return Err("a failed install changed files".into());
            }
            return Ok(());
        }
        (Some(want), Ok(_)) => return Err(format!("expected error `{want}`, got success")),
        (None, Err(e)) => return Err(format!("unexpected error: {e}")),
        (None, Ok(plan)) => {
            for n in &case.notes {
                if !plan.notes.iter().any(|x| x.contains(n.as_str())) {
                    return Err(format!("no note contains `{n}`: {:?}", plan.notes));
                }
            }
            for c in &plan.changes {
                if c.before.is_some()
                    && !install::fsio::backup_path(&c.path).is_ok_and(|b| b.exists())
                {
                    return Err(format!("no backup of {}", c.path.display()));
                }
            }
        }
    }
    let got_rel: BTreeMap<String, String> = got
        .iter()
        .map(|(k, v)| (k.clone(), v.replace(&root_s, ROOT)))
        .collect();
    if update {
        let _ = fs::remove_dir_all(dir.join("after"));
        write_tree(&dir.join("after"), &got_rel);
    } else {
        let want = tree(&dir.join("after"));
        if got_rel != want {
            let mut msg = String::from("tree differs from after/:\n");
            for k in want.keys().chain(got_rel.keys()) {
                match (want.get(k), got_rel.get(k)) {
                    (Some(a), Some(b)) if a == b => {}
                    (a, b) => msg.push_str(&format!(
                        "== {k}\n-- want:\n{}\n-- got:\n{}\n",
                        a.map_or("<absent>", |s| s),
                        b.map_or("<absent>", |s| s)
                    )),
                }
            }
            return Err(msg);
        }
    }
    // Idempotence: the same action again changes nothing.
    let again = install::apply(&manifest, &t, action).map_err(|e| format!("second run: {e}"))?;
    if !again.is_noop() {
        return Err(format!("second run changed files:\n{}", again.diff()));
    }
    let _ = fs::remove_dir_all(&tmp);
    Ok(())
}

/// Backups, records and locks of this test binary go to a private state
/// root of its own, never the developer's `~/.local/state`.
fn private_state() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let d = std::env::temp_dir().join(format!(
            "ah-state-{}-{}",
            env!("CARGO_CRATE_NAME"),
            std::process::id()
        ));
        // SAFETY: set once, before any test of this binary reads it (each
        // test calls this first; `Once` blocks the others until it is done).
        unsafe { std::env::set_var("AGENTHOOKS_STATE_DIR", d) };
    });
}

fn tempdir() -> PathBuf {
    private_state();
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let d = std::env::temp_dir().join(format!(
        "ah-install-golden-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn golden_install_fixtures() {
    let filter = std::env::var("AH_FIXTURE").ok();
    let update = std::env::var("AH_UPDATE_INSTALL_FIXTURES").is_ok();
    let all = cases();
    assert!(
        all.len() >= 16,
        "expected the install fixture cases, found {}",
        all.len()
    );
    let (mut ran, mut skipped, mut failed) = (0, 0, Vec::new());
    for dir in &all {
        let name = format!(
            "{}/{}",
            dir.parent().unwrap().file_name().unwrap().to_string_lossy(),
            dir.file_name().unwrap().to_string_lossy()
        );
        if filter.as_deref().is_some_and(|f| f != name) {
            skipped += 1;
            continue;
        }
        ran += 1;
        if let Err(e) = run_case(dir, update) {
            failed.push(format!("{name}: {e}"));
        }
    }
    assert_eq!(ran + skipped, all.len());
    assert!(
        failed.is_empty(),
        "{} of {ran} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
    eprintln!("install fixtures: {ran} ran, {skipped} skipped");
}
