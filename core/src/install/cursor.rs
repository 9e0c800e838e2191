//! Cursor: `hooks.json` version 1 (cursor.md §1.4–§1.7).
//!
//! - Files: `~/.cursor/hooks.json` (user), `.cursor/hooks.json` (project).
//! - Shape: `{"version": 1, "hooks": {event: [flat entries]}}`; `timeout`
//!   in seconds; `matcher` an unanchored JavaScript regex (anchored here).
//! - Decision hooks under a fail-closed policy get `failClosed: true`.
//! - A `//` anywhere in a string makes Cursor drop the whole file (its
//!   naive JSONC comment strip), and so does an event key the running build
//!   does not know: commands with `//` are refused, and only events of
//!   [`super::Target::cursor_events`] (default: every event of the dialect
//!   but `workspaceOpen`) are written. Cursor fires a generic and a
//!   specific event for one call; only the generic one is wired.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::hooks_json::{Layout, Spec, merge};
use super::{FailMode, FileChange, InstallError, Manifest, Resolved, Scope, Target, marker};
use crate::model::Kind;

/// The hooks file of a scope.
pub fn path(t: &Target) -> PathBuf {
    match t.scope {
        Scope::User => t.home.join(".cursor/hooks.json"),
        Scope::Project | Scope::Local => t.project.join(".cursor/hooks.json"),
    }
}

/// The file layout.
pub fn spec(marker: &str) -> Spec<'_> {
    Spec {
        layout: Layout::Flat,
        root: &["hooks"],
        marker,
        command_keys: &["command"],
        top_defaults: vec![("version", json!(1))],
    }
}

/// One flat entry per hook.
pub fn entry(r: &Resolved) -> Value {
    let mut h = Map::new();
    h.insert("command".into(), json!(r.command));
    h.insert("timeout".into(), json!(r.hook.timeout));
    if let Some(m) = &r.native_matcher {
        h.insert("matcher".into(), json!(m));
    }
    let decides = matches!(
        r.kind,
        Kind::ToolPre | Kind::PromptSubmitted | Kind::SubagentStart
    );
    if r.hook.fail == FailMode::Closed && r.hook.blocking && decides {
        h.insert("failClosed".into(), json!(true));
    }
    Value::Object(h)
}

/// Renders the change.
pub fn render(
    m: &Manifest,
    t: &Target,
    hooks: &[Resolved],
    get: &dyn Fn(&Path) -> Result<Option<String>, InstallError>,
) -> Result<Vec<FileChange>, InstallError> {
    for r in hooks {
        if r.command.contains("//")
            || r.native_matcher
                .as_deref()
                .is_some_and(|m| m.contains("//"))
        {
            return Err(InstallError::Unsupported {
                agent: "cursor".into(),
                message: format!(
                    "hook `{}`: `//` in `{}` would make Cursor drop the whole hooks.json; use a path without `//`",
                    r.hook.id, r.command
                ),
            });
        }
    }
    let p = path(t);
    let before = get(&p)?;
    let desired: Vec<(String, Value)> = hooks.iter().map(|r| (r.event.clone(), entry(r))).collect();
    let mk = marker(m);
    let after = merge(&p, before.as_deref(), &desired, &spec(&mk))?;
    Ok(vec![FileChange {
        path: p,
        before,
        after,
    }])
}
