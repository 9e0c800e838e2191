"""The opt-in audit log (issue 15 §4) from a Python hook: the run completes
through the core (`Invocation.complete`), so a Python hook process writes
the same line a Rust one does, only when logging is turned on."""

from __future__ import annotations

import json
import os
import pathlib
import textwrap
from typing import Dict, List

from conftest import PYTHON, run_hook

PRE = b'{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf hunter2"},"tool_use_id":"t"}'


def guard(tmp_path: pathlib.Path) -> List[str]:
    path = tmp_path / "hook.py"
    path.write_text(textwrap.dedent("""
        import agenthooks as ah
        router = ah.Router()

        @router.on_tool_pre
        def guard(event: ah.ToolPreEvent) -> ah.Decision:
            if "boom" in event.tool.command:
                raise RuntimeError("db down")
            return ah.deny("no")

        ah.main(router)
    """))
    return [PYTHON, str(path), "agenthooks", "run", "--provider=claude-code", "--hook-id=py:guard"]


def env(state: pathlib.Path, **extra: str) -> Dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k != "AGENTHOOKS_LOG"}
    e["AGENTHOOKS_STATE_DIR"] = str(state)
    e.update(extra)
    return e


def test_a_python_hook_logs_only_when_asked(tmp_path: pathlib.Path) -> None:
    argv = guard(tmp_path)
    state = tmp_path / "state"
    log = state / "log" / "invocations.jsonl"
    p = run_hook(argv, PRE, env(state))
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert not log.exists()  # off by default

    p = run_hook(argv, PRE, env(state, AGENTHOOKS_LOG="1"))
    assert json.loads(p.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    boom = PRE.replace(b"rm -rf hunter2", b"boom")
    run_hook(argv, boom, env(state, AGENTHOOKS_LOG="1"))
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines) == 2
    first, second = lines
    assert (first["agent"], first["event"], first["kind"]) == ("claude-code", "PreToolUse", "tool.pre")
    assert (first["hook_id"], first["decision"], first["exit"]) == ("py:guard", "deny", 0)
    assert isinstance(first["latency_us"], int)
    assert (second["decision"], second["error"]) == ("error", "handler_error")
    assert "hunter2" not in log.read_text()  # no tool input unless asked
    assert oct(log.stat().st_mode & 0o777) == "0o600"
