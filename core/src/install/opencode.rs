//! OpenCode: a generated plugin file (opencode.md §1.1–§1.3).
//!
//! OpenCode runs in-process JavaScript plugins, with no config-level
//! matcher, timeout or fail mode. We write one self-contained plugin file,
//! `.opencode/plugins/agenthooks-<id>.js` (project) or
//! `$XDG_CONFIG_HOME/opencode/plugins/agenthooks-<id>.js` (user, default
//! `~/.config`), that bridges to the hook program: for each call it runs
//! `<program> agenthooks run --provider=claude-code --event=PreToolUse|PostToolUse`
//! with a Claude-shaped payload (tool names and input keys mapped to
//! Claude's), enforces the timeout, and turns a deny into the throw that
//! blocks an OpenCode tool (§1.3). It imports nothing, so OpenCode needs no
//! npm install for it. Until the OpenCode dialect and `serve` bridge land,
//! the hook program sees these calls as Claude Code calls.
//!
//! The file is ours alone: reinstalling rewrites it, uninstalling removes
//! it; a file at that path without our header is never overwritten.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{FileChange, InstallError, Manifest, Resolved, Scope, Target};
use crate::model::Kind;

/// Hooks the bridge serves: (OpenCode hook, unified kind).
pub const EVENTS: &[(&str, Kind)] = &[
    ("tool.execute.before", Kind::ToolPre),
    ("tool.execute.after", Kind::ToolPost),
];

/// The plugin file.
pub fn path(t: &Target, m: &Manifest) -> PathBuf {
    let name = format!("agenthooks-{}.js", m.id);
    match t.scope {
        Scope::User => t
            .env_dir("XDG_CONFIG_HOME", ".config")
            .join("opencode/plugins")
            .join(name),
        Scope::Project | Scope::Local => t.project.join(".opencode/plugins").join(name),
    }
}

/// The header line marking a generated file.
pub fn header(m: &Manifest) -> String {
    format!("// agenthooks-generated: {}", m.id)
}

/// The hook list the bridge script reads.
pub fn hooks_json(hooks: &[Resolved], claude_event: fn(&str) -> &'static str) -> Value {
    Value::Array(
        hooks
            .iter()
            .map(|r| {
                json!({
                    "on": r.event,
                    "event": claude_event(&r.event),
                    "hookId": r.hook_id,
                    "timeout": r.hook.timeout,
                    "fail": if r.hook.fail == super::FailMode::Closed { "closed" } else { "open" },
                    "blocking": r.hook.blocking,
                    "match": if r.hook.matcher.is_all() { Value::Null } else { json!(r.hook.matcher.to_text()) },
                })
            })
            .collect(),
    )
}

/// The shared bridge core: runs the program with a Claude-shaped payload
/// and reads the Claude-shaped answer.
pub const BRIDGE_CORE: &str = r#"import { spawnSync } from "node:child_process";

const CLAUDE_TOOLS = {
  bash: "Bash", exec: "Bash", read: "Read", write: "Write", edit: "Edit", apply_patch: "Edit",
  glob: "Glob", grep: "Grep", list: "LS", webfetch: "WebFetch", web_fetch: "WebFetch",
  task: "Task", todowrite: "TodoWrite",
};
const CLAUDE_KEYS = { filePath: "file_path", path: "file_path", oldString: "old_string", newString: "new_string", replaceAll: "replace_all" };

function claudeInput(args) {
  const out = {};
  for (const [k, v] of Object.entries(args ?? {})) out[CLAUDE_KEYS[k] ?? k] = v;
  return out;
}

function nativeInput(orig, updated) {
  const back = Object.fromEntries(Object.entries(CLAUDE_KEYS).map(([k, v]) => [v, k]));
  const out = {};
  for (const [k, v] of Object.entries(updated)) {
    const nk = back[k] && back[k] in (orig ?? {}) ? back[k] : k;
    out[nk] = v;
  }
  return out;
}

// Returns {deny: reason} | {update: object} | {} ; throws nothing.
function ask(h, payload) {
  const argv = [...ARGS, "agenthooks", "run", "--provider=claude-code", `--event=${h.event}`,
    `--timeout=${h.timeout}`, `--hook-id=${h.hookId}`];
  if (h.fail === "closed") argv.push("--fail=closed");
  if (h.match) argv.push(`--match=${h.match}`);
  const r = spawnSync(PROGRAM, argv, {
    input: JSON.stringify(payload), encoding: "utf8", timeout: h.timeout * 1000, killSignal: "SIGKILL",
  });
  const failed = (why) => (h.fail === "closed" && h.blocking ? { deny: `agenthooks ${h.hookId}: ${why}` } : {});
  if (r.error || r.status === null) return failed(`hook did not answer (${r.error?.code ?? r.signal})`);
  if (r.status === 2) return h.blocking ? { deny: (r.stderr || "blocked by hook").trim() } : {};
  if (r.status !== 0) return failed(`hook exited ${r.status}`);
  let out = {};
  try { out = r.stdout.trim() ? JSON.parse(r.stdout) : {}; } catch { return failed("hook printed invalid JSON"); }
  if (!h.blocking) return {};
  const s = out.hookSpecificOutput ?? {};
  if (s.permissionDecision === "deny" || s.permissionDecision === "ask" || out.decision === "block")
    return { deny: s.permissionDecisionReason || out.reason || "blocked by hook" };
  if (s.updatedInput && typeof s.updatedInput === "object") return { update: s.updatedInput };
  return {};
}
"#;

fn claude_event(on: &str) -> &'static str {
    if on == "tool.execute.before" {
        "PreToolUse"
    } else {
        "PostToolUse"
    }
}

/// The whole plugin file.
pub fn script(m: &Manifest, hooks: &[Resolved]) -> String {
    let ident: String =
        m.id.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
    format!(
        r#"{header}
// Generated by `agenthooks install`; reinstalling rewrites this file and
// `agenthooks uninstall` removes it. Bridges OpenCode tool hooks to the hook
// program through its Claude Code dialect (see docs/install.md).
const PROGRAM = {program};
const ARGS = {args};
const HOOKS = {hooks};
{core}
export const AgentHooks_{ident} = async ({{ directory }}) => ({{
  "tool.execute.before": async (input, output) => {{
    for (const h of HOOKS.filter((h) => h.on === "tool.execute.before")) {{
      const payload = {{
        session_id: input.sessionID ?? "", hook_event_name: "PreToolUse", cwd: directory ?? process.cwd(),
        tool_name: CLAUDE_TOOLS[input.tool] ?? input.tool, tool_input: claudeInput(output.args),
        tool_use_id: input.callID ?? "", permission_mode: "default",
      }};
      const r = ask(h, payload);
      if (r.deny) throw new Error(r.deny);
      if (r.update) {{
        const next = nativeInput(output.args, r.update);
        for (const k of Object.keys(output.args)) if (!(k in next)) delete output.args[k];
        Object.assign(output.args, next);
      }}
    }}
  }},
  "tool.execute.after": async (input, output) => {{
    for (const h of HOOKS.filter((h) => h.on === "tool.execute.after")) {{
      ask(h, {{
        session_id: input.sessionID ?? "", hook_event_name: "PostToolUse", cwd: directory ?? process.cwd(),
        tool_name: CLAUDE_TOOLS[input.tool] ?? input.tool, tool_input: claudeInput(input.args),
        tool_use_id: input.callID ?? "", tool_response: output?.output ?? output ?? null,
      }});
    }}
  }},
}});
"#,
        header = header(m),
        program = json!(m.program),
        args = json!(m.args),
        hooks = hooks_json(hooks, claude_event),
        core = BRIDGE_CORE,
    )
}

/// Renders the plugin file (or its removal).
pub fn render(
    m: &Manifest,
    t: &Target,
    hooks: &[Resolved],
    get: &dyn Fn(&Path) -> Result<Option<String>, InstallError>,
) -> Result<Vec<FileChange>, InstallError> {
    let p = path(t, m);
    let before = get(&p)?;
    own_or_refuse(&p, before.as_deref(), &header(m))?;
    let after = if hooks.is_empty() {
        None
    } else {
        Some(script(m, hooks))
    };
    Ok(vec![FileChange {
        path: p,
        before,
        after,
    }])
}

/// Refuses to overwrite a file that is not ours.
pub fn own_or_refuse(p: &Path, before: Option<&str>, header: &str) -> Result<(), InstallError> {
    match before {
        Some(text) if !text.starts_with(header) => Err(InstallError::Shape {
            path: p.to_path_buf(),
            message: format!(
                "exists and was not generated by agenthooks (no `{header}` first line)"
            ),
        }),
        _ => Ok(()),
    }
}
