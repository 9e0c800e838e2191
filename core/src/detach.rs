//! Async hooks on agents that wait for every hook.
//!
//! A hook installed with `async = true` carries `--async` on agents that
//! have no background flag of their own (Gemini CLI, Kimi Code, Cursor,
//! Copilot CLI, and Codex, which parses its `async` key but ran such hooks
//! synchronously in the builds we meet). The hook process then answers the
//! agent's "no opinion" at once and finishes the work in a detached child:
//!
//! 1. **Which events.** Never a gating event ([`gating`]: `tool.pre`,
//!    `permission.request`, `prompt.submitted`): a decision there must reach
//!    the agent, so `--async` is refused by install and, at run time, ignored
//!    with a warning on stderr (the hook runs synchronously).
//! 2. **The child.** The same program again (the Rust binary's
//!    `current_exe`; a binding's interpreter with its script argv), with
//!    `--async` replaced by [`CHILD_FLAG`] ([`child_argv`]): the marker that
//!    says "I am the detached child". The child runs the handlers as usual,
//!    within the hook's deadline (the policy timeout: a handler still
//!    running then is abandoned and the process exits), skips what the
//!    parent already did (Cursor dedupe claim, stop-continuation count), and
//!    its answer goes nowhere.
//! 3. **The payload** goes over the child's stdin, a private nameless file
//!    of the state root ([`crate::state::StateDir::private_copy`]), never
//!    argv or the environment, behind a one-line header ([`envelope`]) that
//!    carries what the parent learned and the child could not (the
//!    backfilled prompt: once the parent exits, the child's ancestors are
//!    gone).
//! 4. **Detached.** Its own process group (a signal to the hook's group, or
//!    the terminal's, does not reach it), stdin the private file, stderr
//!    `/dev/null`, stdout a slot lock file (below); no pipe of the agent's
//!    stays open, so the agent stops waiting when the parent exits, and the
//!    child survives that exit.
//! 5. **Bounded.** At most [`MAX_CHILDREN`] detached children per user at a
//!    time: each one holds an exclusive `flock` on one of the slot files in
//!    the `async` state directory for as long as it lives (the lock is on
//!    its stdout descriptor, so it ends with the process, whatever kills
//!    it). When every slot is taken, or the child cannot be started, the
//!    hook runs synchronously instead, with a warning: slower, never lost.

use std::fs::File;
use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::model::Kind;
use crate::state::StateDir;

/// The option of an installed command that asks for a detached run.
pub const ASYNC_FLAG: &str = "--async";
/// The option that marks the detached child itself.
pub const CHILD_FLAG: &str = "--async-child";
/// At most this many detached children per user at a time.
pub const MAX_CHILDREN: usize = 16;
/// The state subdirectory of the slot locks and the payload copies.
pub const SUBDIR: &str = "async";
/// The first bytes of the child's stdin: the header line follows.
const MAGIC: &[u8] = b"agenthooks-async/1 ";
/// The header line's bound (the backfilled prompt is its only large part).
pub const MAX_HEADER: usize = crate::ancestry::MAX_CMDLINE.saturating_mul(2);

/// Whether async is refused on events of this kind: a decision there must
/// reach the agent (a tool call, a permission prompt, a prompt block).
pub fn gating(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::ToolPre | Kind::PermissionRequest | Kind::PromptSubmitted
    )
}

/// What the parent hands the child besides the payload.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handoff {
    /// The prompt the parent recovered for a backfilled `prompt.submitted`
    /// (claimed already: the child delivers it to observers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backfill_prompt: Option<String>,
}

/// The child's stdin: the magic, the handoff as one JSON line, the payload.
pub fn envelope(handoff: &Handoff, payload: &[u8]) -> Vec<u8> {
    let head = serde_json::to_string(handoff).unwrap_or_else(|_| "{}".into());
    let mut out = Vec::with_capacity(
        MAGIC
            .len()
            .saturating_add(head.len())
            .saturating_add(payload.len())
            .saturating_add(1),
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(head.as_bytes());
    out.push(b'\n');
    out.extend_from_slice(payload);
    out
}

/// Splits the child's stdin into the handoff and the payload. Input
/// without the magic is all payload (a child started by hand); a header
/// that does not parse is an `invalid_argument` error.
pub fn open_envelope(mut bytes: Vec<u8>) -> Result<(Handoff, Vec<u8>), Error> {
    if !bytes.starts_with(MAGIC) {
        return Ok((Handoff::default(), bytes));
    }
    let bad = |m: &str| Error::InvalidArgument {
        message: format!("the detached child's input: {m}"),
    };
    let end = bytes
        .iter()
        .take(MAX_HEADER.saturating_add(MAGIC.len()))
        .position(|b| *b == b'\n')
        .ok_or_else(|| bad("the header line has no end"))?;
    let head: Handoff = serde_json::from_slice(&bytes[MAGIC.len()..end])
        .map_err(|e| bad(&format!("the header does not parse ({e})")))?;
    let payload = bytes.split_off(end.saturating_add(1));
    Ok((head, payload))
}

/// The child's argv: `program_argv` with `--async` (after the `agenthooks`
/// word) replaced by [`CHILD_FLAG`]. `None` when there is no such option.
pub fn child_argv<S: AsRef<str>>(program_argv: &[S]) -> Option<Vec<String>> {
    let word = program_argv
        .iter()
        .position(|a| a.as_ref() == "agenthooks")?;
    let mut found = false;
    let out = program_argv
        .iter()
        .enumerate()
        .map(|(i, a)| {
            if i > word && a.as_ref() == ASYNC_FLAG {
                found = true;
                CHILD_FLAG.to_string()
            } else {
                a.as_ref().to_string()
            }
        })
        .collect();
    found.then_some(out)
}

/// Why a child was not started (the hook then runs synchronously).
#[derive(Debug, thiserror::Error)]
pub enum DetachError {
    /// Every slot is held by a live detached child.
    #[error("{MAX_CHILDREN} detached hooks are still running")]
    Busy,
    /// The argv names no program or carries no `--async`.
    #[error("cannot build the detached command: {0}")]
    Argv(&'static str),
    /// State or spawn failure.
    #[error("{0}")]
    Core(#[from] Error),
}

/// Takes a free slot: an exclusive, non-blocking `flock` on one of the
/// slot files.
fn take_slot(dir: &StateDir) -> Result<File, DetachError> {
    for i in 0..MAX_CHILDREN {
        let f = dir.open_lock(&format!("slot-{i}"))?;
        #[cfg(unix)]
        {
            use rustix::fs::{FlockOperation, flock};
            if flock(&f, FlockOperation::NonBlockingLockExclusive).is_ok() {
                return Ok(f);
            }
        }
        #[cfg(not(unix))]
        return Ok(f);
    }
    Err(DetachError::Busy)
}

/// Starts the detached child: `program_argv` (program first, `--async`
/// in it) with `input` (an [`envelope`]) on its stdin. Returns at once;
/// the child is never waited for.
pub fn spawn<S: AsRef<str>>(
    state: &StateDir,
    program_argv: &[S],
    input: &[u8],
) -> Result<u32, DetachError> {
    let argv = child_argv(program_argv).ok_or(DetachError::Argv(
        "no `--async` after the `agenthooks` word",
    ))?;
    let (program, rest) = argv.split_first().ok_or(DetachError::Argv("no program"))?;
    let dir = state.subdir(SUBDIR)?;
    let slot = take_slot(&dir)?;
    let stdin = dir.private_copy(input)?;
    let mut cmd = Command::new(program);
    cmd.args(rest)
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(slot))
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let child = cmd.spawn().map_err(|e| Error::Io {
        what: format!("starting the detached hook `{program}`"),
        source: e,
    })?;
    Ok(child.id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gating_kinds_are_the_decision_points() {
        assert!(gating(Kind::ToolPre));
        assert!(gating(Kind::PermissionRequest));
        assert!(gating(Kind::PromptSubmitted));
        assert!(!gating(Kind::ToolPost));
        assert!(!gating(Kind::AgentStop));
        assert!(!gating(Kind::SessionStart));
    }

    #[test]
    fn envelope_round_trips_and_plain_input_is_all_payload() {
        let h = Handoff {
            backfill_prompt: Some("fix\nthe bug".into()),
        };
        let env = envelope(&h, b"{\"a\":1}\n");
        let (h2, p) = open_envelope(env).unwrap();
        assert_eq!(h2, h);
        assert_eq!(p, b"{\"a\":1}\n");
        let (h3, p) = open_envelope(b"{\"x\":2}".to_vec()).unwrap();
        assert_eq!(h3, Handoff::default());
        assert_eq!(p, b"{\"x\":2}");
        assert!(open_envelope(b"agenthooks-async/1 {nope".to_vec()).is_err());
        assert!(open_envelope(b"agenthooks-async/1 {nope}\n{}".to_vec()).is_err());
    }

    #[test]
    fn child_argv_swaps_only_the_option_after_the_word() {
        let argv = ["/bin/h", "--async", "agenthooks", "run", "--async", "--x=1"];
        assert_eq!(
            child_argv(&argv).unwrap(),
            vec![
                "/bin/h",
                "--async",
                "agenthooks",
                "run",
                CHILD_FLAG,
                "--x=1"
            ]
        );
        assert!(child_argv(&["/bin/h", "agenthooks", "run"]).is_none());
        assert!(child_argv(&["/bin/h", "--async"]).is_none());
    }

    #[test]
    fn slots_run_out_and_come_back() {
        let root = std::env::temp_dir().join(format!("ah-detach-slots-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let state = crate::state::root_at(&root).unwrap();
        let dir = state.subdir(SUBDIR).unwrap();
        let held: Vec<File> = (0..MAX_CHILDREN)
            .map(|_| take_slot(&dir).unwrap())
            .collect();
        assert!(matches!(take_slot(&dir), Err(DetachError::Busy)));
        drop(held);
        assert!(take_slot(&dir).is_ok());
        let _ = std::fs::remove_dir_all(&root);
    }
}
