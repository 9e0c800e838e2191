//! Running a hook command the way each agent runs it, for a set of
//! scenarios, and predicting what each agent does with the answer.

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;

use super::scenario::Scenario;
use super::{Answer, Prediction, invocation, predict};
use crate::error::Error;
use crate::host::runner::{self, ExitGrace, RunRequest};
use crate::model::Provider;

/// How to simulate.
#[derive(Debug, Clone, Default)]
pub struct SimulateOptions {
    /// The project directory (the hook's working directory and the
    /// `*_PROJECT_DIR` variables); default: the current directory.
    pub cwd: Option<PathBuf>,
    /// A deadline instead of each agent's default hook timeout.
    pub timeout: Option<Duration>,
    /// Cap on each captured stream (default: the host runner's 10 MiB).
    pub cap: Option<usize>,
    /// The state root every hook run gets as `AGENTHOOKS_STATE_DIR`
    /// (absolute; dedupe and the stop-loop counter carry over between
    /// runs). Default: a fresh private one per run, removed afterwards.
    pub state_dir: Option<PathBuf>,
}

/// One agent × scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The agent.
    pub agent: Provider,
    /// The scenario's label.
    pub scenario: String,
    /// The native event the agent fires (empty when skipped).
    pub event: String,
    /// The native tool name, on tool events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Why this agent has no such case (no such event or tool), if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// The argv that ran.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub argv: Vec<String>,
    /// The hook variables the agent sets (on top of the inherited ones).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<(String, String)>,
    /// The payload sent on stdin.
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    pub payload: serde_json::Value,
    /// The deadline, in milliseconds.
    pub timeout_ms: u64,
    /// What came back.
    pub answer: Answer,
    /// Wall time of the run.
    pub duration_ms: u64,
    /// The hook could not be run at all (could not start, or the shell
    /// could not find or execute it: exit 126/127).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_error: Option<String>,
    /// What the agent does with the answer (absent when skipped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prediction: Option<Prediction>,
    /// Notes on how the run differs from the agent's own (in-process
    /// agents, ...).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Quotes one word for `sh`.
pub fn sh_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%{}".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Every variable any agent sets for its hooks (removed from the inherited
/// environment before the agent's own are set, so a simulation run inside
/// one agent does not leak its variables into another's), and the CI
/// variables (a simulated session is interactive, `crate::mode`, even when
/// the simulation itself runs in CI).
fn all_hook_vars() -> Vec<String> {
    let mut v: Vec<String> = Provider::ALL
        .iter()
        .flat_map(|p| invocation(*p).env.iter().map(|(k, _)| (*k).to_string()))
        .chain(crate::mode::CI_VARS.iter().map(|k| (*k).to_string()))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Runs `command` (program and arguments; `{agent}` and `{event}` in any
/// word are replaced by the agent id and the native event) for every
/// scenario on every agent, as each agent would, and predicts the effect.
/// Agents that have no such event or tool give a skipped outcome.
pub fn simulate(
    command: &[String],
    scenarios: &[Scenario],
    agents: &[Provider],
    opts: &SimulateOptions,
) -> Result<Vec<Outcome>, Error> {
    if command.is_empty() {
        return Err(Error::InvalidArgument {
            message: "no hook command given".into(),
        });
    }
    let cwd = match &opts.cwd {
        Some(c) => c.clone(),
        None => std::env::current_dir().map_err(|e| Error::InvalidArgument {
            message: format!("no current directory: {e}"),
        })?,
    };
    let cwd_s = cwd.to_string_lossy().to_string();
    let remove = all_hook_vars();
    let shared = match &opts.state_dir {
        Some(p) => Some(
            crate::state::root_at(p)?
                .path()
                .to_string_lossy()
                .to_string(),
        ),
        None => None,
    };
    // Each run's own state root (kept until every run is over).
    let mut temps = Vec::new();
    let mut outcomes = Vec::new();
    let mut reqs = Vec::new();
    let mut slots = Vec::new();
    for s in scenarios {
        for &agent in agents {
            let hooks = invocation(agent);
            let timeout = opts
                .timeout
                .unwrap_or(Duration::from_millis(hooks.default_timeout_ms));
            let mut o = Outcome {
                agent,
                scenario: s.label(),
                event: String::new(),
                tool: None,
                skipped: None,
                argv: Vec::new(),
                env: Vec::new(),
                payload: serde_json::Value::Null,
                timeout_ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
                answer: Answer::default(),
                duration_ms: 0,
                run_error: None,
                prediction: None,
                notes: Vec::new(),
            };
            let Some(built) = s.build(agent, &cwd_s)? else {
                o.skipped = Some(if s.payload.is_some() {
                    "the payload belongs to another agent".into()
                } else {
                    format!("{} has no such event or tool", agent.display_name())
                });
                outcomes.push(o);
                continue;
            };
            let words: Vec<String> = command
                .iter()
                .map(|w| {
                    w.replace("{agent}", agent.id())
                        .replace("{event}", &built.event)
                })
                .collect();
            let line = words
                .iter()
                .map(|w| sh_quote(w))
                .collect::<Vec<_>>()
                .join(" ");
            let argv: Vec<String> = if hooks.shell.is_empty() {
                o.notes.push(format!(
                    "{} runs hooks in-process: the command ran with our plugin's frame on stdin \
                     (as `agenthooks run --provider={}` reads it); its stdout is the action the \
                     plugin applies",
                    agent.display_name(),
                    agent.id()
                ));
                vec!["sh".into(), "-c".into(), line]
            } else {
                hooks
                    .shell
                    .iter()
                    .map(|w| (*w).to_string())
                    .chain(std::iter::once(line))
                    .collect()
            };
            let session = built
                .payload
                .get("session_id")
                .or_else(|| built.payload.get("sessionId"))
                .and_then(serde_json::Value::as_str)
                .unwrap_or("sim-0001")
                .to_string();
            let env: Vec<(String, String)> = hooks
                .env
                .iter()
                .map(|(k, src)| {
                    let v = match *src {
                        "project_dir" => cwd_s.clone(),
                        "session_id" => session.clone(),
                        "version" => built
                            .payload
                            .get("cursor_version")
                            .and_then(serde_json::Value::as_str)
                            .unwrap_or("2.3.9")
                            .to_string(),
                        lit => lit.strip_prefix('=').unwrap_or(lit).to_string(),
                    };
                    ((*k).to_string(), v)
                })
                .collect();
            let mut env = env;
            let state_dir = match &shared {
                Some(p) => p.clone(),
                None => {
                    let t = crate::state::TempRoot::new("agenthooks-simulate")?;
                    let p = t.dir().path().to_string_lossy().to_string();
                    temps.push(t);
                    p
                }
            };
            env.push((crate::state::STATE_DIR_ENV.to_string(), state_dir));
            let mut req = RunRequest::new(argv.clone());
            req.stdin = built.payload.to_string().into_bytes();
            req.env = env.clone();
            req.env_remove = remove.clone();
            req.cwd = Some(cwd.clone());
            req.timeout = timeout;
            if let Some(c) = opts.cap {
                req.cap = c;
            }
            if agent == Provider::ClaudeCode {
                req.exit_grace = Some(ExitGrace::CLAUDE_CODE);
            }
            o.event = built.event.clone();
            o.tool = built.tool.clone();
            o.argv = argv;
            o.env = env;
            o.payload = built.payload;
            slots.push(outcomes.len());
            outcomes.push(o);
            reqs.push(req);
        }
    }
    let runs = runner::run_all(&reqs);
    for (slot, run) in slots.into_iter().zip(runs) {
        let o = &mut outcomes[slot];
        o.answer = Answer {
            stdout: run.stdout.clone(),
            stderr: run.stderr.clone(),
            exit: run.exit_code,
            timed_out: run.timed_out,
        };
        o.duration_ms = run.duration_ms;
        o.run_error = match (&run.spawn_error, run.exit_code) {
            (Some(e), _) => Some(e.clone()),
            (None, Some(c @ (126 | 127))) => Some(format!(
                "the shell could not run the command (exit {c}): {}",
                run.stderr.trim()
            )),
            _ => None,
        };
        o.prediction = Some(predict(o.agent, &o.event, o.tool.as_deref(), &o.answer));
    }
    Ok(outcomes)
}

/// The in-process twin of [`simulate`]: each agent's payload for each
/// scenario is decoded and answered by `router` (its handlers, its policy:
/// `decide` then `respond`, without the run entry's dedupe and loop-guard
/// state), and the answer read as the agent would. No process runs.
pub fn route(
    router: &crate::router::Router,
    scenarios: &[Scenario],
    agents: &[Provider],
) -> Result<Vec<Outcome>, Error> {
    let cwd = std::env::current_dir()
        .map(|c| c.to_string_lossy().to_string())
        .unwrap_or_else(|_| "/".into());
    let mut out = Vec::new();
    for s in scenarios {
        for &agent in agents {
            let mut o = Outcome {
                agent,
                scenario: s.label(),
                event: String::new(),
                tool: None,
                skipped: None,
                argv: Vec::new(),
                env: Vec::new(),
                payload: serde_json::Value::Null,
                timeout_ms: 0,
                answer: Answer::default(),
                duration_ms: 0,
                run_error: None,
                prediction: None,
                notes: Vec::new(),
            };
            let Some(built) = s.build(agent, &cwd)? else {
                o.skipped = Some(format!(
                    "{} has no such event or tool",
                    agent.display_name()
                ));
                out.push(o);
                continue;
            };
            let answer = answer_with(router, agent, &built.event, &built.payload)?;
            o.prediction = Some(predict(agent, &built.event, built.tool.as_deref(), &answer));
            o.answer = answer;
            o.event = built.event;
            o.tool = built.tool;
            o.payload = built.payload;
            out.push(o);
        }
    }
    Ok(out)
}

/// The wire answer a router gives to one payload (decode, decide, respond;
/// a handler error gives the policy's fail answer).
pub fn answer_with(
    router: &crate::router::Router,
    agent: Provider,
    event: &str,
    payload: &serde_json::Value,
) -> Result<Answer, Error> {
    let opts = crate::DecodeOptions {
        event: Some(event.to_string()),
        ..crate::DecodeOptions::default()
    };
    let ev = crate::decode(agent, payload.to_string().as_bytes(), &opts)?;
    let policy = router.get_policy();
    let resp = match router.decide(&ev) {
        Ok(d) => crate::respond(&ev, &d, policy)?,
        Err(e) => crate::fail_response(agent, Some(&ev), &e, policy),
    };
    Ok(Answer {
        stdout: resp.stdout,
        stderr: resp.stderr,
        exit: Some(resp.exit_code),
        timed_out: false,
    })
}
