//! What each agent does with a hook's answer, and how it starts a hook:
//! one file per agent, named as its dialect (`dialect/<agent>.rs`), each
//! with its reader (`read`) and its [`HookInvocation`](super::HookInvocation)
//! row (`HOOKS`).

pub(crate) mod claude;
pub(crate) mod codex;
pub(crate) mod copilot;
pub(crate) mod cursor;
pub(crate) mod gemini;
pub(crate) mod kimi;
pub(crate) mod openclaw;
pub(crate) mod opencode;
