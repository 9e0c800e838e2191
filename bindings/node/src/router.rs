//! The core's dispatch table and machine (`agenthooks::dispatch`) for the
//! JS Router: it registers its callables here and calls what the core asks
//! for. No dispatch rule lives in JS. Both cross as opaque externals.

use agenthooks::dispatch::{self, Dispatch, Key, Outcome, Role, Table, When};
use agenthooks::{Canonical, Decision, Error, Kind};
use napi::bindgen_prelude::{Either, External};
use napi_derive::napi;

use crate::error::{NativeError, copy};

fn key<'a>(
    kind: &str,
    native_name: &'a str,
    tool: Option<&'a str>,
    canonical: Option<&str>,
) -> Result<Key<'a>, Error> {
    let tool = match (tool, canonical) {
        (Some(t), Some(c)) => {
            match When::parse(&format!("canonical:{c}")).unwrap_or(When::Always) {
                When::Canonical(c) => Some((t, c)),
                _ => Some((t, Canonical::Other)),
            }
        }
        (Some(t), None) => Some((t, Canonical::Other)),
        _ => None,
    };
    Ok(Key {
        kind: Kind::parse(kind)?,
        native_name,
        tool,
    })
}

/// An empty registration table.
#[napi(ts_return_type = "ExternalObject<'agenthooks:RouterTable'>")]
pub fn router_new() -> External<Table> {
    External::new(Table::new())
}

/// Registers an entry (`role` 0 handler, 1 observer, 2 middleware; `on`
/// `*`, `kind:<kind>` or `native:<name>`; `when` ``, `canonical:<class>`,
/// `names:<A|B>` or `guard`): its id, or the error.
#[napi]
pub fn router_add(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:RouterTable'>")] table: &mut External<Table>,
    role: u32,
    on: String,
    when: String,
) -> Either<u32, NativeError> {
    match Role::from_u32(role).and_then(|r| table.add_spec(r, &on, &when)) {
        Ok(id) => Either::A(id),
        Err(e) => Either::B(NativeError::new(e)),
    }
}

/// Whether a handler is registered on the kind or native name.
#[napi]
pub fn router_handles(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:RouterTable'>")] table: &External<Table>,
    kind: String,
    native_name: String,
) -> bool {
    key(&kind, &native_name, None, None).is_ok_and(|k| table.handles(k))
}

/// Starts dispatching a backfilled event: the observers only (dispatch
/// rule 5).
#[napi(ts_return_type = "ExternalObject<'agenthooks:Dispatch'>")]
pub fn dispatch_start_observers(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:RouterTable'>")] table: &External<Table>,
) -> External<Dispatch> {
    External::new(table.start_observers())
}

/// Starts dispatching an event (its kind, native name, tool name and
/// canonical class).
#[napi(ts_return_type = "ExternalObject<'agenthooks:Dispatch'> | NativeError")]
pub fn dispatch_start(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:RouterTable'>")] table: &External<Table>,
    kind: String,
    native_name: String,
    tool: Option<String>,
    canonical: Option<String>,
) -> Either<External<Dispatch>, NativeError> {
    match key(&kind, &native_name, tool.as_deref(), canonical.as_deref()) {
        Ok(k) => Either::A(External::new(table.start(k))),
        Err(e) => Either::B(NativeError::new(e)),
    }
}

/// The next step, packed: `tag + 8 * level + 524288 * id` (tags: 0
/// observe, 1 middleware, 2 guard, 3 handler, 4 return).
#[napi]
pub fn dispatch_step(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Dispatch'>")] d: &mut External<Dispatch>,
) -> f64 {
    let (tag, id, level) = d.step().wire();
    f64::from(tag) + 8.0 * f64::from(level.min(65535)) + 524_288.0 * f64::from(id)
}

/// The called entry's decision (JSON; `undefined`: no decision). An
/// invalid decision is its failure.
#[napi]
pub fn dispatch_give(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Dispatch'>")] d: &mut External<Dispatch>,
    decision_json: Option<String>,
) {
    let out = match decision_json {
        None => Outcome::NoDecision,
        Some(j) => match Decision::from_json(&j) {
            Ok(d) => Outcome::Decision(d),
            Err(e) => Outcome::Error(e),
        },
    };
    d.give(out);
}

/// The called entry failed with this error.
#[napi]
pub fn dispatch_give_error(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Dispatch'>")] d: &mut External<Dispatch>,
    err: &NativeError,
) {
    d.give(Outcome::Error(copy(&err.inner)));
}

/// The answer to a guard step.
#[napi]
pub fn dispatch_guard(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Dispatch'>")] d: &mut External<Dispatch>,
    held: bool,
) {
    d.guard(held);
}

/// A middleware's `next` at `level` was called with this event: `null`,
/// or the error to throw (called twice).
#[napi]
pub fn dispatch_enter(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Dispatch'>")] d: &mut External<Dispatch>,
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:RouterTable'>")] table: &External<Table>,
    level: u32,
    kind: String,
    native_name: String,
    tool: Option<String>,
    canonical: Option<String>,
) -> Option<NativeError> {
    let r = key(&kind, &native_name, tool.as_deref(), canonical.as_deref())
        .and_then(|k| d.enter(table, level, k));
    r.err().map(NativeError::new)
}

/// The finished level's answer: decision JSON, or the error.
#[napi]
pub fn dispatch_result(
    #[napi(ts_arg_type = "ExternalObject<'agenthooks:Dispatch'>")] d: &mut External<Dispatch>,
) -> Either<String, NativeError> {
    match d.result() {
        Ok(dec) => Either::A(dec.to_json()),
        Err(e) => Either::B(NativeError::new(e)),
    }
}

/// Reports a failing observer on stderr (the core's wording); for
/// observers whose Promise rejects after the dispatch moved on.
#[napi]
pub fn observer_failed(message: String) {
    dispatch::observer_failed(&message);
}

/// Whether `spec` (`canonical:<class>` or `names:<A|B>`) matches a tool
/// call (name, canonical class).
#[napi]
pub fn when_matches(spec: String, tool: String, canonical: String) -> Either<bool, NativeError> {
    let k = match key("other", "", Some(&tool), Some(&canonical)) {
        Ok(k) => k,
        Err(e) => return Either::B(NativeError::new(e)),
    };
    match When::parse(&spec) {
        Ok(w) => Either::A(w.matches(k.tool)),
        Err(e) => Either::B(NativeError::new(e)),
    }
}
