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
    let manifest = match Manifest::load(&a.manifest) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("agenthooks: {e}");
            return ExitCode::from(1);
        }
    };
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
