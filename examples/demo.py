#!/usr/bin/env python3
"""make demo: the example guard answering real-shaped payloads of every agent.

For each supported agent, feeds the guard (examples/rust/guard) one payload per
native event (taken from fixtures/<agent>/, the shapes the real agents send)
plus showcase tool calls, and prints the agent's native answer: stdout, stderr
and exit code, exactly as the agent would read them.
"""
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
GUARD = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/debug/guard")
AGENTS = ["claude-code", "codex"]

SHOWCASE = [
    ("deny", "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "rm -rf build/"}}),
    ("ask (degrades on Codex)", "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "git push --force origin main"}}),
    ("allow", "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls -la"}}),
    ("no decision", "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "cat README.md"}}),
    ("input rewrite", "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "npm install"}}),
    ("context injection", "SessionStart", {"source": "startup"}),
    ("stop continuation", "Stop", {"stop_hook_active": False, "last_assistant_message": "Done."}),
    ("loop guard", "Stop", {"stop_hook_active": True, "last_assistant_message": "Done again."}),
]


def run(agent, payload_bytes, env_extra=None):
    p = subprocess.run(
        [GUARD, "agenthooks", "run", f"--provider={agent}"],
        input=payload_bytes, capture_output=True, timeout=30,
    )
    return p.stdout.decode(), p.stderr.decode(), p.returncode


def show(title, out, err, code):
    print(f"  {title}")
    print(f"      stdout: {out if out else '(empty)'}")
    if err:
        print(f"      stderr: {err.strip()}")
    print(f"      exit:   {code}")


def base(agent, event):
    b = {"session_id": "demo-session", "transcript_path": "/tmp/demo.jsonl", "cwd": "/srv/app",
         "hook_event_name": event}
    if agent == "codex":
        b.update({"turn_id": "demo-turn", "model": "gpt-5.5-codex", "permission_mode": "default"})
    else:
        b.update({"prompt_id": "demo-prompt", "permission_mode": "default"})
    return b


def main():
    if not pathlib.Path(GUARD).exists():
        sys.exit(f"demo: {GUARD} not built (run `make demo`)")
    for agent in AGENTS:
        print(f"=== {agent}: showcase")
        for title, event, extra in SHOWCASE:
            payload = base(agent, event)
            payload.update(extra)
            if event == "PreToolUse":
                payload["tool_use_id"] = "call_demo"
            if event == "Stop" and extra.get("stop_hook_active"):
                # a fresh session so the loop guard sees a continuation already in flight
                payload["session_id"] = "demo-session-looping"
            show(f"{title:26} {event}", *run(agent, json.dumps(payload).encode()))
        print(f"=== {agent}: one real-shaped payload per native event (from fixtures/{agent}/)")
        seen = set()
        for f in sorted((ROOT / "fixtures" / agent).glob("*.json")):
            case = json.loads(f.read_text())
            if "payload" not in case or "event" not in case["expect"] or case.get("event"):
                continue
            payload = case["payload"]
            name = payload.get("hook_event_name") or payload.get("type")
            if not isinstance(name, str) or name in seen:
                continue
            seen.add(name)
            show(f"{name:26} ({f.stem})", *run(agent, json.dumps(payload).encode()))
        print()


if __name__ == "__main__":
    main()
