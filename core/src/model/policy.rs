//! The declared policy: fail posture, degradation, ask fallback, caps.

use serde::{Deserialize, Serialize};

use super::Detection;
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

/// What `ask` becomes when the session is known to be headless (nobody
/// can answer a prompt; see `crate::mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum HeadlessAsk {
    /// Deny, with the ask's reason.
    #[default]
    Deny,
    /// No opinion: the agent's own flow runs.
    NoDecision,
    /// The agent's own `ask`, where it has one (what the agent does with
    /// it headless is its own: Claude Code and Copilot CLI deny, OpenCode
    /// rejects). Gemini CLI's `ask` hangs a headless run, so it is never
    /// sent there: `ask_fallback` applies.
    Native,
}

/// Wire names of the policy's small enums (and [`Detection`]): one table
/// in the core, used by argv parsing, the CLI and the bindings, which hold
/// no copies of their own. A test keeps them equal to the serde names.
macro_rules! wire_names {
    ($ty:ident, $what:literal, [$($v:ident => $n:literal),+ $(,)?]) => {
        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$v),+];

            /// The wire name (as in policy JSON and argv).
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$v => $n),+
                }
            }

            /// Parses a wire name; anything else is `invalid_argument`
            /// naming the accepted values.
            pub fn parse(s: &str) -> Result<$ty, Error> {
                $ty::ALL.iter().copied().find(|v| v.as_str() == s).ok_or_else(|| {
                    let names: Vec<&str> = $ty::ALL.iter().map(|v| v.as_str()).collect();
                    let expected = match names.split_last() {
                        Some((last, rest)) if !rest.is_empty() => {
                            format!("{} or {last}", rest.join(", "))
                        }
                        _ => names.concat(),
                    };
                    Error::InvalidArgument {
                        message: format!("{}: `{s}` (expected {expected})", $what),
                    }
                })
            }
        }
    };
}

wire_names!(Fail, "fail", [Open => "open", Closed => "closed"]);
wire_names!(Unsupported, "unsupported", [Degrade => "degrade", Strict => "strict"]);
wire_names!(AskFallback, "ask_fallback", [NoDecision => "no_decision", Deny => "deny"]);
wire_names!(HeadlessAsk, "headless_ask", [Deny => "deny", NoDecision => "no_decision", Native => "native"]);
wire_names!(Detection, "detection", [Config => "config", Env => "env", Shape => "shape"]);

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
    /// What `ask` becomes when the session is known to be headless.
    pub headless_ask: HeadlessAsk,
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
            headless_ask: HeadlessAsk::Deny,
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
    /// Sets the headless rule.
    pub fn headless_ask(mut self, h: HeadlessAsk) -> Policy {
        self.headless_ask = h;
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
        assert_eq!(p.headless_ask, HeadlessAsk::Deny);
        let p = Policy::from_json(r#"{"headless_ask":"native"}"#).unwrap();
        assert_eq!(p.headless_ask, HeadlessAsk::Native);
        assert!(Policy::from_json(r#"{"headless_ask":"ask"}"#).is_err());
        assert!(Policy::from_json(r#"{"fial":"closed"}"#).is_err());
        assert_eq!(Policy::default().deadline_ms(Some(10.0)), 9000);
        assert_eq!(Policy::default().deadline_ms(None), 55_000);
    }

    #[test]
    fn wire_names_are_the_serde_names() {
        fn check<T: Serialize + Copy>(all: &[T], name: impl Fn(T) -> &'static str) {
            for v in all {
                assert_eq!(serde_json::to_value(v).unwrap(), name(*v));
            }
        }
        check(Fail::ALL, Fail::as_str);
        check(Unsupported::ALL, Unsupported::as_str);
        check(AskFallback::ALL, AskFallback::as_str);
        check(HeadlessAsk::ALL, HeadlessAsk::as_str);
        check(Detection::ALL, Detection::as_str);
        assert_eq!(Fail::parse("closed").unwrap(), Fail::Closed);
        let e = Fail::parse("closd").unwrap_err().to_string();
        assert!(e.contains("fail: `closd` (expected open or closed)"), "{e}");
        let e = Detection::parse("x").unwrap_err().to_string();
        assert!(
            e.contains("detection: `x` (expected config, env or shape)"),
            "{e}"
        );
    }
}
