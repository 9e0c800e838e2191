//! Installs that race, die mid-write, or meet files they cannot parse never
//! corrupt or lose anything; uninstall removes exactly one identity's hooks.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use agenthooks::Provider;
use agenthooks::install::{self, InstallError, Manifest, Scope, Target, fsio, jsonc};

fn manifest(id: &str) -> Manifest {
    Manifest::from_toml(&format!(
        "id = \"{id}\"\nprogram = \"/opt/{id}/hook\"\n\n[[hooks]]\nkind = \"tool.pre\"\nmatch = \"shell\"\n\n[[hooks]]\nkind = \"agent.stop\"\n"
    ))
    .unwrap()
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

fn tempdir(tag: &str) -> PathBuf {
    private_state();
    let d = std::env::temp_dir().join(format!("ah-install-safety-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(d.join("home/.claude")).unwrap();
    d
}

fn claude(home: &Path) -> Target {
    Target::new(Provider::ClaudeCode, Scope::User, home, home)
}

const ORIGINAL: &str = "{\n  // not JSON for Claude, but ours to keep\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say bye\"}]}]\n  }\n}\n";

/// Child-process mode: installs one manifest into `AH_CHILD_HOME`.
#[test]
fn child_install() {
    let (Ok(home), Ok(id)) = (std::env::var("AH_CHILD_HOME"), std::env::var("AH_CHILD_ID")) else {
        return; // not a child run
    };
    install::install(&manifest(&id), &claude(Path::new(&home))).unwrap();
}

fn spawn_child(home: &Path, id: &str, delay_ms: Option<u64>) -> std::process::Child {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.args([
        "--exact",
        "child_install",
        "--nocapture",
        "--test-threads=1",
    ])
    .env("AH_CHILD_HOME", home)
    .env("AH_CHILD_ID", id)
    .env("AGENTHOOKS_STATE_DIR", home.join("state"))
    // The child's own test-harness lines would read like this run's result.
    .stdout(std::process::Stdio::null());
    if let Some(ms) = delay_ms {
        c.env(fsio::TEST_DELAY_ENV, ms.to_string());
    }
    c.spawn().unwrap()
}

/// Eight processes install eight identities into one file at once: the
/// lock serializes the read-modify-writes, so no entry is lost and the
/// file always parses.
#[test]
fn concurrent_installs_lose_nothing() {
    let d = tempdir("race");
    let home = d.join("home");
    let path = home.join(".claude/settings.json");
    fs::write(&path, ORIGINAL).unwrap();
    let ids: Vec<String> = (0..8).map(|i| format!("racer{i}")).collect();
    let kids: Vec<_> = ids.iter().map(|id| spawn_child(&home, id, None)).collect();
    for mut k in kids {
        assert!(k.wait().unwrap().success());
    }
    let text = fs::read_to_string(&path).unwrap();
    let v = jsonc::parse(&text).expect("the file still parses").value;
    assert_eq!(v["model"], "opus");
    assert!(text.contains("// not JSON for Claude, but ours to keep"));
    for id in &ids {
        assert!(
            text.contains(&format!("--hook-id={id}:tool.pre")),
            "{id} lost:\n{text}"
        );
        assert!(
            text.contains(&format!("--hook-id={id}:agent.stop")),
            "{id} lost"
        );
    }
    assert_eq!(v["hooks"]["PreToolUse"].as_array().unwrap().len(), 8);
    assert_eq!(v["hooks"]["Stop"].as_array().unwrap().len(), 9);
    // No temp file is left behind by a completed install.
    let leftovers: Vec<_> = fs::read_dir(home.join(".claude"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("agenthooks-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = fs::remove_dir_all(&d);
}

/// Threads in one process contend for the same lock too.
#[test]
fn concurrent_threads_lose_nothing() {
    let d = tempdir("threads");
    let home = d.join("home");
    let path = home.join(".claude/settings.json");
    fs::write(&path, "{}\n").unwrap();
    let hs: Vec<_> = (0..6)
        .map(|i| {
            let home = home.clone();
            std::thread::spawn(move || {
                for round in 0..3 {
                    let m = manifest(&format!("t{i}"));
                    let mut m2 = m.clone();
                    m2.hooks[0].timeout = Some(10 + round as u32);
                    install::install(&m2, &claude(&home)).unwrap();
                }
            })
        })
        .collect();
    for h in hs {
        h.join().unwrap();
    }
    let text = fs::read_to_string(&path).unwrap();
    let v = jsonc::parse(&text).unwrap().value;
    assert_eq!(
        v["hooks"]["PreToolUse"].as_array().unwrap().len(),
        6,
        "{text}"
    );
    for i in 0..6 {
        assert!(text.contains(&format!("--hook-id=t{i}:tool.pre")));
    }
    let _ = fs::remove_dir_all(&d);
}

/// A process killed between writing the temp file and renaming it leaves
/// the old file byte for byte; the next install succeeds (the OS released
/// the lock with the process).
#[test]
fn killed_mid_write_leaves_the_old_file() {
    let d = tempdir("kill");
    let home = d.join("home");
    let dir = home.join(".claude");
    let path = dir.join("settings.json");
    fs::write(&path, ORIGINAL).unwrap();
    let mut child = spawn_child(&home, "victim", Some(4000));
    // Wait for the temp file of settings.json (written, synced, not renamed).
    let start = Instant::now();
    let tmp = loop {
        let found = fs::read_dir(&dir).unwrap().flatten().find(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(".settings.json.agenthooks-tmp-")
        });
        if let Some(f) = found {
            break f.path();
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the child never wrote its temp file"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the child finished before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    // The temp file is complete: the new content was ready.
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        fs::read_to_string(&tmp)
            .unwrap()
            .contains("--hook-id=victim:")
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        ORIGINAL,
        "the old file must be intact"
    );
    // A later install takes the lock and completes.
    let mut again = spawn_child(&home, "victim", None);
    assert!(again.wait().unwrap().success());
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains("--hook-id=victim:tool.pre"));
    assert!(
        text.starts_with("{\n  // not JSON for Claude, but ours to keep\n  \"model\": \"opus\",")
    );
    // The child kept its backup in its own state root.
    let real = fsio::real_path(&path).unwrap();
    assert_eq!(
        fs::read_to_string(home.join("state/backups").join(fsio::backup_name(&real))).unwrap(),
        ORIGINAL
    );
    let _ = fs::remove_dir_all(&d);
}

/// Files we cannot parse are never overwritten, and the error names the
/// file and the position (JSON and TOML).
#[test]
fn unparseable_files_are_never_overwritten() {
    let d = tempdir("parse");
    let home = d.join("home");
    let cases: Vec<(Target, PathBuf, &str, &str)> = vec![
        (
            claude(&home),
            home.join(".claude/settings.json"),
            "{\n  \"a\": [1, 2\n}\n",
            ":3:1:",
        ),
        (
            Target::new(Provider::KimiCode, Scope::User, &home, &home),
            home.join(".kimi-code/config.toml"),
            "telemetry = false\n[[hooks]\nevent = 1\n",
            ":2:",
        ),
        (
            Target::new(Provider::Codex, Scope::User, &home, &home),
            home.join(".codex/config.toml"),
            "model = \"x\"\nmodel = \"y\"\n",
            ":2:",
        ),
        (
            Target::new(Provider::Gemini, Scope::User, &home, &home),
            home.join(".gemini/settings.json"),
            "{\"hooks\": {\"BeforeTool\": [/* open comment ]}}",
            ":1:",
        ),
    ];
    for (t, path, bad, pos) in cases {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, bad).unwrap();
        let err = install::install(&manifest("guard"), &t).unwrap_err();
        assert!(matches!(err, InstallError::Parse { .. }), "{err}");
        let msg = err.to_string();
        assert!(msg.contains(&path.display().to_string()), "{msg}");
        assert!(msg.contains(pos), "{msg} lacks {pos}");
        assert!(msg.contains("left untouched"), "{msg}");
        assert_eq!(fs::read_to_string(&path).unwrap(), bad);
        assert!(!fsio::backup_path(&path).unwrap().exists());
    }
    let _ = fs::remove_dir_all(&d);
}

/// Two identities in one file: uninstalling one removes exactly its
/// entries; the other identity's and the user's stay byte for byte.
#[test]
fn uninstall_removes_exactly_ours() {
    let d = tempdir("exact");
    let home = d.join("home");
    let path = home.join(".claude/settings.json");
    fs::write(&path, ORIGINAL).unwrap();
    install::install(&manifest("alpha"), &claude(&home)).unwrap();
    let only_alpha = fs::read_to_string(&path).unwrap();
    install::install(&manifest("beta"), &claude(&home)).unwrap();
    let p = install::uninstall(&manifest("beta"), &claude(&home)).unwrap();
    assert!(!p.is_noop());
    assert_eq!(fs::read_to_string(&path).unwrap(), only_alpha);
    install::uninstall(&manifest("alpha"), &claude(&home)).unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), ORIGINAL);
    // Nothing of ours left: uninstalling again is a no-op.
    assert!(
        install::uninstall(&manifest("alpha"), &claude(&home))
            .unwrap()
            .is_noop()
    );
    let _ = fs::remove_dir_all(&d);
}

/// `plan` (dry run) writes nothing.
#[test]
fn dry_run_writes_nothing() {
    let d = tempdir("dry");
    let home = d.join("home");
    let p = install::plan(&manifest("guard"), &claude(&home), install::Action::Install).unwrap();
    assert_eq!(p.changes.len(), 1);
    assert!(p.diff().contains("+      {"), "{}", p.diff());
    assert!(!home.join(".claude/settings.json").exists());
    let _ = fs::remove_dir_all(&d);
}
