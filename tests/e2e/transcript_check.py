#!/usr/bin/env python3
"""Tier 2 (issue 16, item 4): the transcript the real agent wrote during the
smoke run's harmless case reads back through `agenthooks transcript`.

usage: transcript_check.py CASE_DIR AGENT CLI

Finds the agent's transcript files in the case's scratch HOME (Claude Code:
home/.claude/projects/**.jsonl; Codex: codex_home/sessions/**.jsonl; Gemini:
home/.gemini/tmp/**/chats/*), reads each with the CLI and requires: the CLI
exits 0; no entry is `invalid` (a line that is not JSON) or `too_long`; one
entry is a tool call whose input names the harmless command (proof_harmless)
and a later entry carries that call's result (same id). Prints nothing and
exits 0 on success, else one line saying what was wrong and exits 1.
"""
import json
import subprocess
import sys
from pathlib import Path

WHERE = {
    "claude-code": ("home/.claude/projects", "*.jsonl"),
    "codex": ("codex_home/sessions", "*.jsonl"),
    "gemini": ("home/.gemini/tmp", "*.json*"),
}


def main() -> int:
    case_dir, agent, cli = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    top, pattern = WHERE[agent]
    files = sorted(p for p in (case_dir / top).rglob(pattern) if p.is_file())
    if agent == "gemini":
        files = [p for p in files if p.parent.name == "chats"]
    if not files:
        print(f"no transcript file under {case_dir / top}")
        return 1
    calls, results = {}, set()
    for f in files:
        run = subprocess.run([cli, "transcript", str(f)], capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            print(f"agenthooks transcript {f.name} exited {run.returncode}: {run.stderr.strip()[:300]}")
            return 1
        for line in run.stdout.splitlines():
            e = json.loads(line)
            if e.get("kind") in ("invalid", "too_long"):
                print(f"{f.name} line {e.get('line')}: {e.get('kind')}")
                return 1
            for c in e.get("tool_calls") or []:
                calls[c.get("id")] = json.dumps(c.get("input"))
            for r in e.get("tool_results") or []:
                results.add(r.get("id"))
    harmless = [i for i, text in calls.items() if "proof_harmless" in text]
    if not harmless:
        print(f"no tool call naming the harmless command among {len(calls)} call(s) in {len(files)} file(s)")
        return 1
    if not any(i in results for i in harmless):
        print(f"the harmless call {harmless[0]} has no tool result in the transcript")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
