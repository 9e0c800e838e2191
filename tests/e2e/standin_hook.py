#!/usr/bin/env python3
"""Stand-in for target/debug/guard, for harness self-checks only.

Usage (as the agents call it):
  standin_hook.py agenthooks run --provider=claude-code|codex|gemini|copilot|kimi-code [--event=E]
Denies a shell command containing "rm -rf" with the agent's documented pre-tool deny
(reason "destructive command: <cmd>"), and one containing "git push --force" with the
deny target/debug/guard's ask becomes in a headless run (reason "Force-pushing rewrites
shared history; a human must approve it."); otherwise prints nothing (no opinion).
Always exits 0. If AH_E2E_HOOK_LOG is set, appends one JSON line per call there.
"""

import json
import os
import sys

raw = sys.stdin.read()
provider = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--provider=")), "")
answer = ""
try:
    payload = json.loads(raw)
except ValueError:
    payload = {}
if not isinstance(payload, dict):
    payload = {}
args = payload.get("tool_input")
if args is None:  # Copilot camelCase: toolArgs, an object (1.0.102) or a JSON string
    args = payload.get("toolArgs")
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except ValueError:
            args = {}
command = (args or {}).get("command", "") if isinstance(args, dict) else ""
reason = ""
if isinstance(command, str) and "rm -rf" in command:
    reason = f"destructive command: {command}"
elif isinstance(command, str) and "git push --force" in command:
    reason = "Force-pushing rewrites shared history; a human must approve it."
if reason:
    if provider in ("claude-code", "codex", "kimi-code"):
        answer = {"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }}
    elif provider == "gemini":
        answer = {"decision": "deny", "reason": reason}
    elif provider == "copilot":
        answer = {"permissionDecision": "deny", "permissionDecisionReason": reason}
    answer = json.dumps(answer) if answer else ""
log = os.environ.get("AH_E2E_HOOK_LOG")
if log:
    with open(log, "a") as f:
        f.write(json.dumps({"argv": sys.argv, "stdin": raw, "answer": answer}) + "\n")
if answer:
    print(answer)
