//! The guard on all eight agents, through `agenthooks::testing`: the built
//! binary runs the way each agent runs hooks (its shell, variables, payload
//! shape, timeout), and the assertions are on what each agent **does** with
//! the answer.

use agenthooks::Provider;
use agenthooks::testing::{self, Effect, Outcome, Scenario};

const GUARD: &str = env!("CARGO_BIN_EXE_guard");

fn sim(scenarios: &[Scenario]) -> Vec<Outcome> {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let state = std::env::temp_dir().join(format!("guard-agents-{}-{n}", std::process::id()));
    // The guard's run state (loop guard, dedupe) in a scratch directory.
    let cmd = format!("AGENTHOOKS_STATE_DIR={}", state.display());
    let out = testing::simulate_all(
        &[
            "env",
            &cmd,
            GUARD,
            "agenthooks",
            "run",
            "--provider={agent}",
            "--event={event}",
        ],
        scenarios,
    )
    .expect("simulate");
    std::fs::remove_dir_all(&state).ok();
    testing::assert_ran(&out);
    out
}

#[test]
fn rm_rf_is_blocked_on_every_agent() {
    let out = sim(&[Scenario::shell("rm -rf build")]);
    testing::assert_blocked_everywhere(&out);
    testing::assert_effect_everywhere(&out, Effect::ToolBlocked);
    // The reason reaches the model everywhere.
    for o in &out {
        let p = o.prediction.as_ref().expect("ran");
        assert!(
            p.model_sees
                .as_deref()
                .is_some_and(|m| m.contains("rm -rf build")),
            "{}: {:?}",
            o.agent.id(),
            p.model_sees
        );
    }
}

#[test]
fn force_push_never_runs_unapproved() {
    let out = sim(&[Scenario::shell("git push --force origin main")]);
    for o in &out {
        let e = o.prediction.as_ref().expect("ran").effect;
        assert!(
            matches!(e, Effect::AsksUser | Effect::ToolBlocked),
            "{}: {}",
            o.agent.id(),
            e.as_str()
        );
    }
    // Where the agent can ask, it asks; where it cannot, the policy's
    // ask_fallback (deny) blocks.
    testing::assert_effect(&out, Provider::ClaudeCode, Effect::AsksUser);
    testing::assert_effect(&out, Provider::Copilot, Effect::AsksUser);
    testing::assert_effect(&out, Provider::Codex, Effect::ToolBlocked);
    testing::assert_effect(&out, Provider::KimiCode, Effect::ToolBlocked);
}

#[test]
fn harmless_calls_run_everywhere() {
    let out = sim(&[
        Scenario::shell("cat README.md"),
        Scenario::edit("src/lib.rs"),
    ]);
    testing::assert_effect_everywhere(&out, Effect::ToolRuns);
    testing::assert_no_empty_allow(&out);
}

#[test]
fn npm_install_is_rewritten_where_the_agent_can() {
    let out = sim(&[Scenario::shell("npm install")]);
    for a in [
        Provider::ClaudeCode,
        Provider::Codex,
        Provider::Gemini,
        Provider::Copilot,
        Provider::Opencode,
        Provider::Openclaw,
    ] {
        testing::assert_effect(&out, a, Effect::ToolRunsWithInputRewritten);
        let o = out.iter().find(|o| o.agent == a).expect("outcome");
        let input = o.prediction.as_ref().and_then(|p| p.updated_input.as_ref());
        assert_eq!(
            input
                .and_then(|i| i.get("command"))
                .and_then(|c| c.as_str()),
            Some("npm ci"),
            "{}",
            a.id()
        );
    }
    // Kimi Code has no input rewrite: the original command runs.
    testing::assert_effect(&out, Provider::KimiCode, Effect::ToolRuns);
}

#[test]
fn a_stop_before_tests_keeps_the_agent_going() {
    let out = sim(&[Scenario::stop()]);
    testing::assert_effect_everywhere(&out, Effect::AgentContinues);
}

#[test]
fn the_corpus_ships_every_agent() {
    for a in Provider::ALL {
        assert!(
            !testing::fixtures(a, Some(agenthooks::Kind::ToolPre)).is_empty(),
            "{}",
            a.id()
        );
    }
}
