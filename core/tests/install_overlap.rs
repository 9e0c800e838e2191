//! `install` refuses to wire one of our hooks twice into files one agent
//! reads both of (Cursor and Copilot CLI also read Claude Code's
//! `.claude/settings.json`), naming the file that already covers it; and
//! it warns about paths an agent would resolve somewhere else.

use std::fs;
use std::path::{Path, PathBuf};

use agenthooks::Provider;
use agenthooks::install::{self, Action, InstallError, Manifest, Scope, Target, overlap};

fn manifest(id: &str) -> Manifest {
    Manifest::from_toml(&format!(
        "id = \"{id}\"\nprogram = \"/opt/{id}/hook\"\n\n[[hooks]]\nkind = \"tool.pre\"\n"
    ))
    .unwrap()
}

fn tempdir(tag: &str) -> PathBuf {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let d = std::env::temp_dir().join(format!("ah-state-overlap-{}", std::process::id()));
        // SAFETY: set once, before any test of this binary reads it.
        unsafe { std::env::set_var("AGENTHOOKS_STATE_DIR", d) };
    });
    let d = std::env::temp_dir().join(format!("ah-overlap-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(d.join("home")).unwrap();
    fs::create_dir_all(d.join("proj")).unwrap();
    d
}

fn target(p: Provider, d: &Path) -> Target {
    Target::new(p, Scope::Project, &d.join("home"), &d.join("proj"))
}

#[test]
fn cursor_after_claude_is_refused_naming_the_claude_file() {
    let d = tempdir("cursor");
    let m = manifest("acme");
    install::install(&m, &target(Provider::ClaudeCode, &d)).unwrap();
    for agent in [Provider::Cursor, Provider::Copilot] {
        let err = install::install(&m, &target(agent, &d)).unwrap_err();
        let InstallError::DoubleWired { agent: a, message } = &err else {
            panic!("{agent:?}: {err}");
        };
        assert_eq!(a, agent.id());
        assert!(
            message.contains(".claude/settings.json already has acme:tool.pre"),
            "{message}"
        );
        assert!(message.contains(agent.display_name()), "{message}");
        // Nothing written, dry run refused alike.
        assert!(!d.join("proj/.cursor/hooks.json").exists());
        assert!(!d.join("proj/.github/hooks/agenthooks-acme.json").exists());
        assert!(install::plan(&m, &target(agent, &d), Action::Install).is_err());
    }
    // Agents that do not read Claude's file are fine, and reinstalling
    // Claude itself is idempotent, not a double.
    install::install(&m, &target(Provider::Gemini, &d)).unwrap();
    install::install(&m, &target(Provider::ClaudeCode, &d)).unwrap();
    // Uninstall is never refused.
    install::uninstall(&m, &target(Provider::Cursor, &d)).unwrap();
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn claude_after_cursor_is_refused_too() {
    let d = tempdir("claude");
    let m = manifest("acme");
    install::install(&m, &target(Provider::Cursor, &d)).unwrap();
    let found = overlap::double_wiring(&m, &target(Provider::ClaudeCode, &d)).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].reader, Provider::Cursor);
    assert!(found[0].covered_by.ends_with(".cursor/hooks.json"));
    assert!(install::install(&m, &target(Provider::ClaudeCode, &d)).is_err());
    // Another identity's hooks are not ours to count.
    install::install(&manifest("other"), &target(Provider::ClaudeCode, &d)).unwrap();
    let _ = fs::remove_dir_all(&d);
}

#[test]
fn warnings_for_paths_the_agent_resolves_elsewhere() {
    let m = Manifest::from_toml(
        "id = \"a\"\nprogram = \"/usr/bin/python3\"\nargs = [\"guard.py\", \"--flag\"]\n[[hooks]]\nkind = \"tool.pre\"\n",
    )
    .unwrap();
    let w = m.warnings(Some(std::ffi::OsStr::new("/usr/bin")));
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("args[0] `guard.py` is a relative path"),
        "{w:?}"
    );
    let ok = Manifest::from_toml(
        "id = \"a\"\nprogram = \"/usr/bin/python3\"\nargs = [\"/srv/guard.py\"]\n[[hooks]]\nkind = \"tool.pre\"\n",
    )
    .unwrap();
    assert!(ok.warnings(None).is_empty());
    let bare =
        Manifest::from_toml("id = \"a\"\nprogram = \"guard.py\"\n[[hooks]]\nkind = \"tool.pre\"\n")
            .unwrap();
    let w = bare.warnings(Some(std::ffi::OsStr::new("/nonexistent-dir")));
    assert!(w[0].contains("not on PATH"), "{w:?}");
    assert!(w[0].contains("program = \"/usr/bin/python3\""), "{w:?}");
    // A relative program is refused, and a script's refusal says how to
    // name its interpreter.
    let e = Manifest::from_toml(
        "id = \"a\"\nprogram = \"./guard.py\"\n[[hooks]]\nkind = \"tool.pre\"\n",
    )
    .and_then(|m| m.resolved().map(|_| m))
    .unwrap_err()
    .to_string();
    assert!(e.contains("is a relative path"), "{e}");
    assert!(e.contains("args = [\"/absolute/path/to/guard.py\"]"), "{e}");
}
