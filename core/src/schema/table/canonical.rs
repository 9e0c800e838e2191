//! The canonical event and decision JSON (`docs/canonical-json.md`),
//! as field tables. Enumerated values are listed in the descriptions.

use super::{A, ANY, B, Field, I, N, NUL, Node, O, S, f};

const EVENT: &[Field] = &[
    f("provider", S, "Agent id: claude-code, codex, cursor, gemini, kimi-code, copilot, opencode, openclaw.").req(),
    f("variant", S, "cli, ide, cloud, cowork or remote; omitted when unknown."),
    f("native_name", S, "The agent's event name, verbatim.").req(),
    f("kind", S, "Unified kind: session.start, session.end, prompt.submitted, tool.pre, tool.post, tool.error, permission.request, agent.stop, subagent.start, subagent.stop, compact.pre, compact.post, notification, file.edited, model.request, model.response, other.").req(),
    f("detection", S, "How the agent was identified: config, env or shape."),
    f("session", O, "Session facts.").props(&[
        f("id", S, "Session id (numbers rendered as strings)."),
        f("turn_id", S, "Turn or prompt id."),
        f("cwd", S, "Working directory."),
        f("workspace_roots", A, "Workspace roots.").items(&[f("", S, "A root directory.")]),
        f("transcript_path", S, "Path to the agent's transcript."),
        f("model", S, "Model name."),
        f("permission_mode", S, "The agent's permission mode."),
        f("user_email", S, "The signed-in user's email (Cursor)."),
    ]),
    f("agent", O, "The subagent the event comes from.").props(&[
        f("id", S, "Subagent instance id."),
        f("type", S, "Subagent type or name; may be empty."),
    ]),
    f("tool", O, "The tool call.").props(&[
        f("id", S, "Call id (synthesized when the agent sends none)."),
        f("synthesized", B, "The id was synthesized."),
        f("name", S, "The agent's tool name."),
        f("canonical", S, "Tool class: shell, file.read, file.write, file.edit, search, fetch, task, mcp, other."),
        f("mcp", O, "MCP attribution.").props(&[
            f("server", S, "MCP server name."),
            f("tool", S, "The server's tool name."),
            f("url", S, "Server URL."),
            f("command", S, "Server command."),
        ]),
        f("input", O, "Tool input, always an object."),
        f("raw_input", ANY, "Tool input exactly as the agent sent it."),
        f("command", S, "Facet: the shell command."),
        f("paths", A, "Facet: file paths the call touches.").items(&[f("", S, "A path.")]),
        f("pattern", S, "Facet: a search pattern."),
        f("glob", S, "Facet: a file glob."),
    ]),
    f("prompt", S, "The submitted prompt text."),
    f("output", ANY, "Tool output as JSON."),
    f("failed", B, "The tool failed."),
    f("error", S, "Error text (tool failure, stop failure)."),
    f("duration_ms", I, "Tool duration in milliseconds."),
    f("stop", O, "Stop facts.").props(&[
        f("previously_continued", B, "A hook already kept the agent going once."),
        f("loop_count", I, "Continuations so far."),
        f("final_message", S, "The agent's last message."),
        f("usage", O, "Usage of the run.").props(&[
            f("input_tokens", I, "Input tokens."),
            f("output_tokens", I, "Output tokens."),
            f("cache_read_tokens", I, "Cache read tokens."),
            f("cache_write_tokens", I, "Cache write tokens."),
            f("cost", N, "Cost in the agent's currency unit."),
            f("loop_count", I, "Loops of the run."),
            f("status", S, "Run status."),
        ]),
    ]),
    f("source", S, "Per-kind extra: what started the event (e.g. SessionStart source)."),
    f("reason", S, "Per-kind extra: why (e.g. SessionEnd reason)."),
    f("trigger", S, "Per-kind extra: trigger (compaction, setup)."),
    f("instructions", S, "Per-kind extra: compaction instructions."),
    f("message", S, "Per-kind extra: message text."),
    f("path", S, "Per-kind extra: a file or directory path."),
    f("backfilled", B, "True only for events the agent never sent."),
    f("interactive", B, "The session mode: true when a person can answer a prompt; absent when unknown."),
    f("mode_signal", S, "The signal that decided `interactive`."),
    f("raw", ANY, "The payload, verbatim."),
];

const DECISION: &[Field] = &[
    f("kind", S, "no_decision, allow, deny, ask, defer, accept_prompt, block_prompt, finish, continue, observed, flag_output, replace_output (other spellings are accepted).").req(),
    f("reason", S | NUL, "Shown to the model (deny, ask, block_prompt, flag_output)."),
    f("instruction", S | NUL, "What the agent should do next (continue)."),
    f("context", A | S | NUL, "Extra context for the model, in order.").items(&[f("", S, "One context string.")]),
    f("system_message", S | NUL, "Shown to the human only."),
    f("block_reason", S | NUL, "Human-facing message for a block, where the agent has one."),
    f("stop_agent", O | B | S | NUL, "Stop the agent entirely (a string: the reason).").props(&[f("reason", S | NUL, "Shown to the human.")]),
    f("updated_input", O | NUL, "Replacement tool input (a whole object)."),
    f("patch_input", O | NUL, "An RFC 7396 JSON merge patch against the tool input."),
    f("rewrite_conflicts", A, "Where handlers' input rewrites collided (set by the router).").items(&[f("", S, "A JSON Pointer or `updated_input`.")]),
    f("replaced_output", ANY, "Replacement tool output."),
    f("native", O | NUL, "Escape hatch: merged verbatim into the agent's answer."),
];

pub(crate) fn event_nodes() -> Vec<Node> {
    EVENT.iter().map(|d| Node::new(*d, d.req)).collect()
}

pub(crate) fn decision_nodes() -> Vec<Node> {
    DECISION.iter().map(|d| Node::new(*d, d.req)).collect()
}
