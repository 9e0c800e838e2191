//! The simulation API as JSON in, JSON out: what the C ABI
//! (`ah_predict_json`, `ah_simulate_json`, `ah_fixture_corpus_json`,
//! `ah_scenario_payloads_json`) and the bindings call. A request the core
//! rejects answers `{"error": {"code", "message"}}`. Field names are
//! stable; `docs/testing.md` documents them.

use serde::Deserialize;
use serde_json::{Value, json};

use super::scenario::{Scenario, builtin};
use super::{Answer, SimulateOptions, corpus, simulate};
use crate::error::Error;
use crate::model::{Decision, Kind, Policy, Provider};

fn error(e: &Error) -> String {
    e.to_json_answer()
}

fn bad(m: String) -> Error {
    Error::InvalidArgument { message: m }
}

fn parse<T: for<'de> Deserialize<'de>>(what: &str, req: &str) -> Result<T, Error> {
    serde_json::from_str(req).map_err(|e| bad(format!("{what} request: {e}")))
}

fn agents(list: &Option<Vec<String>>) -> Result<Vec<Provider>, Error> {
    match list {
        None => Ok(Provider::ALL.to_vec()),
        Some(v) => v.iter().map(|s| Provider::parse(s)).collect(),
    }
}

/// `"builtin"`, or an array of scenarios.
#[derive(Deserialize)]
#[serde(untagged)]
enum Scenarios {
    Set(String),
    List(Vec<Scenario>),
}

fn scenarios(s: Option<Scenarios>) -> Result<Vec<Scenario>, Error> {
    match s {
        None => Ok(builtin()),
        Some(Scenarios::Set(n)) if n == "builtin" => Ok(builtin()),
        Some(Scenarios::Set(n)) => Err(bad(format!("unknown scenario set `{n}` (builtin)"))),
        Some(Scenarios::List(v)) => {
            for s in &v {
                s.validate()?;
            }
            Ok(v)
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PredictReq {
    agent: String,
    #[serde(default)]
    event: Option<String>,
    #[serde(default)]
    tool: Option<String>,
    #[serde(default)]
    answer: Option<Answer>,
    #[serde(default)]
    payload: Option<Value>,
    #[serde(default)]
    decision: Option<Value>,
    #[serde(default)]
    policy: Option<Value>,
    #[serde(default)]
    mode: super::Mode,
}

/// What an agent does with an answer (`"mode"?: "interactive" |
/// "headless"`, default interactive). Request: `{"agent", "event", "tool"?,
/// "answer": {"stdout", "stderr", "exit", "timed_out"}}`, or `{"agent",
/// "payload", "event"?, "decision", "policy"?}` (the decision is encoded
/// for that payload first; the answer is then part of the result). Result:
/// the prediction `{"agent", "event", "kind", "effect", "decision"?,
/// "model_sees"?, "user_sees"?, "updated_input"?, "warnings": [{"code",
/// "message"}]}` (+ `"answer"`, `"notes"` in the decision form).
pub fn predict_json(req: &str) -> String {
    match predict_value(req) {
        Ok(v) => v.to_string(),
        Err(e) => error(&e),
    }
}

fn predict_value(req: &str) -> Result<Value, Error> {
    let r: PredictReq = parse("predict", req)?;
    let agent = Provider::parse(&r.agent)?;
    if let Some(answer) = r.answer {
        let event = r
            .event
            .ok_or_else(|| bad("predict: `event` is required".into()))?;
        let p = super::predict_in(agent, &event, r.tool.as_deref(), &answer, r.mode);
        return Ok(serde_json::to_value(p).unwrap_or(Value::Null));
    }
    let (Some(payload), Some(decision)) = (r.payload, r.decision) else {
        return Err(bad(
            "predict: give `answer` (with `event`), or `payload` and `decision`".into(),
        ));
    };
    let opts = crate::DecodeOptions {
        event: r.event.clone(),
        ..crate::DecodeOptions::default()
    };
    let ev = crate::decode(agent, payload.to_string().as_bytes(), &opts)?;
    let d = Decision::from_json(&decision.to_string())?;
    let policy = match &r.policy {
        Some(p) => Policy::from_json(&p.to_string())?,
        None => Policy::default(),
    };
    let resp = crate::respond(&ev, &d, &policy)?;
    let answer = Answer {
        stdout: resp.stdout.clone(),
        stderr: resp.stderr.clone(),
        exit: Some(resp.exit_code),
        timed_out: false,
    };
    let tool = ev.tool.as_ref().map(|t| t.name.clone());
    let p = super::predict_in(agent, &ev.native_name, tool.as_deref(), &answer, r.mode);
    let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
    v["answer"] = serde_json::to_value(&answer).unwrap_or(Value::Null);
    v["notes"] = serde_json::to_value(&resp.notes).unwrap_or(Value::Null);
    Ok(v)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SimulateReq {
    command: Vec<String>,
    #[serde(default)]
    scenarios: Option<Scenarios>,
    #[serde(default)]
    agents: Option<Vec<String>>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    state_dir: Option<String>,
}

/// Runs a hook command as each agent would. Request: `{"command": [argv...],
/// "scenarios"?: "builtin" | [scenario...], "agents"?: [ids], "cwd"?,
/// "timeout_ms"?, "state_dir"?}` (`state_dir`: the state root every run
/// shares; default a fresh private one per run). Result: `{"outcomes": [...]}` (the fields of
/// `agenthooks simulate --json`).
pub fn simulate_json(req: &str) -> String {
    let run = || -> Result<Value, Error> {
        let r: SimulateReq = parse("simulate", req)?;
        let opts = SimulateOptions {
            cwd: r.cwd.map(Into::into),
            timeout: r.timeout_ms.map(std::time::Duration::from_millis),
            cap: None,
            state_dir: r.state_dir.map(Into::into),
        };
        let out = simulate(
            &r.command,
            &scenarios(r.scenarios)?,
            &agents(&r.agents)?,
            &opts,
        )?;
        Ok(json!({"outcomes": out}))
    };
    match run() {
        Ok(v) => v.to_string(),
        Err(e) => error(&e),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CorpusReq {
    #[serde(default)]
    agent: Option<String>,
    #[serde(default)]
    kind: Option<String>,
}

/// The shipped fixture corpus. Request: `{"agent"?, "kind"?}` (`{}` for
/// all). Result: `{"fixtures": [{"agent", "name", "event", "kind",
/// "variant"?, "names_event", "payload"}]}`.
pub fn corpus_json(req: &str) -> String {
    let run = || -> Result<Value, Error> {
        let r: CorpusReq = parse("corpus", if req.trim().is_empty() { "{}" } else { req })?;
        let agent = r.agent.as_deref().map(Provider::parse).transpose()?;
        let kind = r.kind.as_deref().map(Kind::parse).transpose()?;
        let list: Vec<_> = corpus::all()
            .iter()
            .filter(|e| agent.is_none_or(|a| e.agent == a) && kind.is_none_or(|k| e.kind == k))
            .collect();
        Ok(json!({"fixtures": list}))
    };
    match run() {
        Ok(v) => v.to_string(),
        Err(e) => error(&e),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PayloadsReq {
    #[serde(default)]
    scenarios: Option<Scenarios>,
    #[serde(default)]
    agents: Option<Vec<String>>,
    #[serde(default)]
    cwd: Option<String>,
}

/// Each agent's payload for each scenario (to run a router in-process in
/// a binding's own language, then `predict` its answer). Request:
/// `{"scenarios"?, "agents"?, "cwd"?}`. Result: `{"cases": [{"agent",
/// "scenario", "event", "tool"?, "payload"} | {"agent", "scenario",
/// "skipped"}]}`.
pub fn scenario_payloads_json(req: &str) -> String {
    let run = || -> Result<Value, Error> {
        let r: PayloadsReq = parse("payloads", if req.trim().is_empty() { "{}" } else { req })?;
        let cwd = r.cwd.unwrap_or_else(|| {
            std::env::current_dir()
                .map(|c| c.to_string_lossy().to_string())
                .unwrap_or_else(|_| "/".into())
        });
        let mut cases = Vec::new();
        for s in scenarios(r.scenarios)? {
            for a in agents(&r.agents)? {
                match s.build(a, &cwd)? {
                    Some(b) => cases.push(json!({"agent": a.id(), "scenario": s.label(),
                        "event": b.event, "tool": b.tool, "payload": b.payload})),
                    None => cases.push(json!({"agent": a.id(), "scenario": s.label(),
                        "skipped": format!("{} has no such event or tool", a.display_name())})),
                }
            }
        }
        Ok(json!({"cases": cases}))
    };
    match run() {
        Ok(v) => v.to_string(),
        Err(e) => error(&e),
    }
}
