//! codex 0.171.0: the fields of every native event's payload and
//! answer (sources: docs/protocols/codex.md, the dialect's decoder and
//! encoder, and the real-agent captures in fixtures/codex/).

use super::{A, AgentTable, B, EventSpec, Field, I, NUL, O, Out, S, ev, f};
use crate::model::Provider;

pub(crate) static TABLE: AgentTable = AgentTable {
    provider: Provider::Codex,
    version: "0.171.0",
    source: "docs/protocols/codex.md",
    glossary: GLOSSARY,
    groups: &[
        // the event-specific object and its event name
        (
            "hso",
            &["hookSpecificOutput", "hookSpecificOutput.hookEventName"],
        ),
        // the fields every event's answer may carry
        (
            "universal",
            &["continue", "stopReason", "suppressOutput", "systemMessage"],
        ),
    ],
    base: &[
        "session_id",
        "transcript_path",
        "cwd!",
        "hook_event_name",
        "model",
        "permission_mode",
        "turn_id",
    ],
    generic: &["tool_name", "tool_input", "tool_use_id"],
    tolerated: &[
        "duration_ms",
        "compact_summary",
        "custom_instructions",
        "mcp_server",
        "prompt_id",
    ],
    out_glossary: OUT_GLOSSARY,
    events: EVENTS,
    unknown_out: Out::Empty(
        "an event this version does not document: the only safe answer is empty stdout.",
    ),
};

const EVENTS: &[EventSpec] = &[
    ev(
        "SessionStart",
        "Thread or subagent start.",
        &["source!"],
        Out::Json(&["@universal", "@hso", "hookSpecificOutput.additionalContext"]),
    ),
    ev(
        "SessionEnd",
        "Main thread ends: archive/delete of an open conversation, normal close, or 30 min idle and not open in any client.",
        &["reason"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "UserPromptSubmit",
        "A prompt is submitted, before the model sees it.",
        &["prompt!"],
        Out::Json(&[
            "@universal",
            "decision",
            "reason",
            "@hso",
            "hookSpecificOutput.additionalContext",
        ]),
    ),
    ev(
        "PreToolUse",
        "Turn, before a tool runs.",
        &[
            "tool_name!",
            "tool_input!",
            "tool_use_id!",
            "agent_id",
            "agent_type",
        ],
        Out::Json(&[
            "@universal",
            "@hso",
            "hookSpecificOutput.permissionDecision",
            "hookSpecificOutput.permissionDecisionReason",
            "hookSpecificOutput.updatedInput",
            "hookSpecificOutput.additionalContext",
        ]),
    ),
    ev(
        "PermissionRequest",
        "Turn, when Codex is about to ask for approval (shell escalation, network approval…).",
        &["tool_name!", "tool_input!"],
        Out::Json(&[
            "@universal",
            "@hso",
            "hookSpecificOutput.decision",
            "hookSpecificOutput.decision.behavior",
            "hookSpecificOutput.decision.message",
        ]),
    ),
    ev(
        "PostToolUse",
        "Turn, after a tool produced output — including Bash commands that exited non-zero.",
        &[
            "tool_name!",
            "tool_use_id!",
            "tool_input!",
            "tool_response!",
        ],
        Out::Json(&[
            "@universal",
            "decision",
            "reason",
            "@hso",
            "hookSpecificOutput.additionalContext",
        ]),
    ),
    ev(
        "PreCompact",
        "Turn, before compaction.",
        &["trigger!"],
        Out::Json(&["continue", "stopReason", "suppressOutput", "systemMessage"]),
    ),
    ev(
        "PostCompact",
        "Turn, after compaction.",
        &["trigger"],
        Out::Json(&["continue", "stopReason", "suppressOutput", "systemMessage"]),
    ),
    ev(
        "SubagentStart",
        "Subagent start.",
        &["agent_id", "agent_type"],
        Out::Json(&["@universal", "@hso", "hookSpecificOutput.additionalContext"]),
    ),
    ev(
        "SubagentStop",
        "Turn, subagent finishes.",
        &[
            "agent_id",
            "agent_type",
            "agent_transcript_path",
            "stop_hook_active",
            "last_assistant_message",
        ],
        Out::Json(&["@universal", "decision", "reason"]),
    ),
    ev(
        "Stop",
        "The turn ends.",
        &["stop_hook_active!", "last_assistant_message!"],
        Out::Json(&["@universal", "decision", "reason"]),
    ),
    ev(
        "Interrupt",
        "The user interrupts an active turn on the main thread.",
        &[],
        Out::Json(&["continue", "stopReason", "suppressOutput", "systemMessage"]),
    ),
    ev(
        "PreModelRequest",
        "Before every model request, including the compaction request.",
        &["kind!", "request_id!", "attempt_number!", "thread_id!"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "PostModelRequest",
        "After every model request completes.",
        &[
            "kind",
            "request_id",
            "attempt_number",
            "thread_id",
            "status",
            "error",
            "token_usage",
            "token_usage.input_tokens",
            "token_usage.cached_input_tokens",
            "token_usage.cache_write_input_tokens",
            "token_usage.output_tokens",
            "token_usage.reasoning_output_tokens",
            "token_usage.total_tokens",
            "response_id",
        ],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "agent-turn-complete",
        "The legacy `notify` program: a turn completed (payload as argv JSON, kebab-case keys).",
        &[
            "type!",
            "thread-id!",
            "turn-id!",
            "client",
            "input-messages!",
            "last-assistant-message!",
        ],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
];

const GLOSSARY: &[Field] = &[
    f(
        "agent_id",
        S,
        "Subagent instance id (only inside a subagent).",
    ),
    f(
        "agent_transcript_path",
        S,
        "Path to the subagent's own transcript.",
    ),
    f(
        "agent_type",
        S,
        "Subagent type or agent name; may be empty.",
    ),
    f(
        "attempt_number",
        I,
        "Model request attempt (retries count up).",
    ),
    f(
        "token_usage.cache_write_input_tokens",
        I,
        "Input tokens written to the cache.",
    ),
    f(
        "token_usage.cached_input_tokens",
        I,
        "Input tokens read from the cache.",
    ),
    f(
        "client",
        S,
        "The client that runs the session (e.g. codex-tui, codex_exec).",
    ),
    f("cwd", S, "Working directory of the agent."),
    f("error", NUL, "Error of the request (null when none)."),
    f("hook_event_name", S, "Native event name."),
    f("input-messages", A, "notify: the turn's user messages.").items(&[f("", S, "One entry.")]),
    f("token_usage.input_tokens", I, "Input tokens."),
    f("kind", S, "Kind of the request."),
    f(
        "last-assistant-message",
        S | NUL,
        "notify: the assistant's last message.",
    ),
    f(
        "last_assistant_message",
        S | NUL,
        "The assistant's last message text.",
    ),
    f("model", S, "Model name."),
    f("token_usage.output_tokens", I, "Output tokens."),
    f(
        "permission_mode",
        S,
        "Permission mode (e.g. default, plan, acceptEdits, bypassPermissions).",
    ),
    f("prompt", S, "The user's prompt text."),
    f("reason", S, "Why the event happened."),
    f(
        "token_usage.reasoning_output_tokens",
        I,
        "Reasoning tokens.",
    ),
    f("request_id", S, "Model request id."),
    f("response_id", S, "Model response id."),
    f("session_id", S | I, "Session id."),
    f("source", S, "SessionStart: startup, resume or clear."),
    f("status", S, "Status."),
    f(
        "stop_hook_active",
        B,
        "True when a stop hook already kept the agent going in this turn.",
    ),
    f("thread-id", S, "notify: thread (session) id."),
    f("thread_id", S, "Thread id."),
    f("token_usage", O, "Token usage of the request."),
    f("tool_input", I | O, "The tool's arguments."),
    f("tool_name", S, "The agent's tool name."),
    f("tool_response", S, "The tool's output text."),
    f("tool_use_id", S, "Tool call id."),
    f("token_usage.total_tokens", I, "Total tokens."),
    f(
        "transcript_path",
        S | NUL,
        "Path to the rollout transcript (null for ephemeral sessions).",
    ),
    f(
        "trigger",
        S,
        "What triggered the event (e.g. manual or auto).",
    ),
    f("turn-id", S, "notify: turn id."),
    f("turn_id", S, "Turn id."),
    f(
        "type",
        S,
        "notify: the notification type (agent-turn-complete).",
    ),
];

const OUT_GLOSSARY: &[Field] = &[
    f(
        "continue",
        B,
        "false stops the agent entirely (stopReason is shown).",
    ),
    f(
        "decision",
        S,
        "block: block or keep going (per event); absent: no opinion.",
    ),
    f("hookSpecificOutput", O, "The event's own fields."),
    f(
        "hookSpecificOutput.additionalContext",
        S,
        "Context added for the model.",
    ),
    f(
        "hookSpecificOutput.decision",
        O,
        "The permission dialog's answer.",
    ),
    f("hookSpecificOutput.decision.behavior", S, "allow or deny."),
    f(
        "hookSpecificOutput.decision.message",
        S,
        "Deny: why (shown to the model).",
    ),
    f(
        "hookSpecificOutput.hookEventName",
        S,
        "The event name (must match).",
    ),
    f(
        "hookSpecificOutput.permissionDecision",
        S,
        "allow, deny or ask (Claude Code also defer).",
    ),
    f(
        "hookSpecificOutput.permissionDecisionReason",
        S,
        "Why (deny: shown to the model).",
    ),
    f(
        "hookSpecificOutput.updatedInput",
        O,
        "The whole replacement tool input.",
    ),
    f("reason", S, "Why (shown to the model on a block)."),
    f("stopReason", S, "Shown to the user when continue is false."),
    f(
        "suppressOutput",
        B,
        "Hide the hook's stdout from the transcript.",
    ),
    f("systemMessage", S, "A message shown to the user."),
];
