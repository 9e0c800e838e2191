"""The async and backfill vectors (fixtures/async/*.json, schema in its
README): each step through ``agenthooks.run`` in one fresh state directory
with the vector's injected ancestor chain, the vector guard and a
recording observer. The Rust runner runs the same files. Then one real
hook process: ``--async`` answers at once and the detached child (this
interpreter, re-run with the script's argv) finishes after the exit."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import textwrap
import time
from typing import Any, Dict, List

import pytest

import agenthooks as ah

from conftest import FIXTURES, PYTHON, load_json

VECTOR_KEYS = {"name", "description", "ancestry", "steps"}
STEP_KEYS = {"argv", "stdin", "expect"}
EXPECT_KEYS = {"stdout", "stdout_json", "stderr_contains", "exit_code", "observed"}


def vectors() -> List[pathlib.Path]:
    files = sorted((FIXTURES / "async").glob("*.json"))
    assert files, "no async vectors"
    flt = os.environ.get("AH_FIXTURE")
    return [f for f in files if not flt or flt in f"async/{f.stem}"]


def router_recording(seen: List[Dict[str, Any]]) -> ah.Router:
    router = ah.Router()

    @router.on_any
    def record(e: ah.Event) -> None:
        o: Dict[str, Any] = {"kind": str(e.kind), "native_name": e.native_name}
        if e.backfilled:
            o["backfilled"] = True
        if e.prompt is not None:
            o["prompt"] = e.prompt
        seen.append(o)

    @router.on_tool_pre
    def guard(e: ah.ToolPreEvent) -> Any:
        if "rm -rf" in (e.tool.command or ""):
            return ah.deny("vector guard: rm -rf is not allowed")
        return None

    return router


@pytest.mark.parametrize("f", vectors(), ids=lambda f: f.stem)
def test_async_vector(f: pathlib.Path, tmp_path: pathlib.Path) -> None:
    c: Dict[str, Any] = load_json(f)
    assert not set(c) - VECTOR_KEYS, f
    assert c["name"] == f"async/{f.stem}" and c["description"].strip() and c["steps"], f
    state = str(tmp_path / "state")
    for i, s in enumerate(c["steps"]):
        assert not set(s) - STEP_KEYS, (f, i)
        e = s["expect"]
        assert not set(e) - EXPECT_KEYS and ("stdout" in e) != ("stdout_json" in e), (f, i)
        seen: List[Dict[str, Any]] = []
        payload = json.dumps(s["stdin"], separators=(",", ":")).encode()
        r = ah.run(router_recording(seen), s["argv"], payload, state_dir=state, ancestry=c.get("ancestry"))
        assert r.exit_code == e["exit_code"], (i, r.stderr)
        if "stdout" in e:
            assert r.stdout == e["stdout"], i
        else:
            assert json.loads(r.stdout) == e["stdout_json"], (i, r.stdout)
        for want in e.get("stderr_contains", []):
            assert want in r.stderr, (i, r.stderr)
        assert seen == e["observed"], i


HOOK = textwrap.dedent("""
    import os, sys, time
    import agenthooks as ah

    router = ah.Router()

    @router.on_tool_post
    def slow(e):
        marker = os.environ["AH_MARKER"]
        with open(marker + ".pid", "w") as f:
            f.write(str(os.getpid()))
        time.sleep(float(os.environ["AH_SLEEP_S"]))
        with open(marker, "w") as f:
            f.write("done")

    ah.main(router)
""")

AFTER_TOOL = b'{"session_id":"s","cwd":"/w","hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"make"},"tool_response":{"llmContent":"ok"}}'


def wait_for(p: pathlib.Path, within: float) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end and not p.exists():
        time.sleep(0.02)
    return p.exists()


@pytest.mark.parametrize("sleep_s,timeout,finishes", [(2.5, 5, True), (3.0, 1, False)])
def test_async_hook_process_detaches(tmp_path: pathlib.Path, sleep_s: float, timeout: int, finishes: bool) -> None:
    script = tmp_path / "hook.py"
    script.write_text(HOOK)
    marker = tmp_path / "marker"
    env = dict(os.environ, AH_MARKER=str(marker), AH_SLEEP_S=str(sleep_s), AGENTHOOKS_STATE_DIR=str(tmp_path / "state"))
    t = time.monotonic()
    p = subprocess.run(
        [PYTHON, str(script), "agenthooks", "run", "--provider=gemini", f"--timeout={timeout}", "--async"],
        input=AFTER_TOOL,
        capture_output=True,
        env=env,
        timeout=30,
    )
    took = time.monotonic() - t
    # run() returns when the pipes close: the child holds none of them.
    assert (p.returncode, p.stdout.strip()) == (0, b"{}"), p.stderr
    assert took < sleep_s, f"the agent waited {took:.2f} s"
    assert not marker.exists()
    assert wait_for(pathlib.Path(str(marker) + ".pid"), 10), "the detached child never ran"
    if finishes:
        assert wait_for(marker, 10), "the detached work never finished"
    else:
        time.sleep(timeout + sleep_s)
        assert not marker.exists(), "the work ran past the deadline"
