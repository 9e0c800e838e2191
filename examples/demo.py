#!/usr/bin/env python3
"""make demo: the example guard on every agent.

Default: one compact agent x scenario table through `agenthooks simulate`
(the guard runs the way each agent runs hooks, and each cell is what that
agent does with the answer: blocked, asks the user, runs, rewritten, ...;
warnings are listed below the table).

--full (`make demo FULL=1`): the per-fixture dump. For each supported agent,
feeds the guard showcase tool calls built from that agent's own payload shape
(taken from fixtures/<agent>/, the shapes the real agents send), then one
payload per native event, and prints the agent's native answer: stdout,
stderr and exit code, exactly as the agent would read them.
AGENTHOOKS_NOTES=1 adds the notes (what was degraded or dropped, and why) to
stderr for the dump.
"""
import copy
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ARGS = [a for a in sys.argv[1:] if a != "--full"]
FULL = "--full" in sys.argv[1:]
GUARD = ARGS[0] if ARGS else str(ROOT / "target/debug/guard")
CLI = ROOT / "target/debug/agenthooks"
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


COMPACT = [
    {"name": "deny rm -rf", "event": "tool.pre", "command": "rm -rf build/"},
    {"name": "ask force-push", "event": "tool.pre", "command": "git push --force origin main"},
    {"name": "allow ls", "event": "tool.pre", "command": "ls -la"},
    {"name": "no decision", "event": "tool.pre", "command": "cat README.md"},
    {"name": "rewrite npm install", "event": "tool.pre", "command": "npm install"},
    {"name": "stop before tests", "event": "stop"},
]


def compact():
    """The guard on a handful of scenarios, one row per agent."""
    if not CLI.exists():
        subprocess.run(["cargo", "build", "-q", "-p", "agenthooks-cli"], cwd=ROOT, check=True)
    state = ROOT / "target/demo-state"
    state.mkdir(parents=True, exist_ok=True)
    scenarios = state / "scenarios.json"
    scenarios.write_text(json.dumps(COMPACT))
    argv = [str(CLI), "simulate", "--matrix", "--scenarios", str(scenarios), "--cwd", str(ROOT),
            "--", GUARD, "agenthooks", "run", "--provider={agent}", "--event={event}"]
    env = {"AGENTHOOKS_STATE_DIR": str(state), "PATH": "/usr/bin:/bin", "HOME": str(state)}
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env)
    print(f"{pathlib.Path(GUARD).name} on every agent (agenthooks simulate; each cell is what that agent does)")
    print(p.stdout.rstrip())
    if p.returncode != 0:
        sys.exit(f"demo: agenthooks simulate failed ({p.returncode}): {p.stderr.strip()}")
    print("(the full per-fixture dump: make demo FULL=1, or examples/demo.py --full <guard>)")


def main():
    if not pathlib.Path(GUARD).exists():
        sys.exit(f"demo: {GUARD} not built (run `make demo`)")
    if not FULL:
        compact()
        return
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
