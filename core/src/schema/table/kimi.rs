//! kimi-code 2.1.0: the fields of every native event's payload and
//! answer (sources: docs/protocols/kimi-code.md, the dialect's decoder and
//! encoder, and the real-agent captures in fixtures/kimi-code/).

use super::{A, AgentTable, B, EventSpec, Field, I, O, Out, S, ev, f};
use crate::model::Provider;

pub(crate) static TABLE: AgentTable = AgentTable {
    provider: Provider::KimiCode,
    version: "2.1.0",
    source: "docs/protocols/kimi-code.md",
    glossary: GLOSSARY,
    groups: &[
        // a tool call
        (
            "tool",
            &[
                "tool_name",
                "tool_input",
                "tool_call_id",
                "action",
                "display",
                "display.kind",
                "display.command",
                "display.workingDirectory",
                "agent_id",
            ],
        ),
    ],
    base: &["hook_event_name", "session_id!", "cwd!", "client_type"],
    generic: &["tool_name", "tool_input", "tool_call_id"],
    tolerated: &["transcript_path", "permission_mode"],
    out_glossary: OUT_GLOSSARY,
    events: EVENTS,
    unknown_out: Out::Empty(
        "an event this version does not document: the only safe answer is empty stdout.",
    ),
};

const EVENTS: &[EventSpec] = &[
    ev(
        "SessionStart",
        "New session started / previous one resumed (not on fork).",
        &["source!", "model", "profile"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "SessionEnd",
        "Session closed (`exit`) or archived (`archive`).",
        &["session_title", "reason"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "UserPromptSubmit",
        "User sends a message, before the model is called.",
        &["prompt!", "is_steer"],
        Out::Json(&["message"]),
    ),
    ev(
        "UserPromptQueued",
        "A message is queued while a turn runs.",
        &["prompt_id", "prompt", "queue_length"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "TurnStarted",
        "A new turn begins.",
        &["turn_id!", "origin_kind!", "prompt"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "PreToolUse",
        "Before a tool call, before permission checks.",
        &[
            "tool_name!",
            "tool_input!",
            "tool_call_id!",
            "session_title",
        ],
        Out::Json(&[
            "hookSpecificOutput",
            "hookSpecificOutput.permissionDecision",
            "hookSpecificOutput.permissionDecisionReason",
        ]),
    ),
    ev(
        "PostToolUse",
        "Tool executed successfully.",
        &["tool_name!", "tool_input!", "tool_call_id!", "tool_output!"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "PostToolUseFailure",
        "Tool failed or was blocked.",
        &["tool_name!", "tool_input!", "error!", "tool_call_id"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "PermissionRequest",
        "Just before waiting for user approval.",
        &["@tool", "turn_id", "id"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "PermissionResult",
        "Approval resolved.",
        &["@tool", "turn_id", "decision", "feedback"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "Stop",
        "Model is about to end the turn.",
        &["stop_hook_active!"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "StopFailure",
        "Turn failed with an error.",
        &["error_type", "error_message"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "Interrupt",
        "The user interrupted the turn.",
        &["turn_id", "reason"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "SessionHeartbeat",
        "Every 60 s while alive, only if such a hook is configured.",
        &["uptime_ms"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "SubagentStart",
        "Before a sub-agent starts.",
        &["agent_name", "prompt"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "SubagentStop",
        "Sub-agent completed successfully.",
        &["agent_name", "response"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "TaskStarted",
        "Background task started.",
        &[
            "task_id",
            "kind",
            "description",
            "status",
            "detached",
            "started_at",
        ],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "PreCompact",
        "Before compaction.",
        &["trigger", "token_count"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "PostCompact",
        "After compaction.",
        &["trigger", "estimated_token_count"],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
    ev(
        "Notification",
        "Background task status changed.",
        &[
            "sink",
            "agent_id",
            "notification_type",
            "title",
            "body",
            "severity",
            "source_kind",
            "source_id",
        ],
        Out::Empty(
            "agenthooks answers with empty stdout: no field of an answer changes what the agent does here.",
        ),
    ),
];

const GLOSSARY: &[Field] = &[
    f("action", S, "The action taken."),
    f("agent_id", S, "Agent id (main for the main agent)."),
    f("agent_name", S, "Agent name."),
    f("body", S, "Notification body."),
    f("client_type", S, "Client type."),
    f("display.command", S, "Shell command."),
    f("cwd", S, "Working directory of the agent."),
    f(
        "decision",
        S,
        "The permission decision (approve, reject, ...).",
    ),
    f("description", S, "Description."),
    f("detached", B, "The task runs detached."),
    f("display", O, "How the request is shown."),
    f("error", S | O, "Error (an object {message, code} or text)."),
    f("error_message", S, "Error message."),
    f("error_type", S, "Error type."),
    f("estimated_token_count", I, "Estimated tokens."),
    f("feedback", S, "The user's feedback."),
    f("hook_event_name", S, "Native event name."),
    f("id", S, "Id."),
    f("is_steer", B, "The prompt steers a running turn."),
    f("display.kind", S, "Task kind."),
    f("kind", S, "Task kind."),
    f("model", S, "Model key."),
    f("notification_type", S, "Notification type."),
    f("origin_kind", S, "Where the turn came from."),
    f("profile", S, "Profile."),
    f("SubagentStart:prompt", S, "The subagent's task."),
    f("TurnStarted:prompt", S, "The turn's prompt."),
    f(
        "UserPromptQueued:prompt",
        A,
        "The queued prompt's content parts.",
    )
    .items(&[f("", O, "One entry.")]),
    f(
        "UserPromptSubmit:prompt",
        S | A,
        "The prompt: text, or content parts ({type, text}).",
    )
    .items(&[f("", O, "One entry.")]),
    f(
        "prompt_id",
        S,
        "Id of the current user prompt (ties a prompt to later events).",
    ),
    f("queue_length", I, "Prompts in the queue."),
    f("reason", S, "Why the event happened."),
    f("response", S, "The subagent's response."),
    f("session_id", S | I, "Session id."),
    f("session_title", S, "Session title."),
    f("severity", S, "Severity."),
    f("sink", S, "Notification sink."),
    f("source", S, "What started the event."),
    f("source_id", S, "Source id."),
    f("source_kind", S, "Source kind."),
    f("started_at", I, "Start time (epoch ms)."),
    f("status", S, "Status."),
    f(
        "stop_hook_active",
        B,
        "True when a stop hook already kept the agent going in this turn.",
    ),
    f("task_id", S, "Task id."),
    f("title", S, "Title."),
    f("token_count", I, "Tokens."),
    f("tool_call_id", S, "Tool call id."),
    f("tool_input", O, "The tool's arguments."),
    f("tool_name", S, "The agent's tool name."),
    f(
        "tool_output",
        S | O,
        "The tool's output (text cut at 2,000 characters).",
    ),
    f(
        "trigger",
        S,
        "What triggered the event (e.g. manual or auto).",
    ),
    f("turn_id", I, "Turn number."),
    f("uptime_ms", I, "Session uptime in milliseconds."),
    f("display.workingDirectory", S, "Working directory."),
];

const OUT_GLOSSARY: &[Field] = &[
    f("hookSpecificOutput", O, "The event's own fields."),
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
    f("message", S, "A message for the agent."),
];
