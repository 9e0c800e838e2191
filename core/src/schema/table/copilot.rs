//! copilot 1.0.102: the fields of every native event's payload and
//! answer (sources: docs/protocols/copilot-cli.md, the dialect's decoder and
//! encoder, and the real-agent captures in fixtures/copilot/).

use super::{A, AgentTable, B, EventSpec, Field, I, O, Out, S, ev, f};
use crate::model::Provider;

pub(crate) static TABLE: AgentTable = AgentTable {
    provider: Provider::Copilot,
    version: "1.0.102",
    source: "docs/protocols/copilot-cli.md",
    glossary: GLOSSARY,
    groups: &[],
    base: &[
        "sessionId",
        "session_id",
        "hook_event_name",
        "timestamp",
        "cwd",
    ],
    generic: &[
        "toolName",
        "toolArgs",
        "tool_name",
        "tool_input",
        "hookName",
        "message",
    ],
    tolerated: &["tool_use_id"],
    out_glossary: OUT_GLOSSARY,
    events: EVENTS,
    unknown_out: Out::Empty(
        "an event this version does not document: the only safe answer is empty stdout.",
    ),
};

const EVENTS: &[EventSpec] = &[
    ev(
        "sessionStart",
        "A session starts or resumes.",
        &["source", "initialPrompt"],
        Out::Json(&["additionalContext"]),
    ),
    ev(
        "sessionEnd",
        "A session ends.",
        &["reason!"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "userPromptSubmitted",
        "A prompt is submitted.",
        &["prompt"],
        Out::Json(&["decision", "reason", "additionalContext", "modifiedPrompt"]),
    ),
    ev(
        "userPromptTransformed",
        "After the runtime builds the model-facing prompt content.",
        &["prompt", "transformedPrompt"],
        Out::Json(&["modifiedTransformedPrompt"]),
    ),
    ev(
        "preToolUse",
        "Before a tool call.",
        &["toolName!", "toolArgs!"],
        Out::Json(&[
            "permissionDecision",
            "permissionDecisionReason",
            "additionalContext",
            "modifiedArgs",
            "x-audit",
        ]),
    ),
    ev(
        "preMcpToolCall",
        "Before an MCP tool call (undocumented).",
        &["toolName", "toolArgs"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "permissionRequest",
        "Before the permission prompt for a tool call.",
        &[
            "hookName",
            "toolName!",
            "toolInput!",
            "toolInput.command",
            "permissionSuggestions",
            "toolInput.file_path",
            "toolInput.diff",
            "toolInput.requestSandboxBypass",
        ],
        Out::Json(&["behavior", "message", "interrupt"]),
    ),
    ev(
        "postToolUse",
        "After a tool call succeeded.",
        &["toolName!", "toolArgs!", "toolResult!"],
        Out::Json(&["modifiedResult", "additionalContext"]),
    ),
    ev(
        "postToolUseFailure",
        "After a tool call failed.",
        &["toolName", "toolArgs", "error"],
        Out::Json(&["additionalContext"]),
    ),
    ev(
        "agentStop",
        "Main agent finishes a turn.",
        &["transcriptPath!", "stopReason!", "stop_hook_active!"],
        Out::Json(&["decision", "reason"]),
    ),
    ev(
        "subagentStart",
        "Subagent spawned, before it runs.",
        &[
            "transcriptPath",
            "agentName",
            "agentDisplayName",
            "agentDescription",
        ],
        Out::Json(&["additionalContext"]),
    ),
    ev(
        "subagentStop",
        "A subagent finishes.",
        &[
            "transcriptPath",
            "agentId",
            "agentType",
            "agentName",
            "agentDisplayName",
            "response",
            "stopReason",
        ],
        Out::Json(&["decision", "reason", "modifiedResponse"]),
    ),
    ev(
        "preCompact",
        "Before compaction.",
        &["transcriptPath", "trigger", "customInstructions"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "notification",
        "A notification is raised.",
        &["message", "title", "hook_event_name", "notification_type"],
        Out::Json(&["additionalContext"]),
    ),
    ev(
        "errorOccurred",
        "An error occurred.",
        &["error", "errorContext", "recoverable"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "postResult",
        "After a result is produced (undocumented).",
        &[],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "prePRDescription",
        "Before a pull request description is written (undocumented).",
        &[],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "SessionStart",
        "VS Code-compatible spelling of sessionStart (snake_case payload).",
        &["hook_event_name", "session_id", "source", "initial_prompt"],
        Out::Json(&["additionalContext"]),
    ),
    ev(
        "SessionEnd",
        "VS Code-compatible spelling of sessionEnd.",
        &["hook_event_name", "session_id", "reason"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "UserPromptSubmit",
        "VS Code-compatible spelling of userPromptSubmitted.",
        &["hook_event_name", "session_id", "prompt"],
        Out::Json(&["decision", "reason"]),
    ),
    ev(
        "PreToolUse",
        "VS Code-compatible spelling of preToolUse.",
        &[
            "session_id!",
            "tool_name!",
            "tool_input!",
            "hook_event_name",
        ],
        Out::Json(&[
            "permissionDecision",
            "permissionDecisionReason",
            "modifiedArgs",
        ]),
    ),
    ev(
        "PermissionRequest",
        "VS Code-compatible spelling of permissionRequest.",
        &["hook_event_name", "session_id", "tool_name", "tool_input"],
        Out::Json(&["behavior", "message"]),
    ),
    ev(
        "PostToolUse",
        "VS Code-compatible spelling of postToolUse.",
        &[
            "hook_event_name",
            "session_id",
            "tool_name",
            "tool_input",
            "tool_result",
            "tool_result.result_type",
            "tool_result.text_result_for_llm",
        ],
        Out::Json(&["modifiedResult"]),
    ),
    ev(
        "PostToolUseFailure",
        "VS Code-compatible spelling of postToolUseFailure.",
        &[
            "hook_event_name",
            "session_id",
            "tool_name",
            "tool_input",
            "error",
        ],
        Out::Json(&["additionalContext"]),
    ),
    ev(
        "Stop",
        "VS Code-compatible spelling of agentStop.",
        &[
            "hook_event_name",
            "session_id",
            "transcript_path",
            "stop_reason",
            "stop_hook_active",
        ],
        Out::Json(&["decision", "reason"]),
    ),
    ev(
        "SubagentStop",
        "VS Code-compatible spelling of subagentStop.",
        &[
            "hook_event_name",
            "session_id",
            "transcript_path",
            "agent_id",
            "agent_type",
            "agent_name",
            "last_assistant_message",
            "stop_reason",
        ],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "PreCompact",
        "VS Code-compatible spelling of preCompact.",
        &[
            "hook_event_name",
            "session_id",
            "transcript_path",
            "trigger",
            "custom_instructions",
        ],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "ErrorOccurred",
        "VS Code-compatible spelling of errorOccurred.",
        &[
            "hook_event_name",
            "session_id",
            "error",
            "error_context",
            "recoverable",
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
    f("agent_name", S, "Subagent name."),
    f(
        "agent_type",
        S,
        "Subagent type or agent name; may be empty.",
    ),
    f("agentDescription", S, "Subagent description."),
    f("agentDisplayName", S, "Subagent display name."),
    f("agentId", S, "Subagent id."),
    f("agentName", S, "Subagent name."),
    f("agentType", S, "Subagent type."),
    f("toolInput.command", S, "Shell command."),
    f(
        "custom_instructions",
        S,
        "Compaction instructions the user gave (null or empty when none).",
    ),
    f("customInstructions", S, "Compaction instructions."),
    f("cwd", S, "Working directory of the agent."),
    f("toolInput.diff", S, "The pull request diff."),
    f(
        "ErrorOccurred:error",
        O,
        "The error ({message, name, stack}).",
    ),
    f("PostToolUseFailure:error", S, "The tool's error text."),
    f(
        "errorOccurred:error",
        O,
        "The error ({message, name, stack}).",
    ),
    f("postToolUseFailure:error", S, "The tool's error text."),
    f("error_context", S, "Where the error happened."),
    f("errorContext", S, "Where the error happened."),
    f("toolInput.file_path", S, "Absolute file path."),
    f("hook_event_name", S, "Native event name."),
    f("hookName", S, "Hook name."),
    f("initial_prompt", S, "The session's initial prompt."),
    f("initialPrompt", S, "The session's initial prompt."),
    f(
        "last_assistant_message",
        S,
        "The assistant's last message text.",
    ),
    f("message", S, "Message text."),
    f("notification_type", S, "Notification type."),
    f(
        "permissionSuggestions",
        A,
        "Permission rules the prompt would offer.",
    ),
    f("prompt", S, "The user's prompt text."),
    f("reason", S, "SessionEnd reason."),
    f("recoverable", B, "The error is recoverable."),
    f(
        "toolInput.requestSandboxBypass",
        B,
        "The call asks to run outside the sandbox.",
    ),
    f("response", S, "The agent's response."),
    f(
        "tool_result.result_type",
        S,
        "Tool result type (success, failure, denied).",
    ),
    f("session_id", S, "Session id."),
    f("sessionId", S, "Session id."),
    f("source", S, "SessionStart: new, resume or startup."),
    f(
        "stop_hook_active",
        B,
        "True when a stop hook already kept the agent going in this turn.",
    ),
    f("stop_reason", S, "Why the agent stopped."),
    f("stopReason", S, "Why the agent stopped."),
    f(
        "tool_result.text_result_for_llm",
        S,
        "The tool result text the model sees.",
    ),
    f(
        "timestamp",
        S | I,
        "Time of the event (epoch ms in camelCase events, ISO 8601 in VS Code-compatible ones).",
    ),
    f("title", S, "Title."),
    f("tool_input", S | O, "The tool's arguments."),
    f("tool_name", S, "The agent's tool name."),
    f(
        "tool_result",
        O,
        "The tool result ({resultType, textResultForLlm}).",
    ),
    f(
        "toolArgs",
        S | O,
        "The tool's arguments (an object, or JSON text).",
    ),
    f("toolInput", O, "The tool's arguments."),
    f("toolName", S, "The tool name."),
    f(
        "toolResult",
        O,
        "The tool result ({resultType, textResultForLlm}).",
    ),
    f(
        "transcript_path",
        S,
        "Path to the session transcript (JSONL).",
    ),
    f("transcriptPath", S, "Path to the session transcript."),
    f("transformedPrompt", S, "The prompt after transformation."),
    f(
        "trigger",
        S,
        "What triggered the event (e.g. manual or auto).",
    ),
];

const OUT_GLOSSARY: &[Field] = &[
    f("additionalContext", S, "Context added for the model."),
    f("behavior", S, "Permission request: allow or deny."),
    f("decision", S, "block, or absent."),
    f("interrupt", B, "Deny: also stop the agent."),
    f("message", S, "Deny: why."),
    f("modifiedArgs", O, "The whole replacement tool arguments."),
    f("modifiedPrompt", S, "The replacement prompt."),
    f("modifiedResponse", S, "The replacement response."),
    f(
        "modifiedResult",
        O,
        "The tool result the model sees instead ({resultType, textResultForLlm}).",
    ),
    f(
        "modifiedTransformedPrompt",
        S,
        "The replacement transformed prompt.",
    ),
    f("permissionDecision", S, "allow, deny or ask."),
    f("permissionDecisionReason", S, "Why."),
    f("reason", S, "Why (block)."),
    f(
        "x-audit",
        S,
        "Passed through verbatim (a native escape-hatch key).",
    ),
];
