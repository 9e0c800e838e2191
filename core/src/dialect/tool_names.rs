//! The canonical class table: every native tool name agenthooks knows, and
//! the MCP naming scheme of each agent.
//!
//! [`classify`] looks a name up in three steps:
//!
//! 1. the provider's own table, in its dialect file (`Agent::tool_class`; names are case-sensitive, so Claude `Read`,
//!    OpenCode `read`, Gemini `read_file` and Copilot `view` each live in the
//!    table of the agent that sends them);
//! 2. the provider's MCP naming scheme (`Agent::mcp_name`, built from the
//!    name shapes here; see [`parse_mcp_name`]);
//! 3. a shared fallback: the Claude Code table, the reference dialect the
//!    others copy or relay (Copilot's PascalCase mode and Claude-format
//!    plugins, Cursor's Claude-compat hooks, Codex's matcher aliases).
//!
//! Anything else is [`Canonical::Other`].
//!
//! Sources (all under `docs/protocols/`, plus `docs/E2E.md`):
//!
//! | Provider | Names from |
//! | --- | --- |
//! | Claude Code | claude-code.md §3.2 (built-in names, names seen in 2.1.328, MCP names), §1.7 (`mcp__memory`), §7 quirks 5 and 7 (`Skill`, `EndConversation`, `PowerShell`); gemini-cli.md §1.5 (`LS` in the migrate map); copilot-cli.md §1.6 (`TodoWrite`) |
//! | Codex | codex.md §1.6 (matcher aliases), §3.3 (tool names and `tool_input`, `write_stdin`, `NetworkAccess`, older `shell`), §7 quirk 9; E2E.md §3 (`exec_command` arrives as `Bash`) |
//! | Cursor | cursor.md §1.6 (matcher values), §3.3 (built-in names, `MCP:` naming), §3.4 (Claude-compat `Bash`→`Shell`), §6.2 (`AskQuestion`) |
//! | Gemini CLI | gemini-cli.md §3.4 (built-in names, older `search_file_content`), §1.5 (`grep`, `ls` from `gemini hooks migrate`), §3.3 (MCP naming) |
//! | Kimi Code | kimi-code.md §3.3 (built-ins of 0.22.2–0.38.0, tools offered by 2.1.0, legacy Python names, MCP naming), §9 |
//! | Copilot CLI | copilot-cli.md §1.6 (Claude-name mapping), §3.5 (runtime names, MCP naming), §8 |
//! | OpenCode | opencode.md §3.2 (tool ids), §3.3 (MCP naming) |
//! | OpenClaw | openclaw.md §3.2 (tool ids, tools offered in 2026.9.6), §1.3 (matcher example) |
//!
//! A few classes are judgement calls, kept consistent across agents:
//! file deletion (Cursor `Delete`) is `file.edit`, like a Codex `apply_patch`
//! `*** Delete File:`; tools that read or feed a running shell session
//! (Claude `BashOutput`/`KillShell`, Codex `write_stdin`, OpenClaw `process`)
//! are `shell`; todo/plan/goal/cron/question/skill tools and task-list tools
//! (Claude `TaskCreate`, Kimi `TaskList`) are `other`, `task` meaning
//! "spawns a subagent" only.

use serde_json::Value;

use crate::model::{Canonical, McpInfo, Provider, ToolCall, input_object};

use super::agent;
use Canonical::{Mcp, Other};

// `ToolCall::new` lives here, beside the tables it classifies with, so the
// data model does not depend back on the dialects.
impl ToolCall {
    /// Builds a tool call from a native name and raw input, classifying it
    /// and extracting facets. `id` may be empty (see [`ToolCall::synthesize_id`]).
    pub fn new(provider: Provider, name: &str, raw_input: Value, id: Option<String>) -> ToolCall {
        let input = input_object(&raw_input);
        let (canonical, mcp) = classify(provider, name);
        let mut t = ToolCall {
            id: id.unwrap_or_default(),
            synthesized: false,
            name: name.to_string(),
            canonical,
            mcp,
            input,
            raw_input,
            command: None,
            paths: Vec::new(),
            pattern: None,
            glob: None,
        };
        t.extract_facets();
        t
    }
}

/// Classifies a native tool name for a provider: its canonical class and,
/// for MCP tools, the server and tool decoded from the name.
pub fn classify(provider: Provider, name: &str) -> (Canonical, Option<McpInfo>) {
    if let Some(class) = builtin(provider, name) {
        return (class, None);
    }
    if let Some(mcp) = parse_mcp_name(provider, name) {
        return (Mcp, Some(mcp));
    }
    (
        (agent(Provider::ClaudeCode).tool_class)(name).unwrap_or(Other),
        None,
    )
}

/// The provider's own table (in its dialect file).
fn builtin(provider: Provider, name: &str) -> Option<Canonical> {
    (agent(provider).tool_class)(name)
}

/// Decodes an MCP tool name with the scheme(s) of `provider`, or `None` if
/// the name is not an MCP name there (or is one of its built-in tools).
///
/// | Provider | Scheme | Server reported |
/// | --- | --- | --- |
/// | Claude Code, Codex, Kimi Code | `mcp__<server>__<tool>`, split at the first `__` after the prefix | the segment verbatim; for a Claude plugin server (`mcp__plugin_<plugin>_<server>__<tool>`) that is `plugin_<plugin>_<server>`, the string Claude matchers see. It is not rewritten to the `plugin:<plugin>:<server>` form of `mcp_tool` handlers because plugin and server names may contain `_`, so that split would be a guess. |
/// | Gemini CLI | `mcp_<server>_<tool>` (v0.34.0+), split at the first `_` after the prefix: a server name containing `_` is cut there (prefer the payload's `mcp_context`); also a superseded doc revision's `mcp__<server>__<tool>`, and before v0.34.0 `<server>__<tool>` (the qualified name used on a name conflict; an unqualified MCP tool name is undecidable and stays `other`) | first segment |
/// | Cursor | `MCP:<tool>`; `MCP:<server>:<tool>` per some third-party pages, split at the last `:` (MCP tool names cannot contain `:`) | empty when absent (the payload's `url`/`command` name the server) |
/// | Copilot CLI | `<server-key>-<tool-name>`, `<server>/<tool>` (agent definitions), split at the last `/`; `mcp__` names are decoded as above should a Claude-format relay send one | see below |
/// | OpenCode | `<server>_<tool>` with no prefix: undecidable without the configured server list, so never decoded here | — |
/// | OpenClaw | no convention documented | — |
///
/// Copilot's hyphen split: server keys are usually kebab-case and MCP tool
/// names snake_case (`my-server-list_items`, `github-mcp-server-get_issue`),
/// so when the name contains `_` it is split at the last `-` before the first
/// `_`; otherwise (or when no `-` precedes the first `_`) at the first `-`
/// (`context7-resolve-library-id`). A name with a `-` that is not a built-in
/// is taken to be an MCP tool.
///
/// Empty servers or tools (`mcp__memory`, `mcp__memory__`) are not MCP names.
pub fn parse_mcp_name(provider: Provider, name: &str) -> Option<McpInfo> {
    if builtin(provider, name).is_some() {
        return None;
    }
    let (server, tool) = (agent(provider).mcp_name)(name)?;
    Some(McpInfo {
        server: server.to_string(),
        tool: tool.to_string(),
        url: None,
        command: None,
    })
}

/// `mcp__<server>__<tool>`.
pub(crate) fn double_underscore(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    nonempty(server, tool)
}

/// `mcp_<server>_<tool>`, first segment = server.
pub(crate) fn single_underscore(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("mcp_")?;
    let (server, tool) = rest.split_once('_')?;
    nonempty(server, tool)
}

/// Gemini before v0.34.0: `<server>__<tool>`, never an `mcp_` name.
pub(crate) fn qualified(name: &str) -> Option<(&str, &str)> {
    if name.starts_with("mcp_") {
        return None;
    }
    let (server, tool) = name.split_once("__")?;
    nonempty(server, tool)
}

/// `MCP:<tool>` or `MCP:<server>:<tool>`; the server may be empty.
pub(crate) fn cursor_prefix(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("MCP:")?;
    let (server, tool) = rest.rsplit_once(':').unwrap_or(("", rest));
    (!tool.is_empty()).then_some((server, tool))
}

/// Where Copilot's `<server-key>-<tool-name>` splits (see [`parse_mcp_name`]).
pub(crate) fn hyphen(name: &str) -> Option<usize> {
    let before_snake = name.find('_').and_then(|i| name[..i].rfind('-'));
    before_snake.or_else(|| name.find('-'))
}

pub(crate) fn split_nonempty(name: &str, at: usize) -> Option<(&str, &str)> {
    nonempty(&name[..at], &name[at + 1..])
}

fn nonempty<'a>(server: &'a str, tool: &'a str) -> Option<(&'a str, &'a str)> {
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Canonical::{Fetch, FileEdit, FileRead, FileWrite, Search, Shell, Task as Subagent};
    use Provider::{
        ClaudeCode as CC, Codex as CX, Copilot as CP, Cursor as CU, Gemini as GE, KimiCode as KI,
        Openclaw as OW, Opencode as OC,
    };

    /// Every name of every table, with its expected class.
    const NAMES: &[(Provider, &str, Canonical)] = &[
        // Claude Code
        (CC, "Bash", Shell),
        (CC, "PowerShell", Shell),
        (CC, "BashOutput", Shell),
        (CC, "KillShell", Shell),
        (CC, "Read", FileRead),
        (CC, "NotebookRead", FileRead),
        (CC, "Write", FileWrite),
        (CC, "Edit", FileEdit),
        (CC, "MultiEdit", FileEdit),
        (CC, "NotebookEdit", FileEdit),
        (CC, "Glob", Search),
        (CC, "Grep", Search),
        (CC, "LS", Search),
        (CC, "WebFetch", Fetch),
        (CC, "WebSearch", Fetch),
        (CC, "Agent", Subagent),
        (CC, "Task", Subagent),
        (CC, "AskUserQuestion", Other),
        (CC, "ExitPlanMode", Other),
        (CC, "TodoWrite", Other),
        (CC, "Skill", Other),
        (CC, "EndConversation", Other),
        (CC, "TaskCreate", Other),
        (CC, "TaskUpdate", Other),
        (CC, "TaskGet", Other),
        (CC, "EnterWorktree", Other),
        (CC, "ExitWorktree", Other),
        // Codex
        (CX, "Bash", Shell),
        (CX, "exec_command", Shell),
        (CX, "shell", Shell),
        (CX, "write_stdin", Shell),
        (CX, "apply_patch", FileEdit),
        (CX, "Edit", FileEdit),
        (CX, "Write", FileWrite),
        (CX, "spawn_agent", Subagent),
        (CX, "Agent", Subagent),
        (CX, "WebSearch", Fetch),
        (CX, "web_search", Fetch),
        (CX, "update_plan", Other),
        (CX, "NetworkAccess", Other),
        // Cursor
        (CU, "Shell", Shell),
        (CU, "Read", FileRead),
        (CU, "Write", FileWrite),
        (CU, "StrReplace", FileEdit),
        (CU, "Delete", FileEdit),
        (CU, "Grep", Search),
        (CU, "Glob", Search),
        (CU, "WebFetch", Fetch),
        (CU, "Task", Subagent),
        (CU, "AskQuestion", Other),
        // Gemini CLI
        (GE, "run_shell_command", Shell),
        (GE, "read_file", FileRead),
        (GE, "read_many_files", FileRead),
        (GE, "write_file", FileWrite),
        (GE, "replace", FileEdit),
        (GE, "glob", Search),
        (GE, "grep_search", Search),
        (GE, "search_file_content", Search),
        (GE, "list_directory", Search),
        (GE, "grep", Search),
        (GE, "ls", Search),
        (GE, "web_fetch", Fetch),
        (GE, "google_web_search", Fetch),
        (GE, "invoke_agent", Subagent),
        (GE, "write_todos", Other),
        (GE, "ask_user", Other),
        (GE, "activate_skill", Other),
        (GE, "enter_plan_mode", Other),
        (GE, "exit_plan_mode", Other),
        (GE, "read_mcp_resource", Other),
        (GE, "list_mcp_resources", Other),
        (GE, "complete_task", Other),
        (GE, "update_topic", Other),
        (GE, "get_internal_docs", Other),
        // Kimi Code
        (KI, "Bash", Shell),
        (KI, "Shell", Shell),
        (KI, "Read", FileRead),
        (KI, "ReadMediaFile", FileRead),
        (KI, "Write", FileWrite),
        (KI, "WriteFile", FileWrite),
        (KI, "Edit", FileEdit),
        (KI, "StrReplaceFile", FileEdit),
        (KI, "Glob", Search),
        (KI, "Grep", Search),
        (KI, "FetchURL", Fetch),
        (KI, "WebSearch", Fetch),
        (KI, "Agent", Subagent),
        (KI, "AgentSwarm", Subagent),
        (KI, "AskUserQuestion", Other),
        (KI, "Skill", Other),
        (KI, "EnterPlanMode", Other),
        (KI, "ExitPlanMode", Other),
        (KI, "TaskList", Other),
        (KI, "TaskOutput", Other),
        (KI, "TaskStop", Other),
        (KI, "CronCreate", Other),
        (KI, "CronList", Other),
        (KI, "CronDelete", Other),
        (KI, "CreateGoal", Other),
        (KI, "GetGoal", Other),
        (KI, "UpdateGoal", Other),
        (KI, "SetGoalBudget", Other),
        (KI, "TodoList", Other),
        (KI, "WaitFor", Other),
        // Copilot CLI
        (CP, "bash", Shell),
        (CP, "powershell", Shell),
        (CP, "Bash", Shell),
        (CP, "view", FileRead),
        (CP, "Read", FileRead),
        (CP, "create", FileWrite),
        (CP, "Write", FileWrite),
        (CP, "edit", FileEdit),
        (CP, "str_replace_editor", FileEdit),
        (CP, "apply_patch", FileEdit),
        (CP, "Edit", FileEdit),
        (CP, "grep", Search),
        (CP, "rg", Search),
        (CP, "glob", Search),
        (CP, "Grep", Search),
        (CP, "Glob", Search),
        (CP, "web_fetch", Fetch),
        (CP, "web_search", Fetch),
        (CP, "WebFetch", Fetch),
        (CP, "WebSearch", Fetch),
        (CP, "task", Subagent),
        (CP, "Agent", Subagent),
        (CP, "Task", Subagent),
        (CP, "ask_user", Other),
        (CP, "update_todo", Other),
        (CP, "report_intent", Other),
        (CP, "AskUserQuestion", Other),
        (CP, "TodoWrite", Other),
        // OpenCode
        (OC, "bash", Shell),
        (OC, "read", FileRead),
        (OC, "write", FileWrite),
        (OC, "edit", FileEdit),
        (OC, "glob", Search),
        (OC, "grep", Search),
        (OC, "list", Search),
        (OC, "webfetch", Fetch),
        (OC, "task", Subagent),
        (OC, "todowrite", Other),
        (OC, "invalid", Other),
        (OC, "question", Other),
        (OC, "skill", Other),
        // OpenClaw
        (OW, "exec", Shell),
        (OW, "process", Shell),
        (OW, "read", FileRead),
        (OW, "write", FileWrite),
        (OW, "edit", FileEdit),
        (OW, "apply_patch", FileEdit),
        (OW, "ls", Search),
        (OW, "web_fetch", Fetch),
        (OW, "web_search", Fetch),
        (OW, "spawn_agent", Subagent),
        (OW, "message", Other),
        (OW, "session_status", Other),
        (OW, "sessions_yield", Other),
        (OW, "tool_call", Other),
        (OW, "tool_describe", Other),
        (OW, "tool_search", Other),
    ];

    #[test]
    fn every_table_name() {
        for &(provider, name, want) in NAMES {
            assert_eq!(
                builtin(provider, name),
                Some(want),
                "{provider:?} {name}: not in its table, or wrong class"
            );
            assert_eq!(
                classify(provider, name),
                (want, None),
                "{provider:?} {name}"
            );
        }
    }

    #[test]
    fn names_do_not_leak_across_agents() {
        let cases: &[(Provider, &str, Canonical)] = &[
            // Lower-case or agent-specific names stay with their agent.
            (CC, "read", Other),
            (CC, "bash", Other),
            (CC, "Shell", Other),
            (CC, "view", Other),
            (CC, "create", Other),
            (CC, "replace", Other),
            (CC, "exec", Other),
            (CC, "apply_patch", Other),
            (GE, "exec_command", Other),
            (OC, "exec", Other),
            (OC, "Shell", Other),
            (OC, "view", Other),
            (OW, "task", Other),
            (OW, "bash", Other),
            (OW, "list", Other),
            (CU, "StrReplaceFile", Other),
            (KI, "StrReplace", Other),
            (KI, "Delete", Other),
            (CX, "read_file", Other),
            // Unknown names.
            (CC, "Frobnicate", Other),
            (CX, "", Other),
            // The shared fallback: Claude reference names, where the agent's
            // own table lacks them.
            (CU, "Bash", Shell),
            (CU, "Edit", FileEdit),
            (CU, "Agent", Subagent),
            (CX, "Read", FileRead),
            (GE, "WebFetch", Fetch),
            (OC, "Grep", Search),
        ];
        for &(provider, name, want) in cases {
            assert_eq!(
                classify(provider, name),
                (want, None),
                "{provider:?} {name:?}"
            );
        }
    }

    fn mcp(provider: Provider, name: &str) -> Option<(String, String)> {
        match classify(provider, name) {
            (Mcp, Some(m)) => Some((m.server, m.tool)),
            (Mcp, None) => panic!("{provider:?} {name}: mcp without McpInfo"),
            (_, Some(_)) => panic!("{provider:?} {name}: McpInfo on a non-mcp class"),
            (_, None) => None,
        }
    }

    fn st(server: &str, tool: &str) -> Option<(String, String)> {
        Some((server.to_string(), tool.to_string()))
    }

    #[test]
    fn double_underscore_scheme() {
        for p in [CC, CX, KI] {
            assert_eq!(
                mcp(p, "mcp__tickets__close_ticket"),
                st("tickets", "close_ticket")
            );
            assert_eq!(mcp(p, "mcp__my-server__get"), st("my-server", "get"));
            // The tool keeps any later `__`.
            assert_eq!(mcp(p, "mcp__a__b__c"), st("a", "b__c"));
            // No tool, empty parts, wrong prefix: not MCP.
            assert_eq!(mcp(p, "mcp__memory"), None);
            assert_eq!(mcp(p, "mcp__memory__"), None);
            assert_eq!(mcp(p, "mcp____tool"), None);
            assert_eq!(mcp(p, "mcp_memory_read"), None);
            assert_eq!(mcp(p, "MCP:read"), None);
            assert_eq!(mcp(p, "my-server-list_items"), None);
        }
        // Claude plugin servers keep the whole segment.
        assert_eq!(
            mcp(CC, "mcp__plugin_github_github__create_issue"),
            st("plugin_github_github", "create_issue")
        );
        assert_eq!(
            mcp(CC, "mcp__plugin_my-plugin_db-tools__query"),
            st("plugin_my-plugin_db-tools", "query")
        );
        // A hyphenated subagent name is no MCP tool on Claude.
        assert_eq!(mcp(CC, "code-reviewer"), None);
        assert_eq!(classify(CC, "code-reviewer"), (Other, None));
    }

    #[test]
    fn gemini_single_underscore_scheme() {
        assert_eq!(
            mcp(GE, "mcp_tracker_close_ticket"),
            st("tracker", "close_ticket")
        );
        assert_eq!(mcp(GE, "mcp_my-srv_do"), st("my-srv", "do"));
        // A server name with `_` is cut at its first `_` (documented).
        assert_eq!(mcp(GE, "mcp_my_srv_do"), st("my", "srv_do"));
        // The superseded double-underscore form.
        assert_eq!(mcp(GE, "mcp__tracker__close"), st("tracker", "close"));
        // Before v0.34.0: the conflict-qualified `<server>__<tool>`.
        assert_eq!(
            mcp(GE, "tracker__close_ticket"),
            st("tracker", "close_ticket")
        );
        assert_eq!(mcp(GE, "mcp__memory__"), None);
        assert_eq!(mcp(GE, "__close"), None);
        // Not MCP.
        assert_eq!(mcp(GE, "mcp_tracker"), None);
        assert_eq!(mcp(GE, "mcp__memory"), None);
        assert_eq!(mcp(GE, "mcp_"), None);
        assert_eq!(mcp(GE, "read_mcp_resource"), None);
        assert_eq!(mcp(GE, "close_ticket"), None);
        // Only Gemini uses this scheme.
        for p in [CC, CX, KI, CU, OC, OW] {
            assert_eq!(mcp(p, "mcp_tracker_close_ticket"), None, "{p:?}");
            assert_eq!(mcp(p, "tracker__close_ticket"), None, "{p:?}");
        }
    }

    #[test]
    fn cursor_prefix_scheme() {
        assert_eq!(mcp(CU, "MCP:create_issue"), st("", "create_issue"));
        assert_eq!(
            mcp(CU, "MCP:github:create_issue"),
            st("github", "create_issue")
        );
        assert_eq!(mcp(CU, "MCP:a:b:tool"), st("a:b", "tool"));
        assert_eq!(mcp(CU, "MCP:"), None);
        assert_eq!(mcp(CU, "MCP:github:"), None);
        assert_eq!(mcp(CU, "mcp:create_issue"), None);
        assert_eq!(mcp(CU, "mcp__github__create_issue"), None);
        for p in [CC, CX, GE, KI, CP, OC, OW] {
            assert_eq!(mcp(p, "MCP:create_issue"), None, "{p:?}");
        }
    }

    #[test]
    fn copilot_schemes() {
        assert_eq!(
            mcp(CP, "my-server-list_items"),
            st("my-server", "list_items")
        );
        assert_eq!(
            mcp(CP, "github-mcp-server-get_issue"),
            st("github-mcp-server", "get_issue")
        );
        assert_eq!(mcp(CP, "github-list_issues"), st("github", "list_issues"));
        assert_eq!(
            mcp(CP, "context7-resolve-library-id"),
            st("context7", "resolve-library-id")
        );
        assert_eq!(mcp(CP, "my_srv-list_items"), st("my_srv", "list_items"));
        assert_eq!(
            mcp(CP, "tickets/close_ticket"),
            st("tickets", "close_ticket")
        );
        assert_eq!(mcp(CP, "mcp__tickets__close"), st("tickets", "close"));
        assert_eq!(mcp(CP, "mcp__my-srv__close"), st("my-srv", "close"));
        // Built-ins and malformed names are not MCP.
        for name in [
            "bash",
            "str_replace_editor",
            "report_intent",
            "-x",
            "x-",
            "/x",
            "plain",
        ] {
            assert_eq!(mcp(CP, name), None, "{name}");
        }
        // Only Copilot uses the hyphen and slash schemes.
        for p in [CC, CX, CU, GE, KI, OC, OW] {
            assert_eq!(mcp(p, "my-server-list_items"), None, "{p:?}");
            assert_eq!(mcp(p, "tickets/close_ticket"), None, "{p:?}");
        }
    }

    #[test]
    fn no_name_scheme_for_opencode_and_openclaw() {
        for name in [
            "github_create_issue",
            "mcp__github__create_issue",
            "mcp_github_create_issue",
            "MCP:create_issue",
            "github-create_issue",
        ] {
            assert_eq!(classify(OC, name), (Other, None), "{name}");
            assert_eq!(classify(OW, name), (Other, None), "{name}");
        }
    }

    #[test]
    fn parse_mcp_name_skips_builtins() {
        assert_eq!(parse_mcp_name(CP, "bash"), None);
        assert_eq!(parse_mcp_name(GE, "read_mcp_resource"), None);
        let m = parse_mcp_name(CX, "mcp__db__query").unwrap();
        assert_eq!((m.server.as_str(), m.tool.as_str()), ("db", "query"));
        assert_eq!((m.url, m.command), (None, None));
    }
}
