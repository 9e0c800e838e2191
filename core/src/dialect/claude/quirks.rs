//! Claude Code's quirks: every row of the quirk table of its protocol
//! research, in our own words (the registry and its rules:
//! [`crate::quirks`]). Listed in this agent's row, [`super::AGENT`].

use crate::dialect::quirk::FixtureRule::{NotApplicable as Na, Required as Req};
use crate::dialect::quirk::{MATCHER, MODEL_SIDE, NOT_SENT, Quirk, TIMING, q};
use crate::model::Provider::ClaudeCode as Cl;

/// Every quirk of this agent, in table order.
pub(super) const QUIRKS: &[Quirk] = &[
    q!(
        "claude-code",
        Cl,
        1,
        "all",
        "*",
        "no_opinion",
        "Empty stdout is not an allow: the call goes through the normal permission flow (and is denied in -p when not pre-allowed).",
        "Encode no_decision as the no-op; emit permissionDecision allow only for an explicit allow.",
        "claude-code.md §7 #1, §5 (doc, e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        2,
        "all",
        "*",
        "exit_code",
        "Only exit 2 or a valid JSON decision blocks; exit 1 and other codes are non-blocking errors, and valid JSON with another non-zero code counts as success.",
        "Block with JSON on exit 0 or exit 2 + stderr; never rely on exit 1 for fail-closed.",
        "claude-code.md §7 #2, §4.1 (doc; exit 1 e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        3,
        "all",
        "PermissionRequest",
        "block",
        "PermissionRequest ignores exit 2; only hookSpecificOutput.decision {behavior, message} works, a shape unlike PreToolUse's permissionDecision.",
        "Encode decisions as decision.behavior; fail-closed answers a JSON deny on exit 0.",
        "claude-code.md §7 #3, §4.1 (doc)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        4,
        "all; onFailure:block from 2.1.295",
        "*",
        "timeout",
        "A timed-out hook renders no decision and the action proceeds, unless the handler sets onFailure:\"block\".",
        "Answer before the agent's timeout (runtime deadline); generate onFailure:block for fail-closed hooks on 2.1.295+.",
        "claude-code.md §7 #4, §1.5, §1.6 (doc, seen; fail-open e2e)",
        TIMING
    ),
    q!(
        "claude-code",
        Cl,
        5,
        "all",
        "PreToolUse",
        "event_coverage",
        "@file prompt references, EndConversation, a typed /skill and files changed by Bash never reach PreToolUse or Edit|Write matchers.",
        "Also use Read deny rules, UserPromptExpansion and FileChanged.",
        "claude-code.md §7 #5 (doc)",
        NOT_SENT
    ),
    q!(
        "claude-code",
        Cl,
        6,
        "before 2.1.195 / 2.1.191",
        "*",
        "matcher",
        "Hyphenated matchers were unanchored regexes before 2.1.195 and comma lists never fired before 2.1.191.",
        "Generate |-separated exact lists or anchored regexes.",
        "claude-code.md §7 #6, §1.7 (doc)",
        MATCHER
    ),
    q!(
        "claude-code",
        Cl,
        7,
        "all (Windows)",
        "PreToolUse, PostToolUse, PermissionRequest",
        "tool_input",
        "On Windows shell commands may arrive through the PowerShell tool, and file paths use backslashes.",
        "Treat PowerShell as canonical shell, keep paths verbatim, match Bash|PowerShell.",
        "claude-code.md §7 #7, §3.2 (doc)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        8,
        "all",
        "Stop, SubagentStop",
        "transcript",
        "transcript_path may not yet contain the latest message when Stop fires.",
        "Read last_assistant_message (stop.final_message), not the transcript.",
        "claude-code.md §7 #8 (doc)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        9,
        "all",
        "*",
        "output_format",
        "A banner printed by shell startup files before the JSON breaks JSON detection and the decision is silently ignored.",
        "Keep hook shells' profiles quiet; the runtime keeps stray handler prints off stdout.",
        "claude-code.md §7 #9, §1.1 (doc)",
        Na(
            "comes from the hook's shell profile, outside the payload and the answer (the runtime stray-print test covers our own output)"
        )
    ),
    q!(
        "claude-code",
        Cl,
        10,
        "before the SessionEnd budget became configurable",
        "SessionEnd",
        "timeout",
        "SessionEnd hooks were killed after 1.5 s whatever their timeout.",
        "Keep SessionEnd work short; set CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS.",
        "claude-code.md §7 #10, §1.5 (doc)",
        TIMING
    ),
    q!(
        "claude-code",
        Cl,
        11,
        "all; fork source from 2.1.214",
        "SessionStart",
        "session",
        "Context injected mid-session is replayed from the transcript on --resume, and SessionStart fires again with source resume or fork.",
        "Make SessionStart context idempotent; branch on session source.",
        "claude-code.md §7 #11, §3.3 (doc)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        12,
        "Cowork (desktop) variant",
        "Stop",
        "config",
        "The Cowork desktop variant skips async Stop hooks.",
        "Configure Stop hooks synchronously.",
        "claude-code.md §7 #12, §4.5 (impl)",
        Na("configuration (async hooks): the payload is the same when the hook runs")
    ),
    q!(
        "claude-code",
        Cl,
        13,
        "all",
        "*",
        "detection",
        "Copilot CLI runs .claude/settings.json hooks with a near-identical snake_case payload (ISO timestamp, no transcript_path or permission_mode on tool events), and Codex exports CLAUDE_PLUGIN_ROOT: config location or environment alone do not prove Claude Code.",
        "Pass --provider; detection cross-checks CLAUDE_CODE_SESSION_ID with session_id and lets distinctive payload keys win over the environment.",
        "claude-code.md §7 #13, §1.2 (doc, Copilot/Codex docs)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        14,
        "2.1.328 print mode (e2e)",
        "PreToolUse",
        "ask",
        "In -p, a PreToolUse ask is a hard deny that skips PermissionRequest hooks, and defer ends the whole run.",
        "Encode ask/defer verbatim (they are native Claude answers); prefer deny with a reason for headless runs.",
        "claude-code.md §7 #14, §4.3 (e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        15,
        "2.1.328 (e2e)",
        "PreToolUse",
        "stop_agent",
        "continue:false alone does not stop the pending tool: it runs, then the session stops (hook_stopped).",
        "Pair stop_agent with deny when the call must not run.",
        "claude-code.md §7 #15, §4.2 (e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        16,
        "2.1.328 (e2e)",
        "PreToolUse",
        "fail_policy",
        "PreToolUse fails open on a timeout, schema-invalid JSON and a hookEventName naming another event; the user only sees a hook_no_verdict warning.",
        "Always fill hookSpecificOutput.hookEventName with the event's own name and emit only valid values.",
        "claude-code.md §7 #16, §1.6 (e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        17,
        "2.1.328 (e2e)",
        "*",
        "model_view",
        "Hook context reaches the model as role:system entries inside messages[], not in the top-level system field.",
        "Proxies or validators of the Messages API must accept system-role messages.",
        "claude-code.md §7 #17, §4.3 (e2e)",
        MODEL_SIDE
    ),
    q!(
        "claude-code",
        Cl,
        18,
        "2.1.328 (e2e)",
        "SubagentStop",
        "subagent",
        "The forked agent that runs compaction fires SubagentStop with agent_type \"\".",
        "Do not read an empty agent_type as 'not a subagent', nor every SubagentStop as a user-visible subagent.",
        "claude-code.md §7 #18, §6 (e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        19,
        "2.1.328 print mode (e2e)",
        "StopFailure, PostModelSwitch, ConfigChange",
        "event_coverage",
        "Fire-and-forget hooks can be lost when a -p process exits, and ConfigChange misses changes made before its watcher starts.",
        "Do not build audits on fire-and-forget events in -p.",
        "claude-code.md §7 #19, §2 (e2e)",
        NOT_SENT
    ),
    q!(
        "claude-code",
        Cl,
        20,
        "2.1.328 (e2e)",
        "PreCompact, Setup",
        "context",
        "PreCompact stdout, even JSON, becomes compaction instructions verbatim and is echoed to the model; Setup additionalContext did not reach the model under --init -p.",
        "Print nothing on PreCompact unless it is meant for the model; system_message there is model-visible.",
        "claude-code.md §7 #20, §4.2 (e2e)",
        Req
    ),
    q!(
        "claude-code",
        Cl,
        21,
        "2.1.328 (e2e)",
        "*",
        "block",
        "Exit-2 feedback the model sees is prefixed with the hook's command line; Stop/PostToolUse block feedback names the command too.",
        "Never put secrets in hook command lines.",
        "claude-code.md §7 #21, §4.1 (e2e)",
        Na("the prefix is added by the agent after the answer; the answer itself does not change")
    ),
    q!(
        "claude-code",
        Cl,
        22,
        "2.1.121+ (all tools)",
        "PostToolUse",
        "output_rewrite",
        "updatedToolOutput given as a plain string is silently ignored for Bash; only an object in the tool's own output shape replaces the result.",
        "Encode replace_output for built-in tools as an object of the tool's output shape.",
        "claude-code.md §7 #22, §4.3 (doc, e2e)",
        Req
    ),
];
