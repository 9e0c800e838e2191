//! The host side (run a Claude Code / Codex hook configuration for one
//! event, test matchers) and install / uninstall / doctor: one JSON
//! request in, one JSON answer out, exactly the core's
//! `agenthooks::host::json` and `agenthooks::install::json`.
//!
//! Status convention of these three functions: a request the core can read
//! but rejects (bad JSON, unknown dialect or action, a rejected config, a
//! failed install) is *not* a failed call: it returns `AH_OK` and the
//! answer is `{"error": {"code", "message", ...}}` JSON, so every binding
//! sees the same answer with its details (diagnostics). Only boundary
//! faults fail the call: `AH_ERR_NULL_ARG`, `AH_ERR_INVALID_UTF8` and
//! `AH_ERR_PANIC`.

use crate::buf::ah_buf;
use crate::error::{ah_error, ah_status};
use crate::panic::guard;
use crate::{ptr, sigpipe};

/// Shared body: validate, call the core, hand the answer out.
///
/// # Safety
/// As for the exported functions below.
pub(crate) unsafe fn json_call(
    req: *const u8,
    req_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
    f: fn(&str) -> String,
    runs_hooks: bool,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: `req` points at `req_len` readable bytes (caller contract).
        let text = unsafe { ptr::text(req, req_len, "request") }?;
        let blocked = runs_hooks.then(sigpipe::block);
        let answer = f(text);
        drop(blocked);
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::new(answer)) };
        Ok(())
    })
}

/// Runs the hooks of a Claude Code or Codex configuration for one event,
/// exactly as that agent would (the same as `agenthooks host run`).
/// `req` is the request JSON: `{"dialect": "claude-code" | "codex",
/// "configs": [{"source", "text"} | {"path"}], "plugins": [{"root",
/// "hooks"}], "event": {...payload or canonical event...},
/// "event_provider", "cwd", "project_dir", "default_timeout_s",
/// "output_cap", "sequential"}`. On success `*out` gets an owned `ah_buf`
/// with `{"dialect", "event", "subjects", "outcome", "hooks", "audit",
/// "warnings"}`, or, for a request the core rejects (bad JSON, unknown
/// dialect, rejected config, unreadable config file), `{"error": {"code",
/// "message", "diagnostics"?}}` — still `AH_OK`. Fails only with
/// `AH_ERR_NULL_ARG` (NULL `req` or `out`), `AH_ERR_INVALID_UTF8` or
/// `AH_ERR_PANIC`; then `*out` is untouched and, if `err` is not NULL,
/// `*err` gets an owned error. Blocks while the hooks run (each bounded by
/// its timeout); thread-safe; keeps no pointer after return. SIGPIPE (a
/// hook that exits without reading its stdin) is blocked on the calling
/// thread for the call, so it never kills the host process.
///
/// # Safety
/// `req` must point at `req_len` readable bytes; `out` and `err` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_host_run_json(
    req: *const u8,
    req_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    // SAFETY: forwarded caller contract.
    unsafe {
        json_call(
            req,
            req_len,
            out,
            err,
            agenthooks::host::json::run_json,
            true,
        )
    }
}

/// Compiles a matcher in a dialect's flavour and tests subjects. `req` is
/// `{"dialect": "claude-code" | "codex", "pattern": "...", "subjects":
/// [...]}`. On success `*out` gets an owned `ah_buf` with `{"matches":
/// [bool, ...]}` (one per subject), or `{"error": {...diagnostic...}}` for
/// a pattern the dialect rejects or a bad request — still `AH_OK`. Fails
/// only with `AH_ERR_NULL_ARG`, `AH_ERR_INVALID_UTF8` or `AH_ERR_PANIC`;
/// then `*out` is untouched and, if `err` is not NULL, `*err` gets an
/// owned error. Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `req` must point at `req_len` readable bytes; `out` and `err` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_matcher_json(
    req: *const u8,
    req_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    // SAFETY: forwarded caller contract.
    unsafe {
        json_call(
            req,
            req_len,
            out,
            err,
            agenthooks::host::json::matcher_json,
            false,
        )
    }
}

/// Installs, uninstalls or diagnoses hooks (the same as `agenthooks
/// install` / `uninstall` / `doctor`). `req` is `{"action": "install" |
/// "uninstall" | "doctor", "manifest": "<hooks.toml / hooks.json text>" |
/// {...}, "agent": "claude-code" | "codex,cursor" | "all", "scope": "user"
/// | "project" | "local", "project", "home", "env": {...}, "dry_run",
/// "cursor_events", "run"}`. On success `*out` gets an owned `ah_buf` with
/// `{"results": [{"agent", "scope", "changed", "files", "diff", "notes"} |
/// {"agent", "error"}]}` (doctor: `{"agents": [...]}`), or `{"error":
/// {"code", "message"}}` for a bad request or manifest — still `AH_OK`.
/// Fails only with `AH_ERR_NULL_ARG`, `AH_ERR_INVALID_UTF8` or
/// `AH_ERR_PANIC`; then `*out` is untouched and, if `err` is not NULL,
/// `*err` gets an owned error. Writes agent config files unless
/// `dry_run` (doctor with `"run": true` runs the hooks, SIGPIPE blocked
/// as for `ah_host_run_json`); thread-safe; keeps no pointer after return.
///
/// # Safety
/// `req` must point at `req_len` readable bytes; `out` and `err` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_install_json(
    req: *const u8,
    req_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    // SAFETY: forwarded caller contract.
    unsafe {
        json_call(
            req,
            req_len,
            out,
            err,
            agenthooks::install::json::request_json,
            true,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buf::{ah_buf_free, ah_buf_str};
    use crate::error_api::ah_error_free;

    fn call(
        f: unsafe extern "C" fn(
            *const u8,
            usize,
            *mut *mut ah_buf,
            *mut *mut ah_error,
        ) -> ah_status,
        req: &[u8],
    ) -> (ah_status, Option<serde_json::Value>) {
        let mut out: *mut ah_buf = std::ptr::null_mut();
        let mut err: *mut ah_error = std::ptr::null_mut();
        // SAFETY: valid pointers; `out`/`err` freed once below.
        unsafe {
            let st = f(req.as_ptr(), req.len(), &mut out, &mut err);
            let v = (!out.is_null()).then(|| {
                let s = ah_buf_str(out);
                let b = std::slice::from_raw_parts(s.ptr.cast::<u8>(), s.len);
                serde_json::from_slice(b).unwrap()
            });
            ah_buf_free(out);
            ah_error_free(err);
            (st, v)
        }
    }

    #[test]
    fn the_three_calls() {
        let (st, v) = call(
            ah_matcher_json,
            br#"{"dialect":"codex","pattern":"^Bash$","subjects":["Bash","Write"]}"#,
        );
        assert_eq!(st, ah_status::AH_OK);
        assert_eq!(v.unwrap()["matches"], serde_json::json!([true, false]));
        for f in [ah_host_run_json, ah_matcher_json, ah_install_json] {
            let (st, v) = call(f, b"nope");
            assert_eq!(st, ah_status::AH_OK);
            assert_eq!(v.unwrap()["error"]["code"], "invalid_argument");
            assert_eq!(call(f, b"\xff").0, ah_status::AH_ERR_INVALID_UTF8);
            // SAFETY: NULL `req` and NULL `out` are checked.
            unsafe {
                let mut out = std::ptr::null_mut();
                assert_eq!(
                    f(std::ptr::null(), 0, &mut out, std::ptr::null_mut()),
                    ah_status::AH_ERR_NULL_ARG
                );
                assert!(out.is_null());
                assert_eq!(
                    f(
                        b"{}".as_ptr(),
                        2,
                        std::ptr::null_mut(),
                        std::ptr::null_mut()
                    ),
                    ah_status::AH_ERR_NULL_ARG
                );
            }
        }
    }
}
