//! Codex's quirks: every row of the quirk table of its protocol
//! research, in our own words (the registry and its rules:
//! [`crate::quirks`]). Listed in this agent's row, [`super::AGENT`].

use crate::dialect::quirk::FixtureRule::{NotApplicable as Na, Required as Req};
use crate::dialect::quirk::{
    AGENT_OUT, CONFIG, ENV, MODEL_SIDE, NOT_SENT, ORDER, Quirk, TIMING, TRUST, q,
};
use crate::model::Provider::Codex as Cx;

/// Every quirk of this agent, in table order.
pub(super) const QUIRKS: &[Quirk] = &[
    q!(
        "codex",
        Cx,
        1,
        "all",
        "PreToolUse, PermissionRequest, PostToolUse, Stop",
        "output_format",
        "Strict output parsing: unknown keys, a bare allow, ask, approve, a deny without reason or continue:false on PreToolUse fail the run, and a failed run is fail-open.",
        "Emit only the keys each event accepts; degrade ask and bare allow; always give deny a non-empty reason.",
        "codex.md §7 #1, §4.2, §4.3 (doc, src, e2e)",
        Req
    ),
    q!(
        "codex",
        Cx,
        2,
        "all",
        "*",
        "exit_code",
        "Exit 2 blocks only with non-empty stderr; with empty stderr it is a failed run.",
        "A fail-closed exit 2 always writes a reason to stderr.",
        "codex.md §7 #2, §4.1 (src, e2e)",
        Req
    ),
    q!(
        "codex",
        Cx,
        3,
        "trust enforcement from PR #20321 (2026-04-30)",
        "*",
        "trust",
        "Hooks run only once their exact definition hash is trusted; unreviewed or edited hooks are skipped silently in codex exec.",
        "Installers write hooks.state.<key>.trusted_hash, or use app-server hooks/list + config/batchWrite.",
        "codex.md §7 #3, §1.4 (doc, src; e2e)",
        TRUST
    ),
    q!(
        "codex",
        Cx,
        4,
        "all",
        "*",
        "output_format",
        "Hooks run through a login shell ($SHELL -lc): a profile that prints text corrupts stdout, and a leading banner makes PreToolUse JSON silently ignored.",
        "Keep login profiles quiet; the runtime keeps handler prints off stdout.",
        "codex.md §7 #4, §1.1 (src-derived)",
        Na("comes from the hook's login shell, outside the payload and the answer")
    ),
    q!(
        "codex",
        Cx,
        5,
        "all",
        "PostToolUse",
        "tool_output",
        "There is no failure event: a Bash command that exits non-zero fires PostToolUse.",
        "Inspect tool_response; never expect tool.error from Codex.",
        "codex.md §7 #5, §2 (doc)",
        Req
    ),
    q!(
        "codex",
        Cx,
        6,
        "all",
        "PermissionRequest",
        "tool_id",
        "PermissionRequest carries no tool_use_id.",
        "Synthesize a stable id from turn id, tool name and input.",
        "codex.md §7 #6, §3.2 (doc, e2e)",
        Req
    ),
    q!(
        "codex",
        Cx,
        7,
        "all",
        "*",
        "detection",
        "Codex also sets CLAUDE_PLUGIN_ROOT / CLAUDE_PLUGIN_DATA for plugin hooks.",
        "Never infer Claude Code from CLAUDE_PLUGIN_*; a Codex plugin hook has PLUGIN_ROOT equal to CLAUDE_PLUGIN_ROOT.",
        "codex.md §7 #7, §1.2 (doc)",
        Req
    ),
    q!(
        "codex",
        Cx,
        8,
        "0.124.0+",
        "PreToolUse, PermissionRequest, PostToolUse",
        "tool_input",
        "apply_patch matches Edit/Write matchers but arrives as tool_name apply_patch with the patch text in tool_input.command.",
        "Map apply_patch to file.edit and take paths from the patch body.",
        "codex.md §7 #8, §3.3 (doc)",
        Req
    ),
    q!(
        "codex",
        Cx,
        9,
        "all",
        "PreToolUse, PostToolUse",
        "event_coverage",
        "Hosted tools (web search) and write_stdin polling fire no tool hooks.",
        "Treat tool hooks as a guardrail, not an enforcement boundary.",
        "codex.md §7 #9, §3.3 (doc)",
        NOT_SENT
    ),
    q!(
        "codex",
        Cx,
        10,
        "all",
        "SessionEnd, Interrupt",
        "timeout",
        "SessionEnd and Interrupt hooks default to a 1 s timeout and accept at most 3 s.",
        "Keep them fast; generators clamp their timeout to 3 s.",
        "codex.md §7 #10, §1.5 (doc)",
        TIMING
    ),
    q!(
        "codex",
        Cx,
        11,
        "verified on 0.145.0 (impl)",
        "PreToolUse, PostToolUse",
        "mcp",
        "Launch flags can change the MCP inventory without touching config.toml; tool hooks carry only the tool name, never the server's transport.",
        "Decode MCP server and tool from the name alone; do not expect a url or command.",
        "codex.md §7 #11, §3.3 (impl)",
        Req
    ),
    q!(
        "codex",
        Cx,
        12,
        "before 0.124.0",
        "*",
        "config",
        "Hooks were opt-in (codex_hooks = true) and tool hooks only saw Bash.",
        "Target 0.124.0+ or enable the feature flag.",
        "codex.md §7 #12, §2 (seen)",
        CONFIG
    ),
    q!(
        "codex",
        Cx,
        13,
        "0.171.0 (e2e)",
        "PreToolUse",
        "updated_input",
        "allow + updatedInput without a string command (Bash, apply_patch) does not fail open: the tool does not run and the model gets an error text.",
        "Always keep a string command in Bash/apply_patch rewrites (note lossy_update).",
        "codex.md §7 #13, §4.3 (e2e)",
        Req
    ),
    q!(
        "codex",
        Cx,
        14,
        "0.171.0 (e2e)",
        "Stop, SubagentStop",
        "loop_guard",
        "There is no Stop loop guard: an always-blocking Stop hook loops until the process is killed.",
        "Check stop_hook_active; the runtime's continuation_cap counts across processes.",
        "codex.md §7 #14, §6 (e2e)",
        Req
    ),
    q!(
        "codex",
        Cx,
        15,
        "0.171.0 (e2e)",
        "*",
        "agent_ui",
        "codex exec never prints hook reasons, stopReason or systemMessage, and exits 0 when a prompt is blocked.",
        "Log decisions yourself; do not rely on exec's output.",
        "codex.md §7 #15, §4.2 (e2e)",
        AGENT_OUT
    ),
    q!(
        "codex",
        Cx,
        16,
        "0.171.0 (e2e)",
        "PostToolUse",
        "tool_output",
        "PostToolUse tool_response for Bash is the raw command output string; the model sees a wrapped version.",
        "Keep tool_response verbatim as the output; do not expect exit codes in it.",
        "codex.md §7 #16, §3.2 (e2e)",
        Req
    ),
    q!(
        "codex",
        Cx,
        17,
        "0.171.0 (e2e)",
        "*",
        "config",
        "Unknown event names in hooks.json (StopFailure, Notification, typos) are ignored without a warning.",
        "Generate only the events the target version knows.",
        "codex.md §7 #17, §1.3 (e2e)",
        CONFIG
    ),
    q!(
        "codex",
        Cx,
        18,
        "0.171.0 (e2e)",
        "PermissionRequest",
        "event_coverage",
        "PermissionRequest never fires in codex exec unless --approve-for-me is given.",
        "Gate in PreToolUse for headless runs.",
        "codex.md §7 #18, §2 (e2e)",
        NOT_SENT
    ),
    q!(
        "codex",
        Cx,
        19,
        "0.171.0 (e2e)",
        "PreToolUse, PostModelRequest",
        "ordering",
        "PreToolUse may run before the PostModelRequest of the response that asked for the tool.",
        "Do not assume model-request events bracket tool events.",
        "codex.md §7 #19, §2 (e2e)",
        ORDER
    ),
    q!(
        "codex",
        Cx,
        20,
        "0.171.0 (e2e)",
        "Stop",
        "model_view",
        "The Stop continuation message embeds the hooks file's absolute path in hook_run_id, and the model sees it.",
        "Keep hooks files at paths that reveal nothing sensitive.",
        "codex.md §7 #20, §4.3 (e2e)",
        MODEL_SIDE
    ),
    q!(
        "codex",
        Cx,
        21,
        "all (src, e2e)",
        "*",
        "env",
        "Hooks inherit the whole codex environment, secrets included.",
        "Never log the environment; scrub it before spawning children.",
        "codex.md §7 #21, §1.2 (src, e2e)",
        ENV
    ),
];
