//! Kimi Code's quirks: every row of the quirk table of its protocol
//! research, in our own words (the registry and its rules:
//! [`crate::quirks`]). Listed in this agent's row, [`super::AGENT`].

use crate::dialect::quirk::FixtureRule::Required as Req;
use crate::dialect::quirk::{AGENT_OUT, CONFIG, ENV, MATCHER, NOT_SENT, ORDER, Quirk, q};
use crate::model::Provider::KimiCode as Ki;

/// Every quirk of this agent, in table order.
pub(super) const QUIRKS: &[Quirk] = &[
    q!(
        "kimi-code",
        Ki,
        1,
        "all (doc, e2e 2.1.0)",
        "*",
        "fail_policy",
        "Hard fail-open: a crash, a timeout and any exit other than 2 allow; there is no fail-closed switch.",
        "Enforce fail-closed inside the hook: catch errors and exit 2 with a reason.",
        "kimi-code.md §7 #1, §1.4 (doc, e2e)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        2,
        "all (src, e2e 2.1.0)",
        "PreToolUse, UserPromptSubmit, Stop",
        "block",
        "Only deny exists in JSON (no ask, rewrite or context outside UserPromptSubmit), and only the nested hookSpecificOutput.permissionDecision counts; the flat form and decision:block are ignored.",
        "Encode a block as the nested deny (or exit 2); degrade everything else.",
        "kimi-code.md §7 #2, §4.2 (src, e2e)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        3,
        "all (src, e2e 2.1.0)",
        "UserPromptSubmit",
        "no_opinion",
        "Any stdout on UserPromptSubmit, {} included, is injected into the model's context.",
        "The no-op is empty stdout; never print {} there.",
        "kimi-code.md §7 #3, §5 (src, e2e)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        4,
        "0.22.2, 0.38.0, 2.1.0",
        "Stop",
        "loop_guard",
        "Stop re-fires at most once per turn and stop_hook_active is always false.",
        "Do not rely on stop_hook_active; expect one continuation per turn.",
        "kimi-code.md §7 #4, §6 (src, e2e)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        5,
        "all (doc, e2e)",
        "*",
        "config",
        "Entries with identical command strings on one event run once; a trailing space makes them distinct.",
        "Give every generated entry a distinct command line.",
        "kimi-code.md §7 #5, §1.1 (doc, e2e)",
        CONFIG
    ),
    q!(
        "kimi-code",
        Ki,
        6,
        "0.22.2 to 2.1.0",
        "UserPromptSubmit, PostToolUse, PostToolUseFailure, TurnStarted",
        "payload_shape",
        "prompt is an array of content parts, error an object, tool_output a string cut at 2,000 characters; TurnStarted.prompt is a plain string.",
        "Decode every form (the legacy Python CLI sends the string/object variants too).",
        "kimi-code.md §7 #6, §3.2 (src, e2e)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        7,
        "all (src)",
        "*",
        "payload_shape",
        "Only top-level keys are snake_cased; nested objects keep camelCase (e.g. imageUrl).",
        "Never snake_case nested keys when decoding.",
        "kimi-code.md §7 #7, §3 (src)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        8,
        "all (doc)",
        "*",
        "config",
        "An unknown event name or an unknown key in a [[hooks]] table breaks the whole config file.",
        "Generate only the four allowed keys and known event names.",
        "kimi-code.md §7 #8, §1.3 (doc)",
        CONFIG
    ),
    q!(
        "kimi-code",
        Ki,
        9,
        "all (src)",
        "Stop, Interrupt, SessionHeartbeat",
        "matcher",
        "A non-empty matcher on Stop, Interrupt or SessionHeartbeat never fires (their matcher value is \"\").",
        "Generate no matcher for these events.",
        "kimi-code.md §7 #9, §1.5 (src)",
        MATCHER
    ),
    q!(
        "kimi-code",
        Ki,
        10,
        "0.22.2 (seen); contradicted on 2.1.0 (e2e)",
        "UserPromptSubmit",
        "event_coverage",
        "Print mode (kimi -p) did not fire UserPromptSubmit on 0.22.2; 2.1.0 fires it and blocking works.",
        "Do not rely on UserPromptSubmit in print mode on old versions.",
        "kimi-code.md §7 #10, §2 (seen, e2e)",
        NOT_SENT
    ),
    q!(
        "kimi-code",
        Ki,
        11,
        "seen; 2.1.0 (e2e)",
        "*",
        "agent_ui",
        "kimi -p occasionally exited 1 before any tool event; on 2.1.0 exit 1 came only from a blocked prompt or a failed model call.",
        "Do not treat kimi's exit code as the hook's verdict.",
        "kimi-code.md §7 #11 (seen, e2e)",
        AGENT_OUT
    ),
    q!(
        "kimi-code",
        Ki,
        12,
        "0.32.0 (2026-08-04), 0.38.0 (2026-08-20)",
        "*",
        "payload_shape",
        "Fields and events arrive by version: session_title and UserPromptQueued, TurnStarted, SessionHeartbeat, TaskStarted from 0.32.0; client_type from 0.38.0; SessionStart model/profile and SessionEnd archive after 0.22.2.",
        "Decode payloads with and without these fields.",
        "kimi-code.md §7 #12, §3.1 (src)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        13,
        "2.1.0 (e2e)",
        "PostToolUse, PostToolUseFailure",
        "delivery",
        "PostToolUse/PostToolUseFailure hooks are usually killed right after spawn, often before their stdin is written.",
        "Treat an empty or cut payload as undecodable (fail-open no-op); no gate or audit may depend on these events.",
        "kimi-code.md §7 #13, §2 (e2e)",
        Req
    ),
    q!(
        "kimi-code",
        Ki,
        14,
        "2.1.0 (e2e)",
        "*",
        "env",
        "Hooks inherit Kimi's whole environment, the model API key included.",
        "Never log the environment.",
        "kimi-code.md §7 #14, §1.2 (e2e)",
        ENV
    ),
    q!(
        "kimi-code",
        Ki,
        15,
        "2.1.0 (e2e)",
        "UserPromptSubmit, PreToolUse, Stop, Interrupt",
        "agent_ui",
        "A blocked prompt makes kimi -p exit 1; a blocked tool or a Stop continuation exits 0; SIGINT (Interrupt) exits 130.",
        "Do not read kimi's exit code as the hook's verdict.",
        "kimi-code.md §7 #15, §4.3 (e2e)",
        AGENT_OUT
    ),
    q!(
        "kimi-code",
        Ki,
        16,
        "2.1.0 (e2e)",
        "TurnStarted, PreToolUse",
        "ordering",
        "Fire-and-forget hooks have no stable order: TurnStarted sometimes runs after PreToolUse.",
        "Do not assume TurnStarted precedes the turn's tool events.",
        "kimi-code.md §7 #16, §2 (e2e)",
        ORDER
    ),
    q!(
        "kimi-code",
        Ki,
        17,
        "2.1.0 (e2e)",
        "SessionEnd",
        "event_coverage",
        "kimi -p never fires SessionEnd (the session is never closed).",
        "Do end-of-session work elsewhere in print mode.",
        "kimi-code.md §7 #17, §2 (e2e)",
        NOT_SENT
    ),
    q!(
        "kimi-code",
        Ki,
        18,
        "2.1.0 (e2e); 0.22.2 differed",
        "PostToolUseFailure, PostToolUse",
        "tool_output",
        "A Bash command that exits non-zero is a tool failure (PostToolUseFailure); on 0.22.2 it was a PostToolUse.",
        "Decode both; map PostToolUseFailure to tool.error.",
        "kimi-code.md §7 #18, §3.2 (e2e, seen)",
        Req
    ),
];
