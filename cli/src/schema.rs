//! `agenthooks schema` (the published JSON Schemas) and `agenthooks
//! drift` (payload fields the schemas do not know, seen by hooks).

use std::path::PathBuf;
use std::process::ExitCode;

use agenthooks::schema::{self, drift};
use agenthooks::{Error, Provider};
use clap::Args;

use crate::{fatal, say};

#[derive(Args)]
pub struct SchemaArgs {
    /// Agent id or alias (claude-code, codex, ...).
    #[arg(long, alias = "provider")]
    agent: Option<String>,
    /// Native event name (needs --agent); without it the index is printed.
    #[arg(long, requires = "agent")]
    event: Option<String>,
    /// The schema of the agent's answer (stdout) instead of its payload.
    #[arg(long, requires = "event")]
    output: bool,
    /// A canonical schema instead: `event` or `decision`.
    #[arg(long, conflicts_with_all = ["agent", "event", "output"])]
    canonical: Option<String>,
}

pub fn schema_cmd(a: &SchemaArgs) -> ExitCode {
    let doc = match (&a.canonical, &a.agent, &a.event) {
        (Some(c), _, _) => match c.as_str() {
            "event" => schema::canonical_event_schema(),
            "decision" => schema::canonical_decision_schema(),
            other => {
                return fatal(&Error::InvalidArgument {
                    message: format!("--canonical: `{other}` (expected event or decision)"),
                });
            }
        },
        (None, Some(agent), Some(event)) => {
            let p = match Provider::parse(agent) {
                Ok(p) => p,
                Err(e) => return fatal(&e),
            };
            let r = if a.output {
                schema::output_schema_checked(p, event)
            } else {
                schema::input_schema_checked(p, event)
            };
            match r {
                Ok(v) => v,
                Err(e) => return fatal(&e),
            }
        }
        (None, agent, None) => {
            let mut index = schema::index();
            if let Some(agent) = agent {
                let p = match Provider::parse(agent) {
                    Ok(p) => p,
                    Err(e) => return fatal(&e),
                };
                index = index["agents"][p.id()].clone();
            }
            index
        }
        (None, None, Some(_)) => unreachable!("clap: --event requires --agent"),
    };
    say(&serde_json::to_string_pretty(&doc).unwrap_or_default());
    ExitCode::SUCCESS
}

#[derive(Args)]
pub struct DriftArgs {
    /// Print JSON (`{"entries": [...]}`).
    #[arg(long)]
    json: bool,
    /// Forget what was recorded.
    #[arg(long, conflicts_with = "check")]
    clear: bool,
    /// Exit 1 when any unknown field was recorded (the real-agent suite).
    #[arg(long)]
    check: bool,
    /// The state root (default: $AGENTHOOKS_STATE_DIR, else the per-user root).
    #[arg(long)]
    state_dir: Option<PathBuf>,
}

pub fn drift_cmd(a: &DriftArgs) -> ExitCode {
    let root = match &a.state_dir {
        Some(d) => agenthooks::state::root_at(d),
        None => agenthooks::state::root(),
    };
    let dir = match root.and_then(|r| r.subdir(drift::SUBDIR)) {
        Ok(d) => d,
        Err(e) => return fatal(&e),
    };
    if a.clear {
        return match drift::clear(&dir) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fatal(&e),
        };
    }
    let entries = drift::read(&dir);
    if a.json {
        say(&serde_json::to_string_pretty(&drift::to_json(&entries)).unwrap_or_default());
    } else if entries.is_empty() {
        say("no unknown payload fields recorded");
    } else {
        let mut sorted = entries.clone();
        sorted.sort();
        let mut last = None;
        for e in &sorted {
            let head = (e.agent.as_str(), e.version.as_str(), e.event.as_str());
            if last != Some(head) {
                say(&format!("{} {} {}:", e.agent, e.version, e.event));
                last = Some(head);
            }
            say(&format!("  {} ({})", e.field, e.r#type));
        }
        say(&format!(
            "{} unknown field(s): add them to core/src/schema/table/<agent>.rs (then `make schemas`)",
            entries.len()
        ));
    }
    if a.check && !entries.is_empty() {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
