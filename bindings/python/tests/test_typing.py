"""Types ship with the package and are checked: ``mypy --strict`` on the
examples and this suite (against the installed package: py.typed +
_native.pyi), and ``mypy.stubtest`` of the stub against the built module."""

from __future__ import annotations

import os
import subprocess

from conftest import PYTHON, ROOT

ALLOWLIST = ROOT / "bindings" / "python" / "stubtest-allowlist.txt"
CACHE = ROOT / ".cache" / "python" / "mypy"


def mypy(*args: str) -> "subprocess.CompletedProcess[str]":
    env = dict(os.environ, MYPY_CACHE_DIR=str(CACHE))
    return subprocess.run(
        [PYTHON, "-m", *args], cwd=ROOT, capture_output=True, text=True, env=env, timeout=600
    )


def test_mypy_strict_on_examples_and_tests() -> None:
    p = mypy(
        "mypy", "--strict", "--python-version=3.10",
        "examples/python", "bindings/python/tests",
    )
    assert p.returncode == 0, p.stdout + p.stderr


def test_mypy_strict_on_the_installed_package() -> None:
    p = mypy("mypy", "--strict", "--python-version=3.10", "-p", "agenthooks")
    assert p.returncode == 0, p.stdout + p.stderr


def test_stubtest_native_module() -> None:
    p = mypy("mypy.stubtest", "agenthooks._native", "--allowlist", str(ALLOWLIST))
    assert p.returncode == 0, p.stdout + p.stderr
