//! `agenthooks doctor`: what is installed where, wired twice, and does it
//! answer.
//!
//! For every agent found on the machine (its config directory exists, or
//! its binary is on `PATH`) it reads each hook file the agent loads, lists
//! the hooks (ours: commands with `agenthooks run … --hook-id=`; others:
//! everything else), flags one of our hooks reaching an agent twice (files
//! several agents read, e.g. `.claude/settings.json` is read by Claude
//! Code, Cursor and Copilot CLI), and runs each of our hooks once with a
//! harmless sample payload of that agent's dialect (a shell tool call of
//! `echo agenthooks-doctor`, or the bare event) to prove it answers.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};

use super::{Scope, Target, fsio, jsonc};
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
}

/// The result of running one of our hooks once.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Probe {
    /// The hook.
    pub hook_id: String,
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
}

/// Files an agent reads hooks from, for the user and the project (what
/// `install` writes, plus the Claude-format files Cursor and Copilot read).
pub fn files_read(
    p: Provider,
    home: &Path,
    project: &Path,
    env: &BTreeMap<String, String>,
) -> Vec<PathBuf> {
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
    let mut v: Vec<PathBuf> = match p {
        Provider::ClaudeCode => {
            let mut v = vec![home.join(".claude/settings.json")];
            v.extend(claude_project.iter().cloned());
            v
        }
        Provider::Codex => {
            let (u, _) = super::codex::paths(&t(Scope::User));
            let (pr, _) = super::codex::paths(&t(Scope::Project));
            vec![u, pr]
        }
        Provider::Cursor => {
            let mut v = vec![
                home.join(".cursor/hooks.json"),
                project.join(".cursor/hooks.json"),
            ];
            v.push(home.join(".claude/settings.json"));
            v.extend(claude_project.iter().cloned());
            v
        }
        Provider::Gemini => vec![
            home.join(".gemini/settings.json"),
            project.join(".gemini/settings.json"),
        ],
        Provider::KimiCode => vec![
            t(Scope::User)
                .env_dir("KIMI_CODE_HOME", ".kimi-code")
                .join("config.toml"),
        ],
        Provider::Copilot => {
            let mut v = list_dir(
                &t(Scope::User)
                    .env_dir("COPILOT_HOME", ".copilot")
                    .join("hooks"),
            );
            v.extend(list_dir(&project.join(".github/hooks")));
            v.push(
                t(Scope::User)
                    .env_dir("COPILOT_HOME", ".copilot")
                    .join("settings.json"),
            );
            v.push(project.join(".github/copilot/settings.json"));
            v.push(project.join(".github/copilot/settings.local.json"));
            v.extend(claude_project.iter().cloned());
            v
        }
        Provider::Opencode => {
            let mut v = list_dir(
                &t(Scope::User)
                    .env_dir("XDG_CONFIG_HOME", ".config")
                    .join("opencode/plugins"),
            );
            v.extend(list_dir(&project.join(".opencode/plugins")));
            v
        }
        Provider::Openclaw => list_dir(
            &t(Scope::User)
                .env_dir("OPENCLAW_STATE_DIR", ".openclaw")
                .join("extensions"),
        )
        .into_iter()
        .map(|d| d.join("index.js"))
        .collect(),
    };
    v.retain(|f| f.is_file());
    v.dedup();
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

/// Reads the hook entries of one file.
pub fn entries(file: &Path) -> Result<Vec<Entry>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let name = file.to_string_lossy();
    let mut out = Vec::new();
    let mut push = |event: &str, command: &str| {
        let (hook_id, provider) = ours(command);
        out.push(Entry {
            file: file.to_path_buf(),
            event: event.to_string(),
            command: command.to_string(),
            hook_id,
            provider,
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
                    push(ev, c);
                }
            }
        }
    } else if name.ends_with(".js") {
        // Our generated plugins: the hook list is on the `const HOOKS` line.
        if let Some(line) = text.lines().find(|l| l.starts_with("const HOOKS = ")) {
            let list: Value = serde_json::from_str(
                line.trim_start_matches("const HOOKS = ")
                    .trim_end_matches(';'),
            )
            .unwrap_or(Value::Null);
            let program = text
                .lines()
                .find(|l| l.starts_with("const PROGRAM = "))
                .map(|l| {
                    l.trim_start_matches("const PROGRAM = ")
                        .trim_end_matches(';')
                        .to_string()
                })
                .unwrap_or_default();
            for h in list.as_array().into_iter().flatten() {
                let id = h["hookId"].as_str().unwrap_or("");
                let cmd = format!(
                    "{program} agenthooks run --provider=claude-code --event={} --hook-id={id}",
                    h["event"].as_str().unwrap_or("")
                );
                push(h["on"].as_str().unwrap_or(""), &cmd);
            }
        }
    } else {
        let root = jsonc::parse(&text).map_err(|e| e.to_string())?;
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
                            push(ev, c);
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

/// Runs one command once with a payload on stdin (through `sh -c`, as the
/// agents do), bounded by `timeout`.
pub fn probe(
    command: &str,
    payload: &Value,
    timeout: Duration,
    cwd: &Path,
) -> (Option<i32>, u64, String, String) {
    let start = Instant::now();
    let child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return (None, 0, String::new(), format!("cannot start: {e}")),
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(payload.to_string().as_bytes());
    }
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return (
                    None,
                    start.elapsed().as_millis() as u64,
                    String::new(),
                    format!("no answer within {} s", timeout.as_secs()),
                );
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return (None, 0, String::new(), e.to_string()),
        }
    }
    let out = child.wait_with_output();
    let ms = start.elapsed().as_millis() as u64;
    match out {
        Ok(o) => (
            o.status.code(),
            ms,
            String::from_utf8_lossy(&o.stdout).to_string(),
            String::from_utf8_lossy(&o.stderr).to_string(),
        ),
        Err(e) => (None, ms, String::new(), e.to_string()),
    }
}

/// The whole report. `run` = also run each of our hooks once.
pub fn report(
    home: &Path,
    project: &Path,
    env: &BTreeMap<String, String>,
    run: bool,
) -> Vec<AgentReport> {
    let mut out = Vec::new();
    for p in Provider::ALL {
        let files = files_read(p, home, project, env);
        let Some(why) = found(p, home, env)
            .or_else(|| (!files.is_empty()).then(|| "hook files present".to_string()))
        else {
            continue;
        };
        let mut r = AgentReport {
            agent: p.id().into(),
            found: why,
            files: files.clone(),
            ours: vec![],
            others: vec![],
            warnings: vec![],
            probes: vec![],
        };
        for f in &files {
            match entries(f) {
                Ok(es) => {
                    for e in es {
                        if e.hook_id.is_some() {
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
        if run {
            for e in &r.ours {
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
                    .find_map(|w| w.strip_prefix("--timeout="))
                    .and_then(|s| s.parse::<u64>().ok())
                    .unwrap_or(30);
                let (code, ms, stdout, stderr) =
                    probe(&e.command, &payload, Duration::from_secs(timeout), project);
                let json_ok = stdout.trim().is_empty()
                    || serde_json::from_str::<Value>(stdout.trim()).is_ok();
                let ok = matches!(code, Some(0) | Some(2)) && json_ok;
                r.probes.push(Probe {
                    hook_id: e.hook_id.clone().unwrap_or_default(),
                    event,
                    ok,
                    exit_code: code,
                    ms,
                    stdout: stdout.lines().next().unwrap_or("").to_string(),
                    detail: if !json_ok {
                        "stdout is not JSON".into()
                    } else {
                        stderr.lines().next().unwrap_or("").to_string()
                    },
                });
            }
        }
        out.push(r);
    }
    out
}

fn claude_event_for(native: &str) -> String {
    match native {
        "tool.execute.before" | "before_tool_call" => "PreToolUse".into(),
        "tool.execute.after" | "after_tool_call" => "PostToolUse".into(),
        other => other.into(),
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
        for p in &r.probes {
            s.push_str(&format!(
                "  {} {} {}: exit {} in {} ms{}{}\n",
                if p.ok { "answers" } else { "FAILED " },
                p.hook_id,
                p.event,
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
