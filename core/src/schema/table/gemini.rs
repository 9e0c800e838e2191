//! gemini 0.61.0: the fields of every native event's payload and
//! answer (sources: docs/protocols/gemini-cli.md, the dialect's decoder and
//! encoder, and the real-agent captures in fixtures/gemini/).

use super::{A, AgentTable, B, EventSpec, Field, O, Out, S, ev, f};
use crate::model::Provider;

pub(crate) static TABLE: AgentTable = AgentTable {
    provider: Provider::Gemini,
    version: "0.61.0",
    source: "docs/protocols/gemini-cli.md",
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
            &[
                "continue",
                "stopReason",
                "suppressOutput",
                "systemMessage",
                "decision",
                "reason",
            ],
        ),
    ],
    base: &[
        "session_id",
        "transcript_path",
        "cwd",
        "hook_event_name",
        "timestamp",
    ],
    generic: &[],
    tolerated: &[],
    out_glossary: OUT_GLOSSARY,
    events: EVENTS,
    unknown_out: Out::Json(&["continue", "stopReason", "suppressOutput", "systemMessage"]),
};

const EVENTS: &[EventSpec] = &[
    ev(
        "SessionStart",
        "Startup, resume, or after `/clear`.",
        &["source!"],
        Out::Json(&["@universal", "@hso", "hookSpecificOutput.additionalContext"]),
    ),
    ev(
        "SessionEnd",
        "CLI exit, `/clear`, logout.",
        &["reason"],
        Out::Json(&["@universal"]),
    ),
    ev(
        "BeforeAgent",
        "After the user submits a prompt, before planning.",
        &["prompt"],
        Out::Json(&["@universal", "@hso", "hookSpecificOutput.additionalContext"]),
    ),
    ev(
        "AfterAgent",
        "Once per turn after the final response, only when no tool calls are pending.",
        &["prompt!", "prompt_response!", "stop_hook_active!"],
        Out::Json(&["@universal"]),
    ),
    ev(
        "BeforeModel",
        "Before each LLM request.",
        &["llm_request"],
        Out::Json(&["@universal", "@hso", "hookSpecificOutput.llm_response"]),
    ),
    ev(
        "BeforeToolSelection",
        "Before the model picks tools (fired after `BeforeModel`, once per model call ).",
        &["llm_request"],
        Out::Json(&["@universal", "@hso", "hookSpecificOutput.toolConfig"]),
    ),
    ev(
        "AfterModel",
        "For every streamed chunk of the model response (with one-chunk responses: once per model call ).",
        &["llm_request!", "llm_response!"],
        Out::Json(&["@universal", "@hso", "hookSpecificOutput.llm_response"]),
    ),
    ev(
        "BeforeTool",
        "Before a tool executes (before the policy/confirmation step).",
        &[
            "tool_name!",
            "tool_input!",
            "mcp_context",
            "mcp_context.server_name",
            "mcp_context.tool_name",
            "mcp_context.url",
            "mcp_context.command",
            "mcp_context.args",
            "mcp_context.cwd",
            "original_request_name",
        ],
        Out::Json(&["@universal", "@hso", "hookSpecificOutput.tool_input"]),
    ),
    ev(
        "AfterTool",
        "After a tool executes.",
        &["tool_name!", "tool_input!", "tool_response!"],
        Out::Json(&["@universal", "@hso", "hookSpecificOutput.additionalContext"]),
    ),
    ev(
        "PreCompress",
        "Before history compression.",
        &["trigger"],
        Out::Json(&["@universal"]),
    ),
    ev(
        "Notification",
        "When the CLI raises an alert.",
        &["notification_type", "message", "details"],
        Out::Json(&["@universal"]),
    ),
];

const GLOSSARY: &[Field] = &[
    f("mcp_context.args", A, "MCP server arguments.").items(&[f("", S, "One entry.")]),
    f("mcp_context.command", S, "MCP server command."),
    f("cwd", S, "Working directory of the agent."),
    f("mcp_context.cwd", S, "Working directory of the agent."),
    f(
        "details",
        O,
        "Notification details (e.g. the tool confirmation).",
    ),
    f("hook_event_name", S, "Native event name."),
    f(
        "llm_request",
        O,
        "The model request ({model, messages, config, ...}).",
    ),
    f(
        "llm_response",
        O,
        "The model response chunk ({text, candidates, usageMetadata}).",
    ),
    f(
        "mcp_context",
        O,
        "The MCP server of an MCP tool ({server_name, tool_name, command, args, cwd, url, tcp}).",
    ),
    f("message", S, "Message text."),
    f("notification_type", S, "Notification type."),
    f(
        "original_request_name",
        S,
        "The tool name the model requested (before alias resolution).",
    ),
    f("prompt", S, "The user's prompt text."),
    f("prompt_response", S, "The agent's final response text."),
    f(
        "reason",
        S,
        "SessionEnd: exit, clear, logout, prompt_input_exit or other.",
    ),
    f("mcp_context.server_name", S, "MCP server name."),
    f("session_id", S, "Session id."),
    f("source", S, "SessionStart: startup, resume or clear."),
    f(
        "stop_hook_active",
        B,
        "True when a stop hook already kept the agent going in this turn.",
    ),
    f("timestamp", S, "ISO 8601 time of the event."),
    f("tool_input", S | O, "The tool's arguments."),
    f("mcp_context.tool_name", S, "The agent's tool name."),
    f("tool_name", S, "The agent's tool name."),
    f(
        "tool_response",
        O,
        "The tool result ({llmContent, returnDisplay, error?}).",
    ),
    f(
        "transcript_path",
        S,
        "Path to the session transcript (JSONL).",
    ),
    f("trigger", S, "PreCompress: manual or auto."),
    f("mcp_context.url", S, "MCP server URL."),
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
        "hookSpecificOutput.hookEventName",
        S,
        "The event name (must match).",
    ),
    f(
        "hookSpecificOutput.llm_response",
        O,
        "A replacement model response.",
    ),
    f(
        "hookSpecificOutput.toolConfig",
        O,
        "The tool selection config (allowed function names, mode).",
    ),
    f(
        "hookSpecificOutput.tool_input",
        O,
        "The replacement tool arguments.",
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
