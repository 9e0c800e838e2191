//! The canonical class table: every native tool name agenthooks knows,
//! and the MCP naming schemes of each agent.

use super::tool::{Canonical, McpInfo};
use crate::model::Provider;

/// Classifies a native tool name for a provider.
pub fn classify(provider: Provider, name: &str) -> (Canonical, Option<McpInfo>) {
    if let Some(mcp) = parse_mcp_name(provider, name) {
        return (Canonical::Mcp, Some(mcp));
    }
    (native_class(name), None)
}

fn native_class(name: &str) -> Canonical {
    match name {
        // Claude Code
        "Bash" | "PowerShell" | "BashOutput" | "KillShell" => Canonical::Shell,
        "Read" | "NotebookRead" => Canonical::FileRead,
        "Write" => Canonical::FileWrite,
        "Edit" | "MultiEdit" | "NotebookEdit" => Canonical::FileEdit,
        "Glob" | "Grep" | "LS" => Canonical::Search,
        "WebFetch" | "WebSearch" => Canonical::Fetch,
        "Agent" | "Task" => Canonical::Task,
        // Codex
        "exec_command" | "shell" | "local_shell" | "unified_exec" => Canonical::Shell,
        "apply_patch" => Canonical::FileEdit,
        "spawn_agent" => Canonical::Task,
        "web_search" => Canonical::Fetch,
        _ => Canonical::Other,
    }
}

/// Decodes an MCP tool name: `mcp__server__tool` (also
/// `mcp__plugin_<plugin>_<server>__<tool>`).
pub fn parse_mcp_name(_provider: Provider, name: &str) -> Option<McpInfo> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    if server.is_empty() || tool.is_empty() {
        return None;
    }
    Some(McpInfo {
        server: server.to_string(),
        tool: tool.to_string(),
        url: None,
        command: None,
    })
}
