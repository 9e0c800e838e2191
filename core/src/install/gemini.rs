//! Gemini CLI: `settings.json` hooks (gemini-cli.md §1.3–§1.5).
//!
//! - Files: `~/.gemini/settings.json` (user), `.gemini/settings.json`
//!   (project; needs a trusted workspace).
//! - Shape: event → definitions `{matcher?, hooks: [...]}`; `timeout` in
//!   **milliseconds**; `name` and `description` feed the `/hooks` UI and
//!   `hooksConfig.disabled`.
//! - Matchers: tool events take a JavaScript regex (anchored here);
//!   `SessionStart`/`SessionEnd`/`PreCompress` compare by **exact string**,
//!   so only a single lifecycle subject is written (several match broadly
//!   and the runtime filters).
//! - Gemini has no background hooks: non-blocking hooks run synchronously.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::hooks_json::{Layout, Spec, merge};
use super::{FileChange, InstallError, Manifest, Resolved, Scope, Target, marker};

/// The settings file of a scope.
pub fn path(t: &Target) -> PathBuf {
    match t.scope {
        Scope::User => t.home.join(".gemini/settings.json"),
        Scope::Project | Scope::Local => t.project.join(".gemini/settings.json"),
    }
}

/// The file layout.
pub fn spec(marker: &str) -> Spec<'_> {
    Spec {
        layout: Layout::Nested,
        root: &["hooks"],
        marker,
        command_keys: &["command"],
        top_defaults: vec![],
    }
}

/// One definition per hook.
pub fn group(m: &Manifest, r: &Resolved) -> Value {
    let mut h = Map::new();
    h.insert("type".into(), json!("command"));
    h.insert("command".into(), json!(r.command));
    h.insert("name".into(), json!(r.hook_id));
    let desc = r
        .hook
        .description
        .clone()
        .or_else(|| m.description.clone())
        .unwrap_or_else(|| format!("agenthooks {} ({})", m.id, r.hook.id));
    h.insert("description".into(), json!(desc));
    h.insert("timeout".into(), json!(u64::from(r.hook.timeout) * 1000));
    let mut g = Map::new();
    if let Some(mm) = &r.native_matcher {
        g.insert("matcher".into(), json!(mm));
    }
    g.insert("hooks".into(), json!([Value::Object(h)]));
    Value::Object(g)
}

/// Renders the change.
pub fn render(
    m: &Manifest,
    t: &Target,
    hooks: &[Resolved],
    get: &dyn Fn(&Path) -> Result<Option<String>, InstallError>,
) -> Result<Vec<FileChange>, InstallError> {
    let p = path(t);
    let before = get(&p)?;
    let desired: Vec<(String, Value)> = hooks
        .iter()
        .map(|r| (r.event.clone(), group(m, r)))
        .collect();
    let mk = marker(m);
    let after = merge(&p, before.as_deref(), &desired, &spec(&mk))?;
    Ok(vec![FileChange {
        path: p,
        before,
        after,
    }])
}
