"""Verdict of one patched-rewrite run (see ./run): prints `PASS <agent> patch: ...` or
`FAIL <agent> patch: why`. Usage: check.py AGENT CASE_DIR REWRITTEN_COMMAND EXTRA_JSON"""

import json
import sys
from pathlib import Path

DESCRIPTION = "smoke test command"  # what ../fake_model.py sends with the command


def tool_input(payload):
    """The tool input in a pre/post payload: Claude Code / Gemini `tool_input`,
    Copilot `toolArgs` (an object or a JSON string)."""
    v = payload.get("tool_input", payload.get("toolArgs"))
    if isinstance(v, str):
        try:
            v = json.loads(v)
        except ValueError:
            return None
    return v if isinstance(v, dict) else None


def load(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def main():
    agent, d, rewritten, extra = sys.argv[1], Path(sys.argv[2]), sys.argv[3], sys.argv[4]
    extra = json.loads(extra or "{}")
    proj = d / "project"
    bad = []
    pre = load(d / "pre.json")
    if pre is None:
        bad.append("the hook was never called (no pre.json)")
    else:
        sent = tool_input(pre) or {}
        if sent.get("description") != DESCRIPTION:
            bad.append(f"the agent sent no description to the hook: {sent}")
    # Where the rewritten command writes: Gemini's dir_path is the working directory.
    where = proj / extra["dir_path"] if "dir_path" in extra else proj
    if (proj / "proof").exists():
        bad.append("the original command ran (proof exists)")
    if not (where / "proof_rewritten").exists():
        elsewhere = [str(p.relative_to(proj)) for p in proj.rglob("proof_rewritten")]
        bad.append(f"the rewritten command did not run in {where.relative_to(d)} "
                   f"(found: {elsewhere or 'nowhere'})")
    post = load(d / "post.json")
    ran = tool_input(post) if post is not None else None
    if ran is None:
        bad.append("no tool-post payload with a tool input (post.json)")
    else:
        if ran.get("command") != rewritten:
            bad.append(f"the tool-post input has command {ran.get('command')!r}")
        if ran.get("description") != DESCRIPTION:
            bad.append(f"the untouched description was lost: {ran}")
        for k, v in extra.items():
            if ran.get(k) != v:
                bad.append(f"the untouched {k} was lost: {ran}")
    if bad:
        print(f"FAIL {agent} patch: " + "; ".join(bad))
        return 1
    kept = ", ".join(["description"] + sorted(extra))
    print(f"PASS {agent} patch: rewritten command ran; agent kept {kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
