//! Claude Code: `settings.json` hooks (claude-code.md §1.3–§1.7).
//!
//! - Files: `~/.claude/settings.json` (user), `.claude/settings.json`
//!   (project), `.claude/settings.local.json` (local); all levels merge.
//! - Shape: event → matcher groups → handlers; `timeout` in **seconds**.
//! - Matcher: exact list (letters, digits, `_`, `-`, space, `,`, `|`) or an
//!   unanchored JavaScript regex, which we anchor; omitted = all.
//! - Async (non-blocking) hooks get `async: true`, except on
//!   `Stop`/`SubagentStop` (the Cowork variant skips async Stop hooks):
//!   there the command carries `--async` and detaches itself.
//! - Fail-closed gating hooks get `onFailure: "block"` (v2.1.295+; older
//!   builds ignore the key, seen).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::hooks_json::{Layout, Spec, merge};
use super::{FailMode, FileChange, InstallError, Manifest, Resolved, Scope, Target, marker};
use crate::model::Kind;

/// The settings file of a scope.
pub fn path(t: &Target) -> PathBuf {
    match t.scope {
        Scope::User => t.home.join(".claude/settings.json"),
        Scope::Project => t.project.join(".claude/settings.json"),
        Scope::Local => t.project.join(".claude/settings.local.json"),
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

/// Whether a kind can gate (a failure can usefully block it).
pub fn gating(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::ToolPre | Kind::PermissionRequest | Kind::PromptSubmitted
    )
}

/// One matcher group per hook.
pub fn group(r: &Resolved) -> Value {
    let mut h = Map::new();
    h.insert("type".into(), json!("command"));
    h.insert("command".into(), json!(r.command));
    h.insert("timeout".into(), json!(r.hook.timeout));
    if !r.hook.blocking && super::native_async(crate::model::Provider::ClaudeCode, &r.event) {
        h.insert("async".into(), json!(true));
    }
    if r.hook.fail == FailMode::Closed && r.hook.blocking && gating(r.kind) {
        h.insert("onFailure".into(), json!("block"));
    }
    let mut g = Map::new();
    if let Some(m) = &r.native_matcher {
        g.insert("matcher".into(), json!(m));
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
    let desired: Vec<(String, Value)> = hooks.iter().map(|r| (r.event.clone(), group(r))).collect();
    let mk = marker(m);
    let after = merge(&p, before.as_deref(), &desired, &spec(&mk))?;
    Ok(vec![FileChange {
        path: p,
        before,
        after,
    }])
}
