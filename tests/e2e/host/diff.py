"""Cases and verdicts of the host differential check (tests/e2e/host_diff). Python 3 stdlib.

setup AGENT CASE DIR HOOK COMMAND
  Writes DIR/beh/ (hook behaviour files), DIR/needle.txt (the reason text the model should or
  should not see), and the agent's configuration: DIR/settings.json (claude-code) or
  DIR/codex_home/hooks.json + DIR/trust.toml (codex: [hooks.state] lines trusting every handler,
  keyed and hashed as E2E.md section 3 says). HOOK is the absolute path of diff_hook.sh; the
  model's tool call runs COMMAND.
agent-verdict DIR   What the real agent did (proof file, fake-model log, recorded hook calls).
host-verdict DIR    What `agenthooks host run` decided (DIR/host.json, recorded hook calls).
  Both print one line: ran=yes|no reason=yes|no hooks=a,b followup=yes|no
"""

import glob
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import fake_model  # noqa: E402  (tool_result: what the agent sent back to the model)


def hook(name, out=None, err=None, rc=0, sleep=None, timeout=None, pad=None, hold=None):
    return {"name": name, "out": out, "err": err, "rc": rc, "sleep": sleep, "timeout": timeout,
            "pad": pad, "hold": hold}


def pre(**fields):
    return json.dumps({"hookSpecificOutput": dict({"hookEventName": "PreToolUse"}, **fields)})


def cases(command):
    """CASE -> (groups, needle). A group is {"matcher"?: str, "hooks": [hook...]}."""
    return {
        # Claude: deny > allow. Codex: allow is only valid with updatedInput, and any deny wins.
        "deny-beats-allow": ([
            {"matcher": "Bash", "hooks": [hook("allow_a", out=pre(
                permissionDecision="allow", updatedInput={"command": command}))]},
            {"hooks": [hook("deny_b", out=pre(permissionDecision="deny",
                                              permissionDecisionReason="denied-by-hook-b"))]},
        ], "denied-by-hook-b"),
        "exit2-stderr": ([
            {"hooks": [hook("exit2", err="blocked-by-exit-two\n", rc=2)]},
        ], "blocked-by-exit-two"),
        # Sleeps past its 2 s timeout, then would deny: both agents fail open.
        "timeout": ([
            {"hooks": [hook("slow", sleep=5, timeout=2, out=pre(
                permissionDecision="deny", permissionDecisionReason="late-deny-never-seen"))]},
        ], "late-deny-never-seen"),
        "regex-alternation": ([
            {"matcher": "^(Bash|Shell)$", "hooks": [hook("re_hit", out=pre(
                permissionDecision="deny", permissionDecisionReason="regex-alternation-deny"))]},
            {"matcher": "^(Edit|Write)$", "hooks": [hook("re_miss", out=pre(
                permissionDecision="deny", permissionDecisionReason="wrong-group-matched"))]},
        ], "regex-alternation-deny"),
        # Both agents skip only the group whose matcher does not compile.
        "invalid-regex": ([
            {"matcher": "Bash(", "hooks": [hook("re_bad", out=pre(
                permissionDecision="deny", permissionDecisionReason="broken-group-ran"))]},
            {"matcher": "Bash", "hooks": [hook("re_good", out=pre(
                permissionDecision="deny", permissionDecisionReason="good-group-deny"))]},
        ], "good-group-deny"),
        # A schema error: Claude skips every hook of that event in that file, Codex the file.
        "schema-error": ([
            {"hooks": [hook("ten", timeout="ten", out=pre(
                permissionDecision="deny", permissionDecisionReason="ten-deny"))]},
            {"hooks": [hook("sibling", out=pre(
                permissionDecision="deny", permissionDecisionReason="sibling-deny"))]},
        ], "sibling-deny"),
        # Denies, then leaves a process holding stdout for 6 s. Claude reads until 500 ms of
        # quiet and denies; Codex waits for end of file and times out (fails open).
        "held-deny": ([
            {"hooks": [hook("held", hold=6, timeout=3, out=pre(
                permissionDecision="deny", permissionDecisionReason="held-deny"))]},
        ], "held-deny"),
        # Allows with a rewrite while a process holds stdout for 3 s: Claude refuses the
        # suspect capture (a block); Codex waits the 3 s and applies it.
        "held-allow": ([
            {"hooks": [hook("held_allow", hold=3, out=pre(
                permissionDecision="allow", updatedInput={"command": command}))]},
        ], "refusing to honor"),
        # A deny after 11 MB of blanks: both agents read it all and deny; the host's 10 MiB
        # capture cap must not read it as "no decision".
        "oversized": ([
            {"hooks": [hook("big", pad=11 * 1024 * 1024, out=pre(
                permissionDecision="deny", permissionDecisionReason="oversized-deny"))]},
        ], ""),
        # Claude: continue:false alone lets the tool run, then stops the session (quirk 15).
        # Codex: continue:false on PreToolUse fails the run; nothing stops.
        "continue-false": ([
            {"hooks": [hook("cf_a", out="{}"),
                       hook("cf_b", out=json.dumps({"continue": False, "stopReason": "stop-by-b"})),
                       hook("cf_c", out="{}")]},
        ], ""),
    }


def setup(agent, case, d, hook_path, command):
    groups, needle = cases(command)[case]
    beh = os.path.join(d, "beh")
    os.makedirs(beh, exist_ok=True)
    wire = []
    for g in groups:
        handlers = []
        for h in g["hooks"]:
            for ext in ("out", "err", "rc", "sleep", "pad", "hold"):
                if h[ext] not in (None, 0) or ext == "rc":
                    with open(os.path.join(beh, f"{h['name']}.{ext}"), "w") as f:
                        f.write(str(h[ext]))
            handlers.append({"type": "command", "command": f"{hook_path} {h['name']}",
                             "timeout": h["timeout"] or 20})
        wire.append(dict({"matcher": g["matcher"]} if "matcher" in g else {}, hooks=handlers))
    with open(os.path.join(d, "needle.txt"), "w") as f:
        f.write(needle)
    if agent == "claude-code":
        with open(os.path.join(d, "settings.json"), "w") as f:
            json.dump({"skipWebFetchPreflight": True, "hooks": {"PreToolUse": wire}}, f, indent=2)
        return
    home = os.path.join(d, "codex_home")
    os.makedirs(home, exist_ok=True)
    path = os.path.realpath(os.path.join(home, "hooks.json"))
    with open(path, "w") as f:
        json.dump({"hooks": {"PreToolUse": wire}}, f, indent=2)
    lines = []
    for gi, g in enumerate(wire):
        for hi, h in enumerate(g["hooks"]):
            ident = {"event_name": "pre_tool_use", "hooks": [dict(h, **{"async": False})]}
            if "matcher" in g:
                ident["matcher"] = g["matcher"]
            digest = hashlib.sha256(json.dumps(ident, sort_keys=True, separators=(",", ":"),
                                               ensure_ascii=False).encode()).hexdigest()
            lines.append(f"[hooks.state.{json.dumps(f'{path}:pre_tool_use:{gi}:{hi}')}]")
            lines.append(f'enabled = true\ntrusted_hash = "sha256:{digest}"\n')
    with open(os.path.join(d, "trust.toml"), "w") as f:
        f.write("\n".join(lines))


def called(calls_dir):
    names = {os.path.basename(p).split(".")[1] for p in glob.glob(os.path.join(calls_dir, "stdin.*"))}
    return ",".join(sorted(names)) or "-"


def yn(b):
    return "yes" if b else "no"


def agent_verdict(d):
    needle = open(os.path.join(d, "needle.txt")).read()
    log = os.path.join(d, "server.log")
    seen, followup = "", False
    if os.path.exists(log):
        seen = fake_model.tool_result(log) or ""
        with open(log) as f:
            followup = any((json.loads(l).get("turn") or 0) >= 1 for l in f if l.strip())
    ran = os.path.exists(os.path.join(d, "project", "proof"))
    return (f"ran={yn(ran)} reason={yn(bool(needle) and needle in seen)} "
            f"hooks={called(os.path.join(d, 'agent'))} followup={yn(followup)}")


def host_verdict(d):
    needle = open(os.path.join(d, "needle.txt")).read()
    with open(os.path.join(d, "host.json")) as f:
        out = json.load(f)["outcome"]
    decision = out.get("decision")
    ran = decision not in ("deny", "block", "ask", "defer")
    stopped = "stop" in out or decision == "defer"
    reason = out.get("reason") or ""
    return (f"ran={yn(ran)} reason={yn(bool(needle) and needle in reason)} "
            f"hooks={called(os.path.join(d, 'host'))} followup={yn(not stopped)}")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "setup" and len(args) == 5:
        setup(*args)
    elif cmd == "agent-verdict" and len(args) == 1:
        print(agent_verdict(args[0]))
    elif cmd == "host-verdict" and len(args) == 1:
        print(host_verdict(args[0]))
    elif cmd == "cases":
        print(" ".join(cases("x")))
    else:
        sys.exit(__doc__)
