//! Agent config generation and installation: one renderer per agent, all
//! writing through the same no-data-loss path.
//!
//! - **Merge, never replace**: existing files are edited in place
//!   ([`jsonc`] for JSON/JSONC, `toml_edit` for TOML), so every unrelated
//!   key, comment, ordering and formatting survives.
//! - **Our entries are marked**: every command we write carries
//!   `--hook-id=<manifest id>:<hook id>`; reinstalling compares our entries
//!   (their fingerprint) with the desired ones and writes nothing when they
//!   agree; uninstalling removes exactly those.
//! - **Atomic and locked** ([`fsio`]): an advisory lock around the whole
//!   read-modify-write, a temp file in the same directory (born with the
//!   original's mode), fsync, a last look for a concurrent write, rename,
//!   and a backup of the previous version in the private state root.
//! - **What is there is kept**: symlinks are written through; read-only,
//!   hard-linked and other users' files are refused unless forced; FIFOs,
//!   directories and huge files are refused; a project file whose symlink
//!   leads outside the project is refused.
//! - **Recorded** ([`records`]): each command written is recorded, so
//!   `doctor` runs only what install wrote.
//! - **Unparseable files are never overwritten**: the error names the file
//!   and the position.
//!
//! The manifest format and per-agent details are in `docs/install.md`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::model::{Kind, Provider};

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod diff;
pub mod doctor;
pub mod filter;
pub mod fsio;
pub mod gemini;
pub mod hooks_json;
pub mod json;
pub mod jsonc;
pub mod kimi;
pub mod liveness;
pub mod manifest;
pub mod openclaw;
pub mod opencode;
pub mod overlap;
pub mod records;
pub mod unified;

pub use manifest::{FailMode, Hook, HookSpec, LogSetting, Manifest};
pub use unified::Unified;

/// Install and uninstall failures.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// An existing file is not valid JSON/TOML; it was left untouched.
    #[error("cannot parse {}:{line}:{column}: {message} (the file was left untouched)", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line (0 when unknown).
        line: usize,
        /// 1-based column (0 when unknown).
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// An existing file parses but has an unexpected shape (e.g. `hooks`
    /// is a string); it was left untouched.
    #[error("{}: {message} (the file was left untouched)", path.display())]
    Shape {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The manifest is invalid.
    #[error("manifest: {message}")]
    Manifest {
        /// What is wrong.
        message: String,
    },
    /// The agent or scope cannot take these hooks.
    #[error("{agent}: {message}")]
    Unsupported {
        /// Agent id.
        agent: String,
        /// Why.
        message: String,
    },
    /// Reading or writing failed.
    #[error("{}: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// Another install holds the lock.
    #[error("{}: another agenthooks install is still running (lock not released)", path.display())]
    Locked {
        /// The file.
        path: PathBuf,
    },
    /// The file is not one we may write: not a regular file, too large,
    /// read-only, hard-linked, another user's, or a project file whose
    /// symlink leads outside the project. Nothing was written.
    #[error("{}: {message}", path.display())]
    Refused {
        /// The file.
        path: PathBuf,
        /// Why, and what to do.
        message: String,
    },
    /// One of our hooks would reach an agent twice: the agent reads both
    /// the file this install writes and another file that already has it.
    /// Nothing was written.
    #[error("{message}")]
    DoubleWired {
        /// The agent being installed.
        agent: String,
        /// Which agent, which files, which hooks.
        message: String,
    },
    /// Another program kept writing the file between our read and our
    /// rename; its writes were kept, ours not made.
    #[error("{}: changed by another program while installing, {attempts} times in a row; nothing of ours was written to it (its changes were kept) — try again", path.display())]
    Changed {
        /// The file.
        path: PathBuf,
        /// How many merges were tried.
        attempts: u32,
    },
}

impl InstallError {
    pub(crate) fn parse_at(path: &Path, e: &jsonc::ParseError) -> InstallError {
        InstallError::Parse {
            path: path.to_path_buf(),
            line: e.line,
            column: e.column,
            message: e.message.clone(),
        }
    }

    pub(crate) fn edit(path: &Path, e: jsonc::EditError) -> InstallError {
        match e {
            jsonc::EditError::Parse(p) => InstallError::parse_at(path, &p),
            jsonc::EditError::Shape(m) => InstallError::Shape {
                path: path.to_path_buf(),
                message: m,
            },
        }
    }

    pub(crate) fn toml(path: &Path, text: &str, e: &toml_edit::TomlError) -> InstallError {
        let (line, column) = e
            .span()
            .map(|s| jsonc::position(text, s.start))
            .unwrap_or((0, 0));
        InstallError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            message: e.message().to_string(),
        }
    }
}

/// Where hooks go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The user's own config (all projects).
    User,
    /// The project's shared config (committed).
    Project,
    /// The project's personal config (not committed), where the agent has
    /// one (Claude Code `settings.local.json`); else like `Project`.
    Local,
}

impl Scope {
    /// Parses `user`, `project`, `local`.
    pub fn parse(s: &str) -> Result<Scope, InstallError> {
        match s {
            "user" | "global" => Ok(Scope::User),
            "project" | "repo" => Ok(Scope::Project),
            "local" => Ok(Scope::Local),
            _ => Err(InstallError::Manifest {
                message: format!("scope `{s}` (user, project or local)"),
            }),
        }
    }

    /// `user`, `project`, `local`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Local => "local",
        }
    }
}

/// One agent and scope to install into, with the directories resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// The agent.
    pub agent: Provider,
    /// The scope.
    pub scope: Scope,
    /// The user's home directory.
    pub home: PathBuf,
    /// The project directory (project and local scopes).
    pub project: PathBuf,
    /// Environment that moves agent config dirs (`CODEX_HOME`,
    /// `KIMI_CODE_HOME`, `COPILOT_HOME`, `XDG_CONFIG_HOME`,
    /// `OPENCLAW_STATE_DIR`), captured once.
    pub env: BTreeMap<String, String>,
    /// Cursor: event names the target build knows (default: every event
    /// of the dialect but `workspaceOpen`, whose semantics are unknown).
    pub cursor_events: Option<Vec<String>>,
    /// Write files that are read-only, hard-linked or another user's
    /// (`--force`); they are refused otherwise.
    pub force: bool,
}

/// Variables that move agent config directories.
pub const ENV_VARS: &[&str] = &[
    "CODEX_HOME",
    "KIMI_CODE_HOME",
    "COPILOT_HOME",
    "XDG_CONFIG_HOME",
    "OPENCLAW_STATE_DIR",
];

impl Target {
    /// A target from this process's environment: `$HOME`, the current
    /// directory as the project, and [`ENV_VARS`].
    pub fn from_env(agent: Provider, scope: Scope) -> Target {
        let home = std::env::var_os("HOME")
            .or_else(|| std::env::var_os("USERPROFILE"))
            .map(PathBuf::from)
            .unwrap_or_default();
        let env = ENV_VARS
            .iter()
            .filter_map(|k| std::env::var(k).ok().map(|v| (k.to_string(), v)))
            .filter(|(_, v)| !v.is_empty())
            .collect();
        Target {
            agent,
            scope,
            home,
            project: std::env::current_dir().unwrap_or_default(),
            env,
            cursor_events: None,
            force: false,
        }
    }

    /// A target with explicit directories and no environment overrides.
    pub fn new(agent: Provider, scope: Scope, home: &Path, project: &Path) -> Target {
        Target {
            agent,
            scope,
            home: home.to_path_buf(),
            project: project.to_path_buf(),
            env: BTreeMap::new(),
            cursor_events: None,
            force: false,
        }
    }

    /// An environment override, or `home/<default>`.
    pub(crate) fn env_dir(&self, var: &str, default: &str) -> PathBuf {
        match self.env.get(var) {
            Some(v) => PathBuf::from(v),
            None => self.home.join(default),
        }
    }
}

/// One file change of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// The file.
    pub path: PathBuf,
    /// Its content now (`None`: absent).
    pub before: Option<String>,
    /// Its content after the change (`None`: removed).
    pub after: Option<String>,
}

/// What an install or uninstall does (or did).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The agent.
    pub agent: Provider,
    /// The scope.
    pub scope: Scope,
    /// Files that change (unchanged files are not listed).
    pub changes: Vec<FileChange>,
    /// Warnings and decisions worth telling the user (skipped hooks, ...).
    pub notes: Vec<String>,
}

impl Plan {
    /// True when nothing would change.
    pub fn is_noop(&self) -> bool {
        self.changes.is_empty()
    }

    /// A unified diff of every change.
    pub fn diff(&self) -> String {
        self.changes
            .iter()
            .map(|c| diff::unified(&c.path, c.before.as_deref(), c.after.as_deref()))
            .collect()
    }
}

/// Install or uninstall.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Add or update our entries.
    Install,
    /// Remove our entries.
    Uninstall,
}

/// How long an install waits for another one's lock.
pub const LOCK_WAIT: Duration = Duration::from_secs(30);

/// How many times an install merges again when another program writes a
/// file between our read and our rename.
pub const MAX_ATTEMPTS: u32 = 5;

/// Computes the changes without writing anything (`--dry-run`). Fails,
/// as the install would, on a file it may not write (see
/// [`fsio::check_writable`], [`fsio::check_inside`]).
pub fn plan(m: &Manifest, t: &Target, action: Action) -> Result<Plan, InstallError> {
    if action == Action::Install {
        overlap::refuse_double_wiring(m, t)?;
    }
    let files = files(m, t)?;
    let mut current = BTreeMap::new();
    let mut real = BTreeMap::new();
    for f in &files {
        let r = if t.scope != Scope::User && f.starts_with(&t.project) {
            fsio::check_inside(f, &t.project)?
        } else {
            fsio::real_path(f)?
        };
        current.insert(f.clone(), fsio::read_opt(&r)?);
        real.insert(f.clone(), r);
    }
    let plan = plan_from(m, t, action, &current)?;
    for c in &plan.changes {
        if let Some(r) = real.get(&c.path) {
            fsio::check_writable(&c.path, r, t.force)?;
        }
    }
    Ok(plan)
}

/// The files an install into this agent/scope may touch.
pub fn files(m: &Manifest, t: &Target) -> Result<Vec<PathBuf>, InstallError> {
    Ok(match t.agent {
        Provider::ClaudeCode => vec![claude::path(t)],
        Provider::Codex => {
            let (h, c) = codex::paths(t);
            vec![h, c]
        }
        Provider::Cursor => vec![cursor::path(t)],
        Provider::Gemini => vec![gemini::path(t)],
        Provider::KimiCode => vec![kimi::path(t)?],
        Provider::Copilot => vec![copilot::path(t, m)],
        Provider::Opencode => vec![opencode::path(t, m)],
        Provider::Openclaw => ["openclaw.plugin.json", "package.json", "index.js"]
            .iter()
            .map(|f| openclaw::dir(t, m).join(f))
            .collect(),
    })
}

/// Computes a plan from given file contents (`None` = absent).
pub fn plan_from(
    m: &Manifest,
    t: &Target,
    action: Action,
    current: &BTreeMap<PathBuf, Option<String>>,
) -> Result<Plan, InstallError> {
    let mut notes = Vec::new();
    let hooks = match action {
        Action::Install => resolve(m, t, &mut notes)?,
        Action::Uninstall => Vec::new(),
    };
    let get = |p: &Path| -> Result<Option<String>, InstallError> {
        match current.get(p) {
            Some(v) => Ok(v.clone()),
            None => fsio::read_opt(p),
        }
    };
    let mut changes = match t.agent {
        Provider::ClaudeCode => claude::render(m, t, &hooks, &get)?,
        Provider::Codex => codex::render(m, t, &hooks, &get)?,
        Provider::Cursor => cursor::render(m, t, &hooks, &get)?,
        Provider::Gemini => gemini::render(m, t, &hooks, &get)?,
        Provider::KimiCode => kimi::render(m, t, &hooks, &get)?,
        Provider::Copilot => copilot::render(m, t, &hooks, &get)?,
        Provider::Opencode => opencode::render(m, t, &hooks, &get)?,
        Provider::Openclaw => openclaw::render(m, t, &hooks, &get, &mut notes)?,
    };
    changes.retain(|c| c.before != c.after);
    Ok(Plan {
        agent: t.agent,
        scope: t.scope,
        changes,
        notes,
    })
}

/// Installs (lock, read, merge, atomic write with backup).
pub fn install(m: &Manifest, t: &Target) -> Result<Plan, InstallError> {
    apply(m, t, Action::Install)
}

/// Removes exactly our entries.
pub fn uninstall(m: &Manifest, t: &Target) -> Result<Plan, InstallError> {
    apply(m, t, Action::Uninstall)
}

/// Plans and writes under the lock. A file another program (the agent
/// itself) writes between our read and our rename is merged again, up to
/// [`MAX_ATTEMPTS`] times; the plan returned covers every file written.
pub fn apply(m: &Manifest, t: &Target, action: Action) -> Result<Plan, InstallError> {
    m.validate()?;
    let _locks = fsio::lock_all(&files(m, t)?, LOCK_WAIT)?;
    // Per file: the content before our first write, and after our last.
    let mut done: Vec<FileChange> = Vec::new();
    let mut conflict = PathBuf::new();
    for _ in 0..MAX_ATTEMPTS {
        let mut p = plan(m, t, action)?;
        let mut clean = true;
        for c in &p.changes {
            if !fsio::replace(&c.path, c.before.as_deref(), c.after.as_deref(), t.force)? {
                clean = false;
                conflict = c.path.clone();
                break;
            }
            match done.iter_mut().find(|d| d.path == c.path) {
                Some(d) => d.after = c.after.clone(),
                None => done.push(c.clone()),
            }
        }
        if clean {
            done.retain(|d| d.before != d.after);
            p.changes = done;
            record(m, t, &mut p)?;
            return Ok(p);
        }
    }
    Err(InstallError::Changed {
        path: conflict,
        attempts: MAX_ATTEMPTS,
    })
}

/// What of a file's text is ours to record ([`records`]): our generated plugin file as
/// a whole, or each of our commands in a config file.
fn record_subjects(m: &Manifest, file: &Path, text: Option<&str>) -> Vec<(String, String)> {
    let Some(text) = text else {
        return Vec::new();
    };
    if file.extension().is_some_and(|e| e == "js") {
        return if text.starts_with(&opencode::header(m)) {
            vec![(text.to_string(), format!("{}:*", m.id))]
        } else {
            Vec::new()
        };
    }
    let mk = marker(m);
    doctor::entries_in(file, text)
        .unwrap_or_default()
        .into_iter()
        .filter(|e| is_ours_command(&e.command, &mk))
        .map(|e| (e.command, e.hook_id.unwrap_or_default()))
        .collect()
}

/// Records our commands as they now are in every file of the target (and
/// forgets those we removed), so `doctor` knows which commands are ours to
/// run ([`records`]). Failing to record only costs doctor's probe: a note.
fn record(m: &Manifest, t: &Target, p: &mut Plan) -> Result<(), InstallError> {
    for f in files(m, t)? {
        let (before, after) = match p.changes.iter().find(|c| c.path == f) {
            Some(c) => (c.before.clone(), c.after.clone()),
            None => match fsio::real_path(&f).and_then(|r| fsio::read_opt(&r)) {
                Ok(now) => (now.clone(), now),
                Err(e) => {
                    p.notes.push(format!("{}: not recorded: {e}", f.display()));
                    continue;
                }
            },
        };
        if let Err(e) = records::sync(
            t.agent,
            &f,
            &record_subjects(m, &f, before.as_deref()),
            &record_subjects(m, &f, after.as_deref()),
        ) {
            p.notes.push(format!(
                "{}: could not record the installed commands ({e}); `agenthooks doctor` will show them without running them",
                f.display()
            ));
        }
    }
    Ok(())
}

/// A hook resolved for one agent: native event, matcher, command.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// Manifest hook.
    pub hook: Hook,
    /// The native event name.
    pub event: String,
    /// Its unified kind.
    pub kind: Kind,
    /// The agent-native matcher (`None`: match all in config).
    pub native_matcher: Option<String>,
    /// The command line written into the config.
    pub command: String,
    /// `--hook-id` value: `<manifest id>:<hook id>`.
    pub hook_id: String,
}

/// Events never written for an agent (not hook-config event keys).
fn excluded(p: Provider, native: &str) -> bool {
    match p {
        // The legacy `notify` program, not a hooks.json event (codex.md §4.7).
        Provider::Codex => native == "agent-turn-complete",
        // Copilot: the camelCase names are the native file's keys; the
        // PascalCase ones are for Claude-format files (copilot-cli.md §3.1).
        Provider::Copilot => native.starts_with(|c: char| c.is_ascii_uppercase()),
        Provider::Cursor => native == "workspaceOpen",
        _ => false,
    }
}

/// The native events of an agent, with kinds (for agents whose hooks are
/// config commands; the plugin agents have their own tables).
pub fn native_table(p: Provider) -> Vec<(&'static str, Kind)> {
    match p {
        Provider::Opencode => opencode::EVENTS.to_vec(),
        Provider::Openclaw => openclaw::EVENTS.to_vec(),
        _ => crate::dialect::native_events(p)
            .iter()
            .copied()
            .filter(|e| !excluded(p, e))
            .map(|e| (e, crate::dialect::kind_of(p, e)))
            .collect(),
    }
}

/// Resolves the manifest's hooks for one agent: the native event of each
/// (the first native event of that kind, so an agent that fires a generic
/// and a specific event, like Cursor, is wired once), its matcher and
/// command. Hooks the agent cannot take are skipped with a note.
pub fn resolve(
    m: &Manifest,
    t: &Target,
    notes: &mut Vec<String>,
) -> Result<Vec<Resolved>, InstallError> {
    let p = t.agent;
    let table = native_table(p);
    let mut out = Vec::new();
    for h in m.resolved()? {
        if let Some(agents) = &h.agents {
            if !agents.contains(&p) {
                continue;
            }
        }
        let found = match (&h.kind, &h.event) {
            (Some(k), _) => table.iter().find(|(_, kk)| kk == k).copied(),
            (None, Some(e)) => table.iter().find(|(n, _)| n == e).copied(),
            _ => None,
        };
        let Some((event, kind)) = found else {
            notes.push(format!(
                "{}: hook `{}` skipped: {} has no {} event",
                p.id(),
                h.id,
                p.display_name(),
                h.kind
                    .map(|k| k.as_str().to_string())
                    .or(h.event.clone())
                    .unwrap_or_default()
            ));
            continue;
        };
        if p == Provider::Cursor {
            if let Some(known) = &t.cursor_events {
                if !known.iter().any(|k| k == event) {
                    notes.push(format!(
                        "cursor: hook `{}` skipped: `{event}` is not known to the target build (an unknown key makes Cursor drop the whole file)",
                        h.id
                    ));
                    continue;
                }
            }
        }
        let mut h = h;
        if p == Provider::Codex && matches!(event, "SessionEnd" | "Interrupt") && h.timeout > 3 {
            // Codex accepts at most 3 s there (codex.md §1.5).
            notes.push(format!(
                "codex: hook `{}`: timeout {} s lowered to 3 s, the most Codex allows on {event}",
                h.id, h.timeout
            ));
            h.timeout = 3;
        }
        if !h.blocking && crate::detach::gating(kind) {
            // A hook given by native event name: its kind is known here.
            return Err(InstallError::Manifest {
                message: format!(
                    "hook `{}`: `async` is refused on {} `{event}` (`{}`): it is a gating event, whose answer must reach the agent",
                    h.id,
                    p.display_name(),
                    kind.as_str()
                ),
            });
        }
        let hook_id = format!("{}:{}", m.id, h.id);
        let native_matcher = h.matcher.native(p, kind);
        let command = command_line(m, &h, p, event, &hook_id);
        out.push(Resolved {
            hook: h,
            event: event.to_string(),
            kind,
            native_matcher,
            command,
            hook_id,
        });
    }
    Ok(out)
}

/// `<program> [args] agenthooks run --provider=<id> [--event=<native>]
/// --timeout=<s> [--fail=closed] --hook-id=<id> [--match=<unified>]`,
/// shell-quoted.
pub fn command_line(m: &Manifest, h: &Hook, p: Provider, event: &str, hook_id: &str) -> String {
    let mut argv: Vec<String> = vec![m.program.clone()];
    argv.extend(m.args.iter().cloned());
    argv.push("agenthooks".into());
    argv.push("run".into());
    argv.push(format!("--provider={}", p.id()));
    if p == Provider::Copilot {
        // camelCase payloads do not name their event (copilot-cli.md §3.1).
        argv.push(format!("--event={event}"));
    }
    argv.push(format!("--timeout={}", h.timeout));
    if h.fail == FailMode::Closed {
        argv.push("--fail=closed".into());
    }
    argv.push(format!("--hook-id={hook_id}"));
    if let Some(o) = m.log.as_ref().and_then(|l| l.option()) {
        argv.push(o.into());
    }
    if !h.matcher.is_all() {
        argv.push(format!("--match={}", h.matcher.to_text()));
    }
    if !h.blocking && !native_async(p, event) {
        // No background flag the agent honours here: the hook answers at
        // once and detaches itself (`crate::detach`).
        argv.push(crate::detach::ASYNC_FLAG.into());
    }
    argv.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether the agent runs a hook in the background by a config flag of its
/// own on this event: Claude Code's `async: true`, except on
/// `Stop`/`SubagentStop` (its Cowork variant skips async Stop hooks, so
/// those get `--async` instead). Codex parses `async` but its builds ran
/// such hooks synchronously; Gemini CLI, Kimi Code, Cursor and Copilot CLI
/// have no such flag. The plugin bridges (OpenCode, OpenClaw) take
/// `blocking` in their own config.
pub fn native_async(p: Provider, event: &str) -> bool {
    match p {
        Provider::ClaudeCode => !matches!(event, "Stop" | "SubagentStop"),
        Provider::Opencode | Provider::Openclaw => true,
        _ => false,
    }
}

/// Quotes one word for a POSIX shell (unchanged when it needs no quoting).
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,@%+".contains(c))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The marker every command of ours carries.
pub fn marker(m: &Manifest) -> String {
    format!("--hook-id={}:", m.id)
}

/// Whether a command string is one of ours.
pub fn is_ours_command(cmd: &str, marker: &str) -> bool {
    cmd.split_whitespace()
        .any(|w| w.trim_matches('\'').starts_with(marker))
}
