#!/usr/bin/env python3
"""make demo: the example guard answering real-shaped payloads of every agent.

For each supported agent, feeds the guard (examples/rust/guard) showcase tool
calls built from that agent's own payload shape (taken from fixtures/<agent>/,
the shapes the real agents send), then one payload per native event, and
prints the agent's native answer: stdout, stderr and exit code, exactly as
the agent would read them. AGENTHOOKS_NOTES=1 adds the notes (what was
degraded or dropped, and why) to stderr for the demo.
"""
import copy
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
GUARD = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/debug/guard")
AGENTS = ["claude-code", "codex", "cursor", "gemini", "kimi-code", "copilot", "opencode", "openclaw"]

SHOWCASE = [
    ("deny", "rm -rf build/"),
    ("ask (degrades where unsupported)", "git push --force origin main"),
    ("allow", "ls -la"),
    ("no decision", "cat README.md"),
    ("input rewrite", "npm install"),
]


def run(agent, payload_bytes, event=None):
    argv = [GUARD, "agenthooks", "run", f"--provider={agent}"]
    if event:
        argv.append(f"--event={event}")
    p = subprocess.run(argv, input=payload_bytes, capture_output=True, timeout=30,
                       env={"AGENTHOOKS_STATE_DIR": str(ROOT / "target/demo-state"), "AGENTHOOKS_NOTES": "1",
                            "PATH": "/usr/bin:/bin"})
    return p.stdout.decode(), p.stderr.decode(), p.returncode


def show(title, out, err, code):
    print(f"  {title}")
    print(f"      stdout: {out if out else '(empty)'}")
    if err:
        print(f"      stderr: {err.strip()}")
    print(f"      exit:   {code}")


def cases(agent):
    for f in sorted((ROOT / "fixtures" / agent).glob("*.json")):
        case = json.loads(f.read_text())
        if "payload" in case and "event" in case["expect"]:
            yield f.stem, case


def replace_string(obj, old, new):
    """Replaces a string value (also inside JSON-encoded string values)."""
    if isinstance(obj, dict):
        return {k: replace_string(v, old, new) for k, v in obj.items()}
    if isinstance(obj, list):
        return [replace_string(v, old, new) for v in obj]
    if isinstance(obj, str):
        if obj == old:
            return new
        if old in obj and obj.lstrip().startswith("{"):
            try:
                return json.dumps(replace_string(json.loads(obj), old, new))
            except ValueError:
                return obj
    return obj


def pick(agent, kind, pred=lambda ev: True):
    for stem, case in cases(agent):
        ev = case["expect"]["event"]
        if ev.get("kind") == kind and pred(ev):
            return case
    return None


def main():
    if not pathlib.Path(GUARD).exists():
        sys.exit(f"demo: {GUARD} not built (run `make demo`)")
    for agent in AGENTS:
        print(f"=== {agent}: showcase (payload shape from fixtures/{agent}/)")
        shell = pick(agent, "tool.pre", lambda ev: ev.get("tool", {}).get("canonical") == "shell"
                     and ev["tool"].get("command"))
        if shell:
            original = shell["expect"]["event"]["tool"]["command"]
            for title, cmd in SHOWCASE:
                payload = replace_string(copy.deepcopy(shell["payload"]), original, cmd)
                show(f"{title:34} {cmd}", *run(agent, json.dumps(payload).encode(), shell.get("event")))
        start = pick(agent, "session.start")
        if start:
            show(f"{'context injection':34} {start['expect']['event']['native_name']}",
                 *run(agent, json.dumps(start["payload"]).encode(), start.get("event")))
        stop = pick(agent, "agent.stop", lambda ev: not ev.get("stop", {}).get("previously_continued"))
        if stop:
            show(f"{'stop continuation':34} {stop['expect']['event']['native_name']}",
                 *run(agent, json.dumps(stop["payload"]).encode(), stop.get("event")))
        print(f"=== {agent}: one real-shaped payload per native event")
        seen = set()
        for stem, case in cases(agent):
            ev = case["expect"]["event"]
            name = ev["native_name"]
            if name in seen:
                continue
            seen.add(name)
            show(f"{name:34} ({stem})", *run(agent, json.dumps(case["payload"]).encode(), case.get("event")))
        print()


if __name__ == "__main__":
    main()
