//! The router's dispatch as data (`agenthooks::dispatch`): a registration
//! table (`ah_router`) and the walk of one event through it
//! (`ah_dispatch`). The binding registers its callables (ids in
//! registration order), asks `ah_dispatch_step` what to call, calls it and
//! hands the outcome back; every dispatch rule is the core's (order, `when`,
//! the fold, middleware and observer semantics, errors included).
//!
//! An event crosses as its key: kind (any spelling), native event name, and
//! for a tool call its native name and canonical class (NULL tool: none).

use agenthooks::dispatch::{Dispatch, Key, Outcome, Role, Table, When};
use agenthooks::{Canonical, Error, ErrorCode, Kind};

use crate::buf::ah_buf;
use crate::error::{Fail, ah_error, ah_status};
use crate::panic::{guard, guard_value};
use crate::ptr;
use crate::respond::decision;

/// A router's registration table. `ah_router_add` needs exclusive access;
/// the `const` calls may run concurrently with each other. Free with
/// `ah_router_free`.
#[derive(Debug, Default)]
pub struct ah_router {
    table: Table,
}

/// One event's walk through an `ah_router` (see `ah_dispatch_step`).
/// Every call needs exclusive access. Free with `ah_dispatch_free`.
#[derive(Debug)]
pub struct ah_dispatch {
    inner: Dispatch,
}

/// Reads an event key.
///
/// # Safety
/// Each pointer NULL or readable for its length.
#[allow(clippy::too_many_arguments)]
unsafe fn key<'a>(
    kind: *const u8,
    kind_len: usize,
    native_name: *const u8,
    native_name_len: usize,
    tool: *const u8,
    tool_len: usize,
    canonical: *const u8,
    canonical_len: usize,
) -> Result<Key<'a>, Fail> {
    // SAFETY: forwarded caller contract.
    let (k, n, t, c) = unsafe {
        (
            ptr::text(kind, kind_len, "kind")?,
            ptr::text(native_name, native_name_len, "native_name")?,
            ptr::opt_text(tool, tool_len, "tool")?,
            ptr::opt_text(canonical, canonical_len, "canonical")?,
        )
    };
    let class = match c.map(|c| When::parse(&format!("canonical:{c}"))) {
        Some(Ok(When::Canonical(c))) => c,
        _ => Canonical::Other,
    };
    Ok(Key {
        kind: Kind::parse(k)?,
        native_name: n,
        tool: t.map(|t| (t, class)),
    })
}

/// Makes an empty table. Returns an owned handle (free with
/// `ah_router_free`); NULL only if allocation failed. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn ah_router_new() -> *mut ah_router {
    guard_value(|| Box::into_raw(Box::<ah_router>::default()))
}

/// Registers an entry. `role`: 0 handler, 1 observer, 2 middleware. `on`:
/// `*`, `kind:<kind>` or `native:<native event name>` (handlers take a kind
/// or name; observers and middleware `*`). `when` (NULL or empty: none):
/// `canonical:<class>`, `names:<A|B>` or `guard` (the core then asks the
/// caller, `ah_dispatch_step` tag 2). On success `*id` gets the entry's id
/// (0, 1, 2, ... in registration order). Fails with
/// `AH_ERR_INVALID_ARGUMENT` (bad role or spec),
/// `AH_ERR_UNKNOWN_EVENT_SPELLING`, `AH_ERR_INVALID_UTF8` or
/// `AH_ERR_NULL_ARG`; then `*id` is untouched and, if `err` is not NULL,
/// `*err` gets an owned error. Needs exclusive access.
///
/// # Safety
/// `router` NULL or live; `on` and `when` NULL or readable for their
/// lengths; `id` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_router_add(
    router: *mut ah_router,
    role: u32,
    on: *const u8,
    on_len: usize,
    when: *const u8,
    when_len: usize,
    id: *mut u32,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(id, "id")?;
        // SAFETY: pointer contract above.
        let (r, on, when) = unsafe {
            (
                ptr::borrow_mut(router, "router")?,
                ptr::text(on, on_len, "on")?,
                ptr::opt_text(when, when_len, "when")?,
            )
        };
        let n = r
            .table
            .add_spec(Role::from_u32(role)?, on, when.unwrap_or(""))?;
        // SAFETY: `id` checked non-NULL above.
        unsafe { ptr::put(id, n) };
        Ok(())
    })
}

/// Whether a handler is registered on the event's kind or native name
/// (`when` aside). False for NULL or invalid arguments. May run
/// concurrently with other `const` calls.
///
/// # Safety
/// `router` NULL or live; `kind` and `native_name` NULL or readable for
/// their lengths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_router_handles(
    router: *const ah_router,
    kind: *const u8,
    kind_len: usize,
    native_name: *const u8,
    native_name_len: usize,
) -> bool {
    guard_value(|| {
        // SAFETY: pointer contract above.
        let (r, k) = unsafe {
            (
                ptr::borrow_opt(router),
                key(
                    kind,
                    kind_len,
                    native_name,
                    native_name_len,
                    std::ptr::null(),
                    0,
                    std::ptr::null(),
                    0,
                ),
            )
        };
        match (r, k) {
            (Some(r), Ok(k)) => r.table.handles(k),
            _ => false,
        }
    })
}

/// Starts dispatching an event (its key: `kind` any spelling,
/// `native_name`, and `tool` + `canonical` for a tool call, NULL when it
/// has none). On success `*out` gets an owned `ah_dispatch` (free with
/// `ah_dispatch_free`). Fails with `AH_ERR_UNKNOWN_EVENT_SPELLING`,
/// `AH_ERR_INVALID_UTF8` or `AH_ERR_NULL_ARG`; then `*out` is untouched
/// and, if `err` is not NULL, `*err` gets an owned error. May run
/// concurrently with other `const` calls on `router`.
///
/// # Safety
/// `router` NULL or live; the strings NULL or readable for their lengths;
/// `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_dispatch_new(
    router: *const ah_router,
    kind: *const u8,
    kind_len: usize,
    native_name: *const u8,
    native_name_len: usize,
    tool: *const u8,
    tool_len: usize,
    canonical: *const u8,
    canonical_len: usize,
    out: *mut *mut ah_dispatch,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (r, k) = unsafe {
            (
                ptr::borrow(router, "router")?,
                key(
                    kind,
                    kind_len,
                    native_name,
                    native_name_len,
                    tool,
                    tool_len,
                    canonical,
                    canonical_len,
                )?,
            )
        };
        let d = ah_dispatch {
            inner: r.table.start(k),
        };
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, d) };
        Ok(())
    })
}

/// Starts dispatching a backfilled event (`backfilled: true`, from
/// `ah_invocation_backfill`): the observers only, then `no_decision`
/// (dispatch rule 5). On success `*out` gets an owned `ah_dispatch`.
/// Fails only with `AH_ERR_NULL_ARG`. May run concurrently with other
/// `const` calls on `router`.
///
/// # Safety
/// `router` NULL or live; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_dispatch_new_observers(
    router: *const ah_router,
    out: *mut *mut ah_dispatch,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let r = unsafe { ptr::borrow(router, "router") }?;
        let d = ah_dispatch {
            inner: r.table.start_observers(),
        };
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, d) };
        Ok(())
    })
}

/// What to call next; returns the tag: 0 observe (call observer `*id`,
/// then `ah_dispatch_give`/`_give_error`), 1 middleware (call middleware
/// `*id` with a `next` that calls `ah_dispatch_enter` with `*level` and
/// then steps on until tag 4, taking `ah_dispatch_result` as next's
/// answer; then give the middleware's outcome), 2 guard (evaluate handler
/// `*id`'s predicate, answer with `ah_dispatch_guard`), 3 handler (call
/// handler `*id`, give its outcome), 4 return (take `ah_dispatch_result`).
/// NULL `dispatch` returns 4. `id` and `level` may be NULL. Needs
/// exclusive access.
///
/// # Safety
/// `dispatch` NULL or live; `id` and `level` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_dispatch_step(
    dispatch: *mut ah_dispatch,
    id: *mut u32,
    level: *mut u32,
) -> u32 {
    guard_value(|| {
        // SAFETY: pointer contract above.
        let Ok(d) = (unsafe { ptr::borrow_mut(dispatch, "dispatch") }) else {
            return 4;
        };
        let (tag, i, l) = d.inner.step().wire();
        // SAFETY: each NULL or writable (caller contract).
        unsafe {
            if !id.is_null() {
                ptr::put(id, i);
            }
            if !level.is_null() {
                ptr::put(level, l);
            }
        }
        tag
    })
}

/// The called entry returned `decision` (decision JSON; NULL with length
/// 0: no decision). A decision that does not parse is the entry's failure
/// (`invalid_decision`), not this call's. Fails only with
/// `AH_ERR_NULL_ARG` or `AH_ERR_INVALID_UTF8`. Needs exclusive access.
///
/// # Safety
/// `dispatch` NULL or live; `decision` NULL or readable for its length;
/// `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_dispatch_give(
    dispatch: *mut ah_dispatch,
    decision: *const u8,
    decision_len: usize,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        // SAFETY: pointer contract above.
        let d = unsafe { ptr::borrow_mut(dispatch, "dispatch") }?;
        // SAFETY: pointer contract above.
        let out = match unsafe { self::decision(decision, decision_len) } {
            Ok(dec) => Outcome::Decision(dec),
            Err(Fail::Core(e)) => Outcome::Error(e),
            Err(f) => return Err(f),
        };
        d.inner.give(out);
        Ok(())
    })
}

/// The called entry failed: `code` an error id (NULL or unknown:
/// `handler_error`), `message` its text. Fails only with `AH_ERR_NULL_ARG`
/// or `AH_ERR_INVALID_UTF8`. Needs exclusive access.
///
/// # Safety
/// `dispatch` NULL or live; `code` and `message` NULL or readable for
/// their lengths; `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_dispatch_give_error(
    dispatch: *mut ah_dispatch,
    code: *const u8,
    code_len: usize,
    message: *const u8,
    message_len: usize,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        // SAFETY: pointer contract above.
        let (d, code, message) = unsafe {
            (
                ptr::borrow_mut(dispatch, "dispatch")?,
                ptr::opt_text(code, code_len, "code")?,
                ptr::opt_text(message, message_len, "message")?,
            )
        };
        let c = code
            .and_then(ErrorCode::parse)
            .unwrap_or(ErrorCode::HandlerError);
        let e = Error::from_code(c, message.unwrap_or("").to_string(), 0);
        d.inner.give(Outcome::Error(e));
        Ok(())
    })
}

/// The answer to a guard step (tag 2): whether the predicate held. NULL
/// `dispatch` is a no-op. Needs exclusive access.
///
/// # Safety
/// `dispatch` NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_dispatch_guard(dispatch: *mut ah_dispatch, held: bool) {
    guard_value(|| {
        // SAFETY: pointer contract above.
        if let Ok(d) = unsafe { ptr::borrow_mut(dispatch, "dispatch") } {
            d.inner.guard(held);
        }
    })
}

/// A middleware's `next` at `level` was called with an event (its key, as
/// for `ah_dispatch_new`). On success step on. Fails with
/// `AH_ERR_HANDLER_ERROR` when `next` was already called (or out of turn):
/// return that error to the middleware; the dispatch fails with it too.
/// Also `AH_ERR_NULL_ARG`, `AH_ERR_INVALID_UTF8`,
/// `AH_ERR_UNKNOWN_EVENT_SPELLING`. Needs exclusive access to `dispatch`.
///
/// # Safety
/// `dispatch` and `router` NULL or live; the strings NULL or readable for
/// their lengths; `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_dispatch_enter(
    dispatch: *mut ah_dispatch,
    router: *const ah_router,
    level: u32,
    kind: *const u8,
    kind_len: usize,
    native_name: *const u8,
    native_name_len: usize,
    tool: *const u8,
    tool_len: usize,
    canonical: *const u8,
    canonical_len: usize,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        // SAFETY: pointer contract above.
        let (d, r, k) = unsafe {
            (
                ptr::borrow_mut(dispatch, "dispatch")?,
                ptr::borrow(router, "router")?,
                key(
                    kind,
                    kind_len,
                    native_name,
                    native_name_len,
                    tool,
                    tool_len,
                    canonical,
                    canonical_len,
                )?,
            )
        };
        d.inner.enter(&r.table, level, k)?;
        Ok(())
    })
}

/// The finished level's answer (after tag 4): `*out` gets an owned
/// `ah_buf` with the decision JSON; or the level failed, and the status
/// and `*err` are its error (`AH_ERR_HANDLER_ERROR` for a failing entry or
/// `next` called twice, or the code the entry failed with). At level 0 this
/// is the dispatch's answer. Needs exclusive access.
///
/// # Safety
/// `dispatch` NULL or live; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_dispatch_result(
    dispatch: *mut ah_dispatch,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let d = unsafe { ptr::borrow_mut(dispatch, "dispatch") }?;
        let dec = d.inner.result()?;
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::new(dec.to_json())) };
        Ok(())
    })
}

/// Frees a dispatch. NULL is a no-op; freeing twice is undefined
/// behaviour.
///
/// # Safety
/// `dispatch` NULL or from `ah_dispatch_new`, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_dispatch_free(dispatch: *mut ah_dispatch) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(dispatch) }
    })
}

/// Frees a table. NULL is a no-op; freeing twice is undefined behaviour.
///
/// # Safety
/// `router` NULL or from `ah_router_new`, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_router_free(router: *mut ah_router) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(router) }
    })
}
