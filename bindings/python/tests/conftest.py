"""Shared helpers for the Python binding's suite.

The suite runs against the *installed* wheel (``make python-test`` builds
it with maturin and installs it into .cache/python/venv); nothing here puts
the source tree on ``sys.path``.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from typing import Any, Dict, List, Mapping, Optional, Sequence

ROOT = pathlib.Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures"
EXAMPLE_GUARD = ROOT / "examples" / "python" / "guard.py"
RUST_GUARD = ROOT / "target" / "debug" / "guard"
CLI = ROOT / "target" / "debug" / "agenthooks"
PYTHON = sys.executable


def no_dup_keys(pairs: List[Any]) -> Dict[str, Any]:
    """``json.loads`` hook: duplicate names in a fixture are an error."""
    out: Dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r}")
        out[k] = v
    return out


def load_json(path: pathlib.Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=no_dup_keys)


def compact(value: Any) -> bytes:
    """JSON bytes as the Rust runner makes them (serde_json: compact,
    keys sorted, UTF-8)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True).encode()


def strict_eq(a: Any, b: Any) -> bool:
    """JSON equality as serde_json's ``Value`` sees it: ``true`` is not
    ``1`` and ``1`` is not ``1.0``."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(strict_eq(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(strict_eq(x, y) for x, y in zip(a, b))
    return bool(a == b)


def run_hook(
    argv: Sequence[str],
    payload: bytes,
    env: Optional[Mapping[str, str]] = None,
    timeout: float = 60,
) -> "subprocess.CompletedProcess[bytes]":
    return subprocess.run(
        list(argv), input=payload, capture_output=True, timeout=timeout, env=dict(env) if env else None
    )
