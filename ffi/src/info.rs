//! Providers, capabilities and detection.

use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char};
use std::sync::OnceLock;

use agenthooks::{Error, Kind, Provider};

use crate::buf::ah_buf;
use crate::error::{Fail, ah_error, ah_status};
use crate::panic::guard;
use crate::ptr::{self, ah_str};

/// Parses a provider id or alias.
pub(crate) fn provider(s: &str) -> Result<Provider, Fail> {
    Provider::parse(s).map_err(Fail::Core)
}

/// The static, NUL-terminated id of a provider.
pub(crate) fn provider_cstr(p: Provider) -> &'static CStr {
    static T: OnceLock<Vec<(Provider, CString)>> = OnceLock::new();
    T.get_or_init(|| {
        Provider::ALL
            .iter()
            .map(|p| (*p, CString::new(p.id()).unwrap_or_default()))
            .collect()
    })
    .iter()
    .find(|(q, _)| *q == p)
    .map_or(c"", |(_, c)| c.as_c_str())
}

/// The static, NUL-terminated spelling of a kind.
pub(crate) fn kind_cstr(k: Kind) -> &'static CStr {
    static T: OnceLock<Vec<(Kind, CString)>> = OnceLock::new();
    T.get_or_init(|| {
        Kind::ALL
            .iter()
            .map(|k| (*k, CString::new(k.as_str()).unwrap_or_default()))
            .collect()
    })
    .iter()
    .find(|(q, _)| *q == k)
    .map_or(c"other", |(_, c)| c.as_c_str())
}

/// Resolves a provider id or alias (`"claude"`, `"gemini-cli"`,
/// `"COPILOT_CLI"`, ...) to its canonical id. On success `*out` gets a
/// static view of the id. Fails with `AH_ERR_UNKNOWN_PROVIDER`,
/// `AH_ERR_INVALID_UTF8` or `AH_ERR_NULL_ARG`; then `*out` is untouched
/// and, if `err` is not NULL, `*err` gets an owned error. Thread-safe.
///
/// # Safety
/// `name` must point at `name_len` readable bytes; `out` and `err` NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_provider_parse(
    name: *const u8,
    name_len: usize,
    out: *mut ah_str,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let p = provider(unsafe { ptr::text(name, name_len, "name") }?)?;
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::put(out, ah_str::from_static(provider_cstr(p))) };
        Ok(())
    })
}

/// What a provider can express, per native event, as a JSON array in
/// documentation order: `[{"provider", "native_name", "kind", "can_block",
/// "decisions": [...], "modifiers": [...]}]`. On success `*out` gets an
/// owned `ah_buf`. Fails with `AH_ERR_UNKNOWN_PROVIDER`,
/// `AH_ERR_INVALID_UTF8` or `AH_ERR_NULL_ARG`; then `*out` is untouched
/// and, if `err` is not NULL, `*err` gets an owned error. Thread-safe.
///
/// # Safety
/// `provider` must point at `provider_len` readable bytes; `out` and `err`
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_capabilities_json(
    provider: *const u8,
    provider_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let p = self::provider(unsafe { ptr::text(provider, provider_len, "provider") }?)?;
        let rows: Vec<_> = agenthooks::native_events(p)
            .iter()
            .map(|n| agenthooks::capability_of(p, n))
            .collect();
        let json = serde_json::to_string(&rows).unwrap_or_else(|_| "[]".into());
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::new(json)) };
        Ok(())
    })
}

/// What a provider can express on one native event (any name; an unknown
/// one is kind `other` that takes only `no_decision`), as one JSON object
/// shaped like the rows of `ah_capabilities_json`. Output, errors and
/// rules as for `ah_capabilities_json`.
///
/// # Safety
/// `provider` and `native_name` must point at their lengths of readable
/// bytes; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_capability_json(
    provider: *const u8,
    provider_len: usize,
    native_name: *const u8,
    native_name_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (p, n) = unsafe {
            (
                ptr::text(provider, provider_len, "provider")?,
                ptr::text(native_name, native_name_len, "native_name")?,
            )
        };
        let row = agenthooks::capability_of(self::provider(p)?, n);
        let json = serde_json::to_string(&row).unwrap_or_else(|_| "{}".into());
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::new(json)) };
        Ok(())
    })
}

/// Names the calling agent: the `--provider` flag (`flag`, NULL with
/// length 0 for none) wins; else the agents' hook environment variables
/// (`env_json`: a JSON object of strings, or NULL with length 0 to read
/// the process environment); else the payload's shape (`payload`; when it
/// is empty, the last argv element holding a JSON object). `argv` is
/// `argc` NUL-terminated UTF-8 strings (NULL with 0 for none).
///
/// On success `*out` gets an owned `ah_buf` with `{"provider": "<id>",
/// "detection": "config"|"env"|"shape", "variant": "<v>"}` (`variant` only
/// when known). Fails with `AH_ERR_UNKNOWN_PROVIDER` (an unknown flag, or
/// nothing identifies an agent), `AH_ERR_INVALID_ARGUMENT` (`env_json` is
/// not an object of strings), `AH_ERR_INVALID_UTF8` or `AH_ERR_NULL_ARG`;
/// then `*out` is untouched and, if `err` is not NULL, `*err` gets an
/// owned error. Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `flag`, `env_json` and `payload` must be NULL with length 0 or readable
/// for their lengths; `argv` as for `ah_run_args_parse`; `out` and `err`
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_detect(
    flag: *const u8,
    flag_len: usize,
    argv: *const *const c_char,
    argc: usize,
    env_json: *const u8,
    env_json_len: usize,
    payload: *const u8,
    payload_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (f, v, e, bytes) = unsafe {
            (
                ptr::opt_text(flag, flag_len, "flag")?,
                ptr::argv(argv, argc)?,
                ptr::opt_text(env_json, env_json_len, "env_json")?,
                ptr::bytes(payload, payload_len, "payload")?,
            )
        };
        let env: Option<HashMap<String, String>> = match e {
            None => None,
            Some(t) => Some(serde_json::from_str(t).map_err(|x| {
                Fail::Core(Error::InvalidArgument {
                    message: format!("env_json must be an object of strings: {x}"),
                })
            })?),
        };
        let lookup = |k: &str| match &env {
            Some(m) => m.get(k).cloned(),
            None => std::env::var(k).ok(),
        };
        let (p, how, variant) = agenthooks::detect::detect(f, &lookup, &v, bytes)?;
        let mut o = serde_json::json!({ "provider": p.id(), "detection": how });
        if let Some(var) = variant {
            o["variant"] = var.into();
        }
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::new(o.to_string())) };
        Ok(())
    })
}

/// The machine-readable registry of agent quirks (every row of the quirk
/// tables in the protocol docs) as a JSON array: `[{"id": "claude-code/3",
/// "provider", "versions", "event", "capability", "behaviour",
/// "mitigation", "source", "fixture": {"kind": "required" |
/// "not_applicable", "reason"?}}]`. `provider` (an id or alias) narrows it
/// to one agent; NULL with length 0 gives every agent's. On success `*out`
/// gets an owned `ah_buf`. Fails with `AH_ERR_UNKNOWN_PROVIDER`,
/// `AH_ERR_INVALID_UTF8` or `AH_ERR_NULL_ARG`; then `*out` is untouched
/// and, if `err` is not NULL, `*err` gets an owned error. Thread-safe.
///
/// # Safety
/// `provider` must be NULL with length 0 or readable for `provider_len`;
/// `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_quirks_json(
    provider: *const u8,
    provider_len: usize,
    out: *mut *mut ah_buf,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let p = unsafe { ptr::opt_text(provider, provider_len, "provider") }?;
        let json = match p {
            None => serde_json::to_string(agenthooks::quirks::all()),
            Some(p) => serde_json::to_string(&agenthooks::quirks::for_provider(self::provider(p)?)),
        }
        .unwrap_or_else(|_| "[]".into());
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_buf::new(json)) };
        Ok(())
    })
}
