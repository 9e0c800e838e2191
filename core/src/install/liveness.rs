//! "Did my hook fire?": each installed hook of ours against the audit log
//! ([`crate::audit`]), for `agenthooks doctor` and `agenthooks log`.
//!
//! Statuses, per hook entry doctor found (agent, file, event, hook id):
//!
//! - `logging_off`: nothing can be said (no `AGENTHOOKS_LOG` in the
//!   environment, no `--log` in the command, no log lines at all).
//! - `never_fired`: logging is on and no retained line of this agent names
//!   this hook id (and event).
//! - `fired`: its last line is recent enough (see `stopped_firing`).
//! - `stopped_firing`: it fired before, but since its last line the hook
//!   file was changed, or [`STALE_AFTER`] passed, **and** the same agent
//!   logged other invocations after that point: the agent is in use and
//!   runs hooks, this one no longer fires.
//!
//! For `never_fired` and `stopped_firing` the likely cause, where one is
//! known: the hook's program cannot start (not found, not executable);
//! Cursor discarding a whole `hooks.json` for one event name it does not
//! know; Codex skipping a hook without a matching trust entry; the hook
//! failing doctor's own probe run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::Serialize;

use crate::audit::{self, Entry as LogEntry, LogMode};
use crate::model::Provider;

/// A hook whose last line is older than this, while its agent logged
/// others since, has stopped firing.
pub const STALE_AFTER: Duration = Duration::from_secs(7 * 24 * 3600);

/// Liveness of one installed hook.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Liveness {
    /// `<manifest id>:<hook id>`.
    pub hook_id: String,
    /// The agent whose file wires it.
    pub agent: String,
    /// Native event key in the file.
    pub event: String,
    /// The hook file.
    pub file: PathBuf,
    /// `logging_off`, `never_fired`, `fired` or `stopped_firing`.
    pub status: &'static str,
    /// Lines logged for it (retained generations).
    pub fired: u64,
    /// Its last line's time (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_fired: Option<String>,
    /// The likely cause (never fired, stopped firing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
}

/// How to turn logging on (doctor and `agenthooks log` print it).
pub const HOW_TO_ENABLE: &str = "logging is off: set AGENTHOOKS_LOG=1 in the agent's environment, or reinstall with `agenthooks install --log` (docs/liveness.md)";

/// Whether the environment turns logging on.
fn env_on(env: &BTreeMap<String, String>) -> bool {
    LogMode::resolve(env.get(audit::LOG_ENV).map(String::as_str), None).is_on()
}

/// Whether a hook command carries `--log`.
pub fn command_logs(command: &str) -> bool {
    command
        .split_whitespace()
        .map(|w| w.trim_matches('\''))
        .any(|w| w == "--log" || w.starts_with("--log="))
}

/// One installed hook of ours, as doctor found it.
#[derive(Debug, Clone, Copy)]
pub struct Hook<'a> {
    /// The agent whose file wires it.
    pub agent: Provider,
    /// `--hook-id`.
    pub hook_id: &'a str,
    /// The command's `--provider` (the dialect its log lines carry).
    pub provider: Option<&'a str>,
    /// Native event key in the file.
    pub event: &'a str,
    /// The hook file.
    pub file: &'a Path,
    /// The command.
    pub command: &'a str,
    /// Why doctor's probe run of it failed, if it did.
    pub probe_failed: Option<&'a str>,
}

/// Whether a log line is an invocation of this hook.
fn matches(l: &LogEntry, e: &Hook) -> bool {
    if l.hook_id.as_deref() != Some(e.hook_id) {
        return false;
    }
    // The command's `--provider` is the dialect the line carries.
    let dialect = e.provider.unwrap_or(e.agent.id());
    let dialect = Provider::parse(dialect).map(|p| p.id()).unwrap_or(dialect);
    if l.agent != dialect {
        return false;
    }
    // Plugin entries are keyed by the agent's event but run as Claude
    // Code events; an early answer may not know the event.
    l.event.is_empty() || l.event == e.event || !e.file.to_string_lossy().ends_with(".json")
}

/// The likely cause of a hook not firing, where one is known.
pub fn cause(e: &Hook, env: &BTreeMap<String, String>) -> Option<String> {
    let agent = e.agent;
    if let Some(why) = cannot_start(e.command, env) {
        return Some(why);
    }
    let name = e.file.to_string_lossy();
    if agent == Provider::Cursor && name.ends_with("hooks.json") {
        let unknown = cursor_unknown_events(e.file);
        if !unknown.is_empty() {
            return Some(format!(
                "Cursor discards the whole hooks file {} when one event name is unknown to it: {}",
                e.file.display(),
                unknown
                    .iter()
                    .map(|u| format!("`{u}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    if agent == Provider::Codex && name.ends_with("hooks.json") {
        let config = codex_config(env);
        let text = super::fsio::read_opt(e.file)
            .ok()
            .flatten()
            .unwrap_or_default();
        let cfg = config.and_then(|c| super::fsio::read_opt(&c).ok().flatten());
        if let Some((_, why)) = super::codex::untrusted(e.file, &text, cfg.as_deref())
            .into_iter()
            .find(|(c, _)| *c == e.command)
        {
            return Some(why);
        }
    }
    e.probe_failed
        .map(|d| format!("the hook does not answer when doctor runs it: {d}"))
}

/// Codex's `config.toml` (where the trust state of user and project hooks
/// lives): `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`.
fn codex_config(env: &BTreeMap<String, String>) -> Option<PathBuf> {
    if let Some(h) = env.get("CODEX_HOME").filter(|h| Path::new(h).is_absolute()) {
        return Some(Path::new(h).join("config.toml"));
    }
    let home = env.get("HOME")?;
    Some(Path::new(home).join(".codex").join("config.toml"))
}

/// Event keys of a Cursor hooks file that Cursor does not know.
pub fn cursor_unknown_events(file: &Path) -> Vec<String> {
    let Ok(Some(text)) = super::fsio::read_opt(file) else {
        return Vec::new();
    };
    let Ok(root) = super::jsonc::parse(&text) else {
        return Vec::new();
    };
    let known = crate::dialect::native_events(Provider::Cursor);
    root.value
        .get("hooks")
        .and_then(serde_json::Value::as_object)
        .map(|h| {
            h.keys()
                .filter(|k| !known.contains(&k.as_str()))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// The first word of a POSIX shell command (single and double quotes, no
/// expansion); `None` when it starts with something we cannot read
/// (a variable, a subshell).
fn first_word(command: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = command.trim_start().chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, c) if c.is_whitespace() => break,
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '\\') => out.push(chars.next()?),
            (None, '$' | '`' | '(' | ';' | '|' | '&' | '<' | '>') => return None,
            (_, c) => out.push(c),
        }
    }
    (!out.is_empty() && quote.is_none()).then_some(out)
}

/// Why the command's program cannot start (not found, not executable).
pub fn cannot_start(command: &str, env: &BTreeMap<String, String>) -> Option<String> {
    let prog = first_word(command)?;
    if prog.contains('=') {
        // `VAR=value cmd`: an assignment, not the program.
        return None;
    }
    let exec = |p: &Path| -> Result<(), String> {
        let m = std::fs::metadata(p).map_err(|_| "not found".to_string())?;
        if !m.is_file() {
            return Err("not a file".into());
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            if m.permissions().mode() & 0o111 == 0 {
                return Err("not executable".into());
            }
        }
        Ok(())
    };
    if prog.contains('/') {
        let p = Path::new(&prog);
        if !p.is_absolute() {
            // Relative to whatever directory the agent runs hooks from:
            // not decidable here.
            return None;
        }
        return exec(p)
            .err()
            .map(|why| format!("the hook's program {prog} cannot start: {why}"));
    }
    if matches!(
        prog.as_str(),
        "cd" | "exec" | "env" | "command" | "." | "source" | "sh" | "bash"
    ) {
        return None;
    }
    let path = env.get("PATH")?;
    let found = std::env::split_paths(path).any(|d| exec(&d.join(&prog)).is_ok());
    (!found).then(|| format!("the hook's program `{prog}` is not on PATH ({path})"))
}

/// The liveness of one hook against the log lines (see the module docs).
pub fn assess(
    e: &Hook,
    lines: &[LogEntry],
    env: &BTreeMap<String, String>,
    now: SystemTime,
) -> Liveness {
    let mine: Vec<&LogEntry> = lines.iter().filter(|l| matches(l, e)).collect();
    let logging = env_on(env) || command_logs(e.command) || !lines.is_empty();
    let last = mine
        .iter()
        .filter_map(|l| audit::parse_rfc3339(&l.ts).map(|t| (t, l.ts.clone())))
        .max_by_key(|(t, _)| *t);
    let mut l = Liveness {
        hook_id: e.hook_id.to_string(),
        agent: e.agent.id().to_string(),
        event: e.event.to_string(),
        file: e.file.to_path_buf(),
        status: "logging_off",
        fired: u64::try_from(mine.len()).unwrap_or(u64::MAX),
        last_fired: last.as_ref().map(|(_, s)| s.clone()),
        cause: None,
    };
    if !logging {
        return l;
    }
    let Some((t, _)) = last else {
        l.status = "never_fired";
        l.cause = cause(e, env);
        return l;
    };
    let changed = std::fs::metadata(e.file)
        .and_then(|m| m.modified())
        .ok()
        .filter(|m| *m > t);
    let stale = now
        .duration_since(t)
        .is_ok_and(|age| age > STALE_AFTER)
        .then(|| t + STALE_AFTER);
    let since = changed.or(stale);
    let dialect = e.provider.unwrap_or(e.agent.id());
    let others_after = since.is_some_and(|s| {
        lines
            .iter()
            .any(|o| o.agent == dialect && audit::parse_rfc3339(&o.ts).is_some_and(|ot| ot > s))
    });
    if !others_after {
        l.status = "fired";
        return l;
    }
    l.status = "stopped_firing";
    l.cause = cause(e, env).or_else(|| {
        changed.map(|_| {
            format!(
                "{} changed after it last fired, and {} ran other hooks since",
                e.file.display(),
                e.agent.display_name()
            )
        })
    });
    l
}

/// How long ago, in words (`3 min ago`).
pub fn ago(ts: &str, now: SystemTime) -> String {
    let Some(t) = audit::parse_rfc3339(ts) else {
        return ts.to_string();
    };
    let s = now.duration_since(t).map(|d| d.as_secs()).unwrap_or(0);
    match s {
        0..=59 => format!("{s} s ago"),
        60..=3599 => format!("{} min ago", s / 60),
        3600..=86_399 => format!("{} h ago", s / 3600),
        _ => format!("{} days ago", s / 86_400),
    }
}

/// The liveness lines of one agent's report (text).
pub fn text(live: &[Liveness], now: SystemTime) -> String {
    let mut s = String::new();
    for l in live {
        let head = match l.status {
            "logging_off" => continue,
            "never_fired" => "NEVER FIRED".to_string(),
            "stopped_firing" => format!(
                "STOPPED FIRING (last fired {})",
                l.last_fired
                    .as_deref()
                    .map(|t| ago(t, now))
                    .unwrap_or_default()
            ),
            _ => format!(
                "last fired {} ({}x)",
                l.last_fired
                    .as_deref()
                    .map(|t| ago(t, now))
                    .unwrap_or_default(),
                l.fired
            ),
        };
        s.push_str(&format!(
            "  {head}: {} {} [{}]\n",
            l.hook_id,
            l.event,
            l.file.display()
        ));
        if let Some(c) = &l.cause {
            s.push_str(&format!("         likely cause: {c}\n"));
        }
    }
    if live.iter().any(|l| l.status == "logging_off") {
        s.push_str(&format!("  liveness: {HOW_TO_ENABLE}\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_words() {
        assert_eq!(first_word("'/a b/c' x").as_deref(), Some("/a b/c"));
        assert_eq!(first_word("python3 g.py").as_deref(), Some("python3"));
        assert_eq!(first_word("$HOME/x"), None);
        assert_eq!(first_word("a\\ b c").as_deref(), Some("a b"));
    }

    #[test]
    fn programs_that_cannot_start() {
        let env: BTreeMap<String, String> =
            [("PATH".to_string(), "/usr/bin:/bin".to_string())].into();
        assert!(cannot_start("sh -c true", &env).is_none());
        assert!(cannot_start("ls -l", &env).is_none());
        let why = cannot_start("/nonexistent/hook agenthooks run", &env).unwrap();
        assert!(why.contains("not found"), "{why}");
        let why = cannot_start("no-such-program-ah agenthooks run", &env).unwrap();
        assert!(why.contains("not on PATH"), "{why}");
        let why = cannot_start("/etc/passwd agenthooks", &env).unwrap();
        assert!(why.contains("not executable"), "{why}");
    }
}
