//! Decisions, policies and the router merge rules (the core's, called
//! from the JS router; never re-implemented there).

use agenthooks::merge;
use agenthooks::{Decision, Kind};
use napi::bindgen_prelude::{Either, External};
use napi_derive::napi;

use crate::error::{NativeError, Result, throw};
use crate::event::policy;

fn decisions(list: &[String]) -> Result<Vec<Decision>> {
    list.iter()
        .map(|d| Decision::from_json(d).map_err(throw))
        .collect()
}

/// Parses decision JSON strictly and renders it canonically (throws
/// `invalid_decision`).
#[napi]
pub fn decision_normalize(json: String) -> Result<String> {
    Ok(Decision::from_json(&json).map_err(throw)?.to_json())
}

/// Checks a decision (JSON) against the kinds table for an event kind
/// (throws `invalid_decision`).
#[napi]
pub fn decision_validate(json: String, kind: String) -> Result<()> {
    let k = Kind::parse(&kind).map_err(throw)?;
    Decision::from_json(&json)
        .and_then(|d| d.validate_for(k))
        .map_err(throw)
}

/// Fills a partial policy (JSON) with the defaults and renders it (throws
/// `invalid_argument`).
#[napi]
pub fn policy_normalize(json: Option<String>) -> Result<String> {
    let p = policy(json.as_deref())?;
    serde_json::to_string(&p).map_err(|e| {
        throw(agenthooks::Error::InvalidArgument {
            message: e.to_string(),
        })
    })
}

/// The handler deadline in milliseconds for a policy and the `--timeout`
/// the agent's config passed (seconds).
#[napi]
pub fn policy_deadline_ms(json: Option<String>, timeout_s: Option<f64>) -> Result<f64> {
    Ok(policy(json.as_deref())?.deadline_ms(timeout_s) as f64)
}

// The core's incremental first-conclusive-wins fold (stacking / `any`)
// crosses as an opaque external: it is created on every router decision.

/// An empty fold.
#[napi(ts_return_type = "ExternalObject<'agenthooks:Fold'>")]
pub fn fold_new() -> External<Option<merge::Fold>> {
    External::new(Some(merge::Fold::new()))
}

/// Adds the next handler's decision (JSON). `true`: a conclusive decision
/// arrived and no further handler should run. An invalid decision comes
/// back as the error.
#[napi]
pub fn fold_push(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Fold'>")] fold: &mut External<
        Option<merge::Fold>,
    >,
    decision_json: String,
) -> Either<bool, NativeError> {
    match Decision::from_json(&decision_json) {
        Ok(d) => Either::A(fold.get_or_insert_with(merge::Fold::new).push(d)),
        Err(e) => Either::B(NativeError::new(e)),
    }
}

/// Whether a conclusive decision has arrived.
#[napi]
pub fn fold_is_done(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Fold'>")] fold: &External<Option<merge::Fold>>,
) -> bool {
    (**fold).as_ref().is_some_and(merge::Fold::is_done)
}

/// The merged decision (JSON); the fold is empty afterwards.
#[napi]
pub fn fold_finish(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Fold'>")] fold: &mut External<
        Option<merge::Fold>,
    >,
) -> String {
    fold.take().unwrap_or_default().finish().to_json()
}

/// Stacking semantics over a list of decisions (JSON each).
#[napi]
pub fn merge_first(decisions_json: Vec<String>) -> Result<String> {
    Ok(merge::merge_first(decisions(&decisions_json)?).to_json())
}

/// `all` semantics: the most restrictive decision wins, contexts from all.
#[napi]
pub fn merge_all(decisions_json: Vec<String>) -> Result<String> {
    Ok(merge::merge_all(decisions(&decisions_json)?).to_json())
}
