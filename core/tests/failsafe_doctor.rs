//! `agenthooks doctor` reports a hook whose native part cannot load: the
//! hook still answers (the failsafe, issue 22), so only its stderr marker
//! tells.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;

use agenthooks::install::{self, Manifest, Scope, Target};
use agenthooks::model::Provider;

#[test]
fn doctor_flags_a_hook_that_prints_the_failsafe_marker() {
    let dir = std::env::temp_dir().join(format!("ah-doctor-failsafe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // SAFETY: the only test of this binary; set before anything reads it.
    unsafe { std::env::set_var("AGENTHOOKS_STATE_DIR", dir.join("state")) };
    let home = dir.join("home");
    let project = dir.join("project");
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let mk = |name: &str, body: &str| {
        let p = dir.join(name);
        std::fs::write(&p, format!("#!/bin/sh\ncat >/dev/null\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    };
    // A failsafe answer (exit 2, a well-formed block) and a healthy hook.
    let broken = mk(
        "broken",
        "echo 'agenthooks: native_unavailable: cannot load agenthooks._native (ImportError: x.so: file too short)' >&2; exit 2",
    );
    let healthy = mk("healthy", "exit 0");
    let target = Target::new(Provider::ClaudeCode, Scope::User, &home, &home);
    for (id, prog) in [("broken", &broken), ("healthy", &healthy)] {
        let m = Manifest::from_toml(&format!(
            "id = \"{id}\"\nprogram = \"{}\"\nfail = \"closed\"\n\n[[hooks]]\nkind = \"tool.pre\"\nmatch = \"shell\"\n",
            prog.display()
        ))
        .unwrap();
        install::install(&m, &target).unwrap();
    }

    let reports = install::doctor::report(&home, &project, &BTreeMap::new(), true);
    let claude = reports
        .iter()
        .find(|r| r.agent == "claude-code")
        .expect("claude-code report");
    let probe = |id: &str| {
        claude
            .probes
            .iter()
            .find(|p| p.hook_id.starts_with(id))
            .unwrap_or_else(|| panic!("{id}: {claude:?}"))
    };
    let b = probe("broken:");
    assert!(!b.ok, "{b:?}");
    assert_eq!(b.exit_code, Some(2));
    assert!(
        b.detail
            .starts_with("native part cannot load: cannot load agenthooks._native"),
        "{b:?}"
    );
    assert!(probe("healthy:").ok);
    let text = install::doctor::text(&reports);
    assert!(text.contains("native part cannot load"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
