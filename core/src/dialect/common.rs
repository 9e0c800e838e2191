//! Helpers shared by the dialects: payload parsing and shared encodings.

use serde_json::{Map, Value};

use crate::error::{Error, json_type};
use crate::model::{Provider, Response};

/// Default payload size limit: 64 MiB.
pub const DEFAULT_MAX_BYTES: usize = 64 * 1024 * 1024;

/// Parses payload bytes into a JSON object: size, UTF-8, syntax and type
/// are checked, each with its own error code. Whatever the agents' own
/// `JSON.parse` accepts decodes (lone surrogates, any depth, huge numbers;
/// see [`super::json`]).
pub fn parse_object(payload: &[u8], max_bytes: usize) -> Result<Map<String, Value>, Error> {
    if payload.len() > max_bytes {
        return Err(Error::TooLarge {
            what: "payload",
            limit: max_bytes,
        });
    }
    let text = std::str::from_utf8(payload).map_err(|e| Error::InvalidUtf8 {
        what: "payload",
        offset: e.valid_up_to(),
    })?;
    let v: Value = super::json::parse_value(text)?;
    match v {
        Value::Object(m) => Ok(m),
        other => Err(Error::NotAnObject {
            found: json_type(&other),
        }),
    }
}

/// Exit 2 with the message on stderr (never empty: Codex needs it).
pub(crate) fn exit2_block(_provider: Provider, message: &str) -> Response {
    let msg = if message.trim().is_empty() {
        "Blocked by hook."
    } else {
        message
    };
    Response {
        stdout: String::new(),
        stderr: format!("{msg}\n"),
        exit_code: 2,
        notes: Vec::new(),
    }
}

/// Merges the `native` escape hatch into an answer object: top-level keys
/// replace, except objects (e.g. `hookSpecificOutput`), which merge one level.
pub(crate) fn merge_native(out: &mut Map<String, Value>, native: &Map<String, Value>) {
    for (k, v) in native {
        match (out.get_mut(k), v) {
            (Some(Value::Object(dst)), Value::Object(src)) => {
                for (k2, v2) in src {
                    dst.insert(k2.clone(), v2.clone());
                }
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
}

/// Joins context strings in order, separated by a blank line.
pub(crate) fn join_context(parts: &[String]) -> Option<String> {
    if parts.is_empty() {
        None
    } else {
        Some(parts.join("\n\n"))
    }
}

/// Serializes an answer object; an empty object becomes empty stdout.
pub(crate) fn finish(out: Map<String, Value>) -> Response {
    if out.is_empty() {
        return Response::empty();
    }
    Response::json(&Value::Object(out))
}
