//! The router's merge rules (implemented once in the core): an
//! incremental first-conclusive fold, and `all` / `first` over a list.

use agenthooks::Decision;
use agenthooks::merge::{Fold, merge_all, merge_first};

use crate::buf::ah_buf;
use crate::error::{Fail, ah_error, ah_status};
use crate::panic::{guard, guard_value};
use crate::ptr;
use crate::respond::decision;

/// An incremental first-conclusive-wins fold (router stacking): push each
/// handler's decision in order and stop calling handlers once a push says
/// done; `ah_fold_finish` gives the winner, else the merged neutrals.
/// Mutable: every call needs exclusive access (one thread at a time). Free
/// with `ah_fold_free`.
#[derive(Debug, Default)]
pub struct ah_fold {
    fold: Option<Fold>,
}

/// Makes an empty fold. Returns an owned handle (free with
/// `ah_fold_free`); NULL only if allocation failed. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn ah_fold_new() -> *mut ah_fold {
    guard_value(|| {
        Box::into_raw(Box::new(ah_fold {
            fold: Some(Fold::new()),
        }))
    })
}

/// Adds the next handler's decision (decision JSON; NULL with length 0 is
/// `no_decision`). On success `*done` (if `done` is not NULL) is true when
/// a conclusive decision has arrived and no further handler should run;
/// pushes after that are ignored. Fails with `AH_ERR_INVALID_DECISION`,
/// `AH_ERR_INVALID_UTF8`, `AH_ERR_NULL_ARG` or `AH_ERR_ALREADY_USED` (after
/// `ah_fold_finish`); then the fold is unchanged, `*done` untouched and,
/// if `err` is not NULL, `*err` gets an owned error. Needs exclusive
/// access; keeps no pointer after return.
///
/// # Safety
/// `fold` must be NULL or live; `decision` NULL or readable for
/// `decision_len`; `done` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_fold_push(
    fold: *mut ah_fold,
    decision: *const u8,
    decision_len: usize,
    done: *mut bool,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        // SAFETY: pointer contract above.
        let (f, d) = unsafe {
            (
                ptr::borrow_mut(fold, "fold")?,
                self::decision(decision, decision_len)?,
            )
        };
        let f = f.fold.as_mut().ok_or(Fail::Used("ah_fold_finish"))?;
        let is_done = f.push(d);
        if !done.is_null() {
            // SAFETY: non-NULL and writable (caller contract).
            unsafe { ptr::put(done, is_done) };
        }
        Ok(())
    })
}

/// Whether a conclusive decision has arrived; false when `fold` is NULL
/// or finished. May run concurrently with other `const` calls.
///
/// # Safety
/// `fold` must be NULL or live.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_fold_is_done(fold: *const ah_fold) -> bool {
    guard_value(|| {
        // SAFETY: `fold` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(fold) }
            .and_then(|f| f.fold.as_ref())
            .is_some_and(Fold::is_done)
    })
}

/// Finishes the fold: `*out` gets an owned `ah_buf` with the decision JSON
/// (the winner, else the merged neutrals, else `{"kind":"no_decision"}`).
/// A second call fails with `AH_ERR_ALREADY_USED`; NULL `fold`/`out` with
/// `AH_ERR_NULL_ARG`. On failure `*out` is untouched and, if `err` is not
/// NULL, `*err` gets an owned error. Needs exclusive access. The handle
/// must still be freed with `ah_fold_free`.
///
/// # Safety
/// `fold` must be NULL or live; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_fold_finish(
    fold: *mut ah_fold,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let f = unsafe { ptr::borrow_mut(fold, "fold") }?;
        let d = f.fold.take().ok_or(Fail::Used("ah_fold_finish"))?.finish();
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::new(d.to_json())) };
        Ok(())
    })
}

/// Frees a fold. NULL is a no-op; freeing twice is undefined behaviour.
/// Needs exclusive access.
///
/// # Safety
/// `fold` must be NULL or from `ah_fold_new`, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_fold_free(fold: *mut ah_fold) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(fold) }
    })
}

/// Parses a JSON array of decisions.
///
/// # Safety
/// As for `ptr::bytes`.
unsafe fn decision_list(p: *const u8, len: usize) -> Result<Vec<Decision>, Fail> {
    // SAFETY: forwarded caller contract.
    let t = unsafe { ptr::text(p, len, "decisions") }?;
    let items: Vec<serde_json::Value> =
        serde_json::from_str(t).map_err(|e| agenthooks::Error::InvalidDecision {
            reason: format!("decisions must be a JSON array: {e}"),
        })?;
    items
        .iter()
        .map(|v| Decision::from_json(&v.to_string()).map_err(Fail::Core))
        .collect()
}

/// `all` semantics over a JSON array of decisions: the most restrictive
/// wins (deny > defer > ask > allow > neutral; continue > finish; replace >
/// flag > observed; ties to the earliest), contexts from all. On success
/// `*out` gets an owned `ah_buf` with the merged decision JSON (`[]` gives
/// `no_decision`). Fails with `AH_ERR_INVALID_DECISION` (not an array, or
/// a bad element), `AH_ERR_INVALID_UTF8` or `AH_ERR_NULL_ARG`; then `*out`
/// is untouched and, if `err` is not NULL, `*err` gets an owned error.
/// Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `decisions` must point at `decisions_len` readable bytes; `out` and
/// `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_merge_all(
    decisions: *const u8,
    decisions_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let list = unsafe { decision_list(decisions, decisions_len) }?;
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::new(merge_all(list).to_json())) };
        Ok(())
    })
}

/// Stacking semantics over a JSON array of decisions (the same as pushing
/// each into an `ah_fold` and finishing). Output, errors and rules as for
/// `ah_merge_all`.
///
/// # Safety
/// As for `ah_merge_all`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_merge_first(
    decisions: *const u8,
    decisions_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let list = unsafe { decision_list(decisions, decisions_len) }?;
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::new(merge_first(list).to_json())) };
        Ok(())
    })
}

/// Parses decision JSON strictly (any kind spelling, `context` as a string
/// or a list, `stop_agent` as a flag, string or object) and returns its
/// canonical form: on success `*out` gets an owned `ah_buf` (free with
/// `ah_buf_free`). Fails with `AH_ERR_INVALID_DECISION` (malformed or
/// unknown fields), `AH_ERR_INVALID_UTF8` or `AH_ERR_NULL_ARG`; then `*out`
/// is untouched and, if `err` is not NULL, `*err` gets an owned error.
/// Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `decision` must point at `decision_len` readable bytes; `out` and `err`
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_decision_normalize(
    decision: *const u8,
    decision_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let t = unsafe { ptr::text(decision, decision_len, "decision") }?;
        let d = Decision::from_json(t)?;
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::new(d.to_json())) };
        Ok(())
    })
}
