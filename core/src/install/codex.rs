//! Codex CLI: `hooks.json` plus pre-seeded trust (codex.md §1.3–§1.6).
//!
//! - Files: `$CODEX_HOME/hooks.json` (user, default `~/.codex`) or
//!   `<project>/.codex/hooks.json` (project; the project layer must be
//!   trusted by Codex itself); trust state always in
//!   `$CODEX_HOME/config.toml`.
//! - Shape: event → matcher groups → handlers, `timeout` in seconds;
//!   matchers are exact lists (letters, digits, `_`, `|`) or Rust regexes
//!   (anchored here); `UserPromptSubmit`, `Stop` and `Interrupt` ignore
//!   matchers, so none is written.
//! - **Trust** (§1.4): a hook runs only when `[hooks.state."<key>"]` holds
//!   `trusted_hash` = `sha256:` + hex SHA-256 of the compact, key-sorted
//!   JSON of `{event_name, matcher?, hooks: [{type, command, timeout,
//!   async, statusMessage?}]}`, key = `<absolute hooks.json>:<snake event>:
//!   <group>:<handler>`. We write it for our handlers, so installed hooks
//!   run with no manual approval; the same algorithm as
//!   `tests/e2e/run_case`. When removing our groups shifts a user's hook
//!   to another index, its trust entry moves with it (only if it still
//!   matches that hook's definition), so the user's own hooks keep running.
//! - Async (non-blocking) hooks return at once: their command carries
//!   `--async`, so the hook answers "no opinion" and finishes in a detached
//!   process (`crate::detach`), rather than relying on `async: true`, which
//!   earlier builds parsed but ran synchronously (§4.6).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use toml_edit::{DocumentMut, Item, Table, value};

use super::hooks_json::{Found, Layout, Spec, merge, parse_checked};
use super::{FileChange, InstallError, Manifest, Resolved, Scope, Target, fsio, marker};

/// `(hooks.json, config.toml)` of a scope.
pub fn paths(t: &Target) -> (PathBuf, PathBuf) {
    let home = t.env_dir("CODEX_HOME", ".codex");
    let hooks = match t.scope {
        Scope::User => home.join("hooks.json"),
        Scope::Project | Scope::Local => t.project.join(".codex/hooks.json"),
    };
    (hooks, home.join("config.toml"))
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

/// Events whose matcher Codex ignores (and drops from the hash).
pub fn ignores_matcher(event: &str) -> bool {
    matches!(event, "UserPromptSubmit" | "Stop" | "Interrupt")
}

/// `PreToolUse` → `pre_tool_use`.
pub fn snake(event: &str) -> String {
    let mut o = String::new();
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                o.push('_');
            }
            o.push(c.to_ascii_lowercase());
        } else {
            o.push(c);
        }
    }
    o
}

/// One matcher group per hook.
pub fn group(r: &Resolved) -> Value {
    let mut g = Map::new();
    if let Some(m) = &r.native_matcher {
        if !ignores_matcher(&r.event) {
            g.insert("matcher".into(), json!(m));
        }
    }
    g.insert(
        "hooks".into(),
        json!([{"type": "command", "command": r.command, "timeout": r.hook.timeout}]),
    );
    Value::Object(g)
}

/// The trust hash of one handler in its group, as Codex computes it.
pub fn trust_hash(event: &str, group: &Value, handler: &Value) -> String {
    let mut h = Map::new();
    h.insert("type".into(), json!("command"));
    h.insert(
        "command".into(),
        handler.get("command").cloned().unwrap_or(json!("")),
    );
    let timeout = handler
        .get("timeout")
        .and_then(Value::as_u64)
        .unwrap_or(600)
        .max(1);
    h.insert("timeout".into(), json!(timeout));
    h.insert(
        "async".into(),
        json!(
            handler
                .get("async")
                .and_then(Value::as_bool)
                .unwrap_or(false)
        ),
    );
    if let Some(s) = handler.get("statusMessage").and_then(Value::as_str) {
        h.insert("statusMessage".into(), json!(s));
    }
    let mut id = Map::new();
    id.insert("event_name".into(), json!(snake(event)));
    if !ignores_matcher(event) {
        if let Some(m) = group.get("matcher").and_then(Value::as_str) {
            id.insert("matcher".into(), json!(m));
        }
    }
    id.insert("hooks".into(), json!([Value::Object(h)]));
    // serde_json's Map is a BTreeMap here: keys come out sorted, compact.
    let text = Value::Object(id).to_string();
    let d = Sha256::digest(text.as_bytes());
    format!(
        "sha256:{}",
        d.iter().map(|b| format!("{b:02x}")).collect::<String>()
    )
}

/// The trust key of a handler.
pub fn trust_key(source: &Path, f: &Found) -> String {
    format!(
        "{}:{}:{}:{}",
        source.display(),
        snake(&f.event),
        f.index,
        f.handler
    )
}

fn handlers(path: &Path, text: Option<&str>, spec: &Spec) -> Result<Vec<Found>, InstallError> {
    Ok(spec.scan(&parse_checked(path, text, spec)?))
}

/// Renders the change to hooks.json and the trust state in config.toml.
pub fn render(
    m: &Manifest,
    t: &Target,
    hooks: &[Resolved],
    get: &dyn Fn(&Path) -> Result<Option<String>, InstallError>,
) -> Result<Vec<FileChange>, InstallError> {
    let (hp, cp) = paths(t);
    let mk = marker(m);
    let spec = spec(&mk);
    let before = get(&hp)?;
    let desired: Vec<(String, Value)> = hooks.iter().map(|r| (r.event.clone(), group(r))).collect();
    let after = merge(&hp, before.as_deref(), &desired, &spec)?;

    let source = fsio::absolute(&hp);
    let old = handlers(&hp, before.as_deref(), &spec)?;
    let new = handlers(&hp, after.as_deref(), &spec)?;
    // Keys to drop and entries to set.
    let mut drop: Vec<String> = old
        .iter()
        .filter(|f| f.ours)
        .map(|f| trust_key(&source, f))
        .collect();
    let mut set: BTreeMap<String, Setting> = BTreeMap::new();
    for f in new.iter().filter(|f| f.ours) {
        let hash = trust_hash(&f.event, &f.entry, &f.handler_value);
        set.insert(trust_key(&source, f), Setting::Trust(hash));
    }
    // The user's handlers keep their order; pair old and new positions.
    let mut events: Vec<&str> = old.iter().map(|f| f.event.as_str()).collect();
    events.dedup();
    for ev in events {
        let o: Vec<&Found> = old.iter().filter(|f| !f.ours && f.event == ev).collect();
        let n: Vec<&Found> = new.iter().filter(|f| !f.ours && f.event == ev).collect();
        for (a, b) in o.iter().zip(n.iter()) {
            let (ka, kb) = (trust_key(&source, a), trust_key(&source, b));
            if ka != kb {
                let hash = trust_hash(&a.event, &a.entry, &a.handler_value);
                set.insert(kb, Setting::MoveFrom(ka.clone(), hash));
                drop.push(ka);
            }
        }
    }
    let cbefore = get(&cp)?;
    let cafter = edit_trust(&cp, cbefore.as_deref(), &drop, &set)?;
    Ok(vec![
        FileChange {
            path: hp,
            before,
            after,
        },
        FileChange {
            path: cp,
            before: cbefore,
            after: cafter,
        },
    ])
}

/// Commands of `hooks_json` that Codex will skip for want of trust, with
/// why: no `[hooks.state."<key>"]` entry, a `trusted_hash` that no longer
/// matches the handler (edited since it was trusted), or `enabled = false`
/// (`doctor`'s liveness causes). `config` is `config.toml`'s text.
pub fn untrusted(hooks_json: &Path, text: &str, config: Option<&str>) -> Vec<(String, String)> {
    let spec = spec("--hook-id=");
    let Ok(found) = handlers(hooks_json, Some(text), &spec) else {
        return Vec::new();
    };
    let doc: Option<DocumentMut> = config.and_then(|c| c.parse().ok());
    let state = doc
        .as_ref()
        .and_then(|d| d.get("hooks"))
        .and_then(|h| h.get("state"))
        .and_then(Item::as_table_like);
    let source = fsio::absolute(hooks_json);
    let mut out = Vec::new();
    for f in &found {
        let Some(cmd) = f.handler_value.get("command").and_then(Value::as_str) else {
            continue;
        };
        let key = trust_key(&source, f);
        let want = trust_hash(&f.event, &f.entry, &f.handler_value);
        let entry = state.and_then(|s| s.get(&key));
        let why = match entry {
            None => Some(format!("Codex has no trust entry for it ([hooks.state.\"{key}\"] in config.toml): it skips untrusted hooks")),
            Some(e) if e.get("enabled").and_then(Item::as_bool) == Some(false) => {
                Some("disabled in Codex's config.toml (enabled = false)".to_string())
            }
            Some(e) if e.get("trusted_hash").and_then(Item::as_str) != Some(want.as_str()) => {
                Some("Codex's trusted_hash in config.toml does not match the hook as written (edited since it was trusted): it skips it".to_string())
            }
            Some(_) => None,
        };
        if let Some(w) = why {
            out.push((cmd.to_string(), w));
        }
    }
    out
}

enum Setting {
    /// Trust our handler with this hash.
    Trust(String),
    /// Move the user's entry from the old key if it trusts this hash.
    MoveFrom(String, String),
}

fn edit_trust(
    path: &Path,
    before: Option<&str>,
    drop: &[String],
    set: &BTreeMap<String, Setting>,
) -> Result<Option<String>, InstallError> {
    let text = before.unwrap_or("");
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| InstallError::toml(path, text, &e))?;
    let shape = |m: &str| InstallError::Shape {
        path: path.to_path_buf(),
        message: m.into(),
    };
    let old_state: BTreeMap<String, Table> = doc
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(Item::as_table_like)
        .map(|s| {
            s.iter()
                .filter_map(|(k, v)| v.as_table().map(|t| (k.to_string(), t.clone())))
                .collect()
        })
        .unwrap_or_default();
    // What the state should hold for the keys we manage.
    let mut want: BTreeMap<String, Option<Table>> = BTreeMap::new();
    for k in drop {
        want.insert(k.clone(), None);
    }
    for (k, s) in set {
        match s {
            Setting::Trust(hash) => {
                // An entry already trusting this exact definition is left as
                // it is (a user's `enabled = false` stays); anything else is
                // replaced.
                let cur = old_state.get(k);
                let t = match cur {
                    Some(t)
                        if t.get("trusted_hash").and_then(Item::as_str) == Some(hash.as_str()) =>
                    {
                        t.clone()
                    }
                    _ => {
                        let mut t = Table::new();
                        t.insert("enabled", value(true));
                        t.insert("trusted_hash", value(hash.as_str()));
                        t
                    }
                };
                want.insert(k.clone(), Some(t));
            }
            Setting::MoveFrom(from, hash) => {
                match old_state.get(from) {
                    Some(t)
                        if t.get("trusted_hash").and_then(Item::as_str) == Some(hash.as_str()) =>
                    {
                        let mut t = t.clone();
                        t.set_position(None);
                        want.insert(k.clone(), Some(t));
                    }
                    _ => {
                        // Not trusted before: nothing to carry; do not touch
                        // whatever the new key holds unless we drop it.
                        want.entry(k.clone())
                            .or_insert_with(|| old_state.get(k).cloned());
                    }
                }
            }
        }
    }
    let changed = want.iter().any(|(k, v)| match (old_state.get(k), v) {
        (None, None) => false,
        (Some(a), Some(b)) => a.to_string() != b.to_string(),
        _ => true,
    });
    if !changed {
        return Ok(before.map(str::to_string));
    }
    if !doc.contains_key("hooks") {
        let mut t = Table::new();
        t.set_implicit(true);
        doc.insert("hooks", Item::Table(t));
    }
    let hooks = doc["hooks"]
        .as_table_mut()
        .ok_or_else(|| shape("`hooks` is not a table"))?;
    if !hooks.contains_key("state") {
        let mut t = Table::new();
        t.set_implicit(true);
        hooks.insert("state", Item::Table(t));
    }
    let state = hooks["state"]
        .as_table_mut()
        .ok_or_else(|| shape("`hooks.state` is not a table"))?;
    for (k, v) in &want {
        match v {
            None => {
                state.remove(k);
            }
            Some(t) => {
                let same = state
                    .get(k)
                    .and_then(Item::as_table)
                    .is_some_and(|cur| cur.to_string() == t.to_string());
                if !same {
                    state.insert(k, Item::Table(t.clone()));
                }
            }
        }
    }
    if state.is_empty() {
        hooks.remove("state");
    }
    if hooks.is_empty() && hooks.is_implicit() {
        doc.remove("hooks");
    }
    let mut out = doc.to_string();
    if !text.starts_with('\n') {
        // A table inserted or moved first carries a leading blank line.
        out = out.trim_start_matches('\n').to_string();
    }
    if before.is_none() && out.trim().is_empty() {
        return Ok(None);
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash `tests/e2e/run_case` computes with Python for the same
    /// handler (`json.dumps(sort_keys=True, separators=(",", ":"))`).
    #[test]
    fn hash_matches_the_python_recomputation() {
        let g = json!({"matcher": "*", "hooks": [{"type": "command", "command": "/x/guard agenthooks run --provider=codex", "timeout": 20}]});
        let h = trust_hash("PreToolUse", &g, &g["hooks"][0]);
        // python3 -c 'import hashlib,json;print(hashlib.sha256(json.dumps({"event_name":"pre_tool_use","matcher":"*","hooks":[{"type":"command","command":"/x/guard agenthooks run --provider=codex","timeout":20,"async":False}]},sort_keys=True,separators=(",",":")).encode()).hexdigest())'
        assert_eq!(
            h,
            "sha256:0e8a83c9e0bbc334fb69892ffcc1b8f827600cb2c2c1c37546182cf693b2587b"
        );
        assert_eq!(snake("PreToolUse"), "pre_tool_use");
        assert_eq!(snake("Stop"), "stop");
    }
}
