//! `agenthooks host run`: run the hooks of a Claude Code `settings.json` or a
//! Codex `hooks.json` for one event, exactly as that agent would, and print
//! the merged outcome and the audit records as one JSON object.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use agenthooks::host::{self, Dialect, HostOptions, RegistryBuilder};
use agenthooks::{DecodeOptions, Event, Provider};
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

fn fail(code: &str, message: String, extra: Value) -> ExitCode {
    eprintln!("agenthooks host: {code}: {message}");
    let mut err = json!({"code": code, "message": message});
    if let (Some(e), Value::Object(x)) = (err.as_object_mut(), extra) {
        e.extend(x);
    }
    println!("{}", json!({ "error": err }));
    ExitCode::from(1)
}

fn run(a: &RunArgs) -> ExitCode {
    let dialect = match Dialect::parse(&a.dialect) {
        Ok(d) => d,
        Err(e) => return fail(e.code().as_str(), e.to_string(), Value::Null),
    };
    let mut b = RegistryBuilder::new(dialect);
    b.strict(a.strict);
    for path in &a.config {
        match std::fs::read_to_string(path) {
            Ok(text) => b.add_text(&path.to_string_lossy(), &text),
            Err(e) => return fail("io", format!("{}: {e}", path.display()), Value::Null),
        };
    }
    for root in &a.plugin {
        let file = root.join("hooks").join("hooks.json");
        let doc = std::fs::read_to_string(&file)
            .map_err(|e| format!("{}: {e}", file.display()))
            .and_then(|t| {
                serde_json::from_str::<Value>(&t).map_err(|e| format!("{}: {e}", file.display()))
            });
        match doc {
            Ok(doc) => b.add_plugin(&file.to_string_lossy(), root.clone(), None, &doc),
            Err(m) => return fail("io", m, Value::Null),
        };
    }
    let registry = match b.build() {
        Ok(r) => r,
        Err(e) => {
            let diags = serde_json::to_value(&e.diagnostics).unwrap_or_default();
            return fail(
                "config_rejected",
                e.to_string(),
                json!({ "diagnostics": diags }),
            );
        }
    };
    let event = match read_event(a, dialect) {
        Ok(ev) => ev,
        Err((code, m)) => return fail(&code, m, Value::Null),
    };
    let opts = HostOptions {
        cwd: a.cwd.clone(),
        project_dir: a.project_dir.clone(),
        output_cap: a.output_cap,
        default_timeout: a
            .default_timeout
            .and_then(|s| Duration::try_from_secs_f64(s).ok()),
        parallel: !a.sequential,
        ..HostOptions::default()
    };
    let report = match host::run_event(&registry, &event, &opts) {
        Ok(r) => r,
        Err(e) => return fail(e.code(), e.to_string(), Value::Null),
    };
    let hooks: Vec<Value> = report
        .hooks
        .iter()
        .map(|h| {
            json!({
                "hook": h.id.to_string(),
                "command": h.command,
                "exit_code": h.run.exit_code,
                "timed_out": h.run.timed_out,
                "output": h.output,
            })
        })
        .collect();
    let out = json!({
        "dialect": report.dialect,
        "event": report.event,
        "subjects": report.subjects,
        "outcome": report.outcome,
        "hooks": hooks,
        "audit": report.audit,
        "warnings": registry.warnings().iter().chain(&report.diagnostics).collect::<Vec<_>>(),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    ExitCode::SUCCESS
}

/// A hook payload (has `hook_event_name`, decoded as --event-provider) or a
/// canonical event (has `kind` and `native_name`; its `raw` is kept).
fn read_event(a: &RunArgs, dialect: Dialect) -> Result<Event, (String, String)> {
    let err = |e: agenthooks::Error| (e.code().as_str().to_string(), e.to_string());
    let bytes = std::fs::read(&a.event_json)
        .map_err(|e| ("io".to_string(), format!("{}: {e}", a.event_json.display())))?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| {
        (
            "invalid_json".to_string(),
            format!("{}: {e}", a.event_json.display()),
        )
    })?;
    let canonical = value.get("hook_event_name").is_none()
        && value.get("kind").is_some()
        && value.get("native_name").is_some();
    if canonical {
        let mut ev: Event = serde_json::from_value(value.clone()).map_err(|e| {
            (
                "invalid_json".to_string(),
                format!("not a canonical event: {e}"),
            )
        })?;
        ev.raw = match value.get("raw") {
            Some(raw @ Value::Object(_)) => {
                serde_json::to_vec(raw).unwrap_or_else(|_| b"{}".to_vec())
            }
            _ => b"{}".to_vec(),
        };
        return Ok(ev);
    }
    let provider = match &a.event_provider {
        Some(p) => Provider::parse(p).map_err(err)?,
        None => dialect.provider(),
    };
    agenthooks::decode(provider, &bytes, &DecodeOptions::default()).map_err(err)
}
