//! The unified matcher of the manifest, and its compilation into each
//! agent's own matcher dialect.
//!
//! Grammar: terms separated by `|` or `,` (blanks trimmed); `*` or nothing
//! matches everything.
//!
//! | term | on tool events matches | on other events |
//! |---|---|---|
//! | `shell` `file.read` `file.write` `file.edit` `search` `fetch` `task` `mcp` `other` | the canonical class | — |
//! | `file` | `file.read`, `file.write` and `file.edit` | — |
//! | `tool:<Name>` | the native tool name, exactly | — |
//! | `mcp:<server>` / `mcp:<server>/<tool>` (`*` = any) | that MCP server / tool | — |
//! | any other word | — | the event's subject, exactly (`source`, `reason`, `trigger`, subagent type) |
//!
//! Compilation ([`Unified::native`]) is a pre-filter: it never matches less
//! than the unified matcher (a class compiles to the agent's native names
//! for it only where the name list is known; otherwise the config matches
//! broadly). The runtime then filters exactly in process
//! ([`super::filter`]), from the `--match` argument written into argv.

use crate::model::{Canonical, Event, Kind, Provider};

/// One term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// A canonical tool class.
    Class(Canonical),
    /// A native tool name.
    Tool(String),
    /// An MCP server (and tool); `None`/`*` = any.
    Mcp {
        /// Server, `None` = any.
        server: Option<String>,
        /// Tool, `None` = any.
        tool: Option<String>,
    },
    /// A lifecycle subject (session source, compaction trigger, ...).
    Subject(String),
}

/// A parsed unified matcher; no terms = everything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Unified {
    /// The terms, in order.
    pub terms: Vec<Term>,
}

fn class(s: &str) -> Option<Vec<Canonical>> {
    use Canonical::*;
    Some(match s {
        "shell" => vec![Shell],
        "file.read" => vec![FileRead],
        "file.write" => vec![FileWrite],
        "file.edit" => vec![FileEdit],
        "file" => vec![FileRead, FileWrite, FileEdit],
        "search" => vec![Search],
        "fetch" => vec![Fetch],
        "task" => vec![Task],
        "mcp" => vec![Mcp],
        "other" => vec![Other],
        _ => return None,
    })
}

fn plain(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '@'))
}

impl Unified {
    /// Matches everything.
    pub fn all() -> Unified {
        Unified::default()
    }

    /// Parses the unified form.
    pub fn parse(s: &str) -> Result<Unified, String> {
        let s = s.trim();
        if s.is_empty() || s == "*" {
            return Ok(Unified::all());
        }
        let mut terms = Vec::new();
        for raw in s.split(['|', ',']) {
            let t = raw.trim();
            if t.is_empty() {
                return Err(format!("empty term in `{s}`"));
            }
            if t == "*" {
                return Ok(Unified::all());
            }
            if let Some(name) = t.strip_prefix("tool:") {
                if !plain(name) && !name.chars().all(|c| c.is_ascii_graphic()) {
                    return Err(format!("tool name `{name}`"));
                }
                terms.push(Term::Tool(name.to_string()));
            } else if let Some(rest) = t.strip_prefix("mcp:") {
                let (server, tool) = match rest.split_once('/') {
                    Some((s, t)) => (s, Some(t)),
                    None => (rest, None),
                };
                let any = |x: &str| if x == "*" { None } else { Some(x.to_string()) };
                for part in std::iter::once(server).chain(tool) {
                    if part != "*" && !plain(part) {
                        return Err(format!(
                            "MCP name `{part}` (letters, digits, _ - . @, or *)"
                        ));
                    }
                }
                terms.push(Term::Mcp {
                    server: any(server),
                    tool: tool.and_then(any),
                });
            } else if let Some(cs) = class(t) {
                terms.extend(cs.into_iter().map(Term::Class));
            } else if plain(t) {
                terms.push(Term::Subject(t.to_string()));
            } else {
                return Err(format!("term `{t}`"));
            }
        }
        Ok(Unified { terms })
    }

    /// Whether this matches everything.
    pub fn is_all(&self) -> bool {
        self.terms.is_empty()
    }

    /// The canonical text (for argv): terms joined by `|`.
    pub fn to_text(&self) -> String {
        if self.is_all() {
            return "*".into();
        }
        self.terms
            .iter()
            .map(|t| match t {
                Term::Class(c) => c.as_str().to_string(),
                Term::Tool(n) => format!("tool:{n}"),
                Term::Mcp { server, tool } => {
                    let s = server.as_deref().unwrap_or("*");
                    match tool {
                        Some(t) => format!("mcp:{s}/{t}"),
                        None => format!("mcp:{s}"),
                    }
                }
                Term::Subject(s) => s.clone(),
            })
            .collect::<Vec<_>>()
            .join("|")
    }

    /// Checks the terms suit the kind (tool terms on tool kinds, subjects
    /// elsewhere).
    pub fn check_for(&self, kind: Kind) -> Result<(), String> {
        for t in &self.terms {
            let tool_term = !matches!(t, Term::Subject(_));
            if kind.has_tool() && !tool_term {
                if let Term::Subject(s) = t {
                    return Err(format!(
                        "`{s}` is not a tool class (shell, file.read, file.write, file.edit, file, search, fetch, task, mcp, other); write tool:{s} for a native tool name"
                    ));
                }
            }
            if !kind.has_tool() && tool_term {
                return Err(format!(
                    "`{}` is a tool term, but {} events have no tool",
                    Unified {
                        terms: vec![t.clone()]
                    }
                    .to_text(),
                    kind.as_str()
                ));
            }
        }
        Ok(())
    }

    /// Whether an event passes (the runtime filter).
    pub fn matches(&self, e: &Event) -> bool {
        if self.is_all() {
            return true;
        }
        if let Some(t) = &e.tool {
            return self.terms.iter().any(|term| match term {
                Term::Class(c) => t.canonical == *c,
                Term::Tool(n) => &t.name == n,
                Term::Mcp { server, tool } => {
                    t.canonical == Canonical::Mcp
                        && t.mcp.as_ref().is_some_and(|m| {
                            server.as_ref().is_none_or(|s| s == &m.server)
                                && tool.as_ref().is_none_or(|x| x == &m.tool)
                        })
                }
                Term::Subject(_) => false,
            });
        }
        let subjects: Vec<&str> = [
            e.source.as_deref(),
            e.reason.as_deref(),
            e.trigger.as_deref(),
            e.agent.as_ref().map(|a| a.r#type.as_str()),
        ]
        .into_iter()
        .flatten()
        .collect();
        if subjects.is_empty() {
            // Nothing to test against: never filter an event away blindly.
            return true;
        }
        self.terms
            .iter()
            .any(|t| matches!(t, Term::Subject(s) if subjects.contains(&s.as_str())))
    }

    /// The agent's native matcher for this matcher on a native event, or
    /// `None` to match broadly (the runtime filters in process).
    pub fn native(&self, p: Provider, kind: Kind) -> Option<String> {
        if self.is_all() {
            return None;
        }
        if !kind.has_tool() {
            let subjects: Vec<&str> = self
                .terms
                .iter()
                .filter_map(|t| match t {
                    Term::Subject(s)
                        if s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
                    {
                        Some(s.as_str())
                    }
                    _ => None,
                })
                .collect();
            if subjects.len() != self.terms.len() {
                return None;
            }
            return match p {
                // Exact-string lists (Claude §1.7, Codex §1.6).
                Provider::ClaudeCode | Provider::Codex => Some(subjects.join("|")),
                // Gemini compares lifecycle matchers by exact equality (§1.5).
                Provider::Gemini if subjects.len() == 1 => Some(subjects[0].to_string()),
                Provider::KimiCode => Some(format!("^(?:{})$", subjects.join("|"))),
                _ => None,
            };
        }
        let mut names: Vec<String> = Vec::new();
        let mut patterns: Vec<String> = Vec::new();
        for t in &self.terms {
            match t {
                Term::Class(Canonical::Mcp) => patterns.push(mcp_pattern(p, None, None)?),
                Term::Class(c) => names.extend(class_names(p, *c)?.iter().map(|s| s.to_string())),
                Term::Tool(n) => names.push(n.clone()),
                Term::Mcp { server, tool } => {
                    patterns.push(mcp_pattern(p, server.as_deref(), tool.as_deref())?)
                }
                Term::Subject(_) => return None,
            }
        }
        names.dedup();
        let exact_chars = |s: &str, extra: &[char]| {
            s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || extra.contains(&c))
        };
        match p {
            Provider::ClaudeCode => {
                if patterns.is_empty() && names.iter().all(|n| exact_chars(n, &['-'])) {
                    Some(names.join("|"))
                } else {
                    Some(anchored(&names, &patterns))
                }
            }
            Provider::Codex => {
                if patterns.is_empty() && names.iter().all(|n| exact_chars(n, &[])) {
                    Some(names.join("|"))
                } else {
                    Some(anchored(&names, &patterns))
                }
            }
            Provider::Cursor | Provider::Gemini | Provider::KimiCode => {
                Some(anchored(&names, &patterns))
            }
            // Copilot's native files carry no matcher; plugins filter in code.
            _ => None,
        }
    }
}

fn anchored(names: &[String], patterns: &[String]) -> String {
    let mut alts: Vec<String> = names.iter().map(|n| regex_escape(n)).collect();
    alts.extend(patterns.iter().cloned());
    format!("^(?:{})$", alts.join("|"))
}

/// Escapes regex metacharacters (valid in both JavaScript and Rust regex).
pub fn regex_escape(s: &str) -> String {
    let mut o = String::new();
    for c in s.chars() {
        if "\\^$.|?*+()[]{}/".contains(c) {
            o.push('\\');
        }
        o.push(c);
    }
    o
}

/// Native tool names of a class, where the list is known well enough to
/// narrow the config matcher (names from `dialect/tool_names.rs`, whose
/// sources are the protocol docs). `None`: match broadly.
fn class_names(p: Provider, c: Canonical) -> Option<&'static [&'static str]> {
    use Canonical::*;
    Some(match (p, c) {
        (Provider::ClaudeCode, Shell) => &["Bash", "PowerShell", "BashOutput", "KillShell"],
        (Provider::ClaudeCode, FileRead) => &["Read", "NotebookRead"],
        (Provider::ClaudeCode, FileWrite) => &["Write"],
        (Provider::ClaudeCode, FileEdit) => &["Edit", "MultiEdit", "NotebookEdit"],
        (Provider::ClaudeCode, Search) => &["Glob", "Grep", "LS"],
        (Provider::ClaudeCode, Fetch) => &["WebFetch", "WebSearch"],
        (Provider::ClaudeCode, Task) => &["Agent", "Task"],
        // Codex matches `exec_command` as `Bash` and `apply_patch` also as
        // `Edit`/`Write` (codex.md §1.6).
        (Provider::Codex, Shell) => &["Bash", "exec_command", "shell", "write_stdin"],
        (Provider::Codex, FileEdit) => &["apply_patch", "Edit"],
        (Provider::Codex, FileWrite) => &["apply_patch", "Write"],
        (Provider::Codex, Task) => &["spawn_agent", "Agent"],
        (Provider::Cursor, Shell) => &["Shell"],
        (Provider::Cursor, FileRead) => &["Read"],
        (Provider::Cursor, FileWrite) => &["Write"],
        (Provider::Cursor, FileEdit) => &["StrReplace", "Delete"],
        (Provider::Cursor, Search) => &["Grep", "Glob"],
        (Provider::Cursor, Task) => &["Task"],
        (Provider::Gemini, Shell) => &["run_shell_command"],
        (Provider::Gemini, FileRead) => &["read_file", "read_many_files"],
        (Provider::Gemini, FileWrite) => &["write_file"],
        (Provider::Gemini, FileEdit) => &["replace"],
        (Provider::KimiCode, Shell) => &["Bash", "Shell"],
        (Provider::KimiCode, FileRead) => &["Read", "ReadMediaFile"],
        (Provider::KimiCode, FileWrite) => &["Write", "WriteFile"],
        (Provider::KimiCode, FileEdit) => &["Edit", "StrReplaceFile"],
        (Provider::KimiCode, Task) => &["Agent", "AgentSwarm"],
        _ => return None,
    })
}

/// A regex for MCP tool names of a server/tool on an agent, or `None`.
fn mcp_pattern(p: Provider, server: Option<&str>, tool: Option<&str>) -> Option<String> {
    let part = |x: Option<&str>| x.map_or(".*".to_string(), regex_escape);
    match p {
        // `mcp__<server>__<tool>` (claude-code.md §3.2, codex.md §3.3).
        Provider::ClaudeCode | Provider::Codex => {
            Some(format!("mcp__{}__{}", part(server), part(tool)))
        }
        // `MCP:<tool>`: the server is not in the name (cursor.md §3.3).
        Provider::Cursor => Some(format!("MCP:{}", part(tool))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_text() {
        let u = Unified::parse("shell, file.edit | mcp:github/* |tool:Bash").unwrap();
        assert_eq!(u.to_text(), "shell|file.edit|mcp:github|tool:Bash");
        assert!(Unified::parse("*").unwrap().is_all());
        assert!(Unified::parse("a||b").is_err());
        assert_eq!(Unified::parse("file").unwrap().terms.len(), 3);
    }

    #[test]
    fn native_forms() {
        let u = Unified::parse("shell").unwrap();
        assert_eq!(
            u.native(Provider::ClaudeCode, Kind::ToolPre).as_deref(),
            Some("Bash|PowerShell|BashOutput|KillShell")
        );
        assert_eq!(
            u.native(Provider::Gemini, Kind::ToolPre).as_deref(),
            Some("^(?:run_shell_command)$")
        );
        assert_eq!(u.native(Provider::Copilot, Kind::ToolPre), None);
        let m = Unified::parse("mcp:git-hub").unwrap();
        assert_eq!(
            m.native(Provider::ClaudeCode, Kind::ToolPre).as_deref(),
            Some("^(?:mcp__git-hub__.*)$")
        );
        assert_eq!(m.native(Provider::Gemini, Kind::ToolPre), None);
        let s = Unified::parse("startup|resume").unwrap();
        assert_eq!(s.native(Provider::Gemini, Kind::SessionStart), None);
        assert_eq!(
            s.native(Provider::Codex, Kind::SessionStart).as_deref(),
            Some("startup|resume")
        );
    }
}
