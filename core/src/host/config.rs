//! Loading hook configurations into one typed [`Registry`].
//!
//! Sources (one dialect per registry, any number of sources):
//! * Claude Code `settings.json` (user, project, local, managed) and plugin
//!   `hooks/hooks.json` (`${CLAUDE_PLUGIN_ROOT}` / `${CLAUDE_PLUGIN_DATA}`
//!   substituted in the exec form's `command` and `args`; a shell-form
//!   command keeps them for the shell to expand from the environment, as
//!   Claude Code 2.1.328 does);
//! * Codex `hooks.json`, plugin `hooks/hooks.json` (`${PLUGIN_ROOT}`,
//!   `${PLUGIN_DATA}` and the `CLAUDE_` spellings substituted, as Codex
//!   does), and the `[hooks]` table of `config.toml`, passed as the JSON
//!   value of that table (parse the TOML with any TOML library; the shapes
//!   are identical).
//!
//! Validation checks every entry; every problem is a [`Diagnostic`]. A bad
//! entry is skipped exactly as the agent skips it (a group with a matcher
//! that does not compile; every hook of that event in that source on a
//! Claude schema error; the whole source on a Codex one; see the loader's
//! table) and the rest loads; [`RegistryBuilder::strict`](super::RegistryBuilder::strict) refuses the whole
//! registry instead. Unknown events are ignored before their groups are
//! parsed; a matcher on an event without a matcher subject is discarded
//! before it is compiled. Codex hook trust (definition hashes) is the
//! host's own business and is not checked here.

use std::path::PathBuf;

use serde::Serialize;

use super::diagnostic::Diagnostic;
use super::ifrule::IfRule;
use crate::host::matcher::{Dialect, Matcher};

/// Where a hook came from, for identity, deduplication and environment.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Origin {
    /// A settings file / hooks.json / config table.
    Config,
    /// A plugin installed at `root`.
    Plugin {
        /// Plugin root (`CLAUDE_PLUGIN_ROOT` / `PLUGIN_ROOT`).
        root: PathBuf,
        /// Plugin data directory (`CLAUDE_PLUGIN_DATA` / `PLUGIN_DATA`).
        #[serde(skip_serializing_if = "Option::is_none")]
        data: Option<PathBuf>,
    },
}

/// The stable identity of one configured handler.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct HookId {
    /// The source name given when loading.
    pub source: String,
    /// Native event name.
    pub event: String,
    /// Index of the matcher group in the event's array.
    pub group_index: usize,
    /// Index of the handler in the group's `hooks` array.
    pub handler_index: usize,
}

impl std::fmt::Display for HookId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}:{}",
            self.source, self.event, self.group_index, self.handler_index
        )
    }
}

/// One runnable command handler.
#[derive(Debug, Clone)]
pub struct ConfiguredHook {
    /// Identity.
    pub id: HookId,
    /// The group's matcher (`None`: absent, or discarded on this event).
    pub matcher: Option<Matcher>,
    /// The command line (shell form) or program (exec form), placeholders
    /// of the plugin already substituted (exec form; Codex always).
    pub command: String,
    /// Claude exec form: `args` present (even empty) means no shell.
    pub args: Option<Vec<String>>,
    /// Claude `shell`: `bash` or `powershell`.
    pub shell: Option<String>,
    /// Configured timeout in seconds (`None`: the event's default).
    pub timeout_s: Option<f64>,
    /// `async` / `asyncRewake`: runs, but cannot gate.
    pub is_async: bool,
    /// Claude `if` permission rule.
    pub if_rule: Option<IfRule>,
    /// Claude `onFailure: "block"`.
    pub on_failure_block: bool,
    /// `statusMessage`.
    pub status_message: Option<String>,
    /// Where it came from.
    pub origin: Origin,
}

/// The hooks of one dialect, ready for selection.
#[derive(Debug, Clone)]
pub struct Registry {
    pub(super) dialect: Dialect,
    pub(super) hooks: Vec<ConfiguredHook>,
    pub(super) warnings: Vec<Diagnostic>,
    pub(super) disabled: bool,
}

impl Registry {
    /// The dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Every runnable hook, in configuration order.
    pub fn hooks(&self) -> &[ConfiguredHook] {
        &self.hooks
    }

    /// Every diagnostic found while loading: skipped entries (errors) and
    /// warnings.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// True when `disableAllHooks` turned every hook off.
    pub fn is_disabled(&self) -> bool {
        self.disabled
    }
}

/// A configuration refused by a strict builder: every diagnostic, errors
/// and warnings.
#[derive(Debug, Clone, thiserror::Error)]
#[error("hook configuration rejected: {}", first_error(.diagnostics))]
pub struct ConfigError {
    /// Every diagnostic found (at least one error).
    pub diagnostics: Vec<Diagnostic>,
}

fn first_error(d: &[Diagnostic]) -> String {
    let n = d.iter().filter(|d| d.is_error()).count();
    match d.iter().find(|d| d.is_error()) {
        Some(e) if n > 1 => format!("{e} (and {} more)", n - 1),
        Some(e) => e.to_string(),
        None => "no error".into(),
    }
}
