//! `agenthooks host run`: run the hooks of a Claude Code `settings.json` or a
//! Codex `hooks.json` for one event, exactly as that agent would, and print
//! the merged outcome and the audit records as one JSON object.

use std::path::PathBuf;
use std::process::ExitCode;

use agenthooks::host;
use clap::{Args, Subcommand};
use serde_json::{Value, json};

/// `agenthooks host ...`
#[derive(Subcommand)]
pub enum HostCmd {
    /// Run the configured hooks for one event; print {outcome, hooks, audit, warnings}.
    Run(RunArgs),
}

#[derive(Args)]
pub struct RunArgs {
    /// A settings.json (Claude Code) or hooks.json (Codex); repeatable, in order.
    #[arg(long, required = true)]
    config: Vec<PathBuf>,
    /// A plugin root whose hooks/hooks.json is loaded with its placeholders; repeatable.
    #[arg(long)]
    plugin: Vec<PathBuf>,
    /// Whose hooks these are: claude-code or codex.
    #[arg(long, alias = "agent", alias = "provider")]
    dialect: String,
    /// The event: a hook payload (stdin of the agent's hooks) or a canonical event JSON.
    #[arg(long)]
    event_json: PathBuf,
    /// The agent that sent a payload given with --event-json (default: the dialect).
    #[arg(long)]
    event_provider: Option<String>,
    /// Working directory of the hooks (default: the payload's cwd).
    #[arg(long)]
    cwd: Option<PathBuf>,
    /// CLAUDE_PROJECT_DIR: the session's project root (default: this
    /// process's working directory; never the payload's cwd).
    #[arg(long)]
    project_dir: Option<PathBuf>,
    /// Timeout in seconds for hooks that set none (default: the agent's).
    #[arg(long)]
    default_timeout: Option<f64>,
    /// Cap on each captured stream, in bytes.
    #[arg(long, default_value_t = host::DEFAULT_OUTPUT_CAP)]
    output_cap: usize,
    /// Run the hooks one after the other instead of in parallel.
    #[arg(long)]
    sequential: bool,
    /// Refuse the configuration if any entry is invalid (default: skip it
    /// exactly as the agent does, and report it in `warnings`).
    #[arg(long)]
    strict: bool,
}

pub fn main(cmd: HostCmd) -> ExitCode {
    match cmd {
        HostCmd::Run(a) => run(&a),
    }
}

/// The options as the core's JSON request (`host::json`): the CLI and
/// every binding make the same call.
fn request(a: &RunArgs) -> Value {
    let path = |p: &PathBuf| Value::String(p.to_string_lossy().into_owned());
    let mut req = json!({
        "dialect": a.dialect,
        "configs": a.config.iter().map(|p| json!({ "path": path(p) })).collect::<Vec<_>>(),
        "plugins": a.plugin.iter().map(|p| json!({ "root": path(p) })).collect::<Vec<_>>(),
        "event_path": path(&a.event_json),
        "output_cap": a.output_cap,
        "sequential": a.sequential,
        "strict": a.strict,
    });
    if let Some(obj) = req.as_object_mut() {
        let optional = [
            (
                "event_provider",
                a.event_provider.clone().map(Value::String),
            ),
            ("cwd", a.cwd.as_ref().map(path)),
            ("project_dir", a.project_dir.as_ref().map(path)),
            ("default_timeout_s", a.default_timeout.map(|s| json!(s))),
        ];
        for (k, v) in optional {
            if let Some(v) = v {
                obj.insert(k.to_string(), v);
            }
        }
    }
    req
}

fn run(a: &RunArgs) -> ExitCode {
    match host::json::run_request(&request(a).to_string()) {
        Ok(report) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(err) => {
            let field = |k: &str| err.get(k).and_then(Value::as_str).unwrap_or_default();
            eprintln!("agenthooks host: {}: {}", field("code"), field("message"));
            println!("{}", json!({ "error": err }));
            ExitCode::from(1)
        }
    }
}
