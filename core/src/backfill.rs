//! Backfill of the prompt event an agent mode skips.
//!
//! Some modes fire no prompt event at all: Cursor's CLI in print mode
//! (`cursor-agent -p "..."`, `agent --print`) fires `sessionStart`, the tool
//! events and `sessionEnd`, but never `beforeSubmitPrompt`
//! (`docs/agents/cursor.md`). There the prompt is still readable from the
//! agent's own argv, an ancestor of the hook process ([`crate::ancestry`]).
//! For observers (reporting-only by construction) the runtime then
//! synthesizes one `prompt.submitted`:
//!
//! - marked `backfilled: true`, with `raw` = `null` (the agent sent no
//!   payload), no capabilities (observers only: the dispatch runs no
//!   handler or middleware on it, see [`crate::dispatch`]), and the real
//!   event's session facts;
//! - delivered before the real event, in the same hook process and within
//!   its deadline; whatever happens there never changes the wire answer,
//!   which is the real event's only;
//! - exactly once per session: the first hook process of a session to
//!   create the session's marker in the `backfill` state directory
//!   delivers it ([`claim`]); a real prompt event of the session creates
//!   the marker too, so a mode that does fire its prompt event is never
//!   backfilled after it;
//! - only for the modes in [`skips_prompt`]: every other agent's headless
//!   mode fires its prompt event (observed: `claude -p`, `codex exec`,
//!   `gemini -p`, `kimi -p`, `copilot -p`), so nothing is synthesized there
//!   and `/proc` is not even read.
//!
//! Cost: nothing unless an observer is registered (the drivers ask first);
//! then, for an agent in [`skips_prompt`], one walk of the ancestor chain
//! (at most [`crate::ancestry::MAX_DEPTH`] small reads) and one exclusive
//! create per session.

use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::ancestry::{Process, find_agent};
use crate::model::{Event, Kind, Provider};
use crate::state::StateDir;

/// The state subdirectory of the per-session markers.
pub const SUBDIR: &str = "backfill";
/// Markers older than this are swept (a session does not last a week).
pub const TTL: Duration = Duration::from_secs(7 * 24 * 3600);

/// The headless prompt in an agent's argv: its value option or its
/// positional argument, per agent. `None` when the argv holds no prompt
/// (an interactive run, a prompt read from stdin with `-`).
pub fn prompt_from_argv(agent: Provider, argv: &[String]) -> Option<String> {
    let args = args_after_program(agent, argv);
    let found = match agent {
        // `claude -p "prompt"`: `-p` is a switch, the prompt positional.
        Provider::ClaudeCode => headless(args, &["-p", "--print"]).then(|| {
            positional(
                args,
                &[
                    "--model",
                    "--output-format",
                    "--input-format",
                    "--allowedTools",
                    "--allowed-tools",
                    "--disallowedTools",
                    "--disallowed-tools",
                    "--permission-mode",
                    "--mcp-config",
                    "--settings",
                    "--add-dir",
                    "--append-system-prompt",
                    "--system-prompt",
                    "--max-turns",
                    "--resume",
                    "-r",
                    "--session-id",
                    "--fallback-model",
                    "--agents",
                    "--setting-sources",
                    "--permission-prompt-tool",
                ],
            )
        })?,
        // `cursor-agent -p "prompt"` / `agent --print "prompt"`.
        Provider::Cursor => headless(args, &["-p", "--print"]).then(|| {
            positional(
                args,
                &[
                    "--output-format",
                    "--model",
                    "-m",
                    "--api-key",
                    "--resume",
                    "--workspace",
                    "-H",
                    "--header",
                ],
            )
        })?,
        // `codex exec [options] "prompt"` (`-` reads stdin).
        Provider::Codex => {
            let sub = args.iter().position(|a| a == "exec" || a == "e")?;
            positional(
                &args[sub.checked_add(1)?..],
                &[
                    "-m",
                    "--model",
                    "-c",
                    "--config",
                    "-C",
                    "--cd",
                    "-s",
                    "--sandbox",
                    "-p",
                    "--profile",
                    "-o",
                    "--output-last-message",
                    "--output-schema",
                    "-i",
                    "--image",
                    "--color",
                    "--add-dir",
                ],
            )
        }
        // `gemini -p "prompt"`, `copilot -p "prompt"`, `kimi -p "prompt"`
        // (kimi also `--print` with `-p`/`--prompt`).
        Provider::Gemini | Provider::Copilot | Provider::KimiCode => {
            option_value(args, &["-p", "--prompt"])
        }
        Provider::Opencode | Provider::Openclaw => None,
    };
    found.filter(|p| !p.trim().is_empty() && p != "-")
}

/// Whether this run of the agent (its argv) is a mode that fires no prompt
/// event: Cursor's print mode. See the module docs for the others.
pub fn skips_prompt(agent: Provider, argv: &[String]) -> bool {
    match agent {
        Provider::Cursor => headless(args_after_program(agent, argv), &["-p", "--print"]),
        _ => false,
    }
}

/// Whether any mode of the agent may skip its prompt event (the drivers
/// read `/proc` only for these).
pub fn may_skip_prompt(agent: Provider) -> bool {
    matches!(agent, Provider::Cursor)
}

/// The arguments after the program (and after the script of an
/// interpreter that runs the agent: `node …/index.js -p x`).
fn args_after_program(agent: Provider, argv: &[String]) -> &[String] {
    let Some(first) = argv.first() else {
        return argv;
    };
    if crate::ancestry::is_agent(std::slice::from_ref(first), agent) {
        return &argv[1..];
    }
    // An interpreter: skip its flags and the script.
    let script = argv
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, a)| !a.starts_with('-'))
        .map(|(i, _)| i);
    match script {
        Some(i) => &argv[i.saturating_add(1)..],
        None => &argv[argv.len()..],
    }
}

fn headless(args: &[String], switches: &[&str]) -> bool {
    args.iter()
        .take_while(|a| *a != "--")
        .any(|a| switches.contains(&a.as_str()))
}

/// The value of the first of `names` (`-p X`, `--prompt X`, `--prompt=X`).
fn option_value(args: &[String], names: &[&str]) -> Option<String> {
    let mut it = args.iter().take_while(|a| *a != "--");
    while let Some(a) = it.next() {
        if names.contains(&a.as_str()) {
            return it.next().cloned();
        }
        if let Some((k, v)) = a.split_once('=') {
            if names.contains(&k) {
                return Some(v.to_string());
            }
        }
    }
    None
}

/// The first positional argument, skipping the values of `value_opts`
/// (the first argument after `--` counts as positional).
fn positional(args: &[String], value_opts: &[&str]) -> Option<String> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--" {
            return it.next().cloned();
        }
        if a.starts_with('-') && a.len() > 1 {
            if value_opts.contains(&a.as_str()) {
                it.next();
            }
            continue;
        }
        return Some(a.clone());
    }
    None
}

/// The native name a backfilled prompt event carries: the agent's own
/// prompt event.
fn prompt_event_name(agent: Provider) -> String {
    crate::dialect::native_events(agent)
        .iter()
        .find(|n| crate::dialect::kind_of(agent, n) == Kind::PromptSubmitted)
        .map(|n| (*n).to_string())
        .unwrap_or_else(|| "prompt.submitted".into())
}

/// The backfilled event for `event`'s session with `prompt`: the real
/// event's session facts, `backfilled`, no raw payload.
pub fn event_with_prompt(event: &Event, prompt: String) -> Event {
    let mut e = Event::new(
        event.provider,
        prompt_event_name(event.provider),
        Kind::PromptSubmitted,
    );
    e.variant = event.variant.clone();
    e.detection = event.detection;
    e.session = event.session.clone();
    e.prompt = Some(prompt);
    e.backfilled = true;
    e.raw = b"null".to_vec();
    e
}

/// The backfilled prompt event for `event`, from the ancestor chain, or
/// `None` (see the module docs: a prompt event itself, no session id, an
/// agent mode that fires its prompt event, no prompt in argv). Pure: the
/// once-per-session rule is [`claim`]'s.
pub fn synthesize(event: &Event, chain: &[Process]) -> Option<Event> {
    if event.kind == Kind::PromptSubmitted
        || event.backfilled
        || event.session.id.is_empty()
        || event.is_subagent()
        || !may_skip_prompt(event.provider)
    {
        return None;
    }
    let agent = find_agent(chain, event.provider)?;
    if !skips_prompt(event.provider, &agent.argv) {
        return None;
    }
    let prompt = prompt_from_argv(event.provider, &agent.argv)?;
    Some(event_with_prompt(event, prompt))
}

fn marker_name(event: &Event) -> String {
    let mut h = Sha256::new();
    h.update(event.provider.id().as_bytes());
    h.update([0]);
    h.update(event.session.id.as_bytes());
    let d = h.finalize();
    d.iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// Claims the session's prompt (real or backfilled) for this process:
/// `true` for the first claim of the session. A state error counts as
/// "not first" (a missed backfill beats a duplicate report).
pub fn claim(dir: &StateDir, event: &Event) -> bool {
    if event.session.id.is_empty() {
        return false;
    }
    match dir.create_new(&marker_name(event), b"") {
        Ok(true) => {
            dir.sweep_older_than(TTL);
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn each_agent_headless_prompt_is_recovered() {
        let cases: &[(Provider, &[&str], Option<&str>)] = &[
            (
                Provider::ClaudeCode,
                &[
                    "claude",
                    "--model",
                    "m",
                    "-p",
                    "fix it",
                    "--output-format",
                    "json",
                ],
                Some("fix it"),
            ),
            (Provider::ClaudeCode, &["claude", "fix it"], None),
            (
                Provider::Cursor,
                &["cursor-agent", "-p", "--output-format", "text", "find bugs"],
                Some("find bugs"),
            ),
            (
                Provider::Cursor,
                &["node", "/x/cursor-agent/index.js", "--print", "hi"],
                Some("hi"),
            ),
            (Provider::Cursor, &["cursor-agent"], None),
            (
                Provider::Codex,
                &["codex", "exec", "--skip-git-repo-check", "-o", "f", "do x"],
                Some("do x"),
            ),
            (Provider::Codex, &["codex", "exec", "-"], None),
            (Provider::Codex, &["codex"], None),
            (
                Provider::Gemini,
                &[
                    "node",
                    "/g/@google/gemini-cli/dist/index.js",
                    "--yolo",
                    "-p",
                    "q",
                ],
                Some("q"),
            ),
            (
                Provider::Copilot,
                &["copilot", "--prompt=hello"],
                Some("hello"),
            ),
            (
                Provider::KimiCode,
                &["kimi", "--print", "-p", "k"],
                Some("k"),
            ),
            (Provider::Opencode, &["opencode", "run", "x"], None),
        ];
        for (agent, a, want) in cases {
            assert_eq!(
                prompt_from_argv(*agent, &argv(a)).as_deref(),
                *want,
                "{agent:?} {a:?}"
            );
        }
    }

    fn chain(v: &[&[&str]]) -> Vec<Process> {
        v.iter()
            .enumerate()
            .map(|(i, a)| Process {
                pid: 100 + u32::try_from(i).unwrap(),
                argv: argv(a),
                truncated: false,
                tty: None,
            })
            .collect()
    }

    fn ev(p: Provider, native: &str, kind: Kind) -> Event {
        let mut e = Event::new(p, native, kind);
        e.session.id = "s1".into();
        e.session.cwd = "/w".into();
        e
    }

    #[test]
    fn only_modes_that_skip_the_prompt_are_backfilled() {
        let c = chain(&[&["sh", "-c", "hook"], &["cursor-agent", "-p", "add tests"]]);
        let e = ev(Provider::Cursor, "sessionStart", Kind::SessionStart);
        let b = synthesize(&e, &c).unwrap();
        assert!(b.backfilled);
        assert_eq!(b.kind, Kind::PromptSubmitted);
        assert_eq!(b.native_name, "beforeSubmitPrompt");
        assert_eq!(b.prompt.as_deref(), Some("add tests"));
        assert_eq!(b.session, e.session);
        assert_eq!(b.raw, b"null");
        assert!(b.to_json().contains("\"raw\":null"));
        // The real prompt event, an interactive run, no session: nothing.
        let p = ev(
            Provider::Cursor,
            "beforeSubmitPrompt",
            Kind::PromptSubmitted,
        );
        assert!(synthesize(&p, &c).is_none());
        assert!(synthesize(&e, &chain(&[&["cursor-agent"]])).is_none());
        let mut no_session = e.clone();
        no_session.session.id.clear();
        assert!(synthesize(&no_session, &c).is_none());
        // Claude's print mode fires UserPromptSubmit: never backfilled.
        let claude = chain(&[&["claude", "-p", "x"]]);
        let ce = ev(Provider::ClaudeCode, "SessionStart", Kind::SessionStart);
        assert!(synthesize(&ce, &claude).is_none());
    }

    #[test]
    fn claim_is_once_per_session() {
        let root = std::env::temp_dir().join(format!("ah-backfill-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = crate::state::root_at(&root)
            .unwrap()
            .subdir(SUBDIR)
            .unwrap();
        let e = ev(Provider::Cursor, "sessionStart", Kind::SessionStart);
        assert!(claim(&dir, &e));
        assert!(!claim(&dir, &e));
        let mut other = e.clone();
        other.session.id = "s2".into();
        assert!(claim(&dir, &other));
        let _ = std::fs::remove_dir_all(&root);
    }
}
