//! Session mode: is there a person who can answer a permission prompt?
//!
//! `ask` only means something when someone is at the agent's prompt.
//! Headless runs (`claude -p`, `codex exec`, `gemini -p`, `copilot -p`,
//! `kimi -p`, `cursor-agent -p`, `opencode run`, CI jobs) cannot answer one:
//! Gemini hangs until killed, OpenClaw and Copilot deny at once, OpenCode
//! rejects. The mode is derived per agent from what a hook process can
//! observe, in the order of one table ([`signals`]): variables the agent
//! sets for hooks, payload facts, the agent's argv (its headless flags and
//! subcommands, found in the hook's ancestor chain, `crate::ancestry`), CI
//! variables, and last whether the agent runs on a terminal with no
//! headless flag. The first signal that answers decides, and is reported
//! (`mode_signal`); when none does the mode stays unknown.
//!
//! The observation is injectable ([`Observation`]): tests and the shared
//! vectors give the environment and the ancestors' argv instead of the
//! live ones (`--observed=<json>` in a hook's argv). Reading the live one
//! costs a walk of `/proc`, so the runtime only does it when a decision
//! needs the mode (an `ask`).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::ancestry::{self, Process};
use crate::error::Error;
pub use crate::model::SessionMode;
use crate::model::{Event, Provider};

/// One ancestor as observed: its argv and its terminals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ancestor {
    /// Its argv.
    pub argv: Vec<String>,
    /// Whether any of its fds 0-2 is a terminal (`None`: unreadable).
    pub tty: Option<bool>,
    /// Whether its stdin is a terminal (`None`: unreadable).
    pub stdin_tty: Option<bool>,
}

/// What a hook process observes of its session: environment variables and
/// the ancestor chain (nearest first).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Observation {
    /// The environment (only the variables read by [`signals`] matter).
    pub env: BTreeMap<String, String>,
    /// The ancestors, nearest first.
    pub ancestors: Vec<Ancestor>,
}

/// Bounds on an injected observation (`--observed`): it comes from argv.
const MAX_OBSERVED_ANCESTORS: usize = ancestry::MAX_DEPTH;
const MAX_OBSERVED_ARGS: usize = 256;

impl Observation {
    /// The live observation: this process's environment (the variables
    /// the table reads) and its ancestors from `/proc`.
    pub fn live() -> Observation {
        Observation::from_proc(&ancestry::Proc::default(), &|k| std::env::var(k).ok())
    }

    /// The observation from a `/proc` tree and an environment lookup.
    pub fn from_proc(proc_: &ancestry::Proc, env: &dyn Fn(&str) -> Option<String>) -> Observation {
        let mut vars = BTreeMap::new();
        for name in env_names() {
            if let Some(v) = env(name) {
                vars.insert(name.to_string(), v);
            }
        }
        let ancestors = proc_
            .ancestors()
            .into_iter()
            .map(|p: Process| Ancestor {
                stdin_tty: proc_.stdin_tty(p.pid),
                argv: p.argv,
                tty: p.tty,
            })
            .collect();
        Observation {
            env: vars,
            ancestors,
        }
    }

    /// Parses an injected observation:
    /// `{"env": {"K": "V"}, "ancestors": [["claude", "-p"], {"argv": [...], "tty": true, "stdin_tty": false}]}`
    /// (both keys optional; an ancestor given as a bare argv has unknown
    /// terminals). Anything else is `invalid_argument`.
    pub fn from_json(text: &str) -> Result<Observation, Error> {
        let bad = |m: &str| Error::InvalidArgument {
            message: format!("--observed: {m}"),
        };
        let v: Value = crate::json::parse_value(text).map_err(|_| bad("not JSON"))?;
        let Value::Object(map) = v else {
            return Err(bad("expected an object"));
        };
        let mut out = Observation::default();
        for (k, v) in map {
            match (k.as_str(), v) {
                ("env", Value::Object(env)) => {
                    for (name, value) in env {
                        let Value::String(s) = value else {
                            return Err(bad("env values must be strings"));
                        };
                        out.env.insert(name, s);
                    }
                }
                ("ancestors", Value::Array(list)) => {
                    if list.len() > MAX_OBSERVED_ANCESTORS {
                        return Err(bad("too many ancestors"));
                    }
                    for a in list {
                        out.ancestors
                            .push(ancestor_from_json(a).map_err(|m| bad(&m))?);
                    }
                }
                (other, _) => {
                    return Err(bad(&format!(
                        "unexpected `{other}` (expected env: object, ancestors: array)"
                    )));
                }
            }
        }
        Ok(out)
    }

    fn var(&self, name: &str) -> Option<&str> {
        self.env.get(name).map(String::as_str)
    }
}

fn strings(v: Vec<Value>) -> Result<Vec<String>, String> {
    if v.len() > MAX_OBSERVED_ARGS {
        return Err("an argv is too long".into());
    }
    v.into_iter()
        .map(|a| match a {
            Value::String(s) => Ok(s),
            _ => Err("argv items must be strings".to_string()),
        })
        .collect()
}

fn ancestor_from_json(a: Value) -> Result<Ancestor, String> {
    match a {
        Value::Array(argv) => Ok(Ancestor {
            argv: strings(argv)?,
            ..Ancestor::default()
        }),
        Value::Object(m) => {
            let mut out = Ancestor::default();
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("argv", Value::Array(argv)) => out.argv = strings(argv)?,
                    ("tty", Value::Bool(b)) => out.tty = Some(b),
                    ("stdin_tty", Value::Bool(b)) => out.stdin_tty = Some(b),
                    (other, _) => {
                        return Err(format!(
                            "ancestor: unexpected `{other}` (expected argv: array, tty / stdin_tty: bool)"
                        ));
                    }
                }
            }
            Ok(out)
        }
        _ => Err("an ancestor is an argv array or an object".into()),
    }
}

/// One way to tell the mode, in a per-agent ordered list ([`signals`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// A variable the agent sets for its hooks: these values mean
    /// headless, those interactive (any other value says nothing).
    Env {
        /// The variable.
        name: &'static str,
        /// Values that mean headless.
        headless: &'static [&'static str],
        /// Values that mean interactive.
        interactive: &'static [&'static str],
    },
    /// The event's variant (read from the payload): these variants mean
    /// headless, those interactive.
    Variant {
        /// Variants that mean headless.
        headless: &'static [&'static str],
        /// Variants that mean interactive.
        interactive: &'static [&'static str],
    },
    /// Options in the agent's argv that make the run headless (`-p`,
    /// `--print`; `--opt=value` counts too).
    Flags(&'static [&'static str]),
    /// Subcommands (the first argument that is not an option) that run
    /// headless (`codex exec`, `opencode run`).
    Subcommands(&'static [&'static str]),
    /// A prompt given as a positional argument runs headless (Gemini CLI):
    /// any argument that is neither an option nor the value of one of the
    /// listed value-taking options (unknown options with a value read as
    /// a prompt: the safe direction).
    PositionalPrompt {
        /// Options that take a value in the next argument.
        valued: &'static [&'static str],
    },
    /// The agent's stdin is not a terminal: it reads the prompt from it
    /// and runs headless (Gemini CLI).
    StdinNotTty,
    /// Options that force an interactive session (`gemini -i`).
    InteractiveFlags(&'static [&'static str]),
    /// CI variables ([`CI_VARS`]) mean headless.
    Ci,
    /// The agent was found among the ancestors, no earlier signal said
    /// headless and it has a terminal: interactive.
    AgentOnTerminal,
}

/// CI variables, each with the values that mean "in CI" (empty: any
/// non-empty value other than `false` / `0`).
pub const CI_VARS: &[&str] = &[
    "CI",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "BUILDKITE",
    "CIRCLECI",
    "JENKINS_URL",
    "TF_BUILD",
    "TEAMCITY_VERSION",
    "CODEBUILD_BUILD_ID",
];

const GEMINI_VALUED: &[&str] = &[
    "-m",
    "--model",
    "-p",
    "--prompt",
    "-i",
    "--prompt-interactive",
    "--approval-mode",
    "--allowed-mcp-server-names",
    "--allowed-tools",
    "-e",
    "--extensions",
    "--include-directories",
    "-o",
    "--output-format",
    "-r",
    "--resume",
    "--proxy",
    "--telemetry-target",
    "--telemetry-otlp-endpoint",
    "--telemetry-outfile",
    "--policy",
];

/// The agent's signals, in the order they are tried: THE table.
pub fn signals(agent: Provider) -> &'static [Signal] {
    use Signal::*;
    match agent {
        // Observed 2.1.328: SESSION_ATTENDED 1/0 and ENTRYPOINT cli/sdk-cli
        // tracked the mode in every run, also -p inside a terminal.
        Provider::ClaudeCode => &[
            Env {
                name: "CLAUDE_CODE_SESSION_ATTENDED",
                headless: &["0"],
                interactive: &["1"],
            },
            Env {
                name: "CLAUDE_CODE_ENTRYPOINT",
                headless: &["sdk-cli"],
                interactive: &["cli"],
            },
            Flags(&["-p", "--print"]),
            Ci,
            AgentOnTerminal,
        ],
        Provider::Codex => &[Subcommands(&["exec", "e"]), Ci, AgentOnTerminal],
        // Observed 0.61.0: no variable or payload field differs; the
        // parent's argv is the signal, and a terminal is not proof.
        Provider::Gemini => &[
            InteractiveFlags(&["-i", "--prompt-interactive"]),
            Flags(&["-p", "--prompt"]),
            PositionalPrompt {
                valued: GEMINI_VALUED,
            },
            StdinNotTty,
            Ci,
            AgentOnTerminal,
        ],
        Provider::Copilot => &[Flags(&["-p", "--prompt"]), Ci, AgentOnTerminal],
        Provider::KimiCode => &[Flags(&["-p", "--print"]), Ci, AgentOnTerminal],
        // Cloud (background) agents have nobody at a prompt; the IDE has.
        Provider::Cursor => &[
            Variant {
                headless: &["cloud"],
                interactive: &["ide"],
            },
            Flags(&["-p", "--print"]),
            Ci,
            AgentOnTerminal,
        ],
        // A command plugin's program is a child of `opencode`; in-process
        // the plugin runs inside it and no ancestor is the agent.
        Provider::Opencode => &[Subcommands(&["run"]), Ci],
        // In-process (the plugin runs inside OpenClaw): `openclaw agent`
        // is a one-shot CLI run when a command plugin sees it.
        Provider::Openclaw => &[Subcommands(&["agent"]), Ci],
    }
}

/// Every environment variable the table reads.
pub fn env_names() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = CI_VARS.to_vec();
    for p in Provider::ALL {
        for s in signals(p) {
            if let Signal::Env { name, .. } = s {
                out.push(name);
            }
        }
    }
    out
}

/// A signal in words, for `agenthooks capabilities` and the docs.
pub fn describe_signal(s: &Signal) -> String {
    match s {
        Signal::Env {
            name,
            headless,
            interactive,
        } => format!(
            "env {name} ({} headless, {} interactive)",
            headless.join("/"),
            interactive.join("/")
        ),
        Signal::Variant {
            headless,
            interactive,
        } => format!(
            "variant ({} headless, {} interactive)",
            headless.join("/"),
            interactive.join("/")
        ),
        Signal::Flags(f) => format!("argv {} (headless)", f.join("/")),
        Signal::Subcommands(c) => format!("argv subcommand {} (headless)", c.join("/")),
        Signal::PositionalPrompt { .. } => "argv positional prompt (headless)".into(),
        Signal::StdinNotTty => "stdin not a terminal (headless)".into(),
        Signal::InteractiveFlags(f) => format!("argv {} (interactive)", f.join("/")),
        Signal::Ci => "CI variables (headless)".into(),
        Signal::AgentOnTerminal => "agent on a terminal, no headless flag (interactive)".into(),
    }
}

/// What the agent itself does with an `ask` when nobody is there
/// (observed, the quirk that pins it).
pub fn headless_ask_native(agent: Provider) -> &'static str {
    match agent {
        Provider::ClaudeCode => {
            "-p: a PreToolUse ask acts as a deny (the model gets the bare reason) and skips PermissionRequest hooks (claude-code/14)"
        }
        Provider::Codex => {
            "no hook can ask (ask is always degraded); exec never fires PermissionRequest (codex/18)"
        }
        Provider::Gemini => "-p: a BeforeTool ask hangs the CLI until it is killed (gemini/6)",
        Provider::Copilot => {
            "-p: a preToolUse ask is a deny (copilot/20); agenthooks never sends it (ask is degraded)"
        }
        Provider::KimiCode => {
            "no hook can ask (ask is always degraded); print mode auto-approves tools"
        }
        Provider::Cursor => "ask only on builds before 2.4.21; headless runs not observed",
        Provider::Opencode => "opencode run auto-rejects every permission ask (opencode/7)",
        Provider::Openclaw => {
            "requireApproval is an immediate deny in non-interactive CLI runs (openclaw/17)"
        }
    }
}

/// What agenthooks does with an `ask` per session mode, for the agent.
pub fn headless_ask_ours(agent: Provider) -> &'static str {
    match agent {
        Provider::Gemini => {
            "interactive: the native ask; unknown: ask_fallback (deny); headless: headless_ask (deny), never the native ask"
        }
        _ => {
            "headless: headless_ask (deny with the reason; no_decision or native on request); interactive and unknown: ask as the agent can express it"
        }
    }
}

/// The session-mode table as Markdown (part of `agenthooks capabilities
/// --table` and docs/support-matrix.md): per agent, the signals in order,
/// what a headless `ask` does natively and what agenthooks does.
pub fn markdown() -> String {
    let mut out = String::from(
        "| agent | session-mode signals, in order | a headless `ask`, natively | agenthooks |\n|---|---|---|---|\n",
    );
    for p in Provider::ALL {
        let sigs: Vec<String> = signals(p).iter().map(describe_signal).collect();
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            p.display_name(),
            sigs.join("; "),
            headless_ask_native(p),
            headless_ask_ours(p)
        ));
    }
    out
}

/// The session-mode table as JSON (`agenthooks capabilities --modes`).
pub fn table_json() -> Value {
    Value::Object(
        Provider::ALL
            .iter()
            .map(|p| {
                let sigs: Vec<Value> = signals(*p)
                    .iter()
                    .map(|s| Value::String(describe_signal(s)))
                    .collect();
                (
                    p.id().to_string(),
                    serde_json::json!({
                        "signals": sigs,
                        "headless_ask_native": headless_ask_native(*p),
                        "agenthooks": headless_ask_ours(*p),
                    }),
                )
            })
            .collect(),
    )
}

fn flag_in(argv: &[String], flags: &[&str]) -> Option<String> {
    argv.iter().skip(1).find_map(|a| {
        let key = a.split_once('=').map_or(a.as_str(), |(k, _)| k);
        flags.iter().find(|f| **f == key).map(|f| (*f).to_string())
    })
}

/// The agent's own arguments: after the interpreter and the script when
/// an interpreter runs it (`node …/gemini.js -p x` → `-p x`).
fn agent_args(argv: &[String], agent: Provider) -> Vec<String> {
    let own = argv
        .first()
        .is_some_and(|a0| ancestry::is_agent(std::slice::from_ref(a0), agent));
    if own {
        return argv.to_vec();
    }
    // Interpreter: skip to the script (the first non-option argument).
    match argv.iter().skip(1).position(|a| !a.starts_with('-')) {
        Some(i) => argv[i.saturating_add(1)..].to_vec(),
        None => argv.to_vec(),
    }
}

fn ci(obs: &Observation) -> Option<String> {
    CI_VARS.iter().find_map(|name| {
        let v = obs.var(name)?.trim();
        let off = v.is_empty() || v.eq_ignore_ascii_case("false") || v == "0";
        (!off).then(|| format!("ci:{name}={v}"))
    })
}

/// Decides the mode of `event`'s session from an observation, by the
/// agent's table.
pub fn decide(event: &Event, obs: &Observation) -> SessionMode {
    let agent = event.provider;
    let found = obs
        .ancestors
        .iter()
        .find(|a| ancestry::is_agent(&a.argv, agent));
    // The agent's args with its program first (argv[0] = the script).
    let args = found.map(|a| agent_args(&a.argv, agent));
    for s in signals(agent) {
        let hit = match s {
            Signal::Env {
                name,
                headless,
                interactive,
            } => obs.var(name).and_then(|v| {
                let sig = format!("env:{name}={v}");
                if headless.contains(&v) {
                    Some(SessionMode::known(false, sig))
                } else if interactive.contains(&v) {
                    Some(SessionMode::known(true, sig))
                } else {
                    None
                }
            }),
            Signal::Variant {
                headless,
                interactive,
            } => {
                let v = event.variant.as_str();
                let sig = || format!("payload:variant={v}");
                if headless.contains(&v) {
                    Some(SessionMode::known(false, sig()))
                } else if interactive.contains(&v) {
                    Some(SessionMode::known(true, sig()))
                } else {
                    None
                }
            }
            Signal::Flags(flags) => args
                .as_deref()
                .and_then(|a| flag_in(a, flags))
                .map(|f| SessionMode::known(false, format!("argv:{f}"))),
            Signal::InteractiveFlags(flags) => args
                .as_deref()
                .and_then(|a| flag_in(a, flags))
                .map(|f| SessionMode::known(true, format!("argv:{f}"))),
            Signal::Subcommands(cmds) => args
                .as_deref()
                .and_then(|a| a.iter().skip(1).find(|x| !x.starts_with('-')))
                .filter(|x| cmds.contains(&x.as_str()))
                .map(|x| SessionMode::known(false, format!("argv:{x}"))),
            Signal::PositionalPrompt { valued } => args.as_deref().and_then(|a| {
                let mut it = a.iter().skip(1);
                while let Some(x) = it.next() {
                    if x == "--" {
                        return it
                            .next()
                            .map(|_| SessionMode::known(false, "argv:positional prompt".into()));
                    }
                    if x.starts_with('-') {
                        if !x.contains('=') && valued.contains(&x.as_str()) {
                            it.next();
                        }
                        continue;
                    }
                    return Some(SessionMode::known(false, "argv:positional prompt".into()));
                }
                None
            }),
            Signal::StdinNotTty => found
                .filter(|a| a.stdin_tty == Some(false))
                .map(|_| SessionMode::known(false, "tty:stdin is not a terminal".into())),
            Signal::Ci => ci(obs).map(|sig| SessionMode::known(false, sig)),
            Signal::AgentOnTerminal => found
                .filter(|a| a.tty == Some(true))
                .map(|_| SessionMode::known(true, "argv:no headless flag, terminal".into())),
        };
        if let Some(m) = hit {
            return m;
        }
    }
    SessionMode::UNKNOWN
}

/// This process's live observation, read once (the environment and
/// `/proc`) on first use and shared by every later caller: the `ask` path
/// and handlers asking for the mode see the same one.
pub fn live_observation() -> &'static Observation {
    static LIVE: std::sync::OnceLock<Observation> = std::sync::OnceLock::new();
    LIVE.get_or_init(Observation::live)
}

/// The mode of `event`'s session as this process observes it (the
/// environment and `/proc`, read once per process: [`live_observation`]).
pub fn observe(event: &Event) -> SessionMode {
    decide(event, live_observation())
}

/// The mode of `event`'s session for a handler: the mode the event
/// carries when it carries one (the runtime records an injected
/// `--observed` one on the event), else decided from `observed`, else
/// from this process's live observation (read on first need only).
pub fn observe_for(event: &Event, observed: Option<&Observation>) -> SessionMode {
    if event.interactive.is_some() || event.mode_decided {
        return event.mode();
    }
    match observed {
        Some(o) => decide(event, o),
        None => observe(event),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Kind;

    fn ev(p: Provider) -> Event {
        Event::new(p, "PreToolUse", Kind::ToolPre)
    }

    fn obs(env: &[(&str, &str)], chain: &[(&[&str], Option<bool>, Option<bool>)]) -> Observation {
        Observation {
            env: env
                .iter()
                .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                .collect(),
            ancestors: chain
                .iter()
                .map(|(a, tty, stdin)| Ancestor {
                    argv: a.iter().map(|s| (*s).to_string()).collect(),
                    tty: *tty,
                    stdin_tty: *stdin,
                })
                .collect(),
        }
    }

    fn m(i: Option<bool>, s: Option<&str>) -> SessionMode {
        SessionMode {
            interactive: i,
            signal: s.map(str::to_string),
        }
    }

    #[test]
    fn observe_for_prefers_the_carried_mode_then_the_injected_observation() {
        let headless = obs(&[], &[(&["claude", "-p", "x"], Some(true), None)]);
        let e = ev(Provider::ClaudeCode);
        assert_eq!(
            observe_for(&e, Some(&headless)),
            m(Some(false), Some("argv:-p"))
        );
        let mut carried = ev(Provider::ClaudeCode);
        carried.set_mode(&SessionMode::known(true, "env:X=1".into()));
        assert_eq!(
            observe_for(&carried, Some(&headless)),
            m(Some(true), Some("env:X=1"))
        );
        // The event's own method reads the carried mode without /proc.
        assert_eq!(carried.session_mode(), m(Some(true), Some("env:X=1")));
        // An injected observation that decides "unknown" stays unknown: the
        // live environment (a CI runner's CI=true) is not consulted.
        let mut undecided = ev(Provider::ClaudeCode);
        undecided.set_mode(&decide(&undecided, &obs(&[], &[(&["sh"], None, None)])));
        assert_eq!(undecided.session_mode(), m(None, None));
        assert_eq!(observe_for(&undecided, None), m(None, None));
        // The live observation is read once and shared.
        assert!(std::ptr::eq(live_observation(), live_observation()));
    }

    #[test]
    fn claude_env_wins_over_argv() {
        let o = obs(
            &[("CLAUDE_CODE_SESSION_ATTENDED", "1")],
            &[
                (&["sh", "-c", "g"], None, None),
                (&["claude", "-p", "x"], Some(true), None),
            ],
        );
        assert_eq!(
            decide(&ev(Provider::ClaudeCode), &o),
            m(Some(true), Some("env:CLAUDE_CODE_SESSION_ATTENDED=1"))
        );
        let o = obs(&[], &[(&["claude", "--print", "x"], Some(true), None)]);
        assert_eq!(
            decide(&ev(Provider::ClaudeCode), &o),
            m(Some(false), Some("argv:--print"))
        );
        let o = obs(&[("CLAUDE_CODE_ENTRYPOINT", "claude-vscode")], &[]);
        assert_eq!(decide(&ev(Provider::ClaudeCode), &o), SessionMode::UNKNOWN);
    }

    #[test]
    fn gemini_reads_argv_positional_and_stdin() {
        let g = |a: &[&str], tty, stdin| {
            let mut argv = vec!["node", "/x/@google/gemini-cli/bundle/gemini.js"];
            argv.extend_from_slice(a);
            decide(&ev(Provider::Gemini), &obs(&[], &[(&argv[..], tty, stdin)]))
        };
        assert_eq!(
            g(&["--yolo", "-p", "hi"], Some(true), Some(true)),
            m(Some(false), Some("argv:-p"))
        );
        assert_eq!(
            g(&["--prompt=hi"], Some(true), Some(true)),
            m(Some(false), Some("argv:--prompt"))
        );
        assert_eq!(
            g(&["-m", "flash", "do it"], Some(true), Some(true)),
            m(Some(false), Some("argv:positional prompt"))
        );
        assert_eq!(
            g(&["-m", "flash", "--yolo"], Some(true), Some(false)),
            m(Some(false), Some("tty:stdin is not a terminal"))
        );
        assert_eq!(
            g(&["-m", "flash", "--yolo"], Some(true), Some(true)),
            m(Some(true), Some("argv:no headless flag, terminal"))
        );
        assert_eq!(
            g(&["-i", "start here"], Some(true), Some(true)),
            m(Some(true), Some("argv:-i"))
        );
        // No terminal facts and no flag: unknown, never interactive.
        assert_eq!(g(&["--yolo"], None, None), SessionMode::UNKNOWN);
        // Not found at all.
        assert_eq!(
            decide(
                &ev(Provider::Gemini),
                &obs(&[], &[(&["bash"], Some(true), None)])
            ),
            SessionMode::UNKNOWN
        );
    }

    #[test]
    fn subcommands_ci_and_variant() {
        let o = obs(&[], &[(&["codex", "exec", "x"], Some(true), None)]);
        assert_eq!(
            decide(&ev(Provider::Codex), &o),
            m(Some(false), Some("argv:exec"))
        );
        let o = obs(&[("CI", "false"), ("GITHUB_ACTIONS", "true")], &[]);
        assert_eq!(
            decide(&ev(Provider::Copilot), &o),
            m(Some(false), Some("ci:GITHUB_ACTIONS=true"))
        );
        let mut e = ev(Provider::Cursor);
        e.variant = "cloud".into();
        assert_eq!(
            decide(&e, &Observation::default()),
            m(Some(false), Some("payload:variant=cloud"))
        );
        assert_eq!(
            decide(
                &ev(Provider::Opencode),
                &obs(&[], &[(&["opencode"], Some(true), None)])
            ),
            SessionMode::UNKNOWN
        );
    }

    #[test]
    fn every_agent_has_a_row_in_the_capability_table() {
        let t = table_json();
        for p in Provider::ALL {
            let row = &t[p.id()];
            assert!(!row["signals"].as_array().unwrap().is_empty(), "{p:?}");
            assert!(
                row["headless_ask_native"]
                    .as_str()
                    .is_some_and(|s| !s.is_empty())
            );
        }
        assert!(markdown().contains(
            "| Gemini CLI | argv -i/--prompt-interactive (interactive); argv -p/--prompt (headless)"
        ));
        assert!(env_names().contains(&"CLAUDE_CODE_SESSION_ATTENDED"));
    }

    #[test]
    fn injected_observation_parses_strictly() {
        let o = Observation::from_json(
            r#"{"env":{"CI":"1"},"ancestors":[["sh","-c","x"],{"argv":["kimi","-p","y"],"tty":false}]}"#,
        )
        .unwrap();
        assert_eq!(o.env.get("CI").map(String::as_str), Some("1"));
        assert_eq!(o.ancestors[1].tty, Some(false));
        for bad in [
            "[]",
            "{\"env\":{\"A\":1}}",
            "{\"ancestors\":[1]}",
            "{\"x\":1}",
            "{\"ancestors\":[{\"argv\":[\"a\"],\"pid\":3}]}",
            "nope",
        ] {
            assert!(Observation::from_json(bad).is_err(), "{bad}");
        }
    }
}
