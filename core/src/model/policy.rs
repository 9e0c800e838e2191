//! The declared policy: fail posture, degradation, ask fallback, caps.

use serde::{Deserialize, Serialize};

use crate::error::Error;

/// What to answer when the hook itself fails (error, panic, timeout, bad input).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Fail {
    /// Let the agent go on (no decision), with a diagnostic on stderr.
    #[default]
    Open,
    /// Block with the agent's real blocking mechanism where the event can block.
    Closed,
}

/// What to do with a decision the agent cannot express.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Unsupported {
    /// Degrade to the closest expressible decision and add a note.
    #[default]
    Degrade,
    /// Fail with `unsupported_decision` (then the fail policy answers).
    Strict,
}

/// What `ask` becomes where the agent cannot ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum AskFallback {
    /// No opinion: the agent's own flow runs.
    NoDecision,
    /// Deny, with the ask's reason.
    #[default]
    Deny,
}

/// The policy a hook declares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Policy {
    /// Fail posture.
    pub fail: Fail,
    /// Degradation rule.
    pub unsupported: Unsupported,
    /// What `ask` becomes where it cannot be expressed.
    pub ask_fallback: AskFallback,
    /// Maximum consecutive `continue` decisions on stop events (0 = no cap).
    pub continuation_cap: u32,
    /// Handler deadline in milliseconds (None = 90% of the configured
    /// timeout, else 55 000).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            fail: Fail::Open,
            unsupported: Unsupported::Degrade,
            ask_fallback: AskFallback::Deny,
            continuation_cap: 5,
            timeout_ms: None,
        }
    }
}

impl Policy {
    /// Default timeout when neither the policy nor the config gives one.
    pub const DEFAULT_TIMEOUT_MS: u64 = 55_000;

    /// The defaults with `fail: closed`.
    pub fn fail_closed() -> Policy {
        Policy {
            fail: Fail::Closed,
            ..Policy::default()
        }
    }
    /// The defaults (`fail: open`).
    pub fn fail_open() -> Policy {
        Policy::default()
    }
    /// Sets the ask fallback.
    pub fn ask_fallback(mut self, f: AskFallback) -> Policy {
        self.ask_fallback = f;
        self
    }
    /// Sets the degradation rule.
    pub fn unsupported(mut self, u: Unsupported) -> Policy {
        self.unsupported = u;
        self
    }
    /// Sets the continuation cap.
    pub fn continuation_cap(mut self, cap: u32) -> Policy {
        self.continuation_cap = cap;
        self
    }
    /// Sets the handler deadline.
    pub fn timeout_ms(mut self, ms: u64) -> Policy {
        self.timeout_ms = Some(ms);
        self
    }
    /// Parses a (partial) policy; missing fields take the defaults.
    pub fn from_json(text: &str) -> Result<Policy, Error> {
        serde_json::from_str(text).map_err(|e| Error::InvalidArgument {
            message: format!("policy: {e}"),
        })
    }
    /// The effective deadline given the hook timeout the config passed (seconds).
    pub fn deadline_ms(&self, configured_timeout_s: Option<f64>) -> u64 {
        if let Some(ms) = self.timeout_ms {
            return ms;
        }
        match configured_timeout_s {
            Some(s) if s > 0.0 => ((s * 1000.0) * 0.9) as u64,
            _ => Policy::DEFAULT_TIMEOUT_MS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_policy_fills_defaults() {
        let p = Policy::from_json(r#"{"fail":"closed"}"#).unwrap();
        assert_eq!(p, Policy::fail_closed());
        assert_eq!(p.continuation_cap, 5);
        assert!(Policy::from_json(r#"{"fial":"closed"}"#).is_err());
        assert_eq!(Policy::default().deadline_ms(Some(10.0)), 9000);
        assert_eq!(Policy::default().deadline_ms(None), 55_000);
    }
}
