//! The validating loader behind [`Registry`] (rules in the `config` docs).
//!
//! A bad entry is skipped the way the agent skips it, never more:
//!
//! | problem | Claude Code 2.1.328 | Codex 0.171.0 |
//! |---|---|---|
//! | not JSON | that source is skipped | that source is skipped |
//! | a schema error (wrong type, missing field, unknown handler `type`, a `timeout` that is not a positive number / whole number of seconds) | every hook of **that event in that source** is skipped | every hook of **that source** is skipped |
//! | a matcher that does not compile | that group is skipped | that group is skipped |
//! | a blank `command` | that handler is skipped | that handler is skipped |
//! | a group without `hooks` | schema error | an empty group |
//! | unknown keys, unknown events | ignored | ignored |
//!
//! (Observed with the real agents: `fixtures/host/*-skip-*.json`.) Every
//! skip is an error-severity [`Diagnostic`]; the other sources, events and
//! groups load. [`RegistryBuilder::strict`] instead refuses the whole
//! registry on any error (for linting a configuration).

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::{Map, Value};

use super::config::{ConfigError, ConfiguredHook, HookId, Origin, Registry};
use super::diagnostic::{DiagCode, Diagnostic, Severity};
use super::events::{self, Subject};
use super::ifrule::IfRule;
use crate::host::matcher::{Dialect, ExactSet, Interner, Matcher};

/// Collects sources, then validates them as a whole.
#[derive(Debug)]
pub struct RegistryBuilder<'i> {
    dialect: Dialect,
    interner: &'i Interner,
    cache: HashMap<(ExactSet, String), Result<Matcher, Diagnostic>>,
    hooks: Vec<ConfiguredHook>,
    diags: Vec<Diagnostic>,
    disabled: bool,
    strict: bool,
    /// A schema error was found in the current scope (a Claude event, a
    /// Codex source): its hooks are dropped when the scope ends.
    scope_invalid: bool,
}

/// Location of the entry being parsed.
#[derive(Clone)]
struct At<'a> {
    source: &'a str,
    event: &'a str,
    group: Option<usize>,
    handler: Option<usize>,
}

impl RegistryBuilder<'static> {
    /// A builder using the process-wide matcher interner.
    pub fn new(dialect: Dialect) -> RegistryBuilder<'static> {
        RegistryBuilder::with_interner(dialect, Interner::global())
    }
}

impl<'i> RegistryBuilder<'i> {
    /// A builder using a given interner.
    pub fn with_interner(dialect: Dialect, interner: &'i Interner) -> RegistryBuilder<'i> {
        RegistryBuilder {
            dialect,
            interner,
            cache: HashMap::new(),
            hooks: Vec::new(),
            diags: Vec::new(),
            disabled: false,
            strict: false,
            scope_invalid: false,
        }
    }

    /// Refuse the whole registry when any entry is in error, instead of
    /// skipping it as the agent does (for linting a configuration).
    pub fn strict(&mut self, strict: bool) -> &mut Self {
        self.strict = strict;
        self
    }

    /// Adds a settings.json / hooks.json given as text.
    pub fn add_text(&mut self, source: &str, text: &str) -> &mut Self {
        match serde_json::from_str::<Value>(text) {
            Ok(v) => self.add_settings(source, &v),
            Err(e) => {
                let at = At::file(source);
                self.diag(&at, DiagCode::InvalidJson, e.to_string());
                self
            }
        }
    }

    /// Adds a Claude `settings.json` or a Codex `hooks.json` document (a
    /// missing `hooks` key contributes nothing). Claude's
    /// `disableAllHooks: true` disables the whole registry.
    pub fn add_settings(&mut self, source: &str, doc: &Value) -> &mut Self {
        self.add_doc(source, doc, None, false)
    }

    /// Adds a plugin `hooks/hooks.json` document (its top-level `hooks` is
    /// required), substituting the plugin placeholders.
    pub fn add_plugin(
        &mut self,
        source: &str,
        root: impl Into<PathBuf>,
        data: Option<PathBuf>,
        doc: &Value,
    ) -> &mut Self {
        let origin = Origin::Plugin {
            root: root.into(),
            data,
        };
        self.add_doc(source, doc, Some(origin), true)
    }

    /// Adds a bare events table (`{"PreToolUse": [...]}`): Codex
    /// `config.toml` `[hooks]`, or an inline plugin `hooks` object.
    pub fn add_hooks_table(&mut self, source: &str, table: &Value) -> &mut Self {
        self.add_events(&At::file(source), table, &Origin::Config);
        self
    }

    /// The registry of every hook that loaded. Bad entries were skipped as
    /// the agent skips them (their diagnostics are errors, kept with the
    /// warnings); `Err` only in [`RegistryBuilder::strict`] mode.
    pub fn build(self) -> Result<Registry, ConfigError> {
        if self.strict && self.diags.iter().any(Diagnostic::is_error) {
            return Err(ConfigError {
                diagnostics: self.diags,
            });
        }
        Ok(Registry {
            dialect: self.dialect,
            hooks: self.hooks,
            warnings: self.diags,
            disabled: self.disabled,
        })
    }

    fn diag(&mut self, at: &At, code: DiagCode, reason: impl Into<String>) {
        self.push(at, Diagnostic::new(self.dialect, code, reason));
    }

    fn push(&mut self, at: &At, mut d: Diagnostic) {
        let schema = matches!(
            d.code,
            DiagCode::WrongType
                | DiagCode::MissingField
                | DiagCode::UnknownHandlerType
                | DiagCode::InvalidTimeout
        ) && d.is_error();
        if schema {
            self.scope_invalid = true;
            match self.dialect {
                Dialect::ClaudeCode if !at.event.is_empty() => d.reason.push_str(&format!(
                    "; every {} hook of this source is skipped, as Claude Code does",
                    at.event
                )),
                Dialect::ClaudeCode => {}
                Dialect::Codex => d
                    .reason
                    .push_str("; every hook of this source is skipped, as Codex does"),
            }
        }
        d.source = at.source.to_string();
        d.event = at.event.to_string();
        let index = |i: Option<usize>| i.map(|i| u32::try_from(i).unwrap_or(u32::MAX));
        d.group_index = index(at.group);
        d.handler_index = index(at.handler);
        self.diags.push(d);
    }

    fn add_doc(
        &mut self,
        source: &str,
        doc: &Value,
        origin: Option<Origin>,
        plugin: bool,
    ) -> &mut Self {
        let at = At::file(source);
        let Some(obj) = doc.as_object() else {
            self.diag(&at, DiagCode::WrongType, "the document must be an object");
            return self;
        };
        if self.dialect == Dialect::ClaudeCode
            && obj.get("disableAllHooks") == Some(&Value::Bool(true))
        {
            self.disabled = true;
            self.diag(&at, DiagCode::HooksDisabled, "disableAllHooks is true");
        }
        match obj.get("hooks") {
            Some(table) => self.add_events(&at, table, &origin.unwrap_or(Origin::Config)),
            None if plugin => self.diag(&at, DiagCode::MissingField, "no top-level `hooks` object"),
            None => {}
        }
        self
    }

    fn add_events(&mut self, at: &At, table: &Value, origin: &Origin) {
        // Codex parses a source as a whole: one schema error drops it.
        let source_start = self.hooks.len();
        self.scope_invalid = false;
        self.add_events_inner(at, table, origin);
        if self.dialect == Dialect::Codex && self.scope_invalid {
            self.hooks.truncate(source_start);
        }
        self.scope_invalid = false;
    }

    fn add_events_inner(&mut self, at: &At, table: &Value, origin: &Origin) {
        let Some(events) = table.as_object() else {
            self.diag(
                at,
                DiagCode::WrongType,
                "`hooks` must be an object of events",
            );
            return;
        };
        for (event, groups) in events {
            let at = At {
                event,
                ..at.clone()
            };
            let Some(spec) = events::spec(self.dialect, event) else {
                self.diag(
                    &at,
                    DiagCode::UnknownEvent,
                    "not an event of this agent; ignored",
                );
                continue;
            };
            let Some(groups) = groups.as_array() else {
                self.diag(
                    &at,
                    DiagCode::WrongType,
                    "an event's value must be an array of groups",
                );
                continue;
            };
            // Claude Code validates each event's array as a whole: one
            // schema error drops that event's hooks of this source.
            let event_start = self.hooks.len();
            let source_invalid = std::mem::take(&mut self.scope_invalid);
            for (gi, group) in groups.iter().enumerate() {
                let at = At {
                    group: Some(gi),
                    ..at.clone()
                };
                self.add_group(&at, spec.subject, group, origin);
            }
            if self.dialect == Dialect::ClaudeCode && self.scope_invalid {
                self.hooks.truncate(event_start);
            }
            self.scope_invalid |= source_invalid;
        }
    }

    fn add_group(&mut self, at: &At, subject: Subject, group: &Value, origin: &Origin) {
        let Some(g) = group.as_object() else {
            self.diag(at, DiagCode::WrongType, "a matcher group must be an object");
            return;
        };
        for k in g
            .keys()
            .filter(|k| !matches!(k.as_str(), "matcher" | "hooks"))
        {
            self.diag(
                at,
                DiagCode::UnknownKey,
                format!("group key `{k}` is ignored"),
            );
        }
        let matcher = match g.get("matcher") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(p)) => self.group_matcher(at, subject, p),
            Some(_) => {
                self.diag(at, DiagCode::WrongType, "`matcher` must be a string");
                Err(())
            }
        };
        let handlers = match g.get("hooks") {
            Some(Value::Array(h)) => h,
            Some(_) => return self.diag(at, DiagCode::WrongType, "`hooks` must be an array"),
            None if self.dialect == Dialect::Codex => {
                // Codex reads a group without `hooks` as an empty group.
                let mut d = Diagnostic::new(
                    self.dialect,
                    DiagCode::MissingField,
                    "a group without `hooks` runs nothing",
                );
                d.severity = Severity::Warning;
                return self.push(at, d);
            }
            None => return self.diag(at, DiagCode::MissingField, "a group needs `hooks`"),
        };
        for (hi, h) in handlers.iter().enumerate() {
            let at = At {
                handler: Some(hi),
                ..at.clone()
            };
            if let Some(hook) = self.handler(&at, h, origin) {
                if let Ok(m) = &matcher {
                    self.hooks.push(ConfiguredHook {
                        matcher: m.clone(),
                        ..hook
                    });
                }
            }
        }
    }

    fn group_matcher(&mut self, at: &At, subject: Subject, p: &str) -> Result<Option<Matcher>, ()> {
        if subject == Subject::None {
            if !(p.is_empty() || p == "*") {
                let d = Diagnostic::new(
                    self.dialect,
                    DiagCode::MatcherIgnored,
                    "this event has no matcher subject; the matcher is discarded",
                )
                .with_pattern(p);
                self.push(at, d);
            }
            return Ok(None);
        }
        let set = ExactSet::for_event(self.dialect, at.event);
        let key = (set, p.to_string());
        let r = match self.cache.get(&key) {
            Some(r) => r.clone(),
            None => {
                let r = Matcher::compile_in(self.interner, self.dialect, set, p);
                self.cache.insert(key, r.clone());
                r
            }
        };
        match r {
            Ok(m) => {
                for w in m.warnings() {
                    self.push(at, w.clone());
                }
                Ok(Some(m))
            }
            Err(mut d) => {
                // Both agents skip only this group (Codex with a warning).
                d.reason
                    .push_str("; this group is skipped, as the agent does");
                self.push(at, d);
                Err(())
            }
        }
    }

    /// Parses one handler; `None` when it is invalid or not runnable here.
    fn handler(&mut self, at: &At, h: &Value, origin: &Origin) -> Option<ConfiguredHook> {
        let Some(h) = h.as_object() else {
            self.diag(at, DiagCode::WrongType, "a handler must be an object");
            return None;
        };
        let claude = self.dialect == Dialect::ClaudeCode;
        let ty = match h.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(_) => {
                self.diag(at, DiagCode::WrongType, "`type` must be a string");
                return None;
            }
            None => {
                self.diag(at, DiagCode::MissingField, "a handler needs `type`");
                return None;
            }
        };
        let known: &[&str] = if claude {
            &["command", "http", "mcp_tool", "prompt", "agent"]
        } else {
            &["command", "mcp_tool", "prompt", "agent"]
        };
        if !known.contains(&ty) {
            self.diag(
                at,
                DiagCode::UnknownHandlerType,
                format!("unknown handler type `{ty}`"),
            );
            return None;
        }
        let keys: &[&str] = if claude {
            &[
                "type",
                "if",
                "timeout",
                "statusMessage",
                "once",
                "command",
                "args",
                "async",
                "asyncRewake",
                "shell",
                "onFailure",
                "url",
                "headers",
                "allowedEnvVars",
                "server",
                "tool",
                "input",
                "prompt",
                "model",
                "continueOnBlock",
            ]
        } else {
            &[
                "type",
                "command",
                "commandWindows",
                "command_windows",
                "timeout",
                "async",
                "statusMessage",
                "additionalContextLimit",
                "server",
                "tool",
                "input",
                "prompt",
                "model",
            ]
        };
        for k in h.keys().filter(|k| !keys.contains(&k.as_str())) {
            self.diag(
                at,
                DiagCode::UnknownKey,
                format!("handler key `{k}` is ignored"),
            );
        }
        let mut ok = true;
        let command = self.get_str(at, h, "command", &mut ok);
        let status_message = self.get_str(at, h, "statusMessage", &mut ok);
        let (mut if_src, mut shell, mut on_failure) = (None, None, None);
        if claude {
            if_src = self.get_str(at, h, "if", &mut ok);
            shell = self.get_str(at, h, "shell", &mut ok);
            on_failure = self.get_str(at, h, "onFailure", &mut ok);
        }
        let is_async = self.get_bool(at, h, "async", &mut ok)
            | (claude && self.get_bool(at, h, "asyncRewake", &mut ok));
        if let Some(s) = &shell {
            if !matches!(s.as_str(), "bash" | "powershell") {
                self.diag(
                    at,
                    DiagCode::WrongType,
                    "`shell` must be \"bash\" or \"powershell\"",
                );
                ok = false;
            }
        }
        let timeout_s = self.timeout(at, h.get("timeout"), &mut ok);
        let args = match h.get("args") {
            Some(Value::Array(a)) if claude => {
                match a.iter().map(Value::as_str).collect::<Option<Vec<_>>>() {
                    Some(v) => Some(v.into_iter().map(str::to_string).collect()),
                    None => {
                        self.diag(
                            at,
                            DiagCode::WrongType,
                            "`args` must be an array of strings",
                        );
                        ok = false;
                        None
                    }
                }
            }
            Some(Value::Null) | None => None,
            Some(_) if claude => {
                self.diag(
                    at,
                    DiagCode::WrongType,
                    "`args` must be an array of strings",
                );
                ok = false;
                None
            }
            Some(_) => None,
        };
        if ty != "command" {
            self.diag(
                at,
                DiagCode::UnsupportedHandlerType,
                format!("`{ty}` handlers are not run by this host; skipped"),
            );
            return None;
        }
        let command = match command {
            Some(c) if !c.trim().is_empty() => c,
            Some(_) if !claude => {
                // Codex skips blank commands with a warning.
                let mut d = Diagnostic::new(
                    self.dialect,
                    DiagCode::MissingCommand,
                    "blank command; skipped",
                );
                d.severity = Severity::Warning;
                self.push(at, d);
                return None;
            }
            _ if !ok => return None,
            None => {
                self.diag(
                    at,
                    DiagCode::MissingField,
                    "a command handler needs `command`",
                );
                return None;
            }
            Some(_) => {
                self.diag(
                    at,
                    DiagCode::MissingCommand,
                    "blank `command`; this handler is skipped",
                );
                return None;
            }
        };
        let if_rule = match if_src {
            Some(src) => match IfRule::parse(&src) {
                Some(r) => Some(r),
                None => {
                    self.diag(
                        at,
                        DiagCode::InvalidIf,
                        format!("cannot parse `if` rule {src:?}; the handler runs"),
                    );
                    None
                }
            },
            None => None,
        };
        if !ok {
            return None;
        }
        let (command, args) = substitute(self.dialect, origin, command, args);
        Some(ConfiguredHook {
            id: HookId {
                source: at.source.to_string(),
                event: at.event.to_string(),
                group_index: at.group.unwrap_or(0),
                handler_index: at.handler.unwrap_or(0),
            },
            matcher: None,
            command,
            args,
            shell,
            timeout_s,
            is_async,
            if_rule,
            on_failure_block: on_failure.as_deref() == Some("block"),
            status_message,
            origin: origin.clone(),
        })
    }

    fn get_str(
        &mut self,
        at: &At,
        h: &Map<String, Value>,
        key: &str,
        ok: &mut bool,
    ) -> Option<String> {
        match h.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                self.diag(at, DiagCode::WrongType, format!("`{key}` must be a string"));
                *ok = false;
                None
            }
        }
    }

    fn get_bool(&mut self, at: &At, h: &Map<String, Value>, key: &str, ok: &mut bool) -> bool {
        match h.get(key) {
            None | Some(Value::Null) => false,
            Some(Value::Bool(v)) => *v,
            Some(_) => {
                self.diag(
                    at,
                    DiagCode::WrongType,
                    format!("`{key}` must be a boolean"),
                );
                *ok = false;
                false
            }
        }
    }

    fn timeout(&mut self, at: &At, v: Option<&Value>, ok: &mut bool) -> Option<f64> {
        let n = match v {
            None | Some(Value::Null) => return None,
            Some(Value::Number(n)) => n,
            Some(_) => {
                self.diag(
                    at,
                    DiagCode::WrongType,
                    "`timeout` must be a number of seconds",
                );
                *ok = false;
                return None;
            }
        };
        match self.dialect {
            // Codex: an unsigned integer, clamped to at least 1 s.
            Dialect::Codex => match n.as_u64() {
                Some(s) => Some(s.max(1) as f64),
                None => {
                    self.diag(
                        at,
                        DiagCode::InvalidTimeout,
                        "`timeout` must be a whole number of seconds",
                    );
                    *ok = false;
                    None
                }
            },
            Dialect::ClaudeCode => match n.as_f64() {
                Some(s) if s > 0.0 && s.is_finite() => Some(s),
                _ => {
                    self.diag(
                        at,
                        DiagCode::InvalidTimeout,
                        "`timeout` must be a positive number of seconds",
                    );
                    *ok = false;
                    None
                }
            },
        }
    }
}

impl<'a> At<'a> {
    fn file(source: &'a str) -> At<'a> {
        At {
            source,
            event: "",
            group: None,
            handler: None,
        }
    }
}

/// Substitutes the plugin placeholders in a command and its args.
fn substitute(
    dialect: Dialect,
    origin: &Origin,
    command: String,
    args: Option<Vec<String>>,
) -> (String, Option<Vec<String>>) {
    let Origin::Plugin { root, data } = origin else {
        return (command, args);
    };
    // Claude Code substitutes only in the exec form; a shell-form command
    // keeps `${CLAUDE_PLUGIN_ROOT}` for the shell to expand from the
    // environment (never pasting a path into shell code).
    if dialect == Dialect::ClaudeCode && args.is_none() {
        return (command, args);
    }
    let root = root.to_string_lossy().into_owned();
    let data = data.as_ref().map(|d| d.to_string_lossy().into_owned());
    let mut pairs: Vec<(&str, String)> = vec![("${CLAUDE_PLUGIN_ROOT}", root.clone())];
    if dialect == Dialect::Codex {
        pairs.push(("${PLUGIN_ROOT}", root));
    }
    if let Some(d) = data {
        pairs.push(("${CLAUDE_PLUGIN_DATA}", d.clone()));
        if dialect == Dialect::Codex {
            pairs.push(("${PLUGIN_DATA}", d));
        }
    }
    let sub = |s: String| pairs.iter().fold(s, |s, (k, v)| s.replace(k, v));
    (sub(command), args.map(|a| a.into_iter().map(sub).collect()))
}

/// Loading lives next to the builder (the registry's own module only holds
/// what was loaded, so `config` does not depend back on `loader`).
impl Registry {
    /// Loads one configuration text (settings.json / hooks.json) from a
    /// source named `source`, with the process-wide matcher interner.
    pub fn load(dialect: Dialect, source: &str, text: &str) -> Result<Registry, ConfigError> {
        let mut b = RegistryBuilder::new(dialect);
        b.add_text(source, text);
        b.build()
    }
}
