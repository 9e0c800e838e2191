//! Decoding a payload into an `ah_event`, and reading it.

use std::sync::{Arc, OnceLock};

use agenthooks::{DecodeOptions, Detection, Error, Event};

use crate::error::{ah_error, ah_status};
use crate::info::{kind_cstr, provider, provider_cstr};
use crate::panic::{guard, guard_value};
use crate::ptr::{self, NulStr, ah_str};

/// Options for `ah_event_decode`, set through setters. Setters need
/// exclusive access; a `const ah_decode_options *` may be shared by
/// concurrent decodes. Free with `ah_decode_options_free`.
#[derive(Debug, Clone, Default)]
pub struct ah_decode_options {
    opts: DecodeOptions,
}

/// One decoded hook event. Immutable: every `const ah_event *` call may
/// run concurrently from any thread. Free with `ah_event_free`.
#[derive(Debug)]
pub struct ah_event {
    pub(crate) event: Arc<Event>,
    json: OnceLock<NulStr>,
    head: OnceLock<NulStr>,
    output: OnceLock<Option<NulStr>>,
    native: OnceLock<NulStr>,
    mode: OnceLock<NulStr>,
    /// The raw bytes plus a NUL, copied on first use, when the shared
    /// event's own bytes carry no NUL after them (see [`ah_event::view_of`]).
    raw_nul: Option<OnceLock<Vec<u8>>>,
}

impl ah_event {
    pub(crate) fn new(event: Event) -> ah_event {
        ah_event::shared(&mut Arc::new(event))
    }

    /// Shares an event (an invocation's) without copying it.
    pub(crate) fn shared(event: &mut Arc<Event>) -> ah_event {
        // Keep a NUL after the raw bytes (outside `len`), so the view
        // `ah_event_raw` returns is a C string like every `ah_str`. The
        // event is not shared yet, so this does not copy it.
        let raw = &mut Arc::make_mut(event).raw;
        raw.reserve_exact(1);
        raw.spare_capacity_mut()[0].write(0);
        ah_event {
            event: Arc::clone(event),
            json: OnceLock::new(),
            head: OnceLock::new(),
            output: OnceLock::new(),
            native: OnceLock::new(),
            mode: OnceLock::new(),
            raw_nul: None,
        }
    }

    /// Shares an event that other owners hold too (a serve bridge job's)
    /// without copying it; `ah_event_raw` copies the raw bytes once, on
    /// first use, to give them their NUL.
    pub(crate) fn view_of(event: Arc<Event>) -> ah_event {
        ah_event {
            event,
            json: OnceLock::new(),
            head: OnceLock::new(),
            output: OnceLock::new(),
            native: OnceLock::new(),
            mode: OnceLock::new(),
            raw_nul: Some(OnceLock::new()),
        }
    }

    /// The raw bytes, followed by a NUL that the length does not count.
    fn raw_view(&self) -> ah_str {
        let bytes: &[u8] = match &self.raw_nul {
            None => &self.event.raw,
            Some(cell) => {
                let v = cell.get_or_init(|| {
                    let mut v = Vec::with_capacity(self.event.raw.len().saturating_add(1));
                    v.extend_from_slice(&self.event.raw);
                    v.push(0);
                    v
                });
                &v[..v.len() - 1]
            }
        };
        ah_str {
            ptr: bytes.as_ptr().cast(),
            len: bytes.len(),
        }
    }
}

/// Makes decode options with the defaults (variant and event from the
/// payload, detection `config`, the core's payload size limit). Returns
/// an owned handle (free with `ah_decode_options_free`); NULL only if
/// allocation failed. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn ah_decode_options_new() -> *mut ah_decode_options {
    guard_value(|| Box::into_raw(Box::default()))
}

/// Sets the variant (`cli`, `ide`, `cloud`, ...) used when the payload
/// does not name one; NULL with length 0 clears it. Fails with
/// `AH_ERR_NULL_ARG` (NULL `opts`) or `AH_ERR_INVALID_UTF8`; then the
/// options are unchanged and, if `err` is not NULL, `*err` gets an owned
/// error. Needs exclusive access to `opts`; keeps no pointer after return.
///
/// # Safety
/// `opts` must be NULL or live; `variant` NULL or `variant_len` readable
/// bytes; `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_decode_options_set_variant(
    opts: *mut ah_decode_options,
    variant: *const u8,
    variant_len: usize,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        // SAFETY: pointer contract above.
        let (o, v) = unsafe {
            (
                ptr::borrow_mut(opts, "opts")?,
                ptr::opt_text(variant, variant_len, "variant")?,
            )
        };
        o.opts.variant = v.map(str::to_string);
        Ok(())
    })
}

/// Sets the native event name for payloads that do not carry one (the
/// `--event` of the argv contract); NULL with length 0 clears it. Errors
/// and rules as for `ah_decode_options_set_variant`.
///
/// # Safety
/// As for `ah_decode_options_set_variant`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_decode_options_set_event(
    opts: *mut ah_decode_options,
    event: *const u8,
    event_len: usize,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        // SAFETY: pointer contract above.
        let (o, e) = unsafe {
            (
                ptr::borrow_mut(opts, "opts")?,
                ptr::opt_text(event, event_len, "event")?,
            )
        };
        o.opts.event = e.map(str::to_string);
        Ok(())
    })
}

/// Sets how the provider was identified: `"config"` (the default), `"env"`
/// or `"shape"` (as `ah_detect` reports it). Anything else is
/// `AH_ERR_INVALID_ARGUMENT`; other errors and rules as for
/// `ah_decode_options_set_variant`.
///
/// # Safety
/// As for `ah_decode_options_set_variant`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_decode_options_set_detection(
    opts: *mut ah_decode_options,
    detection: *const u8,
    detection_len: usize,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        // SAFETY: pointer contract above.
        let (o, d) = unsafe {
            (
                ptr::borrow_mut(opts, "opts")?,
                ptr::text(detection, detection_len, "detection")?,
            )
        };
        o.opts.detection =
            serde_json::from_value::<Detection>(d.into()).map_err(|_| Error::InvalidArgument {
                message: format!("detection `{d}` (expected config, env or shape)"),
            })?;
        Ok(())
    })
}

/// Sets the payload size limit in bytes; 0 restores the core's default.
/// Fails only with `AH_ERR_NULL_ARG` (NULL `opts`). Needs exclusive access.
///
/// # Safety
/// `opts` must be NULL or live; `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_decode_options_set_max_bytes(
    opts: *mut ah_decode_options,
    max_bytes: usize,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        // SAFETY: pointer contract above.
        let o = unsafe { ptr::borrow_mut(opts, "opts") }?;
        o.opts.max_bytes = if max_bytes == 0 {
            DecodeOptions::default().max_bytes
        } else {
            max_bytes
        };
        Ok(())
    })
}

/// Frees decode options. NULL is a no-op; freeing twice is undefined
/// behaviour. Needs exclusive access.
///
/// # Safety
/// `opts` must be NULL or from `ah_decode_options_new`, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_decode_options_free(opts: *mut ah_decode_options) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(opts) }
    })
}

/// Decodes one hook payload of `provider` (an id or alias such as
/// `"claude-code"`, `"claude"`, `"codex"`) into a unified event. `payload`
/// is the raw stdin bytes (not NUL-terminated; kept byte for byte as the
/// event's raw); `opts` may be NULL for the defaults.
///
/// On success `*out` gets an owned `ah_event` (free with `ah_event_free`)
/// and the result is `AH_OK`. On failure `*out` is untouched and the
/// status names the problem: the core's decode errors
/// (`AH_ERR_INVALID_JSON`, `AH_ERR_INVALID_UTF8`, `AH_ERR_TOO_DEEP`,
/// `AH_ERR_UNKNOWN_PROVIDER`, ...), `AH_ERR_NULL_ARG` for a NULL `provider`
/// or `out`, `AH_ERR_INVALID_UTF8` for a provider that is not UTF-8. If
/// `err` is not NULL, `*err` gets an owned error; pass it to
/// `ah_fail_response_for_payload` for the agent's answer to bad input.
/// Thread-safe; keeps no pointer after return.
///
/// # Safety
/// `provider` must point at `provider_len` readable bytes; `payload` at
/// `payload_len` (NULL with length 0 is the empty payload); `opts` NULL or
/// live; `out` and `err` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_event_decode(
    provider: *const u8,
    provider_len: usize,
    payload: *const u8,
    payload_len: usize,
    opts: *const ah_decode_options,
    out: *mut *mut ah_event,
    err: *mut *mut ah_error,
) -> ah_status {
    guard(err, || {
        ptr::check_out(out, "out")?;
        // SAFETY: pointer contract above.
        let (p, bytes, o) = unsafe {
            (
                ptr::text(provider, provider_len, "provider")?,
                ptr::bytes(payload, payload_len, "payload")?,
                ptr::borrow_opt(opts),
            )
        };
        let p = self::provider(p)?;
        let default;
        let o = match o {
            Some(o) => &o.opts,
            None => {
                default = DecodeOptions::default();
                &default
            }
        };
        let ev = agenthooks::decode(p, bytes, o)?;
        // SAFETY: `out` checked non-NULL above.
        unsafe { ptr::give(out, ah_event::new(ev)) };
        Ok(())
    })
}

/// Returns the event's canonical JSON (docs/canonical-json.md), with `raw`
/// spliced in verbatim. Rendered on first use and cached; the view is
/// valid until `ah_event_free(event)`. `{NULL, 0}` when `event` is NULL.
/// Thread-safe.
///
/// # Safety
/// `event` must be NULL or a live `ah_event`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_event_json(event: *const ah_event) -> ah_str {
    guard_value(|| {
        // SAFETY: `event` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(event) }.map_or(ah_str::NONE, |e| {
            e.json.get_or_init(|| NulStr::new(e.event.to_json())).view()
        })
    })
}

/// Returns the event's canonical JSON without `output` and `raw`: the
/// small part, for a binding to decode up front while the tool output
/// (`ah_event_output_json`) and the payload (`ah_event_raw`) are read only
/// when a handler asks. Rendered on first use and cached; the view is
/// valid until `ah_event_free(event)`. `{NULL, 0}` when `event` is NULL.
/// Thread-safe.
///
/// # Safety
/// `event` must be NULL or a live `ah_event`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_event_head_json(event: *const ah_event) -> ah_str {
    guard_value(|| {
        // SAFETY: `event` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(event) }.map_or(ah_str::NONE, |e| {
            e.head
                .get_or_init(|| NulStr::new(e.event.head_json()))
                .view()
        })
    })
}

/// Returns the event's tool output (the canonical `output` member) as
/// JSON text; `{NULL, 0}` when the event has none (the member is then
/// absent from the canonical JSON) or `event` is NULL. Rendered on first
/// use and cached; the view is valid until `ah_event_free(event)`.
/// Thread-safe.
///
/// # Safety
/// `event` must be NULL or a live `ah_event`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_event_output_json(event: *const ah_event) -> ah_str {
    guard_value(|| {
        // SAFETY: `event` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(event) }.map_or(ah_str::NONE, |e| {
            e.output
                .get_or_init(|| e.event.output_json().map(NulStr::new))
                .as_ref()
                .map_or(ah_str::NONE, NulStr::view)
        })
    })
}

/// Returns the verbatim payload bytes (valid UTF-8 JSON). The view is
/// valid until `ah_event_free(event)`; `{NULL, 0}` when `event` is NULL.
/// Thread-safe.
///
/// # Safety
/// `event` must be NULL or a live `ah_event`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_event_raw(event: *const ah_event) -> ah_str {
    guard_value(|| {
        // SAFETY: `event` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(event) }.map_or(ah_str::NONE, ah_event::raw_view)
    })
}

/// Returns the event's provider id (`"claude-code"`, `"codex"`, ...).
/// Static; `{NULL, 0}` when `event` is NULL. Thread-safe.
///
/// # Safety
/// `event` must be NULL or a live `ah_event`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_event_provider(event: *const ah_event) -> ah_str {
    guard_value(|| {
        // SAFETY: `event` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(event) }.map_or(ah_str::NONE, |e| {
            ah_str::from_static(provider_cstr(e.event.provider))
        })
    })
}

/// Returns the event's unified kind (`"tool.pre"`, `"agent.stop"`, ...,
/// `"other"`). Static; `{NULL, 0}` when `event` is NULL. Thread-safe.
///
/// # Safety
/// `event` must be NULL or a live `ah_event`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_event_kind(event: *const ah_event) -> ah_str {
    guard_value(|| {
        // SAFETY: `event` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(event) }.map_or(ah_str::NONE, |e| {
            ah_str::from_static(kind_cstr(e.event.kind))
        })
    })
}

/// Returns the event's native name, verbatim (`"PreToolUse"`,
/// `"beforeShellExecution"`, ...). Valid until `ah_event_free(event)`;
/// `{NULL, 0}` when `event` is NULL. Thread-safe.
///
/// # Safety
/// `event` must be NULL or a live `ah_event`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_event_native_name(event: *const ah_event) -> ah_str {
    guard_value(|| {
        // SAFETY: `event` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(event) }.map_or(ah_str::NONE, |e| {
            e.native
                .get_or_init(|| NulStr::new(e.event.native_name.clone()))
                .view()
        })
    })
}

/// Returns the session mode for a handler ("is a person there?") as JSON:
/// `{"interactive":true|false|null,"signal":"..."|null}`. The mode the
/// event carries (an invocation's `--observed` one is recorded on its
/// event), else observed on first call from this process's environment
/// and `/proc` (read once per process, the same observation the `ask`
/// path uses). Cached; the view is valid until `ah_event_free(event)`;
/// `{NULL, 0}` when `event` is NULL. Thread-safe.
///
/// # Safety
/// `event` must be NULL or a live `ah_event`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_event_session_mode_json(event: *const ah_event) -> ah_str {
    guard_value(|| {
        // SAFETY: `event` is NULL or live (caller contract).
        unsafe { ptr::borrow_opt(event) }.map_or(ah_str::NONE, |e| {
            e.mode
                .get_or_init(|| {
                    let m = e.event.session_mode();
                    NulStr::new(
                        serde_json::json!({"interactive": m.interactive, "signal": m.signal})
                            .to_string(),
                    )
                })
                .view()
        })
    })
}

/// Frees an event. NULL is a no-op; freeing twice is undefined behaviour,
/// and so is freeing an event borrowed from `ah_invocation_event`. Needs
/// exclusive access.
///
/// # Safety
/// `event` must be NULL or from `ah_event_decode`, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ah_event_free(event: *mut ah_event) {
    guard_value(|| {
        // SAFETY: caller contract above.
        unsafe { ptr::free(event) }
    })
}
