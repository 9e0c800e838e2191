//! Codex's reading of a command hook run (codex.md §4.1–4.3, quirks 1, 2,
//! 13). Codex's output parser is strict and a "failed" run is ignored
//! (fail-open).
//!
//! * Exit 0: trimmed empty stdout is success. A JSON object must match the
//!   event's schema exactly: an unknown key, a wrong type or a bad enum
//!   value fails the run, and so do the semantic rules (PreToolUse: a bare
//!   `allow`, `ask`, a deny without reason, `updatedInput` without `allow`,
//!   `continue:false`, `stopReason`, `suppressOutput`; PermissionRequest:
//!   `updatedInput`, `updatedPermissions`, `interrupt:true`; a block without
//!   a non-empty reason; ...). Stdout that starts with `{`/`[` but is not a
//!   JSON object fails the run; other text is context on `SessionStart`,
//!   `UserPromptSubmit`, `SubagentStart`, a failure on `Stop`,
//!   `SubagentStop`, `Interrupt`, and ignored elsewhere.
//! * Exit 2 with non-empty stderr: deny on `PreToolUse`/`PermissionRequest`,
//!   block on `PostToolUse`, `UserPromptSubmit`, `Stop`, `SubagentStop`
//!   (stdout ignored); anything else, or empty stderr, fails the run.
//! * Other codes, signals, timeouts, spawn errors: failed.
//! * Quirk 13: `allow` + `updatedInput` without a string `command` for
//!   `Bash`/`apply_patch` is not a failure: the tool does not run.
//! * Output over the host's capture cap ([`RawRun::stdout_truncated`]; Codex
//!   itself reads any size) that could be JSON (blank, or starting with `{`
//!   or `[` so far) cannot be read as Codex would. Unless exit 2 with
//!   stderr already decides, it denies on `PreToolUse` and
//!   `PermissionRequest` and blocks on `UserPromptSubmit` (the whole answer
//!   might have), and fails elsewhere: never a truncated answer read as "no
//!   decision". Truncated plain text reads as plain text.
//!
//! Codex waits for the hook's output pipes to close (until its timeout), so
//! a process the hook left holding them makes the run a timeout.

use serde_json::{Map, Value};

use super::events::{self, Exit2, PlainText};
use super::output::{
    DecodeCtx, HookDecision, HookOutput, OutputStatus, Stdout, StopRequest, classify, non_blank,
    opt_bool, opt_obj, opt_str,
};
use super::runner::RawRun;
use crate::host::matcher::Dialect;

const UNIVERSAL: &[&str] = &["continue", "stopReason", "systemMessage", "suppressOutput"];

/// Extra top-level keys and `hookSpecificOutput` keys per event.
pub(crate) fn schema(native: &str) -> (&'static [&'static str], Option<&'static [&'static str]>) {
    match native {
        "PreToolUse" => (
            &["decision", "reason"],
            Some(&[
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
                "additionalContext",
            ]),
        ),
        "PermissionRequest" => (&[], Some(&["decision"])),
        "PostToolUse" => (
            &["decision", "reason"],
            Some(&["additionalContext", "updatedMCPToolOutput"]),
        ),
        "UserPromptSubmit" => (&["decision", "reason"], Some(&["additionalContext"])),
        "SessionStart" | "SubagentStart" => (&[], Some(&["additionalContext"])),
        "Stop" | "SubagentStop" => (&["decision", "reason"], None),
        _ => (&[], None),
    }
}

pub(crate) fn decode(native: &str, run: &RawRun, ctx: &DecodeCtx) -> HookOutput {
    let spec = events::spec(Dialect::Codex, native);
    let failed = |why: String| HookOutput::errored(OutputStatus::Failed, why);
    if let Some(e) = &run.spawn_error {
        return HookOutput::errored(OutputStatus::SpawnError, e.clone());
    }
    if run.timed_out {
        return HookOutput::errored(OutputStatus::TimedOut, "hook timed out");
    }
    let stderr_decides = run.exit_code == Some(2) && !run.stderr.trim().is_empty();
    // Codex reads stdout as JSON when it starts with `{` or `[` (after white
    // space): a truncated plain text reads the same as the whole.
    let head = run.stdout.trim_start();
    let may_be_json = head.is_empty() || head.starts_with('{') || head.starts_with('[');
    if run.stdout_truncated && may_be_json && !stderr_decides {
        let why = "hook output exceeded the host's capture cap, so it cannot be read as a \
                   whole; treated as blocking where the hook could block";
        let d = match native {
            "PreToolUse" | "PermissionRequest" => HookDecision::Deny,
            "UserPromptSubmit" => HookDecision::Block,
            _ => return failed(why.into()),
        };
        let mut out = HookOutput::new(OutputStatus::Blocking);
        out.decision = Some(d);
        out.reason = Some(why.into());
        return out;
    }
    match run.exit_code {
        Some(0) => {}
        Some(2) => {
            let exit2 = spec.map_or(Exit2::Failed, |s| s.exit2);
            let Some(reason) = non_blank(Some(run.stderr.clone())) else {
                return failed("exit code 2 with empty stderr".into());
            };
            let d = match exit2 {
                Exit2::Deny => HookDecision::Deny,
                Exit2::Block => HookDecision::Block,
                _ => return failed(format!("exit code 2 is not honoured on {native}")),
            };
            let mut out = HookOutput::new(OutputStatus::Blocking);
            out.decision = Some(d);
            out.reason = Some(reason);
            return out;
        }
        Some(c) => return failed(format!("exited with code {c}")),
        None => return failed("killed by a signal".into()),
    }
    match classify(&run.stdout) {
        Stdout::Empty => HookOutput::new(OutputStatus::Success),
        Stdout::BadJson(why) => failed(why),
        Stdout::Text(t) => match spec.map_or(PlainText::Ignored, |s| s.plain_text) {
            PlainText::Context => HookOutput {
                context: Some(t),
                ..HookOutput::new(OutputStatus::Success)
            },
            PlainText::Failure => failed(format!("plain-text output is invalid on {native}")),
            PlainText::Ignored => HookOutput::new(OutputStatus::Success),
        },
        Stdout::Json(m) => read_json(native, &m, ctx).unwrap_or_else(failed),
    }
}

fn check_keys(m: &Map<String, Value>, allowed: &[&str], what: &str) -> Result<(), String> {
    match m.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(format!("unknown field `{k}` in {what}")),
        None => Ok(()),
    }
}

fn read_json(native: &str, m: &Map<String, Value>, ctx: &DecodeCtx) -> Result<HookOutput, String> {
    let (top, hso_keys) = schema(native);
    let mut allowed: Vec<&str> = UNIVERSAL.to_vec();
    allowed.extend_from_slice(top);
    if hso_keys.is_some() {
        allowed.push("hookSpecificOutput");
    }
    check_keys(m, &allowed, "the output")?;
    let cont = opt_bool(m, "continue")?.unwrap_or(true);
    let stop_reason = opt_str(m, "stopReason")?;
    let suppress = opt_bool(m, "suppressOutput")?.unwrap_or(false);
    let system_message = opt_str(m, "systemMessage")?;
    let decision = opt_str(m, "decision")?;
    let reason = opt_str(m, "reason")?;
    let valid_decisions: &[&str] = if native == "PreToolUse" {
        &["approve", "block"]
    } else {
        &["block"]
    };
    if let Some(d) = &decision {
        if !valid_decisions.contains(&d.as_str()) {
            return Err(format!("unsupported decision {d:?}"));
        }
    }
    let empty = Map::new();
    let hso = opt_obj(m, "hookSpecificOutput")?;
    if let (Some(h), Some(keys)) = (hso, hso_keys) {
        let mut k: Vec<&str> = vec!["hookEventName"];
        k.extend_from_slice(keys);
        check_keys(h, &k, "hookSpecificOutput")?;
        match h.get("hookEventName") {
            Some(Value::String(n)) if n == native => {}
            Some(Value::String(n)) => {
                return Err(format!("hookEventName {n:?} names another event"));
            }
            _ => return Err("hookSpecificOutput needs hookEventName".into()),
        }
    }
    let h = hso.unwrap_or(&empty);
    let mut out = HookOutput::new(OutputStatus::Success);
    out.system_message = system_message;
    out.context = opt_str(h, "additionalContext")?;
    if !cont {
        out.stop = Some(StopRequest {
            reason: stop_reason.clone(),
        });
    }
    let nonblank = |r: &Option<String>| non_blank(r.clone());
    match native {
        "PreToolUse" => {
            if !cont || stop_reason.is_some() || suppress {
                return Err(
                    "continue:false, stopReason and suppressOutput are unsupported on PreToolUse"
                        .into(),
                );
            }
            let pd = opt_str(h, "permissionDecision")?;
            let pd_reason = opt_str(h, "permissionDecisionReason")?;
            let upd = match h.get("updatedInput") {
                None | Some(Value::Null) => None,
                Some(v) => Some(v.clone()),
            };
            if pd.is_some() || pd_reason.is_some() || upd.is_some() {
                match pd.as_deref() {
                    _ if upd.is_some() && pd.as_deref() != Some("allow") => {
                        return Err("updatedInput without permissionDecision:allow".into());
                    }
                    Some("allow") => {
                        let Some(u) = upd else {
                            return Err(
                                "unsupported permissionDecision:allow (no updatedInput)".into()
                            );
                        };
                        let needs_cmd = matches!(ctx.tool_name, Some("Bash" | "apply_patch"));
                        let has_cmd = u.get("command").is_some_and(Value::is_string);
                        if needs_cmd && !has_cmd {
                            // Quirk 13: reported Completed, but the tool does not run.
                            out.decision = Some(HookDecision::Deny);
                            out.reason = Some(
                                "hook returned updatedInput without string field `command`".into(),
                            );
                        } else {
                            out.decision = Some(HookDecision::Allow);
                            out.updated_input = u.as_object().cloned();
                        }
                    }
                    Some("deny") => {
                        let Some(r) = nonblank(&pd_reason) else {
                            return Err("permissionDecision:deny without a non-empty reason".into());
                        };
                        out.decision = Some(HookDecision::Deny);
                        out.reason = Some(r);
                    }
                    Some("ask") => return Err("unsupported permissionDecision:ask".into()),
                    Some(other) => return Err(format!("unknown permissionDecision {other:?}")),
                    None => {
                        return Err("permissionDecisionReason without permissionDecision".into());
                    }
                }
            } else {
                match decision.as_deref() {
                    Some("approve") => return Err("unsupported decision:approve".into()),
                    Some(_) => {
                        let Some(r) = nonblank(&reason) else {
                            return Err("decision:block without a non-empty reason".into());
                        };
                        out.decision = Some(HookDecision::Deny);
                        out.reason = Some(r);
                    }
                    None if reason.is_some() => return Err("reason without decision".into()),
                    None => {}
                }
            }
        }
        "PermissionRequest" => {
            if !cont || stop_reason.is_some() || suppress {
                return Err("continue:false, stopReason and suppressOutput are unsupported on PermissionRequest".into());
            }
            if let Some(dec) = opt_obj(h, "decision")? {
                check_keys(
                    dec,
                    &[
                        "behavior",
                        "message",
                        "updatedInput",
                        "updatedPermissions",
                        "interrupt",
                    ],
                    "decision",
                )?;
                let behavior = opt_str(dec, "behavior")?;
                let message = opt_str(dec, "message")?;
                let interrupt = opt_bool(dec, "interrupt")?.unwrap_or(false);
                let reserved = ["updatedInput", "updatedPermissions"]
                    .iter()
                    .any(|k| dec.get(*k).is_some_and(|v| !v.is_null()));
                if reserved || interrupt {
                    return Err(
                        "updatedInput, updatedPermissions and interrupt are reserved".into(),
                    );
                }
                match behavior.as_deref() {
                    Some("allow") => out.decision = Some(HookDecision::Allow),
                    Some("deny") => {
                        out.decision = Some(HookDecision::Deny);
                        out.reason =
                            Some(non_blank(message).unwrap_or_else(|| {
                                "PermissionRequest hook denied approval".into()
                            }));
                    }
                    other => return Err(format!("invalid decision.behavior {other:?}")),
                }
            }
        }
        "PostToolUse" | "UserPromptSubmit" | "Stop" | "SubagentStop" => {
            if native == "PostToolUse" {
                if suppress {
                    return Err("suppressOutput is unsupported on PostToolUse".into());
                }
                if h.get("updatedMCPToolOutput").is_some_and(|v| !v.is_null()) {
                    return Err("updatedMCPToolOutput is unsupported".into());
                }
                if decision.is_none() && cont && reason.is_some() {
                    return Err("reason without decision".into());
                }
            }
            if decision.is_some() {
                let Some(r) = nonblank(&reason) else {
                    return Err(format!(
                        "{native} decision:block without a non-empty reason"
                    ));
                };
                out.decision = Some(HookDecision::Block);
                out.reason = Some(r);
            }
        }
        // continue:false has no effect on these.
        "SubagentStart" | "SessionEnd" | "Interrupt" | "PreModelRequest" | "PostModelRequest" => {
            out.stop = None;
        }
        _ => {}
    }
    Ok(out)
}
