//! The merge shared by every JSON hook file: an object of event names
//! mapping to arrays of either matcher groups `{matcher?, hooks: [handler]}`
//! (Claude Code, Codex, Gemini CLI) or flat handlers (Cursor, Copilot CLI).
//!
//! Our entries are the handlers whose command carries our marker; a group
//! is ours when all its handlers are. Merging compares our entries per
//! event with the desired ones (their fingerprint): equal means the file
//! is returned byte for byte. Otherwise our entries are removed (a group
//! the user added handlers to keeps theirs), events we emptied are
//! removed, and the desired entries are appended after the user's.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};

use super::jsonc::{Doc, Node, NodeKind};
use super::{InstallError, is_ours_command};

/// Entry layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `event -> [ {matcher?, hooks: [handler]} ]`.
    Nested,
    /// `event -> [ handler ]`.
    Flat,
}

/// How one agent's file is laid out.
#[derive(Debug, Clone)]
pub struct Spec<'a> {
    /// Entry layout.
    pub layout: Layout,
    /// Path of the object holding the events (`["hooks"]`).
    pub root: &'a [&'a str],
    /// Our marker (`--hook-id=<id>:`).
    pub marker: &'a str,
    /// Handler keys holding the command (`command`, Copilot also `bash`).
    pub command_keys: &'a [&'a str],
    /// Top-level keys added when missing while we have entries (Cursor and
    /// Copilot `version: 1`).
    pub top_defaults: Vec<(&'a str, Value)>,
}

/// One entry as found in a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Event key.
    pub event: String,
    /// Index in the event array.
    pub index: usize,
    /// Handler index inside a nested group (0 for flat entries).
    pub handler: usize,
    /// The handler object.
    pub handler_value: Value,
    /// The group (nested) or handler (flat) the handler sits in.
    pub entry: Value,
    /// Whether the handler is ours.
    pub ours: bool,
}

impl Spec<'_> {
    /// Whether a handler object is ours.
    pub fn handler_is_ours(&self, h: &Value) -> bool {
        self.command_keys.iter().any(|k| {
            h.get(*k)
                .and_then(Value::as_str)
                .is_some_and(|c| is_ours_command(c, self.marker))
        })
    }

    /// Every handler in a parsed file, in file order.
    pub fn scan(&self, root: &Node) -> Vec<Found> {
        let mut out = Vec::new();
        let Some(hooks) = root.path(self.root) else {
            return out;
        };
        for (event, _, arr) in hooks.members() {
            for (i, item) in arr.items().iter().enumerate() {
                match self.layout {
                    Layout::Flat => out.push(Found {
                        event: event.clone(),
                        index: i,
                        handler: 0,
                        handler_value: item.value.clone(),
                        entry: item.value.clone(),
                        ours: self.handler_is_ours(&item.value),
                    }),
                    Layout::Nested => {
                        let hs = item.value.get("hooks").and_then(Value::as_array);
                        for (j, h) in hs.into_iter().flatten().enumerate() {
                            out.push(Found {
                                event: event.clone(),
                                index: i,
                                handler: j,
                                handler_value: h.clone(),
                                entry: item.value.clone(),
                                ours: self.handler_is_ours(h),
                            });
                        }
                    }
                }
            }
        }
        out
    }
}

/// Parses a file's text (`{}` when absent), checking the root and the
/// hooks object are objects.
pub fn parse_checked(path: &Path, text: Option<&str>, spec: &Spec) -> Result<Node, InstallError> {
    let root =
        super::jsonc::parse(text.unwrap_or("{}")).map_err(|e| InstallError::parse_at(path, &e))?;
    if !matches!(root.kind, NodeKind::Object(_)) {
        return Err(InstallError::Shape {
            path: path.to_path_buf(),
            message: "the top level is not a JSON object".into(),
        });
    }
    if let Some(h) = root.path(spec.root) {
        if !matches!(h.kind, NodeKind::Object(_)) {
            return Err(InstallError::Shape {
                path: path.to_path_buf(),
                message: format!("`{}` is not an object", spec.root.join(".")),
            });
        }
        for (event, _, arr) in h.members() {
            if !matches!(arr.kind, NodeKind::Array(_)) && contains_ours(&arr.value, spec) {
                return Err(InstallError::Shape {
                    path: path.to_path_buf(),
                    message: format!("`{event}` is not an array"),
                });
            }
        }
    }
    Ok(root)
}

fn contains_ours(v: &Value, spec: &Spec) -> bool {
    v.to_string().contains(spec.marker)
}

/// Merges the desired entries (event, group-or-handler) into a file.
/// Returns the new text; `None` only when the file is absent and stays so.
pub fn merge(
    path: &Path,
    before: Option<&str>,
    desired: &[(String, Value)],
    spec: &Spec,
) -> Result<Option<String>, InstallError> {
    let root = parse_checked(path, before, spec)?;
    let found = spec.scan(&root);
    let ed = |e| InstallError::edit(path, e);

    // Fingerprint: our entries per event, in order, vs the desired ones.
    let mut have: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    let mut mixed = false;
    let mut seen_entry = None;
    for f in found.iter().filter(|f| f.ours) {
        if spec.layout == Layout::Nested {
            let all_ours = found
                .iter()
                .filter(|g| g.event == f.event && g.index == f.index)
                .all(|g| g.ours);
            mixed |= !all_ours;
        }
        if seen_entry != Some((&f.event, f.index)) {
            have.entry(&f.event).or_default().push(&f.entry);
            seen_entry = Some((&f.event, f.index));
        }
    }
    let mut want: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for (e, v) in desired {
        want.entry(e).or_default().push(v);
    }
    let defaults_ok =
        desired.is_empty() || spec.top_defaults.iter().all(|(k, _)| root.get(k).is_some());
    if !mixed && have == want && defaults_ok {
        return Ok(before.map(str::to_string));
    }
    if before.is_none() && desired.is_empty() {
        return Ok(None);
    }

    let mut doc = Doc::new(before.unwrap_or("{}\n"));
    // Remove ours, last first so indices stay valid.
    let mut emptied: Vec<String> = Vec::new();
    let events: Vec<String> = found
        .iter()
        .filter(|f| f.ours)
        .map(|f| f.event.clone())
        .collect();
    let mut events_dedup = events.clone();
    events_dedup.dedup();
    for event in &events_dedup {
        let mine: Vec<&Found> = found.iter().filter(|f| &f.event == event).collect();
        let max_index = mine.iter().map(|f| f.index).max().unwrap_or(0);
        for idx in (0..=max_index).rev() {
            let in_entry: Vec<&&Found> = mine.iter().filter(|f| f.index == idx).collect();
            if in_entry.is_empty() || !in_entry.iter().any(|f| f.ours) {
                continue;
            }
            let mut path: Vec<&str> = spec.root.to_vec();
            path.push(event);
            if in_entry.iter().all(|f| f.ours) {
                doc.remove_item(&path, idx).map_err(ed)?;
            } else {
                let idx_s = idx.to_string();
                let mut hp = path.clone();
                hp.push(&idx_s);
                hp.push("hooks");
                for f in in_entry.iter().rev().filter(|f| f.ours) {
                    doc.remove_item(&hp, f.handler).map_err(ed)?;
                }
            }
        }
        let r = doc.root().map_err(|e| InstallError::parse_at(path, &e))?;
        let mut p: Vec<&str> = spec.root.to_vec();
        p.push(event);
        if r.path(&p).is_some_and(|n| n.items().is_empty()) {
            doc.remove_member(spec.root, event).map_err(ed)?;
            emptied.push(event.clone());
        }
    }
    if desired.is_empty() && !emptied.is_empty() && spec.root.len() == 1 {
        let r = doc.root().map_err(|e| InstallError::parse_at(path, &e))?;
        if r.path(spec.root).is_some_and(|n| n.members().is_empty()) {
            doc.remove_member(&[], spec.root[0]).map_err(ed)?;
        }
    }
    if !desired.is_empty() {
        for (k, v) in &spec.top_defaults {
            if doc
                .root()
                .map_err(|e| InstallError::parse_at(path, &e))?
                .get(k)
                .is_none()
            {
                doc.insert_member(&[], k, v).map_err(ed)?;
            }
        }
    }
    for (event, v) in desired {
        let mut p: Vec<&str> = spec.root.to_vec();
        p.push(event);
        doc.ensure(&p, json!([])).map_err(ed)?;
        doc.append(&p, v).map_err(ed)?;
    }
    let mut text = doc.into_text();
    if !text.ends_with('\n') && before.is_none() {
        text.push('\n');
    }
    // Uninstalling our last entry from a file that holds nothing else (no
    // key, no comment) removes the file: an empty config is no config.
    if desired.is_empty() && !emptied.is_empty() {
        let empty = super::jsonc::parse(&text)
            .is_ok_and(|n| n.value.as_object().is_some_and(|o| o.is_empty()));
        if empty && !text.contains("//") && !text.contains("/*") {
            return Ok(None);
        }
    }
    Ok(Some(text))
}
