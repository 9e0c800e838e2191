//! The data model: events, tool calls, decisions, policies, responses.

mod decision;
pub(crate) mod event;
mod kind;
pub(crate) mod patch;
mod policy;
mod provider;
mod response;
mod session_mode;
mod tool;

pub use decision::{Decision, DecisionKind, StopAgent};
pub use event::{AgentInfo, Detection, Event, SessionInfo, StopInfo, Usage};
pub use kind::Kind;
pub use policy::{AskFallback, Fail, HeadlessAsk, Policy, Unsupported};
pub use provider::Provider;
pub use response::{Note, Response};
pub use session_mode::SessionMode;
pub use tool::{Canonical, McpInfo, ToolCall, input_object, patch_paths, sorted_json};

use serde_json::Value;

/// The canonical JSON presence rule: absent, `null`, `false`, `""` and
/// empty arrays/objects are omitted.
pub fn is_empty_value(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::Number(_) => false,
    }
}
