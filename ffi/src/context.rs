//! MCP transport resolution and transcript pages (issue 16): one JSON
//! request in, one JSON answer out, exactly the core's
//! `agenthooks::mcp::resolve_json` and `agenthooks::transcript::page_json`;
//! the status convention of `host.rs` (a request the core rejects is
//! `AH_OK` with `{"error": {"code", "message"}}`).

use crate::buf::ah_buf;
use crate::error::{ah_error, ah_status};
use crate::host::json_call;

/// Resolves an MCP server's transport from the agent's own configuration.
/// `req` is `{"provider", "server", "cwd"?, "home"?, "env"?: {...},
/// "agent_argv"?: [...], "payload_url"?, "payload_command"?}` (an explicit
/// lookup) or `{"event": <canonical event>}` (the running process's
/// environment and agent, cached per session in the state root). On
/// success `*out` gets an owned `ah_buf` with `{"transport": {"server",
/// "transport", "command"?, "args"?, "url"?, "from_config", "config_path"?,
/// "scope"} | null}` or `{"error": {...}}` — still `AH_OK`. Fails only with
/// `AH_ERR_NULL_ARG`, `AH_ERR_INVALID_UTF8` or `AH_ERR_PANIC`; then `*out`
/// is untouched and, if `err` is not NULL, `*err` gets an owned error.
/// Reads files only (bounded); thread-safe; keeps no pointer after return.
///
/// # Safety
/// `req` must point at `req_len` readable bytes; `out` and `err` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_mcp_resolve_json(
    req: *const u8,
    req_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    // SAFETY: forwarded caller contract.
    unsafe { json_call(req, req_len, out, err, agenthooks::mcp::resolve_json, false) }
}

/// Reads one page of a transcript file. `req` is `{"path", "format"?:
/// "auto" | provider id, "offset"?: 0, "line"?: 1, "max_entries"?: 256,
/// "max_line_bytes"?: 4194304}`; pass the answer's `next_offset` /
/// `next_line` back for the next page until `done`. On success `*out` gets
/// an owned `ah_buf` with `{"entries": [{"line", "offset", "kind",
/// "format"?, "type"?, "role"?, "text"?, "tool_calls"?, "tool_results"?,
/// "timestamp"?, "bytes"?, "raw"?}], "next_offset", "next_line", "done"}`
/// or `{"error": {...}}` — still `AH_OK`. Memory is bounded by
/// `max_entries` × `max_line_bytes`. Failures as for
/// `ah_mcp_resolve_json`. Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `req` must point at `req_len` readable bytes; `out` and `err` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_transcript_page_json(
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
            agenthooks::transcript::page_json,
            false,
        )
    }
}
