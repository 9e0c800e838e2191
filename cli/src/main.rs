//! The `agenthooks` command: argument parsing only; the core does the work.

mod exec;
mod host;

use agenthooks::runtime::read_limited;
use agenthooks::{Decision, DecodeOptions, Error, Event, Policy, Provider, Response};
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

mod install;

#[derive(Parser)]
#[command(
    name = "agenthooks",
    version,
    about = "Write a coding-agent hook once, run it on every agent."
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Args, Clone)]
struct Common {
    /// Agent id or alias (claude-code, codex, ...).
    #[arg(long, alias = "agent", alias = "dialect")]
    provider: String,
    /// Variant (cli, ide, cloud, ...).
    #[arg(long)]
    variant: Option<String>,
    /// Native event name, for payloads that do not carry one.
    #[arg(long)]
    event: Option<String>,
    /// Maximum payload size in bytes.
    #[arg(long, default_value_t = agenthooks::dialect::DEFAULT_MAX_BYTES)]
    max_bytes: usize,
}

#[derive(Subcommand)]
enum Cmd {
    /// Payload on stdin -> canonical event JSON on stdout.
    Decode(Common),
    /// Payload on stdin + a decision -> exactly the agent's stdout/stderr/exit code.
    Respond {
        #[command(flatten)]
        common: Common,
        /// Decision JSON, e.g. '{"kind":"deny","reason":"no"}'.
        #[arg(long)]
        decision: String,
        /// Policy JSON (partial; defaults fill the rest).
        #[arg(long)]
        policy: Option<String>,
        /// Print the response (stdout, stderr, exit_code, notes) as JSON instead of acting it out.
        #[arg(long)]
        json: bool,
    },
    /// Universal adapter: runs CMD with the canonical event JSON on stdin and
    /// reads a decision JSON from its stdout (the run entry's rules: dedupe,
    /// --match, the stop-loop guard).
    Exec(exec::ExecArgs),
    /// Host side: run the hooks of a Claude Code or Codex configuration.
    #[command(subcommand)]
    Host(host::HostCmd),
    /// The registry of known agent quirks (table, or JSON with --json).
    Quirks {
        /// Only this agent.
        #[arg(long, alias = "agent")]
        provider: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// What each agent can express, per native event (JSON).
    Capabilities {
        /// Only this agent.
        #[arg(long, alias = "agent")]
        provider: Option<String>,
        /// Only this native event.
        #[arg(long)]
        event: Option<String>,
    },
    /// Install hooks from a manifest into agent configs (merging, never replacing).
    Install(install::InstallArgs),
    /// Remove exactly the manifest's hooks from agent configs.
    Uninstall(install::InstallArgs),
    /// What is installed where, wired twice, and does it answer.
    Doctor(install::DoctorArgs),
    /// List the backups install kept, or put one back.
    Restore(install::RestoreArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Decode(c) => decode_cmd(&c),
        Cmd::Respond {
            common,
            decision,
            policy,
            json,
        } => respond_cmd(&common, &decision, policy.as_deref(), json),
        Cmd::Exec(a) => exec::exec_cmd(&a),
        Cmd::Host(h) => host::main(h),
        Cmd::Quirks { provider, json } => quirks_cmd(provider.as_deref(), json),
        Cmd::Capabilities { provider, event } => {
            capabilities_cmd(provider.as_deref(), event.as_deref())
        }
        Cmd::Install(a) => install::install_cmd(&a, agenthooks::install::Action::Install),
        Cmd::Uninstall(a) => install::install_cmd(&a, agenthooks::install::Action::Uninstall),
        Cmd::Doctor(a) => install::doctor_cmd(&a),
        Cmd::Restore(a) => install::restore_cmd(&a),
    }
}

fn fatal(e: &Error) -> ExitCode {
    eprintln!("agenthooks: {}: {e}", e.code());
    ExitCode::from(1)
}

fn opts(c: &Common) -> DecodeOptions {
    DecodeOptions {
        variant: c.variant.clone(),
        event: c.event.clone(),
        max_bytes: c.max_bytes,
        ..DecodeOptions::default()
    }
}

/// Reads and decodes the payload; on failure returns the fail policy's
/// answer for it (which peeks at the bytes, e.g. for stop events).
fn read_event(
    c: &Common,
    provider: Provider,
    policy: &Policy,
) -> Result<Event, Box<(Error, Response)>> {
    let bytes = match read_limited(std::io::stdin().lock(), c.max_bytes) {
        Ok(b) => b,
        Err(e) => {
            let r = agenthooks::fail_response(provider, None, &e, policy);
            return Err(Box::new((e, r)));
        }
    };
    agenthooks::dialect::decode_vec(provider, bytes, &opts(c)).map_err(|(e, bytes)| {
        let r = agenthooks::dialect::fail_response_for_payload(provider, &bytes, &e, policy);
        Box::new((e, r))
    })
}

fn decode_cmd(c: &Common) -> ExitCode {
    let provider = match Provider::parse(&c.provider) {
        Ok(p) => p,
        Err(e) => return fatal(&e),
    };
    match read_event(c, provider, &Policy::default()) {
        Ok(ev) => {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(ev.to_json().as_bytes());
            let _ = out.write_all(b"\n");
            ExitCode::SUCCESS
        }
        Err(b) => fatal(&b.0),
    }
}

fn emit(resp: &Response, as_json: bool) -> ExitCode {
    if as_json {
        say(&resp.to_json());
        return ExitCode::SUCCESS;
    }
    let _ = std::io::stderr().write_all(resp.stderr.as_bytes());
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(resp.stdout.as_bytes());
    let _ = out.flush();
    ExitCode::from(resp.exit_code.clamp(0, 255) as u8)
}

fn respond_cmd(c: &Common, decision: &str, policy: Option<&str>, as_json: bool) -> ExitCode {
    let provider = match Provider::parse(&c.provider) {
        Ok(p) => p,
        Err(e) => return fatal(&e),
    };
    let policy = match policy.map(Policy::from_json).transpose() {
        Ok(p) => p.unwrap_or_default(),
        Err(e) => return fatal(&e),
    };
    let ev = match read_event(c, provider, &policy) {
        Ok(ev) => ev,
        Err(b) => return emit(&b.1, as_json),
    };
    let resp = Decision::from_json(decision)
        .and_then(|d| agenthooks::respond(&ev, &d, &policy))
        .unwrap_or_else(|e| agenthooks::fail_response(provider, Some(&ev), &e, &policy));
    emit(&resp, as_json)
}

fn capabilities_cmd(provider: Option<&str>, event: Option<&str>) -> ExitCode {
    let providers: Vec<Provider> = match provider {
        Some(p) => match Provider::parse(p) {
            Ok(p) => vec![p],
            Err(e) => return fatal(&e),
        },
        None => Provider::ALL.to_vec(),
    };
    let mut out = serde_json::Map::new();
    for p in providers {
        let rows: Vec<serde_json::Value> = agenthooks::native_events(p)
            .iter()
            .filter(|n| event.is_none_or(|e| e == **n))
            .map(|n| serde_json::to_value(agenthooks::capability_of(p, n)).unwrap_or_default())
            .collect();
        out.insert(p.id().to_string(), serde_json::Value::Array(rows));
    }
    say(&serde_json::to_string_pretty(&serde_json::Value::Object(out)).unwrap_or_default());
    ExitCode::SUCCESS
}

fn quirks_cmd(provider: Option<&str>, json: bool) -> ExitCode {
    let list: Vec<&agenthooks::quirks::Quirk> = match provider {
        Some(p) => match Provider::parse(p) {
            Ok(p) => agenthooks::quirks::for_provider(p),
            Err(e) => return fatal(&e),
        },
        None => agenthooks::quirks::all().iter().collect(),
    };
    if json {
        say(&serde_json::to_string_pretty(&list).unwrap_or_default());
    } else {
        for q in list {
            say(&format!("{:<14} {:<22} {}", q.id, q.event, q.behaviour));
            say(&format!("{:<14} {:<22} -> {}", "", "", q.mitigation));
        }
    }
    ExitCode::SUCCESS
}

/// Writes a line to stdout, ignoring a closed pipe (`| head`): a CLI
/// must not panic on it.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(line.as_bytes());
    let _ = out.write_all(b"\n");
}
