//! The test kit's verdicts over outcomes: one definition of "blocked
//! everywhere", "runs everywhere" and "no empty allow" that every binding
//! asks for (`verdict` in Rust, `verdict_json` / `ah_verdict_json` for the
//! others) and only formats in its own way. `docs/testing.md` documents the
//! rules; `fixtures/simulate/verdicts/verdicts.json` pins them.

use serde::{Deserialize, Serialize};

use super::{Effect, Outcome, WarningCode};
use crate::error::Error;
use crate::model::{Kind, Provider};

/// What a verdict asserts over a list of outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Assertion {
    /// Every agent whose event can block (its capability row) blocked it.
    BlockedEverywhere,
    /// On every agent the action goes ahead, and the hook answered cleanly.
    RunsEverywhere,
    /// No agent sees an empty allow (warning `empty_allow`).
    NoEmptyAllow,
}

impl Assertion {
    /// Every assertion.
    pub const ALL: [Assertion; 3] = [
        Assertion::BlockedEverywhere,
        Assertion::RunsEverywhere,
        Assertion::NoEmptyAllow,
    ];

    /// The wire name (`blocked_everywhere`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Assertion::BlockedEverywhere => "blocked_everywhere",
            Assertion::RunsEverywhere => "runs_everywhere",
            Assertion::NoEmptyAllow => "no_empty_allow",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Result<Assertion, Error> {
        Assertion::ALL
            .into_iter()
            .find(|a| a.as_str() == s)
            .ok_or_else(|| Error::InvalidArgument {
                message: format!(
                    "unknown assertion `{s}` (blocked_everywhere, runs_everywhere, no_empty_allow)"
                ),
            })
    }
}

/// One outcome that breaks the assertion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Offense {
    /// Position of the outcome in the list given.
    pub index: usize,
    /// Provider id.
    pub agent: String,
    /// The scenario's name.
    pub scenario: String,
    /// The agent's native event.
    pub event: String,
    /// Why it breaks the assertion (one line).
    pub reason: String,
}

/// The verdict of one assertion over a list of outcomes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The assertion's wire name.
    pub assertion: &'static str,
    /// The assertion holds: nothing offends and something was checked.
    pub holds: bool,
    /// How many outcomes the assertion looked at (skipped agents, and for
    /// `blocked_everywhere` agents whose event cannot block, are not).
    pub checked: usize,
    /// The outcomes that break it, in order.
    pub offending: Vec<Offense>,
    /// Set when nothing could be checked (no agent ran the case, or no
    /// agent that ran can block): an assertion over nothing fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nothing_checked: Option<String>,
}

/// The fields of an outcome a verdict reads.
struct Row {
    agent: Provider,
    scenario: String,
    event: String,
    skipped: bool,
    run_error: Option<String>,
    effect: Option<Effect>,
    stop: bool,
    warnings: Vec<String>,
}

impl Row {
    fn of(o: &Outcome) -> Row {
        let p = o.prediction.as_ref();
        Row {
            agent: o.agent,
            scenario: o.scenario.clone(),
            event: o.event.clone(),
            skipped: o.skipped.is_some(),
            run_error: o.run_error.clone(),
            effect: p.map(|p| p.effect),
            stop: p.is_some_and(|p| matches!(p.kind, Kind::AgentStop | Kind::SubagentStop)),
            warnings: p
                .map(|p| {
                    p.warnings
                        .iter()
                        .map(|w| w.code.as_str().to_string())
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
}

/// Warnings that mean the hook itself failed: the action may go ahead, but
/// only because the agent ignores a broken hook.
const FAILED: [WarningCode; 5] = [
    WarningCode::HookFailed,
    WarningCode::Crashed,
    WarningCode::TimedOut,
    WarningCode::FailOpen,
    WarningCode::FailClosed,
];

/// The effects where the action the event is about goes ahead; `agent_stops`
/// counts only on a stop event (elsewhere it means the agent gave up).
fn goes_ahead(effect: Effect, stop: bool) -> bool {
    match effect {
        Effect::ToolRuns
        | Effect::ToolRunsWithoutPrompt
        | Effect::ToolRunsWithInputRewritten
        | Effect::PromptContinues
        | Effect::PromptRewritten
        | Effect::ContextInjected
        | Effect::OutputReplaced
        | Effect::NoEffect => true,
        Effect::AgentStops => stop,
        Effect::ToolBlocked | Effect::AsksUser | Effect::PromptBlocked | Effect::AgentContinues => {
            false
        }
    }
}

fn judge(rows: &[Row], assertion: Assertion) -> Verdict {
    let mut offending = Vec::new();
    let mut checked = 0usize;
    let mut ran = 0usize;
    for (index, r) in rows.iter().enumerate() {
        if r.skipped {
            continue;
        }
        ran += 1;
        let reason = match (r.run_error.as_deref(), r.effect) {
            (Some(e), _) => Some(format!("the hook did not run: {e}")),
            (None, None) => Some("the hook did not run: no prediction".to_string()),
            (None, Some(effect)) => match assertion {
                Assertion::BlockedEverywhere => {
                    if !crate::capability_of(r.agent, &r.event).can_block {
                        continue;
                    }
                    (!effect.is_block()).then(|| format!("not blocked: {}", effect.as_str()))
                }
                Assertion::RunsEverywhere => {
                    let failed = FAILED
                        .iter()
                        .find(|c| r.warnings.iter().any(|w| w == c.as_str()));
                    if let Some(c) = failed {
                        Some(format!("the hook failed: {}", c.as_str()))
                    } else if !goes_ahead(effect, r.stop) {
                        Some(format!("does not go ahead: {}", effect.as_str()))
                    } else {
                        None
                    }
                }
                Assertion::NoEmptyAllow => {
                    let code = WarningCode::EmptyAllow.as_str();
                    r.warnings
                        .iter()
                        .any(|w| w == code)
                        .then(|| format!("warning {code}"))
                }
            },
        };
        checked += 1;
        if let Some(reason) = reason {
            offending.push(Offense {
                index,
                agent: r.agent.id().to_string(),
                scenario: r.scenario.clone(),
                event: r.event.clone(),
                reason,
            });
        }
    }
    let nothing_checked = if ran == 0 {
        Some(format!("no agent ran the case ({} outcomes)", rows.len()))
    } else if checked == 0 {
        Some("no agent that ran can block its event".to_string())
    } else {
        None
    };
    Verdict {
        assertion: assertion.as_str(),
        holds: offending.is_empty() && nothing_checked.is_none(),
        checked,
        offending,
        nothing_checked,
    }
}

/// The verdict of `assertion` over `outcomes`.
pub fn verdict(outcomes: &[Outcome], assertion: Assertion) -> Verdict {
    let rows: Vec<Row> = outcomes.iter().map(Row::of).collect();
    judge(&rows, assertion)
}

#[derive(Deserialize)]
struct WarningIn {
    code: String,
}

#[derive(Deserialize)]
struct PredictionIn {
    effect: String,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    warnings: Vec<WarningIn>,
}

#[derive(Deserialize)]
struct OutcomeIn {
    agent: String,
    #[serde(default)]
    scenario: String,
    #[serde(default)]
    event: String,
    #[serde(default)]
    skipped: Option<String>,
    #[serde(default)]
    run_error: Option<String>,
    #[serde(default)]
    prediction: Option<PredictionIn>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VerdictReq {
    assertion: String,
    outcomes: Vec<OutcomeIn>,
}

fn row_in(o: OutcomeIn) -> Result<Row, Error> {
    let agent = Provider::parse(&o.agent)?;
    let (effect, stop, warnings) = match o.prediction {
        None => (None, false, Vec::new()),
        Some(p) => {
            let effect = Effect::parse(&p.effect).ok_or_else(|| Error::InvalidArgument {
                message: format!("verdict request: unknown effect `{}`", p.effect),
            })?;
            let stop = matches!(p.kind.as_deref(), Some(k) if k == Kind::AgentStop.as_str() || k == Kind::SubagentStop.as_str());
            (
                Some(effect),
                stop,
                p.warnings.into_iter().map(|w| w.code).collect(),
            )
        }
    };
    Ok(Row {
        agent,
        scenario: o.scenario,
        event: o.event,
        skipped: o.skipped.is_some(),
        run_error: o.run_error,
        effect,
        stop,
        warnings,
    })
}

/// `verdict` as JSON: request `{"assertion": "blocked_everywhere" |
/// "runs_everywhere" | "no_empty_allow", "outcomes": [outcome...]}` (the
/// outcomes as `simulate_json` gives them; only `agent`, `scenario`,
/// `event`, `skipped`, `run_error` and `prediction.{effect, kind,
/// warnings[].code}` are read). Result: `{"assertion", "holds", "checked",
/// "offending": [{"index", "agent", "scenario", "event", "reason"}],
/// "nothing_checked"?}` or `{"error": {"code", "message"}}`.
pub fn verdict_json(req: &str) -> String {
    let run = || -> Result<Verdict, Error> {
        let r: VerdictReq = serde_json::from_str(req).map_err(|e| Error::InvalidArgument {
            message: format!("verdict request: {e}"),
        })?;
        let assertion = Assertion::parse(&r.assertion)?;
        let rows = r
            .outcomes
            .into_iter()
            .map(row_in)
            .collect::<Result<Vec<Row>, Error>>()?;
        Ok(judge(&rows, assertion))
    };
    match run() {
        // A Verdict is strings and numbers: it always serializes.
        Ok(v) => serde_json::to_string(&v).unwrap_or_default(),
        Err(e) => e.to_json_answer(),
    }
}
