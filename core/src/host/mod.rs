//! The host side: run the command hooks users wrote for Claude Code or
//! Codex, exactly as those agents would, from your own harness.
//!
//! ```no_run
//! use agenthooks::host::{self, Dialect, HostOptions, Registry};
//! let settings = std::fs::read_to_string(".claude/settings.json").unwrap();
//! let registry = Registry::load(Dialect::ClaudeCode, ".claude/settings.json", &settings)
//!     .expect("only a strict builder refuses a configuration");
//! let payload = br#"{"session_id":"s","cwd":"/srv","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}"#;
//! let event = agenthooks::decode(agenthooks::Provider::ClaudeCode, payload, &Default::default()).unwrap();
//! let report = host::run_event(&registry, &event, &HostOptions::default()).unwrap();
//! if report.outcome.decision.is_some_and(|d| d.rank() >= host::HookDecision::Deny.rank()) {
//!     println!("blocked: {}", report.outcome.reason.unwrap_or_default());
//! }
//! for record in &report.audit { println!("{}", serde_json::to_string(record).unwrap()); }
//! ```
//!
//! Steps, one file each: [`config`] (load and validate into a
//! [`Registry`]), [`crate::host::matcher`] (compile matchers), `select` (the
//! ordered, deduplicated hooks of an event), [`payload`] (the stdin bytes),
//! [`runner`] (process groups, timeouts, capped capture), [`output`] (exit
//! code + stdout + stderr as the agent reads them), [`mod@merge`] (the agent's
//! precedence), [`audit`] (invoked/result records).
//!
//! Per dialect: Claude Code hooks run through `sh -c` (`bash -c` /
//! `pwsh -Command` with `shell`; exec form with `args`), with
//! `CLAUDE_PROJECT_DIR`, `CLAUDECODE=1`, `CLAUDE_CODE_CHILD_SESSION=1`,
//! `CLAUDE_CODE_SESSION_ID`, `CLAUDE_PID` (this process), `CLAUDE_EFFORT`
//! (when the payload has one), `CLAUDE_ENV_FILE` (when given, on the four
//! events that get it) and the plugin variables, `OTEL_*` removed. As in
//! Claude Code 2.1.328, `${CLAUDE_PROJECT_DIR}` and the plugin placeholders
//! are substituted as text only in the exec form (`args`, no shell); a
//! shell-form command keeps them and the shell expands the environment
//! variables (PowerShell: rewritten to `${env:NAME}`), so no path or
//! payload value is ever pasted into shell code. `CLAUDE_PROJECT_DIR` is
//! the session root ([`HostOptions::project_dir`]), not the payload's `cwd`. Codex hooks run
//! through `$SHELL -lc` (else `/bin/sh`), inheriting the environment plus
//! the plugin variables. Default timeouts are the agent's per event (Claude
//! 600 s, `UserPromptSubmit` 30 s, `MessageDisplay` 10 s, `SessionEnd`
//! 1.5 s up to 60 s; Codex 600 s, `SessionEnd`/`Interrupt` 1 s up to 3 s).
//! The hooks of one event run in parallel, like both agents; results are
//! reported in configuration order.

pub mod audit;
pub mod config;
pub(crate) mod decode_claude;
pub(crate) mod decode_codex;
mod diagnostic;
pub mod events;
mod hosted;
pub mod ifrule;
pub mod json;
mod loader;
pub mod matcher;
pub mod merge;
pub mod output;
pub mod payload;
pub mod runner;
mod select;

use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde_json::Value;

pub use crate::host::matcher::Dialect;
pub use audit::AuditRecord;
pub use config::{ConfigError, ConfiguredHook, HookId, Origin, Registry};
pub use diagnostic::{DiagCode, Diagnostic, Severity};
pub use loader::RegistryBuilder;
pub use merge::{Conflict, HookError, HostOutcome, merge};
pub use output::{DecodeCtx, HookDecision, HookOutput, OutputStatus, StopRequest};
pub use payload::Payload;
pub use runner::{DEFAULT_OUTPUT_CAP, RawRun, RunRequest};
pub use select::subjects;

use crate::model::Event;

/// Why an event could not be hosted (hook failures never end up here).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HostError {
    /// The event has no counterpart in the dialect.
    #[error("{event} ({kind}) has no {dialect} hook event")]
    UnmappedEvent {
        /// Target dialect.
        dialect: Dialect,
        /// The event's native name.
        event: String,
        /// Its unified kind.
        kind: &'static str,
    },
    /// The payload could not be serialized.
    #[error("cannot build the hook payload: {message}")]
    Payload {
        /// Why.
        message: String,
    },
}

impl HostError {
    /// Stable snake_case id.
    pub fn code(&self) -> &'static str {
        match self {
            HostError::UnmappedEvent { .. } => "unmapped_event",
            HostError::Payload { .. } => "payload",
        }
    }
}

/// How hooks are run.
#[derive(Debug, Clone)]
pub struct HostOptions {
    /// Working directory of the hooks (default: the event's `cwd`, else
    /// this process's). Claude Code: when it does not exist, the project
    /// dir, this process's directory or `$HOME` instead (`cwd_missing`).
    pub cwd: Option<PathBuf>,
    /// `CLAUDE_PROJECT_DIR`: the session's project root (default: this
    /// process's working directory). It does not follow the payload's
    /// `cwd`, exactly as in Claude Code.
    pub project_dir: Option<PathBuf>,
    /// Extra variables, set last.
    pub env: Vec<(String, String)>,
    /// `CLAUDE_ENV_FILE` for SessionStart, Setup, CwdChanged, FileChanged.
    pub env_file: Option<PathBuf>,
    /// Cap on each captured stream.
    pub output_cap: usize,
    /// Timeout for hooks without one (default: the agent's per event).
    pub default_timeout: Option<Duration>,
    /// Run the hooks of an event in parallel (as the agents do).
    pub parallel: bool,
}

impl Default for HostOptions {
    fn default() -> Self {
        HostOptions {
            cwd: None,
            project_dir: None,
            env: Vec::new(),
            env_file: None,
            output_cap: DEFAULT_OUTPUT_CAP,
            default_timeout: None,
            parallel: true,
        }
    }
}

/// One selected hook, ready to run.
#[derive(Debug, Clone)]
pub struct PlannedHook<'r> {
    /// The configured hook.
    pub hook: &'r ConfiguredHook,
    /// The process to start.
    pub request: RunRequest,
}

/// What will run for an event.
#[derive(Debug, Clone)]
pub struct Plan<'r> {
    /// Dialect.
    pub dialect: Dialect,
    /// The stdin payload and native event.
    pub payload: Payload,
    /// Matcher subjects (tool name and aliases, source, ...).
    pub subjects: Vec<String>,
    /// Selected hooks in configuration order.
    pub hooks: Vec<PlannedHook<'r>>,
    /// Problems found while planning (`matcher_undecided`, `cwd_missing`).
    pub diagnostics: Vec<Diagnostic>,
}

/// One hook's run and answer.
#[derive(Debug, Clone, Serialize)]
pub struct HookReport {
    /// Identity.
    pub id: HookId,
    /// Command line as configured.
    pub command: String,
    /// What the process did.
    pub run: RawRun,
    /// How the agent reads it.
    pub output: HookOutput,
}

/// Everything about hosting one event.
#[derive(Debug, Clone, Serialize)]
pub struct HostReport {
    /// Dialect.
    pub dialect: Dialect,
    /// Native event name.
    pub event: String,
    /// Matcher subjects.
    pub subjects: Vec<String>,
    /// Each selected hook, in configuration order.
    pub hooks: Vec<HookReport>,
    /// The merged verdict.
    pub outcome: HostOutcome,
    /// `invoked`/`result` records, two per hook.
    pub audit: Vec<AuditRecord>,
    /// Problems found while planning (`matcher_undecided`, `cwd_missing`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
}

/// Selects the hooks of `event` and prepares their processes.
pub fn plan<'r>(
    registry: &'r Registry,
    event: &Event,
    opts: &HostOptions,
) -> Result<Plan<'r>, HostError> {
    let dialect = registry.dialect();
    let payload = payload::build(dialect, event)?;
    let native = payload.native_event.as_str();
    let subjects = select::subjects(dialect, native, &payload.object);
    let spec = events::spec(dialect, native);
    let str_field = |k: &str| payload.object.get(k).and_then(Value::as_str);
    let mut cwd = opts.cwd.clone().or_else(|| {
        str_field("cwd")
            .filter(|c| !c.is_empty())
            .map(PathBuf::from)
    });
    // The session root, as the agents' CLAUDE_PROJECT_DIR: never the
    // payload's `cwd`, which follows the agent's `cd`.
    let project = opts
        .project_dir
        .clone()
        .or_else(|| std::env::current_dir().ok());
    let (selected, mut diagnostics) = registry.select_reporting(native, &payload.object);
    // Claude Code 2.1.328 runs hooks from its launch directory, the project
    // root or the home directory when the working directory no longer
    // exists (with a warning); Codex fails the hook (the runner names the
    // directory).
    if dialect == Dialect::ClaudeCode {
        if let Some(missing) = cwd.clone().filter(|c| !c.is_dir()) {
            let home = std::env::var_os("HOME").map(PathBuf::from);
            let instead = [project.clone(), std::env::current_dir().ok(), home]
                .into_iter()
                .flatten()
                .find(|p| p.is_dir());
            if let Some(instead) = instead {
                diagnostics.push(Diagnostic::new(
                    dialect,
                    DiagCode::CwdMissing,
                    format!(
                        "working directory {} no longer exists; running hooks from {} instead",
                        missing.display(),
                        instead.display()
                    ),
                ));
                cwd = Some(instead);
            }
        }
    }
    let hooks = selected
        .into_iter()
        .map(|hook| {
            let secs = hook
                .timeout_s
                .or(opts.default_timeout.map(|d| d.as_secs_f64()))
                .or(spec.map(|s| s.default_timeout_s))
                .unwrap_or(600.0);
            let secs = spec
                .and_then(|s| s.max_timeout_s)
                .map_or(secs, |m| secs.min(m));
            let timeout = Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX);
            let (argv, env, env_remove) = process(dialect, hook, &payload, project.as_ref(), opts);
            PlannedHook {
                hook,
                request: RunRequest {
                    argv,
                    stdin: payload.bytes.clone(),
                    env,
                    env_remove,
                    cwd: cwd.clone(),
                    timeout,
                    cap: opts.output_cap,
                    exit_grace: match dialect {
                        Dialect::ClaudeCode => Some(runner::ExitGrace::CLAUDE_CODE),
                        Dialect::Codex => None,
                    },
                },
            }
        })
        .collect();
    Ok(Plan {
        dialect,
        payload,
        subjects,
        hooks,
        diagnostics,
    })
}

/// Decodes and merges the runs of a plan (one per planned hook, in order).
/// Decodes one run of a hook on a native event (the dialect's reader,
/// then what an `async` handler cannot do is dropped).
pub fn decode(dialect: Dialect, native: &str, run: &RawRun, ctx: &DecodeCtx) -> HookOutput {
    let mut out = match dialect {
        Dialect::ClaudeCode => decode_claude::decode(native, run, ctx),
        Dialect::Codex => decode_codex::decode(native, run, ctx),
    };
    if ctx.is_async {
        out.decision = None;
        out.reason = None;
        out.stop = None;
        out.updated_input = None;
        out.updated_tool_output = None;
        out.updated_permissions = None;
        out.interrupt = false;
    }
    out
}

/// Fixtures call this with simulated runs.
pub fn finish(plan: &Plan, runs: &[RawRun], started_at_ms: u64) -> HostReport {
    let native = plan.payload.native_event.as_str();
    let tool_name = plan.payload.object.get("tool_name").and_then(Value::as_str);
    let mut hooks = Vec::with_capacity(plan.hooks.len());
    let mut audit = Vec::with_capacity(plan.hooks.len() * 2);
    for (p, run) in plan.hooks.iter().zip(runs) {
        let ctx = DecodeCtx {
            tool_name,
            is_async: p.hook.is_async,
            on_failure_block: p.hook.on_failure_block,
        };
        let output = decode(plan.dialect, native, run, &ctx);
        audit.extend(audit::records(
            &p.hook.id,
            &p.hook.command,
            started_at_ms,
            run,
            &output,
        ));
        hooks.push(HookReport {
            id: p.hook.id.clone(),
            command: p.hook.command.clone(),
            run: run.clone(),
            output,
        });
    }
    let outputs: Vec<HookOutput> = hooks.iter().map(|h| h.output.clone()).collect();
    HostReport {
        dialect: plan.dialect,
        event: native.to_string(),
        subjects: plan.subjects.clone(),
        hooks,
        outcome: merge::merge(&outputs),
        audit,
        diagnostics: plan.diagnostics.clone(),
    }
}

/// Runs the hooks of `event` and returns the merged verdict and the audit
/// records. Hook failures (spawn errors, timeouts, bad output) are part of
/// the report, never an `Err`.
pub fn run_event(
    registry: &Registry,
    event: &Event,
    opts: &HostOptions,
) -> Result<HostReport, HostError> {
    let plan = plan(registry, event, opts)?;
    let started = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let reqs: Vec<RunRequest> = plan.hooks.iter().map(|p| p.request.clone()).collect();
    let runs = if opts.parallel {
        runner::run_all(&reqs)
    } else {
        reqs.iter().map(runner::run).collect()
    };
    Ok(finish(&plan, &runs, started))
}

type Env = Vec<(String, String)>;

/// argv, environment and removed variables of one hook.
fn process(
    dialect: Dialect,
    hook: &ConfiguredHook,
    payload: &Payload,
    project: Option<&PathBuf>,
    opts: &HostOptions,
) -> (Vec<String>, Env, Vec<String>) {
    let mut env: Env = Vec::new();
    let mut remove = Vec::new();
    let str_field = |k: &str| payload.object.get(k).and_then(Value::as_str);
    let plugin = match &hook.origin {
        Origin::Plugin { root, data } => Some((root, data)),
        Origin::Config => None,
    };
    let argv = match dialect {
        Dialect::ClaudeCode => {
            let proj = project.map(|p| p.to_string_lossy().into_owned());
            // Exec form (no shell): `${CLAUDE_PROJECT_DIR}` is substituted as
            // plain text, as Claude Code does. Shell form: the text stays and
            // the shell expands the variable from the environment, so a
            // project path is never read as shell code.
            let sub = |s: &str| match &proj {
                Some(p) => s.replace("${CLAUDE_PROJECT_DIR}", p),
                None => s.to_string(),
            };
            if let Some(p) = &proj {
                env.push(("CLAUDE_PROJECT_DIR".into(), p.clone()));
            }
            env.push(("CLAUDECODE".into(), "1".into()));
            env.push(("CLAUDE_CODE_CHILD_SESSION".into(), "1".into()));
            if let Some(id) = str_field("session_id") {
                env.push(("CLAUDE_CODE_SESSION_ID".into(), id.into()));
            }
            env.push(("CLAUDE_PID".into(), std::process::id().to_string()));
            let effort = payload.object.get("effort").and_then(|e| e.get("level"));
            if let Some(level) = effort.and_then(Value::as_str) {
                env.push(("CLAUDE_EFFORT".into(), level.into()));
            }
            let env_file_events = ["SessionStart", "Setup", "CwdChanged", "FileChanged"];
            if let Some(f) = &opts.env_file {
                if env_file_events.contains(&payload.native_event.as_str()) {
                    env.push(("CLAUDE_ENV_FILE".into(), f.to_string_lossy().into_owned()));
                }
            }
            remove.extend(
                std::env::vars_os()
                    .filter_map(|(k, _)| k.into_string().ok())
                    .filter(|k| k.starts_with("OTEL_")),
            );
            let command = hook.command.clone();
            match (&hook.args, hook.shell.as_deref()) {
                (Some(args), _) => std::iter::once(sub(&command))
                    .chain(args.iter().map(|a| sub(a)))
                    .collect(),
                (None, Some("powershell")) => {
                    // PowerShell reads `${NAME}` as its own variable: the
                    // placeholders become environment reads, as in Claude.
                    let command = [
                        "CLAUDE_PROJECT_DIR",
                        "CLAUDE_PLUGIN_ROOT",
                        "CLAUDE_PLUGIN_DATA",
                    ]
                    .iter()
                    .fold(command, |c, n| {
                        c.replace(&format!("${{{n}}}"), &format!("${{env:{n}}}"))
                    });
                    vec![
                        "pwsh".into(),
                        "-NoProfile".into(),
                        "-Command".into(),
                        command,
                    ]
                }
                (None, Some("bash")) => vec!["bash".into(), "-c".into(), command],
                (None, _) if cfg!(windows) => vec!["bash".into(), "-c".into(), command],
                (None, _) => vec!["sh".into(), "-c".into(), command],
            }
        }
        Dialect::Codex => {
            let from_opts = |k: &str| {
                opts.env
                    .iter()
                    .rev()
                    .find(|(n, _)| n == k)
                    .map(|(_, v)| v.clone())
            };
            if cfg!(windows) {
                let comspec = from_opts("COMSPEC")
                    .or_else(|| std::env::var("COMSPEC").ok())
                    .unwrap_or_else(|| "cmd.exe".into());
                vec![comspec, "/C".into(), hook.command.clone()]
            } else {
                let shell = from_opts("SHELL")
                    .or_else(|| std::env::var("SHELL").ok())
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| "/bin/sh".into());
                vec![shell, "-lc".into(), hook.command.clone()]
            }
        }
    };
    if let Some((root, data)) = plugin {
        let root = root.to_string_lossy().into_owned();
        let data = data.as_ref().map(|d| d.to_string_lossy().into_owned());
        env.push(("CLAUDE_PLUGIN_ROOT".into(), root.clone()));
        if let Some(d) = &data {
            env.push(("CLAUDE_PLUGIN_DATA".into(), d.clone()));
        }
        if dialect == Dialect::Codex {
            env.push(("PLUGIN_ROOT".into(), root));
            if let Some(d) = data {
                env.push(("PLUGIN_DATA".into(), d));
            }
        }
    }
    env.extend(opts.env.iter().cloned());
    (argv, env, remove)
}
