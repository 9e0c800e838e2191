//! Kimi Code: `[[hooks]]` tables in `config.toml` (kimi-code.md §1.3–§1.5).
//!
//! - File: `$KIMI_CODE_HOME/config.toml` (default `~/.kimi-code`); there is
//!   no project-level hooks file, so the project scope is refused.
//! - Shape: one `[[hooks]]` table per hook with exactly `event`, optional
//!   `matcher` (unanchored JavaScript regex, anchored here), `command`,
//!   `timeout` (seconds, 1–600). Any other key, or an unknown event, makes
//!   Kimi reject the **whole file**, so nothing else is ever written.
//! - Entries with identical `command` strings run once: every hook's argv
//!   differs (`--hook-id`).
//! - No background hooks: non-blocking hooks run synchronously.
//! - Edited with `toml_edit`: comments and formatting of the rest survive.

use std::path::{Path, PathBuf};

use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, value};

use super::{FileChange, InstallError, Manifest, Resolved, Scope, Target, is_ours_command, marker};

/// The config file (user scope only).
pub fn path(t: &Target) -> Result<PathBuf, InstallError> {
    match t.scope {
        Scope::User => Ok(t.env_dir("KIMI_CODE_HOME", ".kimi-code").join("config.toml")),
        _ => Err(InstallError::Unsupported {
            agent: "kimi-code".into(),
            message: "Kimi Code has no project-level hooks file; install with --scope user (or point KIMI_CODE_HOME at a per-project directory)".into(),
        }),
    }
}

/// One `[[hooks]]` table per hook.
pub fn table(r: &Resolved) -> Table {
    let mut t = Table::new();
    t.insert("event", value(r.event.as_str()));
    if let Some(m) = &r.native_matcher {
        t.insert("matcher", value(m.as_str()));
    }
    t.insert("command", value(r.command.as_str()));
    t.insert("timeout", value(i64::from(r.hook.timeout)));
    t
}

fn fingerprint(t: &Table) -> Vec<(String, String)> {
    ["event", "matcher", "command", "timeout"]
        .iter()
        .filter_map(|k| {
            t.get(k)
                .and_then(Item::as_value)
                .map(|v| (k.to_string(), v.to_string().trim().to_string()))
        })
        .collect()
}

/// Renders the change.
pub fn render(
    m: &Manifest,
    t: &Target,
    hooks: &[Resolved],
    get: &dyn Fn(&Path) -> Result<Option<String>, InstallError>,
) -> Result<Vec<FileChange>, InstallError> {
    let p = path(t)?;
    let before = get(&p)?;
    let text = before.as_deref().unwrap_or("");
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| InstallError::toml(&p, text, &e))?;
    let mk = marker(m);
    let ours = |t: &Table| {
        t.get("command")
            .and_then(Item::as_str)
            .is_some_and(|c| is_ours_command(c, &mk))
    };
    let desired: Vec<Table> = hooks.iter().map(table).collect();
    let have: Vec<Vec<(String, String)>> = match doc.get("hooks") {
        None => vec![],
        Some(Item::ArrayOfTables(a)) => a.iter().filter(|t| ours(t)).map(fingerprint).collect(),
        Some(_) => {
            return Err(InstallError::Shape {
                path: p,
                message: "`hooks` is not an array of tables ([[hooks]])".into(),
            });
        }
    };
    let want: Vec<Vec<(String, String)>> = desired.iter().map(fingerprint).collect();
    if have == want {
        return Ok(vec![FileChange {
            path: p,
            before: before.clone(),
            after: before,
        }]);
    }
    if !doc.contains_key("hooks") {
        doc.insert("hooks", Item::ArrayOfTables(ArrayOfTables::new()));
    }
    let aot = doc["hooks"]
        .as_array_of_tables_mut()
        .expect("checked above: an array of tables");
    aot.retain(|t| !ours(t));
    for t in desired {
        aot.push(t);
    }
    if aot.is_empty() {
        doc.remove("hooks");
    }
    let out = doc.to_string();
    let after = if before.is_none() && out.trim().is_empty() {
        None
    } else {
        Some(out)
    };
    Ok(vec![FileChange {
        path: p,
        before,
        after,
    }])
}
