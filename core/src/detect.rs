//! Which agent called us: the `--provider` flag, then environment
//! variables, then the payload's shape.
//!
//! # Order and the one conflict rule
//!
//! 1. **Flag** (`--provider`, [`Detection::Config`]): always wins; an
//!    unknown id is an `unknown_provider` error, never a fall-through.
//! 2. **Environment** ([`Detection::Env`]): only variables an agent's
//!    protocol doc says it sets *for hooks* (table below). Hooks inherit the
//!    parent's whole environment, and several agents export Claude's names,
//!    so a variable is never taken on its own word:
//!    - where the agent puts the same value in the payload (Claude's
//!      `CLAUDE_CODE_SESSION_ID` and Gemini's `GEMINI_SESSION_ID` equal the
//!      payload's `session_id`; Cursor's `CURSOR_VERSION` equals
//!      `cursor_version`), a mismatch means the variable was **inherited**
//!      from an outer agent (e.g. Codex started from Claude's Bash tool) and
//!      the rule is skipped; a match makes it *verified*, and verified rules
//!      are tried before unverified ones;
//!    - `CLAUDECODE`, `CLAUDE_CODE_CHILD_SESSION`, `CLAUDE_PROJECT_DIR`,
//!      `CLAUDE_PLUGIN_ROOT` alone, `CURSOR_TRACE_ID`, `CURSOR_AGENT`,
//!      `CODEX_HOME`, `CODEX_MANAGED_BY_NPM`, `KIMI_CODE_HOME`, `COPILOT_HOME`
//!      and `GEMINI_CLI_NO_RELAUNCH` are never used: they are set for every
//!      subprocess, by the user, or by several agents (Codex exports
//!      `CLAUDE_PLUGIN_*`; Cursor and Gemini export `CLAUDE_PROJECT_DIR`).
//! 3. **Payload shape** ([`Detection::Shape`]), see [`detect_shape`].
//!
//! **Conflict rule:** an environment rule only counts when the payload
//! could have come from that agent. A *distinctive* shape (one only a single
//! agent produces: Cursor's `conversation_id`, Gemini's `timestamp` with a
//! Gemini event name, Copilot's camelCase keys, Kimi's `client_type`,
//! Codex's `turn_id` + `model`, Claude's `prompt_id`, ...) beats every
//! environment variable naming another agent: the payload is written by the
//! process that spawned us, the environment may be a grandparent's. A
//! *generic* Claude-shaped payload (PascalCase `hook_event_name`, snake_case
//! keys, no distinctive key) can come from Claude Code, Codex, Copilot's
//! PascalCase mode (quirk `claude-code/13`, `copilot/6`) or an older Kimi;
//! there the environment decides among those four, and with no usable
//! variable Claude Code wins (it is the reference dialect the others copy).
//!
//! Environment rules, most specific first:
//!
//! | Rule | Agent | Source |
//! |---|---|---|
//! | `CLAUDE_CODE_SESSION_ID` (= payload `session_id`) | Claude Code | claude-code.md §1.2 (doc, e2e) |
//! | `GEMINI_SESSION_ID` (= payload `session_id`) | Gemini CLI | gemini-cli.md §1.2 (src, doc, e2e) |
//! | `CURSOR_VERSION` (= payload `cursor_version`) | Cursor | cursor.md §1.3 (seen) |
//! | `COPILOT_HOOK_DIR` or `COPILOT_PROJECT_DIR` | Copilot CLI | copilot-cli.md §1.2 (e2e, seen) |
//! | `KIMI_PLUGIN_ROOT` | Kimi Code (plugin hooks) | kimi-code.md §1.2 (src) |
//! | `PLUGIN_ROOT` equal to `CLAUDE_PLUGIN_ROOT`, no `CURSOR_PLUGIN_ROOT` | Codex (plugin hooks) | codex.md §1.2 (doc) |
//! | `GEMINI_PROJECT_DIR` and `GEMINI_CWD` (= payload `cwd`) | Gemini CLI | gemini-cli.md §1.2 (src, doc, e2e) |
//! | `CURSOR_PROJECT_DIR` | Cursor | cursor.md §1.3 (seen) |
//!
//! OpenCode and OpenClaw run hooks in-process through a plugin bridge
//! (`agenthooks serve --provider=...`), never through `run`, so they have
//! no rule here.
//!
//! # Variants
//!
//! Each agent's rule lives in its dialect file (`dialect::Agent::variant`):
//! Claude Code `remote` when `CLAUDE_CODE_REMOTE=true` (claude-code.md
//! §1.2); Cursor by the decoder's own rule (`dialect::cursor::variant`,
//! cursor.md §6.1), with `CURSOR_VERSION` standing in for a payload without
//! `cursor_version`; Copilot `cloud` when the cloud sandbox variables
//! `COPILOT_AGENT_PROMPT` / `GITHUB_COPILOT_API_TOKEN` are set
//! (copilot-cli.md §1.2). Otherwise no variant.

use serde_json::{Map, Value};

use crate::dialect::DEFAULT_MAX_BYTES;
use crate::error::Error;
use crate::model::{Detection, Provider};

/// Names the calling agent: `flag` (`--provider`), then `env`, then the
/// payload's shape. `payload` is the stdin bytes; when it is empty, the last
/// argv element holding a JSON object is used instead (Codex legacy
/// `notify`, Cursor CLI builds before 2026-05-20). Returns the provider, how
/// it was found, and the variant when one is known. Never panics; the
/// payload is parsed once, only when it is at most [`DEFAULT_MAX_BYTES`].
pub fn detect(
    flag: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
    argv: &[String],
    payload: &[u8],
) -> Result<(Provider, Detection, Option<String>), Error> {
    let map = parse(payload, argv);
    let map = map.as_ref();
    if let Some(f) = flag {
        let p = Provider::parse(f)?;
        return Ok((p, Detection::Config, variant(p, env, map)));
    }
    let shape = map.and_then(classify);
    let hits = env_hits(env, map);
    let ordered = hits
        .iter()
        .filter(|h| h.verified)
        .chain(hits.iter().filter(|h| !h.verified));
    for h in ordered {
        let fits = match shape {
            None => true,
            Some((p, Strength::Distinct)) => p == h.provider,
            Some((_, Strength::Generic)) => CLAUDE_SHAPED.contains(&h.provider),
        };
        if fits {
            return Ok((h.provider, Detection::Env, variant(h.provider, env, map)));
        }
    }
    if let Some((p, _)) = shape {
        return Ok((p, Detection::Shape, variant(p, env, map)));
    }
    Err(Error::UnknownProvider {
        given: "(not detected: no --provider, no agent hook variable, unrecognised payload)".into(),
    })
}

/// The agent whose dialect this payload's top-level keys belong to, or
/// `None` when nothing identifies one. Rules, first match wins (each one
/// names its source):
///
/// 1. `type: "agent-turn-complete"` without `hook_event_name` → Codex
///    legacy `notify` (codex.md §4.7).
/// 2. Any of `conversation_id`, `generation_id`, `cursor_version`,
///    `workspace_roots`, `is_background_agent`, or a camelCase
///    `hook_event_name` (`preToolUse`, `beforeShellExecution`, ...) →
///    Cursor (cursor.md §3.1; Copilot's camelCase payloads never carry
///    `hook_event_name` in camelCase, copilot-cli.md §3.1).
/// 3. A camelCase key Copilot sends (`sessionId`, `toolName`, `toolArgs`,
///    `toolInput`, `toolResult`, `hookName`, `transcriptPath`,
///    `initialPrompt`, `transformedPrompt`, `errorContext`, `agentName`,
///    `stopReason`, `customInstructions`) or a numeric `timestamp` →
///    Copilot camelCase dialect (copilot-cli.md §3.1, §3.2, §3.4).
/// 4. A Gemini-only event name (`BeforeTool`, `AfterTool`, `BeforeAgent`,
///    `AfterAgent`, `BeforeModel`, `AfterModel`, `BeforeToolSelection`,
///    `PreCompress`) or key (`llm_request`, `llm_response`, `mcp_context`,
///    `prompt_response`, `original_request_name`); or an ISO `timestamp`
///    with Gemini evidence — `transcript_path` (Gemini sends it on every
///    event, Copilot only on `Stop`/`SubagentStop`/`PreCompact`),
///    `details`, `source: "clear"`, a Gemini `SessionEnd` reason — on any
///    event name that is not one of Copilot's own PascalCase events
///    (shared `SessionStart`/`SessionEnd`/`Notification`, an unknown name,
///    or none) → Gemini (gemini-cli.md §3.1, §3.2, §1.2).
/// 5. Any other string `timestamp`, or `ErrorOccurred` → Copilot's
///    PascalCase (Claude-compatible) dialect: Claude, Codex and Kimi never
///    send `timestamp` (copilot-cli.md §3.1, quirk `copilot/6`).
/// 6. A Kimi-only event name (`UserPromptQueued`, `TurnStarted`,
///    `PermissionResult`, `SessionHeartbeat`, `TaskStarted`), a Kimi key
///    (`client_type`, `tool_call_id`, `is_steer`, `origin_kind`,
///    `uptime_ms`, `agent_name`, `error_type`, `token_count`,
///    `estimated_token_count`, `sink`, `source_kind`, `profile`,
///    `queue_length`), a numeric `turn_id`, a content-part array `prompt`,
///    a `SessionEnd` reason `exit` / `archive`, or a `session_id` of the
///    form `session_…` (Kimi's ids; the others send UUIDs) → Kimi Code
///    (kimi-code.md §3.1, §3.2). The last one catches 0.22-era and legacy
///    Python CLI payloads that have no other Kimi key.
/// 7. A Codex-only event name (`PreModelRequest`, `PostModelRequest`),
///    `thread_id`, or a string `turn_id` together with a string `model` →
///    Codex (codex.md §3.1, §3.2).
/// 8. A Claude-only event name (`Setup`, `MessageDisplay`, `PostToolBatch`,
///    `PermissionDenied`, `FileChanged`, ...) or key (`prompt_id`, `effort`,
///    `background_tasks`, `session_crons`, `permission_suggestions`,
///    `mcp_server`) → Claude Code (claude-code.md §2, §3).
/// 9. A string `turn_id` on any event but `MessageDisplay` (Claude sends
///    `turn_id` only there), or a string `model` with `permission_mode` or
///    on any event but `SessionStart` (Claude sends `model` only on
///    `SessionStart`, never with `permission_mode`) → Codex (codex.md §3.1,
///    claude-code.md §3.1).
/// 10. A generic Claude-shaped payload (a string `hook_event_name`): Codex
///     when `transcript_path`'s file name starts with `rollout-` (Codex
///     stores rollouts there, codex.md §3.1; a hint, the format is not a
///     stable interface), else Claude Code, the reference dialect the
///     others copy. Codex `SessionEnd` (codex.md §3.2) and Copilot
///     PascalCase payloads without `timestamp` are byte-for-byte
///     Claude-shaped; the environment separates them in [`detect`].
pub fn detect_shape(map: &Map<String, Value>) -> Option<Provider> {
    classify(map).map(|(p, _)| p)
}

/// How much a shape says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strength {
    /// Only this agent produces it.
    Distinct,
    /// Claude-shaped: any of [`CLAUDE_SHAPED`] could have sent it.
    Generic,
}

/// Agents whose payloads can be indistinguishable from Claude Code's.
const CLAUDE_SHAPED: [Provider; 4] = [
    Provider::ClaudeCode,
    Provider::Codex,
    Provider::Copilot,
    Provider::KimiCode,
];

const GEMINI_ONLY_EVENTS: &[&str] = &[
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "AfterAgent",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
    "PreCompress",
];
const GEMINI_KEYS: &[&str] = &[
    "llm_request",
    "llm_response",
    "mcp_context",
    "prompt_response",
    "original_request_name",
];
/// Copilot's PascalCase events that Gemini does not have (copilot-cli.md §2).
const COPILOT_PASCAL_ONLY_EVENTS: &[&str] = &[
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "ErrorOccurred",
];
const GEMINI_END_REASONS: &[&str] = &["exit", "clear", "logout", "prompt_input_exit", "other"];

const CURSOR_KEYS: &[&str] = &[
    "conversation_id",
    "generation_id",
    "cursor_version",
    "workspace_roots",
    "is_background_agent",
];

const COPILOT_CAMEL_KEYS: &[&str] = &[
    "sessionId",
    "toolName",
    "toolArgs",
    "toolInput",
    "toolResult",
    "hookName",
    "transcriptPath",
    "initialPrompt",
    "transformedPrompt",
    "errorContext",
    "agentName",
    "stopReason",
    "customInstructions",
];

const KIMI_ONLY_EVENTS: &[&str] = &[
    "UserPromptQueued",
    "TurnStarted",
    "PermissionResult",
    "SessionHeartbeat",
    "TaskStarted",
];
const KIMI_KEYS: &[&str] = &[
    "client_type",
    "tool_call_id",
    "is_steer",
    "origin_kind",
    "uptime_ms",
    "agent_name",
    "error_type",
    "token_count",
    "estimated_token_count",
    "sink",
    "source_kind",
    "profile",
    "queue_length",
];

const CODEX_ONLY_EVENTS: &[&str] = &["PreModelRequest", "PostModelRequest"];

const CLAUDE_ONLY_EVENTS: &[&str] = &[
    "Setup",
    "InstructionsLoaded",
    "UserPromptExpansion",
    "MessageDisplay",
    "PermissionDenied",
    "PostToolBatch",
    "TaskCreated",
    "TaskCompleted",
    "TeammateIdle",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "Elicitation",
    "ElicitationResult",
    "PreModelSwitch",
    "PostModelSwitch",
];
const CLAUDE_KEYS: &[&str] = &[
    "prompt_id",
    "effort",
    "background_tasks",
    "session_crons",
    "permission_suggestions",
    "mcp_server",
];

fn str_of<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    map.get(key).and_then(Value::as_str)
}

fn has_any(map: &Map<String, Value>, keys: &[&str]) -> bool {
    keys.iter().any(|k| map.contains_key(*k))
}

fn classify(map: &Map<String, Value>) -> Option<(Provider, Strength)> {
    use Strength::{Distinct, Generic};
    let name = str_of(map, "hook_event_name");
    let named = |set: &[&str]| name.is_some_and(|n| set.contains(&n));

    // 1. Codex legacy notify (argv transport, kebab-case keys).
    if name.is_none() && str_of(map, "type") == Some("agent-turn-complete") {
        return Some((Provider::Codex, Distinct));
    }
    // 2. Cursor: its identifiers, or a camelCase event name.
    let camel_event = name.is_some_and(|n| n.starts_with(|c: char| c.is_ascii_lowercase()));
    if camel_event || has_any(map, CURSOR_KEYS) {
        return Some((Provider::Cursor, Distinct));
    }
    // 3. Copilot camelCase dialect.
    let timestamp = map.get("timestamp");
    if has_any(map, COPILOT_CAMEL_KEYS) || timestamp.is_some_and(Value::is_number) {
        return Some((Provider::Copilot, Distinct));
    }
    // 4. Gemini.
    let iso_timestamp = timestamp.is_some_and(Value::is_string);
    if named(GEMINI_ONLY_EVENTS) || has_any(map, GEMINI_KEYS) {
        return Some((Provider::Gemini, Distinct));
    }
    if iso_timestamp && !named(COPILOT_PASCAL_ONLY_EVENTS) {
        let gemini = map.contains_key("transcript_path")
            || map.contains_key("details")
            || str_of(map, "source") == Some("clear")
            || (name == Some("SessionEnd")
                && str_of(map, "reason").is_some_and(|r| GEMINI_END_REASONS.contains(&r)));
        if gemini {
            return Some((Provider::Gemini, Distinct));
        }
    }
    // 5. Copilot PascalCase (Claude-compatible) dialect.
    if iso_timestamp || name == Some("ErrorOccurred") {
        return Some((Provider::Copilot, Distinct));
    }
    // 6. Kimi Code.
    let turn_id = map.get("turn_id");
    let kimi = named(KIMI_ONLY_EVENTS)
        || has_any(map, KIMI_KEYS)
        || turn_id.is_some_and(Value::is_number)
        || map.get("prompt").is_some_and(Value::is_array)
        || (name == Some("SessionEnd")
            && matches!(str_of(map, "reason"), Some("exit" | "archive")))
        || str_of(map, "session_id").is_some_and(|s| s.starts_with("session_"));
    if kimi {
        return Some((Provider::KimiCode, Distinct));
    }
    // 7. Codex, distinctive.
    let turn_str = turn_id.is_some_and(Value::is_string);
    let model_str = map.get("model").is_some_and(Value::is_string);
    if named(CODEX_ONLY_EVENTS) || map.contains_key("thread_id") || (turn_str && model_str) {
        return Some((Provider::Codex, Distinct));
    }
    // 8. Claude Code, distinctive.
    if named(CLAUDE_ONLY_EVENTS) || has_any(map, CLAUDE_KEYS) {
        return Some((Provider::ClaudeCode, Distinct));
    }
    // 9. Codex: fields Claude sends only on one event.
    let codex_turn = turn_str && name != Some("MessageDisplay");
    let codex_model = model_str
        && (map.contains_key("permission_mode") || name.is_some_and(|n| n != "SessionStart"));
    if codex_turn || codex_model {
        return Some((Provider::Codex, Distinct));
    }
    // 10. Generic Claude-shaped payload.
    name?;
    let rollout = str_of(map, "transcript_path")
        .map(|p| p.rsplit(['/', '\\']).next().unwrap_or(p))
        .is_some_and(|f| f.starts_with("rollout-"));
    if rollout {
        return Some((Provider::Codex, Generic));
    }
    Some((Provider::ClaudeCode, Generic))
}

/// One environment rule that fired.
#[derive(Debug, Clone, Copy)]
struct EnvHit {
    provider: Provider,
    /// The variable's value was found again in the payload.
    verified: bool,
}

/// Checks a variable against the payload field that carries the same value:
/// `Some(true)` equal, `None` not checkable, `Some(false)` different (the
/// variable was inherited from another agent's process).
fn cross_check(value: &str, map: Option<&Map<String, Value>>, key: &str) -> Option<bool> {
    let field = map.and_then(|m| m.get(key))?;
    Some(match field {
        Value::String(s) => s == value,
        Value::Number(n) => n.to_string() == value,
        _ => false,
    })
}

fn env_hits(env: &dyn Fn(&str) -> Option<String>, map: Option<&Map<String, Value>>) -> Vec<EnvHit> {
    let set = |k: &str| env(k).filter(|v| !v.is_empty());
    let mut hits = Vec::new();
    let mut push = |provider: Provider, check: Option<bool>| {
        if check != Some(false) {
            hits.push(EnvHit {
                provider,
                verified: check == Some(true),
            });
        }
    };
    if let Some(v) = set("CLAUDE_CODE_SESSION_ID") {
        push(Provider::ClaudeCode, cross_check(&v, map, "session_id"));
    }
    if let Some(v) = set("GEMINI_SESSION_ID") {
        push(Provider::Gemini, cross_check(&v, map, "session_id"));
    }
    if let Some(v) = set("CURSOR_VERSION") {
        push(Provider::Cursor, cross_check(&v, map, "cursor_version"));
    }
    if set("COPILOT_HOOK_DIR").is_some() || set("COPILOT_PROJECT_DIR").is_some() {
        push(Provider::Copilot, None);
    }
    if set("KIMI_PLUGIN_ROOT").is_some() {
        push(Provider::KimiCode, None);
    }
    if let (Some(a), Some(b)) = (set("PLUGIN_ROOT"), set("CLAUDE_PLUGIN_ROOT")) {
        if a == b && set("CURSOR_PLUGIN_ROOT").is_none() {
            push(Provider::Codex, None);
        }
    }
    if let (Some(_), Some(cwd)) = (set("GEMINI_PROJECT_DIR"), set("GEMINI_CWD")) {
        push(Provider::Gemini, cross_check(&cwd, map, "cwd"));
    }
    if set("CURSOR_PROJECT_DIR").is_some() {
        push(Provider::Cursor, None);
    }
    hits
}

/// Parses the payload (stdin, else the last JSON-object argv element) as a
/// JSON object; `None` for anything else. Bounded by [`DEFAULT_MAX_BYTES`];
/// reads what the agents' `JSON.parse` reads (`dialect::json`).
fn parse(payload: &[u8], argv: &[String]) -> Option<Map<String, Value>> {
    let blank = payload.iter().all(u8::is_ascii_whitespace);
    let bytes: &[u8] = if blank {
        argv.iter()
            .rev()
            .map(|a| a.trim())
            .find(|a| a.starts_with('{') && a.ends_with('}'))?
            .as_bytes()
    } else {
        payload
    };
    crate::dialect::parse_object(bytes, DEFAULT_MAX_BYTES).ok()
}

/// The variant, where the provider's doc says how to tell: the agent's own
/// rule (`dialect::Agent::variant`, in its dialect file).
fn variant(
    p: Provider,
    env: &dyn Fn(&str) -> Option<String>,
    map: Option<&Map<String, Value>>,
) -> Option<String> {
    let empty = Map::new();
    (crate::dialect::agent(p).variant)(map.unwrap_or(&empty), env).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => panic!("not an object"),
        }
    }

    fn shape(v: Value) -> Option<Provider> {
        detect_shape(&obj(v))
    }

    fn run(vars: &[(&str, &str)], argv: &[&str], payload: &Value) -> (Provider, Detection) {
        run_bytes(vars, argv, payload.to_string().as_bytes()).unwrap()
    }

    fn run_bytes(
        vars: &[(&str, &str)],
        argv: &[&str],
        payload: &[u8],
    ) -> Result<(Provider, Detection), Error> {
        let m: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let env = move |k: &str| m.get(k).cloned();
        let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
        detect(None, &env, &argv, payload).map(|(p, d, _)| (p, d))
    }

    fn variant_of(flag: &str, vars: &[(&str, &str)], payload: &Value) -> Option<String> {
        let m: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let env = move |k: &str| m.get(k).cloned();
        detect(Some(flag), &env, &[], payload.to_string().as_bytes())
            .unwrap()
            .2
    }

    // ---- shape, one test per agent (fixture-free) ----

    #[test]
    fn shape_claude_code() {
        // claude-code.md §8: prompt_id and effort are Claude's own.
        let pre = serde_json::json!({
            "session_id": "5f0c", "transcript_path": "/home/dev/.claude/projects/p/5f0c.jsonl",
            "cwd": "/srv/shop", "prompt_id": "0d4a", "permission_mode": "acceptEdits",
            "effort": {"level": "high"}, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "toolu_1"
        });
        assert_eq!(shape(pre), Some(Provider::ClaudeCode));
        // A minimal Claude-shaped payload falls back to Claude (generic rule).
        let bare = serde_json::json!({"session_id": "s", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t"});
        assert_eq!(shape(bare), Some(Provider::ClaudeCode));
        // Claude-only event names; SessionStart(compact) has `model` but no
        // permission_mode; MessageDisplay has `turn_id` (claude-code.md §3.1).
        let compact = serde_json::json!({"session_id": "s", "transcript_path": "/t.jsonl",
            "cwd": "/c", "hook_event_name": "SessionStart", "source": "compact", "model": "claude-opus"});
        assert_eq!(shape(compact), Some(Provider::ClaudeCode));
        let display = serde_json::json!({"session_id": "s", "hook_event_name": "MessageDisplay",
            "turn_id": "u1", "message_id": "m", "index": 0, "final": true, "delta": "hi"});
        assert_eq!(shape(display), Some(Provider::ClaudeCode));
    }

    #[test]
    fn shape_codex() {
        // codex.md §8: turn_id + model on a Claude-shaped payload.
        let pre = serde_json::json!({
            "session_id": "0199", "turn_id": "0199b", "transcript_path": "/x/rollout-1.jsonl",
            "cwd": "/srv/api", "hook_event_name": "PreToolUse", "model": "gpt-5.5-codex",
            "permission_mode": "default", "tool_name": "Bash",
            "tool_input": {"command": "ls"}, "tool_use_id": "call_1"
        });
        assert_eq!(shape(pre), Some(Provider::Codex));
        // SessionStart: model + permission_mode, no turn_id (codex.md §3.1).
        let start = serde_json::json!({"session_id": "s", "transcript_path": "/t", "cwd": "/c",
            "hook_event_name": "SessionStart", "model": "gpt-5.5", "permission_mode": "default",
            "source": "startup"});
        assert_eq!(shape(start), Some(Provider::Codex));
        // PreModelRequest (codex.md §3.2) and legacy notify (§4.7).
        let pmr = serde_json::json!({"kind": "sampling", "session_id": "s", "thread_id": "s",
            "turn_id": "t", "hook_event_name": "PreModelRequest"});
        assert_eq!(shape(pmr), Some(Provider::Codex));
        let notify = serde_json::json!({"type": "agent-turn-complete", "thread-id": "b1",
            "turn-id": "7", "cwd": "/srv/app", "input-messages": ["x"],
            "last-assistant-message": null});
        assert_eq!(shape(notify), Some(Provider::Codex));
        // SessionEnd is Claude-shaped; the rollout path hints Codex.
        let end = serde_json::json!({"session_id": "s",
            "transcript_path": "/home/dev/.codex/sessions/2026/08/30/rollout-0199.jsonl",
            "cwd": "/c", "hook_event_name": "SessionEnd", "reason": "other"});
        assert_eq!(shape(end), Some(Provider::Codex));
    }

    #[test]
    fn shape_cursor() {
        // cursor.md §7.1 and §7.7.
        let shell = serde_json::json!({"hook_event_name": "beforeShellExecution",
            "conversation_id": "4f0b", "generation_id": "a92c", "model": "composer-2",
            "cursor_version": "2.3.9", "workspace_roots": ["/home/ana/ledger"],
            "command": "git push", "cwd": "/home/ana/ledger"});
        assert_eq!(shape(shell), Some(Provider::Cursor));
        // A camelCase event name alone is enough.
        let stop = serde_json::json!({"hook_event_name": "stop", "status": "completed",
            "loop_count": 1});
        assert_eq!(shape(stop), Some(Provider::Cursor));
    }

    #[test]
    fn shape_gemini() {
        // gemini-cli.md §7.1: timestamp + a Gemini-only event name.
        let before = serde_json::json!({"session_id": "e3b7", "transcript_path": "",
            "cwd": "/home/li/atlas", "hook_event_name": "BeforeTool",
            "timestamp": "2026-08-03T14:05:09.412Z", "tool_name": "run_shell_command",
            "tool_input": {"command": "rm -rf build/"}});
        assert_eq!(shape(before), Some(Provider::Gemini));
        // §7.6: SessionStart, a name Copilot's PascalCase mode shares;
        // Gemini sends transcript_path on every event.
        let start = serde_json::json!({"session_id": "b81e", "transcript_path": "",
            "cwd": "/srv/site", "hook_event_name": "SessionStart",
            "timestamp": "2026-08-03T09:00:00.125Z", "source": "startup"});
        assert_eq!(shape(start), Some(Provider::Gemini));
        // §7.7: AfterModel without common fields still has llm_response.
        let after = serde_json::json!({"hook_event_name": "AfterModel",
            "llm_request": {"model": "gemini-2.5-pro"}, "llm_response": {"text": ""}});
        assert_eq!(shape(after), Some(Provider::Gemini));
        // An event this build does not know, or none at all: timestamp +
        // transcript_path is Gemini's common set (§3.1).
        let unknown = serde_json::json!({"session_id": "e3b7", "transcript_path": "/t.jsonl",
            "cwd": "/c", "hook_event_name": "AfterCompress",
            "timestamp": "2026-08-03T14:05:09.412Z"});
        assert_eq!(shape(unknown), Some(Provider::Gemini));
        let nameless = serde_json::json!({"session_id": "e3b7", "transcript_path": "",
            "cwd": "/c", "timestamp": "2026-08-03T14:05:09.412Z", "tool_name": "read_file"});
        assert_eq!(shape(nameless), Some(Provider::Gemini));
        // Copilot's PascalCase Stop also has transcript_path: Copilot.
        let cp_stop = serde_json::json!({"session_id": "8a3e", "transcript_path": "/e.jsonl",
            "cwd": "/c", "hook_event_name": "Stop", "timestamp": "2026-08-30T09:10:42.113Z",
            "stop_hook_active": false});
        assert_eq!(shape(cp_stop), Some(Provider::Copilot));
    }

    #[test]
    fn shape_kimi() {
        // kimi-code.md §8: client_type, tool_call_id, prompt parts, turn_id number.
        let pre = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "session_7c",
            "cwd": "/srv/notes", "client_type": "kimi_code_cli", "tool_name": "Bash",
            "tool_input": {"command": "ls"}, "tool_call_id": "call_9"});
        assert_eq!(shape(pre), Some(Provider::KimiCode));
        // Before 0.38.0 there is no client_type: tool_call_id still tells.
        let old = serde_json::json!({"hook_event_name": "PostToolUse", "session_id": "s",
            "cwd": "/c", "tool_name": "Bash", "tool_input": {}, "tool_call_id": "c",
            "tool_output": "ok"});
        assert_eq!(shape(old), Some(Provider::KimiCode));
        let ups = serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": "s",
            "cwd": "/c", "prompt": [{"type": "text", "text": "hi"}], "is_steer": false});
        assert_eq!(shape(ups), Some(Provider::KimiCode));
        let turn = serde_json::json!({"hook_event_name": "Interrupt", "session_id": "s",
            "cwd": "/c", "turn_id": 0, "reason": "cancelled"});
        assert_eq!(shape(turn), Some(Provider::KimiCode));
        // 0.22-era Stop: nothing but Kimi's `session_…` id style (§3.1).
        let old_stop = serde_json::json!({"hook_event_name": "Stop",
            "session_id": "session_3f6b", "cwd": "/c", "stop_hook_active": false});
        assert_eq!(shape(old_stop), Some(Provider::KimiCode));
    }

    #[test]
    fn shape_copilot() {
        // copilot-cli.md §8: camelCase, numeric timestamp, no event name.
        let pre = serde_json::json!({"sessionId": "8a3e", "timestamp": 1788251442113u64,
            "cwd": "/srv/web", "toolName": "bash",
            "toolArgs": {"command": "npm publish"}});
        assert_eq!(shape(pre), Some(Provider::Copilot));
        let old_prompt = serde_json::json!({"timestamp": 1788251440002u64, "cwd": "/srv/web",
            "prompt": "publish"});
        assert_eq!(shape(old_prompt), Some(Provider::Copilot));
        // Notification names itself in PascalCase but keeps camelCase keys.
        let note = serde_json::json!({"sessionId": "8a3e", "timestamp": 1788251510000u64,
            "cwd": "/srv/web", "message": "m", "hook_event_name": "Notification",
            "notification_type": "permission_prompt"});
        assert_eq!(shape(note), Some(Provider::Copilot));
        // PascalCase (Claude-compatible) mode: ISO timestamp (§8).
        let pascal = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "8a3e",
            "timestamp": "2026-08-30T09:10:42.113Z", "cwd": "/srv/web", "tool_name": "Bash",
            "tool_input": {"command": "npm publish"}});
        assert_eq!(shape(pascal), Some(Provider::Copilot));
        let start = serde_json::json!({"hook_event_name": "SessionStart", "session_id": "8a3e",
            "timestamp": "2026-08-30T09:10:42.113Z", "cwd": "/srv/web", "source": "new"});
        assert_eq!(shape(start), Some(Provider::Copilot));
    }

    #[test]
    fn shape_unknown() {
        assert_eq!(shape(serde_json::json!({})), None);
        assert_eq!(
            shape(serde_json::json!({"foo": 1, "session_id": "s"})),
            None
        );
        assert_eq!(shape(serde_json::json!({"hook_event_name": 5})), None);
    }

    // ---- detect(): flag, env rules, conflicts ----

    fn claude_generic(session: &str) -> Value {
        serde_json::json!({"session_id": session, "transcript_path": "/t.jsonl", "cwd": "/c",
            "hook_event_name": "SessionEnd", "reason": "other"})
    }

    #[test]
    fn flag_wins_and_unknown_flag_is_an_error() {
        let p = claude_generic("s");
        let env = |_: &str| Some("x".to_string());
        let got = detect(Some("gemini-cli"), &env, &[], p.to_string().as_bytes()).unwrap();
        assert_eq!((got.0, got.1), (Provider::Gemini, Detection::Config));
        let err = detect(Some("vim"), &env, &[], b"{}").unwrap_err();
        assert_eq!(err.code().as_str(), "unknown_provider");
    }

    #[test]
    fn nothing_matches_is_unknown_provider() {
        let err = run_bytes(&[], &[], b"not json").unwrap_err();
        assert_eq!(err.code().as_str(), "unknown_provider");
        let err = run_bytes(
            &[("CLAUDECODE", "1"), ("CLAUDE_PROJECT_DIR", "/p")],
            &[],
            b"{}",
        )
        .unwrap_err();
        assert_eq!(err.code().as_str(), "unknown_provider");
    }

    #[test]
    fn env_claude_session_id_verified_and_inherited() {
        // Verified: the variable equals the payload's session_id.
        let p = claude_generic("s1");
        assert_eq!(
            run(&[("CLAUDE_CODE_SESSION_ID", "s1")], &[], &p),
            (Provider::ClaudeCode, Detection::Env)
        );
        // Inherited from an outer Claude session: different id, ignored;
        // Codex's own plugin variables decide.
        let vars = [
            ("CLAUDE_CODE_SESSION_ID", "outer"),
            ("PLUGIN_ROOT", "/plug"),
            ("CLAUDE_PLUGIN_ROOT", "/plug"),
        ];
        assert_eq!(run(&vars, &[], &p), (Provider::Codex, Detection::Env));
        // No payload to check against: the variable still counts.
        assert_eq!(
            run_bytes(&[("CLAUDE_CODE_SESSION_ID", "s1")], &[], b"").unwrap(),
            (Provider::ClaudeCode, Detection::Env)
        );
    }

    #[test]
    fn env_claude_markers_shared_with_other_agents_are_ignored() {
        // Codex exports CLAUDE_PLUGIN_* alone, Cursor/Gemini CLAUDE_PROJECT_DIR;
        // CLAUDECODE is inherited by anything started in a Claude terminal.
        let vars = [
            ("CLAUDECODE", "1"),
            ("CLAUDE_CODE_CHILD_SESSION", "1"),
            ("CLAUDE_PROJECT_DIR", "/p"),
            ("CLAUDE_PLUGIN_ROOT", "/plug"),
        ];
        let codex = serde_json::json!({"session_id": "s", "turn_id": "t",
            "hook_event_name": "Stop", "model": "gpt-5.5", "stop_hook_active": false});
        assert_eq!(run(&vars, &[], &codex), (Provider::Codex, Detection::Shape));
        assert_eq!(
            run(&vars, &[], &claude_generic("s")),
            (Provider::ClaudeCode, Detection::Shape)
        );
    }

    #[test]
    fn env_gemini_session_id() {
        let p = serde_json::json!({"session_id": "g1", "hook_event_name": "SessionEnd",
            "reason": "exit", "timestamp": "2026-08-03T09:00:00.125Z", "transcript_path": ""});
        assert_eq!(
            run(&[("GEMINI_SESSION_ID", "g1")], &[], &p),
            (Provider::Gemini, Detection::Env)
        );
        // Inherited into a Claude hook (different session): ignored.
        assert_eq!(
            run(&[("GEMINI_SESSION_ID", "g1")], &[], &claude_generic("c1")),
            (Provider::ClaudeCode, Detection::Shape)
        );
        // GEMINI_PROJECT_DIR + GEMINI_CWD, cross-checked with cwd.
        let vars = [("GEMINI_PROJECT_DIR", "/c"), ("GEMINI_CWD", "/c")];
        assert_eq!(
            run_bytes(&vars, &[], b"").unwrap(),
            (Provider::Gemini, Detection::Env)
        );
    }

    #[test]
    fn env_cursor_version() {
        let p = serde_json::json!({"hook_event_name": "stop", "conversation_id": "c",
            "cursor_version": "2.3.9"});
        assert_eq!(
            run(&[("CURSOR_VERSION", "2.3.9")], &[], &p),
            (Provider::Cursor, Detection::Env)
        );
        // CURSOR_PROJECT_DIR inherited into a Claude-shaped payload: Cursor
        // payloads always carry conversation_id, so this cannot be Cursor.
        assert_eq!(
            run(&[("CURSOR_PROJECT_DIR", "/w")], &[], &claude_generic("s")),
            (Provider::ClaudeCode, Detection::Shape)
        );
        assert_eq!(
            run_bytes(&[("CURSOR_PROJECT_DIR", "/w")], &[], b"").unwrap(),
            (Provider::Cursor, Detection::Env)
        );
    }

    #[test]
    fn env_copilot_resolves_claude_shaped_payloads() {
        // Copilot runs Claude-format hooks from .claude/settings.json
        // (copilot-cli.md §1.3); a payload without `timestamp` looks like
        // Claude's, and Copilot's hook variables decide.
        let p = claude_generic("s");
        assert_eq!(
            run(&[("COPILOT_HOOK_DIR", "/h")], &[], &p),
            (Provider::Copilot, Detection::Env)
        );
        // A distinctive shape of another agent beats the variable.
        let cursor = serde_json::json!({"hook_event_name": "stop", "conversation_id": "c"});
        assert_eq!(
            run(&[("COPILOT_PROJECT_DIR", "/r")], &[], &cursor),
            (Provider::Cursor, Detection::Shape)
        );
    }

    #[test]
    fn env_kimi_plugin_root() {
        let p = serde_json::json!({"hook_event_name": "Stop", "session_id": "s", "cwd": "/c",
            "stop_hook_active": false});
        assert_eq!(
            run(&[("KIMI_PLUGIN_ROOT", "/k")], &[], &p),
            (Provider::KimiCode, Detection::Env)
        );
        assert_eq!(run(&[], &[], &p), (Provider::ClaudeCode, Detection::Shape));
    }

    #[test]
    fn env_codex_plugin_root_needs_both_equal() {
        let p = claude_generic("s");
        let only_claude = [("CLAUDE_PLUGIN_ROOT", "/plug")];
        assert_eq!(
            run(&only_claude, &[], &p),
            (Provider::ClaudeCode, Detection::Shape)
        );
        let differ = [("PLUGIN_ROOT", "/a"), ("CLAUDE_PLUGIN_ROOT", "/b")];
        assert_eq!(
            run(&differ, &[], &p),
            (Provider::ClaudeCode, Detection::Shape)
        );
        let cursor_plugin = [
            ("PLUGIN_ROOT", "/a"),
            ("CLAUDE_PLUGIN_ROOT", "/a"),
            ("CURSOR_PLUGIN_ROOT", "/a"),
        ];
        assert_eq!(
            run(&cursor_plugin, &[], &p),
            (Provider::ClaudeCode, Detection::Shape)
        );
    }

    #[test]
    fn verified_env_beats_unverified_env() {
        let p = claude_generic("s1");
        let vars = [("COPILOT_HOOK_DIR", "/h"), ("CLAUDE_CODE_SESSION_ID", "s1")];
        assert_eq!(run(&vars, &[], &p), (Provider::ClaudeCode, Detection::Env));
    }

    #[test]
    fn argv_payload_when_stdin_is_empty() {
        let notify = r#"{"type":"agent-turn-complete","thread-id":"t","turn-id":"1","cwd":"/c"}"#;
        assert_eq!(
            run_bytes(&[], &["notify.sh", notify], b"").unwrap(),
            (Provider::Codex, Detection::Shape)
        );
        let cursor = r#"{"hook_event_name":"beforeShellExecution","conversation_id":"c"}"#;
        assert_eq!(
            run_bytes(&[], &["hook", cursor], b"\n").unwrap(),
            (Provider::Cursor, Detection::Shape)
        );
    }

    #[test]
    fn hostile_payloads_do_not_panic() {
        let deep = "[".repeat(100_000);
        assert!(run_bytes(&[], &[], deep.as_bytes()).is_err());
        assert!(run_bytes(&[], &[], b"\xff\xfe{").is_err());
        assert!(run_bytes(&[], &[], b"[1,2]").is_err());
        assert!(run_bytes(&[], &["{not json}"], b"").is_err());
    }

    #[test]
    fn variants() {
        let c = claude_generic("s");
        assert_eq!(
            variant_of("claude", &[("CLAUDE_CODE_REMOTE", "true")], &c).as_deref(),
            Some("remote")
        );
        assert_eq!(variant_of("claude", &[], &c), None);
        let cli = serde_json::json!({"hook_event_name": "sessionStart",
            "cursor_version": "2026.09.18-9a7762b", "is_background_agent": false});
        assert_eq!(variant_of("cursor", &[], &cli).as_deref(), Some("cli"));
        let ide = serde_json::json!({"hook_event_name": "stop", "cursor_version": "2.0.77"});
        assert_eq!(variant_of("cursor", &[], &ide).as_deref(), Some("ide"));
        let composer =
            serde_json::json!({"hook_event_name": "sessionStart", "composer_mode": "agent"});
        assert_eq!(variant_of("cursor", &[], &composer).as_deref(), Some("ide"));
        let cloud = serde_json::json!({"hook_event_name": "sessionStart",
            "cursor_version": "2.0.77", "is_background_agent": true});
        assert_eq!(variant_of("cursor", &[], &cloud).as_deref(), Some("cloud"));
        let bare = serde_json::json!({"hook_event_name": "stop"});
        assert_eq!(
            variant_of("cursor", &[("CURSOR_VERSION", "2026.02.13-41ac335")], &bare).as_deref(),
            Some("cli")
        );
        let cp = serde_json::json!({"sessionId": "s", "timestamp": 1});
        assert_eq!(
            variant_of("copilot", &[("COPILOT_AGENT_PROMPT", "do it")], &cp).as_deref(),
            Some("cloud")
        );
        assert_eq!(
            variant_of("codex", &[("CLAUDE_CODE_REMOTE", "true")], &c),
            None
        );
    }
}
