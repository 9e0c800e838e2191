//! `agenthooks doctor`: what is installed where, wired twice, and does it
//! answer.
//!
//! For every agent found on the machine (its config directory exists, or
//! its binary is on `PATH`) it reads each hook file the agent loads, lists
//! the hooks (ours: commands with `agenthooks run … --hook-id=`; others:
//! everything else), flags one of our hooks reaching an agent twice (files
//! several agents read, e.g. `.claude/settings.json` is read by Claude
//! Code, Cursor and Copilot CLI), and runs our hooks once each with a
//! harmless sample payload of that agent's dialect (a shell tool call of
//! `echo agenthooks-doctor`, or the bare event) to prove they answer.
//!
//! **What it runs.** Hook files are not trusted: a cloned repository's
//! `.claude/settings.json` can hold any command dressed up as ours. Doctor
//! runs a hook only when `install` recorded that exact command string for
//! that file and agent in the user's private state root ([`super::records`])
//! — anything else, including one of ours whose command was edited since,
//! is listed, never run. A recorded hook of a user file (under the home
//! directory, owned by the user) is run by default; one of a project file
//! only with [`Options::probe_project`] (`--probe-project`), and every run
//! is announced before it starts. Each (file, command) runs at most once,
//! however many agents read the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use serde_json::{Value, json};

use super::{Scope, Target, fsio, jsonc, records};
use crate::host::runner::{self, RunRequest};
use crate::model::{Kind, Provider};

/// One hook entry found in a file.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Entry {
    /// The file.
    pub file: PathBuf,
    /// Native event key.
    pub event: String,
    /// The command.
    pub command: String,
    /// `<manifest id>:<hook id>` when the entry is ours.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook_id: Option<String>,
    /// The `--provider` of our command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// `user` (a file of the home directory's agent config) or `project`.
    pub scope: String,
    /// Whether `install` recorded exactly this command in this file (only
    /// recorded hooks are ever run).
    pub recorded: bool,
    /// How it runs: a shell command line, or (generated plugins, which
    /// spawn the program directly) an argv.
    #[serde(skip)]
    run: Run,
}

#[derive(Debug, Clone, PartialEq)]
enum Run {
    /// `sh -c <command>`; recorded as the command string.
    Shell,
    /// The program and its arguments, no shell; recorded as the whole
    /// generated file `text`.
    Argv { argv: Vec<String>, text: String },
}

/// The result of running one of our hooks once.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Probe {
    /// The hook.
    pub hook_id: String,
    /// The file it was found in.
    pub file: PathBuf,
    /// The event it was run for.
    pub event: String,
    /// Whether it answered in a form the agent accepts (exit 0 or 2 within
    /// its timeout; stdout empty or JSON).
    pub ok: bool,
    /// Exit code (`None`: killed or not started).
    pub exit_code: Option<i32>,
    /// Milliseconds taken.
    pub ms: u64,
    /// First line of stdout.
    pub stdout: String,
    /// First line of stderr, or why it failed.
    pub detail: String,
}

/// What doctor may run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Run our recorded hooks once each (false: `--no-run`, list only).
    pub run: bool,
    /// Also run recorded hooks of project files (and of user files owned
    /// by someone else): `--probe-project`.
    pub probe_project: bool,
}

/// Everything doctor knows about one agent.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AgentReport {
    /// Agent id.
    pub agent: String,
    /// Why we think it is on this machine.
    pub found: String,
    /// Files read (existing ones).
    pub files: Vec<PathBuf>,
    /// Our hooks.
    pub ours: Vec<Entry>,
    /// Everybody else's hooks.
    pub others: Vec<Entry>,
    /// Problems (double wiring, unreadable files, ...).
    pub warnings: Vec<String>,
    /// One run of each of our hooks.
    pub probes: Vec<Probe>,
    /// Whether each of our hooks fired, per the audit log (filled by
    /// [`super::liveness::assess`]).
    pub liveness: Vec<super::liveness::Liveness>,
}

/// Files an agent reads hooks from, for the user and the project (what
/// `install` writes, plus the Claude-format files Cursor and Copilot read),
/// that exist (a FIFO or directory in their place is listed, to be
/// reported).
pub fn files_read(
    p: Provider,
    home: &Path,
    project: &Path,
    env: &BTreeMap<String, String>,
) -> Vec<PathBuf> {
    files_scoped(p, home, project, env)
        .into_iter()
        .map(|(f, _)| f)
        .collect()
}

/// [`files_read`], each with its scope: a file of the user's own agent
/// config, or of the project (a path that is both is the user's).
pub fn files_scoped(
    p: Provider,
    home: &Path,
    project: &Path,
    env: &BTreeMap<String, String>,
) -> Vec<(PathBuf, Scope)> {
    let mut v = candidates(p, home, project, env);
    v.retain(|(f, _)| std::fs::metadata(f).is_ok());
    v
}

/// Every hook file an agent reads, existing or not (the fixed names; of
/// the directories it reads every file of, the files there now).
pub fn candidates(
    p: Provider,
    home: &Path,
    project: &Path,
    env: &BTreeMap<String, String>,
) -> Vec<(PathBuf, Scope)> {
    let t = |scope| Target {
        agent: p,
        scope,
        home: home.to_path_buf(),
        project: project.to_path_buf(),
        env: env.clone(),
        cursor_events: None,
        force: false,
    };
    let claude_project = [
        project.join(".claude/settings.json"),
        project.join(".claude/settings.local.json"),
    ];
    let (user, proj): (Vec<PathBuf>, Vec<PathBuf>) = match p {
        Provider::ClaudeCode => (
            vec![home.join(".claude/settings.json")],
            claude_project.to_vec(),
        ),
        Provider::Codex => {
            let (u, _) = super::codex::paths(&t(Scope::User));
            let (pr, _) = super::codex::paths(&t(Scope::Project));
            (vec![u], vec![pr])
        }
        Provider::Cursor => (
            vec![
                home.join(".cursor/hooks.json"),
                home.join(".claude/settings.json"),
            ],
            [project.join(".cursor/hooks.json")]
                .into_iter()
                .chain(claude_project.iter().cloned())
                .collect(),
        ),
        Provider::Gemini => (
            vec![home.join(".gemini/settings.json")],
            vec![project.join(".gemini/settings.json")],
        ),
        Provider::KimiCode => (
            vec![
                t(Scope::User)
                    .env_dir("KIMI_CODE_HOME", ".kimi-code")
                    .join("config.toml"),
            ],
            vec![],
        ),
        Provider::Copilot => {
            let home_dir = t(Scope::User).env_dir("COPILOT_HOME", ".copilot");
            let mut u = list_dir(&home_dir.join("hooks"));
            u.push(home_dir.join("settings.json"));
            let mut pr = list_dir(&project.join(".github/hooks"));
            pr.push(project.join(".github/copilot/settings.json"));
            pr.push(project.join(".github/copilot/settings.local.json"));
            pr.extend(claude_project.iter().cloned());
            (u, pr)
        }
        Provider::Opencode => (
            list_dir(
                &t(Scope::User)
                    .env_dir("XDG_CONFIG_HOME", ".config")
                    .join("opencode/plugins"),
            ),
            list_dir(&project.join(".opencode/plugins")),
        ),
        Provider::Openclaw => (
            list_dir(
                &t(Scope::User)
                    .env_dir("OPENCLAW_STATE_DIR", ".openclaw")
                    .join("extensions"),
            )
            .into_iter()
            .map(|d| d.join("index.js"))
            .collect(),
            vec![],
        ),
    };
    let mut v: Vec<(PathBuf, Scope)> = Vec::new();
    for (f, s) in user
        .into_iter()
        .map(|f| (f, Scope::User))
        .chain(proj.into_iter().map(|f| (f, Scope::Project)))
    {
        if !v.iter().any(|(g, _)| *g == f) {
            v.push((f, s));
        }
    }
    v
}

fn list_dir(d: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(d)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| !p.to_string_lossy().ends_with(fsio::BACKUP_SUFFIX));
    v.sort();
    v
}

/// Why an agent counts as present, or `None`.
pub fn found(p: Provider, home: &Path, env: &BTreeMap<String, String>) -> Option<String> {
    let t = Target::new(p, Scope::User, home, home);
    let t = Target {
        env: env.clone(),
        ..t
    };
    let (dir, bins): (PathBuf, &[&str]) = match p {
        Provider::ClaudeCode => (home.join(".claude"), &["claude"]),
        Provider::Codex => (t.env_dir("CODEX_HOME", ".codex"), &["codex"]),
        Provider::Cursor => (home.join(".cursor"), &["cursor-agent", "cursor"]),
        Provider::Gemini => (home.join(".gemini"), &["gemini"]),
        Provider::KimiCode => (t.env_dir("KIMI_CODE_HOME", ".kimi-code"), &["kimi"]),
        Provider::Copilot => (t.env_dir("COPILOT_HOME", ".copilot"), &["copilot"]),
        Provider::Opencode => (
            t.env_dir("XDG_CONFIG_HOME", ".config").join("opencode"),
            &["opencode"],
        ),
        Provider::Openclaw => (t.env_dir("OPENCLAW_STATE_DIR", ".openclaw"), &["openclaw"]),
    };
    if dir.is_dir() {
        return Some(format!("{} exists", dir.display()));
    }
    let path = std::env::var_os("PATH")?;
    for b in bins {
        for d in std::env::split_paths(&path) {
            if d.join(b).is_file() {
                return Some(format!("{} on PATH", d.join(b).display()));
            }
        }
    }
    None
}

/// Reads the hook entries of one file (never blocking on a FIFO, at most
/// [`fsio::MAX_FILE_BYTES`]).
pub fn entries(file: &Path) -> Result<Vec<Entry>, String> {
    let text = fsio::read_opt(file)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| "no such file".to_string())?;
    entries_in(file, &text)
}

/// The hook entries of a file's text.
pub fn entries_in(file: &Path, text: &str) -> Result<Vec<Entry>, String> {
    let name = file.to_string_lossy();
    let mut out = Vec::new();
    let mut push = |event: &str, command: &str, run: Run| {
        let (hook_id, provider) = ours(command);
        out.push(Entry {
            file: file.to_path_buf(),
            event: event.to_string(),
            command: command.to_string(),
            hook_id,
            provider,
            scope: String::new(),
            recorded: false,
            run,
        });
    };
    if name.ends_with(".toml") {
        let doc: toml_edit::DocumentMut = text
            .parse()
            .map_err(|e: toml_edit::TomlError| e.to_string())?;
        if let Some(a) = doc
            .get("hooks")
            .and_then(toml_edit::Item::as_array_of_tables)
        {
            for t in a.iter() {
                let ev = t.get("event").and_then(|v| v.as_str()).unwrap_or("");
                if let Some(c) = t.get("command").and_then(|v| v.as_str()) {
                    push(ev, c, Run::Shell);
                }
            }
        }
    } else if name.ends_with(".js") {
        // Our generated plugins: the program, its arguments and the hook
        // list are JSON on the `const PROGRAM/ARGS/HOOKS = ` lines. They
        // spawn the program directly (no shell), and so does a probe.
        let line = |prefix: &str| -> Value {
            text.lines()
                .find_map(|l| l.strip_prefix(prefix))
                .and_then(|l| serde_json::from_str(l.trim_end().trim_end_matches(';')).ok())
                .unwrap_or(Value::Null)
        };
        let program = line("const PROGRAM = ");
        let args = line("const ARGS = ");
        let list = line("const HOOKS = ");
        let program = program.as_str().unwrap_or("");
        let args: Vec<String> = args
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| a.as_str().unwrap_or("").to_string())
            .collect();
        for h in list.as_array().into_iter().flatten() {
            let s = |k: &str| h[k].as_str().unwrap_or("").to_string();
            let mut argv = vec![program.to_string()];
            argv.extend(args.iter().cloned());
            argv.extend([
                "agenthooks".to_string(),
                "run".to_string(),
                "--provider=claude-code".to_string(),
                format!("--event={}", s("event")),
                format!("--timeout={}", h["timeout"].as_u64().unwrap_or(30)),
                format!("--hook-id={}", s("hookId")),
            ]);
            if s("fail") == "closed" {
                argv.push("--fail=closed".into());
            }
            if let Some(m) = h["match"].as_str() {
                argv.push(format!("--match={m}"));
            }
            let cmd = argv
                .iter()
                .map(|a| super::shell_quote(a))
                .collect::<Vec<_>>()
                .join(" ");
            push(
                &s("on"),
                &cmd,
                Run::Argv {
                    argv,
                    text: text.to_string(),
                },
            );
        }
    } else {
        let root = jsonc::parse(text).map_err(|e| e.to_string())?;
        if let Some(hooks) = root.value.get("hooks").and_then(Value::as_object) {
            for (ev, arr) in hooks {
                for item in arr.as_array().into_iter().flatten() {
                    let handlers: Vec<&Value> = match item.get("hooks").and_then(Value::as_array) {
                        Some(hs) => hs.iter().collect(),
                        None => vec![item],
                    };
                    for h in handlers {
                        if let Some(c) = h
                            .get("command")
                            .or_else(|| h.get("bash"))
                            .and_then(Value::as_str)
                        {
                            push(ev, c, Run::Shell);
                        }
                    }
                }
            }
        }
    }
    Ok(out)
}

/// `(hook id, provider)` of one of our commands.
pub fn ours(command: &str) -> (Option<String>, Option<String>) {
    if !command.contains("agenthooks") {
        return (None, None);
    }
    let word = |prefix: &str| {
        command
            .split_whitespace()
            .map(|w| w.trim_matches('\''))
            .find_map(|w| w.strip_prefix(prefix).map(str::to_string))
    };
    match word("--hook-id=") {
        Some(id) => (Some(id), word("--provider=")),
        None => (None, None),
    }
}

/// A harmless sample payload for an agent's native event.
pub fn sample_payload(p: Provider, event: &str, cwd: &Path) -> Value {
    let kind = crate::dialect::kind_of(p, event);
    let cwd = cwd.to_string_lossy().to_string();
    let cmd = "echo agenthooks-doctor";
    let tool = kind.has_tool();
    match p {
        Provider::Cursor => {
            let mut v = json!({"conversation_id": "agenthooks-doctor", "generation_id": "g1",
                "hook_event_name": event, "workspace_roots": [cwd], "cwd": cwd});
            if tool || event == "beforeShellExecution" {
                v["tool_name"] = json!("Shell");
                v["tool_input"] = json!({"command": cmd});
                v["command"] = json!(cmd);
            }
            if kind == Kind::PromptSubmitted {
                v["prompt"] = json!("agenthooks doctor");
            }
            v
        }
        Provider::Gemini => {
            let mut v = json!({"session_id": "agenthooks-doctor", "hook_event_name": event,
                "cwd": cwd, "timestamp": "2026-01-01T00:00:00.000Z", "transcript_path": ""});
            if tool {
                v["tool_name"] = json!("run_shell_command");
                v["tool_input"] = json!({"command": cmd});
            }
            if kind == Kind::PromptSubmitted {
                v["prompt"] = json!("agenthooks doctor");
            }
            v
        }
        Provider::Copilot => {
            let mut v = json!({"sessionId": "agenthooks-doctor", "timestamp": 0, "cwd": cwd});
            if tool {
                v["toolName"] = json!("bash");
                v["toolArgs"] = json!(json!({"command": cmd}).to_string());
            }
            if kind == Kind::PromptSubmitted {
                v["prompt"] = json!("agenthooks doctor");
            }
            v
        }
        _ => {
            let mut v = json!({"session_id": "agenthooks-doctor", "hook_event_name": event,
                "cwd": cwd, "transcript_path": "", "permission_mode": "default"});
            if tool {
                v["tool_name"] = json!("Bash");
                v["tool_input"] = json!({"command": cmd});
                v["tool_use_id"] = json!("agenthooks-doctor-1");
            }
            match kind {
                Kind::PromptSubmitted => v["prompt"] = json!("agenthooks doctor"),
                Kind::SessionStart => v["source"] = json!("startup"),
                Kind::AgentStop | Kind::SubagentStop => v["stop_hook_active"] = json!(false),
                _ => {}
            }
            v
        }
    }
}

/// How many bytes of a probe's stdout and stderr are kept.
const PROBE_OUTPUT_BYTES: u64 = 64 << 10;

/// Runs one command once with a payload on stdin (through `sh -c`, as the
/// agents do), bounded by `timeout`.
pub fn probe(
    command: &str,
    payload: &Value,
    timeout: Duration,
    cwd: &Path,
) -> (Option<i32>, u64, String, String) {
    probe_cmd(
        vec!["sh".into(), "-c".into(), command.into()],
        payload,
        timeout,
        cwd,
    )
}

/// Runs a prepared command through the core's child runner: its own process
/// group (killed whole on a timeout), stdin fed and stdout/stderr read
/// without blocking (a hook that reads nothing, or floods its output, cannot
/// stall doctor), at most [`PROBE_OUTPUT_BYTES`] of each kept, and a short
/// grace for the output after the exit (a background process left holding
/// the pipes does not hang doctor either; its group is killed).
fn probe_cmd(
    argv: Vec<String>,
    payload: &Value,
    timeout: Duration,
    cwd: &Path,
) -> (Option<i32>, u64, String, String) {
    let mut req = RunRequest::new(argv);
    req.stdin = payload.to_string().into_bytes();
    req.cwd = Some(cwd.to_path_buf());
    req.timeout = timeout;
    req.cap = PROBE_OUTPUT_BYTES as usize;
    req.exit_grace = Some(runner::ExitGrace::ANSWER);
    // A probe is not the agent firing the hook: keep it out of the log.
    req.env
        .push((crate::audit::LOG_ENV.to_string(), "0".to_string()));
    let run = runner::run(&req);
    match (run.spawn_error, run.timed_out) {
        (Some(e), _) => (None, run.duration_ms, String::new(), e),
        (None, true) => (
            None,
            run.duration_ms,
            String::new(),
            format!("no answer within {} s", timeout.as_secs()),
        ),
        (None, false) => (run.exit_code, run.duration_ms, run.stdout, run.stderr),
    }
}

/// The whole report. `run` = also run each of our recorded user hooks
/// once (see [`report_with`]).
pub fn report(
    home: &Path,
    project: &Path,
    env: &BTreeMap<String, String>,
    run: bool,
) -> Vec<AgentReport> {
    let opts = Options {
        run,
        probe_project: false,
    };
    report_with(home, project, env, opts, &mut |_| {})
}

fn owned_by_me(f: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(f).is_ok_and(|m| m.uid() == rustix::process::geteuid().as_raw())
    }
    #[cfg(not(unix))]
    {
        let _ = f;
        true
    }
}

/// The whole report, running what `opts` allows; `announce` is called with
/// each hook just before it runs.
pub fn report_with(
    home: &Path,
    project: &Path,
    env: &BTreeMap<String, String>,
    opts: Options,
    announce: &mut dyn FnMut(&Entry),
) -> Vec<AgentReport> {
    let mut out = Vec::new();
    // (file, command) -> its probe: each runs once for all agents.
    let mut ran: BTreeMap<(PathBuf, String), Probe> = BTreeMap::new();
    for p in Provider::ALL {
        let files = files_scoped(p, home, project, env);
        let Some(why) = found(p, home, env)
            .or_else(|| (!files.is_empty()).then(|| "hook files present".to_string()))
        else {
            continue;
        };
        let mut r = AgentReport {
            agent: p.id().into(),
            found: why,
            files: files.iter().map(|(f, _)| f.clone()).collect(),
            ours: vec![],
            others: vec![],
            warnings: vec![],
            probes: vec![],
            liveness: vec![],
        };
        for (f, scope) in &files {
            match entries(f) {
                Ok(es) => {
                    for mut e in es {
                        e.scope = scope.as_str().to_string();
                        if e.hook_id.is_some() {
                            e.recorded = match &e.run {
                                Run::Shell => e
                                    .provider
                                    .as_deref()
                                    .and_then(|s| Provider::parse(s).ok())
                                    .is_some_and(|a| records::is_recorded(a, f, &e.command)),
                                Run::Argv { text, .. } => records::is_recorded(p, f, text),
                            };
                            r.ours.push(e)
                        } else {
                            r.others.push(e)
                        }
                    }
                }
                Err(e) => r
                    .warnings
                    .push(format!("{}: cannot read hooks: {e}", f.display())),
            }
        }
        // The same hook reaching this agent more than once.
        let mut by_id: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
        for e in &r.ours {
            by_id
                .entry(e.hook_id.as_deref().unwrap_or(""))
                .or_default()
                .push(e);
        }
        for (id, es) in &by_id {
            if es.len() > 1 {
                let where_: Vec<String> = es
                    .iter()
                    .map(|e| format!("{} ({})", e.file.display(), e.event))
                    .collect();
                r.warnings.push(format!(
                    "hook `{id}` is wired {} times for {}: {} — it will fire more than once",
                    es.len(),
                    p.display_name(),
                    where_.join(", ")
                ));
            }
        }
        for e in &r.ours {
            let id = e.hook_id.as_deref().unwrap_or("");
            if !e.recorded {
                r.warnings.push(format!(
                    "hook `{id}` in {} is not recorded by `agenthooks install` on this machine (or its command was changed since): shown, not run — reinstall it to record it",
                    e.file.display()
                ));
                continue;
            }
            let user_owned = e.scope == Scope::User.as_str() && owned_by_me(&e.file);
            if !user_owned && !opts.probe_project {
                if opts.run {
                    r.warnings.push(format!(
                        "hook `{id}` in {} is a project hook: not run (pass --probe-project to run it)",
                        e.file.display()
                    ));
                }
                continue;
            }
            if !opts.run {
                continue;
            }
            let key = (e.file.clone(), e.command.clone());
            if let Some(done) = ran.get(&key) {
                r.probes.push(done.clone());
                continue;
            }
            announce(e);
            let probe = run_one(p, e, project);
            ran.insert(key, probe.clone());
            r.probes.push(probe);
        }
        out.push(r);
    }
    out
}

/// Runs one recorded hook once with its agent's sample payload.
fn run_one(p: Provider, e: &Entry, project: &Path) -> Probe {
    let payload_agent = e
        .provider
        .as_deref()
        .and_then(|s| Provider::parse(s).ok())
        .unwrap_or(p);
    let event = if payload_agent == p || payload_agent != Provider::ClaudeCode {
        e.event.clone()
    } else {
        claude_event_for(&e.event)
    };
    let payload = sample_payload(payload_agent, &event, project);
    let timeout = e
        .command
        .split_whitespace()
        .find_map(|w| w.trim_matches('\'').strip_prefix("--timeout="))
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(30)
        .clamp(1, 600);
    let timeout = Duration::from_secs(timeout);
    let (code, ms, stdout, stderr) = match &e.run {
        Run::Shell => probe(&e.command, &payload, timeout, project),
        Run::Argv { argv, .. } => probe_cmd(argv.clone(), &payload, timeout, project),
    };
    let json_ok = stdout.trim().is_empty() || serde_json::from_str::<Value>(stdout.trim()).is_ok();
    let broken = native_unavailable(&stderr);
    let ok = matches!(code, Some(0) | Some(2)) && json_ok && broken.is_none();
    Probe {
        hook_id: e.hook_id.clone().unwrap_or_default(),
        file: e.file.clone(),
        event,
        ok,
        exit_code: code,
        ms,
        stdout: stdout.lines().next().unwrap_or("").to_string(),
        detail: if let Some(why) = broken {
            why
        } else if !json_ok {
            "stdout is not JSON".into()
        } else {
            stderr.lines().next().unwrap_or("").to_string()
        },
    }
}

/// A hook whose native part (Python extension, Node addon) cannot load
/// still answers, from its failsafe table, but it is broken: its stderr
/// carries the failsafe's marker (`crate::failsafe::MARKER`).
fn native_unavailable(stderr: &str) -> Option<String> {
    crate::failsafe::native_unavailable_cause(stderr)
        .map(|cause| format!("native part cannot load: {cause}"))
}

fn claude_event_for(native: &str) -> String {
    match native {
        "tool.execute.before" | "before_tool_call" => "PreToolUse".into(),
        "tool.execute.after" | "after_tool_call" => "PostToolUse".into(),
        other => other.into(),
    }
}

/// Fills each report's `liveness` from the audit log's lines: per hook of
/// ours, fired / never fired / stopped firing and the likely cause
/// ([`super::liveness`]).
pub fn assess_liveness(
    reports: &mut [AgentReport],
    lines: &[crate::audit::Entry],
    env: &BTreeMap<String, String>,
    now: std::time::SystemTime,
) {
    for r in reports.iter_mut() {
        let Ok(agent) = Provider::parse(&r.agent) else {
            continue;
        };
        let mut out = Vec::new();
        for e in &r.ours {
            let id = e.hook_id.as_deref().unwrap_or("");
            let probe_failed = r
                .probes
                .iter()
                .find(|p| p.hook_id == id && p.file == e.file && !p.ok)
                .map(|p| p.detail.as_str());
            let hook = super::liveness::Hook {
                agent,
                hook_id: id,
                provider: e.provider.as_deref(),
                event: &e.event,
                file: &e.file,
                command: &e.command,
                probe_failed,
            };
            out.push(super::liveness::assess(&hook, lines, env, now));
        }
        r.liveness = out;
    }
}

/// Human-readable text of a report.
pub fn text(reports: &[AgentReport]) -> String {
    let mut s = String::new();
    if reports.is_empty() {
        s.push_str("no agent found (no config directory, no binary on PATH)\n");
    }
    for r in reports {
        s.push_str(&format!("{} ({})\n", r.agent, r.found));
        if r.files.is_empty() {
            s.push_str("  no hook files\n");
        }
        for e in &r.ours {
            s.push_str(&format!(
                "  ours   {} {} [{}]\n",
                e.event,
                e.hook_id.as_deref().unwrap_or(""),
                e.file.display()
            ));
            if !e.recorded {
                s.push_str(&format!("         not recorded, not run: {}\n", e.command));
            }
        }
        for e in &r.others {
            s.push_str(&format!(
                "  other  {} {} [{}]\n",
                e.event,
                e.command,
                e.file.display()
            ));
        }
        for w in &r.warnings {
            s.push_str(&format!("  WARNING {w}\n"));
        }
        s.push_str(&super::liveness::text(
            &r.liveness,
            std::time::SystemTime::now(),
        ));
        for p in &r.probes {
            s.push_str(&format!(
                "  {} {} {} [{}]: exit {} in {} ms{}{}\n",
                if p.ok { "answers" } else { "FAILED " },
                p.hook_id,
                p.event,
                p.file.display(),
                p.exit_code.map_or("-".into(), |c| c.to_string()),
                p.ms,
                if p.stdout.is_empty() {
                    String::new()
                } else {
                    format!(", stdout {}", p.stdout)
                },
                if p.detail.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", p.detail)
                },
            ));
        }
    }
    s
}
