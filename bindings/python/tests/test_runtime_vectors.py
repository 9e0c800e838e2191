"""The shared runtime vectors (fixtures/runtime/*.json, schema in its
README): argv + stdin through the whole run entry, with the vector guard.
Every vector runs twice: in-process through ``agenthooks.run`` and as a real
process through ``agenthooks.main`` (the argv given to ``main``). The Rust,
C, Go and Node runners run the same files and must answer identically."""

from __future__ import annotations

import base64
import json
import os
import pathlib
import subprocess
import textwrap
from typing import Any, Dict, List, Optional

import pytest

import agenthooks as ah

from conftest import FIXTURES, PYTHON, load_json

VECTOR_KEYS = {"name", "description", "argv", "router", "stdin", "stdin_text", "stdin_b64", "stdin_parts", "expect"}
EXPECT_KEYS = {"stdout", "stdout_json", "stderr_contains", "exit_code"}

GUARD = textwrap.dedent("""
    import json, os, sys
    import agenthooks as ah

    policy = os.environ.get("AH_VECTOR_POLICY")
    router = ah.Router(policy=ah.Policy.from_json(policy) if policy else None)

    @router.on_tool_pre
    def guard(e):
        if "rm -rf" in (e.tool.command or ""):
            return ah.deny("vector guard: rm -rf is not allowed")
        if "needs-approval" in (e.tool.command or ""):
            return ah.ask("vector guard: needs approval")
        return None

    ah.main(router, argv=json.loads(os.environ["AH_VECTOR_ARGV"]))
""")


def vectors() -> List[pathlib.Path]:
    files = sorted((FIXTURES / "runtime").glob("*.json"))
    assert files, "no runtime vectors"
    flt = os.environ.get("AH_FIXTURE")
    return [f for f in files if not flt or flt in f"runtime/{f.stem}"]


def load(f: pathlib.Path) -> Dict[str, Any]:
    c: Dict[str, Any] = load_json(f)
    extra = set(c) - VECTOR_KEYS
    assert not extra, f"{f}: unknown fields {extra}"
    assert c["name"] == f"runtime/{f.stem}" and c["description"].strip(), f
    assert not set(c["expect"]) - EXPECT_KEYS, f
    assert ("stdout" in c["expect"]) != ("stdout_json" in c["expect"]), f
    return c


def stdin_of(c: Dict[str, Any]) -> bytes:
    forms = [k for k in ("stdin", "stdin_text", "stdin_b64", "stdin_parts") if k in c]
    assert len(forms) <= 1, c["name"]
    if "stdin" in c:
        return json.dumps(c["stdin"], separators=(",", ":"), ensure_ascii=False).encode()
    if "stdin_text" in c:
        return str(c["stdin_text"]).encode()
    if "stdin_b64" in c:
        return base64.b64decode(str(c["stdin_b64"]))
    out = b""
    for p in c.get("stdin_parts", []):
        if isinstance(p, str):
            out += p.encode()
        else:
            assert set(p) == {"repeat", "times"}, c["name"]
            out += p["repeat"].encode() * p["times"]
    return out


def router_of(c: Dict[str, Any]) -> ah.Router:
    policy = ah.Policy.from_json(json.dumps(c["router"])) if "router" in c else None
    router = ah.Router(policy=policy)

    @router.on_tool_pre
    def guard(e: ah.ToolPreEvent) -> Optional[ah.Decision]:
        if "rm -rf" in (e.tool.command or ""):
            return ah.deny("vector guard: rm -rf is not allowed")
        if "needs-approval" in (e.tool.command or ""):
            return ah.ask("vector guard: needs approval")
        return None

    return router


def check(c: Dict[str, Any], stdout: str, stderr: str, code: int, how: str) -> None:
    e = c["expect"]
    where = f"{c['name']} ({how}): stderr {stderr!r}"
    assert code == e["exit_code"], where
    if "stdout" in e:
        assert stdout == e["stdout"], where
    else:
        assert json.loads(stdout) == e["stdout_json"], where
    for s in e.get("stderr_contains", []):
        assert s in stderr, f"{where} lacks {s!r}"


@pytest.mark.parametrize("path", vectors(), ids=lambda p: p.stem)
def test_vector_in_process(path: pathlib.Path) -> None:
    c = load(path)
    r = ah.run(router_of(c), c["argv"], stdin_of(c))
    check(c, r.stdout, r.stderr, r.exit_code, "ah.run")


@pytest.mark.parametrize("path", vectors(), ids=lambda p: p.stem)
def test_vector_through_main(path: pathlib.Path, tmp_path: pathlib.Path) -> None:
    c = load(path)
    hook = tmp_path / "vector_guard.py"
    hook.write_text(GUARD)
    env = dict(os.environ)
    env.pop("AGENTHOOKS_NOTES", None)
    env["AH_VECTOR_ARGV"] = json.dumps(c["argv"])
    env["AGENTHOOKS_STATE_DIR"] = str(tmp_path / "state")
    if "router" in c:
        env["AH_VECTOR_POLICY"] = json.dumps(c["router"])
    p = subprocess.run([PYTHON, str(hook)], input=stdin_of(c), capture_output=True, timeout=60, env=env)
    check(c, p.stdout.decode(), p.stderr.decode(), p.returncode, "ah.main")


def test_every_vector_ran() -> None:
    n = len(vectors())
    total = len(sorted((FIXTURES / "runtime").glob("*.json")))
    print(f"python runtime vectors: {n} of {total} (twice each)")
    assert n == total or os.environ.get("AH_FIXTURE")
