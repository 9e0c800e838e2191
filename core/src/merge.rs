//! Folding several decisions into one (the router semantics). Bindings call
//! these instead of re-implementing them.
//!
//! * Stacking / `any`: handlers run in order; neutral decisions fall through;
//!   the first conclusive one wins. Contexts of the neutrals before it are
//!   kept (in order) and a `stop_agent` from any of them is sticky.
//! * `all`: every decision is considered; the most restrictive wins
//!   (deny > defer > ask > allow > neutral; continue > finish;
//!   replace > flag > observed), ties to the earliest; contexts from all.
//!
//! Input rewrites in either fold:
//!
//! * `patch_input` (RFC 7396 merge patches) compose in registration order
//!   (stacking: the neutrals before the winner, then the winner; `all`:
//!   every decision), so that the result equals applying them one after
//!   the other. Where two patches set the same key to different values, or
//!   one deletes what another sets, the **later handler wins** and the key's
//!   JSON Pointer is recorded in `rewrite_conflicts` (reported as a
//!   `rewrite_conflict` note when the decision is encoded). Keys where both
//!   patches hold objects merge key by key; arrays and scalars replace.
//! * `updated_input` (whole-object replacements) keep their old rule:
//!   among neutrals the first stays, a conclusive winner's own replaces it
//!   (`all`: the winner's). When one replacement overrides a different one,
//!   `updated_input` is recorded in `rewrite_conflicts`.
//! * A folded decision with both applies the patches on top of the
//!   replacement, whichever came first.
//!
//! A composition that cannot be carried out (a patch nested deeper than
//! [`crate::model::patch::MAX_PATCH_DEPTH`]) keeps the later patch as it is
//! and records a conflict at the root pointer `""`; encoding then rejects
//! that patch with `invalid_decision`.

use serde_json::{Map, Value};

use crate::model::patch;
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
    let mut conflicts: Vec<String> = Vec::new();
    let mut patch_acc: Option<Map<String, Value>> = None;
    for d in &all {
        conflicts.extend(d.rewrite_conflicts.iter().cloned());
        compose_into(&mut patch_acc, d.patch_input.as_ref(), &mut conflicts);
    }
    let winner_input = all[b].updated_input.as_ref();
    if let Some(w) = winner_input {
        if all
            .iter()
            .any(|d| d.updated_input.as_ref().is_some_and(|u| u != w))
        {
            conflicts.push("updated_input".into());
        }
    }
    out.patch_input = patch_acc;
    out.rewrite_conflicts = conflicts;
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
    acc.rewrite_conflicts.extend(d.rewrite_conflicts);
    match (&acc.updated_input, d.updated_input) {
        (None, u) => acc.updated_input = u,
        (Some(a), Some(u)) if *a != u => acc.rewrite_conflicts.push("updated_input".into()),
        _ => {}
    }
    compose_into(
        &mut acc.patch_input,
        d.patch_input.as_ref(),
        &mut acc.rewrite_conflicts,
    );
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
    let mut conflicts = acc.rewrite_conflicts;
    conflicts.append(&mut w.rewrite_conflicts);
    if let (Some(a), Some(u)) = (&acc.updated_input, &w.updated_input) {
        if a != u {
            conflicts.push("updated_input".into());
        }
    }
    let mut patch_acc = acc.patch_input;
    compose_into(&mut patch_acc, w.patch_input.as_ref(), &mut conflicts);
    w.patch_input = patch_acc;
    w.rewrite_conflicts = conflicts;
    w
}

/// Composes the next handler's patch onto the accumulated one (see the
/// module docs).
fn compose_into(
    acc: &mut Option<Map<String, Value>>,
    next: Option<&Map<String, Value>>,
    conflicts: &mut Vec<String>,
) {
    let Some(next) = next else { return };
    match acc {
        None => *acc = Some(next.clone()),
        Some(a) => {
            let mut composed = a.clone();
            match patch::compose(&mut composed, next, conflicts) {
                Ok(()) => *a = composed,
                Err(_) => {
                    conflicts.push(String::new());
                    *a = next.clone();
                }
            }
        }
    }
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

    fn obj(v: serde_json::Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn patches_compose_in_order_and_conflicts_name_the_later_winner() {
        use serde_json::json;
        let d = merge_first([
            Decision::no_decision()
                .with_patch_input(obj(json!({"command": "a", "env": {"X": "1"}}))),
            Decision::no_decision()
                .with_patch_input(obj(json!({"env": {"Y": "2"}, "timeout": null}))),
            Decision::allow().with_patch_input(obj(json!({"command": "b"}))),
            Decision::deny("never runs").with_patch_input(obj(json!({"command": "c"}))),
        ]);
        assert_eq!(d.kind, DecisionKind::Allow);
        assert_eq!(
            d.patch_input.map(Value::Object),
            Some(json!({"command": "b", "env": {"X": "1", "Y": "2"}, "timeout": null}))
        );
        assert_eq!(d.rewrite_conflicts, vec!["/command"]);

        let d = merge_all([
            Decision::allow().with_patch_input(obj(json!({"a": 1}))),
            Decision::ask("q").with_patch_input(obj(json!({"a": null, "b": [1]}))),
        ]);
        assert_eq!(d.kind, DecisionKind::Ask);
        assert_eq!(
            d.patch_input.map(Value::Object),
            Some(json!({"a": null, "b": [1]}))
        );
        assert_eq!(d.rewrite_conflicts, vec!["/a"]);
    }

    #[test]
    fn updated_input_keeps_its_rule_and_reports_the_clobber() {
        use serde_json::json;
        let a = obj(json!({"command": "a"}));
        let b = obj(json!({"command": "b"}));
        let d = merge_first([
            Decision::no_decision().with_updated_input(a.clone()),
            Decision::no_decision().with_updated_input(b.clone()),
        ]);
        assert_eq!(d.updated_input.as_ref(), Some(&a));
        assert_eq!(d.rewrite_conflicts, vec!["updated_input"]);
        let d = merge_first([
            Decision::no_decision().with_updated_input(a.clone()),
            Decision::allow().with_updated_input(b.clone()),
        ]);
        assert_eq!(d.updated_input.as_ref(), Some(&b));
        assert_eq!(d.rewrite_conflicts, vec!["updated_input"]);
        let d = merge_first([
            Decision::no_decision().with_updated_input(a.clone()),
            Decision::allow().with_updated_input(a.clone()),
        ]);
        assert!(d.rewrite_conflicts.is_empty());
        let d = merge_all([
            Decision::allow().with_updated_input(a),
            Decision::deny("d").with_updated_input(b.clone()),
        ]);
        assert_eq!(d.updated_input.as_ref(), Some(&b));
        assert_eq!(d.rewrite_conflicts, vec!["updated_input"]);
    }
}
