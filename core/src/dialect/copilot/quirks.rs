//! Copilot CLI's quirks: every row of the quirk table of its protocol
//! research, in our own words (the registry and its rules:
//! [`crate::quirks`]). Listed in this agent's row, [`super::AGENT`].

use crate::dialect::quirk::FixtureRule::Required as Req;
use crate::dialect::quirk::{CONFIG, MATCHER, ORDER, Quirk, TRUST, q};
use crate::model::Provider::Copilot as Cp;

/// Every quirk of this agent, in table order.
pub(super) const QUIRKS: &[Quirk] = &[
    q!(
        "copilot",
        Cp,
        1,
        "all (doc)",
        "*",
        "event_name",
        "camelCase payloads do not name their event (except notification, and permissionRequest's hookName).",
        "Bake --event into the generated command line; infer from shape only as a fallback.",
        "copilot-cli.md §7 #1, §3.4 (doc)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        2,
        "string (seen, older doc); object on 1.0.102 (e2e)",
        "preToolUse, postToolUse, postToolUseFailure",
        "tool_input",
        "toolArgs arrives as a JSON-encoded string on some builds and as an object on 1.0.102; permissionRequest's toolInput is an object.",
        "Accept both forms; parse strings, keep raw_input verbatim.",
        "copilot-cli.md §7 #2, §3.3 (seen, doc, e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        3,
        "all (doc, e2e)",
        "preToolUse, postToolUse, postToolUseFailure, permissionRequest",
        "tool_id",
        "No payload carries a tool-call id.",
        "Synthesize stable ids; key post on the arguments the pre hook returned.",
        "copilot-cli.md §7 #3, §3.4 (doc, e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        4,
        "fail-closed 1.0.56+, timeouts fail-open 1.0.67+; confirmed 1.0.102",
        "preToolUse",
        "fail_policy",
        "preToolUse command hooks deny on a crash or any non-zero exit, but a timeout lets the tool run; HTTP preToolUse hooks fail open.",
        "Encode every verdict with exit 0; the fail-open answer must never exit non-zero.",
        "copilot-cli.md §7 #4, §1.5 (doc, e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        5,
        "doc: dropped; 1.0.102: honoured",
        "userPromptSubmitted",
        "block",
        "The docs say userPromptSubmitted output is dropped for command hooks, but 1.0.102 honours decision block, modifiedPrompt and additionalContext (a block makes the CLI exit 1).",
        "Encode block_prompt and context; print nothing for no opinion.",
        "copilot-cli.md §7 #5, §4.3 (doc, e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        6,
        "PascalCase payloads from 1.0.21",
        "*",
        "detection",
        "Copilot reads .claude/settings*.json and Claude-format plugins: Claude hooks run under Copilot and receive snake_case payloads with Claude tool names and ISO timestamps.",
        "Tell the dialects apart by the ISO timestamp; pass --provider in generated configs.",
        "copilot-cli.md §7 #6, §3.1 (doc)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        7,
        "all (seen)",
        "preToolUse, PreToolUse",
        "dedupe",
        "The same script registered under preToolUse and PreToolUse runs twice per call, once per payload dialect.",
        "Register one dialect only; the two firings decode to events of the same call.",
        "copilot-cli.md §7 #7, §2 (seen)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        8,
        "all (doc)",
        "*",
        "ordering",
        "Hooks of one event run sequentially, in configuration order.",
        "Order generated entries deliberately.",
        "copilot-cli.md §7 #8, §1.1 (doc)",
        ORDER
    ),
    q!(
        "copilot",
        Cp,
        9,
        "all (doc)",
        "*",
        "output_format",
        "Only a single JSON object may remain on stdout after progress lines are stripped; two objects are invalid and ignored.",
        "Write exactly one JSON object.",
        "copilot-cli.md §7 #9, §4.1 (doc)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        10,
        "1.0.89 (seen), 1.0.102 (e2e)",
        "postToolUse, postToolUseFailure",
        "tool_output",
        "postToolUseFailure never fires for failed shell commands: the shell reports resultType success with the exit code in the text.",
        "Do not expect tool.error for shell; read the exit code from textResultForLlm.",
        "copilot-cli.md §7 #10, §3.2 (seen, e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        11,
        "1.0.40+",
        "*",
        "trust",
        "Repository hooks do not run in -p mode without folder trust or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true.",
        "Install user-level hooks for headless runs.",
        "copilot-cli.md §7 #11, §1.3 (seen)",
        TRUST
    ),
    q!(
        "copilot",
        Cp,
        12,
        "1.0.37",
        "*",
        "config",
        "A nested Claude-style matcher group in .github/hooks/*.json was rejected; native entries are flat.",
        "Generate flat native entries.",
        "copilot-cli.md §7 #12, §1.4 (seen)",
        CONFIG
    ),
    q!(
        "copilot",
        Cp,
        13,
        "reported (impl)",
        "*",
        "matcher",
        "An empty matcher string reportedly invalidates the whole hook source.",
        "Omit the matcher key for match-all.",
        "copilot-cli.md §7 #13, §1.4 (impl)",
        MATCHER
    ),
    q!(
        "copilot",
        Cp,
        14,
        "all (doc, e2e)",
        "agentStop",
        "payload_shape",
        "stop_hook_active is snake_case inside the otherwise camelCase agentStop payload.",
        "Decode stop_hook_active by its snake_case name.",
        "copilot-cli.md §7 #14, §3.2 (doc)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        15,
        "cloud agent (doc)",
        "preToolUse, notification, preCompact, permissionRequest, sessionEnd",
        "ask",
        "Under the cloud agent only bash/command entries run, ask means deny, notification never fires, preCompact is only auto, permissionRequest is irrelevant and sessionEnd reasons are complete/error/timeout.",
        "For variant cloud, degrade ask to deny and expect no permission events.",
        "copilot-cli.md §7 #15, §1.1 (doc)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        16,
        "HTTP hooks from 1.0.35",
        "preToolUse, permissionRequest",
        "config",
        "HTTP hooks must be https:// (localhost only with COPILOT_HOOK_ALLOW_LOCALHOST); preToolUse/permissionRequest always need HTTPS.",
        "Generate command hooks, or HTTPS URLs.",
        "copilot-cli.md §7 #16, §1.4 (doc)",
        CONFIG
    ),
    q!(
        "copilot",
        Cp,
        17,
        "1.0.102 (e2e)",
        "permissionRequest",
        "block",
        "permissionRequest fires even under --allow-all-tools and can deny there, and can approve without it; only the flat {behavior, message} answer counts, Claude's hookSpecificOutput.decision is ignored.",
        "Encode permission answers in the flat form.",
        "copilot-cli.md §7 #17, §4.3 (e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        18,
        "1.0.102 (e2e)",
        "permissionRequest",
        "event_name",
        "permissionRequest is the only camelCase payload that names itself (hookName); its toolInput differs from toolArgs (bash has no description; create is requested as edit with a diff).",
        "Use hookName when present; do not expect toolArgs' shape in toolInput.",
        "copilot-cli.md §7 #18, §3.2 (e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        19,
        "1.0.102 (e2e)",
        "preToolUse",
        "exit_code",
        "preToolUse exit 2 drops the stderr reason: the model only sees 'hook exited with code 2'.",
        "Deny with JSON (permissionDecisionReason) on exit 0, never with exit 2.",
        "copilot-cli.md §7 #19, §4.2 (e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        20,
        "1.0.102 (e2e)",
        "preToolUse",
        "ask",
        "preToolUse allow skips permissionRequest and the permission system entirely; ask is a deny in -p mode.",
        "Never send allow as a neutral answer; degrade ask for headless runs.",
        "copilot-cli.md §7 #20, §4.3 (e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        21,
        "1.0.102 (e2e)",
        "errorOccurred, sessionEnd, agentStop",
        "event_coverage",
        "A failed model call fires errorOccurred once per attempt (1 + 5 retries), then sessionEnd (reason error) without agentStop; the CLI exits 1.",
        "Decode errorOccurred; do not expect agentStop after model errors.",
        "copilot-cli.md §7 #21, §2 (e2e)",
        Req
    ),
    q!(
        "copilot",
        Cp,
        22,
        "1.0.102 (e2e)",
        "*",
        "trust",
        "User hooks in $COPILOT_HOME/hooks load in -p without folder trust; with COPILOT_OFFLINE=true and a BYOK provider all hooks fire without a GitHub login.",
        "Prefer user-level hooks for headless and offline runs.",
        "copilot-cli.md §7 #22, §1.3 (e2e)",
        TRUST
    ),
    q!(
        "copilot",
        Cp,
        23,
        "1.0.102 (e2e)",
        "preMcpToolCall, postResult, prePRDescription",
        "event_coverage",
        "preMcpToolCall, postResult and prePRDescription are accepted in config but undocumented and never fired.",
        "Do not rely on them; if one arrives it still decodes (kind other, named by --event).",
        "copilot-cli.md §7 #23, §2 (e2e)",
        Req
    ),
];
