//! Running one command hook: spawn, feed stdin, capture, time out.
//!
//! Each hook is a child process in its own process group
//! (`process_group(0)`). stdout and stderr are read concurrently, each up to
//! a cap (10 MiB by default); bytes past the cap are read and dropped, so a
//! hook printing without end never grows memory and never blocks on a full
//! pipe. A hook is finished when it has exited **and** both pipes reached
//! end of file (as Node's `close` and Codex's `wait_with_output`); at the
//! deadline the whole process group is killed (SIGKILL), grandchildren
//! included, and the run is a timeout. Nothing here fails the caller: a
//! spawn error or a timeout is a [`RawRun`] like any other.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// Default cap on captured stdout and on captured stderr: 10 MiB each.
pub const DEFAULT_OUTPUT_CAP: usize = 10 * 1024 * 1024;
/// Longest deadline honoured (about a century).
const MAX_TIMEOUT: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
/// After a kill, how long to wait for the pipes before giving up on them
/// (a process that left the group may still hold them).
const KILL_GRACE: Duration = Duration::from_millis(500);

/// What to run.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Bytes written to stdin (then stdin is closed).
    pub stdin: Vec<u8>,
    /// Variables set on top of the inherited environment.
    pub env: Vec<(String, String)>,
    /// Inherited variables to remove (exact names).
    pub env_remove: Vec<String>,
    /// Working directory (`None`: inherit).
    pub cwd: Option<PathBuf>,
    /// Deadline.
    pub timeout: Duration,
    /// Cap on each captured stream, in bytes.
    pub cap: usize,
}

/// What a hook process did. Also the fixture format of simulated runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRun {
    /// Exit code (`None`: killed by a signal, timed out, or never started).
    #[serde(default)]
    pub exit_code: Option<i32>,
    /// Captured stdout (lossy UTF-8), at most the cap.
    #[serde(default)]
    pub stdout: String,
    /// Captured stderr (lossy UTF-8), at most the cap.
    #[serde(default)]
    pub stderr: String,
    /// stdout exceeded the cap (the rest was read and dropped).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stdout_truncated: bool,
    /// stderr exceeded the cap.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stderr_truncated: bool,
    /// The deadline passed and the process group was killed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
    /// The process could not be started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spawn_error: Option<String>,
    /// Wall time from spawn to completion (or kill).
    #[serde(default)]
    pub duration_ms: u64,
}

enum Msg {
    Out(Vec<u8>, bool),
    Err(Vec<u8>, bool),
    Exit(std::io::Result<ExitStatus>),
}

/// Runs one command to completion or deadline.
pub fn run(req: &RunRequest) -> RawRun {
    let start = Instant::now();
    let Some((program, args)) = req.argv.split_first() else {
        return spawn_failed("empty command line".into(), start);
    };
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for k in &req.env_remove {
        cmd.env_remove(k);
    }
    cmd.envs(req.env.iter().map(|(k, v)| (k, v)));
    if let Some(cwd) = &req.cwd {
        cmd.current_dir(cwd);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return spawn_failed(format!("cannot start `{program}`: {e}"), start),
    };
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    // The writer is never joined: a process that does not read its stdin
    // (or a grandchild holding it) must not block the host.
    if let Some(mut stdin) = child.stdin.take() {
        let data = req.stdin.clone();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
    }
    if let Some(out) = child.stdout.take() {
        let (tx, cap) = (tx.clone(), req.cap);
        std::thread::spawn(move || {
            let (b, t) = read_capped(out, cap);
            let _ = tx.send(Msg::Out(b, t));
        });
    }
    if let Some(err) = child.stderr.take() {
        let (tx, cap) = (tx.clone(), req.cap);
        std::thread::spawn(move || {
            let (b, t) = read_capped(err, cap);
            let _ = tx.send(Msg::Err(b, t));
        });
    }
    std::thread::spawn(move || {
        let _ = tx.send(Msg::Exit(child.wait()));
    });

    // A timeout too large for the clock (e.g. `1e300` seconds) waits ~a century.
    let deadline = start
        .checked_add(req.timeout.min(MAX_TIMEOUT))
        .unwrap_or(start);
    let mut run = RawRun::default();
    let (mut out_done, mut err_done, mut exit_done) = (false, false, false);
    let mut grace_until: Option<Instant> = None;
    while !(out_done && err_done && exit_done) {
        let until = grace_until.unwrap_or(deadline);
        let wait = until.saturating_duration_since(Instant::now());
        match rx.recv_timeout(wait) {
            Ok(Msg::Out(b, t)) => {
                run.stdout = String::from_utf8_lossy(&b).into_owned();
                run.stdout_truncated = t;
                out_done = true;
            }
            Ok(Msg::Err(b, t)) => {
                run.stderr = String::from_utf8_lossy(&b).into_owned();
                run.stderr_truncated = t;
                err_done = true;
            }
            Ok(Msg::Exit(status)) => {
                run.exit_code = status.ok().and_then(|s| s.code());
                exit_done = true;
            }
            Err(RecvTimeoutError::Timeout) if grace_until.is_none() => {
                run.timed_out = true;
                run.duration_ms = elapsed_ms(start);
                kill_group(pid);
                grace_until = Some(Instant::now() + KILL_GRACE);
            }
            Err(_) => break,
        }
    }
    if run.timed_out {
        // A cancelled hook's output is discarded by both agents; keep what
        // arrived for the audit, but no exit code.
        run.exit_code = None;
    } else {
        run.duration_ms = elapsed_ms(start);
    }
    run
}

/// Runs several commands in parallel; results in input order.
pub fn run_all(reqs: &[RunRequest]) -> Vec<RawRun> {
    std::thread::scope(|s| {
        let handles: Vec<_> = reqs.iter().map(|r| s.spawn(move || run(r))).collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| RawRun {
                    spawn_error: Some("the runner thread panicked".into()),
                    ..RawRun::default()
                })
            })
            .collect()
    })
}

fn spawn_failed(msg: String, start: Instant) -> RawRun {
    RawRun {
        spawn_error: Some(msg),
        duration_ms: elapsed_ms(start),
        ..RawRun::default()
    }
}

fn elapsed_ms(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Reads to end of file, keeping at most `cap` bytes.
fn read_capped(mut r: impl Read, cap: usize) -> (Vec<u8>, bool) {
    let mut buf = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let mut truncated = false;
    loop {
        match r.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                let room = cap.saturating_sub(buf.len());
                buf.extend_from_slice(&chunk[..n.min(room)]);
                truncated |= n > room;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    (buf, truncated)
}

/// SIGKILL to the hook's process group (and to the hook itself, in case it
/// moved to another group).
fn kill_group(pid: u32) {
    #[cfg(unix)]
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = pid;
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn req(argv: &[&str], timeout: Duration) -> RunRequest {
        RunRequest {
            argv: argv.iter().map(|s| s.to_string()).collect(),
            stdin: b"{}".to_vec(),
            env: Vec::new(),
            env_remove: Vec::new(),
            cwd: None,
            timeout,
            cap: 16,
        }
    }

    #[test]
    fn huge_timeouts_and_empty_argv_do_not_panic() {
        let r = run(&req(
            &["sh", "-c", "cat; printf 0123456789abcdefXYZ"],
            Duration::MAX,
        ));
        assert_eq!(r.exit_code, Some(0));
        assert_eq!(r.stdout, "{}0123456789abcd");
        assert!(r.stdout_truncated);
        assert!(run(&req(&[], Duration::from_secs(1))).spawn_error.is_some());
    }
}
