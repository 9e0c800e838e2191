"""The suite tests the built wheel, and the wheel is what it claims: an
abi3 build that installs into a fresh venv of any CPython >= 3.9."""

from __future__ import annotations

import glob
import pathlib
import subprocess
import sys
from typing import List

import pytest

import agenthooks as ah
from agenthooks import _native

from conftest import PYTHON, ROOT

WHEELS = sorted(glob.glob(str(ROOT / ".cache" / "python" / "wheels" / "agenthooks-*.whl")))
SMOKE = r"""
import sys, agenthooks as ah
ev = ah.decode("codex", b'{"session_id":"s","turn_id":"t","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t"}')
r = ah.respond(ev, ah.deny("no"))
assert type(ev).__name__ == "ToolPreEvent" and '"deny"' in r.stdout, r
print(sys.version_info[:2], ah.__version__, ah._native.__file__)
"""


def test_the_suite_imports_the_installed_wheel() -> None:
    pkg = pathlib.Path(ah.__file__).parent
    assert "site-packages" in pkg.parts, pkg
    assert not str(pkg).startswith(str(ROOT / "bindings")), "source tree on sys.path"
    assert (pkg / "py.typed").exists() and (pkg / "_native.pyi").exists()
    assert pathlib.Path(_native.__file__).name.endswith(".abi3.so"), _native.__file__


def other_pythons() -> List[str]:
    """CPython interpreters on this machine other than the suite's (pyenv
    keeps several: the oldest supported and the newest are the interesting)."""
    found = []
    for pattern in ("/root/.pyenv/versions/3.9*/bin/python3", "/root/.pyenv/versions/3.1[3-9]*/bin/python3"):
        found.extend(sorted(glob.glob(pattern))[-1:])
    return [p for p in found if pathlib.Path(p).resolve() != pathlib.Path(sys.base_prefix, "bin", "python3").resolve()]


@pytest.mark.parametrize("interpreter", other_pythons() or ["(none)"])
def test_wheel_installs_into_a_fresh_venv(tmp_path: pathlib.Path, interpreter: str) -> None:
    if interpreter == "(none)":
        pytest.skip("no other CPython on this machine")
    assert len(WHEELS) == 1, WHEELS
    venv = tmp_path / "venv"
    subprocess.run([interpreter, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = str(venv / "bin" / "python")
    # The suite's pip installs into the fresh venv (no index: the wheel only).
    subprocess.run(
        [PYTHON, "-m", "pip", "--python", py, "install", "-q", "--no-index", "--no-deps",
         "--disable-pip-version-check", WHEELS[0]],
        check=True,
    )
    p = subprocess.run([py, "-c", SMOKE], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert ah.__version__ in p.stdout
