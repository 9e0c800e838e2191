//! The author-side run, in the core's steps: `ah_run_start` (argv:
//! usage, `serve`, or the arguments of one call), `ah_invocation_prepare_fd`
//! (the core reads the payload from stdin within the limit; or
//! `ah_read_stdin` + `ah_invocation_prepare` for a caller that reads it
//! itself), which is the core's `runtime::start`: the argv rules, the
//! payload, decode; or the complete answer. Then the caller's handlers run
//! within the deadline, and `ah_invocation_complete` encodes their answer
//! (or the fail policy's).

use std::ffi::c_char;

use agenthooks::dialect::DEFAULT_MAX_BYTES;
use agenthooks::runtime::{
    Invocation, Launch, Plan, StdoutGuard, parse_args, read_bounded, read_limited, start,
};
use agenthooks::{Error, ErrorCode};

use crate::buf::ah_buf;
use crate::error::{Fail, ah_error, ah_status, core_code, error_of, status_from_u32};
use crate::event::ah_event;
use crate::panic::{guard, guard_value};
use crate::ptr::{self, NulStr, ah_str};
use crate::respond::{ah_response, policy};

/// The arguments of one hook call (the core's `runtime::Plan`: the parsed
/// options, warnings, the first unusable value, the legacy argv payload).
/// Immutable: `const ah_run_args *` calls may run concurrently from any
/// thread. Free with `ah_run_args_free`.
#[derive(Debug)]
pub struct ah_run_args {
    pub(crate) plan: Plan,
    json: NulStr,
    command: NulStr,
    warnings: NulStr,
}

/// One decoded hook invocation, between `ah_invocation_prepare` and
/// `ah_invocation_complete`. The getters may run concurrently; the
/// `complete` calls need exclusive access. Free with `ah_invocation_free`.
#[derive(Debug)]
pub struct ah_invocation {
    inv: Invocation,
    event: ah_event,
    policy_json: NulStr,
    event_view: std::sync::OnceLock<NulStr>,
    completed: bool,
}

/// Keeps stray prints off stdout while a hook runs (fd 1 points at
/// stderr); the answer goes to the real stdout through
/// `ah_stdout_guard_write`. `const` calls may run concurrently. Free with
/// `ah_stdout_guard_free` (fd 1 stays diverted).
pub struct ah_stdout_guard {
    guard: StdoutGuard,
}

fn args_json(p: &Plan) -> String {
    let a = &p.args;
    let fail = a.fail.map(|f| serde_json::to_value(f).unwrap_or_default());
    let problem = p.problem.as_ref().map(|e| {
        serde_json::json!({
            "code": e.code().as_str(),
            "message": e.to_string(),
        })
    });
    serde_json::json!({
        "command": a.command,
        "provider": a.provider,
        "event": a.event,
        "variant": a.variant,
        "timeout_s": a.timeout_s,
        "fail": fail,
        "hook_id": a.hook_id,
        "match": a.matcher,
        "max_bytes": a.max_bytes,
        "argv_payload": p.argv_payload.is_some(),
        "warnings": p.warnings,
        "problem": problem,
    })
    .to_string()
}

fn run_args(plan: Plan) -> ah_run_args {
    ah_run_args {
        json: NulStr::new(args_json(&plan)),
        command: NulStr::new(plan.args.command.clone()),
        warnings: NulStr::new(plan.warnings.clone()),
        plan,
    }
}

/// How a hook process starts (the core's `runtime::launch`, the argv rules
/// every language shares): finds the word `agenthooks` in argv and reads
/// what follows it (`run --provider=<id> [--event=..] [--variant=..]
/// [--timeout=<s>] [--fail=open|closed] [--hook-id=..] [--match=..]
/// [--max-bytes=..]`, or `serve ...`). `argv` is `argc` NUL-terminated
/// UTF-8 strings, program first (as `main` receives them).
///
/// Options are never an error here: an unknown option or a stray argument
/// is a warning (`ah_run_args_warnings`); a value that cannot be used, an
/// unknown provider or command is answered by `ah_invocation_prepare` per
/// the fail policy. On `AH_OK` exactly one output is set: `*out_args` gets
/// owned arguments (command `run`: `ah_invocation_prepare_fd` on stdin, or
/// `ah_read_stdin` then `ah_invocation_prepare`; `serve`: write the
/// warnings to stderr, then serve), or `*out_answer` gets an owned
/// `ah_response` that is the whole
/// run (no `agenthooks` word: usage, exit 64; `serve` with a value it
/// cannot use: exit 2): write it and exit with its code. Fails only with
/// `AH_ERR_INVALID_UTF8` or `AH_ERR_NULL_ARG`; then no output is touched
/// and, if `err` is not NULL, `*err` gets an owned error. Thread-safe;
/// keeps no pointer after return.
///
/// # Safety
/// `argv` must be NULL with `argc == 0`, or point at `argc` pointers to
/// NUL-terminated strings; the outputs and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_run_start(
    argv: *const *const c_char,
    argc: usize,
    out_args: *mut *mut ah_run_args,
    out_answer: *mut *mut ah_response,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out_args, "out_args")?;
        ptr::check_out(out_answer, "out_answer")?;
        // SAFETY: pointer contract above.
        let v = unsafe { ptr::argv(argv, argc) }?;
        match agenthooks::runtime::launch(&v) {
            // SAFETY: the outputs were checked non-NULL above.
            Launch::Answer(r) => unsafe { ptr::give(out_answer, ah_response::new(r)) },
            // SAFETY: as above.
            Launch::Run(plan) | Launch::Serve(plan) => unsafe {
                ptr::give(out_args, run_args(plan))
            },
        }
        Ok(())
    })
}

/// Superseded by `ah_run_start`; kept for existing callers. Like it, but
/// with one output: on `AH_OK` `*out` gets owned arguments, or NULL when
/// the word `agenthooks` is absent (print usage, exit 64); `serve` with a
/// value it cannot use fails with that error (`AH_ERR_INVALID_ARGUMENT`,
/// or `AH_ERR_UNKNOWN_PROVIDER`). Unknown options are warnings and bad
/// `run` values are answered by `ah_invocation_prepare`, as with
/// `ah_run_start`. Also fails with `AH_ERR_INVALID_UTF8` or
/// `AH_ERR_NULL_ARG`; then `*out` is untouched and, if `err` is not NULL,
/// `*err` gets an owned error. Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `argv` must be NULL with `argc == 0`, or point at `argc` pointers to
/// NUL-terminated strings; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_run_args_parse(
    argv: *const *const c_char,
    argc: usize,
    out: *mut *mut ah_run_args,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let v = unsafe { ptr::argv(argv, argc) }?;
        match agenthooks::runtime::launch(&v) {
            Launch::Answer(r) if r.exit_code == 64 => {
                // SAFETY: `out` checked non-NULL above.
                unsafe { out.write(std::ptr::null_mut()) }
            }
            Launch::Answer(_) => {
                // `serve` with a value it cannot use: that value's error.
                let e = parse_args(&v)
                    .err()
                    .unwrap_or_else(|| Error::InvalidArgument {
                        message: "cannot serve".into(),
                    });
                return Err(Fail::Core(e));
            }
            // SAFETY: `out` checked non-NULL above.
            Launch::Run(plan) | Launch::Serve(plan) => unsafe { ptr::give(out, run_args(plan)) },
        }
        Ok(())
    })
}

/// Returns the parsed arguments as JSON (`{"command", "provider", "event",
/// "variant", "timeout_s", "fail", "hook_id", "match", "max_bytes",
/// "argv_payload", "warnings", "problem"}`, null where absent;
/// `argv_payload` is a boolean (the last argument is a JSON object, used
/// only when stdin is empty), `warnings` the stderr text of
/// `ah_run_args_warnings`, `problem` `{"code", "message"}` of the first
/// value that cannot be used, which `ah_invocation_prepare` answers).
/// Valid until `ah_run_args_free(args)`; `{NULL, 0}` when `args` is NULL.
/// Thread-safe.
///
/// # Safety
/// `args` must be NULL or a live `ah_run_args`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_run_args_json(args: *const ah_run_args) -> ah_str {
    guard_value(|| {
        // SAFETY: `args` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(args) }.map_or(ah_str::NONE, |a| a.json.view())
    })
}

/// Returns the subcommand: `"run"` (one payload on stdin, one answer) or
/// `"serve"` (NDJSON frames over stdio, for the OpenCode / OpenClaw plugin
/// bridges). Valid until `ah_run_args_free(args)`; `{NULL, 0}` when `args`
/// is NULL. Thread-safe.
///
/// # Safety
/// `args` must be NULL or a live `ah_run_args`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_run_args_command(args: *const ah_run_args) -> ah_str {
    guard_value(|| {
        // SAFETY: `args` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(args) }.map_or(ah_str::NONE, |a| a.command.view())
    })
}

/// Returns the stdin size limit in bytes for these arguments
/// (`--max-bytes`, else `ah_default_max_bytes()`); 0 when `args` is NULL.
/// Thread-safe.
///
/// # Safety
/// `args` must be NULL or a live `ah_run_args`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_run_args_max_bytes(args: *const ah_run_args) -> usize {
    guard_value(|| {
        // SAFETY: `args` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(args) }.map_or(0, |a| a.plan.read_limit())
    })
}

/// Whether the hook reads stdin: true for `run` (always first; a JSON
/// object as the last argument is the payload only when stdin is empty,
/// which `ah_invocation_prepare` decides), false for `serve` (which reads
/// its frames itself) and when `args` is NULL. Thread-safe.
///
/// # Safety
/// `args` must be NULL or a live `ah_run_args`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_run_args_reads_stdin(args: *const ah_run_args) -> bool {
    guard_value(|| {
        // SAFETY: `args` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(args) }.is_some_and(|a| a.plan.args.command != "serve")
    })
}

/// Returns the warnings about argv (unknown options, ignored arguments):
/// lines for stderr, each ending in a newline, empty when none. For `run`,
/// `ah_invocation_prepare` already puts them in front of the answer's
/// stderr; for `serve`, write them yourself. Valid until
/// `ah_run_args_free(args)`; `{NULL, 0}` when `args` is NULL. Thread-safe.
///
/// # Safety
/// `args` must be NULL or a live `ah_run_args`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_run_args_warnings(args: *const ah_run_args) -> ah_str {
    guard_value(|| {
        // SAFETY: `args` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(args) }.map_or(ah_str::NONE, |a| a.warnings.view())
    })
}

/// Sets the state root of the calls prepared with these arguments (Cursor
/// dedupe markers, the stop-continuation counter) instead of the user's
/// (`$AGENTHOOKS_STATE_DIR`, ...): for embedding and test kits, which give
/// each simulated call a fresh directory so one call's markers cannot
/// suppress the next. `dir` is UTF-8 (pointer + length); NULL restores the
/// default. The directory is created private (0700) on first use and
/// verified like the default root. Fails only with `AH_ERR_NULL_ARG`
/// (`args`) or `AH_ERR_INVALID_UTF8`; then nothing changes and, if `err`
/// is not NULL, `*err` gets an owned error. Needs exclusive access to
/// `args`; keeps no pointer after return.
///
/// # Safety
/// `args` must be NULL or a live `ah_run_args` no other thread uses during
/// the call; `dir` NULL or pointing at `dir_len` readable bytes; `err`
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_run_args_set_state_dir(
    args: *mut ah_run_args,
    dir: *const u8,
    dir_len: usize,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        // SAFETY: caller contract above.
        let dir = unsafe { ptr::opt_text(dir, dir_len, "dir") }?;
        // SAFETY: as above (exclusive access).
        let a = unsafe { ptr::borrow_mut(args, "args") }?;
        a.plan.args.state_dir = dir.map(std::path::PathBuf::from);
        Ok(())
    })
}

/// Sets the ancestors' argv lists (nearest first) that prompt backfill
/// reads instead of `/proc` (tests and fixtures): `json` is a JSON array
/// of arrays of strings; NULL clears it. Fails with `AH_ERR_NULL_ARG`
/// (`args`), `AH_ERR_INVALID_UTF8` or `AH_ERR_INVALID_ARGUMENT` (not
/// such an array); then nothing changes and, if `err` is not NULL, `*err`
/// gets an owned error. Needs exclusive access to `args`; keeps no
/// pointer after return.
///
/// # Safety
/// `args` must be NULL or a live `ah_run_args` no other thread uses during
/// the call; `json` NULL or pointing at `json_len` readable bytes; `err`
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_run_args_set_ancestry(
    args: *mut ah_run_args,
    json: *const u8,
    json_len: usize,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        // SAFETY: caller contract above.
        let text = unsafe { ptr::opt_text(json, json_len, "json") }?;
        let chain = match text {
            None => None,
            Some(t) => Some(serde_json::from_str::<Vec<Vec<String>>>(t).map_err(|e| {
                Fail::Core(Error::InvalidArgument {
                    message: format!("ancestry: expected an array of argv arrays ({e})"),
                })
            })?),
        };
        // SAFETY: as above (exclusive access).
        let a = unsafe { ptr::borrow_mut(args, "args") }?;
        a.plan.args.ancestry = chain;
        Ok(())
    })
}

/// Frees parsed arguments. NULL is a no-op; freeing twice is undefined
/// behaviour. Needs exclusive access.
///
/// # Safety
/// `args` must be NULL or from `ah_run_start` / `ah_run_args_parse`, not
/// yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_run_args_free(args: *mut ah_run_args) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(args) }
    })
}

/// Returns the core's default payload size limit in bytes. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn ah_default_max_bytes() -> usize {
    DEFAULT_MAX_BYTES
}

/// Reads a file descriptor (usually 0, stdin) to its end, accepting at
/// most `limit` bytes: more is `AH_ERR_TOO_LARGE`, a read failure
/// `AH_ERR_IO` (the core's rule for stdin). The descriptor is not closed.
/// On success `*out` gets an owned `ah_buf` with the bytes as read (not
/// necessarily UTF-8). On failure `*out` is untouched and, if `err` is not
/// NULL, `*err` gets an owned error: pass it to `ah_invocation_prepare` as
/// `read_error`. Thread-safe (the descriptor's own rules aside); keeps no
/// pointer after return. Unix only (elsewhere: `AH_ERR_IO`).
///
/// # Safety
/// `fd` must be an open descriptor for the whole call; `out` and `err`
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_read_fd_limited(
    fd: i32,
    limit: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: `fd` is open for the call (caller contract).
        let data = unsafe { read_fd(fd, limit, false) }?;
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::from_bytes(data)) };
        Ok(())
    })
}

/// Reads a hook's stdin the way the core's run does (`runtime::read_stdin`):
/// a file descriptor (usually 0) to its end, keeping at most `limit + 1`
/// bytes (pass `ah_run_args_max_bytes(args)`; sizes never overflow), so
/// that `ah_invocation_prepare` answers an oversized payload as
/// `too_large` while still reading its event name (a stop event must not
/// be answered with a block). A terminal counts as empty (never wait for
/// a human to type a payload). The descriptor is not closed. On success
/// `*out` gets an owned `ah_buf` with the bytes as read (not necessarily
/// UTF-8). Fails only with `AH_ERR_IO` or `AH_ERR_NULL_ARG`; then `*out`
/// is untouched and, if `err` is not NULL, `*err` gets an owned error: pass
/// it to `ah_invocation_prepare` as `read_error`. Thread-safe (the
/// descriptor's own rules aside); keeps no pointer after return. Unix only
/// (elsewhere: `AH_ERR_IO`).
///
/// # Safety
/// `fd` must be an open descriptor for the whole call; `out` and `err`
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_read_stdin(
    fd: i32,
    limit: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: `fd` is open for the call (caller contract).
        let data = unsafe { read_fd(fd, limit, true) }?;
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::from_bytes(data)) };
        Ok(())
    })
}

/// Reads `fd` to its end: at most `limit` bytes (more is `too_large`), or,
/// `bounded`, up to `limit + 1` with a terminal read as empty.
///
/// # Safety
/// `fd` must be open for the call.
#[cfg(unix)]
unsafe fn read_fd(fd: i32, limit: usize, bounded: bool) -> Result<Vec<u8>, Error> {
    use std::io::IsTerminal;
    use std::os::fd::BorrowedFd;
    let io = |e| Error::Io {
        what: "reading stdin".into(),
        source: e,
    };
    if fd < 0 {
        return Err(io(std::io::Error::from(std::io::ErrorKind::InvalidInput)));
    }
    // SAFETY: the caller keeps `fd` open for the call; we only duplicate
    // it, and the duplicate is closed when `file` drops.
    let owned = unsafe { BorrowedFd::borrow_raw(fd) }
        .try_clone_to_owned()
        .map_err(io)?;
    if !bounded {
        return read_limited(std::fs::File::from(owned), limit);
    }
    if owned.is_terminal() {
        return Ok(Vec::new());
    }
    read_bounded(std::fs::File::from(owned), limit)
}

/// # Safety
/// Always safe; unix-only feature.
#[cfg(not(unix))]
unsafe fn read_fd(_fd: i32, _limit: usize, _bounded: bool) -> Result<Vec<u8>, Error> {
    Err(Error::Io {
        what: "reading a file descriptor".into(),
        source: std::io::Error::from(std::io::ErrorKind::Unsupported),
    })
}

/// Step one of a hook run (the core's `runtime::start`, shared by every
/// language): picks the payload (what was read from stdin; the legacy argv
/// payload only when that is blank), answers a value argv cannot use per
/// the fail policy (the provider's own block, or exit 2 + stderr when the
/// provider is unknown), else names the agent (`--provider`, else the
/// environment, else the payload's shape), applies the size limit,
/// decodes, suppresses a double-fired sibling (Cursor), and fills the
/// loop-guard count. `payload` is what was read from stdin
/// (`ah_read_stdin`: up to `ah_run_args_max_bytes(args) + 1` bytes; more
/// than the limit is answered as `too_large`); if reading failed, pass the
/// failure as `read_error` (from `ah_read_stdin`, or
/// `ah_error_new(AH_ERR_IO, ...)`) and the payload is ignored. `policy` is
/// the hook's (partial) policy JSON, NULL for the defaults; `--fail` in
/// argv overrides it. The argv warnings are put in front of the answer's
/// stderr.
///
/// On `AH_OK` exactly one output is set: `*out_invocation` gets an owned
/// `ah_invocation` (run the handlers, then `ah_invocation_complete`), or
/// `*out_answer` gets an owned `ah_response` that is the complete answer
/// (unknown provider, bad argv value, bad input: write it and exit). Fails
/// with `AH_ERR_INVALID_ARGUMENT` (bad policy), `AH_ERR_INVALID_UTF8` or
/// `AH_ERR_NULL_ARG`; then no output is touched and, if `err` is not NULL,
/// `*err` gets an owned error. Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `args` must be NULL or live; `policy` and `payload` NULL or readable for
/// their lengths; `read_error` NULL or live; the outputs and `err` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_prepare(
    args: *const ah_run_args,
    policy: *const u8,
    policy_len: usize,
    payload: *const u8,
    payload_len: usize,
    read_error: *const ah_error,
    out_invocation: *mut *mut ah_invocation,
    out_answer: *mut *mut ah_response,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out_invocation, "out_invocation")?;
        ptr::check_out(out_answer, "out_answer")?;
        // SAFETY: pointer contract above.
        let (a, p, bytes, re) = unsafe {
            (
                ptr::borrow(args, "args")?,
                self::policy(policy, policy_len)?,
                ptr::bytes(payload, payload_len, "payload")?,
                ptr::borrow_opt(read_error),
            )
        };
        let read = match re {
            Some(e) => Err(e.to_core()),
            None => Ok(bytes.to_vec()),
        };
        // SAFETY: both outputs checked non-NULL above.
        unsafe { give_prepared(start(&a.plan, &p, read), out_invocation, out_answer) };
        Ok(())
    })
}

/// `ah_invocation_prepare` with the payload read from `fd` by the core
/// itself, exactly as `ah_read_stdin(fd, ah_run_args_max_bytes(args))`
/// reads it (a terminal counts as empty): the bytes go from the descriptor
/// into the event without a copy through the caller's memory (a 1 MiB
/// payload is then held once). A read failure is answered per the fail
/// policy, as the same failure passed as `read_error` would be. Outputs,
/// errors and thread-safety as `ah_invocation_prepare`; the caller reads the
/// payload back, when it needs it, with `ah_event_raw`.
///
/// # Safety
/// `args` must be NULL or live; `policy` NULL or readable for its length;
/// `fd` open for the whole call; the outputs and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_prepare_fd(
    args: *const ah_run_args,
    policy: *const u8,
    policy_len: usize,
    fd: i32,
    out_invocation: *mut *mut ah_invocation,
    out_answer: *mut *mut ah_response,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out_invocation, "out_invocation")?;
        ptr::check_out(out_answer, "out_answer")?;
        // SAFETY: pointer contract above.
        let (a, p) = unsafe {
            (
                ptr::borrow(args, "args")?,
                self::policy(policy, policy_len)?,
            )
        };
        // SAFETY: `fd` is open for the call (caller contract).
        let read = unsafe { read_fd(fd, a.plan.read_limit(), true) };
        // SAFETY: both outputs checked non-NULL above.
        unsafe { give_prepared(start(&a.plan, &p, read), out_invocation, out_answer) };
        Ok(())
    })
}

/// Hands the outcome of `runtime::start` to the caller: an invocation, or
/// the complete answer.
///
/// # Safety
/// Both outputs must be non-NULL and writable.
unsafe fn give_prepared(
    started: Result<Invocation, agenthooks::Response>,
    out_invocation: *mut *mut ah_invocation,
    out_answer: *mut *mut ah_response,
) {
    match started {
        Ok(mut inv) => {
            let event = ah_event::shared(&mut inv.event);
            let policy_json = NulStr::new(serde_json::to_string(&inv.policy).unwrap_or_default());
            let v = ah_invocation {
                inv,
                event,
                policy_json,
                event_view: std::sync::OnceLock::new(),
                completed: false,
            };
            // SAFETY: `out_invocation` is non-NULL (caller contract).
            unsafe { ptr::give(out_invocation, v) }
        }
        Err(answer) => {
            let r = ah_response::new(answer);
            // SAFETY: `out_answer` is non-NULL (caller contract).
            unsafe { ptr::give(out_answer, r) }
        }
    }
}

/// Returns the invocation's event, borrowed: valid until
/// `ah_invocation_free(inv)`, never to be passed to `ah_event_free`. NULL
/// when `inv` is NULL. Thread-safe.
///
/// # Safety
/// `inv` must be NULL or a live `ah_invocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_event(inv: *const ah_invocation) -> *const ah_event {
    guard_value(|| {
        // SAFETY: `inv` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(inv) }.map_or(std::ptr::null(), |i| &i.event as *const ah_event)
    })
}

/// Returns the event's canonical JSON (as `ah_event_json`). Valid until
/// `ah_invocation_free(inv)`; `{NULL, 0}` when `inv` is NULL. Thread-safe.
///
/// # Safety
/// `inv` must be NULL or a live `ah_invocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_event_json(inv: *const ah_invocation) -> ah_str {
    guard_value(|| {
        // SAFETY: `inv` is NULL or live (caller contract).
        match unsafe { ptr::borrow_opt(inv) } {
            // SAFETY: the event lives as long as `inv`.
            Some(i) => unsafe { crate::event::ah_event_json(&i.event) },
            None => ah_str::NONE,
        }
    })
}

/// Returns the event's canonical JSON without `raw` (the payload bytes are
/// `ah_event_raw(ah_invocation_event(inv))`): for callers whose JSON
/// decoder limits nesting, since `raw` is the payload verbatim and may
/// nest as deep as the agent wrote it (the canonical fields nest at most
/// about 100 levels). Valid until `ah_invocation_free(inv)`; `{NULL, 0}`
/// when `inv` is NULL. Thread-safe.
///
/// # Safety
/// `inv` must be NULL or a live `ah_invocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_event_view(inv: *const ah_invocation) -> ah_str {
    guard_value(|| {
        // SAFETY: `inv` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(inv) }.map_or(ah_str::NONE, |i| {
            i.event_view
                .get_or_init(|| {
                    NulStr::new(
                        serde_json::to_string(&i.inv.event.to_value_without_raw())
                            .unwrap_or_default(),
                    )
                })
                .view()
        })
    })
}

/// Returns the handler deadline in milliseconds (the policy's
/// `timeout_ms`, else 90% of `--timeout`, else 55 000): abandon handlers
/// that run longer and complete with `AH_ERR_HANDLER_TIMEOUT`. 0 when
/// `inv` is NULL. Thread-safe.
///
/// # Safety
/// `inv` must be NULL or a live `ah_invocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_deadline_ms(inv: *const ah_invocation) -> u64 {
    guard_value(|| {
        // SAFETY: `inv` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(inv) }.map_or(0, |i| i.inv.deadline_ms)
    })
}

/// Returns the effective policy as full JSON (argv overrides applied).
/// Valid until `ah_invocation_free(inv)`; `{NULL, 0}` when `inv` is NULL.
/// Thread-safe.
///
/// # Safety
/// `inv` must be NULL or a live `ah_invocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_policy_json(inv: *const ah_invocation) -> ah_str {
    guard_value(|| {
        // SAFETY: `inv` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(inv) }.map_or(ah_str::NONE, |i| i.policy_json.view())
    })
}

fn complete(i: &mut ah_invocation, outcome: Result<agenthooks::Decision, Error>) -> ah_response {
    i.completed = true;
    // The core's one completion: encode, or the fail policy, plus the
    // opt-in `AGENTHOOKS_NOTES` lines on stderr.
    ah_response::new(i.inv.complete(outcome))
}

/// Whether this run answers "no opinion" at once and leaves the work to
/// a detached child (`--async` on a non-gating event; `docs/async.md`):
/// then call `ah_invocation_detach`. `false` for NULL. Thread-safe.
///
/// # Safety
/// `inv` must be NULL or a live `ah_invocation`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_detaching(inv: *const ah_invocation) -> bool {
    guard_value(|| {
        // SAFETY: `inv` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(inv) }.is_some_and(|i| i.inv.detaching())
    })
}

/// Starts the detached child of an async hook: `argv` (`argc` entries,
/// program first) is how to run this program again, with the `--async`
/// it was started with (Go: `os.Executable()` and `os.Args[1:]`). On
/// `AH_OK` `*out` gets the agent's answer (an owned `ah_response`, the
/// event's "no opinion"; the invocation counts as completed), or NULL when
/// the child could not be started (every slot busy, a spawn error): then
/// run the handlers and complete as usual (the reason is added to the
/// answer's stderr). Fails with `AH_ERR_NULL_ARG`, `AH_ERR_ALREADY_USED`
/// or `AH_ERR_INVALID_UTF8`; then `*out` is untouched and, if `err` is
/// not NULL, `*err` gets an owned error. Needs exclusive access to `inv`.
///
/// # Safety
/// `inv` must be NULL or live; `argv` NULL (with `argc` 0) or `argc`
/// NUL-terminated strings; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_detach(
    inv: *mut ah_invocation,
    argv: *const *const c_char,
    argc: usize,
    out: *mut *mut ah_response,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let argv = unsafe { ptr::argv(argv, argc) }?;
        // SAFETY: pointer contract above.
        let i = unsafe { ptr::borrow_mut(inv, "inv") }?;
        if i.completed {
            return Err(Fail::Used("ah_invocation_detach"));
        }
        match i.inv.detach(&argv) {
            Some(r) => {
                i.completed = true;
                // SAFETY: `out` checked non-NULL above.
                unsafe { ptr::give(out, ah_response::new(r)) };
            }
            // SAFETY: `out` checked non-NULL above.
            None => unsafe { *out = std::ptr::null_mut() },
        }
        Ok(())
    })
}

/// The backfilled `prompt.submitted` to show the observers before this
/// event (at most once per session; `docs/async.md`): on `AH_OK` `*out`
/// gets an owned `ah_event` (free with `ah_event_free`; its `raw` is
/// `null`), or NULL when there is none. Call it only when an observer is
/// registered (it may read `/proc` and the state root); later calls give
/// the same event. Fails only with `AH_ERR_NULL_ARG`. Thread-safe.
///
/// # Safety
/// `inv` must be NULL or live; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_backfill(
    inv: *const ah_invocation,
    out: *mut *mut ah_event,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let i = unsafe { ptr::borrow(inv, "inv") }?;
        match i.inv.backfill() {
            // SAFETY: `out` checked non-NULL above.
            Some(ev) => unsafe { ptr::give(out, ah_event::view_of(ev)) },
            // SAFETY: `out` checked non-NULL above.
            None => unsafe { *out = std::ptr::null_mut() },
        }
        Ok(())
    })
}

/// Step three with the handlers' decision (decision JSON; NULL with length
/// 0 is `no_decision`): encodes it for the agent, or, when it is malformed
/// or not valid here, answers per the fail policy. Records the
/// continuation for the loop guard.
///
/// On `AH_OK` `*out` gets an owned `ah_response`: write its stdout and
/// stderr and exit with its code. (The notes are appended to its stderr
/// as the Rust runtime does, per `AGENTHOOKS_NOTES`: by default on exit
/// code 0, `1` always, `0` never; the same holds for the answer of
/// `ah_invocation_prepare`. Not for a `serve` line, whose reply carries
/// the notes itself.) Fails only with `AH_ERR_NULL_ARG` or
/// `AH_ERR_ALREADY_USED` (a second complete call); then `*out` is
/// untouched and, if `err` is not NULL, `*err` gets an owned error. Needs
/// exclusive access to `inv`; keeps no pointer after return.
///
/// # Safety
/// `inv` must be NULL or live; `decision` NULL or readable for
/// `decision_len`; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_complete(
    inv: *mut ah_invocation,
    decision: *const u8,
    decision_len: usize,
    out: *mut *mut ah_response,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let i = unsafe { ptr::borrow_mut(inv, "inv") }?;
        if i.completed {
            return Err(Fail::Used("ah_invocation_complete"));
        }
        // SAFETY: pointer contract above.
        let d = match unsafe { crate::respond::decision(decision, decision_len) } {
            Ok(d) => Ok(d),
            Err(Fail::Core(e)) => Err(e),
            Err(Fail::Utf8(what, offset)) => Err(Error::InvalidUtf8 { what, offset }),
            Err(other) => return Err(other),
        };
        let r = complete(i, d);
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, r) };
        Ok(())
    })
}

/// Step three when the handlers failed: `code` is `AH_ERR_HANDLER_ERROR`
/// (a handler returned an error), `AH_ERR_PANIC` (it panicked / threw),
/// `AH_ERR_HANDLER_TIMEOUT` (it missed the deadline; the message is
/// ignored) or another core status; `message` says what happened. The
/// answer follows the fail policy, with the agent's real blocking mechanism
/// under `fail: closed`.
///
/// On `AH_OK` `*out` gets an owned `ah_response`. Fails with
/// `AH_ERR_NULL_ARG`, `AH_ERR_ALREADY_USED`, `AH_ERR_INVALID_UTF8`
/// (message) or `AH_ERR_INVALID_ARGUMENT` (a code that is no core status);
/// then `*out` is untouched and, if `err` is not NULL, `*err` gets an owned
/// error. Needs exclusive access to `inv`; keeps no pointer after return.
///
/// # Safety
/// `inv` must be NULL or live; `message` NULL or readable for
/// `message_len`; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_complete_error(
    inv: *mut ah_invocation,
    code: u32,
    message: *const u8,
    message_len: usize,
    out: *mut *mut ah_response,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (i, msg) = unsafe {
            (
                ptr::borrow_mut(inv, "inv")?,
                ptr::opt_text(message, message_len, "message")?.unwrap_or(""),
            )
        };
        if i.completed {
            return Err(Fail::Used("ah_invocation_complete_error"));
        }
        let Some(c) = status_from_u32(code).and_then(core_code) else {
            return Err(Fail::Core(Error::InvalidArgument {
                message: format!("{code} is not the status of a core error code"),
            }));
        };
        let e = match c {
            ErrorCode::HandlerTimeout => Error::HandlerTimeout {
                ms: i.inv.deadline_ms,
            },
            c => error_of(c, msg, i.inv.deadline_ms),
        };
        let r = complete(i, Err(e));
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, r) };
        Ok(())
    })
}

/// Frees an invocation (and its borrowed event). NULL is a no-op; freeing
/// twice is undefined behaviour. Needs exclusive access.
///
/// # Safety
/// `inv` must be NULL or from `ah_invocation_prepare`, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_invocation_free(inv: *mut ah_invocation) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(inv) }
    })
}

/// Computes the handler deadline in milliseconds for a (partial) policy
/// JSON (NULL for the defaults) and the hook timeout the agent's config
/// passed in seconds (`timeout_s` <= 0 or NaN: none): the policy's
/// `timeout_ms`, else 90% of the timeout, else 55 000. On success `*out`
/// gets the value. Fails with `AH_ERR_INVALID_ARGUMENT` (bad policy),
/// `AH_ERR_INVALID_UTF8` or `AH_ERR_NULL_ARG`; then `*out` is untouched
/// and, if `err` is not NULL, `*err` gets an owned error. Thread-safe.
///
/// # Safety
/// `policy` must be NULL or readable for `policy_len`; `out` and `err`
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_policy_deadline_ms(
    policy: *const u8,
    policy_len: usize,
    timeout_s: f64,
    out: *mut u64,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let p = unsafe { self::policy(policy, policy_len) }?;
        let t = (timeout_s > 0.0).then_some(timeout_s);
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::put(out, p.deadline_ms(t)) };
        Ok(())
    })
}

/// Points fd 1 at stderr so that stray prints of handlers cannot corrupt
/// the agent's answer; the real stdout is kept for
/// `ah_stdout_guard_write`. Call it once, before running handlers. On
/// success `*out` gets an owned guard (free with `ah_stdout_guard_free`).
/// Fails only with `AH_ERR_NULL_ARG`; then, if `err` is not NULL, `*err`
/// gets an owned error. Process-wide effect: not for libraries, only for
/// a hook program's main.
///
/// # Safety
/// `out` and `err` must be NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_stdout_divert(
    out: *mut *mut ah_stdout_guard,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        let g = StdoutGuard::divert();
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_stdout_guard { guard: g }) };
        Ok(())
    })
}

/// Writes the answer's bytes to the real stdout (and flushes). Fails with
/// `AH_ERR_IO`, or `AH_ERR_NULL_ARG`; then, if `err` is not NULL, `*err`
/// gets an owned error. Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `stdout_guard` must be NULL or live; `data` NULL or readable for `len`; `err`
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_stdout_guard_write(
    stdout_guard: *const ah_stdout_guard,
    data: *const u8,
    len: usize,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        // SAFETY: pointer contract above.
        let (g, b) = unsafe {
            (
                ptr::borrow(stdout_guard, "stdout_guard")?,
                ptr::bytes(data, len, "data")?,
            )
        };
        g.guard.write_answer(b).map_err(|e| Error::Io {
            what: "writing stdout".into(),
            source: e,
        })?;
        Ok(())
    })
}

/// Frees a stdout guard (fd 1 stays pointed at stderr). NULL is a no-op;
/// freeing twice is undefined behaviour. Needs exclusive access.
///
/// # Safety
/// `stdout_guard` must be NULL or from `ah_stdout_divert`, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_stdout_guard_free(stdout_guard: *mut ah_stdout_guard) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(stdout_guard) }
    })
}
