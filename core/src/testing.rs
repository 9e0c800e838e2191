//! Testing helpers for hook authors: the fixture corpus of every agent,
//! running a [`Router`](crate::Router) in-process or a hook program
//! out-of-process against any agent's payload, and assertions on what each
//! agent **does** with the answer (not only on its bytes).
//!
//! ```
//! use agenthooks::testing::{self, Scenario};
//! use agenthooks::{Decision, Router};
//! let mut r = Router::new();
//! r.on_tool_pre(|e| {
//!     if e.tool.command().contains("rm -rf") {
//!         Decision::deny("no recursive deletes")
//!     } else {
//!         Decision::no_decision()
//!     }
//! });
//! let outcomes = testing::route(&r, &[Scenario::shell("rm -rf build")], testing::ALL).unwrap();
//! testing::assert_blocked_everywhere(&outcomes);
//! testing::assert_no_empty_allow(&outcomes);
//! ```
//!
//! Out-of-process, the same assertions hold for [`simulate`] (the hook
//! program runs as each agent would run it; see `agenthooks simulate`).

pub use crate::simulate::corpus::{self, CorpusEntry};
pub use crate::simulate::scenario::builtin as builtin_scenarios;
pub use crate::simulate::{
    Answer, Assertion, Effect, Mode, Offense, Outcome, Prediction, Scenario, SimulateOptions,
    ToolClass, Verdict, Warning, WarningCode, answer_with, predict, predict_in, route, simulate,
    verdict,
};

use crate::model::{Kind, Provider};

/// Every agent.
pub const ALL: &[Provider] = &Provider::ALL;

/// The corpus payloads of one agent, optionally of one unified kind.
pub fn fixtures(agent: Provider, kind: Option<Kind>) -> Vec<&'static CorpusEntry> {
    corpus::of(agent, kind)
}

/// Runs a hook program (argv; `{agent}` / `{event}` are replaced) for the
/// scenarios on every agent, each agent's way.
pub fn simulate_all(command: &[&str], scenarios: &[Scenario]) -> crate::Result<Vec<Outcome>> {
    let argv: Vec<String> = command.iter().map(|s| (*s).to_string()).collect();
    simulate(&argv, scenarios, ALL, &SimulateOptions::default())
}

/// The effect on one agent (the first outcome of that agent), if it ran.
pub fn effect_of(outcomes: &[Outcome], agent: Provider) -> Option<Effect> {
    outcomes
        .iter()
        .find(|o| o.agent == agent)
        .and_then(|o| o.prediction.as_ref())
        .map(|p| p.effect)
}

/// Whether the agent's event can block at all (its capability row).
pub fn can_block(agent: Provider, event: &str) -> bool {
    crate::capability_of(agent, event).can_block
}

fn line(o: &Outcome) -> String {
    let p = o.prediction.as_ref();
    format!(
        "  {} / {} ({}): {} [{}] answer: {}",
        o.agent.id(),
        o.scenario,
        o.event,
        p.map_or("-", |p| p.effect.as_str()),
        p.map(|p| {
            p.warnings
                .iter()
                .map(|w| w.code.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default(),
        crate::simulate::table::answer_summary(o),
    )
}

fn fail(what: &str, bad: &[&Outcome]) -> ! {
    let lines: Vec<String> = bad.iter().map(|o| line(o)).collect();
    panic!("{what}:\n{}", lines.join("\n"))
}

fn ran(outcomes: &[Outcome]) -> impl Iterator<Item = (&Outcome, &Prediction)> {
    outcomes
        .iter()
        .filter_map(|o| o.prediction.as_ref().map(|p| (o, p)))
}

fn check(outcomes: &[Outcome], assertion: Assertion) {
    let v = verdict(outcomes, assertion);
    if v.holds {
        return;
    }
    let mut lines: Vec<String> = v
        .offending
        .iter()
        .filter_map(|b| {
            outcomes
                .get(b.index)
                .map(|o| format!("{}  -- {}", line(o), b.reason))
        })
        .collect();
    if let Some(n) = &v.nothing_checked {
        lines.push(format!("  nothing checked: {n}"));
    }
    panic!(
        "{} does not hold:\n{}",
        assertion.as_str(),
        lines.join("\n")
    )
}

/// Every agent whose event can block (its capability row) blocked it
/// (tool blocked, prompt blocked); agents whose event cannot block are not
/// checked. Panics with the offending rows, when a hook did not run, and
/// when no agent that ran can block (the core's
/// [`verdict`](crate::simulate::verdict), docs/testing.md).
pub fn assert_blocked_everywhere(outcomes: &[Outcome]) {
    check(outcomes, Assertion::BlockedEverywhere);
}

/// On every agent that ran, the action goes ahead (a stop stops) and the
/// hook answered cleanly (no hook_failed, crashed, timed_out, fail_open,
/// fail_closed).
pub fn assert_runs_everywhere(outcomes: &[Outcome]) {
    check(outcomes, Assertion::RunsEverywhere);
}

/// No agent sees an empty allow (an allow that skips the user's approval
/// with nothing else: warning `empty_allow`).
pub fn assert_no_empty_allow(outcomes: &[Outcome]) {
    check(outcomes, Assertion::NoEmptyAllow);
}

/// No outcome carries this warning.
pub fn assert_no_warning(outcomes: &[Outcome], code: WarningCode) {
    let bad: Vec<&Outcome> = ran(outcomes)
        .filter(|(_, p)| p.has_warning(code))
        .map(|(o, _)| o)
        .collect();
    if !bad.is_empty() {
        fail(&format!("warning `{}` raised", code.as_str()), &bad);
    }
}

/// Every outcome that ran has this effect.
pub fn assert_effect_everywhere(outcomes: &[Outcome], effect: Effect) {
    assert_ran(outcomes);
    let bad: Vec<&Outcome> = ran(outcomes)
        .filter(|(_, p)| p.effect != effect)
        .map(|(o, _)| o)
        .collect();
    if !bad.is_empty() {
        fail(&format!("not `{}` everywhere", effect.as_str()), &bad);
    }
}

/// The agent's outcome has this effect.
pub fn assert_effect(outcomes: &[Outcome], agent: Provider, effect: Effect) {
    let got = effect_of(outcomes, agent);
    if got != Some(effect) {
        let bad: Vec<&Outcome> = outcomes.iter().filter(|o| o.agent == agent).collect();
        fail(
            &format!(
                "{}: want `{}`, got {:?}",
                agent.id(),
                effect.as_str(),
                got.map(Effect::as_str)
            ),
            &bad,
        );
    }
}

/// Every hook run started and every agent case was covered or skipped
/// for lack of the event (never a hook that could not run).
pub fn assert_ran(outcomes: &[Outcome]) {
    let bad: Vec<&Outcome> = outcomes.iter().filter(|o| o.run_error.is_some()).collect();
    if !bad.is_empty() {
        fail("the hook did not run", &bad);
    }
}
