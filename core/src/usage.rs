//! The run entry's usage text (`<program> agenthooks run --help`), shared
//! by the run entry ([`crate::runtime::launch`]) and the failsafe table
//! ([`crate::failsafe`]), which must not depend on each other.

use crate::model::Provider;

/// The run entry's usage (`<program> agenthooks run --help`, on stdout).
/// The same text in every language (the program's own name differs with
/// how it is started: `python3 guard.py`, `node guard.mjs`, a binary).
pub fn run_usage() -> String {
    let prog = "<program>";
    let agents: Vec<&str> = Provider::ALL.iter().map(|p| p.id()).collect();
    format!(
        "usage: {prog} agenthooks run --provider=<agent> [options]   (the hook payload on stdin)
       {prog} agenthooks serve --provider=opencode|openclaw   (NDJSON, for the plugin bridges)

A coding-agent hook: the agent starts it with its hook payload on stdin, and it
answers in that agent's exact form (stdout, stderr, exit code).

options:
  --provider=<agent>   {agents} (also --agent, --dialect)
  --event=<name>       the agent's native event name, for payloads that do not carry one
  --variant=<v>        cli, ide, cloud, ...
  --timeout=<s>        seconds the agent gives the hook (answers by then)
  --fail=open|closed   what an error or a timeout answers (closed: block where the agent can)
  --hook-id=<id>       written by `agenthooks install`
  --match=<matcher>    unified matcher (shell, file.edit, mcp:<server>, ...), filtered here
  --max-bytes=<n>      stdin limit in bytes
  --async              answer at once (no opinion), run the handlers in a detached process
                       (not on tool.pre, permission.request, prompt.submitted; docs/async.md)
  --help, -h           this text

environment:
  AGENTHOOKS_NOTES     notes (what an agent could not express) on stderr: 1 always, 0 never;
                       unset: where the agent does not read stderr as the answer

try it:
  echo '{{\"hook_event_name\":\"PreToolUse\",\"session_id\":\"s\",\"tool_name\":\"Bash\",\"tool_input\":{{\"command\":\"ls\"}}}}' | {prog} agenthooks run --provider=claude-code
",
        agents = agents.join(", ")
    )
}
