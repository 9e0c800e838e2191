//! `simulate`: each agent's payload for each scenario decodes to the right
//! event; hooks run with the agent's shell, variables and timeout; the
//! in-process `route` and the out-of-process `simulate` agree.

use std::time::Duration;

use agenthooks::simulate::{self, Effect, Scenario, SimulateOptions, WarningCode};
use agenthooks::testing;
use agenthooks::{Canonical, Decision, Kind, Provider, Router};

fn opts() -> SimulateOptions {
    SimulateOptions {
        cwd: Some(std::env::temp_dir()),
        timeout: Some(Duration::from_secs(20)),
        cap: None,
        state_dir: None,
    }
}

fn sh(script: &str) -> Vec<String> {
    vec!["sh".into(), "-c".into(), script.into()]
}

#[test]
fn every_builtin_payload_decodes_to_its_scenario() {
    for s in simulate::scenario::builtin() {
        let want = s.kind().expect("kind");
        for a in Provider::ALL {
            let Some(b) = s.build(a, "/srv/app").expect("build") else {
                assert!(
                    a == Provider::Codex && s.tool == Some(simulate::ToolClass::FileRead),
                    "{} has no case for {}",
                    a.id(),
                    s.label()
                );
                continue;
            };
            let opts = agenthooks::DecodeOptions {
                event: Some(b.event.clone()),
                ..Default::default()
            };
            let ev = agenthooks::decode(a, b.payload.to_string().as_bytes(), &opts)
                .unwrap_or_else(|e| panic!("{} {}: {e}", a.id(), s.label()));
            assert_eq!(ev.kind, want, "{} {}", a.id(), s.label());
            if let Some(cmd) = &s.command {
                let t = ev.tool.as_ref().expect("tool");
                assert_eq!(t.canonical, Canonical::Shell, "{}", a.id());
                assert_eq!(t.command(), cmd.as_str(), "{}", a.id());
            }
            if let Some(class) = s.tool.filter(|_| s.command.is_none()) {
                let t = ev.tool.as_ref().expect("tool");
                let want = match class {
                    simulate::ToolClass::FileEdit => Canonical::FileEdit,
                    simulate::ToolClass::FileRead => Canonical::FileRead,
                    simulate::ToolClass::Shell => Canonical::Shell,
                };
                assert_eq!(t.canonical, want, "{} {}", a.id(), s.label());
            }
        }
    }
}

#[test]
fn exit_2_with_stderr_blocks_where_the_agent_reads_it() {
    let out = simulate::simulate(
        &sh("cat >/dev/null; echo 'no deletes' >&2; exit 2"),
        &[Scenario::shell("rm -rf build")],
        Provider::ALL.as_slice(),
        &opts(),
    )
    .expect("simulate");
    let eff = |a| testing::effect_of(&out, a);
    for a in [
        Provider::ClaudeCode,
        Provider::Codex,
        Provider::Cursor,
        Provider::Gemini,
        Provider::KimiCode,
        Provider::Copilot,
    ] {
        assert_eq!(eff(a), Some(Effect::ToolBlocked), "{}", a.id());
    }
    // The in-process agents read stdout as our plugin's action: a non-zero
    // exit is the plugin's fail policy (open), not a block.
    assert_eq!(eff(Provider::Opencode), Some(Effect::ToolRuns));
    let copilot = out
        .iter()
        .find(|o| o.agent == Provider::Copilot)
        .expect("copilot");
    assert!(
        copilot
            .prediction
            .as_ref()
            .expect("ran")
            .has_warning(WarningCode::ReasonDropped)
    );
}

#[test]
fn hook_variables_shell_and_cwd_are_the_agents() {
    let out = simulate::simulate(
        &sh("cat >/dev/null; echo \"$CLAUDE_PROJECT_DIR|$GEMINI_PROJECT_DIR|$CURSOR_PROJECT_DIR|$(pwd)\" >&2"),
        &[Scenario::shell("ls")],
        &[Provider::ClaudeCode, Provider::Gemini, Provider::Cursor, Provider::KimiCode],
        &opts(),
    )
    .expect("simulate");
    let dir = std::env::temp_dir().canonicalize().expect("tmp");
    let d = dir.to_string_lossy();
    let err = |a: Provider| {
        out.iter()
            .find(|o| o.agent == a)
            .map(|o| o.answer.stderr.trim().to_string())
            .expect("outcome")
    };
    let tmp = std::env::temp_dir();
    let t = tmp.to_string_lossy();
    assert!(
        err(Provider::ClaudeCode).starts_with(&format!("{t}||")),
        "{}",
        err(Provider::ClaudeCode)
    );
    assert!(
        err(Provider::Gemini).starts_with(&format!("{t}|{t}|")),
        "{}",
        err(Provider::Gemini)
    );
    assert!(
        err(Provider::Cursor).starts_with(&format!("{t}||{t}")),
        "{}",
        err(Provider::Cursor)
    );
    // Kimi Code sets nothing of its own.
    assert!(
        err(Provider::KimiCode).starts_with("|||"),
        "{}",
        err(Provider::KimiCode)
    );
    assert!(
        err(Provider::KimiCode).ends_with(d.as_ref()),
        "{}",
        err(Provider::KimiCode)
    );
    let gem = out
        .iter()
        .find(|o| o.agent == Provider::Gemini)
        .expect("gemini");
    assert_eq!(gem.argv[0], "bash");
    assert_eq!(gem.timeout_ms, 20_000);
}

#[test]
fn a_missing_hook_is_a_run_error_and_a_slow_one_times_out() {
    let out = simulate::simulate(
        &["/nonexistent/agenthooks-hook".to_string()],
        &[Scenario::shell("ls")],
        &[Provider::ClaudeCode],
        &opts(),
    )
    .expect("simulate");
    assert!(out[0].run_error.is_some(), "{:?}", out[0]);
    let mut o = opts();
    o.timeout = Some(Duration::from_millis(300));
    let out = simulate::simulate(
        &sh("sleep 5"),
        &[Scenario::shell("ls")],
        &[Provider::Codex],
        &o,
    )
    .expect("simulate");
    let p = out[0].prediction.as_ref().expect("ran");
    assert!(out[0].answer.timed_out);
    assert!(p.has_warning(WarningCode::TimedOut) && p.has_warning(WarningCode::FailOpen));
    assert_eq!(p.effect, Effect::ToolRuns);
}

#[test]
fn route_answers_in_process_like_the_agents_read_it() {
    let mut r = Router::new();
    r.on_tool_pre(|e| {
        if e.tool.command().contains("rm -rf") {
            Decision::deny("no recursive deletes")
        } else {
            Decision::no_decision()
        }
    });
    let out = testing::route(
        &r,
        &[Scenario::shell("rm -rf /"), Scenario::shell("ls")],
        testing::ALL,
    )
    .expect("route");
    let (rm, ls): (Vec<_>, Vec<_>) = out.into_iter().partition(|o| o.scenario.contains("rm"));
    testing::assert_blocked_everywhere(&rm);
    testing::assert_effect_everywhere(&ls, Effect::ToolRuns);
    testing::assert_no_empty_allow(&ls);
    assert!(rm.iter().all(|o| {
        o.prediction
            .as_ref()
            .is_some_and(|p| p.kind == Kind::ToolPre)
    }));
}

#[test]
fn predict_json_decision_form_encodes_then_reads() {
    let req = serde_json::json!({
        "agent": "codex",
        "payload": {"session_id": "s", "cwd": "/tmp", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "git push -f"}, "tool_use_id": "t"},
        "decision": {"kind": "ask", "reason": "sure?"}
    });
    let v: serde_json::Value =
        serde_json::from_str(&simulate::json::predict_json(&req.to_string())).expect("json");
    // The encoder degrades ask to deny on Codex (never the failing `ask`).
    assert_eq!(v["effect"], "tool_blocked", "{v}");
    assert!(v["notes"].as_array().is_some_and(|n| !n.is_empty()), "{v}");
    let bad: serde_json::Value =
        serde_json::from_str(&simulate::json::predict_json("{\"agent\":\"codex\"}")).expect("json");
    assert_eq!(bad["error"]["code"], "invalid_argument");
}

/// Two handlers' `patch_input` merge patches compose in order and every
/// agent that takes a rewrite on the event runs the merged input: the
/// patched keys changed, the untouched keys of the agent's own input kept
/// (where the event takes no rewrite, e.g. Kimi Code or Cursor's
/// beforeShellExecution, the original runs).
#[test]
fn route_patched_rewrites_run_the_merged_input() {
    let patch = |v: serde_json::Value| v.as_object().cloned().unwrap_or_default();
    let mut r = Router::new();
    r.on_tool_pre(move |_| {
        Decision::no_decision().with_patch_input(patch(serde_json::json!({"command": "ls -la"})))
    });
    r.on_tool_pre(move |_| {
        Decision::allow().with_patch_input(patch(serde_json::json!({"timeout": 5})))
    });
    let out = testing::route(&r, &[Scenario::shell("rm -rf build")], testing::ALL).expect("route");
    assert_eq!(out.len(), testing::ALL.len());
    let mut rewritten = 0;
    for o in &out {
        let p = o.prediction.as_ref().expect("prediction");
        let rewrites = agenthooks::capability_of(o.agent, &o.event)
            .modifiers
            .contains(&"updated_input");
        if !rewrites {
            assert_ne!(p.effect, Effect::ToolRunsWithInputRewritten, "{o:?}");
            continue;
        }
        assert_eq!(p.effect, Effect::ToolRunsWithInputRewritten, "{o:?}");
        let ev = agenthooks::decode(
            o.agent,
            o.payload.to_string().as_bytes(),
            &agenthooks::DecodeOptions {
                event: Some(o.event.clone()),
                ..Default::default()
            },
        )
        .expect("decode");
        let mut want = ev.tool.expect("tool").input;
        let cmd_key = if want.contains_key("cmd") {
            "cmd"
        } else {
            "command"
        };
        want.insert(cmd_key.into(), "ls -la".into());
        want.insert("timeout".into(), 5.into());
        assert_eq!(
            p.updated_input,
            Some(serde_json::Value::Object(want)),
            "{:?}",
            o.agent
        );
        rewritten += 1;
    }
    assert!(rewritten >= 6, "{rewritten}");
}

/// Each hook run gets its own fresh state root by default (removed after
/// the call), and the given one when `state_dir` is set.
#[test]
fn each_run_gets_its_own_state_dir() {
    let script = sh(
        "printf %s \"$AGENTHOOKS_STATE_DIR\" >&2; test -d \"$AGENTHOOKS_STATE_DIR\" && exit 0; exit 3",
    );
    let scenarios = [Scenario::shell("ls"), Scenario::shell("pwd")];
    let agents = [Provider::ClaudeCode, Provider::Codex];
    let out = simulate::simulate(&script, &scenarios, &agents, &opts()).expect("simulate");
    let dirs: Vec<String> = out
        .iter()
        .filter(|o| o.skipped.is_none())
        .map(|o| o.answer.stderr.clone())
        .collect();
    assert_eq!(dirs.len(), 4, "{out:?}");
    for (o, d) in out.iter().zip(&dirs) {
        assert_eq!(
            o.answer.exit,
            Some(0),
            "the state dir existed during the run: {o:?}"
        );
        assert!(std::path::Path::new(d).is_absolute(), "{d}");
        assert!(
            !std::path::Path::new(d).exists(),
            "removed after the call: {d}"
        );
    }
    let mut unique = dirs.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), dirs.len(), "one per run: {dirs:?}");

    let shared = std::env::temp_dir().join(format!("ah-sim-shared-{}", std::process::id()));
    let mut o = opts();
    o.state_dir = Some(shared.clone());
    let out = simulate::simulate(&script, &scenarios, &agents, &o).expect("simulate");
    for o in &out {
        assert_eq!(o.answer.stderr, shared.to_string_lossy(), "{o:?}");
    }
    let _ = std::fs::remove_dir_all(&shared);
    o.state_dir = Some("relative/dir".into());
    assert!(simulate::simulate(&script, &scenarios, &agents, &o).is_err());
}
