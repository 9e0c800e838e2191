//! Doctor's liveness (issue 15 §4): installed hooks against the audit log,
//! with the likely cause of a hook that never fired or stopped firing.
//! Hook files are written into a temp home; log lines are given directly.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use agenthooks::audit::{Entry, rfc3339};
use agenthooks::install::liveness::{self, Liveness};
use agenthooks::install::{Action, Manifest, Scope, Target, doctor};
use agenthooks::model::Provider;

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ah-liveness-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("home")).unwrap();
    std::fs::create_dir_all(d.join("project")).unwrap();
    d
}

fn env(d: &Path) -> BTreeMap<String, String> {
    [
        ("HOME".to_string(), d.join("home").display().to_string()),
        ("PATH".to_string(), "/usr/bin:/bin".to_string()),
        (
            "CODEX_HOME".to_string(),
            d.join("home/.codex").display().to_string(),
        ),
    ]
    .into()
}

fn line(agent: &str, event: &str, hook_id: &str, at: SystemTime) -> Entry {
    Entry {
        v: 1,
        ts: rfc3339(at),
        agent: agent.into(),
        event: event.into(),
        kind: "tool.pre".into(),
        hook_id: Some(hook_id.into()),
        decision: "no_decision".into(),
        ..Entry::default()
    }
}

fn assess(d: &Path, lines: &[Entry], env: &BTreeMap<String, String>) -> Vec<Liveness> {
    let opts = doctor::Options {
        run: false,
        probe_project: false,
    };
    let mut reports =
        doctor::report_with(&d.join("home"), &d.join("project"), env, opts, &mut |_| {});
    doctor::assess_liveness(&mut reports, lines, env, SystemTime::now());
    reports.into_iter().flat_map(|r| r.liveness).collect()
}

fn of<'a>(v: &'a [Liveness], agent: &str, id: &str) -> &'a Liveness {
    v.iter()
        .find(|l| l.agent == agent && l.hook_id == id)
        .unwrap_or_else(|| panic!("no {agent} {id} in {v:#?}"))
}

const GUARD: &str =
    "/bin/true agenthooks run --provider=claude-code --timeout=30 --hook-id=demo:guard --log";

fn claude_settings(d: &Path, command: &str) {
    std::fs::create_dir_all(d.join("home/.claude")).unwrap();
    let v = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": command}]}]}});
    std::fs::write(d.join("home/.claude/settings.json"), v.to_string()).unwrap();
}

#[test]
fn logging_off_says_how_to_turn_it_on() {
    let d = scratch("off");
    claude_settings(
        &d,
        "/bin/true agenthooks run --provider=claude-code --hook-id=demo:guard",
    );
    let mut e = env(&d);
    let v = assess(&d, &[], &e);
    assert_eq!(of(&v, "claude-code", "demo:guard").status, "logging_off");
    // The environment turns it on: no line is "never fired".
    e.insert("AGENTHOOKS_LOG".into(), "1".into());
    let v = assess(&d, &[], &e);
    assert_eq!(of(&v, "claude-code", "demo:guard").status, "never_fired");
    // Text says how to enable.
    let mut reports = doctor::report_with(
        &d.join("home"),
        &d.join("project"),
        &env(&d),
        doctor::Options::default(),
        &mut |_| {},
    );
    doctor::assess_liveness(&mut reports, &[], &env(&d), SystemTime::now());
    let t = doctor::text(&reports);
    assert!(t.contains("AGENTHOOKS_LOG=1"), "{t}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn fired_never_fired_and_the_missing_program() {
    let d = scratch("fired");
    claude_settings(&d, GUARD);
    let e = env(&d);
    let now = SystemTime::now();
    let v = assess(&d, &[], &e);
    let l = of(&v, "claude-code", "demo:guard");
    assert_eq!(l.status, "never_fired", "--log in the command: logging on");
    assert_eq!(l.cause, None, "/bin/true starts: no known cause");

    let v = assess(
        &d,
        &[line("claude-code", "PreToolUse", "demo:guard", now)],
        &e,
    );
    let l = of(&v, "claude-code", "demo:guard");
    assert_eq!((l.status, l.fired), ("fired", 1));
    assert!(l.last_fired.is_some());
    // Another hook's or another agent's line does not count.
    let v = assess(
        &d,
        &[
            line("claude-code", "PreToolUse", "demo:other", now),
            line("codex", "PreToolUse", "demo:guard", now),
        ],
        &e,
    );
    assert_eq!(of(&v, "claude-code", "demo:guard").status, "never_fired");

    claude_settings(
        &d,
        "/nonexistent/ah-hook agenthooks run --provider=claude-code --hook-id=demo:guard --log",
    );
    let v = assess(&d, &[], &e);
    let l = of(&v, "claude-code", "demo:guard");
    assert_eq!(l.status, "never_fired");
    let c = l.cause.as_deref().unwrap();
    assert!(
        c.contains("/nonexistent/ah-hook") && c.contains("not found"),
        "{c}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn stopped_firing_needs_the_agent_busy_since() {
    let d = scratch("stopped");
    claude_settings(&d, GUARD);
    let e = env(&d);
    let long_ago = SystemTime::now() - Duration::from_secs(3600);
    let now = SystemTime::now() + Duration::from_secs(5);
    // Fired an hour ago, the file changed since (just written), and the
    // agent ran another hook after the change: stopped firing.
    let v = assess(
        &d,
        &[
            line("claude-code", "PreToolUse", "demo:guard", long_ago),
            line("claude-code", "Stop", "demo:other", now),
        ],
        &e,
    );
    let l = of(&v, "claude-code", "demo:guard");
    assert_eq!(l.status, "stopped_firing", "{l:?}");
    assert!(
        l.cause
            .as_deref()
            .unwrap()
            .contains("changed after it last fired"),
        "{l:?}"
    );
    // Nothing else ran since: it may just not have been needed.
    let v = assess(
        &d,
        &[line("claude-code", "PreToolUse", "demo:guard", long_ago)],
        &e,
    );
    assert_eq!(of(&v, "claude-code", "demo:guard").status, "fired");
    // Quiet for longer than STALE_AFTER while the agent kept running hooks.
    let old = SystemTime::now() - liveness::STALE_AFTER - Duration::from_secs(7200);
    let later = SystemTime::now() - Duration::from_secs(60);
    // Make the file older than its last firing: only staleness can tell.
    let f = std::fs::File::options()
        .write(true)
        .open(d.join("home/.claude/settings.json"))
        .unwrap();
    f.set_modified(old - Duration::from_secs(60)).unwrap();
    let v = assess(
        &d,
        &[
            line("claude-code", "PreToolUse", "demo:guard", old),
            line("claude-code", "Stop", "demo:other", later),
        ],
        &e,
    );
    assert_eq!(of(&v, "claude-code", "demo:guard").status, "stopped_firing");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn cursor_unknown_event_is_named_as_the_cause() {
    let d = scratch("cursor");
    std::fs::create_dir_all(d.join("home/.cursor")).unwrap();
    let v = serde_json::json!({"version": 1, "hooks": {
        "beforeShellExecution": [{"command": "/bin/true agenthooks run --provider=cursor --hook-id=demo:guard --log"}],
        "beforeTeleport": [{"command": "/bin/true"}]
    }});
    std::fs::write(d.join("home/.cursor/hooks.json"), v.to_string()).unwrap();
    let v = assess(&d, &[], &env(&d));
    let l = of(&v, "cursor", "demo:guard");
    assert_eq!(l.status, "never_fired");
    let c = l.cause.as_deref().unwrap();
    assert!(
        c.contains("`beforeTeleport`") && c.contains("discards"),
        "{c}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn codex_untrusted_hook_is_named_as_the_cause() {
    let d = scratch("codex");
    let home = d.join("home");
    let m = Manifest::from_toml(
        "id = \"demo\"\nprogram = \"/bin/true\"\nlog = true\n\n[[hooks]]\nid = \"guard\"\nkind = \"tool.pre\"\nmatch = \"shell\"\n",
    )
    .unwrap();
    let mut t = Target::new(Provider::Codex, Scope::User, &home, &d.join("project"));
    t.env = env(&d);
    let plan = agenthooks::install::plan(&m, &t, Action::Install).unwrap();
    for c in &plan.changes {
        std::fs::create_dir_all(c.path.parent().unwrap()).unwrap();
        std::fs::write(&c.path, c.after.as_deref().unwrap()).unwrap();
    }
    let hooks = home.join(".codex/hooks.json");
    let config = home.join(".codex/config.toml");
    assert!(std::fs::read_to_string(&hooks).unwrap().contains("--log"));
    // Installed with its trust entry: no trust cause.
    let v = assess(&d, &[], &env(&d));
    let l = of(&v, "codex", "demo:guard");
    assert_eq!((l.status, l.cause.as_deref()), ("never_fired", None));
    // The trust entry gone: Codex skips it.
    std::fs::write(&config, "model = \"x\"\n").unwrap();
    let v = assess(&d, &[], &env(&d));
    let c = of(&v, "codex", "demo:guard").cause.clone().unwrap();
    assert!(c.contains("no trust entry"), "{c}");
    // A stale hash (the hook was edited after it was trusted).
    let text = plan
        .changes
        .iter()
        .find(|c| c.path == config)
        .and_then(|c| c.after.clone())
        .unwrap();
    let stale = regex::Regex::new("sha256:[0-9a-f]+")
        .unwrap()
        .replace(&text, "sha256:00");
    std::fs::write(&config, stale.as_bytes()).unwrap();
    let v = assess(&d, &[], &env(&d));
    let c = of(&v, "codex", "demo:guard").cause.clone().unwrap();
    assert!(c.contains("does not match"), "{c}");
    std::fs::remove_dir_all(&d).unwrap();
}
