"""fixtures/mcp/ and fixtures/transcript/ through the Python binding."""

from __future__ import annotations

import json
import os
import pathlib
from typing import Any, Dict, List

import pytest

import agenthooks as ah

from conftest import ROOT

FIXTURES = ROOT / "fixtures"
FILTER = os.environ.get("AH_FIXTURE", "")


def mcp_cases() -> List[pathlib.Path]:
    return sorted(p for p in (FIXTURES / "mcp").iterdir() if (p / "case.json").is_file())


def transcript_cases() -> List[pathlib.Path]:
    return sorted((FIXTURES / "transcript").glob("*.json"))


def test_every_case_runs() -> None:
    # A broken glob cannot pass with zero cases.
    assert len(mcp_cases()) >= 20
    assert len(transcript_cases()) >= 4


@pytest.mark.parametrize("case", mcp_cases(), ids=lambda p: p.name)
def test_mcp_fixture(case: pathlib.Path) -> None:
    text = (case / "case.json").read_text().replace("{root}", str(case.resolve()))
    c: Dict[str, Any] = json.loads(text)
    assert set(c) <= {"name", "description", "request", "expect"}
    assert c["name"] == f"mcp/{case.name}"
    if FILTER and FILTER not in c["name"]:
        pytest.skip("AH_FIXTURE")
    r = dict(c["request"])
    want = c["expect"]
    kwargs = {k: r.pop(k) for k in list(r) if k in ("cwd", "home", "env", "agent_argv", "payload_url", "payload_command")}
    if "error" in want:
        with pytest.raises(ah.AgentHooksError) as e:
            ah.resolve_mcp_transport(r.pop("provider"), r.pop("server"), **kwargs)
        assert e.value.code == want["error"]["code"]
        return
    kwargs.setdefault("home", "")
    got = ah.resolve_mcp_transport(r.pop("provider"), r.pop("server"), **kwargs)
    assert not r, f"request fields the Python API does not take: {r}"
    assert got == want["transport"]


@pytest.mark.parametrize("case", transcript_cases(), ids=lambda p: p.stem)
def test_transcript_fixture(case: pathlib.Path) -> None:
    c: Dict[str, Any] = json.loads(case.read_text())
    assert set(c) <= {"name", "description", "file", "format", "max_line_bytes", "page_size", "expect"}
    assert c["name"] == f"transcript/{case.stem}"
    if FILTER and FILTER not in c["name"]:
        pytest.skip("AH_FIXTURE")
    got = list(
        ah.read_transcript(
            str(case.parent / c["file"]),
            c.get("format", "auto"),
            max_line_bytes=c.get("max_line_bytes"),
            page_size=c.get("page_size", 256),
        )
    )
    assert got == c["expect"]


def test_transcript_errors_raise() -> None:
    with pytest.raises(ah.AgentHooksError) as e:
        list(ah.read_transcript("/nonexistent/agenthooks/t.jsonl"))
    assert e.value.code == "io"


def test_event_mcp_transport_is_lazy_and_reads_the_agents_config(tmp_path: pathlib.Path, monkeypatch: Any) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".claude.json").write_text(json.dumps({"mcpServers": {"tickets": {"command": "tix", "args": ["-v"], "env": {"T": "s3cret"}}}}))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("AGENTHOOKS_STATE_DIR", str(tmp_path / "state"))
    payload = {"session_id": "s1", "hook_event_name": "PreToolUse", "cwd": str(tmp_path),
               "tool_name": "mcp__tickets__create", "tool_input": {}, "tool_use_id": "t1"}
    ev = ah.decode("claude-code", json.dumps(payload).encode())
    t = ev.mcp_transport()
    assert t == {"server": "tickets", "transport": "stdio", "command": "tix", "args": ["-v"], "from_config": True,
                 "config_path": str(home / ".claude.json"), "scope": "user"}
    payload["tool_name"] = "Bash"
    assert ah.decode("claude-code", json.dumps(payload).encode()).mcp_transport() is None
