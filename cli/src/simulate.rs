//! `agenthooks simulate`: run a hook the way each agent would and show what
//! each agent does with its answer (the core's `simulate`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use agenthooks::simulate::{self, Scenario, SimulateOptions, ToolClass};
use agenthooks::{Error, Provider};
use clap::Args;

/// `agenthooks simulate [options] -- <hook command...>`
#[derive(Args)]
#[command(
    after_help = "The hook command runs once per agent and scenario, the way that agent runs \
hooks (its shell, hook variables, payload on stdin, default timeout). `{agent}` and `{event}` in \
the command are replaced by the agent id and its native event name, e.g.\n  \
agenthooks simulate -- ./guard agenthooks run --provider={agent} --event={event}\n\
Exit status: 0, or 1 when the hook could not be run (or bad arguments)."
)]
pub struct SimulateArgs {
    /// Only these agents (repeatable; default: all eight).
    #[arg(long = "agent", alias = "provider")]
    agents: Vec<String>,
    /// Scenario event: tool.pre, tool.post, prompt.submit, stop (with --payload:
    /// the native event name, if the payload lacks it).
    #[arg(long)]
    event: Option<String>,
    /// Tool class of a tool scenario: shell (default), file.edit, file.read.
    #[arg(long)]
    tool: Option<String>,
    /// The shell command of a shell scenario.
    #[arg(long)]
    command: Option<String>,
    /// The file of a file scenario.
    #[arg(long)]
    path: Option<String>,
    /// The prompt of a prompt.submit scenario.
    #[arg(long)]
    prompt: Option<String>,
    /// A native payload of one agent (needs exactly one --agent).
    #[arg(long)]
    payload: Option<PathBuf>,
    /// A scenario set: `builtin` (the default when no scenario is given), or
    /// a JSON file holding an array of scenarios (`{"name", "event", "tool",
    /// "command", "path", "prompt"}`; see docs/testing.md).
    #[arg(long)]
    scenarios: Option<String>,
    /// Seconds to wait for the hook instead of each agent's default timeout.
    #[arg(long)]
    timeout: Option<f64>,
    /// The project directory (the hook's working directory).
    #[arg(long)]
    cwd: Option<PathBuf>,
    /// Print JSON (one object per agent and scenario) instead of the table.
    #[arg(long, conflicts_with = "matrix")]
    json: bool,
    /// Print the compact agent x scenario matrix (effects only; warnings
    /// listed below it).
    #[arg(long)]
    matrix: bool,
    /// The hook command and its arguments.
    #[arg(last = true, required = true)]
    hook: Vec<String>,
}

fn bad(message: String) -> Error {
    Error::InvalidArgument { message }
}

fn scenarios(a: &SimulateArgs, agents: &[Provider]) -> Result<Vec<Scenario>, Error> {
    let mut out = Vec::new();
    if let Some(path) = &a.payload {
        if agents.len() != 1 || a.agents.len() != 1 {
            return Err(bad("--payload needs exactly one --agent".into()));
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| bad(format!("--payload {}: {e}", path.display())))?;
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| bad(format!("--payload {}: not JSON: {e}", path.display())))?;
        out.push(
            Scenario::payload(agents[0], v, a.event.as_deref())
                .named(&format!("payload {}", path.display())),
        );
    } else if a.event.is_some() || a.command.is_some() || a.prompt.is_some() || a.path.is_some() {
        let s = Scenario {
            name: String::new(),
            event: a.event.clone().or_else(|| {
                if a.prompt.is_some() {
                    Some("prompt.submit".into())
                } else {
                    Some("tool.pre".into())
                }
            }),
            tool: a.tool.as_deref().map(ToolClass::parse).transpose()?,
            command: a.command.clone(),
            path: a.path.clone(),
            prompt: a.prompt.clone(),
            agent: None,
            payload: None,
        };
        s.validate()?;
        out.push(s);
    }
    match a.scenarios.as_deref() {
        Some("builtin") => out.extend(simulate::scenario::builtin()),
        Some(file) => {
            let text = std::fs::read_to_string(file).map_err(|e| {
                bad(format!(
                    "--scenarios {file}: {e} (give `builtin` or a JSON file)"
                ))
            })?;
            let list: Vec<Scenario> = serde_json::from_str(&text).map_err(|e| {
                bad(format!(
                    "--scenarios {file}: not an array of scenarios: {e}"
                ))
            })?;
            for s in &list {
                s.validate()?;
            }
            out.extend(list);
        }
        None if out.is_empty() => out.extend(simulate::scenario::builtin()),
        None => {}
    }
    Ok(out)
}

fn run(a: &SimulateArgs) -> Result<ExitCode, Error> {
    let agents: Vec<Provider> = if a.agents.is_empty() {
        Provider::ALL.to_vec()
    } else {
        a.agents
            .iter()
            .map(|s| Provider::parse(s))
            .collect::<Result<_, _>>()?
    };
    let scenarios = scenarios(a, &agents)?;
    let timeout = match a.timeout {
        Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t.min(86_400.0))),
        Some(t) => {
            return Err(bad(format!(
                "--timeout {t}: give a positive number of seconds"
            )));
        }
        None => None,
    };
    let opts = SimulateOptions {
        cwd: a.cwd.clone(),
        timeout,
        cap: None,
        state_dir: None,
    };
    let outcomes = simulate::simulate(&a.hook, &scenarios, &agents, &opts)?;
    if a.json {
        let v = serde_json::to_string_pretty(&outcomes).unwrap_or_else(|_| "[]".into());
        crate::say(&v);
    } else if a.matrix {
        crate::say(simulate::table::render_matrix(&outcomes).trim_end());
    } else {
        crate::say(simulate::table::render(&outcomes).trim_end());
    }
    let failed: Vec<_> = outcomes
        .iter()
        .filter_map(|o| o.run_error.as_ref())
        .collect();
    if let Some(first) = failed.first() {
        eprintln!(
            "agenthooks simulate: the hook did not run in {} case(s): {first}",
            failed.len()
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `simulate`.
pub fn simulate_cmd(a: &SimulateArgs) -> ExitCode {
    match run(a) {
        Ok(c) => c,
        Err(e) => crate::fatal(&e),
    }
}
