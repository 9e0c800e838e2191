//! `agenthooks install`, `uninstall` and `doctor`: argument parsing and
//! printing; the work is in `agenthooks::install`.

use std::path::PathBuf;
use std::process::ExitCode;

use agenthooks::Provider;
use agenthooks::install::{self, Action, InstallError, Manifest, Plan, Scope, Target, doctor};
use clap::Args;

/// Arguments of `install` and `uninstall`.
#[derive(Args, Clone, Debug)]
pub struct InstallArgs {
    /// Agent id or alias, several separated by commas, or `all`.
    #[arg(long, alias = "provider")]
    agent: String,
    /// user, project or local (Claude Code's settings.local.json).
    #[arg(long, default_value = "project")]
    scope: String,
    /// The manifest: hooks.toml or hooks.json (see docs/install.md).
    #[arg(long)]
    manifest: PathBuf,
    /// Project directory (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Home directory (default: $HOME).
    #[arg(long)]
    home: Option<PathBuf>,
    /// Show the diff and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Also write files that are read-only, have other hard links, or
    /// belong to another user (refused otherwise, naming the file).
    #[arg(long)]
    force: bool,
    /// Cursor: the event names the target build knows (comma-separated);
    /// hooks on other events are skipped rather than written.
    #[arg(long, value_delimiter = ',')]
    cursor_events: Option<Vec<String>>,
    /// Write `--log` into each hook command: every invocation goes to the
    /// audit log (`agenthooks log`, doctor's "never fired"); `--log=payloads`
    /// logs payloads too, secrets redacted. Overrides the manifest's `log`.
    #[arg(long, num_args = 0..=1, default_missing_value = "on", require_equals = true)]
    log: Option<String>,
}

/// Arguments of `doctor`.
#[derive(Args, Clone, Debug)]
pub struct DoctorArgs {
    /// Project directory (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Home directory (default: $HOME).
    #[arg(long)]
    home: Option<PathBuf>,
    /// Only list; do not run our hooks with a sample payload.
    #[arg(long)]
    no_run: bool,
    /// Also run the hooks `install` recorded in project files (each is
    /// named on stderr before it runs). Hooks `install` did not record
    /// are never run.
    #[arg(long)]
    probe_project: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `restore`.
#[derive(Args, Clone, Debug)]
pub struct RestoreArgs {
    /// The config file to put its previous version back into (the
    /// version replaced becomes the backup). Without it, list backups.
    file: Option<PathBuf>,
    /// Also write a file that is read-only, hard-linked or another user's.
    #[arg(long)]
    force: bool,
    /// List as JSON.
    #[arg(long)]
    json: bool,
}

fn agents(spec: &str) -> Result<Vec<Provider>, String> {
    if spec == "all" {
        return Ok(Provider::ALL.to_vec());
    }
    spec.split(',')
        .map(|s| Provider::parse(s.trim()).map_err(|e| e.to_string()))
        .collect()
}

fn print_plan(p: &Plan, dry_run: bool, action: Action) {
    let verb = match (action, dry_run) {
        (Action::Install, false) => "installed",
        (Action::Install, true) => "would install",
        (Action::Uninstall, false) => "uninstalled",
        (Action::Uninstall, true) => "would uninstall",
    };
    if p.is_noop() {
        println!("{} ({}): unchanged", p.agent.id(), p.scope.as_str());
    } else {
        for c in &p.changes {
            let what = match (&c.before, &c.after) {
                (None, Some(_)) => "create",
                (Some(_), None) => "remove",
                _ => "update",
            };
            println!(
                "{} ({}): {verb}: {what} {}",
                p.agent.id(),
                p.scope.as_str(),
                c.path.display()
            );
        }
        if dry_run {
            print!("{}", p.diff());
        }
    }
    for n in &p.notes {
        println!("  note: {n}");
    }
}

/// Runs `install` (`action` Install) or `uninstall`.
pub fn install_cmd(a: &InstallArgs, action: Action) -> ExitCode {
    let list = match agents(&a.agent) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("agenthooks: {e}");
            return ExitCode::from(2);
        }
    };
    let scope = match Scope::parse(&a.scope) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("agenthooks: {e}");
            return ExitCode::from(2);
        }
    };
    let mut manifest = match Manifest::load(&a.manifest) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("agenthooks: {e}");
            return ExitCode::from(1);
        }
    };
    if let Some(l) = &a.log {
        manifest.log = Some(install::LogSetting::Mode(l.clone()));
        if let Err(e) = manifest.validate() {
            eprintln!("agenthooks: --log: {e}");
            return ExitCode::from(2);
        }
    }
    if action == Action::Install {
        for w in manifest.warnings(std::env::var_os("PATH").as_deref()) {
            eprintln!("agenthooks: warning: {w}");
        }
    }
    let all = a.agent == "all";
    let mut failed = false;
    for agent in list {
        let mut t = Target::from_env(agent, scope);
        if let Some(p) = &a.project {
            t.project = p.clone();
        }
        if let Some(h) = &a.home {
            t.home = h.clone();
        }
        t.cursor_events = a.cursor_events.clone();
        t.force = a.force;
        let r = if a.dry_run {
            install::plan(&manifest, &t, action)
        } else {
            install::apply(&manifest, &t, action)
        };
        match r {
            Ok(p) => print_plan(&p, a.dry_run, action),
            Err(InstallError::Unsupported { agent, message }) if all => {
                println!("{agent} ({}): skipped: {message}", scope.as_str());
            }
            // `--agent all`: the agent already gets the hook from a file
            // an earlier agent's install wrote (Cursor and Copilot CLI
            // read .claude/settings.json).
            Err(InstallError::DoubleWired { agent, message }) if all => {
                println!("{agent} ({}): skipped: {message}", scope.as_str());
            }
            Err(e) => {
                eprintln!("agenthooks: {}: {e}", agent.id());
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs `doctor`.
pub fn doctor_cmd(a: &DoctorArgs) -> ExitCode {
    let mut t = Target::from_env(Provider::ClaudeCode, Scope::User);
    if let Some(p) = &a.project {
        t.project = p.clone();
    }
    if let Some(h) = &a.home {
        t.home = h.clone();
    }
    let opts = doctor::Options {
        run: !a.no_run,
        probe_project: a.probe_project,
    };
    let reports = doctor::report_with(&t.home, &t.project, &t.env, opts, &mut |e| {
        eprintln!(
            "agenthooks doctor: running {} from {}: {}",
            e.hook_id.as_deref().unwrap_or(""),
            e.file.display(),
            e.command
        );
    });
    let mut reports = reports;
    let lines = read_log();
    doctor::assess_liveness(&mut reports, &lines, &t.env, std::time::SystemTime::now());
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&reports).unwrap_or_default()
        );
    } else {
        print!("{}", doctor::text(&reports));
    }
    let bad = reports.iter().any(|r| r.probes.iter().any(|p| !p.ok));
    if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The audit log's lines (none when it cannot be read: a warning).
pub fn read_log() -> Vec<agenthooks::audit::Entry> {
    let dir = match agenthooks::audit::dir(None) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("agenthooks: warning: audit log: {e}");
            return Vec::new();
        }
    };
    agenthooks::audit::read_all(&dir).unwrap_or_else(|e| {
        eprintln!("agenthooks: warning: audit log: {e}");
        Vec::new()
    })
}

/// Arguments of `log`.
#[derive(Args, Clone, Debug)]
pub struct LogArgs {
    /// Print JSON (`{"invocations": [...], "hooks": [...]}`).
    #[arg(long)]
    json: bool,
    /// How many of the last invocations to show.
    #[arg(long, default_value_t = 20)]
    last: usize,
    /// Only this agent (id or alias).
    #[arg(long, alias = "provider")]
    agent: Option<String>,
    /// Project directory whose hook files count as installed (default:
    /// the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Home directory (default: $HOME).
    #[arg(long)]
    home: Option<PathBuf>,
}

/// Runs `log`: the last invocations, and per installed hook when it last
/// fired.
pub fn log_cmd(a: &LogArgs) -> ExitCode {
    let agent = match a.agent.as_deref().map(Provider::parse).transpose() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("agenthooks: {e}");
            return ExitCode::from(2);
        }
    };
    let mut t = Target::from_env(Provider::ClaudeCode, Scope::User);
    if let Some(p) = &a.project {
        t.project = p.clone();
    }
    if let Some(h) = &a.home {
        t.home = h.clone();
    }
    let lines = read_log();
    let opts = doctor::Options {
        run: false,
        probe_project: false,
    };
    let mut reports = doctor::report_with(&t.home, &t.project, &t.env, opts, &mut |_| {});
    doctor::assess_liveness(&mut reports, &lines, &t.env, std::time::SystemTime::now());
    // A hook wired in a file several agents read counts for each.
    let hooks: Vec<&install::liveness::Liveness> = reports
        .iter()
        .filter(|r| agent.is_none_or(|p| r.agent == p.id()))
        .flat_map(|r| r.liveness.iter())
        .collect();
    // Lines carry the dialect (`--provider`) that decoded them.
    let shown: Vec<&agenthooks::audit::Entry> = lines
        .iter()
        .filter(|l| agent.is_none_or(|p| l.agent == p.id()))
        .collect();
    let shown = &shown[shown.len().saturating_sub(a.last)..];
    if a.json {
        let v = serde_json::json!({ "invocations": shown, "hooks": hooks });
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    let now = std::time::SystemTime::now();
    let logging_env = agenthooks::audit::LogMode::current(None).is_on();
    if lines.is_empty() {
        println!("no invocations logged");
        if !logging_env && !hooks.iter().any(|h| h.status != "logging_off") {
            println!("{}", install::liveness::HOW_TO_ENABLE);
        }
    } else {
        println!("last {} invocation(s):", shown.len());
        for l in shown {
            println!(
                "  {}  {:<12} {:<22} {:<18} {:<12} exit {}{}{} {} us",
                l.ts,
                l.agent,
                l.event,
                l.hook_id.as_deref().unwrap_or("-"),
                l.decision,
                l.exit,
                l.error
                    .as_deref()
                    .map(|e| format!(" error {e}"))
                    .unwrap_or_default(),
                if l.notes.is_empty() {
                    String::new()
                } else {
                    format!(" notes {}", l.notes.join(","))
                },
                l.latency_us
            );
        }
    }
    if !hooks.is_empty() {
        println!("installed hooks:");
        for h in &hooks {
            let state = match h.status {
                "never_fired" => "NEVER FIRED".to_string(),
                "stopped_firing" => format!(
                    "STOPPED FIRING, last fired {}",
                    h.last_fired
                        .as_deref()
                        .map(|t| install::liveness::ago(t, now))
                        .unwrap_or_default()
                ),
                "fired" => format!(
                    "last fired {} ({}x)",
                    h.last_fired
                        .as_deref()
                        .map(|t| install::liveness::ago(t, now))
                        .unwrap_or_default(),
                    h.fired
                ),
                _ => "logging off".to_string(),
            };
            println!(
                "  {:<12} {:<22} {:<18} {state} [{}]",
                h.agent,
                h.event,
                h.hook_id,
                h.file.display()
            );
            if let Some(c) = &h.cause {
                println!("               likely cause: {c}");
            }
        }
    }
    ExitCode::SUCCESS
}

/// Runs `restore`.
pub fn restore_cmd(a: &RestoreArgs) -> ExitCode {
    let Some(file) = &a.file else {
        return match install::fsio::backups() {
            Ok(list) => {
                if a.json {
                    println!(
                        "{}",
                        serde_json::to_string_pretty(&list).unwrap_or_default()
                    );
                } else if list.is_empty() {
                    println!("no backups");
                } else {
                    for b in list {
                        println!("{} <- {}", b.path.display(), b.backup.display());
                    }
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("agenthooks: {e}");
                ExitCode::from(1)
            }
        };
    };
    match install::fsio::restore(file, a.force) {
        Ok(b) => {
            println!("restored {} from {}", file.display(), b.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("agenthooks: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_lists() {
        assert_eq!(agents("all").unwrap().len(), 8);
        assert_eq!(
            agents("claude, codex").unwrap(),
            vec![Provider::ClaudeCode, Provider::Codex]
        );
        assert!(agents("nope").is_err());
    }
}
