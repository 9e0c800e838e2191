//! Cursor's quirks: every row of the quirk table of its protocol
//! research, in our own words (the registry and its rules:
//! [`crate::quirks`]). Listed in this agent's row, [`super::AGENT`].

use crate::dialect::quirk::FixtureRule::{NotApplicable as Na, Required as Req};
use crate::dialect::quirk::{CONFIG, NOT_SENT, Quirk, TIMING, q};
use crate::model::Provider::Cursor as Cu;

/// Every quirk of this agent, in table order.
pub(super) const QUIRKS: &[Quirk] = &[
    q!(
        "cursor",
        Cu,
        1,
        "all",
        "preToolUse, postToolUse, beforeShellExecution, beforeMCPExecution, beforeReadFile, afterShellExecution, afterMCPExecution",
        "dedupe",
        "One tool call fires both the generic event and the specific one (e.g. preToolUse + beforeShellExecution), each in its own process.",
        "Dedupe siblings on conversation, generation, stage, tool class and facet; the loser answers the no-op {}.",
        "cursor.md §6.2 #1, §3.4 (impl, seen)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        2,
        "all",
        "preToolUse, postToolUse, beforeMCPExecution, afterMCPExecution",
        "mcp",
        "Generic events name MCP tools MCP:<tool>; the MCP-specific events carry no tool-call id and identify the server only by url or command.",
        "Strip MCP:, synthesize ids, resolve the server from mcp.json only when the match is unique.",
        "cursor.md §6.2 #2, §3.3 (impl, doc)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        3,
        "all",
        "preToolUse, postToolUse, beforeMCPExecution, afterMCPExecution",
        "tool_input",
        "tool_input is an object on preToolUse/postToolUse but a JSON-encoded string on the MCP events.",
        "Parse string inputs into an object and keep raw_input verbatim.",
        "cursor.md §6.2 #3, §3.3 (doc, impl)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        4,
        "from 2.0.64",
        "*",
        "output_format",
        "camelCase output keys (userMessage, agentMessage) stopped working; snake_case is required.",
        "Emit snake_case keys only.",
        "cursor.md §6.2 #4, §4.4 (impl)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        5,
        "from 2.4.21, still on 3.2.16",
        "beforeShellExecution, beforeMCPExecution, preToolUse",
        "ask",
        "permission ask is broken: silently a deny on 2.4.21 through 2.x and an allow on 3.x.",
        "Degrade ask per policy by default; emit it only where verified.",
        "cursor.md §6.2 #5, §4.3 (seen)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        6,
        "all",
        "*",
        "fail_policy",
        "Fail-open by default: a crashed or slow hook lets the action proceed unless the entry sets failClosed:true.",
        "Generate failClosed:true for fail-closed gates; a fail-closed answer is a JSON deny.",
        "cursor.md §6.2 #6, §4.1 (doc, impl)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        7,
        "CLI 2026-01 to 2026-04",
        "*",
        "event_coverage",
        "Early CLI builds fired only beforeShellExecution/afterShellExecution; coverage grew through 2026.",
        "Do not rely on other events on old CLI builds.",
        "cursor.md §6.2 #7, §2 (seen)",
        NOT_SENT
    ),
    q!(
        "cursor",
        Cu,
        8,
        "CLI builds before 2026-05-20",
        "*",
        "payload_transport",
        "Payload delivery changed on 2026-05-20 (argv per one bridge, a stdin heredoc per another).",
        "Read stdin to EOF; when it is empty, parse a JSON object from argv.",
        "cursor.md §6.2 #8, §1.2 (impl, seen)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        9,
        "CLI 2026.02.13 and 2026.07.01",
        "beforeSubmitPrompt",
        "event_coverage",
        "Print mode (-p) does not fire beforeSubmitPrompt while tool events fire; a bridge back-fills a report-only prompt event from the transcript or argv; a resumed print turn keeps its conversation_id.",
        "Back-fill an observe-only prompt.submitted marked backfilled.",
        "cursor.md §6.2 #9, §6.1 (seen, impl)",
        Na(
            "an event the agent never sends: a back-fill needs Cursor's transcript format, which the docs do not specify (not implemented; tracked as a known gap)"
        )
    ),
    q!(
        "cursor",
        Cu,
        10,
        "verified 2026.07.01 / 2026.09.18",
        "*",
        "config",
        "A scheme:// URL or any // inside a string in hooks.json silently disables the whole file.",
        "Never write // into generated hooks.json strings.",
        "cursor.md §6.2 #10, §1.7 (impl, seen)",
        CONFIG
    ),
    q!(
        "cursor",
        Cu,
        11,
        "CLI 2026.02.13",
        "*",
        "transcript",
        "transcript_path is always null in the CLI.",
        "Fall back to CURSOR_TRANSCRIPT_PATH; treat null as absent.",
        "cursor.md §6.2 #11, §3.1 (seen)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        12,
        "CLI 2026.09.18",
        "*",
        "transcript",
        "transcript_path is a path when the transcript file exists, else null.",
        "Decode both forms.",
        "cursor.md §6.2 #12, §3.1 (seen)",
        Req
    ),
    q!(
        "cursor",
        Cu,
        13,
        "2026",
        "*",
        "transcript",
        "Transcripts live under ~/.cursor/projects/<sanitized workspace>/agent-transcripts/, flat in the CLI and nested per conversation in the IDE.",
        "Derive a transcript path only as a fallback.",
        "cursor.md §6.2 #13 (seen)",
        Na("file layout on disk; the payload only carries the path verbatim")
    ),
    q!(
        "cursor",
        Cu,
        14,
        "CLI 2026.09.18",
        "sessionStart",
        "timeout",
        "The CLI awaits sessionStart (for additional_context and env) although the docs call it fire-and-forget.",
        "Keep sessionStart handlers fast.",
        "cursor.md §6.2 #14 (seen)",
        TIMING
    ),
    q!(
        "cursor",
        Cu,
        15,
        "all",
        "*",
        "event_coverage",
        "The AskQuestion tool fires no hooks.",
        "Do not expect hooks for it.",
        "cursor.md §6.2 #15 (impl)",
        NOT_SENT
    ),
    q!(
        "cursor",
        Cu,
        16,
        "reported 2026-06",
        "stop",
        "event_coverage",
        "stop reportedly never fires in some IDE sessions; sessionEnd is used instead.",
        "Do not rely on stop alone for end-of-turn work.",
        "cursor.md §6.2 #16 (seen, unconfirmed)",
        NOT_SENT
    ),
];
