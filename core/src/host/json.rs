//! One JSON-in / JSON-out entry point for the host side, so every binding
//! (C ABI, Python, Node, Go) exposes the same call with the same shapes as
//! `agenthooks host run`.
//!
//! Request:
//! ```json
//! {"dialect": "claude-code" | "codex",
//!  "configs": [{"source": "<label or path>", "text": "<settings.json / hooks.json text>"}
//!              | {"path": "<file to read>"}],
//!  "plugins": [{"root": "<plugin root>", "hooks"?: {...hooks.json document...}}],
//!  "event": {...hook payload, or canonical event...} | "event_path": "<file holding it>",
//!  "event_provider": "<who sent the payload; default: the dialect>",
//!  "cwd": "...", "project_dir": "...", "default_timeout_s": 600,
//!  "output_cap": 10485760, "sequential": false, "strict": false}
//! ```
//! A plugin without `hooks` is read from `<root>/hooks/hooks.json`; an
//! `event_path` payload is decoded from the file's exact bytes. `agenthooks
//! host run` is this call ([`run_request`]) with its options as the request.
//!
//! Response: `{"dialect", "event", "subjects", "outcome", "hooks", "audit",
//! "warnings"}` or `{"error": {"code", "message", "diagnostics"?}}` — never a
//! panic, never a Rust error. `warnings` holds every diagnostic: entries
//! skipped as the agent skips them (severity `error`), caveats, and
//! `matcher_undecided` for this event. With `"strict": true` a configuration
//! with any error is refused (`config_rejected`) instead.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use super::{Dialect, HostOptions, RegistryBuilder, run_event};
use crate::model::{Event, Provider};
use crate::{DecodeOptions, decode};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    dialect: String,
    #[serde(default)]
    configs: Vec<ConfigSource>,
    #[serde(default)]
    plugins: Vec<PluginSource>,
    #[serde(default)]
    event: Option<Value>,
    #[serde(default)]
    event_path: Option<PathBuf>,
    #[serde(default)]
    event_provider: Option<String>,
    #[serde(default)]
    cwd: Option<PathBuf>,
    #[serde(default)]
    project_dir: Option<PathBuf>,
    #[serde(default)]
    default_timeout_s: Option<f64>,
    #[serde(default)]
    output_cap: Option<usize>,
    #[serde(default)]
    sequential: bool,
    #[serde(default)]
    strict: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigSource {
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    path: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PluginSource {
    root: PathBuf,
    #[serde(default)]
    hooks: Option<Value>,
}

/// The error object of a response: `{"code", "message", ...extra}`.
fn error_value(code: &str, message: impl Into<String>, extra: Option<Value>) -> Value {
    let mut e = json!({"code": code, "message": message.into()});
    if let (Some(obj), Some(Value::Object(x))) = (e.as_object_mut(), extra) {
        obj.extend(x);
    }
    e
}

fn error(code: &str, message: impl Into<String>, extra: Option<Value>) -> String {
    json!({ "error": error_value(code, message, extra) }).to_string()
}

/// Runs the hooks of a configuration for one event (see the module docs).
pub fn run_json(request: &str) -> String {
    match run_request(request) {
        Ok(report) => report.to_string(),
        Err(e) => json!({ "error": e }).to_string(),
    }
}

/// [`run_json`] as values: the report, or the error object (`{"code",
/// "message", "diagnostics"?}`).
pub fn run_request(request: &str) -> Result<Value, Value> {
    let req: Request = match serde_json::from_str(request) {
        Ok(r) => r,
        Err(e) => {
            return Err(error_value(
                "invalid_argument",
                format!("host request: {e}"),
                None,
            ));
        }
    };
    let dialect = match Dialect::parse(&req.dialect) {
        Ok(d) => d,
        Err(e) => return Err(error_value(e.code().as_str(), e.to_string(), None)),
    };
    let mut b = RegistryBuilder::new(dialect);
    b.strict(req.strict);
    for (i, c) in req.configs.iter().enumerate() {
        let (label, text) = match (&c.text, &c.path) {
            (Some(t), None) => (
                c.source.clone().unwrap_or_else(|| format!("config[{i}]")),
                t.clone(),
            ),
            (None, Some(p)) => match std::fs::read_to_string(p) {
                Ok(t) => (
                    c.source
                        .clone()
                        .unwrap_or_else(|| p.to_string_lossy().into_owned()),
                    t,
                ),
                Err(e) => return Err(error_value("io", format!("{}: {e}", p.display()), None)),
            },
            _ => {
                return Err(error_value(
                    "invalid_argument",
                    format!("configs[{i}] needs exactly one of text / path"),
                    None,
                ));
            }
        };
        b.add_text(&label, &text);
    }
    for p in &req.plugins {
        let file = p.root.join("hooks").join("hooks.json");
        let read;
        let doc = match &p.hooks {
            Some(doc) => doc,
            None => {
                read = std::fs::read_to_string(&file)
                    .map_err(|e| format!("{}: {e}", file.display()))
                    .and_then(|t| {
                        serde_json::from_str::<Value>(&t)
                            .map_err(|e| format!("{}: {e}", file.display()))
                    })
                    .map_err(|m| error_value("io", m, None))?;
                &read
            }
        };
        b.add_plugin(&file.to_string_lossy(), p.root.clone(), None, doc);
    }
    let registry = match b.build() {
        Ok(r) => r,
        Err(e) => {
            let diags = serde_json::to_value(&e.diagnostics).unwrap_or_default();
            return Err(error_value(
                "config_rejected",
                e.to_string(),
                Some(json!({ "diagnostics": diags })),
            ));
        }
    };
    let event = match event_of(&req, dialect) {
        Ok(ev) => ev,
        Err((code, m)) => return Err(error_value(&code, m, None)),
    };
    let opts = HostOptions {
        cwd: req.cwd.clone(),
        project_dir: req.project_dir.clone(),
        output_cap: req.output_cap.unwrap_or(super::DEFAULT_OUTPUT_CAP),
        default_timeout: req
            .default_timeout_s
            .and_then(|s| Duration::try_from_secs_f64(s).ok()),
        parallel: !req.sequential,
        ..HostOptions::default()
    };
    let report = match run_event(&registry, &event, &opts) {
        Ok(r) => r,
        Err(e) => return Err(error_value(e.code(), e.to_string(), None)),
    };
    let hooks: Vec<Value> = report
        .hooks
        .iter()
        .map(|h| {
            json!({
                "hook": h.id.to_string(),
                "command": h.command,
                "exit_code": h.run.exit_code,
                "timed_out": h.run.timed_out,
                "output": h.output,
            })
        })
        .collect();
    Ok(json!({
        "dialect": report.dialect,
        "event": report.event,
        "subjects": report.subjects,
        "outcome": report.outcome,
        "hooks": hooks,
        "audit": report.audit,
        "warnings": registry.warnings().iter().chain(&report.diagnostics).collect::<Vec<_>>(),
    }))
}

/// A hook payload (decoded as `event_provider`) or a canonical event
/// (has `kind` and `native_name`; its `raw` is kept), given inline or as a
/// file (`event_path`, whose exact bytes are decoded).
fn event_of(req: &Request, dialect: Dialect) -> Result<Event, (String, String)> {
    let err = |e: crate::Error| (e.code().as_str().to_string(), e.to_string());
    let (value, bytes) = match (&req.event, &req.event_path) {
        (Some(v), None) => (v.clone(), serde_json::to_vec(v).unwrap_or_default()),
        (None, Some(path)) => {
            let bytes = std::fs::read(path)
                .map_err(|e| ("io".to_string(), format!("{}: {e}", path.display())))?;
            let value: Value = serde_json::from_slice(&bytes).map_err(|e| {
                (
                    "invalid_json".to_string(),
                    format!("{}: {e}", path.display()),
                )
            })?;
            (value, bytes)
        }
        _ => {
            return Err((
                "invalid_argument".to_string(),
                "host request: exactly one of event / event_path".to_string(),
            ));
        }
    };
    let canonical = value.get("hook_event_name").is_none()
        && value.get("kind").is_some()
        && value.get("native_name").is_some();
    if canonical {
        let raw = match value.get("raw") {
            Some(raw @ Value::Object(_)) => {
                serde_json::to_vec(raw).unwrap_or_else(|_| b"{}".to_vec())
            }
            _ => b"{}".to_vec(),
        };
        let mut ev: Event = serde_json::from_value(value).map_err(|e| {
            (
                "invalid_json".to_string(),
                format!("not a canonical event: {e}"),
            )
        })?;
        ev.raw = raw;
        return Ok(ev);
    }
    let provider = match &req.event_provider {
        Some(p) => Provider::parse(p).map_err(err)?,
        None => dialect.provider(),
    };
    decode(provider, &bytes, &DecodeOptions::default()).map_err(err)
}

/// Compiles a matcher in a dialect's flavour and tests subjects:
/// request `{"dialect", "pattern", "subjects": [...]}` → `{"matches": [bool...]}`
/// or `{"error": {diagnostic...}}`.
pub fn matcher_json(request: &str) -> String {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Req {
        dialect: String,
        #[serde(default)]
        pattern: Option<String>,
        #[serde(default)]
        subjects: Vec<String>,
    }
    let req: Req = match serde_json::from_str(request) {
        Ok(r) => r,
        Err(e) => return error("invalid_argument", format!("matcher request: {e}"), None),
    };
    let dialect = match Dialect::parse(&req.dialect) {
        Ok(d) => d,
        Err(e) => return error(e.code().as_str(), e.to_string(), None),
    };
    match crate::host::matcher::Matcher::compile(dialect, req.pattern.as_deref().unwrap_or("")) {
        Ok(m) => {
            let matches: Vec<bool> = req.subjects.iter().map(|s| m.matches(s)).collect();
            json!({ "matches": matches }).to_string()
        }
        Err(d) => json!({ "error": serde_json::to_value(&d).unwrap_or_default() }).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_a_claude_config_through_json() {
        let req = json!({
            "dialect": "claude-code",
            "configs": [{"source": "settings.json", "text": r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo blocked >&2; exit 2"}]}]}}"#}],
            "event": {"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}
        });
        let out: Value = serde_json::from_str(&run_json(&req.to_string())).unwrap();
        assert!(out.get("error").is_none(), "{out}");
        assert_eq!(out["hooks"].as_array().map(Vec::len), Some(1));
        assert!(out["outcome"].to_string().contains("blocked"), "{out}");
        let bad: Value = serde_json::from_str(&run_json("{}")).unwrap();
        assert_eq!(bad["error"]["code"], "invalid_argument");
        // A bad entry is skipped as the agent skips it and reported...
        let req = json!({
            "dialect": "claude-code",
            "configs": [{"text": r#"{"hooks":{"PreToolUse":[{"matcher":"Bash(","hooks":[{"type":"command","command":"x"}]}]}}"#}],
            "event": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}}
        });
        let skipped: Value = serde_json::from_str(&run_json(&req.to_string())).unwrap();
        assert_eq!(skipped["warnings"][0]["code"], "invalid_regex", "{skipped}");
        assert_eq!(skipped["hooks"], json!([]));
        // ...or, strict, refuses the configuration.
        let mut strict = req.clone();
        strict["strict"] = json!(true);
        let rejected: Value = serde_json::from_str(&run_json(&strict.to_string())).unwrap();
        assert_eq!(rejected["error"]["code"], "config_rejected", "{rejected}");
    }

    #[test]
    fn matchers_through_json() {
        let out: Value = serde_json::from_str(&matcher_json(
            r#"{"dialect":"codex","pattern":"(?i)^bash$","subjects":["BASH","Write"]}"#,
        ))
        .unwrap();
        assert_eq!(out["matches"], json!([true, false]));
        let out: Value = serde_json::from_str(&matcher_json(
            r#"{"dialect":"claude-code","pattern":"(?i)bash","subjects":[]}"#,
        ))
        .unwrap();
        assert!(out.get("error").is_some(), "(?i) is not ECMAScript: {out}");
    }
}
