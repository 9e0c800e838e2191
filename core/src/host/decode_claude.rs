//! Claude Code's reading of a command hook run (claude-code.md §1.5–1.6,
//! §4.1–4.3, quirks 2–4, 15, 16, 20).
//!
//! * Exit 0: stdout that (after leading whitespace) starts with `{` and
//!   parses is JSON; schema-invalid JSON (a wrong type, a bad enum value, a
//!   missing or foreign `hookSpecificOutput.hookEventName`) is a
//!   non-blocking error with no decision. Anything else is plain text:
//!   context on `UserPromptSubmit`, `UserPromptExpansion`, `SessionStart`,
//!   ignored elsewhere (`PreCompact` keeps it as compaction instructions,
//!   `WorktreeCreate` takes its last non-empty line as the path).
//! * Exit 2: blocks on events that can block, even when the JSON says
//!   allow; valid JSON is still read, and the block reason is the JSON's
//!   reason if any, else stderr. On events that cannot block, stderr is a
//!   user notice. `PermissionRequest` ignores exit 2 (treated as below).
//! * Any other code (or a signal): schema-valid JSON decides regardless of
//!   the code; otherwise a non-blocking error (first stderr line).
//!   `WorktreeCreate` fails on any non-zero code.
//! * Timeout, spawn error: no decision (fail open), unless the handler has
//!   `onFailure: "block"` (v2.1.295+; not on async hooks nor on `Stop`,
//!   `SubagentStop`, `TaskCompleted`, `TeammateIdle`), which also applies to
//!   an unexpected exit code.
//!
//! * A suspect capture (Claude Code 2.1.328, read from its binary and
//!   observed): the hook exited but processes it started held its output
//!   open past the 500 ms quiet window ([`RawRun::pipes_held`]). Unless it
//!   exited 2, a JSON answer that only restricts (deny, block, a stop, a
//!   message) is honoured; one that grants, rewrites or injects (allow,
//!   `updatedInput`, context on most events, ...) or JSON that never
//!   completed is refused: on the gating events (`PreToolUse`,
//!   `PermissionRequest`, `UserPromptSubmit`, ...) the refusal is an exit-2
//!   block with the refusal as the reason, elsewhere the output is dropped.
//! * Output over the host's capture cap ([`RawRun::stdout_truncated`];
//!   Claude Code itself reads any size) that could be JSON (it is blank or
//!   starts with `{` so far) cannot be read as the agent would, so it is
//!   refused the same way: never a truncated answer read as "no decision"
//!   where the whole one might have blocked. Truncated plain text reads as
//!   plain text.
//!
//! Unknown keys are ignored (Claude Code strips them); only the fields each
//! event honours are type-checked and extracted.

use serde_json::{Map, Value};

use super::events::{self, Exit2, PlainText};
use super::output::{
    DecodeCtx, HookDecision, HookOutput, OutputStatus, Stdout, StopRequest, classify, non_blank,
    opt_bool, opt_obj, opt_str,
};
use super::runner::RawRun;
use crate::host::matcher::Dialect;

/// Events whose `continue`/`stopReason` are discarded.
const NO_CONTINUE: &[&str] = &[
    "InstructionsLoaded",
    "MessageDisplay",
    "Notification",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
    "Elicitation",
    "ElicitationResult",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "TaskCreated",
];

/// Events that honour a top-level `decision: "block"`.
const TOP_BLOCK: &[&str] = &[
    "PostToolUse",
    "PostToolBatch",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "Stop",
    "SubagentStop",
    "TaskCreated",
    "ConfigChange",
    "PreCompact",
];

/// The reason of a block caused by `onFailure: "block"`.
pub const ON_FAILURE_REASON: &str = "The hook failed and its onFailure is \"block\".";

/// Events where `onFailure: "block"` is ignored.
const NO_ON_FAILURE: &[&str] = &["Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"];

/// Events on which Claude Code turns a refused capture into an exit-2
/// block (its `M3` set in 2.1.328).
const REFUSAL_BLOCKS: &[&str] = &[
    "PreToolUse",
    "PermissionRequest",
    "PreModelSwitch",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "ConfigChange",
    "Elicitation",
    "ElicitationResult",
    "PostToolBatch",
    "TaskCreated",
    "PreCompact",
];

/// Events where a top-level `decision: "block"` asks for more (a
/// continuation, feedback): not merely restrictive.
const BLOCK_INJECTS: &[&str] = &[
    "Stop",
    "SubagentStop",
    "StopFailure",
    "TaskCompleted",
    "TeammateIdle",
    "PostToolUse",
    "PostToolUseFailure",
];

/// Events whose exit-0 `additionalContext` is still restrictive enough.
const CONTEXT_OK: &[&str] = &[
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "PostModelSwitch",
];

/// Whether a JSON answer only restricts (Claude Code's test before it
/// honours a suspect capture).
fn only_restricts(m: &Map<String, Value>, native: &str, code: Option<i32>) -> bool {
    const TOP: &[&str] = &[
        "continue",
        "suppressOutput",
        "stopReason",
        "decision",
        "systemMessage",
        "terminalSequence",
        "reason",
        "metrics",
        "rewakeSummary",
        "hookSpecificOutput",
    ];
    const HSO: &[&str] = &[
        "hookEventName",
        "permissionDecision",
        "permissionDecisionReason",
        "additionalContext",
        "decision",
        "action",
        "content",
        "suppressOriginalPrompt",
        "retry",
    ];
    if m.contains_key("async") {
        return true;
    }
    match m.get("decision").and_then(Value::as_str) {
        Some("approve") => return false,
        Some("block") if BLOCK_INJECTS.contains(&native) => return false,
        _ => {}
    }
    if m.keys().any(|k| !TOP.contains(&k.as_str())) {
        return false;
    }
    let g = match m.get("hookSpecificOutput") {
        None => return true,
        Some(Value::Object(g)) => g,
        Some(_) => return false,
    };
    let s = |k: &str| g.get(k).and_then(Value::as_str);
    if matches!(s("permissionDecision"), Some("allow" | "defer"))
        || g.get("decision")
            .and_then(|d| d.get("behavior"))
            .and_then(Value::as_str)
            == Some("allow")
        || s("action") == Some("accept")
        || g.get("retry") == Some(&Value::Bool(true))
        || (g.contains_key("additionalContext")
            && !(code == Some(0) && CONTEXT_OK.contains(&native)))
    {
        return false;
    }
    g.keys().all(|k| HSO.contains(&k.as_str()))
}

/// Why Claude Code would refuse to read this capture as a verdict.
fn refusal(native: &str, run: &RawRun) -> Option<&'static str> {
    if run.exit_code == Some(2) {
        return None;
    }
    // Claude reads stdout as JSON only when it starts with `{` (after
    // white space): a truncated plain text reads the same as the whole.
    let may_be_json = |t: &str| t.trim_start().is_empty() || t.trim_start().starts_with('{');
    if run.stdout_truncated && may_be_json(&run.stdout) {
        return Some(
            "hook output exceeded the host's capture cap, so it cannot be read as a whole; \
             refusing to read the partial capture as a verdict",
        );
    }
    if !run.pipes_held {
        return None;
    }
    match classify(&run.stdout) {
        Stdout::Json(m) if only_restricts(&m, native, run.exit_code) => None,
        Stdout::Json(_) => Some(
            "hook output parsed as a document that grants, rewrites or injects, but its stdio \
             went quiet before end-of-stream and a dropped later document could have changed \
             it; refusing to honor the suspect capture",
        ),
        _ if run.stdout.trim().starts_with('{') => Some(
            "hook output opens a JSON payload that never completed before its stdio went \
             quiet; refusing to read the partial capture as a verdict",
        ),
        _ => None,
    }
}

/// The run Claude Code reads instead of a refused capture.
fn refused(native: &str, run: &RawRun, why: &str) -> RawRun {
    if REFUSAL_BLOCKS.contains(&native) {
        let stdout = if matches!(native, "UserPromptSubmit" | "UserPromptExpansion") {
            serde_json::json!({
                "decision": "block",
                "reason": why,
                "hookSpecificOutput": {"hookEventName": native, "suppressOriginalPrompt": true}
            })
            .to_string()
        } else {
            String::new()
        };
        RawRun {
            exit_code: Some(2),
            stdout,
            stderr: why.to_string(),
            ..RawRun::default()
        }
    } else {
        let stderr = match run.exit_code {
            Some(c) if c != 0 && !run.stderr.trim().is_empty() => {
                format!("{why}\n\n{}", run.stderr.trim())
            }
            _ => why.to_string(),
        };
        RawRun {
            exit_code: run.exit_code,
            stdout: String::new(),
            stderr,
            ..RawRun::default()
        }
    }
}

/// `hookSpecificOutput` fields each event honours, besides `hookEventName`.
pub(crate) fn hso_fields(native: &str) -> &'static [&'static str] {
    match native {
        "PreToolUse" => &[
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        ],
        "PermissionRequest" => &["decision"],
        "PostToolUse" => &[
            "additionalContext",
            "updatedToolOutput",
            "updatedMCPToolOutput",
            "classifierContext",
        ],
        "PostToolUseFailure"
        | "PostToolBatch"
        | "UserPromptExpansion"
        | "Stop"
        | "SubagentStop"
        | "Setup"
        | "SubagentStart" => &["additionalContext"],
        "PermissionDenied" => &["retry"],
        "UserPromptSubmit" => &[
            "additionalContext",
            "sessionTitle",
            "suppressOriginalPrompt",
        ],
        "SessionStart" => &[
            "additionalContext",
            "initialUserMessage",
            "sessionTitle",
            "watchPaths",
            "reloadSkills",
        ],
        "CwdChanged" | "FileChanged" => &["watchPaths"],
        "WorktreeCreate" => &["worktreePath"],
        "Elicitation" | "ElicitationResult" => &["action", "content"],
        "MessageDisplay" => &["displayContent"],
        _ => &[],
    }
}

pub(crate) fn decode(native: &str, run: &RawRun, ctx: &DecodeCtx) -> HookOutput {
    let spec = events::spec(Dialect::ClaudeCode, native);
    let exit2 = spec.map_or(Exit2::Notice, |s| s.exit2);
    let plain = spec.map_or(PlainText::Ignored, |s| s.plain_text);
    let (mut out, failure) = if let Some(e) = &run.spawn_error {
        (
            HookOutput::errored(OutputStatus::SpawnError, e.clone()),
            true,
        )
    } else if run.timed_out {
        let why = "the hook did not answer in time; its output is discarded";
        (HookOutput::errored(OutputStatus::TimedOut, why), true)
    } else if let Some(why) = refusal(native, run) {
        let (mut out, failure) = decode_exit(native, &refused(native, run, why), exit2, plain);
        if out.decision.is_none() {
            out.error = Some(why.to_string());
        }
        (out, failure)
    } else {
        decode_exit(native, run, exit2, plain)
    };
    let gated = ctx.on_failure_block && !ctx.is_async && !NO_ON_FAILURE.contains(&native);
    if failure && gated && out.decision.is_none() {
        out.decision = Some(if exit2 == Exit2::Deny || native == "PermissionRequest" {
            HookDecision::Deny
        } else {
            HookDecision::Block
        });
        out.reason = Some(ON_FAILURE_REASON.into());
    }
    out
}

/// Decodes a run that exited; the flag says "unexpected failure" for
/// `onFailure: "block"`.
fn decode_exit(native: &str, run: &RawRun, exit2: Exit2, plain: PlainText) -> (HookOutput, bool) {
    let stdout = classify(&run.stdout);
    let stderr = run.stderr.trim();
    let code = run.exit_code;
    if code == Some(0) {
        let out = match stdout {
            Stdout::Empty => HookOutput::new(OutputStatus::Success),
            Stdout::Json(m) => match read_json(native, &m) {
                Ok(out) => out,
                Err(why) => HookOutput::errored(OutputStatus::NonBlockingError, why),
            },
            Stdout::Text(t) => plain_text(native, plain, t, &run.stdout),
            // JSON-looking garbage is plain text on exit 0 (e2e).
            Stdout::BadJson(_) => {
                plain_text(native, plain, run.stdout.trim().to_string(), &run.stdout)
            }
        };
        let mut out = out;
        if native == "PreCompact" && !run.stdout.trim().is_empty() {
            // Quirk 20: stdout, even JSON, becomes compaction instructions.
            out.extra
                .insert("compactInstructions".into(), run.stdout.trim().into());
        }
        return (out, false);
    }
    if code == Some(2) && exit2 != Exit2::AsOther {
        let json = match &stdout {
            Stdout::Json(m) => read_json(native, m).ok(),
            _ => None,
        };
        let mut out = json.unwrap_or_else(|| HookOutput::new(OutputStatus::Blocking));
        out.status = OutputStatus::Blocking;
        let stderr_reason = non_blank(Some(stderr.to_string()));
        match exit2 {
            Exit2::Deny | Exit2::Block => {
                let d = if exit2 == Exit2::Deny {
                    HookDecision::Deny
                } else {
                    HookDecision::Block
                };
                let json_reason =
                    if matches!(out.decision, Some(HookDecision::Deny | HookDecision::Block)) {
                        out.reason.take()
                    } else {
                        None
                    };
                out.decision = Some(d);
                out.reason = non_blank(json_reason).or(stderr_reason);
                out.updated_input = None;
            }
            _ => {
                out.decision = None;
                out.error = stderr_reason;
            }
        }
        return (out, false);
    }
    // Any other code: schema-valid JSON decides regardless of the code.
    if let Stdout::Json(m) = &stdout {
        if let Ok(out) = read_json(native, m) {
            return (out, false);
        }
    }
    let first = stderr.lines().next().unwrap_or("").to_string();
    let why = match code {
        Some(c) => format!("non-blocking status code {c}: {first}"),
        None => format!("the hook was killed by a signal: {first}"),
    };
    let mut out = HookOutput::errored(OutputStatus::NonBlockingError, why.trim_end().to_string());
    if native == "WorktreeCreate" {
        out.decision = Some(HookDecision::Block);
        out.reason = non_blank(Some(stderr.to_string()));
    }
    (out, true)
}

fn plain_text(native: &str, plain: PlainText, text: String, raw: &str) -> HookOutput {
    let mut out = HookOutput::new(OutputStatus::Success);
    match plain {
        PlainText::Context => out.context = Some(text),
        _ if native == "WorktreeCreate" => {
            if let Some(line) = raw.lines().rev().map(str::trim).find(|l| !l.is_empty()) {
                out.extra.insert("worktreePath".into(), line.into());
            }
        }
        _ => {}
    }
    out
}

/// Validates and extracts a JSON answer; `Err` is a schema violation.
fn read_json(native: &str, m: &Map<String, Value>) -> Result<HookOutput, String> {
    let mut out = HookOutput::new(OutputStatus::Success);
    let cont = opt_bool(m, "continue")?;
    let stop_reason = opt_str(m, "stopReason")?;
    opt_bool(m, "suppressOutput")?;
    let system_message = opt_str(m, "systemMessage")?;
    opt_str(m, "terminalSequence")?;
    let decision = opt_str(m, "decision")?;
    if let Some(d) = &decision {
        if !matches!(d.as_str(), "approve" | "block") {
            return Err(format!(
                "`decision` must be \"approve\" or \"block\", got {d:?}"
            ));
        }
    }
    let reason = opt_str(m, "reason")?;
    let hso = opt_obj(m, "hookSpecificOutput")?;
    if let Some(h) = hso {
        match h.get("hookEventName") {
            Some(Value::String(n)) if n == native => {}
            Some(Value::String(n)) => {
                return Err(format!("hookEventName {n:?} names another event"));
            }
            _ => return Err("hookSpecificOutput needs hookEventName".into()),
        }
    }
    if cont == Some(false) && !NO_CONTINUE.contains(&native) {
        out.stop = Some(StopRequest {
            reason: stop_reason,
        });
    }
    if !crate::dialect::claude::NO_SYSTEM_MESSAGE.contains(&native) {
        out.system_message = system_message;
    }
    if TOP_BLOCK.contains(&native) && decision.as_deref() == Some("block") {
        out.decision = Some(HookDecision::Block);
        out.reason = reason.clone();
    }
    let empty = Map::new();
    let h = hso.unwrap_or(&empty);
    let fields = hso_fields(native);
    let honoured = |k: &str| fields.contains(&k);
    if honoured("additionalContext") {
        out.context = opt_str(h, "additionalContext")?;
    }
    if native == "PreToolUse" {
        let pd = opt_str(h, "permissionDecision")?;
        let pd_reason = opt_str(h, "permissionDecisionReason")?;
        let d = match pd.as_deref() {
            None => None,
            Some("allow") => Some(HookDecision::Allow),
            Some("deny") => Some(HookDecision::Deny),
            Some("ask") => Some(HookDecision::Ask),
            Some("defer") => Some(HookDecision::Defer),
            Some(other) => return Err(format!("invalid permissionDecision {other:?}")),
        };
        out.updated_input = opt_obj(h, "updatedInput")?.cloned();
        match (d, decision.as_deref()) {
            (Some(d), _) => {
                out.decision = Some(d);
                out.reason = pd_reason;
            }
            // Legacy top-level decision (deprecated): approve / block.
            (None, Some("approve")) => out.decision = Some(HookDecision::Allow),
            (None, Some("block")) => {
                out.decision = Some(HookDecision::Deny);
                out.reason = reason;
            }
            _ => {}
        }
    }
    if native == "PermissionRequest" {
        if let Some(dec) = opt_obj(h, "decision")? {
            let behavior = opt_str(dec, "behavior")?;
            let upd = opt_obj(dec, "updatedInput")?.cloned();
            let perms = match dec.get("updatedPermissions") {
                None | Some(Value::Null) => None,
                Some(v @ Value::Array(_)) => Some(v.clone()),
                Some(_) => return Err("`updatedPermissions` must be an array".into()),
            };
            let message = opt_str(dec, "message")?;
            let interrupt = opt_bool(dec, "interrupt")?.unwrap_or(false);
            match behavior.as_deref() {
                Some("allow") => {
                    out.decision = Some(HookDecision::Allow);
                    out.updated_input = upd;
                    out.updated_permissions = perms;
                }
                Some("deny") => {
                    out.decision = Some(HookDecision::Deny);
                    out.reason = message;
                    out.interrupt = interrupt;
                }
                other => return Err(format!("invalid decision.behavior {other:?}")),
            }
        }
    }
    if native == "PostToolUse" {
        out.updated_tool_output = h
            .get("updatedToolOutput")
            .or_else(|| h.get("updatedMCPToolOutput"))
            .filter(|v| !v.is_null())
            .cloned();
    }
    for k in fields.iter().filter(|k| {
        !matches!(
            **k,
            "additionalContext"
                | "permissionDecision"
                | "permissionDecisionReason"
                | "updatedInput"
                | "decision"
                | "updatedToolOutput"
                | "updatedMCPToolOutput"
        )
    }) {
        if let Some(v) = h.get(*k).filter(|v| !v.is_null()) {
            check_extra(k, v)?;
            out.extra.insert((*k).to_string(), v.clone());
        }
    }
    Ok(out)
}

/// Type checks of the pass-through fields.
fn check_extra(k: &str, v: &Value) -> Result<(), String> {
    let ok = match k {
        "watchPaths" => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
        "reloadSkills" | "retry" | "suppressOriginalPrompt" => v.is_boolean(),
        "action" => matches!(v.as_str(), Some("accept" | "decline" | "cancel")),
        "content" => v.is_object(),
        _ => v.is_string(),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("`{k}` has the wrong type or value"))
    }
}
