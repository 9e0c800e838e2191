//! Running one command: spawn, feed stdin, capture, time out. This is the
//! single child runner of the crate: the host (`host run`), the CLI's
//! `exec` adapter and the install doctor's probes all go through [`run`].
//!
//! Each command is a child process in its own process group
//! (`process_group(0)`). On Unix one loop `poll`s the child's three pipes
//! (non-blocking on this side), so nothing ever blocks past the deadline:
//! stdin is written as the child reads it (a child that never reads, or
//! exits first, simply loses the rest), stdout and stderr are read
//! concurrently, each up to a cap (10 MiB by default); bytes past the cap
//! are read and dropped, so a command printing without end never grows
//! memory and never blocks on a full pipe.
//!
//! A run is finished when the command has exited **and** both output pipes
//! reached end of file (as Node's `close` and Codex's `wait_with_output`).
//! Processes the command started inherit those pipes and can hold them
//! open after it exited: with [`RunRequest::exit_grace`] set, the run ends
//! that long after the exit with the output read so far, the process group
//! is killed and [`RawRun::pipes_held`] is set; without it (the agents'
//! behaviour) the run waits for end of file until the deadline. At the
//! deadline the whole process group is killed (SIGKILL), grandchildren
//! included, and the run is a timeout. A process that left the group
//! (`setsid`) cannot be killed with it, but cannot hold the run either:
//! the pipes are closed on this side when the run ends. Nothing here fails
//! the caller: a spawn error or a timeout is a [`RawRun`] like any other.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// Default cap on captured stdout and on captured stderr: 10 MiB each.
pub const DEFAULT_OUTPUT_CAP: usize = 10 * 1024 * 1024;
/// Longest deadline honoured (about a century).
const MAX_TIMEOUT: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
/// After a kill, how long to wait for the killed command to be reaped
/// before a background thread takes over.
#[cfg(unix)]
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
    /// How long the output pipes may stay open after the command itself
    /// exited (held by processes it started). `None`: until end of file or
    /// the deadline (Codex).
    pub exit_grace: Option<ExitGrace>,
}

/// When a run ends after the command itself exited but processes it
/// started still hold its output pipes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExitGrace {
    /// The run ends once no output arrived for this long after the exit...
    pub quiet: Duration,
    /// ... and at the latest this long after the exit.
    pub cap: Duration,
    /// Kill the process group when the run ends with the pipes still open
    /// (else the stragglers keep running, as with the agents).
    pub kill: bool,
}

impl ExitGrace {
    /// Claude Code 2.1.328: after the exit, output is read until it was
    /// quiet for 500 ms, at most 10 s; the processes are left alone, and
    /// the run is marked [`RawRun::pipes_held`] (Claude reads such a
    /// capture with suspicion, see `decode_claude.rs`).
    pub const CLAUDE_CODE: ExitGrace = ExitGrace {
        quiet: Duration::from_millis(500),
        cap: Duration::from_secs(10),
        kill: false,
    };
    /// For callers that answer as soon as the command exited (`exec`,
    /// doctor probes): 200 ms of quiet, at most 1 s, then the process group
    /// is killed.
    pub const ANSWER: ExitGrace = ExitGrace {
        quiet: Duration::from_millis(200),
        cap: Duration::from_secs(1),
        kill: true,
    };
}

impl RunRequest {
    /// A request with no stdin, the inherited environment and working
    /// directory, a 600 s deadline, the default cap and no exit grace.
    pub fn new(argv: Vec<String>) -> RunRequest {
        RunRequest {
            argv,
            stdin: Vec::new(),
            env: Vec::new(),
            env_remove: Vec::new(),
            cwd: None,
            timeout: Duration::from_secs(600),
            cap: DEFAULT_OUTPUT_CAP,
            exit_grace: None,
        }
    }
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
    /// stdout was not valid UTF-8 (invalid bytes were replaced by U+FFFD).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stdout_lossy: bool,
    /// The deadline passed and the process group was killed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
    /// The command exited but processes it started still held its output
    /// pipes after [`RunRequest::exit_grace`]: the output read so far is
    /// the output (and the process group was killed if the grace says so).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pipes_held: bool,
    /// The process could not be started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spawn_error: Option<String>,
    /// Wall time from spawn to completion (or kill).
    #[serde(default)]
    pub duration_ms: u64,
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
    // A variable the OS cannot carry (a NUL byte, `=` in the name) would
    // fail the spawn, and with it the hook: it is left out instead (its
    // value may come from a payload).
    let passable =
        |(k, v): &&(String, String)| !k.is_empty() && !k.contains(['=', '\0']) && !v.contains('\0');
    cmd.envs(req.env.iter().filter(passable).map(|(k, v)| (k, v)));
    if let Some(cwd) = &req.cwd {
        cmd.current_dir(cwd);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return spawn_failed(spawn_message(program, req.cwd.as_ref(), &e), start),
    };
    // A timeout too large for the clock (e.g. `1e300` seconds) waits ~a century.
    let deadline = start
        .checked_add(req.timeout.min(MAX_TIMEOUT))
        .unwrap_or(start);
    let mut run = supervise(child, req, deadline);
    run.duration_ms = elapsed_ms(start);
    if run.timed_out {
        // A cancelled hook's output is discarded by both agents; keep what
        // arrived for the audit, but no exit code.
        run.exit_code = None;
    }
    run
}

/// Why a spawn failed; a missing working directory is named (the OS error
/// alone, "No such file or directory", reads as if the shell were missing).
fn spawn_message(program: &str, cwd: Option<&PathBuf>, e: &std::io::Error) -> String {
    if let Some(dir) = cwd {
        match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return format!("working directory `{}` is not a directory", dir.display());
            }
            Err(de) => {
                return format!("working directory `{}`: {de}", dir.display());
            }
        }
    }
    format!("cannot start `{program}`: {e}")
}

/// Runs several commands in parallel; results in input order. A command
/// whose thread cannot be created (too many at once) runs on the caller's
/// thread after the others started: never a panic, never a dropped hook.
pub fn run_all(reqs: &[RunRequest]) -> Vec<RawRun> {
    std::thread::scope(|s| {
        let handles: Vec<_> = reqs
            .iter()
            .map(|r| {
                std::thread::Builder::new()
                    .spawn_scoped(s, move || run(r))
                    .map_err(|_| r)
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h.join().unwrap_or_else(|_| RawRun {
                    spawn_error: Some("the runner thread panicked".into()),
                    ..RawRun::default()
                }),
                Err(r) => run(r),
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

/// One captured output stream.
#[cfg(unix)]
struct Capture<R> {
    pipe: Option<R>,
    buf: Vec<u8>,
    cap: usize,
    truncated: bool,
}

/// Outcome of one read attempt.
#[cfg(unix)]
enum Read {
    /// Read something (more may follow).
    Data,
    /// Nothing available now.
    WouldBlock,
    /// End of file or a read error: the pipe is closed.
    Closed,
}

#[cfg(unix)]
impl<R: std::io::Read> Capture<R> {
    fn new(pipe: Option<R>, cap: usize) -> Self {
        Capture {
            pipe,
            buf: Vec::new(),
            cap,
            truncated: false,
        }
    }

    fn done(&self) -> bool {
        self.pipe.is_none()
    }

    /// One read, keeping at most `cap` bytes.
    fn read_once(&mut self, chunk: &mut [u8]) -> Read {
        let Some(p) = self.pipe.as_mut() else {
            return Read::Closed;
        };
        match p.read(chunk) {
            Ok(0) => {
                self.pipe = None;
                Read::Closed
            }
            Ok(n) => {
                let room = self.cap.saturating_sub(self.buf.len());
                self.buf.extend_from_slice(&chunk[..n.min(room)]);
                self.truncated |= n > room;
                Read::Data
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Read::Data,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Read::WouldBlock,
            Err(_) => {
                self.pipe = None;
                Read::Closed
            }
        }
    }

    fn into_string(self) -> (String, bool, bool) {
        match String::from_utf8(self.buf) {
            Ok(s) => (s, self.truncated, false),
            Err(e) => (
                String::from_utf8_lossy(e.as_bytes()).into_owned(),
                self.truncated,
                true,
            ),
        }
    }
}

/// How the supervision loop ended.
#[derive(PartialEq)]
enum End {
    Finished,
    TimedOut,
    PipesHeld,
}

/// Feeds, reads and waits for the child until it is finished, the exit
/// grace passed or the deadline; kills the group when it ends early.
#[cfg(unix)]
fn supervise(mut child: Child, req: &RunRequest, deadline: Instant) -> RawRun {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    use std::fs::File;
    use std::io::Write;
    use std::os::fd::OwnedFd;

    let nonblocking = |f: File| {
        // A pipe left blocking would only make a read or write wait for the
        // child; the loop still polls first, so failing here is harmless.
        let _ = rustix::io::ioctl_fionbio(&f, true);
        f
    };
    let mut stdin = child
        .stdin
        .take()
        .map(|p| nonblocking(File::from(OwnedFd::from(p))));
    let mut input: &[u8] = &req.stdin;
    if input.is_empty() {
        stdin = None;
    }
    let mut out = Capture::new(
        child
            .stdout
            .take()
            .map(|p| nonblocking(File::from(OwnedFd::from(p)))),
        req.cap,
    );
    let mut err = Capture::new(
        child
            .stderr
            .take()
            .map(|p| nonblocking(File::from(OwnedFd::from(p)))),
        req.cap,
    );
    let mut chunk = vec![0u8; 64 * 1024];
    // When the child exited. It stays a zombie (not reaped) until the end,
    // so its pid, which is also its process group id, cannot be reused by
    // an unrelated process before the group is killed.
    let mut exit: Option<Instant> = None;
    // When output last arrived (the exit grace's quiet window).
    let mut last_data = Instant::now();
    // Until the child exits, its exit is polled for in growing steps.
    let mut step = Duration::from_millis(1);
    let end = loop {
        if exit.is_none() && has_exited(&mut child) {
            exit = Some(Instant::now());
        }
        if exit.is_some() && out.done() && err.done() {
            break End::Finished;
        }
        let now = Instant::now();
        if now >= deadline {
            break End::TimedOut;
        }
        let mut limit = deadline;
        if let (Some(at), Some(g)) = (exit, req.exit_grace) {
            let quiet_until = last_data.max(at).checked_add(g.quiet).unwrap_or(deadline);
            let until = at
                .checked_add(g.cap)
                .unwrap_or(deadline)
                .min(quiet_until)
                .min(deadline);
            if now >= until {
                break End::PipesHeld;
            }
            limit = until;
        }
        let mut wait = limit.saturating_duration_since(now);
        if exit.is_none() {
            wait = wait.min(step);
            step = (step * 2).min(Duration::from_millis(50));
        }
        let (want_in, want_out, want_err) = {
            let mut fds: Vec<PollFd> = Vec::with_capacity(3);
            let mut slots = [usize::MAX; 3];
            if let Some(f) = &stdin {
                slots[0] = fds.len();
                fds.push(PollFd::new(f, PollFlags::OUT));
            }
            if let Some(f) = &out.pipe {
                slots[1] = fds.len();
                fds.push(PollFd::new(f, PollFlags::IN));
            }
            if let Some(f) = &err.pipe {
                slots[2] = fds.len();
                fds.push(PollFd::new(f, PollFlags::IN));
            }
            let ts = Timespec::try_from(wait).ok();
            if fds.is_empty() {
                std::thread::sleep(wait);
            } else if poll(&mut fds, ts.as_ref()).is_err() {
                // EINTR, or a poll the platform refuses: never spin.
                std::thread::sleep(wait.min(Duration::from_millis(10)));
            }
            let ready = |slot: usize| fds.get(slot).is_some_and(|f| !f.revents().is_empty());
            (ready(slots[0]), ready(slots[1]), ready(slots[2]))
        };
        if want_in {
            if let Some(f) = stdin.as_mut() {
                loop {
                    match f.write(input) {
                        Ok(0) => {
                            input = &[];
                            break;
                        }
                        Ok(n) => {
                            input = input.get(n..).unwrap_or(&[]);
                            if input.is_empty() {
                                break;
                            }
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                        // EPIPE: the child closed stdin; it loses the rest.
                        Err(_) => {
                            input = &[];
                            break;
                        }
                    }
                }
            }
            if input.is_empty() {
                stdin = None;
            }
        }
        let mut active = want_in;
        for (want, cap) in [(want_out, &mut out), (want_err, &mut err)] {
            if !want {
                continue;
            }
            // At most 1 MiB per turn, so an endless writer cannot keep the
            // loop from checking the deadline.
            for _ in 0..16 {
                match cap.read_once(&mut chunk) {
                    Read::Data => {
                        active = true;
                        last_data = Instant::now();
                    }
                    Read::WouldBlock => break,
                    Read::Closed => {
                        active = true;
                        break;
                    }
                }
            }
        }
        if active {
            step = Duration::from_millis(1);
        }
    };
    drop(stdin);
    let kill = match end {
        End::Finished => false,
        End::TimedOut => true,
        End::PipesHeld => req.exit_grace.is_some_and(|g| g.kill),
    };
    if kill {
        kill_group(child.id());
    }
    let exit_code = match exit {
        // Already exited: `wait` returns at once and reaps it.
        Some(_) => child.wait().ok().and_then(|s| s.code()),
        None => {
            reap(child);
            None
        }
    };
    let (stdout, stdout_truncated, stdout_lossy) = out.into_string();
    let (stderr, stderr_truncated, _) = err.into_string();
    RawRun {
        exit_code,
        stdout,
        stderr,
        stdout_truncated,
        stderr_truncated,
        stdout_lossy,
        timed_out: end == End::TimedOut,
        pipes_held: end == End::PipesHeld,
        spawn_error: None,
        duration_ms: 0,
    }
}

/// Whether the child exited, without reaping it.
#[cfg(all(unix, not(any(target_os = "openbsd", target_os = "redox"))))]
fn has_exited(child: &mut Child) -> bool {
    use rustix::process::{Pid, WaitId, WaitIdOptions, waitid};
    let Some(pid) = i32::try_from(child.id()).ok().and_then(Pid::from_raw) else {
        return !matches!(child.try_wait(), Ok(None));
    };
    let opts = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    // An error (ECHILD: reaped elsewhere, e.g. SIGCHLD ignored) counts as
    // exited: there is nothing left to wait for.
    !matches!(waitid(WaitId::Pid(pid), opts), Ok(None))
}

#[cfg(any(target_os = "openbsd", target_os = "redox"))]
fn has_exited(child: &mut Child) -> bool {
    !matches!(child.try_wait(), Ok(None))
}

/// Waits briefly for a killed child; a child that does not die at once
/// (uninterruptible sleep) is reaped by a background thread, never by the
/// caller.
#[cfg(unix)]
fn reap(mut child: Child) {
    let until = Instant::now() + KILL_GRACE;
    while Instant::now() < until {
        match child.try_wait() {
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            _ => return,
        }
    }
    std::thread::spawn(move || {
        let _ = child.wait();
    });
}

/// Elsewhere: threads read the pipes into shared buffers; the caller waits
/// on a channel with the same deadline and exit grace. A process holding a
/// pipe open keeps its reader thread alive, never the caller.
#[cfg(not(unix))]
fn supervise(mut child: Child, req: &RunRequest, deadline: Instant) -> RawRun {
    use std::io::Write;
    use std::sync::mpsc::{self, RecvTimeoutError};
    use std::sync::{Arc, Mutex};

    type Shared = Arc<Mutex<(Vec<u8>, bool)>>;
    fn reader(
        mut r: impl std::io::Read + Send + 'static,
        cap: usize,
        tx: mpsc::Sender<u8>,
        id: u8,
    ) -> Shared {
        let shared: Shared = Arc::new(Mutex::new((Vec::new(), false)));
        let s2 = shared.clone();
        std::thread::spawn(move || {
            let mut chunk = vec![0u8; 64 * 1024];
            loop {
                match r.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => {
                        let mut g = s2.lock().unwrap_or_else(|e| e.into_inner());
                        let room = cap.saturating_sub(g.0.len());
                        g.0.extend_from_slice(&chunk[..n.min(room)]);
                        g.1 |= n > room;
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let _ = tx.send(id);
        });
        shared
    }
    let (tx, rx) = mpsc::channel();
    if let Some(mut stdin) = child.stdin.take() {
        let data = req.stdin.clone();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
    }
    let mut open = 0;
    let out = child.stdout.take().map(|p| {
        open += 1;
        reader(p, req.cap, tx.clone(), 1)
    });
    let err = child.stderr.take().map(|p| {
        open += 1;
        reader(p, req.cap, tx.clone(), 2)
    });
    let mut exit: Option<(Option<i32>, Instant)> = None;
    let end = loop {
        if exit.is_none() {
            match child.try_wait() {
                Ok(Some(s)) => exit = Some((s.code(), Instant::now())),
                Ok(None) => {}
                Err(_) => exit = Some((None, Instant::now())),
            }
        }
        if exit.is_some() && open == 0 {
            break End::Finished;
        }
        let now = Instant::now();
        if now >= deadline {
            break End::TimedOut;
        }
        let mut limit = deadline;
        if let (Some((_, at)), Some(g)) = (exit, req.exit_grace) {
            let until = at.checked_add(g.cap).unwrap_or(deadline).min(deadline);
            if now >= until {
                break End::PipesHeld;
            }
            limit = until;
        }
        let wait = limit
            .saturating_duration_since(now)
            .min(Duration::from_millis(10));
        match rx.recv_timeout(wait) {
            Ok(_) => open -= 1,
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => open = 0,
        }
    };
    if end == End::TimedOut || (end == End::PipesHeld && req.exit_grace.is_some_and(|g| g.kill)) {
        let _ = child.kill();
    }
    let take = |s: Option<Shared>| {
        s.map(|s| {
            let g = s.lock().unwrap_or_else(|e| e.into_inner());
            (g.0.clone(), g.1)
        })
        .unwrap_or_default()
    };
    let (ob, ot) = take(out);
    let (eb, et) = take(err);
    let lossy = std::str::from_utf8(&ob).is_err();
    RawRun {
        exit_code: exit.and_then(|(c, _)| c),
        stdout: String::from_utf8_lossy(&ob).into_owned(),
        stderr: String::from_utf8_lossy(&eb).into_owned(),
        stdout_truncated: ot,
        stderr_truncated: et,
        stdout_lossy: lossy,
        timed_out: end == End::TimedOut,
        pipes_held: end == End::PipesHeld,
        spawn_error: None,
        duration_ms: 0,
    }
}

/// SIGKILL to the command's process group (and to the command itself, in
/// case it moved to another group).
#[cfg(unix)]
fn kill_group(pid: u32) {
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
    }
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
            exit_grace: None,
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
