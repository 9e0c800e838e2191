#!/usr/bin/env python3
"""Stand-in for target/debug/guard, for harness self-checks only.

Usage (as the agents call it): standin_hook.py agenthooks run --provider=claude-code|codex
Denies a shell command containing "rm -rf" with the documented PreToolUse deny
JSON (the same shape for both providers); otherwise prints nothing (no opinion).
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
command = (payload.get("tool_input") or {}).get("command", "")
if provider in ("claude-code", "codex") and isinstance(command, str) and "rm -rf" in command:
    answer = json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": f"destructive command: {command}",
    }})
log = os.environ.get("AH_E2E_HOOK_LOG")
if log:
    with open(log, "a") as f:
        f.write(json.dumps({"argv": sys.argv, "stdin": raw, "answer": answer}) + "\n")
if answer:
    print(answer)
