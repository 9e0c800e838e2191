//! Selection: the ordered hooks of a registry that run for one event.
//!
//! A hook runs when its event matches, its group's matcher matches the
//! event's subject (absent subject: only match-all matchers), and, on Claude
//! Code, its `if` rule allows the tool call. Order is configuration order.
//! Claude Code runs identical command handlers once (same command, args and
//! shell), keeping a plugin's copy separate from the settings' copy; Codex
//! runs every configured handler, duplicates included.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::config::{ConfiguredHook, Origin, Registry};
use super::diagnostic::{DiagCode, Diagnostic};
use super::events::{self, Subject};
use super::ifrule::IF_EVENTS;
use crate::host::matcher::{Dialect, Verdict};

/// The values a matcher is tested against for an event (empty: the event
/// carries no subject value). Codex tool events add the tool's aliases.
pub fn subjects(dialect: Dialect, native: &str, payload: &Map<String, Value>) -> Vec<String> {
    let Some(spec) = events::spec(dialect, native) else {
        return Vec::new();
    };
    let field = |k: &str| payload.get(k).and_then(Value::as_str).map(str::to_string);
    match spec.subject {
        Subject::None => Vec::new(),
        Subject::Field(k) => field(k).into_iter().collect(),
        Subject::Basename(k) => field(k)
            .map(|p| p.rsplit(['/', '\\']).next().unwrap_or("").to_string())
            .into_iter()
            .collect(),
        Subject::Tool => {
            let Some(name) = field("tool_name") else {
                return Vec::new();
            };
            let mut v = vec![name.clone()];
            if dialect == Dialect::Codex {
                v.extend(
                    events::codex_tool_aliases(&name)
                        .iter()
                        .map(|a| a.to_string()),
                );
            }
            v
        }
    }
}

/// Claude Code's identity of a handler: plugin root, command, args, shell.
type DedupeKey<'a> = (
    Option<&'a std::path::Path>,
    &'a str,
    Option<&'a [String]>,
    Option<&'a str>,
);

impl Registry {
    /// The hooks that run for a native event with this payload, in
    /// configuration order, deduplicated the way the agent does.
    pub fn select(&self, native: &str, payload: &Map<String, Value>) -> Vec<&ConfiguredHook> {
        self.select_reporting(native, payload).0
    }

    /// [`Registry::select`], with a `matcher_undecided` diagnostic for each
    /// hook selected because its matcher could not decide.
    pub fn select_reporting(
        &self,
        native: &str,
        payload: &Map<String, Value>,
    ) -> (Vec<&ConfiguredHook>, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        if self.is_disabled() {
            return (Vec::new(), diags);
        }
        let dialect = self.dialect();
        let subj = subjects(dialect, native, payload);
        let subj_refs: Vec<&str> = subj.iter().map(String::as_str).collect();
        let tool_name = payload
            .get("tool_name")
            .and_then(Value::as_str)
            .unwrap_or("");
        let tool_input = payload.get("tool_input").and_then(Value::as_object);
        let mut seen: HashSet<DedupeKey> = HashSet::new();
        let mut out = Vec::new();
        for h in self.hooks().iter().filter(|h| h.id.event == native) {
            let matched = match &h.matcher {
                None => true,
                Some(m) if subj_refs.is_empty() => m.matches_opt(None),
                Some(m) => match m.decide_any(&subj_refs) {
                    Verdict::Match => true,
                    Verdict::NoMatch => false,
                    Verdict::Undecided => {
                        let mut d = Diagnostic::new(
                            dialect,
                            DiagCode::MatcherUndecided,
                            format!(
                                "cannot evaluate the pattern on {subj:?} exactly as the agent \
                                 would; the hook runs"
                            ),
                        )
                        .with_pattern(m.pattern());
                        d.source = h.id.source.clone();
                        d.event = native.to_string();
                        d.group_index = u32::try_from(h.id.group_index).ok();
                        d.handler_index = u32::try_from(h.id.handler_index).ok();
                        diags.push(d);
                        true
                    }
                },
            };
            if !matched {
                continue;
            }
            if let Some(rule) = &h.if_rule {
                if !IF_EVENTS.contains(&native) || !rule.allows(tool_name, tool_input) {
                    continue;
                }
            }
            if dialect == Dialect::ClaudeCode {
                let root = match &h.origin {
                    Origin::Plugin { root, .. } => Some(root.as_path()),
                    Origin::Config => None,
                };
                let key = (
                    root,
                    h.command.as_str(),
                    h.args.as_deref(),
                    h.shell.as_deref(),
                );
                if !seen.insert(key) {
                    continue;
                }
            }
            out.push(h);
        }
        (out, diags)
    }
}
