"""Issue 22: with ``agenthooks._native`` missing or corrupted, ``import
agenthooks`` works and a fail-closed guard still blocks, in the agent's own
blocking form, with a reason naming the cause; fail open gives no opinion.

Each case runs a guard written from the README against a copy of the
installed package whose extension is removed or replaced by garbage, as a
broken install would be."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
from typing import Dict, Iterator, Optional, Sequence

import pytest

import agenthooks as ah

from conftest import PYTHON, ROOT

MARKER = "agenthooks: native_unavailable: "
TABLE = json.loads((ROOT / "bindings/python/python/agenthooks/_fail_table.json").read_text())

GUARD = """
import os
import agenthooks as ah

router = ah.Router(policy=ah.Policy(fail=os.environ.get("AH_FAIL", "open"), ask_fallback="deny"))

@router.on_tool_pre
def guard(event: ah.ToolPreEvent) -> ah.Decision:
    if event.tool.canonical == "shell" and "rm -rf" in (event.tool.command or ""):
        return ah.deny("destructive command")
    return ah.no_decision()

if os.environ.get("AH_OBSERVER"):
    router.on_any(lambda e: None)
if os.environ.get("AH_SPELLING"):
    router.add(os.environ["AH_SPELLING"], lambda e: None)

if __name__ == "__main__":
    ah.main(router)
"""

PRE = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                  "tool_input": {"command": "rm -rf /"}}).encode()


def broken_install(root: pathlib.Path, mode: str) -> pathlib.Path:
    pkg = pathlib.Path(ah.__file__).parent
    dst = root / mode
    shutil.copytree(pkg, dst / "agenthooks", ignore=shutil.ignore_patterns("__pycache__"))
    for so in (dst / "agenthooks").glob("_native*.so"):
        if mode == "missing":
            so.unlink()
        else:
            so.write_bytes(b"\x7fELF not a shared object" * 64)
    (dst / "guard.py").write_text(GUARD)
    return dst


@pytest.fixture(scope="module", params=["missing", "corrupt"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[pathlib.Path]:
    yield broken_install(tmp_path_factory.mktemp("failsafe"), str(request.param))


def run(site: pathlib.Path, args: Sequence[str], payload: bytes, env: Optional[Dict[str, str]] = None,
        code: Optional[str] = None) -> "subprocess.CompletedProcess[str]":
    prog = ["-c", code] if code is not None else [str(site / "guard.py")]
    e = {k: v for k, v in os.environ.items() if not k.startswith("AH_")}
    e.update(PYTHONPATH=str(site), **(env or {}))
    return subprocess.run([PYTHON, "-s", *prog, *args], input=payload.decode(), capture_output=True,
                          text=True, env=e, timeout=60, cwd=site)


def test_import_router_and_decorators_work_and_core_apis_name_the_cause(site: pathlib.Path) -> None:
    code = """
import agenthooks as ah
from agenthooks import _failsafe
assert _failsafe.cause() is not None
r = ah.Router(policy=ah.Policy(fail="closed"))
r.on_tool_pre(lambda e: ah.deny("x"))
r.on("PreToolUse")(lambda e: None)
r.middleware(lambda e, n: n(e))
assert r.policy.fail == "closed"
assert ah.Kind.TOOL_PRE == "tool.pre"
try:
    ah.decode("claude-code", b"{}")
except ImportError as e:
    assert e.code == "native_unavailable" and "cannot load agenthooks._native" in str(e), e
    print("raised")
"""
    p = run(site, [], b"", code=code)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "raised"


@pytest.mark.parametrize("provider", ["claude-code", "codex", "kimi-code"])
def test_fail_closed_blocks_with_exit_2_and_the_cause(site: pathlib.Path, provider: str) -> None:
    p = run(site, ["agenthooks", "run", f"--provider={provider}"], PRE, {"AH_FAIL": "closed"})
    assert p.returncode == 2, p.stderr
    assert p.stdout == ""
    assert p.stderr.startswith(MARKER), p.stderr
    assert "cannot load agenthooks._native" in p.stderr
    if site.name == "corrupt":
        assert "_native" in p.stderr and ".so" in p.stderr
    else:
        assert "No module named 'agenthooks._native'" in p.stderr, p.stderr


def test_argv_fail_overrides_and_fail_open_is_no_opinion(site: pathlib.Path) -> None:
    p = run(site, ["agenthooks", "run", "--provider=claude-code", "--fail=closed"], PRE)
    assert p.returncode == 2, p.stderr
    p = run(site, ["agenthooks", "run", "--provider=claude-code"], PRE)
    assert (p.returncode, p.stdout) == (0, "")
    assert p.stderr.startswith(MARKER) and "fail-open" in p.stderr
    cursor = json.dumps({"hook_event_name": "beforeShellExecution", "command": "ls"}).encode()
    p = run(site, ["agenthooks", "run", "--provider=cursor"], cursor)
    assert json.loads(p.stdout) == {}  # Cursor's "no opinion"


def test_only_events_the_router_could_gate_are_blocked(site: pathlib.Path) -> None:
    closed = {"AH_FAIL": "closed"}
    argv = ["agenthooks", "run", "--provider=claude-code"]
    prompt = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}).encode()
    assert run(site, argv, prompt, closed).returncode == 0  # no prompt handler
    assert run(site, argv, prompt, {**closed, "AH_OBSERVER": "1"}).returncode == 2
    assert run(site, argv, prompt, {**closed, "AH_SPELLING": "no-such-kind"}).returncode == 2
    assert run(site, argv, prompt, {**closed, "AH_SPELLING": "user_prompt_submit"}).returncode == 2
    assert run(site, argv, prompt, {**closed, "AH_SPELLING": "Stop"}).returncode == 0
    post = json.dumps({"hook_event_name": "PostToolUse"}).encode()
    p = run(site, argv, post, {**closed, "AH_OBSERVER": "1"})
    assert p.returncode == 0 and "nothing to block on PostToolUse" in p.stderr
    # Exit 2 on Stop would keep the agent looping: never a block there.
    stop = json.dumps({"hook_event_name": "Stop"}).encode()
    assert run(site, argv, stop, {**closed, "AH_OBSERVER": "1"}).returncode == 0
    # An event that cannot be named is blocked.
    assert run(site, argv, b"not json", closed).returncode == 2


def test_each_agent_gets_its_own_blocking_form(site: pathlib.Path) -> None:
    closed = {"AH_FAIL": "closed", "AH_OBSERVER": "1"}
    perm = json.dumps({"hook_event_name": "PermissionRequest", "tool_name": "Bash"}).encode()
    p = run(site, ["agenthooks", "run", "--provider=claude-code"], perm, closed)
    # Claude Code ignores exit 2 on PermissionRequest (quirk 3): a JSON deny.
    out = json.loads(p.stdout)
    assert out["hookSpecificOutput"]["decision"]["behavior"] == "deny"
    assert "native_unavailable: cannot load" in out["hookSpecificOutput"]["decision"]["message"]
    gem = json.dumps({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command"}).encode()
    p = run(site, ["agenthooks", "run", "--provider=gemini"], gem, closed)
    assert p.returncode == 0 and json.loads(p.stdout)["decision"] == "deny"
    cop = json.dumps({"toolName": "bash", "toolArgs": "{}"}).encode()
    p = run(site, ["agenthooks", "run", "--provider=copilot", "--event=preToolUse"], cop, closed)
    assert json.loads(p.stdout)["permissionDecision"] == "deny"
    p = run(site, ["agenthooks", "run"], PRE, closed)  # no provider: exit 2 blocks everywhere
    assert p.returncode == 2 and p.stderr.startswith(MARKER)


def test_run_in_process(site: pathlib.Path) -> None:
    code = """
import agenthooks as ah
r = ah.Router(policy=ah.Policy(fail="closed"))
r.on_tool_pre(lambda e: None)
resp = ah.run(r, ["x", "agenthooks", "run", "--provider=codex"], %r)
print(resp.exit_code, resp.stderr.startswith(%r))
""" % (PRE, MARKER)
    p = run(site, [], b"", code=code)
    assert p.stdout.split() == ["2", "True"], p.stderr


def test_serve_answers_each_frame_with_the_fail_policy(site: pathlib.Path) -> None:
    frames = b"\n".join([
        json.dumps({"hello": {"provider": "openclaw"}}).encode(),
        json.dumps({"seq": 7, "hook": "before_tool_call", "event": {"toolName": "exec"}}).encode(),
    ]) + b"\n"
    p = run(site, ["agenthooks", "serve", "--provider=openclaw"], frames, {"AH_FAIL": "closed"})
    assert p.returncode == 0, p.stderr
    hello, reply = [json.loads(line) for line in p.stdout.splitlines()]
    assert hello["hello"]["policy"]["fail"] == "closed"
    assert reply["seq"] == 7 and reply["error"]["code"] == "native_unavailable"
    assert reply["output"]["block"] is True and "native_unavailable" in reply["output"]["blockReason"]


def test_a_hook_that_crashes_at_import_still_answers_fail_closed(site: pathlib.Path) -> None:
    # The hook calls a core API at import (before main): argv's --fail=closed still holds.
    code = "import agenthooks as ah\nah.quirks()\n"
    p = run(site, ["agenthooks", "run", "--provider=codex", "--fail=closed"], PRE, code=code)
    assert p.returncode == 2
    assert p.stderr.startswith(MARKER), p.stderr
    assert "Traceback" in p.stderr
    # Without --fail=closed the crash is left as it was.
    p = run(site, ["agenthooks", "run", "--provider=codex"], PRE, code=code)
    assert p.returncode == 1


def test_the_installed_table_is_the_committed_one() -> None:
    installed = pathlib.Path(ah.__file__).parent / "_fail_table.json"
    assert json.loads(installed.read_text()) == TABLE
    node = json.loads((ROOT / "bindings/node/lib/fail-table.json").read_text())
    assert node == TABLE
    assert TABLE["marker"] == MARKER


def test_doctor_reports_a_hook_whose_native_part_cannot_load(site: pathlib.Path, tmp_path: pathlib.Path) -> None:
    from conftest import CLI

    if not CLI.exists():
        pytest.skip(f"{CLI} not built (make python-test builds it)")
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    wrapper = tmp_path / "guard.sh"
    wrapper.write_text(f"#!/bin/sh\nPYTHONPATH={site} exec {PYTHON} -s {site / 'guard.py'} \"$@\"\n")
    wrapper.chmod(0o755)
    manifest = tmp_path / "hooks.toml"
    manifest.write_text(f'id = "guard"\nprogram = "{wrapper}"\nfail = "closed"\n\n'
                        '[[hooks]]\nkind = "tool.pre"\nmatch = "shell"\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("AH_")}
    env["AGENTHOOKS_STATE_DIR"] = str(tmp_path / "state")  # doctor runs only what install recorded
    p = subprocess.run([str(CLI), "install", "--agent=claude-code", "--scope=user", f"--manifest={manifest}",
                        "--home", str(home), "--project", str(tmp_path)],
                       capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    p = subprocess.run([str(CLI), "doctor", "--home", str(home), "--project", str(tmp_path)],
                       capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "FAILED" in p.stdout and "native part cannot load: cannot load agenthooks._native" in p.stdout, p.stdout
