//! Folding the outputs of one event's hooks into the agent's verdict
//! (claude-code.md §4.4, codex.md §4.4). Inputs are in configuration order.
//!
//! * Decision: the most restrictive wins, `deny` = `block` > `defer` >
//!   `ask` > `allow` (Codex has only deny/block and allow). The reason is
//!   the reasons of every hook with the winning decision, in order, joined
//!   by a blank line (Codex joins Stop continuations exactly so).
//! * `continue: false`: the first one is sticky, with its `stopReason`.
//! * Contexts and system messages: every one, in order.
//! * `updatedInput`, `updatedToolOutput`, `updatedPermissions`: the agents
//!   apply the one of the hook that *finished* last, which is not
//!   deterministic; here they apply in configuration order (the last one
//!   wins) and every field set by more than one hook with different values
//!   is reported in `conflicts`. Rewrites are dropped when the verdict
//!   prevents the call (deny, defer); a `block` (PostToolUse feedback, a
//!   Stop continuation, ...) keeps them.
//! * Hooks that errored, failed or timed out contribute nothing but an
//!   entry in `errors`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::output::{HookDecision, HookOutput, OutputStatus, StopRequest};

/// A field set differently by several hooks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conflict {
    /// `updated_input`, `updated_tool_output` or `updated_permissions`.
    pub field: String,
    /// Indexes (into the selected hooks) of the hooks that set it; the last
    /// one was applied.
    pub hooks: Vec<usize>,
}

/// A hook that produced no answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookError {
    /// Index into the selected hooks.
    pub hook: usize,
    /// Its status.
    pub status: OutputStatus,
    /// Why.
    pub message: String,
}

/// The merged verdict of one event.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HostOutcome {
    /// The winning decision (`None`: no hook decided; the agent's normal
    /// flow applies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<HookDecision>,
    /// Reasons of the winning decision, joined by a blank line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The first `continue: false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<StopRequest>,
    /// Contexts for the model, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contexts: Vec<String>,
    /// Messages for the user, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub system_messages: Vec<String>,
    /// The tool input to use instead of the original.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Map<String, Value>>,
    /// The tool output to use instead of the original.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_tool_output: Option<Value>,
    /// Permission updates (Claude Code PermissionRequest allow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_permissions: Option<Value>,
    /// A PermissionRequest deny asked to stop the agent.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupt: bool,
    /// Other honoured fields (first hook to set a key wins).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
    /// Rewrites set by several hooks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<Conflict>,
    /// Hooks that errored, failed or timed out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<HookError>,
}

/// Merges outputs given in configuration order.
pub fn merge(outputs: &[HookOutput]) -> HostOutcome {
    let mut o = HostOutcome::default();
    let mut setters: [(&str, Vec<usize>); 3] = [
        ("updated_input", Vec::new()),
        ("updated_tool_output", Vec::new()),
        ("updated_permissions", Vec::new()),
    ];
    let mut values: [Vec<Value>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for (i, out) in outputs.iter().enumerate() {
        if let Some(e) = &out.error {
            if !matches!(out.status, OutputStatus::Success | OutputStatus::Blocking)
                || out.decision.is_none()
            {
                o.errors.push(HookError {
                    hook: i,
                    status: out.status,
                    message: e.clone(),
                });
            }
        }
        if let Some(d) = out.decision {
            if o.decision.is_none_or(|w| d.rank() > w.rank()) {
                o.decision = Some(d);
            }
        }
        if o.stop.is_none() {
            o.stop = out.stop.clone();
        }
        o.contexts.extend(out.context.iter().cloned());
        o.system_messages.extend(out.system_message.iter().cloned());
        let rewrites = [
            out.updated_input.clone().map(Value::Object),
            out.updated_tool_output.clone(),
            out.updated_permissions.clone(),
        ];
        for (slot, v) in rewrites.into_iter().enumerate() {
            if let Some(v) = v {
                setters[slot].1.push(i);
                values[slot].push(v);
            }
        }
        o.interrupt |= out.interrupt && out.decision == Some(HookDecision::Deny);
        for (k, v) in &out.extra {
            o.extra.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    if let Some(w) = o.decision {
        let reasons: Vec<&str> = outputs
            .iter()
            .filter(|out| out.decision.is_some_and(|d| d.rank() == w.rank()))
            .filter_map(|out| out.reason.as_deref())
            .filter(|r| !r.is_empty())
            .collect();
        if !reasons.is_empty() {
            o.reason = Some(reasons.join("\n\n"));
        }
    }
    let blocked = matches!(o.decision, Some(HookDecision::Deny | HookDecision::Defer));
    for (slot, (field, hooks)) in setters.into_iter().enumerate() {
        let vals = &values[slot];
        if vals.windows(2).any(|w| w[0] != w[1]) {
            o.conflicts.push(Conflict {
                field: field.to_string(),
                hooks,
            });
        }
        if blocked {
            continue;
        }
        let last = vals.last().cloned();
        match slot {
            0 => o.updated_input = last.and_then(|v| v.as_object().cloned()),
            1 => o.updated_tool_output = last,
            _ => o.updated_permissions = last,
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(d: Option<HookDecision>, reason: &str) -> HookOutput {
        HookOutput {
            decision: d,
            reason: (!reason.is_empty()).then(|| reason.to_string()),
            ..HookOutput::new(OutputStatus::Success)
        }
    }

    #[test]
    fn precedence_and_reasons() {
        use HookDecision::*;
        let m = merge(&[
            out(Some(Allow), ""),
            out(Some(Ask), "a"),
            out(Some(Defer), ""),
        ]);
        assert_eq!(m.decision, Some(Defer));
        let m = merge(&[
            out(Some(Deny), "x"),
            out(Some(Defer), ""),
            out(Some(Deny), "y"),
        ]);
        assert_eq!(m.decision, Some(Deny));
        assert_eq!(m.reason.as_deref(), Some("x\n\ny"));
        assert_eq!(merge(&[]).decision, None);
    }
}
