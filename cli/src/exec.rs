//! `agenthooks exec`: the universal adapter. Its options become the run
//! entry's arguments and the call goes through the core's run steps
//! ([`runtime::start`] → the command → [`Invocation::complete`]), so exec
//! answers exactly as a program's `agenthooks run` does: Cursor's second
//! delivery of one call is deduplicated, `--match` / `--hook-id` filter,
//! and the stop-loop guard counts continuations. The command itself runs
//! through the core's child runner ([`runner::run`]).

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use agenthooks::host::runner::{self, RunRequest};
use agenthooks::runtime::{self, Invocation, Plan, RunArgs};
use agenthooks::{Decision, Error, Event, Fail, Policy, Provider, Response};
use clap::Args;

use crate::Common;

/// `agenthooks exec [options] -- CMD ARGS...`
#[derive(Args)]
pub struct ExecArgs {
    #[command(flatten)]
    common: Common,
    /// Policy JSON (partial).
    #[arg(long)]
    policy: Option<String>,
    /// Seconds the agent gives the hook (CMD gets 90% of it).
    #[arg(long)]
    timeout: Option<f64>,
    /// Fail posture override: open or closed.
    #[arg(long)]
    fail: Option<String>,
    /// Run CMD only for events this matcher admits (as `agenthooks run
    /// --match`); others answer the no-op.
    #[arg(long = "match")]
    matcher: Option<String>,
    /// The hook id of this entry (as `agenthooks run --hook-id`).
    #[arg(long)]
    hook_id: Option<String>,
    /// The command and its arguments.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

fn fatal(e: &Error) -> ExitCode {
    eprintln!("agenthooks: {}: {e}", e.code());
    ExitCode::from(1)
}

/// Runs `agenthooks exec`.
pub fn exec_cmd(a: &ExecArgs) -> ExitCode {
    let c = &a.common;
    if let Err(e) = Provider::parse(&c.provider) {
        return fatal(&e);
    }
    let policy = match a.policy.as_deref().map(Policy::from_json).transpose() {
        Ok(p) => p.unwrap_or_default(),
        Err(e) => return fatal(&e),
    };
    let fail = match a.fail.as_deref().map(Fail::parse).transpose() {
        Ok(f) => f,
        Err(e) => return fatal(&e),
    };
    let plan = Plan {
        args: RunArgs {
            command: "run".into(),
            provider: Some(c.provider.clone()),
            event: c.event.clone(),
            variant: c.variant.clone(),
            timeout_s: a.timeout,
            fail,
            hook_id: a.hook_id.clone(),
            matcher: a.matcher.clone(),
            max_bytes: Some(c.max_bytes),
            state_dir: None,
            ..RunArgs::default()
        },
        ..Plan::default()
    };
    // No StdoutGuard here: nothing in this process prints stray text (the
    // command's stdout is a pipe of its own), and the guard's saved copy of
    // fd 1 would be inherited by the command, letting a descendant hold the
    // agent's stdout open after the answer.
    let stdin = runtime::read_stdin(plan.read_limit());
    let answer = match runtime::start(&plan, &policy, stdin) {
        Ok(inv) => run(&inv, &a.command),
        Err(answer) => answer,
    };
    emit_answer(&answer)
}

fn run(inv: &Invocation, command: &[String]) -> Response {
    let deadline = Duration::from_millis(inv.deadline_ms);
    inv.complete(run_child(command, &inv.event, deadline))
}

/// Writes the agent's answer; a failed write of stdout is exit code 1.
fn emit_answer(resp: &Response) -> ExitCode {
    // As a hook process writes it: the notes too, where safe (AGENTHOOKS_NOTES).
    let resp = &agenthooks::runtime::with_notes_on_stderr(resp.clone());
    let _ = std::io::stderr().write_all(resp.stderr.as_bytes());
    let mut out = std::io::stdout().lock();
    if out
        .write_all(resp.stdout.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        return ExitCode::from(1);
    }
    ExitCode::from(resp.exit_code.clamp(0, 255) as u8)
}

/// Runs the author's command with the canonical event on stdin through the
/// core's child runner; its stdout is a decision JSON (empty = no decision).
/// Non-zero exit, bad or oversized output and the deadline are handler
/// errors for the fail policy. The answer comes by the deadline whatever
/// the command's descendants keep open: shortly after the command itself
/// exits its process group is killed if it still holds the pipes, and at
/// the deadline in any case. The command's stderr is captured and passed on.
fn run_child(command: &[String], ev: &Event, deadline: Duration) -> Result<Decision, Error> {
    let name = command.first().cloned().unwrap_or_default();
    let mut req = RunRequest::new(command.to_vec());
    req.stdin = ev.to_json().into_bytes();
    req.timeout = deadline;
    req.exit_grace = Some(runner::ExitGrace::ANSWER);
    let run = runner::run(&req);
    if !run.stderr.is_empty() {
        let _ = std::io::stderr().write_all(run.stderr.as_bytes());
    }
    if let Some(e) = run.spawn_error {
        return Err(Error::Io {
            what: format!("starting `{name}`"),
            source: std::io::Error::other(e),
        });
    }
    if run.timed_out {
        return Err(Error::HandlerTimeout {
            ms: u64::try_from(deadline.as_millis()).unwrap_or(u64::MAX),
        });
    }
    match run.exit_code {
        Some(0) => {}
        Some(c) => {
            return Err(Error::Handler {
                message: format!("`{name}` exited with code {c}"),
            });
        }
        None => {
            return Err(Error::Handler {
                message: format!("`{name}` was killed by a signal"),
            });
        }
    }
    if run.stdout_truncated {
        return Err(Error::TooLarge {
            what: "command output",
            limit: req.cap,
        });
    }
    if run.stdout_lossy {
        let offset = run.stdout.find('\u{FFFD}').unwrap_or(0);
        return Err(Error::InvalidUtf8 {
            what: "command output",
            offset,
        });
    }
    let text = run.stdout.trim();
    if text.is_empty() {
        return Ok(Decision::no_decision());
    }
    Decision::from_json(text)
}
