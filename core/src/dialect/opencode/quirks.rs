//! OpenCode's quirks: every row of the quirk table of its protocol
//! research, in our own words (the registry and its rules:
//! [`crate::quirks`]). Listed in this agent's row, [`super::AGENT`].

use crate::dialect::quirk::FixtureRule::{NotApplicable as Na, Required as Req};
use crate::dialect::quirk::{INSTALL, NOT_SENT, Quirk, TIMING, q};
use crate::model::Provider::Opencode as Oc;

/// Every quirk of this agent, in table order.
pub(super) const QUIRKS: &[Quirk] = &[
    q!(
        "opencode",
        Oc,
        1,
        "since the Jan 2026 permission rework; still 1.18.33",
        "permission.ask, permission.asked",
        "permission",
        "The permission.ask hook never fires; permissions come as the permission.asked bus event and are answered over HTTP.",
        "Decode permission.asked; answer through the permission reply route.",
        "opencode.md §6 #1, §4.4 (seen, impl, e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        2,
        "all checked; 1.18.33",
        "tool.execute.after, message.part.updated",
        "tool_output",
        "tool.execute.after does not fire when a tool fails or tool.execute.before threw; failures show only as message.part.updated tool parts in state error.",
        "Derive tool.error from error-state tool parts.",
        "opencode.md §6 #2, §2.1 (src, impl, e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        3,
        "1.18.33 (e2e)",
        "tool.execute.after",
        "output_rewrite",
        "A throw in tool.execute.after replaces the model-visible result with the thrown message, after the side effect.",
        "Do not throw to flag output unless replacing it is meant.",
        "opencode.md §6 #3, §4.2 (e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        4,
        "all checked; 1.18.33",
        "tool.execute.before",
        "updated_input",
        "Reassigning output.args does nothing; only in-place mutation rewrites the arguments.",
        "Apply rewrites key by key into the existing args object.",
        "opencode.md §6 #4, §4.1 (src, e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        5,
        "all checked; 1.18.33",
        "*",
        "timeout",
        "There is no hook timeout: a hook that never settles stalls the operation.",
        "Keep a deadline in the plugin bridge.",
        "opencode.md §6 #5, §1.3 (seen, e2e)",
        TIMING
    ),
    q!(
        "opencode",
        Oc,
        6,
        "1.18.33 (e2e)",
        "tool.execute.after, message.part.updated",
        "output_rewrite",
        "Redacting output.output leaves the raw text in metadata.output and in the message.part.updated events already streamed.",
        "Overwrite metadata.output too; treat streamed output as already seen.",
        "opencode.md §6 #6, §8.2 (e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        7,
        "1.18.33 (seen, e2e)",
        "permission.asked",
        "ask",
        "opencode run auto-rejects every ask, ending the session with no further turn and exit 0; --auto approves instead.",
        "Expect asks to be rejected in headless runs.",
        "opencode.md §6 #7, §4.4 (seen, e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        8,
        "1.18.33 (e2e)",
        "chat.message",
        "block",
        "A throw in chat.message aborts the prompt; opencode run reports only a generic UnknownError and exits 1.",
        "Encode block_prompt as a thrown error; put the reason somewhere the user sees it.",
        "opencode.md §6 #8, §2.1 (e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        9,
        "1.18.33 (e2e)",
        "chat.params, chat.headers, experimental.chat.system.transform, tool.definition",
        "event_coverage",
        "chat.params, chat.headers and the system transform also fire for the title-generation request (agent title); tool.definition fires once per tool for every model call.",
        "Filter on agent title; keep tool.definition handlers cheap.",
        "opencode.md §6 #9, §2.1 (e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        10,
        "1.18.33 (e2e)",
        "chat.params, chat.headers, config",
        "secrets",
        "chat.params / chat.headers input includes the provider object with its options, API key included.",
        "Strip provider options before forwarding or logging.",
        "opencode.md §6 #10, §7.3 (e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        11,
        "1.18.33 (e2e)",
        "chat.message",
        "payload_shape",
        "Under opencode run the prompt text reaches chat.message wrapped in literal double quotes.",
        "Keep the text verbatim; do not assume it is unquoted.",
        "opencode.md §6 #11, §8.3 (e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        12,
        "1.18.33 (e2e)",
        "*",
        "install",
        "At startup OpenCode runs a background npm install of @opencode-ai/plugin per config directory unless its lock file already lists it.",
        "Ship a package.json, node_modules and lock file with the generated plugin.",
        "opencode.md §6 #12, §1.1 (e2e)",
        INSTALL
    ),
    q!(
        "opencode",
        Oc,
        13,
        "1.18.33 (e2e)",
        "server.instance.disposed",
        "event_coverage",
        "server.instance.disposed never fired under opencode run; nothing signals session end after the final session.idle.",
        "Treat the last session.idle as the end.",
        "opencode.md §6 #13, §2.2 (e2e)",
        NOT_SENT
    ),
    q!(
        "opencode",
        Oc,
        14,
        "1.18.33 (e2e)",
        "session.status, session.error, session.idle",
        "retry",
        "A model HTTP 400 marked not retryable was still retried 5 times (about 75 s), then session.error, session.idle twice and exit 1.",
        "Do not count retries as separate turns.",
        "opencode.md §6 #14 (e2e)",
        Na("the agent's own retry timing; no hook answer changes it")
    ),
    q!(
        "opencode",
        Oc,
        15,
        "verified 1.17.8",
        "tool.execute.before, tool.execute.after",
        "mcp",
        "MCP tools have no name prefix (<server>_<tool>).",
        "Detect MCP tools from the configured server list.",
        "opencode.md §6 #15, §3.3 (src, impl)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        16,
        "current",
        "tool.execute.after",
        "tool_output",
        "For MCP tools tool.execute.after gets the raw MCP result, not {title, output, metadata}.",
        "Decode both output shapes.",
        "opencode.md §6 #16, §2.1 (src)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        17,
        "current; both seen in 1.18.33",
        "session.idle, session.status",
        "event_name",
        "session.idle is deprecated in favour of session.status type idle; both are still published.",
        "Map one of them to agent.stop and ignore the twin.",
        "opencode.md §6 #17, §2.2 (src, e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        18,
        "2026; 1.18.33",
        "session.created, message.updated, message.part.updated, permission.asked",
        "payload_shape",
        "Event property shapes drift ({info} to {sessionID, info}, deltas in message.part.delta, permission.updated renamed permission.asked); 1.18.33 adds sessionID and an event id.",
        "Decode both envelopes; ignore unknown bus events.",
        "opencode.md §6 #18, §2.2 (src, seen, e2e)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        19,
        "verified 1.18.30",
        "*",
        "subagent",
        "Subagent (task) child sessions fire every hook with the child's sessionID.",
        "Recognise subagents by info.parentID on session.created.",
        "opencode.md §6 #19, §8.6 (seen)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        20,
        "1.17.x",
        "*",
        "concurrency",
        "Concurrent opencode run processes can fail with 'database is locked' (shared SQLite store).",
        "Do not run parallel headless sessions against one store.",
        "opencode.md §6 #20 (impl)",
        Na("process concurrency of the agent; no payload involved")
    ),
    q!(
        "opencode",
        Oc,
        21,
        "all checked",
        "session.idle",
        "transcript",
        "No event carries the final assistant text of a turn.",
        "The bridge reads the last assistant message through the SDK and adds it to the frame.",
        "opencode.md §6 #21, §7.3 (impl)",
        Req
    ),
    q!(
        "opencode",
        Oc,
        22,
        "1.18.33 (e2e)",
        "experimental.text.complete, message.part.updated",
        "transcript",
        "Finished text is visible per text part in experimental.text.complete and the last message.part.updated of a text part, but no single end-of-turn event carries it.",
        "Collect text parts if the final message is needed.",
        "opencode.md §6 #22, §2.1 (e2e)",
        Req
    ),
];
