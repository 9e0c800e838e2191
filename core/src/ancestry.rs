//! What a hook process can see of the agent that started it.
//!
//! A hook is a child (or grandchild, through `sh -c`) of the agent. On
//! Linux the chain of ancestors is readable from `/proc`: each one's argv
//! (`/proc/<pid>/cmdline`), its parent (`/proc/<pid>/stat`) and whether its
//! standard descriptors are a terminal (`/proc/<pid>/fd/{0,1,2}`, readable
//! for processes of the same user only). Session-mode detection
//! (interactive or headless), prompt backfill and MCP configuration flags
//! are all read from here.
//!
//! Everything is best effort and bounded: at most [`MAX_DEPTH`] ancestors,
//! at most [`MAX_CMDLINE`] bytes of each argv (longer ones are cut and
//! marked [`Process::truncated`]), arguments decoded lossily. Where `/proc`
//! is missing (macOS, containers without it) the chain is empty and every
//! fact derived from it stays unknown. The root is a parameter
//! ([`Proc::at`]) so tests build a fake `/proc` tree.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::model::Provider;

/// How many ancestors are read at most (hook → shell → agent wrapper → …).
pub const MAX_DEPTH: usize = 8;
/// How many bytes of one process's argv are read at most.
pub const MAX_CMDLINE: usize = 256 * 1024;

/// One ancestor process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Process {
    /// Its pid.
    pub pid: u32,
    /// Its argv, lossily decoded; empty for kernel threads or when unreadable.
    pub argv: Vec<String>,
    /// The argv was longer than [`MAX_CMDLINE`] and was cut.
    pub truncated: bool,
    /// Whether any of its fds 0, 1, 2 is a terminal; `None` when the fds
    /// cannot be read (another user's process, no `/proc`).
    pub tty: Option<bool>,
}

/// A `/proc` root to read from.
#[derive(Debug, Clone)]
pub struct Proc {
    root: PathBuf,
}

impl Default for Proc {
    fn default() -> Self {
        Proc::at("/proc")
    }
}

impl Proc {
    /// A `/proc`-shaped tree at `root`.
    pub fn at(root: impl Into<PathBuf>) -> Proc {
        Proc { root: root.into() }
    }

    fn path(&self, pid: &str, rest: &str) -> PathBuf {
        self.root.join(pid).join(rest)
    }

    /// The parent pid of `pid` (`"self"` for this process).
    pub fn ppid(&self, pid: &str) -> Option<u32> {
        let stat = read_bounded(&self.path(pid, "stat"), 4096)?;
        parse_stat_ppid(&String::from_utf8_lossy(&stat))
    }

    /// The process `pid`, or `None` when it cannot be read at all.
    pub fn process(&self, pid: u32) -> Option<Process> {
        let id = pid.to_string();
        let raw = read_bounded(&self.path(&id, "cmdline"), MAX_CMDLINE + 1)?;
        let truncated = raw.len() > MAX_CMDLINE;
        let raw = &raw[..raw.len().min(MAX_CMDLINE)];
        Some(Process {
            pid,
            argv: parse_cmdline(raw),
            truncated,
            tty: self.tty(&id),
        })
    }

    /// Whether `pid`'s stdin (fd 0) is a terminal; `None` when it cannot
    /// be read.
    pub fn stdin_tty(&self, pid: u32) -> Option<bool> {
        let target = std::fs::read_link(self.path(&pid.to_string(), "fd").join("0")).ok()?;
        Some(is_terminal_path(&target))
    }

    fn tty(&self, pid: &str) -> Option<bool> {
        let mut readable = false;
        for fd in ["0", "1", "2"] {
            if let Ok(target) = std::fs::read_link(self.path(pid, "fd").join(fd)) {
                readable = true;
                if is_terminal_path(&target) {
                    return Some(true);
                }
            }
        }
        readable.then_some(false)
    }

    /// This process's ancestors, nearest first (the parent, its parent, …),
    /// stopping at pid 1, at [`MAX_DEPTH`], or at the first unreadable one.
    pub fn ancestors(&self) -> Vec<Process> {
        let mut out = Vec::new();
        let mut next = self.ppid("self");
        while let Some(pid) = next {
            if pid <= 1 || out.len() >= MAX_DEPTH {
                break;
            }
            let Some(p) = self.process(pid) else { break };
            out.push(p);
            next = self.ppid(&pid.to_string());
        }
        out
    }
}

/// This process's ancestors from the real `/proc` (empty where there is none).
pub fn ancestors() -> Vec<Process> {
    Proc::default().ancestors()
}

fn read_bounded(path: &Path, limit: usize) -> Option<Vec<u8>> {
    let file = std::fs::File::open(path).ok()?;
    let mut buf = Vec::new();
    file.take(u64::try_from(limit).ok()?)
        .read_to_end(&mut buf)
        .ok()?;
    Some(buf)
}

/// The parent pid field of a `/proc/<pid>/stat` line. The command name in
/// parentheses may itself contain spaces and parentheses, so the fields
/// are counted from the last `)`.
pub fn parse_stat_ppid(stat: &str) -> Option<u32> {
    let after = &stat[stat.rfind(')')?.checked_add(1)?..];
    let mut fields = after.split_ascii_whitespace();
    let _state = fields.next()?;
    fields.next()?.parse().ok()
}

/// A NUL-separated `cmdline` as argv (a trailing NUL ends the last one).
pub fn parse_cmdline(raw: &[u8]) -> Vec<String> {
    let raw = raw.strip_suffix(b"\0").unwrap_or(raw);
    if raw.is_empty() {
        return Vec::new();
    }
    raw.split(|b| *b == 0)
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect()
}

fn is_terminal_path(p: &Path) -> bool {
    let s = p.to_string_lossy();
    s.starts_with("/dev/pts/") || s.starts_with("/dev/tty") || s == "/dev/console"
}

fn basename(arg: &str) -> &str {
    arg.rsplit('/').next().unwrap_or(arg)
}

/// The names an agent's process is known by: the basename of its
/// executable or of the script an interpreter (node, python) runs, and
/// package directories that appear in a script's path.
fn agent_names(agent: Provider) -> (&'static [&'static str], &'static [&'static str]) {
    match agent {
        Provider::ClaudeCode => (&["claude"], &["/@anthropic-ai/claude-code/"]),
        Provider::Codex => (&["codex"], &["/@openai/codex/"]),
        Provider::Cursor => (&["cursor-agent", "cursor"], &["/cursor-agent/"]),
        Provider::Gemini => (&["gemini"], &["/@google/gemini-cli/"]),
        Provider::KimiCode => (
            &["kimi", "kimi-cli", "kimi-code"],
            &["/kimi_cli/", "/kimi-cli/", "/@moonshot-ai/kimi-code/"],
        ),
        Provider::Copilot => (&["copilot"], &["/@github/copilot/"]),
        Provider::Opencode => (&["opencode"], &["/opencode-ai/"]),
        Provider::Openclaw => (&["openclaw"], &["/openclaw/"]),
    }
}

/// Whether `argv` is (a run of) `agent`: its argv[0], or the script its
/// interpreter runs (argv[1], after interpreter flags), is the agent.
pub fn is_agent(argv: &[String], agent: Provider) -> bool {
    let (names, dirs) = agent_names(agent);
    let matches = |arg: &str| {
        let base = basename(arg);
        let stem = base
            .strip_suffix(".js")
            .or_else(|| base.strip_suffix(".mjs"))
            .or_else(|| base.strip_suffix(".cjs"))
            .unwrap_or(base);
        names
            .iter()
            .any(|n| stem == *n || stem.starts_with(&format!("{n}-")))
            || dirs.iter().any(|d| arg.contains(d))
    };
    let Some(first) = argv.first() else {
        return false;
    };
    if matches(first) {
        return true;
    }
    // An interpreter running the agent's script: node/python/bun/deno.
    let interp = basename(first);
    let is_interp = ["node", "nodejs", "bun", "deno", "python", "python3"]
        .iter()
        .any(|i| {
            interp == *i || interp.starts_with(&format!("{i}.")) || interp.starts_with("python3.")
        });
    if !is_interp {
        return false;
    }
    argv.iter()
        .skip(1)
        .take(6)
        .find(|a| !a.starts_with('-'))
        .is_some_and(|a| matches(a))
}

/// The nearest ancestor that is `agent`, if any.
pub fn find_agent(chain: &[Process], agent: Provider) -> Option<&Process> {
    chain.iter().find(|p| is_agent(&p.argv, agent))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn stat_ppid_survives_parentheses_in_the_name() {
        assert_eq!(parse_stat_ppid("42 (a) b) (c) S 17 42 42 0"), Some(17));
        assert_eq!(parse_stat_ppid("42 (sh) R 1 2"), Some(1));
        assert_eq!(parse_stat_ppid("garbage"), None);
        assert_eq!(parse_stat_ppid("1 (x) S notanumber"), None);
    }

    #[test]
    fn cmdline_splits_on_nul_and_keeps_empty_arguments() {
        assert_eq!(
            parse_cmdline(b"claude\0-p\0\0hi\0"),
            argv(&["claude", "-p", "", "hi"])
        );
        assert_eq!(parse_cmdline(b""), Vec::<String>::new());
        assert_eq!(parse_cmdline(b"a\xffb\0"), argv(&["a\u{fffd}b"]));
    }

    #[test]
    fn agents_are_recognised_directly_and_through_interpreters() {
        assert!(is_agent(
            &argv(&["claude", "-p", "x"]),
            Provider::ClaudeCode
        ));
        assert!(is_agent(
            &argv(&[
                "node",
                "--no-warnings",
                "/usr/lib/node_modules/@google/gemini-cli/dist/index.js",
                "-p",
                "x"
            ]),
            Provider::Gemini
        ));
        assert!(is_agent(
            &argv(&["/opt/bin/codex-x86_64-unknown-linux-musl", "exec"]),
            Provider::Codex
        ));
        assert!(!is_agent(
            &argv(&["node", "/srv/claude-notes/app.js"]),
            Provider::ClaudeCode
        ));
        assert!(!is_agent(
            &argv(&["sh", "-c", "claude"]),
            Provider::ClaudeCode
        ));
        assert!(!is_agent(&argv(&[]), Provider::Codex));
        assert!(is_agent(
            &argv(&[
                "/c/node-linux-x64/bin/node",
                "/c/node_modules/@moonshot-ai/kimi-code/dist/main.mjs",
                "-p",
                "x"
            ]),
            Provider::KimiCode
        ));
    }

    fn fake_proc(dir: &Path, chain: &[(u32, u32, &[u8], Option<&str>)]) {
        // (pid, ppid, cmdline, fd0 target); "self" is the first entry's child.
        let selfdir = dir.join("self");
        std::fs::create_dir_all(&selfdir).unwrap();
        std::fs::write(selfdir.join("stat"), format!("9 (hook) S {} 9", chain[0].0)).unwrap();
        for (pid, ppid, cmd, fd0) in chain {
            let d = dir.join(pid.to_string());
            std::fs::create_dir_all(d.join("fd")).unwrap();
            std::fs::write(d.join("stat"), format!("{pid} (p) S {ppid} 1")).unwrap();
            std::fs::write(d.join("cmdline"), cmd).unwrap();
            if let Some(t) = fd0 {
                std::os::unix::fs::symlink(t, d.join("fd").join("0")).unwrap();
            }
        }
    }

    #[test]
    fn ancestors_walk_up_to_the_agent_and_read_its_terminal() {
        let dir = std::env::temp_dir().join(format!("ah-ancestry-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        fake_proc(
            &dir,
            &[
                (30, 20, b"sh\0-c\0guard\0", Some("pipe:[1]")),
                (20, 10, b"claude\0-p\0hello\0", Some("/dev/pts/3")),
                (10, 1, b"bash\0", Some("/dev/pts/3")),
            ],
        );
        let chain = Proc::at(&dir).ancestors();
        assert_eq!(
            chain.iter().map(|p| p.pid).collect::<Vec<_>>(),
            vec![30, 20, 10]
        );
        assert_eq!(chain[0].tty, Some(false));
        let agent = find_agent(&chain, Provider::ClaudeCode).unwrap();
        assert_eq!(agent.pid, 20);
        assert_eq!(agent.argv, argv(&["claude", "-p", "hello"]));
        assert_eq!(agent.tty, Some(true));
        assert_eq!(Proc::at(&dir).stdin_tty(20), Some(true));
        assert_eq!(Proc::at(&dir).stdin_tty(30), Some(false));
        assert_eq!(Proc::at(&dir).stdin_tty(77), None);
        assert!(find_agent(&chain, Provider::Gemini).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_missing_proc_gives_an_empty_chain() {
        assert!(Proc::at("/nonexistent-proc-root").ancestors().is_empty());
    }

    #[test]
    fn the_real_chain_is_readable_here() {
        // The test runner has a parent (cargo or a shell) on Linux.
        if cfg!(target_os = "linux") {
            let chain = ancestors();
            assert!(!chain.is_empty());
            assert!(!chain[0].argv.is_empty());
        }
    }
}
