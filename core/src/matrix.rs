//! The support matrix: what a hook can do on each agent (block a tool,
//! ask, rewrite input, add context, …), derived from the capability rows
//! ([`crate::dialect::capability`]) and never maintained by hand.
//!
//! Each cell is ✓ (the agent does it on some event of that kind),
//! degraded (the decision becomes another one that still acts, e.g. `ask`
//! becomes `deny`), or ✗ (no such event, or it becomes no opinion / the
//! modifier is dropped). `docs/support-matrix.md` and `agenthooks
//! capabilities --table` print [`markdown`]; `core/tests/support_matrix.rs`
//! encodes every cell's decision through the real encoder and checks the
//! claim, and checks that the page is up to date.

use crate::capability::{Capability, fallback};
use crate::dialect::{capability, native_events};
use crate::model::{Decision, DecisionKind as D, Kind, Policy, Provider};

/// One thing a hook may want to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Action {
    /// Stable id (`block-tool`, `ask`, …).
    pub id: &'static str,
    /// What a reader calls it.
    pub title: &'static str,
    /// The event kind it happens on.
    pub kind: Kind,
    /// The decision kind (`None`: no opinion, carrying the modifier only).
    pub decision: Option<D>,
    /// The modifier the action needs, if any.
    pub modifier: Option<&'static str>,
}

impl Action {
    /// The decision a hook returns for this action (with the text fields
    /// the decision needs).
    pub fn decision(&self) -> Decision {
        let mut d = match self.decision {
            None | Some(D::NoDecision) => Decision::no_decision(),
            Some(D::Deny) => Decision::deny("matrix: blocked"),
            Some(D::Ask) => Decision::ask("matrix: please confirm"),
            Some(D::Allow) => Decision::allow(),
            Some(D::BlockPrompt) => Decision::block_prompt("matrix: prompt blocked"),
            Some(D::Continue) => Decision::continue_with("matrix: keep going"),
            Some(D::FlagOutput) => Decision::flag_output("matrix: output flagged"),
            Some(D::ReplaceOutput) => Decision::replace_output("matrix: replaced output"),
            Some(k) => {
                let mut d = Decision::no_decision();
                d.kind = k;
                d
            }
        };
        match self.modifier {
            Some("updated_input") => {
                let mut m = serde_json::Map::new();
                m.insert("command".into(), "echo matrix".into());
                d.updated_input = Some(m);
            }
            Some("context") => d.context = vec!["matrix: extra context".to_string()],
            Some("system_message") => d.system_message = Some("matrix: message".to_string()),
            _ => {}
        }
        d
    }

    fn decision_kind(&self) -> D {
        self.decision.unwrap_or(D::NoDecision)
    }
}

/// The actions of the matrix, in the order the page lists them.
pub const ACTIONS: &[Action] = &[
    Action {
        id: "block-tool",
        title: "Block a tool call",
        kind: Kind::ToolPre,
        decision: Some(D::Deny),
        modifier: None,
    },
    Action {
        id: "ask",
        title: "Ask the user first",
        kind: Kind::ToolPre,
        decision: Some(D::Ask),
        modifier: None,
    },
    Action {
        id: "allow",
        title: "Allow (skip the agent's prompt)",
        kind: Kind::ToolPre,
        decision: Some(D::Allow),
        modifier: None,
    },
    Action {
        id: "rewrite-input",
        title: "Rewrite the tool input",
        kind: Kind::ToolPre,
        decision: Some(D::Allow),
        modifier: Some("updated_input"),
    },
    Action {
        id: "answer-permission",
        title: "Deny in the permission dialog",
        kind: Kind::PermissionRequest,
        decision: Some(D::Deny),
        modifier: None,
    },
    Action {
        id: "flag-output",
        title: "Flag a tool's output",
        kind: Kind::ToolPost,
        decision: Some(D::FlagOutput),
        modifier: None,
    },
    Action {
        id: "replace-output",
        title: "Replace a tool's output",
        kind: Kind::ToolPost,
        decision: Some(D::ReplaceOutput),
        modifier: None,
    },
    Action {
        id: "tool-context",
        title: "Add context after a tool",
        kind: Kind::ToolPost,
        decision: None,
        modifier: Some("context"),
    },
    Action {
        id: "block-prompt",
        title: "Block a prompt",
        kind: Kind::PromptSubmitted,
        decision: Some(D::BlockPrompt),
        modifier: None,
    },
    Action {
        id: "prompt-context",
        title: "Add context to a prompt",
        kind: Kind::PromptSubmitted,
        decision: None,
        modifier: Some("context"),
    },
    Action {
        id: "session-context",
        title: "Add context at session start",
        kind: Kind::SessionStart,
        decision: None,
        modifier: Some("context"),
    },
    Action {
        id: "continue",
        title: "Continue when the agent stops",
        kind: Kind::AgentStop,
        decision: Some(D::Continue),
        modifier: None,
    },
];

/// How well an agent supports an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Not at all: no such event, or it becomes no opinion.
    No,
    /// The decision becomes this other one, which still acts.
    Degraded(D),
    /// Supported.
    Yes,
}

impl Support {
    fn rank(self) -> u8 {
        match self {
            Support::No => 0,
            Support::Degraded(_) => 1,
            Support::Yes => 2,
        }
    }
}

/// One cell: an agent and an action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// The agent.
    pub provider: Provider,
    /// The action.
    pub action: Action,
    /// How well.
    pub support: Support,
    /// The native events where this holds (empty: the agent has no event
    /// of the action's kind).
    pub events: Vec<&'static str>,
    /// What happens instead (for degraded and ✗ cells where the event
    /// exists).
    pub why: Option<String>,
}

/// How one capability row handles an action.
pub fn judge(action: &Action, cap: &Capability) -> (Support, Option<String>) {
    let want = action.decision_kind();
    let on = &cap.native_name;
    if !cap.decisions.contains(&want) {
        let policy = Policy::default();
        let to = fallback(&action.decision(), &policy, cap);
        if to.is_neutral() {
            return (
                Support::No,
                Some(format!("`{}` on {on} becomes no opinion", want.as_str())),
            );
        }
        let mut why = format!("`{}` on {on} becomes `{}`", want.as_str(), to.as_str());
        if matches!(want, D::Ask | D::Defer) {
            why.push_str(" (policy `ask_fallback = \"deny\"`, the default; with `\"no_decision\"` it becomes no opinion)");
        }
        if want == D::ReplaceOutput && to == D::FlagOutput {
            why.push_str(" carrying the replacement text as its reason");
        }
        return (Support::Degraded(to), Some(why));
    }
    if let Some((_, cond)) = cap.only_when.iter().find(|(d, _)| *d == want) {
        let mut without = cap.clone();
        without.decisions.retain(|d| *d != want);
        let to = fallback(&action.decision(), &Policy::default(), &without);
        let then = if to.is_neutral() {
            "no opinion".to_string()
        } else {
            format!("`{}`", to.as_str())
        };
        let support = if to.is_neutral() {
            Support::No
        } else {
            Support::Degraded(to)
        };
        return (
            support,
            Some(format!(
                "`{}` on {on} is honoured only when {cond}; otherwise it becomes {then}",
                want.as_str()
            )),
        );
    }
    if let Some(m) = action.modifier {
        if !cap.modifiers.contains(&m) {
            return (
                Support::No,
                Some(format!("`{m}` is dropped on {on} (the agent ignores it)")),
            );
        }
    }
    if let Some((_, needs)) = cap
        .only_with
        .iter()
        .find(|(d, m)| *d == want && Some(*m) != action.modifier)
    {
        return (
            Support::No,
            Some(format!(
                "a bare `{}` on {on} becomes no opinion (honoured only together with `{needs}`)",
                want.as_str()
            )),
        );
    }
    (Support::Yes, None)
}

/// The cell of one agent and one action: the best over the agent's
/// events of the action's kind.
pub fn cell(provider: Provider, action: &Action) -> Cell {
    let mut best: Option<(Support, Vec<&'static str>, Option<String>)> = None;
    for name in native_events(provider) {
        let cap = capability(provider, name);
        if cap.kind != action.kind {
            continue;
        }
        let (s, why) = judge(action, &cap);
        match &mut best {
            Some((b, evs, w)) if *b == s => {
                evs.push(name);
                if let Some(why) = why {
                    *w = Some(match w.take() {
                        Some(prev) => format!("{prev}; {why}"),
                        None => why,
                    });
                }
            }
            Some((b, _, _)) if b.rank() > s.rank() => {}
            _ => best = Some((s, vec![name], why)),
        }
    }
    let (support, events, why) = best.unwrap_or((Support::No, Vec::new(), None));
    Cell {
        provider,
        action: *action,
        support,
        events,
        why,
    }
}

/// Every cell, action by action, agents in [`Provider::ALL`] order.
pub fn matrix() -> Vec<Vec<Cell>> {
    ACTIONS
        .iter()
        .map(|a| Provider::ALL.iter().map(|p| cell(*p, a)).collect())
        .collect()
}

/// The matrix as a Markdown table with numbered footnotes (what
/// `docs/support-matrix.md` holds between its markers, and what
/// `agenthooks capabilities --table` prints).
pub fn markdown() -> String {
    let mut out = String::from("| action |");
    for p in Provider::ALL {
        out.push_str(&format!(" {} |", p.display_name()));
    }
    out.push_str("\n|---|");
    for _ in Provider::ALL {
        out.push_str(":-:|");
    }
    out.push('\n');
    let mut notes: Vec<String> = Vec::new();
    for row in matrix() {
        let Some(first) = row.first() else { continue };
        out.push_str(&format!("| {} |", first.action.title));
        for c in &row {
            let mark = match c.support {
                Support::Yes => "✓".to_string(),
                Support::Degraded(_) => "degraded".to_string(),
                Support::No => "✗".to_string(),
            };
            match &c.why {
                Some(why) => {
                    notes.push(format!(
                        "{}, {}: {why}.",
                        c.provider.display_name(),
                        c.action.title.to_lowercase()
                    ));
                    out.push_str(&format!(" {mark} ({}) |", notes.len()));
                }
                None => out.push_str(&format!(" {mark} |")),
            }
        }
        out.push('\n');
    }
    out.push('\n');
    for (i, n) in notes.iter().enumerate() {
        out.push_str(&format!("{}. {n}\n", i + 1));
    }
    out.push_str("\n### Session mode: `ask` when nobody can answer\n\n");
    out.push_str(
        "The core tells interactive from headless sessions per agent (`core/src/mode.rs`; the \
         first signal that answers decides, unknown stays unknown; the note names the signal). \
         A known headless session turns `ask` per the policy's `headless_ask`.\n\n",
    );
    out.push_str(&crate::mode::markdown());
    out
}
