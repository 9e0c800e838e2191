#!/usr/bin/env python3
"""Observed behaviour rows (fixtures/simulate/observed/<agent>.json) against real agents.

Used by ./run (stdlib only):
  rows.py list FIXTURE AGENT          validate the file; print one row name per line
  rows.py waits FIXTURE               the rows expected to leave the agent waiting (asks_user):
                                      ./run starts them first, outside its pool, as they only
                                      sleep until the timeout
  rows.py prepare FIXTURE NAME DIR    write DIR/answer.{stdout,stderr} and DIR/hook.sh, a
                                      stand-in hook that records its stdin and prints
                                      exactly the row's answer (stdout, stderr, exit code)
  rows.py observe FIXTURE NAME DIR    read what happened in DIR (proof files, the tool
                                      result the model got, agent exit code, hook calls);
                                      print `PASS <agent> <row>` or `FAIL <agent> <row>: why`
                                      (exit 1); with AH_BEHAVIOUR_RECORD=1 print the observed
                                      row as one JSON line instead (exit 0 unless the run
                                      could not be observed at all).

What the model asks for (see ./run): `echo ran > <project>/proof`. A rewrite row's
replacement command writes `proof_rewritten` (relative: the agents run it in the project).
"""

import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EFFECTS = {"tool_blocked", "tool_runs", "tool_runs_with_input_rewritten", "asks_user",
           "prompt_blocked", "prompt_continues", "context_injected", "agent_continues",
           "agent_stops", "output_replaced", "no_effect"}
ROW_KEYS = {"name", "description", "event", "answer", "effect", "model_sees", "warnings", "note"}
ANSWER_KEYS = {"stdout", "stderr", "exit"}
# Exit codes of `timeout -k 5 N` (run_case) when it had to stop the agent.
KILLED = {124, 137}


def load(path, agent=None):
    with open(path) as f:
        doc = json.load(f)
    errs = []
    if not isinstance(doc, dict) or set(doc) != {"agent", "agent_version", "rows"}:
        sys.exit(f"{path}: top level must be exactly agent, agent_version, rows")
    if agent and doc["agent"] != agent:
        errs.append(f"agent is {doc['agent']!r}, expected {agent!r}")
    if os.path.basename(path) != f"{doc['agent']}.json":
        errs.append("file stem must equal agent")
    names = set()
    for i, r in enumerate(doc["rows"]):
        where = f"row {i} ({r.get('name', '?')})"
        extra = set(r) - ROW_KEYS
        if extra:
            errs.append(f"{where}: unknown fields {sorted(extra)}")
        for k in ("name", "event", "answer", "effect", "model_sees", "warnings"):
            if k not in r:
                errs.append(f"{where}: missing {k}")
        if not isinstance(r.get("name"), str) or not r["name"] or \
                any(c not in "abcdefghijklmnopqrstuvwxyz0123456789-" for c in r["name"]):
            errs.append(f"{where}: name must be lowercase letters, digits and dashes")
        elif r.get("name") in names:
            errs.append(f"{where}: duplicate name")
        names.add(r.get("name"))
        a = r.get("answer") or {}
        if set(a) != ANSWER_KEYS or not isinstance(a.get("stdout"), str) \
                or not isinstance(a.get("stderr"), str) or not isinstance(a.get("exit"), int):
            errs.append(f"{where}: answer must be {{stdout: str, stderr: str, exit: int}}")
        if r.get("effect") not in EFFECTS:
            errs.append(f"{where}: unknown effect {r.get('effect')!r}")
        if r.get("model_sees") is not None and not isinstance(r.get("model_sees"), str):
            errs.append(f"{where}: model_sees must be a string or null")
        if r.get("warnings") != [] and "note" not in r:
            errs.append(f"{where}: warnings need a note saying what was observed")
    if errs:
        sys.exit(f"{path}: " + "; ".join(errs))
    return doc


def row_of(doc, name):
    for r in doc["rows"]:
        if r["name"] == name:
            return r
    sys.exit(f"no row {name!r}")


def prepare(doc, name, d):
    a = row_of(doc, name)["answer"]
    for k in ("stdout", "stderr"):
        with open(os.path.join(d, f"answer.{k}"), "w") as f:
            f.write(a[k])
    q = shlex.quote(d)
    hook = os.path.join(d, "hook.sh")
    with open(hook, "w") as f:  # POSIX sh: no interpreter start-up cost, byte-exact output
        f.write("#!/bin/sh\n"
                f'cat > {q}/hook.stdin.$$\n'
                f"cat {q}/answer.stdout\n"
                f"cat {q}/answer.stderr >&2\n"
                f"exit {int(a['exit'])}\n")
    os.chmod(hook, 0o755)


def tool_result(d):
    out = subprocess.run([sys.executable, os.path.join(HERE, "..", "fake_model.py"),
                          "tool-result", os.path.join(d, "server.log")],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None  # no later request carried a tool result
    return out.stdout[:-1] if out.stdout.endswith("\n") else out.stdout  # print() added one


def observe(d):
    proj = os.path.join(d, "project")
    try:
        rc = int(open(os.path.join(d, "agent.rc")).read().strip())
    except (OSError, ValueError):
        rc = None
    hook_calls = len([f for f in os.listdir(d) if f.startswith("hook.stdin.")])
    requests = []
    if os.path.exists(os.path.join(d, "server.log")):
        with open(os.path.join(d, "server.log")) as f:
            requests = [json.loads(line) for line in f if line.strip()]
    ran = os.path.exists(os.path.join(proj, "proof"))
    rewritten = os.path.exists(os.path.join(proj, "proof_rewritten"))
    seen = tool_result(d)
    if ran and rewritten:
        effect = None  # both commands ran: nothing in the vocabulary says that
    elif rewritten:
        effect = "tool_runs_with_input_rewritten"
    elif ran:
        effect = "tool_runs"
    elif rc in KILLED and seen is None:
        # The hook answered, the tool did not run and the agent then waited, sending nothing
        # back to the model, until it was killed: it is waiting for a user who is not there.
        effect = "asks_user"
    elif seen is not None:
        effect = "tool_blocked"
    else:
        effect = "agent_stops"  # ended without running the tool or telling the model
    return {"effect": effect, "model_sees": seen, "agent_exit": rc, "hook_calls": hook_calls,
            "model_requests": len(requests),
            "later_turns": sum(1 for r in requests if r.get("turn"))}


def markers(answer):
    """Texts from the answer that would show the hook reached the model."""
    out = [answer["stderr"].strip()]
    try:
        j = json.loads(answer["stdout"])
    except ValueError:
        out.append(answer["stdout"].strip())
        j = None

    def walk(v, key=""):
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, k)
        elif isinstance(v, list):
            for x in v:
                walk(x, key)
        elif isinstance(v, str) and ("reason" in key.lower() or "message" in key.lower()
                                     or "context" in key.lower()):
            out.append(v)
    walk(j)
    return [m for m in out if m]


def check(doc, name, d):
    row = row_of(doc, name)
    agent = doc["agent"]
    obs = observe(d)
    if os.environ.get("AH_BEHAVIOUR_RECORD"):
        print(json.dumps(dict(name=name, event=row["event"], answer=row["answer"], observed=obs)))
        return 0 if obs["hook_calls"] else 1
    why = []
    if obs["model_requests"] == 0:
        why.append("the agent made no model request")
    elif obs["hook_calls"] == 0:
        why.append("the hook was never called")
    if obs["effect"] != row["effect"]:
        why.append(f"effect: expected {row['effect']}, observed {obs['effect']}")
    seen = obs["model_sees"]
    if row["model_sees"] is not None:
        if seen is None or row["model_sees"] not in seen:
            why.append(f"the model's tool result should contain {row['model_sees']!r}; it was {seen!r}")
    elif seen is not None:
        leaked = [m for m in markers(row["answer"]) if m in seen]
        if leaked:
            why.append(f"model_sees is null but the tool result carries the hook's {leaked[0]!r}: {seen!r}")
    if why:
        print(f"FAIL {agent} {name}: " + "; ".join(why))
        print(f"    observed: {json.dumps(obs)}")
        return 1
    print(f"PASS {agent} {name}: {obs['effect']}")
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "list":
        for r in load(argv[2], argv[3])["rows"]:
            print(r["name"])
        return 0
    if len(argv) == 3 and argv[1] == "waits":
        for r in load(argv[2])["rows"]:
            if r["effect"] == "asks_user":
                print(r["name"])
        return 0
    if len(argv) == 5 and argv[1] in ("prepare", "observe"):
        doc = load(argv[2])
        if argv[1] == "prepare":
            prepare(doc, argv[3], argv[4])
            return 0
        return check(doc, argv[3], argv[4])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
