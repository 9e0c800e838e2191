//! What each agent can express per native event, and the degradation of
//! decisions it cannot express under the declared policy.

use serde::Serialize;

use crate::error::Error;
use crate::mode::SessionMode;
use crate::model::{
    AskFallback, Decision, DecisionKind as D, Event, HeadlessAsk, Kind, Note, Policy, Provider,
    Unsupported,
};

/// What one native event of one agent can express.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Capability {
    /// Provider.
    pub provider: Provider,
    /// Native event name.
    pub native_name: String,
    /// Unified kind.
    pub kind: Kind,
    /// Whether the event can block or redirect the action at all.
    pub can_block: bool,
    /// Decision kinds the agent honours here.
    pub decisions: Vec<D>,
    /// Modifiers the agent honours here.
    pub modifiers: Vec<&'static str>,
    /// Decisions the agent honours only together with a modifier (Codex
    /// PreToolUse: `allow` only with `updated_input`); without it the
    /// encoder degrades them with a note.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub only_with: Vec<(D, &'static str)>,
    /// Decisions the agent honours only when the payload meets a
    /// condition (said in words: Cursor `ask` only on builds before
    /// 2.4.21); otherwise the encoder degrades them with a note.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub only_when: Vec<(D, &'static str)>,
}

impl Capability {
    /// Builds a capability row.
    pub fn new(
        provider: Provider,
        native: &str,
        kind: Kind,
        can_block: bool,
        decisions: &[D],
        modifiers: &[&'static str],
    ) -> Capability {
        Capability {
            provider,
            native_name: native.to_string(),
            kind,
            can_block,
            decisions: decisions.to_vec(),
            modifiers: modifiers.to_vec(),
            only_with: Vec::new(),
            only_when: Vec::new(),
        }
    }

    /// Declares that `decision` is honoured only when `condition` holds.
    #[must_use]
    pub fn only_when(mut self, decision: D, condition: &'static str) -> Capability {
        self.only_when.push((decision, condition));
        self
    }

    /// Declares that `decision` is honoured only together with `modifier`.
    #[must_use]
    pub fn only_with(mut self, decision: D, modifier: &'static str) -> Capability {
        self.only_with.push((decision, modifier));
        self
    }

    /// Whether a decision kind or modifier is expressible (`patch_input`
    /// wherever `updated_input` is: a patch is rendered as the whole
    /// rewritten input).
    pub fn can(&self, what: &str) -> bool {
        if let Ok(k) = D::parse(what) {
            if self.decisions.contains(&k) {
                return true;
            }
        }
        let what = if what == "patch_input" {
            "updated_input"
        } else {
            what
        };
        self.modifiers.contains(&what)
    }
}

/// Default reason used when `ask` falls back to `deny` without a reason.
pub const ASK_FALLBACK_REASON: &str =
    "This action needs human approval, which this agent cannot ask for.";

/// Default reason used when a headless session's `ask` becomes `deny`
/// without a reason.
pub const HEADLESS_ASK_REASON: &str =
    "This action needs human approval, and nobody can answer a prompt in this headless session.";

/// The `only_when` condition of an `ask` the agent honours only when the
/// session is known to be interactive (Gemini CLI: headless, it hangs).
pub const INTERACTIVE_ONLY: &str = "the session is known to be interactive";

/// Turns the author's decision into one the agent can express, collecting
/// notes. `strict` turns every degradation into an error. The session
/// mode is the event's (see [`plan_in_mode`]).
pub fn plan(
    event: &Event,
    decision: &Decision,
    policy: &Policy,
    cap: &Capability,
) -> Result<(Decision, Vec<Note>), Error> {
    plan_in_mode(event, decision, policy, cap, &event.mode())
}

/// [`plan`] in a session mode observed apart from the event: a known
/// headless session turns `ask` per `policy.headless_ask`; an `ask` the
/// agent honours only interactively ([`INTERACTIVE_ONLY`]) is expressible
/// only when the session is known interactive.
pub fn plan_in_mode(
    event: &Event,
    decision: &Decision,
    policy: &Policy,
    cap: &Capability,
    mode: &SessionMode,
) -> Result<(Decision, Vec<Note>), Error> {
    decision.validate_for(event.kind)?;
    let mut notes = Vec::new();
    let mut d = decision.clone();
    let strict = policy.unsupported == Unsupported::Strict;
    let interactive_only = cap.only_when.contains(&(D::Ask, INTERACTIVE_ONLY));
    let mut cap_ask_ok = cap.decisions.contains(&D::Ask);
    if interactive_only && !mode.is_interactive() {
        cap_ask_ok = false;
    }

    // Headless: nobody can answer a prompt. Not a degradation of the
    // agent's protocol, so `strict` does not turn it into an error.
    if d.kind == D::Ask && mode.is_headless() && policy.headless_ask != HeadlessAsk::Native {
        let to = match policy.headless_ask {
            HeadlessAsk::Deny if cap.decisions.contains(&D::Deny) => D::Deny,
            _ => [D::NoDecision, D::Observed]
                .into_iter()
                .find(|k| cap.decisions.contains(k))
                .unwrap_or(D::NoDecision),
        };
        if to == D::Deny && d.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
            d.reason = Some(HEADLESS_ASK_REASON.to_string());
        }
        notes.push(Note::new(
            "headless",
            Some("ask"),
            Some(to.as_str()),
            format!(
                "{} session: nobody can answer `ask` (headless_ask: {})",
                mode.describe(),
                policy.headless_ask.as_str()
            ),
        ));
        d.kind = to;
    }

    let expressible = |k: D| {
        if k == D::Ask {
            cap_ask_ok
        } else {
            cap.decisions.contains(&k)
        }
    };
    let unsupported = |what: &str| Error::UnsupportedDecision {
        provider: event.provider.id(),
        event: event.native_name.clone(),
        what: what.to_string(),
    };

    // Loop guard across agents: cap consecutive continuations.
    if d.kind == D::Continue {
        let count = event.stop.as_ref().and_then(|s| s.loop_count).unwrap_or(0);
        // A cap of 0 disables the guard (as Claude's CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=0 does).
        if policy.continuation_cap > 0 && count >= u64::from(policy.continuation_cap) {
            notes.push(Note::new(
                "continuation_capped",
                Some("continue"),
                Some("finish"),
                format!(
                    "{count} consecutive continuations reached the cap of {}",
                    policy.continuation_cap
                ),
            ));
            d.kind = D::Finish;
            d.instruction = None;
        }
    }

    if !expressible(d.kind) {
        let mode_bound = d.kind == D::Ask && interactive_only;
        if strict {
            return Err(unsupported(d.kind.as_str()));
        }
        let from = d.kind;
        let to = fallback(&d, policy, cap);
        match to {
            D::Deny => {
                if d.reason.as_deref().is_none_or(|r| r.trim().is_empty()) {
                    d.reason = Some(ASK_FALLBACK_REASON.to_string());
                }
            }
            D::FlagOutput => {
                // A flag that stands in for a replacement carries the
                // replacement text: agents such as Codex show the flag's
                // reason in place of the tool output.
                if from == D::ReplaceOutput {
                    if let Some(v) = &d.replaced_output {
                        d.reason = Some(value_text(v));
                    }
                }
            }
            D::NoDecision | D::Observed | D::Finish | D::AcceptPrompt => {
                // The reason of a dropped flag is still worth telling the model.
                if from == D::FlagOutput && cap.modifiers.contains(&"context") {
                    if let Some(r) = d.reason.clone() {
                        d.context.push(r);
                    }
                }
            }
            _ => {}
        }
        let detail = if mode_bound {
            format!(
                "{} asks only in a session known to be interactive; session mode: {}",
                event.provider.display_name(),
                mode.describe()
            )
        } else {
            format!(
                "{} cannot express `{}` on {}",
                event.provider.display_name(),
                from.as_str(),
                event.native_name
            )
        };
        notes.push(Note::new(
            "degraded",
            Some(from.as_str()),
            Some(to.as_str()),
            detail,
        ));
        d.kind = to;
        if to != D::ReplaceOutput && from == D::ReplaceOutput && to != D::FlagOutput {
            d.replaced_output = None;
        }
    }

    // Modifiers the agent cannot carry here.
    let present = d.modifiers_present();
    for (name, set) in present {
        if set && !cap.modifiers.contains(&name) {
            if strict {
                return Err(unsupported(name));
            }
            notes.push(Note::new(
                "dropped",
                Some(name),
                None,
                format!(
                    "{} ignores `{name}` on {}",
                    event.provider.display_name(),
                    event.native_name
                ),
            ));
            match name {
                "updated_input" => d.updated_input = None,
                "context" => d.context.clear(),
                "system_message" => d.system_message = None,
                "stop_agent" => d.stop_agent = None,
                "block_reason" => d.block_reason = None,
                _ => {}
            }
        }
    }
    Ok((d, notes))
}

/// The decision kind `d` becomes where the row cannot express it.
pub(crate) fn fallback(d: &Decision, policy: &Policy, cap: &Capability) -> D {
    let has = |k: D| cap.decisions.contains(&k);
    let neutral = || {
        [D::NoDecision, D::Observed, D::Finish, D::AcceptPrompt]
            .into_iter()
            .find(|k| has(*k))
            .unwrap_or(D::NoDecision)
    };
    match d.kind {
        D::Ask | D::Defer => match policy.ask_fallback {
            AskFallback::Deny if has(D::Deny) => D::Deny,
            _ => neutral(),
        },
        D::ReplaceOutput if has(D::FlagOutput) => D::FlagOutput,
        D::Continue | D::FlagOutput | D::ReplaceOutput | D::Allow | D::Deny | D::BlockPrompt => {
            neutral()
        }
        _ => neutral(),
    }
}

/// Text form of a JSON value (strings unquoted).
pub fn value_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_patch_is_expressible_where_a_rewrite_is() {
        let claude = crate::capability_of(Provider::ClaudeCode, "PreToolUse");
        assert!(claude.can("updated_input") && claude.can("patch_input"));
        let kimi = crate::capability_of(Provider::KimiCode, "PreToolUse");
        assert!(!kimi.can("updated_input") && !kimi.can("patch_input"));
        assert!(!claude.can("no_such_modifier"));
    }
}
