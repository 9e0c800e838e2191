//! The `agenthooks` command: argument parsing only; the core does the work.

mod context;
mod exec;
mod host;

use agenthooks::runtime::read_limited;
use agenthooks::{Decision, DecodeOptions, Error, Event, Policy, Provider, Response};
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

mod install;
mod sample;
mod schema;
mod simulate;

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
    /// What each agent can express, per native event (JSON), or the
    /// support matrix (--table).
    Capabilities {
        /// Only this agent.
        #[arg(long, alias = "agent")]
        provider: Option<String>,
        /// Only this native event (of --provider, or of any agent).
        #[arg(long)]
        event: Option<String>,
        /// Print the support matrix (agent x action, Markdown) instead.
        #[arg(long, conflicts_with_all = ["provider", "event"])]
        table: bool,
        /// Print the session-mode table instead (per agent: the signals
        /// that tell interactive from headless, what a headless `ask` does
        /// natively, what agenthooks does), as JSON.
        #[arg(long, conflicts_with_all = ["event", "table"])]
        modes: bool,
    },
    /// Install hooks from a manifest into agent configs (merging, never replacing).
    Install(install::InstallArgs),
    /// Remove exactly the manifest's hooks from agent configs.
    Uninstall(install::InstallArgs),
    /// What is installed where, wired twice, and does it answer.
    Doctor(install::DoctorArgs),
    /// The last hook invocations (opt-in audit log: AGENTHOOKS_LOG=1 or
    /// `install --log`) and, per installed hook, when it last fired.
    Log(install::LogArgs),
    /// List the backups install kept, or put one back.
    Restore(install::RestoreArgs),
    /// Print a sample payload of an agent (to try a hook with).
    Sample(sample::SampleArgs),
    /// Run a hook the way each agent would and show what each agent does
    /// with its answer (table, or JSON with --json).
    Simulate(simulate::SimulateArgs),
    /// Payload on stdin -> the transport of the MCP server its tool call
    /// names, from the agent's own MCP configuration (`{"transport": ...}`).
    McpTransport(Common),
    /// Print a transcript file's entries, one JSON object a line.
    Transcript(context::TranscriptArgs),
    /// Print a JSON Schema: an agent's payload (or, --output, answer) on
    /// one native event, a canonical schema, or the index.
    Schema(schema::SchemaArgs),
    /// Payload fields hooks saw that the schemas do not know (per agent,
    /// version and event; names and types only).
    Drift(schema::DriftArgs),
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
        Cmd::Capabilities {
            provider,
            event,
            table,
            modes,
        } => {
            if modes {
                modes_cmd(provider.as_deref())
            } else if table {
                say(agenthooks::matrix::markdown().trim_end());
                ExitCode::SUCCESS
            } else {
                capabilities_cmd(provider.as_deref(), event.as_deref())
            }
        }
        Cmd::Install(a) => install::install_cmd(&a, agenthooks::install::Action::Install),
        Cmd::Uninstall(a) => install::install_cmd(&a, agenthooks::install::Action::Uninstall),
        Cmd::Doctor(a) => install::doctor_cmd(&a),
        Cmd::Log(a) => install::log_cmd(&a),
        Cmd::Restore(a) => install::restore_cmd(&a),
        Cmd::Sample(a) => sample::sample_cmd(&a),
        Cmd::Simulate(a) => simulate::simulate_cmd(&a),
        Cmd::McpTransport(c) => context::mcp_transport_cmd(&c),
        Cmd::Transcript(a) => context::transcript_cmd(&a),
        Cmd::Schema(a) => schema::schema_cmd(&a),
        Cmd::Drift(a) => schema::drift_cmd(&a),
    }
}

/// A CLI error: one line on stderr (the message, then its stable code)
/// and exit code 1.
fn fatal(e: &Error) -> ExitCode {
    eprintln!("agenthooks: error: {e} ({})", e.code());
    ExitCode::from(1)
}

/// Warns (stderr only) when the payload decoded to an event the provider
/// does not document: usually a payload of another agent, or a wrong
/// `--provider`.
fn warn_unrecognised(ev: &Event) {
    if let Some(w) = agenthooks::runtime::unrecognised_event(ev) {
        let _ = std::io::stderr().write_all(w.as_bytes());
    }
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
            warn_unrecognised(&ev);
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
    // As a hook process writes it: the notes too, where that is safe
    // (AGENTHOOKS_NOTES).
    let resp = &agenthooks::runtime::with_notes_on_stderr(resp.clone());
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
    // A bad --decision is the caller's mistake, found before stdin is read.
    let decision = match Decision::from_json(decision) {
        Ok(d) => d,
        Err(e) => return fatal(&e),
    };
    let ev = match read_event(c, provider, &policy) {
        Ok(ev) => ev,
        Err(b) => return emit(&b.1, as_json),
    };
    warn_unrecognised(&ev);
    match agenthooks::respond(&ev, &decision, &policy) {
        Ok(resp) => emit(&resp, as_json),
        // Fail-closed still blocks the way the agent reads a block (the
        // answer carries the message on stderr); fail-open is an error.
        Err(e) if policy.fail == agenthooks::Fail::Closed => emit(
            &agenthooks::fail_response(provider, Some(&ev), &e, &policy),
            as_json,
        ),
        Err(e) => fatal(&e),
    }
}

fn modes_cmd(provider: Option<&str>) -> ExitCode {
    let mut table = agenthooks::mode::table_json();
    if let Some(p) = provider {
        let id = match Provider::parse(p) {
            Ok(p) => p.id(),
            Err(e) => return fatal(&e),
        };
        if let serde_json::Value::Object(m) = &mut table {
            m.retain(|k, _| k == id);
        }
    }
    say(&serde_json::to_string_pretty(&table).unwrap_or_default());
    ExitCode::SUCCESS
}

fn capabilities_cmd(provider: Option<&str>, event: Option<&str>) -> ExitCode {
    let providers: Vec<Provider> = match provider {
        Some(p) => match Provider::parse(p) {
            Ok(p) => vec![p],
            Err(e) => return fatal(&e),
        },
        None => Provider::ALL.to_vec(),
    };
    if let Some(e) = event {
        if !providers
            .iter()
            .any(|p| agenthooks::native_events(*p).contains(&e))
        {
            let valid: Vec<String> = providers
                .iter()
                .map(|p| format!("{}: {}", p.id(), agenthooks::native_events(*p).join(", ")))
                .collect();
            return fatal(&Error::InvalidArgument {
                message: format!(
                    "--event: unknown event `{e}` (native event names, case-sensitive; {})",
                    valid.join("; ")
                ),
            });
        }
    }
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
