//! Folding several decisions into one (the router semantics). Bindings call
//! these instead of re-implementing them.
//!
//! * Stacking / `any`: handlers run in order; neutral decisions fall through;
//!   the first conclusive one wins. Contexts of the neutrals before it are
//!   kept (in order) and a `stop_agent` from any of them is sticky.
//! * `all`: every decision is considered; the most restrictive wins
//!   (deny > defer > ask > allow > neutral; continue > finish;
//!   replace > flag > observed), ties to the earliest; contexts from all.

use crate::model::{Decision, DecisionKind};

/// Incremental first-conclusive-wins fold.
#[derive(Debug, Clone, Default)]
pub struct Fold {
    acc: Option<Decision>,
    winner: Option<Decision>,
}

impl Fold {
    /// An empty fold.
    pub fn new() -> Fold {
        Fold::default()
    }

    /// Adds the next handler's decision. Returns `true` when the fold is
    /// done (a conclusive decision arrived) and no further handler should run.
    pub fn push(&mut self, d: Decision) -> bool {
        if self.winner.is_some() {
            return true;
        }
        if d.kind.is_neutral() {
            self.acc = Some(match self.acc.take() {
                None => d,
                Some(acc) => absorb_neutral(acc, d),
            });
            false
        } else {
            let w = match self.acc.take() {
                None => d,
                Some(acc) => carry(acc, d),
            };
            self.winner = Some(w);
            true
        }
    }

    /// Whether a conclusive decision has arrived.
    pub fn is_done(&self) -> bool {
        self.winner.is_some()
    }

    /// The result: the winner, else the merged neutrals, else `no_decision`.
    pub fn finish(self) -> Decision {
        self.winner.or(self.acc).unwrap_or_default()
    }
}

/// Stacking semantics over a list (same as pushing each into a [`Fold`]).
pub fn merge_first(decisions: impl IntoIterator<Item = Decision>) -> Decision {
    let mut f = Fold::new();
    for d in decisions {
        if f.push(d) {
            break;
        }
    }
    f.finish()
}

/// `all` semantics: the most restrictive decision wins, contexts from all.
pub fn merge_all(decisions: impl IntoIterator<Item = Decision>) -> Decision {
    let all: Vec<Decision> = decisions.into_iter().collect();
    let mut best: Option<usize> = None;
    for (i, d) in all.iter().enumerate() {
        match best {
            None => best = Some(i),
            Some(b) if d.kind.rank() > all[b].kind.rank() => best = Some(i),
            _ => {}
        }
    }
    let Some(b) = best else {
        return Decision::no_decision();
    };
    let mut out = all[b].clone();
    out.context = all.iter().flat_map(|d| d.context.iter().cloned()).collect();
    if out.stop_agent.is_none() {
        out.stop_agent = all.iter().find_map(|d| d.stop_agent.clone());
    }
    if out.system_message.is_none() {
        out.system_message = join_opt(all.iter().map(|d| d.system_message.clone()));
    }
    out
}

fn absorb_neutral(mut acc: Decision, d: Decision) -> Decision {
    // A more specific neutral (finish/observed/accept) replaces no_decision.
    if acc.kind == DecisionKind::NoDecision {
        acc.kind = d.kind;
    }
    acc.context.extend(d.context);
    if acc.stop_agent.is_none() {
        acc.stop_agent = d.stop_agent;
    }
    acc.system_message = join_opt([acc.system_message.take(), d.system_message]);
    if acc.updated_input.is_none() {
        acc.updated_input = d.updated_input;
    }
    if acc.native.is_none() {
        acc.native = d.native;
    }
    acc
}

fn carry(acc: Decision, mut w: Decision) -> Decision {
    let mut ctx = acc.context;
    ctx.append(&mut w.context);
    w.context = ctx;
    if w.stop_agent.is_none() {
        w.stop_agent = acc.stop_agent;
    }
    if w.system_message.is_none() {
        w.system_message = acc.system_message;
    }
    w
}

fn join_opt(parts: impl IntoIterator<Item = Option<String>>) -> Option<String> {
    let v: Vec<String> = parts.into_iter().flatten().collect();
    if v.is_empty() {
        None
    } else {
        Some(v.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_conclusive_wins_and_neutrals_merge() {
        let d = merge_first([
            Decision::no_decision().with_context("a"),
            Decision::deny("x").with_context("b"),
            Decision::allow(),
        ]);
        assert_eq!(d.kind, DecisionKind::Deny);
        assert_eq!(d.context, vec!["a", "b"]);
        let d = merge_first([
            Decision::no_decision().with_context("a"),
            Decision::no_decision()
                .with_stop_agent(None)
                .with_context("b"),
        ]);
        assert_eq!(d.kind, DecisionKind::NoDecision);
        assert_eq!(d.context, vec!["a", "b"]);
        assert!(d.stop_agent.is_some());
        assert_eq!(merge_first([]), Decision::no_decision());
    }

    #[test]
    fn all_keeps_the_most_restrictive() {
        let d = merge_all([
            Decision::allow(),
            Decision::ask("a").with_context("1"),
            Decision::deny("d"),
            Decision::deny("e"),
        ]);
        assert_eq!(d.kind, DecisionKind::Deny);
        assert_eq!(d.reason.as_deref(), Some("d"));
        assert_eq!(d.context, vec!["1"]);
        let d = merge_all([Decision::finish(), Decision::continue_with("go")]);
        assert_eq!(d.kind, DecisionKind::Continue);
        let d = merge_all([
            Decision::observed(),
            Decision::flag_output("f"),
            Decision::replace_output("r"),
        ]);
        assert_eq!(d.kind, DecisionKind::ReplaceOutput);
    }
}
