//! The install manifest (`hooks.toml` or `hooks.json`): which program to
//! wire, for which events, with which matcher, timeout and fail posture,
//! under which identity. The format is documented in `docs/install.md`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::InstallError;
use super::unified::Unified;
use crate::model::{Kind, Provider};

/// A parsed, validated manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Identity of this set of hooks: marks every entry we write, so
    /// reinstalling and uninstalling touch exactly these. `[A-Za-z0-9._-]+`.
    pub id: String,
    /// The hook program (an absolute path is best: agents run hooks from
    /// varying working directories).
    pub program: String,
    /// Arguments placed before the `agenthooks` word.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// Human text (Gemini's hook UI, doctor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Default timeout of every hook, in seconds (default 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u32>,
    /// Default fail posture: `open` (default) or `closed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail: Option<FailMode>,
    /// Write every invocation to the audit log (`docs/liveness.md`):
    /// `true` adds `--log` to each hook command, `"payloads"` adds
    /// `--log=payloads` (payloads too, secrets redacted). Command-hook
    /// agents only; the plugin agents (OpenCode, OpenClaw) follow
    /// `AGENTHOOKS_LOG`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log: Option<LogSetting>,
    /// The hooks.
    #[serde(default)]
    pub hooks: Vec<HookSpec>,
}

/// The manifest's `log` value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LogSetting {
    /// `log = true` / `false`.
    Flag(bool),
    /// `log = "payloads"` (any other word is refused when loading).
    Mode(String),
}

impl LogSetting {
    /// The option written into each command, if any.
    pub fn option(&self) -> Option<&'static str> {
        match self {
            LogSetting::Flag(true) => Some("--log"),
            LogSetting::Mode(m) if m == "payloads" => Some("--log=payloads"),
            LogSetting::Mode(m) if m == "on" => Some("--log"),
            _ => None,
        }
    }
}

/// Fail posture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailMode {
    /// Errors and timeouts let the action through.
    Open,
    /// Errors and timeouts block, where the agent can block.
    Closed,
}

/// One hook of the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HookSpec {
    /// Stable id within the manifest (default: the kind, or the event);
    /// `[A-Za-z0-9._-]+`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Unified kind (`tool.pre`, `prompt.submitted`, ... any spelling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// A native event name instead of a kind: wired only on the agents
    /// that have an event of exactly that name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// Unified matcher (`shell`, `file.edit|file.write`, `mcp:github/*`,
    /// `tool:Bash`, `*`).
    #[serde(default, rename = "match", skip_serializing_if = "Option::is_none")]
    pub matcher: Option<String>,
    /// Whether the agent waits for the hook's answer (default true);
    /// `false` is `async = true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocking: Option<bool>,
    /// Run in the background: the agent's native async flag where it has
    /// one (Claude Code), else `--async` (the hook answers "no opinion" at
    /// once and finishes in a detached process, `docs/async.md`). Refused
    /// on gating kinds (`tool.pre`, `permission.request`,
    /// `prompt.submitted`).
    #[serde(default, rename = "async", skip_serializing_if = "Option::is_none")]
    pub is_async: Option<bool>,
    /// Timeout in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u32>,
    /// Fail posture of this hook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail: Option<FailMode>,
    /// Human text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Only these agents (ids or aliases); default all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agents: Option<Vec<String>>,
}

/// A hook with every default applied and its matcher parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Hook {
    /// Id, unique within the manifest.
    pub id: String,
    /// The unified kind, when given by kind.
    pub kind: Option<Kind>,
    /// The native event, when given by event.
    pub event: Option<String>,
    /// Parsed unified matcher (empty = everything).
    pub matcher: Unified,
    /// Blocking.
    pub blocking: bool,
    /// Seconds.
    pub timeout: u32,
    /// Fail posture.
    pub fail: FailMode,
    /// Human text.
    pub description: Option<String>,
    /// Restriction to some agents.
    pub agents: Option<Vec<Provider>>,
}

/// Default hook timeout, seconds.
pub const DEFAULT_TIMEOUT: u32 = 30;

/// Script file extensions that need their interpreter named.
const SCRIPT_EXTENSIONS: &[&str] = &[".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".rb", ".sh"];

fn looks_like_script(s: &str) -> bool {
    SCRIPT_EXTENSIONS.iter().any(|e| s.ends_with(e))
}

/// For a script, how to name its interpreter (empty otherwise).
fn script_hint(program: &str) -> String {
    if !looks_like_script(program) {
        return String::new();
    }
    let name = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let interp = if name.ends_with(".py") {
        "/usr/bin/python3"
    } else if name.ends_with(".sh") {
        "/bin/sh"
    } else if name.ends_with(".rb") {
        "/usr/bin/ruby"
    } else {
        "/usr/bin/node"
    };
    format!(
        ". For a script, name its interpreter and the script by absolute paths: program = \"{interp}\" (see `command -v`), args = [\"/absolute/path/to/{name}\"]"
    )
}

fn valid_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

impl Manifest {
    /// What install should warn about (the manifest is still valid): a
    /// bare `program` not found on `path` (the `PATH` given), and a
    /// relative script path among `args` (the interpreter would look for
    /// it in whatever directory the agent runs the hook from).
    pub fn warnings(&self, path: Option<&std::ffi::OsStr>) -> Vec<String> {
        let mut out = Vec::new();
        let bare = !self.program.contains('/') && !self.program.contains('\\');
        if bare {
            let found = path
                .is_some_and(|p| std::env::split_paths(p).any(|d| d.join(&self.program).is_file()));
            if !found {
                out.push(format!(
                    "program `{}` is not on PATH here, and agents look it up on theirs: use an absolute path{}",
                    self.program,
                    script_hint(&self.program)
                ));
            }
        }
        for (i, a) in self.args.iter().enumerate() {
            let relative = !a.starts_with('-') && !Path::new(a).is_absolute();
            if relative && (looks_like_script(a) || a.starts_with("./") || a.starts_with("../")) {
                out.push(format!(
                    "args[{i}] `{a}` is a relative path: agents run hooks from their own working directory, where `{a}` is some other file or none; use an absolute path"
                ));
            }
        }
        out
    }

    /// Reads `hooks.toml` or `hooks.json` (by extension; else tries both).
    pub fn load(path: &Path) -> Result<Manifest, InstallError> {
        let text = std::fs::read_to_string(path).map_err(|e| InstallError::Io {
            path: path.to_path_buf(),
            message: format!("reading the manifest: {e}"),
        })?;
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let m = if ext == "json" || (ext != "toml" && text.trim_start().starts_with('{')) {
            Manifest::from_json(&text)
        } else {
            Manifest::from_toml(&text)
        };
        m.map_err(|e| match e {
            InstallError::Manifest { message } => InstallError::Manifest {
                message: format!("{}: {message}", path.display()),
            },
            other => other,
        })
    }

    /// Parses TOML text.
    pub fn from_toml(text: &str) -> Result<Manifest, InstallError> {
        let m: Manifest = toml_edit::de::from_str(text).map_err(|e| InstallError::Manifest {
            message: e.to_string().trim().to_string(),
        })?;
        m.validate()?;
        Ok(m)
    }

    /// Parses JSON text.
    pub fn from_json(text: &str) -> Result<Manifest, InstallError> {
        let m: Manifest = serde_json::from_str(text).map_err(|e| InstallError::Manifest {
            message: e.to_string(),
        })?;
        m.validate()?;
        Ok(m)
    }

    /// Checks ids, kinds, matchers; returns the first problem.
    pub fn validate(&self) -> Result<(), InstallError> {
        if let Some(LogSetting::Mode(m)) = &self.log {
            if m != "payloads" && m != "on" {
                return Err(InstallError::Manifest {
                    message: format!("log: `{m}` is not true, false or \"payloads\""),
                });
            }
        }
        self.resolved().map(|_| ())
    }

    /// The hooks with defaults applied.
    pub fn resolved(&self) -> Result<Vec<Hook>, InstallError> {
        let bad = |m: String| InstallError::Manifest { message: m };
        if !valid_id(&self.id) {
            return Err(bad(format!(
                "id `{}`: use 1-64 of A-Z a-z 0-9 . _ -",
                self.id
            )));
        }
        if self.program.trim().is_empty() {
            return Err(bad("program is empty".into()));
        }
        // A NUL cuts the command short in an agent written in C, a newline
        // splits a shell command line; neither belongs in a program path.
        for (what, s) in
            std::iter::once(("program", &self.program)).chain(self.args.iter().map(|a| ("args", a)))
        {
            if let Some(c) = s.chars().find(|c| c.is_control()) {
                return Err(bad(format!(
                    "{what} `{}` contains the control character U+{:04X}",
                    s.escape_debug(),
                    u32::from(c)
                )));
            }
        }
        // Agents run hooks from whatever directory they are in: a relative
        // path would run the file of that name there (a cloned repository's
        // own `./hook`). A bare name is looked up on PATH.
        let prog = Path::new(&self.program);
        if !prog.is_absolute() && (self.program.contains('/') || self.program.contains('\\')) {
            return Err(bad(format!(
                "program `{}` is a relative path: agents run hooks from other directories, so it would run whatever file has that path there; use an absolute path (`~` is not expanded) or a bare name found on PATH{}",
                self.program,
                script_hint(&self.program)
            )));
        }
        let mut out: Vec<Hook> = Vec::new();
        for (i, h) in self.hooks.iter().enumerate() {
            let at = format!("hooks[{i}]");
            let kind = match &h.kind {
                Some(k) => {
                    Some(Kind::parse(k).map_err(|_| bad(format!("{at}: unknown kind `{k}`")))?)
                }
                None => None,
            };
            if kind.is_some() == h.event.is_some() {
                return Err(bad(format!("{at}: give exactly one of `kind` and `event`")));
            }
            if kind == Some(Kind::Other) {
                return Err(bad(format!(
                    "{at}: kind `other` names no event; use `event = \"<native name>\"`"
                )));
            }
            let id = match &h.id {
                Some(id) => id.clone(),
                None => kind
                    .map(|k| k.as_str().to_string())
                    .or_else(|| h.event.clone())
                    .unwrap_or_default(),
            };
            if !valid_id(&id) {
                return Err(bad(format!(
                    "{at}: id `{id}`: use 1-64 of A-Z a-z 0-9 . _ -"
                )));
            }
            if out.iter().any(|o| o.id == id) {
                return Err(bad(format!(
                    "{at}: id `{id}` is used twice (give each hook its own `id`)"
                )));
            }
            let matcher = Unified::parse(h.matcher.as_deref().unwrap_or("*"))
                .map_err(|e| bad(format!("{at}: match: {e}")))?;
            if let Some(k) = kind {
                matcher
                    .check_for(k)
                    .map_err(|e| bad(format!("{at}: match: {e}")))?;
            }
            let agents = match &h.agents {
                Some(list) => Some(
                    list.iter()
                        .map(|a| {
                            Provider::parse(a)
                                .map_err(|_| bad(format!("{at}: unknown agent `{a}`")))
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                ),
                None => None,
            };
            let blocking = match (h.blocking, h.is_async) {
                (Some(b), Some(a)) if b == a => {
                    return Err(bad(format!(
                        "{at}: `blocking = {b}` and `async = {a}` contradict each other (async = true is blocking = false)"
                    )));
                }
                (_, Some(a)) => !a,
                (Some(b), None) => b,
                (None, None) => true,
            };
            if let Some(k) = kind.filter(|k| !blocking && crate::detach::gating(*k)) {
                return Err(bad(format!(
                    "{at}: `async` (or `blocking = false`) is refused on `{}`: it is a gating event, whose answer must reach the agent",
                    k.as_str()
                )));
            }
            let timeout = h.timeout.or(self.timeout).unwrap_or(DEFAULT_TIMEOUT);
            if timeout == 0 || timeout > 600 {
                return Err(bad(format!("{at}: timeout {timeout} s (1 to 600)")));
            }
            out.push(Hook {
                id,
                kind,
                event: h.event.clone(),
                matcher,
                blocking,
                timeout,
                fail: h.fail.or(self.fail).unwrap_or(FailMode::Open),
                description: h.description.clone(),
                agents,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(hook: &str) -> Result<Vec<Hook>, InstallError> {
        Manifest::from_toml(&format!(
            "id = \"t\"\nprogram = \"/opt/t\"\n\n[[hooks]]\n{hook}\n"
        ))
        .and_then(|m| m.resolved())
    }

    #[test]
    fn async_is_blocking_false_and_refused_on_gating_kinds() {
        let h = one("kind = \"tool.post\"\nasync = true").unwrap();
        assert!(!h[0].blocking);
        assert!(one("kind = \"tool.post\"\nasync = false").unwrap()[0].blocking);
        assert!(!one("kind = \"agent.stop\"\nblocking = false").unwrap()[0].blocking);
        for k in ["tool.pre", "permission.request", "prompt.submitted"] {
            let e = one(&format!("kind = \"{k}\"\nasync = true")).unwrap_err();
            assert!(e.to_string().contains("is refused on"), "{k}: {e}");
        }
        let e = one("kind = \"tool.post\"\nasync = true\nblocking = true").unwrap_err();
        assert!(e.to_string().contains("contradict"), "{e}");
        // Saying the same thing twice is fine.
        assert!(!one("kind = \"tool.post\"\nasync = true\nblocking = false").unwrap()[0].blocking);
    }
}
