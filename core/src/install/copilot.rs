//! GitHub Copilot CLI: a hooks file of our own (copilot-cli.md §1.3–§1.6).
//!
//! - Files: `$COPILOT_HOME/hooks/agenthooks-<id>.json` (user, default
//!   `~/.copilot`; loads in `-p` with no folder trust) or
//!   `.github/hooks/agenthooks-<id>.json` (project; needs a trusted folder).
//! - Shape: `{"version": 1, "hooks": {camelCaseEvent: [flat entries]}}`,
//!   `timeoutSec` in seconds, only `command` (Copilot copies it into
//!   `bash`/`powershell`), **no `matcher`** (an empty matcher is reported to
//!   reject the whole file; the runtime filters in process instead).
//! - camelCase payloads do not name their event, so `--event=<name>` is in
//!   the command.
//! - The file is ours alone: uninstalling the last hook removes it.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::hooks_json::{Layout, Spec, merge};
use super::{FileChange, InstallError, Manifest, Resolved, Scope, Target, marker};

/// Our hooks file.
pub fn path(t: &Target, m: &Manifest) -> PathBuf {
    let name = format!("agenthooks-{}.json", m.id);
    match t.scope {
        Scope::User => t
            .env_dir("COPILOT_HOME", ".copilot")
            .join("hooks")
            .join(name),
        Scope::Project | Scope::Local => t.project.join(".github/hooks").join(name),
    }
}

/// The file layout.
pub fn spec(marker: &str) -> Spec<'_> {
    Spec {
        layout: Layout::Flat,
        root: &["hooks"],
        marker,
        command_keys: &["command", "bash"],
        top_defaults: vec![("version", json!(1))],
    }
}

/// One flat entry per hook.
pub fn entry(r: &Resolved) -> Value {
    json!({"type": "command", "command": r.command, "timeoutSec": r.hook.timeout})
}

/// Renders the change.
pub fn render(
    m: &Manifest,
    t: &Target,
    hooks: &[Resolved],
    get: &dyn Fn(&Path) -> Result<Option<String>, InstallError>,
) -> Result<Vec<FileChange>, InstallError> {
    let p = path(t, m);
    let before = get(&p)?;
    let desired: Vec<(String, Value)> = hooks.iter().map(|r| (r.event.clone(), entry(r))).collect();
    let mk = marker(m);
    let mut after = merge(&p, before.as_deref(), &desired, &spec(&mk))?;
    if desired.is_empty() {
        if let Some(text) = &after {
            let v = super::jsonc::parse(text)
                .map(|n| n.value)
                .unwrap_or(Value::Null);
            let only_version = v
                .as_object()
                .is_some_and(|o| o.keys().all(|k| k == "version"));
            if only_version {
                after = None;
            }
        }
    }
    Ok(vec![FileChange {
        path: p,
        before,
        after,
    }])
}
