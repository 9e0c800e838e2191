//! MCP transport resolution: what an MCP server named by a tool call is
//! (a stdio command or a URL), read from the agent's own MCP configuration.
//!
//! A hook payload names only the server (`mcp__tickets__create`); authors
//! want to know what runs behind it. [`resolve`] looks the server up in the
//! configuration the agent itself reads, in the agent's precedence order,
//! and reports the transport with the file it came from and that file's
//! scope. It never reports environment values or headers (secrets).
//!
//! Resolution is lazy (a handler asks for it; decoding never reads these
//! files), bounded (every file is read up to [`MAX_CONFIG`] bytes, a FIFO
//! or device is refused) and read-only: project-scope files are data,
//! never executed, and they can lie — [`McpTransport::scope`] tells a
//! user's own configuration (`user`, `local`, `flag`) from one a cloned
//! repository brought (`project`) or a plugin (`plugin`).
//!
//! [`resolve_for_event`] adds the real environment, the agent's argv (from
//! [`crate::ancestry`], for Claude's `--mcp-config` / `--strict-mcp-config`
//! and Copilot's `--additional-mcp-config`) and a per-session cache in the
//! state root ([`crate::state`]): one private file per session, valid while
//! every candidate configuration file keeps its size and mtime.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::error::Error;
use crate::model::{Event, Provider};

/// Largest configuration file read (`~/.claude.json` holds per-project
/// history and grows).
pub const MAX_CONFIG: usize = 16 * 1024 * 1024;
/// Largest cache file read back.
const MAX_CACHE: usize = 1024 * 1024;

/// Where a server definition came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// The user's own configuration (home directory).
    User,
    /// The user's per-project entry in their own configuration (Claude's
    /// `projects[cwd].mcpServers` in `~/.claude.json`).
    Local,
    /// A file in the project tree (`.mcp.json`, `.cursor/mcp.json`, ...):
    /// whoever wrote the repository wrote it.
    Project,
    /// A plugin or extension the user installed.
    Plugin,
    /// The agent's command line (`--mcp-config`, `--additional-mcp-config`).
    Flag,
    /// Not from configuration: the hook payload itself named it (Cursor).
    Payload,
}

/// A resolved MCP server transport.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpTransport {
    /// The server name looked up.
    pub server: String,
    /// `stdio`, `http`, `sse` (or the agent's own word for another kind).
    pub transport: String,
    /// The stdio command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The stdio arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// The server URL (http, sse).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// True when read from the agent's configuration.
    #[serde(default)]
    pub from_config: bool,
    /// The file it came from (`--mcp-config` for inline JSON on the
    /// command line); empty for [`Scope::Payload`].
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub config_path: String,
    /// Which scope that file is.
    pub scope: Scope,
}

/// Everything a lookup depends on; [`Lookup::from_event`] fills it from
/// the running process, tests and fixtures fill it by hand.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lookup {
    /// The agent (id or alias in JSON).
    #[serde(deserialize_with = "de_provider")]
    pub provider: ProviderField,
    /// The server name as the tool call names it.
    pub server: String,
    /// The session's working directory (project files are looked up from
    /// here upwards).
    #[serde(default)]
    pub cwd: String,
    /// The home directory (`HOME`).
    #[serde(default)]
    pub home: String,
    /// Environment variables that move configuration (`CODEX_HOME`,
    /// `CLAUDE_CONFIG_DIR`, `KIMI_CODE_HOME`, `COPILOT_HOME`,
    /// `XDG_CONFIG_HOME`, `OPENCODE_CONFIG`, `OPENCLAW_CONFIG_PATH`,
    /// `OPENCLAW_STATE_DIR`); others are ignored.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// The agent process's argv, when known.
    #[serde(default)]
    pub agent_argv: Vec<String>,
    /// A URL the payload itself carried (Cursor `beforeMCPExecution`).
    #[serde(default)]
    pub payload_url: Option<String>,
    /// A command the payload itself carried (Cursor).
    #[serde(default)]
    pub payload_command: Option<String>,
}

/// A provider inside [`Lookup`] (a newtype so `Default` exists).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProviderField(pub Provider);

impl Default for ProviderField {
    fn default() -> Self {
        ProviderField(Provider::ClaudeCode)
    }
}

fn de_provider<'de, D: serde::Deserializer<'de>>(d: D) -> Result<ProviderField, D::Error> {
    let s = String::deserialize(d)?;
    Provider::parse(&s)
        .map(ProviderField)
        .map_err(serde::de::Error::custom)
}

/// Environment variables a lookup reads.
pub const ENV_VARS: &[&str] = &[
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "KIMI_CODE_HOME",
    "COPILOT_HOME",
    "XDG_CONFIG_HOME",
    "OPENCODE_CONFIG",
    "OPENCLAW_CONFIG_PATH",
    "OPENCLAW_STATE_DIR",
];

impl Lookup {
    /// A lookup for an event's MCP tool call from the running process:
    /// `HOME` and [`ENV_VARS`] from the environment, the agent's argv from
    /// the ancestor chain. `None` when the event has no MCP server.
    pub fn from_event(event: &Event) -> Option<Lookup> {
        let tool = event.tool.as_ref()?;
        let mcp = tool.mcp.as_ref()?;
        if mcp.server.is_empty() && mcp.url.is_none() && mcp.command.is_none() {
            return None;
        }
        let mut env = BTreeMap::new();
        for k in ENV_VARS {
            if let Ok(v) = std::env::var(k) {
                env.insert((*k).to_string(), v);
            }
        }
        let cwd = if event.session.cwd.is_empty() {
            std::env::current_dir()
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default()
        } else {
            event.session.cwd.clone()
        };
        let agent_argv = if matches!(event.provider, Provider::ClaudeCode | Provider::Copilot) {
            let chain = crate::ancestry::ancestors();
            crate::ancestry::find_agent(&chain, event.provider)
                .map(|p| p.argv.clone())
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        Some(Lookup {
            provider: ProviderField(event.provider),
            server: mcp.server.clone(),
            cwd,
            home: std::env::var("HOME").unwrap_or_default(),
            env,
            agent_argv,
            payload_url: mcp.url.clone(),
            payload_command: mcp.command.clone(),
        })
    }

    fn env(&self, k: &str) -> Option<PathBuf> {
        self.env
            .get(k)
            .filter(|v| !v.is_empty() && Path::new(v).is_absolute())
            .map(PathBuf::from)
    }

    fn home(&self) -> Option<PathBuf> {
        (!self.home.is_empty() && Path::new(&self.home).is_absolute())
            .then(|| PathBuf::from(&self.home))
    }

    /// The project directories, nearest first: the working directory and
    /// its ancestors up to the repository root (the first one holding
    /// `.git`); only the working directory when it is in no repository (a
    /// stray `/tmp/.mcp.json` never applies to `/tmp/x`).
    fn project_dirs(&self) -> Vec<PathBuf> {
        if self.cwd.is_empty() || !Path::new(&self.cwd).is_absolute() {
            return Vec::new();
        }
        let cwd = Path::new(&self.cwd);
        let mut out = Vec::new();
        for d in cwd.ancestors().take(64) {
            out.push(d.to_path_buf());
            if d.join(".git").exists() {
                return out;
            }
        }
        vec![cwd.to_path_buf()]
    }
}

/// One place a server definition may come from, in precedence order.
#[derive(Debug, Clone)]
enum Source {
    /// A JSON(C) or TOML file; `pointer` is the path of keys to the
    /// name → definition map.
    File {
        path: PathBuf,
        pointer: Vec<String>,
        scope: Scope,
        toml: bool,
        /// Claude plugin: the server name has this prefix and
        /// `${CLAUDE_PLUGIN_ROOT}` expands to `root`.
        plugin: Option<(String, PathBuf)>,
    },
    /// Inline JSON from the command line.
    Inline { text: String, pointer: Vec<String> },
}

fn ptr(keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| (*k).to_string()).collect()
}

fn file(path: PathBuf, keys: &[&str], scope: Scope) -> Source {
    Source::File {
        path,
        pointer: ptr(keys),
        scope,
        toml: false,
        plugin: None,
    }
}

/// The values of a flag in argv: `--f=v`, `--f v`, and for `multi`
/// flags (Claude's `--mcp-config a.json b.json`) every following argument
/// up to the next option.
fn flag_values(argv: &[String], flag: &str, multi: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < argv.len() {
        let a = &argv[i];
        i += 1;
        if let Some(v) = a.strip_prefix(flag).and_then(|r| r.strip_prefix('=')) {
            out.push(v.to_string());
        } else if a == flag {
            while i < argv.len() && !argv[i].starts_with('-') {
                out.push(argv[i].clone());
                i += 1;
                if !multi {
                    break;
                }
            }
        }
    }
    out
}

fn flag_sources(l: &Lookup, flag: &str, multi: bool) -> Vec<Source> {
    let mut out = Vec::new();
    for v in flag_values(&l.agent_argv, flag, multi) {
        let v = v.trim();
        if v.starts_with('{') {
            out.push(Source::Inline {
                text: v.to_string(),
                pointer: ptr(&["mcpServers"]),
            });
        } else if !v.is_empty() {
            let v = v.strip_prefix('@').unwrap_or(v);
            let p = Path::new(v);
            let p = if p.is_absolute() {
                p.to_path_buf()
            } else if !l.cwd.is_empty() {
                Path::new(&l.cwd).join(p)
            } else {
                continue;
            };
            out.push(file(p, &["mcpServers"], Scope::Flag));
        }
    }
    out
}

/// The candidate sources for a lookup, in the agent's precedence order
/// (first definition of the name wins).
fn sources(l: &Lookup) -> Vec<Source> {
    let home = l.home();
    let in_home = |rel: &str| home.as_ref().map(|h| h.join(rel));
    let mut out = Vec::new();
    let dirs = l.project_dirs();
    let nearest = |rel: &str, keys: &[&str], out: &mut Vec<Source>| {
        for d in &dirs {
            out.push(file(d.join(rel), keys, Scope::Project));
        }
    };
    match l.provider.0 {
        Provider::ClaudeCode => {
            let strict = l.agent_argv.iter().any(|a| a == "--strict-mcp-config");
            out.extend(flag_sources(l, "--mcp-config", true));
            if strict {
                return out;
            }
            let claude_json = l
                .env("CLAUDE_CONFIG_DIR")
                .map(|d| d.join(".claude.json"))
                .or_else(|| in_home(".claude.json"));
            if let Some(cj) = &claude_json {
                for d in &dirs {
                    let key = d.to_string_lossy().into_owned();
                    out.push(Source::File {
                        path: cj.clone(),
                        pointer: vec!["projects".into(), key, "mcpServers".into()],
                        scope: Scope::Local,
                        toml: false,
                        plugin: None,
                    });
                }
            }
            nearest(".mcp.json", &["mcpServers"], &mut out);
            if let Some(cj) = claude_json {
                out.push(file(cj, &["mcpServers"], Scope::User));
            }
            out.extend(claude_plugins(l));
        }
        Provider::Codex => {
            for d in &dirs {
                out.push(Source::File {
                    path: d.join(".codex").join("config.toml"),
                    pointer: ptr(&["mcp_servers"]),
                    scope: Scope::Project,
                    toml: true,
                    plugin: None,
                });
            }
            if let Some(h) = l.env("CODEX_HOME").or_else(|| in_home(".codex")) {
                out.push(Source::File {
                    path: h.join("config.toml"),
                    pointer: ptr(&["mcp_servers"]),
                    scope: Scope::User,
                    toml: true,
                    plugin: None,
                });
            }
        }
        Provider::Gemini => {
            nearest(".gemini/settings.json", &["mcpServers"], &mut out);
            if let Some(p) = in_home(".gemini/settings.json") {
                out.push(file(p, &["mcpServers"], Scope::User));
            }
            if let Some(ext) = in_home(".gemini/extensions") {
                for dir in sorted_dirs(&ext) {
                    out.push(file(
                        dir.join("gemini-extension.json"),
                        &["mcpServers"],
                        Scope::Plugin,
                    ));
                }
            }
        }
        Provider::Cursor => {
            nearest(".cursor/mcp.json", &["mcpServers"], &mut out);
            if let Some(p) = in_home(".cursor/mcp.json") {
                out.push(file(p, &["mcpServers"], Scope::User));
            }
        }
        Provider::Copilot => {
            out.extend(flag_sources(l, "--additional-mcp-config", false));
            if let Some(h) = l.env("COPILOT_HOME").or_else(|| in_home(".copilot")) {
                out.push(file(
                    h.join("mcp-config.json"),
                    &["mcpServers"],
                    Scope::User,
                ));
            }
        }
        Provider::KimiCode => {
            nearest(".kimi-code/mcp.json", &["mcpServers"], &mut out);
            if let Some(h) = l.env("KIMI_CODE_HOME").or_else(|| in_home(".kimi-code")) {
                out.push(file(h.join("mcp.json"), &["mcpServers"], Scope::User));
            }
        }
        Provider::Opencode => {
            if let Some(p) = l.env("OPENCODE_CONFIG") {
                out.push(file(p, &["mcp"], Scope::User));
            }
            for d in &dirs {
                for name in ["opencode.jsonc", "opencode.json"] {
                    out.push(file(d.join(name), &["mcp"], Scope::Project));
                }
            }
            if let Some(c) = l.env("XDG_CONFIG_HOME").or_else(|| in_home(".config")) {
                for name in ["opencode.jsonc", "opencode.json"] {
                    out.push(file(c.join("opencode").join(name), &["mcp"], Scope::User));
                }
            }
        }
        Provider::Openclaw => {
            let path = l
                .env("OPENCLAW_CONFIG_PATH")
                .or_else(|| l.env("OPENCLAW_STATE_DIR").map(|d| d.join("openclaw.json")))
                .or_else(|| in_home(".openclaw/openclaw.json"));
            if let Some(p) = path {
                out.push(file(p, &["mcp", "servers"], Scope::User));
            }
        }
    }
    out
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .take(256)
        .collect();
    v.sort();
    v
}

/// Claude Code plugins: `~/.claude/plugins/installed_plugins.json` names
/// each plugin's install path; its servers are in `<root>/.mcp.json` or
/// `<root>/.claude-plugin/plugin.json` `mcpServers`, and tool calls name
/// them `plugin_<plugin>_<server>`.
fn claude_plugins(l: &Lookup) -> Vec<Source> {
    let Some(rest) = l.server.strip_prefix("plugin_") else {
        return Vec::new();
    };
    let dir = l
        .env("CLAUDE_CONFIG_DIR")
        .or_else(|| l.home().map(|h| h.join(".claude")));
    let Some(dir) = dir else {
        return Vec::new();
    };
    let index = dir.join("plugins").join("installed_plugins.json");
    let Ok(Some(v)) = read_config(&index, false) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let Some(plugins) = v.get("plugins").and_then(Value::as_object) else {
        return out;
    };
    for (key, installs) in plugins {
        let name = key.split('@').next().unwrap_or(key);
        let prefix = format!("{name}_");
        if !rest.starts_with(&prefix) {
            continue;
        }
        let list: Vec<&Value> = match installs {
            Value::Array(a) => a.iter().collect(),
            other => vec![other],
        };
        for inst in list {
            let Some(root) = inst.get("installPath").and_then(Value::as_str) else {
                continue;
            };
            let root = PathBuf::from(root);
            for (rel, keys) in [
                (".mcp.json", vec!["mcpServers"]),
                (".claude-plugin/plugin.json", vec!["mcpServers"]),
            ] {
                out.push(Source::File {
                    path: root.join(rel),
                    pointer: ptr(&keys),
                    scope: Scope::Plugin,
                    toml: false,
                    plugin: Some((format!("plugin_{prefix}"), root.clone())),
                });
            }
        }
    }
    out
}

/// Reads a configuration file: bounded, regular files only; `Ok(None)`
/// when it does not exist.
fn read_config(path: &Path, toml: bool) -> Result<Option<Value>, Error> {
    let f = match crate::transcript::open_regular(path) {
        Ok(f) => f,
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    let mut buf = Vec::new();
    let cap = u64::try_from(MAX_CONFIG)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    f.take(cap).read_to_end(&mut buf).map_err(|e| Error::Io {
        what: format!("reading {}", path.display()),
        source: e,
    })?;
    if buf.len() > MAX_CONFIG {
        return Err(Error::TooLarge {
            what: "MCP configuration file",
            limit: MAX_CONFIG,
        });
    }
    let text = String::from_utf8(buf).map_err(|e| Error::InvalidUtf8 {
        what: "MCP configuration file",
        offset: e.utf8_error().valid_up_to(),
    })?;
    parse_config(&text, toml, path).map(Some)
}

fn parse_config(text: &str, toml: bool, path: &Path) -> Result<Value, Error> {
    if toml {
        let v: Value = toml_edit::de::from_str(text).map_err(|e| Error::InvalidArgument {
            message: format!("{}: {e}", path.display()),
        })?;
        return Ok(v);
    }
    crate::install::jsonc::parse(text)
        .map(|n| n.value)
        .map_err(|e| Error::InvalidJson {
            line: e.line,
            column: e.column,
            message: format!("{}: {}", path.display(), e.message),
        })
}

fn at<'a>(v: &'a Value, pointer: &[String]) -> Option<&'a Map<String, Value>> {
    pointer
        .iter()
        .try_fold(v, |v, k| v.get(k.as_str()))
        .and_then(Value::as_object)
}

/// Turns one server definition into a transport (never env or headers).
fn transport_of(
    provider: Provider,
    server: &str,
    def: &Value,
    plugin_root: Option<&Path>,
) -> Option<McpTransport> {
    let def = def.as_object()?;
    let st = |k: &str| def.get(k).and_then(Value::as_str).map(str::to_string);
    let expand = |s: String| match plugin_root {
        Some(r) => s.replace("${CLAUDE_PLUGIN_ROOT}", &r.to_string_lossy()),
        None => s,
    };
    let strings = |v: Option<&Value>| -> Vec<String> {
        v.and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(|s| expand(s.to_string()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let declared = st("type")
        .or_else(|| st("transport"))
        .map(|t| t.to_ascii_lowercase());
    let mut t = McpTransport {
        server: server.to_string(),
        transport: String::new(),
        command: None,
        args: Vec::new(),
        url: None,
        from_config: true,
        config_path: String::new(),
        scope: Scope::User,
    };
    // OpenCode: {type: local, command: [argv]} | {type: remote, url}.
    if provider == Provider::Opencode {
        if let Some(Value::Array(argv)) = def.get("command") {
            let mut argv: Vec<String> = argv
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect();
            if argv.is_empty() {
                return None;
            }
            t.command = Some(argv.remove(0));
            t.args = argv;
            t.transport = "stdio".into();
            return Some(t);
        }
    }
    if let Some(cmd) = st("command") {
        t.command = Some(expand(cmd));
        t.args = strings(def.get("args"));
        t.transport = "stdio".into();
        return Some(t);
    }
    // Gemini: httpUrl is streamable HTTP, url is SSE.
    if let Some(u) = st("httpUrl") {
        t.url = Some(u);
        t.transport = "http".into();
        return Some(t);
    }
    if let Some(u) = st("url").or_else(|| st("serverUrl")) {
        t.url = Some(expand(u));
        t.transport = match declared.as_deref() {
            Some("sse") => "sse".into(),
            None if provider == Provider::Gemini => "sse".into(),
            Some("streamable-http" | "streamablehttp" | "streamable_http" | "remote" | "http")
            | None => "http".into(),
            Some(other) => other.to_string(),
        };
        return Some(t);
    }
    None
}

/// Resolves a server's transport from the agent's configuration; `Ok(None)`
/// when no configuration defines it. A configuration file that exists but
/// cannot be read or parsed is skipped (the agent would not have loaded
/// it either); the error is returned only when nothing matched and that
/// file was the only place left.
pub fn resolve(l: &Lookup) -> Result<Option<McpTransport>, Error> {
    let provider = l.provider.0;
    let mut first_err = None;
    if !l.server.is_empty() {
        for src in sources(l) {
            let (value, path_s, scope, plugin, pointer) = match &src {
                Source::Inline { text, pointer } => match crate::install::jsonc::parse(text) {
                    Ok(n) => (
                        n.value,
                        "--mcp-config".to_string(),
                        Scope::Flag,
                        None,
                        pointer,
                    ),
                    Err(_) => continue,
                },
                Source::File {
                    path,
                    pointer,
                    scope,
                    toml,
                    plugin,
                } => match read_config(path, *toml) {
                    Ok(Some(v)) => (
                        v,
                        path.to_string_lossy().into_owned(),
                        *scope,
                        plugin.as_ref(),
                        pointer,
                    ),
                    Ok(None) => continue,
                    Err(e) => {
                        first_err.get_or_insert(e);
                        continue;
                    }
                },
            };
            let Some(map) = at(&value, pointer) else {
                continue;
            };
            let name = match plugin {
                Some((prefix, _)) => match l.server.strip_prefix(prefix.as_str()) {
                    Some(n) => n,
                    None => continue,
                },
                None => l.server.as_str(),
            };
            let Some(def) = map.get(name) else {
                continue;
            };
            if def.get("enabled").and_then(Value::as_bool) == Some(false)
                || def.get("disabled").and_then(Value::as_bool) == Some(true)
            {
                continue;
            }
            if let Some(mut t) =
                transport_of(provider, &l.server, def, plugin.map(|(_, r)| r.as_path()))
            {
                t.config_path = path_s;
                t.scope = scope;
                return Ok(Some(t));
            }
        }
    }
    if l.payload_url.is_some() || l.payload_command.is_some() {
        return Ok(Some(McpTransport {
            server: l.server.clone(),
            transport: if l.payload_url.is_some() {
                "http".into()
            } else {
                "stdio".into()
            },
            command: l.payload_command.clone(),
            args: Vec::new(),
            url: l.payload_url.clone(),
            from_config: false,
            config_path: String::new(),
            scope: Scope::Payload,
        }));
    }
    match first_err {
        Some(e) => Err(e),
        None => Ok(None),
    }
}

/// What the cache is valid for: every candidate file's identity (size,
/// mtime) and the command line.
fn stamp(l: &Lookup) -> String {
    let mut h = Sha256::new();
    h.update(l.provider.0.id().as_bytes());
    for a in &l.agent_argv {
        h.update(b"\0a");
        h.update(a.as_bytes());
    }
    h.update(l.cwd.as_bytes());
    let mut seen: Vec<PathBuf> = Vec::new();
    for src in sources(l) {
        let Source::File { path, .. } = src else {
            continue;
        };
        if seen.contains(&path) {
            continue;
        }
        h.update(b"\0f");
        h.update(path.to_string_lossy().as_bytes());
        if let Ok(m) = std::fs::metadata(&path) {
            let mt = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            h.update(format!("|{}|{mt}", m.len()).as_bytes());
        }
        seen.push(path);
    }
    if let Some(d) = l
        .env("CLAUDE_CONFIG_DIR")
        .or_else(|| l.home().map(|h| h.join(".claude")))
    {
        let idx = d.join("plugins").join("installed_plugins.json");
        if let Ok(m) = std::fs::metadata(&idx) {
            h.update(format!("|p{}|{:?}", m.len(), m.modified().ok()).as_bytes());
        }
    }
    hex(&h.finalize()[..16])
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// [`resolve`] through the per-session cache in `dir` (a verified state
/// directory). A cache that cannot be read or written is ignored; the
/// lookup itself still runs.
pub fn resolve_cached(
    l: &Lookup,
    session_id: &str,
    dir: &crate::state::StateDir,
) -> Result<Option<McpTransport>, Error> {
    let mut h = Sha256::new();
    h.update(l.provider.0.id().as_bytes());
    h.update(b"|");
    h.update(session_id.as_bytes());
    let name = format!("{}.json", hex(&h.finalize()[..16]));
    let st = stamp(l);
    let mut servers = Map::new();
    if let Ok(Some(bytes)) = dir.read(&name, MAX_CACHE) {
        if let Ok(Value::Object(mut c)) = serde_json::from_slice::<Value>(&bytes) {
            if c.get("stamp").and_then(Value::as_str) == Some(st.as_str()) {
                if let Some(Value::Object(m)) = c.remove("servers") {
                    servers = m;
                }
                if let Some(hit) = servers.get(&l.server) {
                    if hit.is_null() {
                        return Ok(None);
                    }
                    if let Ok(t) = serde_json::from_value::<McpTransport>(hit.clone()) {
                        return Ok(Some(t));
                    }
                }
            }
        }
    }
    let t = resolve(l)?;
    if servers.len() < 512 {
        servers.insert(
            l.server.clone(),
            t.as_ref()
                .and_then(|t| serde_json::to_value(t).ok())
                .unwrap_or(Value::Null),
        );
        let body = json!({"stamp": st, "servers": servers}).to_string();
        let _ = dir.write_replace(&name, body.as_bytes());
    }
    Ok(t)
}

/// The transport of an event's MCP server, from the running process's
/// environment and agent, cached per session in the state root (`mcp/`).
/// `Ok(None)` when the event is not an MCP tool call or no configuration
/// names the server.
pub fn resolve_for_event(event: &Event) -> Result<Option<McpTransport>, Error> {
    let Some(l) = Lookup::from_event(event) else {
        return Ok(None);
    };
    if event.session.id.is_empty() {
        return resolve(&l);
    }
    match crate::state::root().and_then(|r| r.subdir("mcp")) {
        Ok(dir) => resolve_cached(&l, &event.session.id, &dir),
        Err(_) => resolve(&l),
    }
}

/// The JSON API (`ah_mcp_resolve_json` and the bindings). Request: a
/// [`Lookup`] (`{"provider", "server", "cwd"?, "home"?, "env"?,
/// "agent_argv"?, "payload_url"?, "payload_command"?}`) or `{"event":
/// <canonical event or payload>, "provider"?}` for the running process.
/// Answer: `{"transport": {...} | null}` or `{"error": {"code",
/// "message"}}`.
pub fn resolve_json(req: &str) -> String {
    let run = || -> Result<Value, Error> {
        let v: Value = serde_json::from_str(req).map_err(|e| Error::InvalidArgument {
            message: format!("MCP resolve request: {e}"),
        })?;
        let t = if let Some(ev) = v.get("event") {
            let event: Event =
                serde_json::from_value(ev.clone()).map_err(|e| Error::InvalidArgument {
                    message: format!("MCP resolve request: `event`: {e}"),
                })?;
            resolve_for_event(&event)?
        } else {
            let l: Lookup = serde_json::from_value(v).map_err(|e| Error::InvalidArgument {
                message: format!("MCP resolve request: {e}"),
            })?;
            resolve(&l)?
        };
        Ok(json!({ "transport": t }))
    };
    match run() {
        Ok(v) => v.to_string(),
        Err(e) => e.to_json_answer(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn mcp_config_flag_takes_several_values() {
        let a = argv(&[
            "claude",
            "--mcp-config",
            "a.json",
            "{\"x\":1}",
            "--strict-mcp-config",
            "-p",
            "hi",
        ]);
        assert_eq!(
            flag_values(&a, "--mcp-config", true),
            vec!["a.json", "{\"x\":1}"]
        );
        let a = argv(&["claude", "--mcp-config=b.json"]);
        assert_eq!(flag_values(&a, "--mcp-config", true), vec!["b.json"]);
    }

    #[test]
    fn env_and_headers_never_leak() {
        let def = json!({"type":"http","url":"https://x","headers":{"Authorization":"Bearer s3cret"},"env":{"K":"v"}});
        let t = transport_of(Provider::ClaudeCode, "s", &def, None).unwrap();
        let text = serde_json::to_string(&t).unwrap();
        assert!(
            !text.contains("s3cret") && !text.contains("\"K\""),
            "{text}"
        );
        assert_eq!(t.transport, "http");
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ah-mcp-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn lookup(server: &str, cwd: &Path, home: &Path) -> Lookup {
        Lookup {
            provider: ProviderField(Provider::ClaudeCode),
            server: server.into(),
            cwd: cwd.to_string_lossy().into_owned(),
            home: home.to_string_lossy().into_owned(),
            ..Lookup::default()
        }
    }

    #[test]
    fn project_files_are_found_up_to_the_repository_root_only() {
        let d = scratch("walk");
        let repo = d.join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("a/b")).unwrap();
        std::fs::write(
            repo.join(".mcp.json"),
            r#"{"mcpServers":{"s":{"command":"c"}}}"#,
        )
        .unwrap();
        // Above the repository: never applies.
        std::fs::write(
            d.join(".mcp.json"),
            r#"{"mcpServers":{"above":{"command":"x"}}}"#,
        )
        .unwrap();
        let t = resolve(&lookup("s", &repo.join("a/b"), &d.join("home")))
            .unwrap()
            .unwrap();
        assert_eq!(t.scope, Scope::Project);
        assert_eq!(t.command.as_deref(), Some("c"));
        assert_eq!(
            resolve(&lookup("above", &repo.join("a/b"), &d.join("home"))).unwrap(),
            None
        );
        // Outside any repository only the working directory counts.
        std::fs::create_dir_all(d.join("loose/x")).unwrap();
        assert_eq!(
            resolve(&lookup("above", &d.join("loose/x"), &d.join("home"))).unwrap(),
            None
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn claude_plugin_servers_expand_the_plugin_root() {
        let d = scratch("plugin");
        let home = d.join("home");
        let root = d.join("plugroot");
        std::fs::create_dir_all(home.join(".claude/plugins")).unwrap();
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(
            home.join(".claude/plugins/installed_plugins.json"),
            json!({"version": 2, "plugins": {"tix@market": [{"scope": "user", "installPath": root}]}}).to_string(),
        )
        .unwrap();
        std::fs::write(
            root.join(".mcp.json"),
            r#"{"mcpServers":{"api":{"command":"${CLAUDE_PLUGIN_ROOT}/bin/srv","args":["--root","${CLAUDE_PLUGIN_ROOT}"]}}}"#,
        )
        .unwrap();
        let t = resolve(&lookup("plugin_tix_api", &d, &home))
            .unwrap()
            .unwrap();
        assert_eq!(t.scope, Scope::Plugin);
        let r = root.to_string_lossy();
        assert_eq!(t.command, Some(format!("{r}/bin/srv")));
        assert_eq!(t.args, vec!["--root".to_string(), r.to_string()]);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn the_cache_follows_config_changes() {
        let d = scratch("cache");
        let home = d.join("home");
        std::fs::create_dir_all(&home).unwrap();
        let cfg = home.join(".claude.json");
        std::fs::write(&cfg, r#"{"mcpServers":{"s":{"command":"one"}}}"#).unwrap();
        let state = crate::state::root_at(&d.join("state")).unwrap();
        let l = lookup("s", &d, &home);
        let a = resolve_cached(&l, "sess", &state).unwrap().unwrap();
        assert_eq!(a.command.as_deref(), Some("one"));
        // Served from the cache: one private file for the session.
        assert_eq!(state.entries().len(), 1);
        assert_eq!(resolve_cached(&l, "sess", &state).unwrap(), Some(a));
        std::fs::write(&cfg, r#"{"mcpServers":{"s":{"command":"two-longer"}}}"#).unwrap();
        let b = resolve_cached(&l, "sess", &state).unwrap().unwrap();
        assert_eq!(b.command.as_deref(), Some("two-longer"));
        let _ = std::fs::remove_dir_all(&d);
    }
}
