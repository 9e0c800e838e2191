//! Decisions a hook returns, with their modifiers.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::error::Error;
use crate::model::Kind;

/// What the hook decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DecisionKind {
    /// No opinion: the agent's own flow runs (never the same as allow).
    NoDecision,
    /// Approve the tool call (skips the agent's prompt).
    Allow,
    /// Block the tool call; `reason` goes to the model.
    Deny,
    /// Ask the human.
    Ask,
    /// Claude Code: end the run and hand the call back.
    Defer,
    /// Let the prompt through (neutral).
    AcceptPrompt,
    /// Block the prompt.
    BlockPrompt,
    /// Let the agent stop (neutral).
    Finish,
    /// Keep the agent going with `instruction`.
    Continue,
    /// Saw the output (neutral).
    Observed,
    /// Tell the model something is wrong with the output.
    FlagOutput,
    /// Replace the output the model sees.
    ReplaceOutput,
}

impl DecisionKind {
    /// The snake_case id.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionKind::NoDecision => "no_decision",
            DecisionKind::Allow => "allow",
            DecisionKind::Deny => "deny",
            DecisionKind::Ask => "ask",
            DecisionKind::Defer => "defer",
            DecisionKind::AcceptPrompt => "accept_prompt",
            DecisionKind::BlockPrompt => "block_prompt",
            DecisionKind::Finish => "finish",
            DecisionKind::Continue => "continue",
            DecisionKind::Observed => "observed",
            DecisionKind::FlagOutput => "flag_output",
            DecisionKind::ReplaceOutput => "replace_output",
        }
    }

    /// Parses any spelling (`no_decision`, `no-decision`, `noDecision`, `NoDecision`).
    pub fn parse(s: &str) -> Result<DecisionKind, Error> {
        let norm: String = s
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' ' | '.'))
            .flat_map(char::to_lowercase)
            .collect();
        Ok(match norm.as_str() {
            "nodecision" | "none" | "noop" | "neutral" => DecisionKind::NoDecision,
            "allow" => DecisionKind::Allow,
            "deny" => DecisionKind::Deny,
            "ask" => DecisionKind::Ask,
            "defer" => DecisionKind::Defer,
            "acceptprompt" => DecisionKind::AcceptPrompt,
            "blockprompt" => DecisionKind::BlockPrompt,
            "finish" => DecisionKind::Finish,
            "continue" | "continuewith" => DecisionKind::Continue,
            "observed" => DecisionKind::Observed,
            "flagoutput" => DecisionKind::FlagOutput,
            "replaceoutput" => DecisionKind::ReplaceOutput,
            _ => {
                return Err(Error::invalid_decision(format!(
                    "unknown decision kind `{s}`"
                )));
            }
        })
    }

    /// Whether this kind falls through in the router.
    pub fn is_neutral(self) -> bool {
        matches!(
            self,
            DecisionKind::NoDecision
                | DecisionKind::AcceptPrompt
                | DecisionKind::Finish
                | DecisionKind::Observed
        )
    }

    /// Restrictiveness rank used by `all` merges (higher wins).
    pub fn rank(self) -> u8 {
        match self {
            DecisionKind::Deny | DecisionKind::BlockPrompt => 5,
            DecisionKind::Defer => 4,
            DecisionKind::Ask => 3,
            DecisionKind::Allow => 2,
            DecisionKind::Continue | DecisionKind::ReplaceOutput => 3,
            DecisionKind::FlagOutput => 2,
            DecisionKind::Finish | DecisionKind::Observed | DecisionKind::AcceptPrompt => 1,
            DecisionKind::NoDecision => 0,
        }
    }
}

/// Stop the whole agent (`continue:false` where supported).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StopAgent {
    /// Shown to the human.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A hook's decision plus modifiers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decision {
    /// The decision.
    pub kind: DecisionKind,
    /// Shown to the model (deny, ask, block_prompt, flag_output).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What the agent should do next (continue).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instruction: Option<String>,
    /// Extra context for the model, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub context: Vec<String>,
    /// Shown to the human only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_message: Option<String>,
    /// Human-facing message for a block, where the agent has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_reason: Option<String>,
    /// Stop the agent entirely.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_agent: Option<StopAgent>,
    /// Replacement tool input (a whole object).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// An RFC 7396 JSON merge patch against the tool input as the agent
    /// sent it (`null` deletes a key); applied on top of `updated_input`
    /// when both are set. The core renders the agent's own form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch_input: Option<Map<String, Value>>,
    /// Set by the router's fold: where several handlers' input rewrites
    /// collided (JSON Pointers into the tool input of conflicting patch
    /// keys, or `updated_input` for a whole-input replacement that
    /// overrode another). Reported as `rewrite_conflict` notes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rewrite_conflicts: Vec<String>,
    /// Replacement tool output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced_output: Option<Value>,
    /// Escape hatch: merged verbatim into the agent's answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub native: Option<Map<String, Value>>,
}

impl Default for Decision {
    fn default() -> Self {
        Decision::of(DecisionKind::NoDecision)
    }
}

impl Decision {
    /// A bare decision of a kind.
    pub fn of(kind: DecisionKind) -> Decision {
        Decision {
            kind,
            reason: None,
            instruction: None,
            context: Vec::new(),
            system_message: None,
            block_reason: None,
            stop_agent: None,
            updated_input: None,
            patch_input: None,
            rewrite_conflicts: Vec::new(),
            replaced_output: None,
            native: None,
        }
    }
    /// No opinion.
    pub fn no_decision() -> Decision {
        Decision::of(DecisionKind::NoDecision)
    }
    /// Approve.
    pub fn allow() -> Decision {
        Decision::of(DecisionKind::Allow)
    }
    /// Block, telling the model why.
    pub fn deny(reason: impl Into<String>) -> Decision {
        Decision::of(DecisionKind::Deny).with_reason(reason)
    }
    /// Ask the human.
    pub fn ask(reason: impl Into<String>) -> Decision {
        Decision::of(DecisionKind::Ask).with_reason(reason)
    }
    /// Claude Code `defer`.
    pub fn defer() -> Decision {
        Decision::of(DecisionKind::Defer)
    }
    /// Let the prompt through.
    pub fn accept_prompt() -> Decision {
        Decision::of(DecisionKind::AcceptPrompt)
    }
    /// Block the prompt.
    pub fn block_prompt(reason: impl Into<String>) -> Decision {
        Decision::of(DecisionKind::BlockPrompt).with_reason(reason)
    }
    /// Let the agent stop.
    pub fn finish() -> Decision {
        Decision::of(DecisionKind::Finish)
    }
    /// Keep the agent going.
    pub fn continue_with(instruction: impl Into<String>) -> Decision {
        let mut d = Decision::of(DecisionKind::Continue);
        d.instruction = Some(instruction.into());
        d
    }
    /// Saw the output.
    pub fn observed() -> Decision {
        Decision::of(DecisionKind::Observed)
    }
    /// Flag the output to the model.
    pub fn flag_output(reason: impl Into<String>) -> Decision {
        Decision::of(DecisionKind::FlagOutput).with_reason(reason)
    }
    /// Replace the output the model sees.
    pub fn replace_output(output: impl Into<Value>) -> Decision {
        let mut d = Decision::of(DecisionKind::ReplaceOutput);
        d.replaced_output = Some(output.into());
        d
    }
    /// Sets the reason.
    pub fn with_reason(mut self, reason: impl Into<String>) -> Decision {
        self.reason = Some(reason.into());
        self
    }
    /// Appends model context.
    pub fn with_context(mut self, context: impl Into<String>) -> Decision {
        self.context.push(context.into());
        self
    }
    /// Sets the human-only message.
    pub fn with_system_message(mut self, msg: impl Into<String>) -> Decision {
        self.system_message = Some(msg.into());
        self
    }
    /// Sets the human-facing block message.
    pub fn with_block_reason(mut self, msg: impl Into<String>) -> Decision {
        self.block_reason = Some(msg.into());
        self
    }
    /// Stops the agent after this hook.
    pub fn with_stop_agent(mut self, reason: Option<String>) -> Decision {
        self.stop_agent = Some(StopAgent { reason });
        self
    }
    /// Rewrites the tool input (whole object).
    pub fn with_updated_input(mut self, input: Map<String, Value>) -> Decision {
        self.updated_input = Some(input);
        self
    }
    /// Patches the tool input: an RFC 7396 merge patch against the input
    /// as the agent sent it (`null` deletes a key, objects merge, arrays
    /// and scalars replace).
    pub fn with_patch_input(mut self, patch: Map<String, Value>) -> Decision {
        self.patch_input = Some(patch);
        self
    }
    /// Merges a native object into the answer.
    pub fn with_native(mut self, native: Map<String, Value>) -> Decision {
        self.native = Some(native);
        self
    }

    /// Parses decision JSON (`{"kind": "deny", "reason": "..."}`), strictly.
    pub fn from_json(text: &str) -> Result<Decision, Error> {
        serde_json::from_str(text).map_err(|e| Error::invalid_decision(e.to_string()))
    }

    /// Renders the decision as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }

    /// Checks that this decision (kind and modifiers) is one the event kind
    /// takes, per the table in ARCHITECTURE.md.
    pub fn validate_for(&self, kind: Kind) -> Result<(), Error> {
        use DecisionKind as D;
        let (allowed, mods): (&[D], &[&str]) = match kind {
            Kind::ToolPre | Kind::PermissionRequest => (
                &[D::NoDecision, D::Allow, D::Deny, D::Ask, D::Defer],
                &[
                    "updated_input",
                    "patch_input",
                    "context",
                    "system_message",
                    "stop_agent",
                    "block_reason",
                ],
            ),
            Kind::PromptSubmitted => (
                &[D::NoDecision, D::AcceptPrompt, D::BlockPrompt],
                &["context", "system_message", "stop_agent", "block_reason"],
            ),
            Kind::AgentStop | Kind::SubagentStop => (
                &[D::NoDecision, D::Finish, D::Continue],
                &["system_message"],
            ),
            Kind::ToolPost | Kind::ToolError => (
                &[D::NoDecision, D::Observed, D::FlagOutput, D::ReplaceOutput],
                &["context", "system_message", "stop_agent"],
            ),
            Kind::SessionStart | Kind::SubagentStart => {
                (&[D::NoDecision], &["context", "system_message"])
            }
            _ => (&[D::NoDecision], &["system_message"]),
        };
        if !allowed.contains(&self.kind) {
            return Err(Error::invalid_decision(format!(
                "`{}` is not a decision for {} events",
                self.kind.as_str(),
                kind.as_str()
            )));
        }
        for (name, present) in self.modifiers_present() {
            if present && !mods.contains(&name) {
                return Err(Error::invalid_decision(format!(
                    "modifier `{name}` is not valid for {} events",
                    kind.as_str()
                )));
            }
        }
        if let Some(p) = &self.patch_input {
            if crate::model::patch::checked_depth(p).is_none() {
                return Err(Error::invalid_decision(format!(
                    "patch_input is nested deeper than {} levels",
                    crate::model::patch::MAX_PATCH_DEPTH
                )));
            }
        }
        match self.kind {
            D::Continue
                if nonempty(&self.instruction).is_none() && nonempty(&self.reason).is_none() =>
            {
                Err(Error::invalid_decision("`continue` needs an instruction"))
            }
            D::ReplaceOutput if self.replaced_output.is_none() => Err(Error::invalid_decision(
                "`replace_output` needs replaced_output",
            )),
            _ => Ok(()),
        }
    }

    /// The optional modifiers and whether each is set (`native` is always
    /// allowed: it is the escape hatch).
    pub fn modifiers_present(&self) -> [(&'static str, bool); 6] {
        [
            ("updated_input", self.updated_input.is_some()),
            ("patch_input", self.patch_input.is_some()),
            ("context", !self.context.is_empty()),
            ("system_message", self.system_message.is_some()),
            ("stop_agent", self.stop_agent.is_some()),
            ("block_reason", self.block_reason.is_some()),
        ]
    }
}

fn nonempty(s: &Option<String>) -> Option<&str> {
    s.as_deref().filter(|s| !s.trim().is_empty())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DecisionWire {
    kind: String,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    instruction: Option<String>,
    #[serde(default)]
    context: ContextWire,
    #[serde(default)]
    system_message: Option<String>,
    #[serde(default)]
    block_reason: Option<String>,
    #[serde(default)]
    stop_agent: Option<StopAgentWire>,
    #[serde(default)]
    updated_input: Option<Map<String, Value>>,
    #[serde(default)]
    patch_input: Option<Map<String, Value>>,
    #[serde(default)]
    rewrite_conflicts: Vec<String>,
    #[serde(default, deserialize_with = "some_value")]
    replaced_output: Option<Value>,
    #[serde(default)]
    native: Option<Map<String, Value>>,
}

#[derive(Deserialize, Default)]
#[serde(untagged)]
enum ContextWire {
    #[default]
    None,
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StopAgentWire {
    Flag(bool),
    Reason(String),
    Full(StopAgent),
}

fn some_value<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

impl<'de> Deserialize<'de> for Decision {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = DecisionWire::deserialize(d)?;
        let kind = DecisionKind::parse(&w.kind).map_err(|e| match e {
            // The reason alone: `from_json` adds the "invalid decision" prefix.
            Error::InvalidDecision { reason } => serde::de::Error::custom(reason),
            other => serde::de::Error::custom(other),
        })?;
        let context = match w.context {
            ContextWire::None => Vec::new(),
            ContextWire::One(s) => vec![s],
            ContextWire::Many(v) => v,
        };
        let stop_agent = match w.stop_agent {
            None | Some(StopAgentWire::Flag(false)) => None,
            Some(StopAgentWire::Flag(true)) => Some(StopAgent::default()),
            Some(StopAgentWire::Reason(r)) => Some(StopAgent { reason: Some(r) }),
            Some(StopAgentWire::Full(s)) => Some(s),
        };
        Ok(Decision {
            kind,
            reason: w.reason,
            instruction: w.instruction,
            context,
            system_message: w.system_message,
            block_reason: w.block_reason,
            stop_agent,
            updated_input: w.updated_input,
            patch_input: w.patch_input,
            rewrite_conflicts: w.rewrite_conflicts,
            replaced_output: w.replaced_output,
            native: w.native,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_spellings_and_rejects_unknown_fields() {
        let d = Decision::from_json(r#"{"kind":"noDecision","context":"x"}"#).unwrap();
        assert_eq!(d.kind, DecisionKind::NoDecision);
        assert_eq!(d.context, vec!["x"]);
        let d = Decision::from_json(r#"{"kind":"deny","reason":"r","stop_agent":true}"#).unwrap();
        assert_eq!(d.stop_agent, Some(StopAgent::default()));
        assert!(Decision::from_json(r#"{"kind":"deny","why":"r"}"#).is_err());
        assert!(Decision::from_json(r#"{"kind":"maybe"}"#).is_err());
        let back = Decision::from_json(&Decision::deny("r").with_context("c").to_json()).unwrap();
        assert_eq!(back, Decision::deny("r").with_context("c"));
    }

    #[test]
    fn validates_against_kind_table() {
        assert!(Decision::deny("r").validate_for(Kind::ToolPre).is_ok());
        assert!(Decision::deny("r").validate_for(Kind::AgentStop).is_err());
        assert!(
            Decision::no_decision()
                .with_context("c")
                .validate_for(Kind::SessionEnd)
                .is_err()
        );
        assert!(
            Decision::of(DecisionKind::Continue)
                .validate_for(Kind::AgentStop)
                .is_err()
        );
        assert!(
            Decision::continue_with("go")
                .validate_for(Kind::SubagentStop)
                .is_ok()
        );
    }
}
