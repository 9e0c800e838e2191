"""The host side and installation from Python (agenthooks/host.py over the
core's host::json and install::json): a real hook process run as Claude
Code would run it, matchers in both agents' regex flavours, and a real
install -> idempotent reinstall -> uninstall into a temporary project."""

from __future__ import annotations

import json
import pathlib
import subprocess
from typing import Any, Dict

import pytest

import agenthooks as ah

from conftest import PYTHON

MANIFEST = """\
id = "guard"
program = "/opt/guard"

[[hooks]]
id = "pre"
kind = "tool.pre"
match = "shell"
"""


def payload(tool: str, command: str = "rm -rf /") -> Dict[str, Any]:
    return {
        "session_id": "s",
        "cwd": "/tmp",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command},
        "tool_use_id": "t",
    }


def test_host_run_exit_2_blocks(tmp_path: pathlib.Path) -> None:
    settings = tmp_path / "settings.json"
    hook = {"type": "command", "command": "echo 'no rm -rf' >&2; exit 2"}
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}))
    req: ah.HostRequest = {
        "dialect": "claude-code",
        "configs": [{"path": str(settings)}],
        "event": payload("Bash"),
        "cwd": str(tmp_path),
    }
    out = ah.host_run(req)
    assert out["dialect"] == "claude-code" and out["event"] == "PreToolUse"
    assert out["outcome"]["decision"] == "deny"
    assert out["outcome"]["reason"] == "no rm -rf"
    [run] = out["hooks"]
    assert run["exit_code"] == 2 and not run["timed_out"]
    assert run["hook"].startswith(str(settings))
    assert [a["record"] for a in out["audit"]] == ["invoked", "result"]
    assert out["warnings"] == []

    # The matcher does not select Write: nothing runs, nothing is decided.
    quiet = ah.host_run({**req, "event": payload("Write")})
    assert quiet["hooks"] == [] and "decision" not in quiet["outcome"]

    # The same configuration given as text, labelled.
    text = ah.host_run({**req, "configs": [{"source": "inline", "text": settings.read_text()}]})
    assert text["outcome"]["decision"] == "deny"
    assert text["hooks"][0]["hook"].startswith("inline")


def test_host_run_errors() -> None:
    # An invalid matcher skips its group, as the agent does; strict refuses.
    bad_matcher = {"hooks": {"PreToolUse": [{"matcher": "Bash(", "hooks": [{"type": "command", "command": "x"}]}]}}
    req: Dict[str, Any] = {"dialect": "claude-code", "configs": [{"text": json.dumps(bad_matcher)}], "event": payload("Bash")}
    skipped = ah.host_run(req)  # type: ignore[arg-type]
    assert skipped["hooks"] == [] and [d["code"] for d in skipped["warnings"]] == ["invalid_regex"]
    strict: Dict[str, Any] = {**req, "strict": True}
    with pytest.raises(ah.HookConfigError) as e:
        ah.host_run(strict)  # type: ignore[arg-type]
    assert e.value.code == "config_rejected"
    assert [d["code"] for d in e.value.diagnostics] == ["invalid_regex"]
    assert isinstance(e.value, ValueError)

    with pytest.raises(ah.InvalidArgumentError) as u:
        ah.host_run({"dialect": "nope", "event": payload("Bash")})
    assert u.value.code == "unknown_provider"
    with pytest.raises(ah.InvalidArgumentError) as k:
        ah.host_run({"dialect": "codex", "event": {}, "bogus": 1})  # type: ignore[typeddict-unknown-key]
    assert k.value.code == "invalid_argument"
    with pytest.raises(ah.AgentHooksIOError):
        ah.host_run({"dialect": "codex", "configs": [{"path": "/nonexistent/hooks.json"}], "event": payload("Bash")})


def test_host_run_strict_refuses_what_lenient_skips() -> None:
    # A group whose matcher Claude Code cannot compile, next to a good one.
    mixed = {
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash(", "hooks": [{"type": "command", "command": "echo bad >&2; exit 2"}]},
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo good >&2; exit 2"}]},
            ]
        }
    }
    req: ah.HostRequest = {
        "dialect": "claude-code",
        "configs": [{"source": "settings.json", "text": json.dumps(mixed)}],
        "event": payload("Bash", "ls"),
    }
    lenient: ah.HostRequest = {**req, "strict": False}
    for r in (req, lenient):
        out = ah.host_run(r)
        [run] = out["hooks"]
        assert "good" in run["command"] and run["exit_code"] == 2
        assert out["outcome"]["decision"] == "deny" and out["outcome"]["reason"] == "good"
        assert [(d["code"], d["severity"], d.get("group_index")) for d in out["warnings"]] == [
            ("invalid_regex", "error", 0)
        ]
    strict: ah.HostRequest = {**req, "strict": True}
    with pytest.raises(ah.HookConfigError) as e:
        ah.host_run(strict)
    assert e.value.code == "config_rejected"
    assert [d["code"] for d in e.value.diagnostics] == ["invalid_regex"]


def test_matcher_in_both_dialects() -> None:
    assert ah.matcher_test("claude-code", "Bash|Write", ["Bash", "Edit", "Write"]) == [True, False, True]
    assert ah.matcher_test("codex", "(?i)^bash$", ["BASH", "Write"]) == [True, False]
    assert ah.matcher_test("codex", "^mcp__.*", ["mcp__fs__read", "Bash"]) == [True, False]
    assert ah.matcher_test("claude-code", "", ["Bash", "anything"]) == [True, True]
    # `(?i)` is Rust regex, not ECMAScript: Claude Code rejects it.
    with pytest.raises(ah.HookConfigError) as e:
        ah.matcher_test("claude-code", "(?i)bash", ["Bash"])
    assert e.value.code == "invalid_regex"
    assert e.value.diagnostics[0]["pattern"] == "(?i)bash"
    with pytest.raises(ah.AgentHooksError) as c:
        ah.matcher_test("codex", "[", [])
    assert c.value.code == "invalid_regex"
    # A catastrophic ECMAScript pattern is decided by its linear-time twin.
    assert ah.matcher_test("codex", "(a+)+$", ["aaa"]) == [True]
    assert ah.matcher_test("claude-code", "(a+)+$", ["aaa", "a" * 5000 + "!"]) == [True, False]
    with pytest.raises(ah.InvalidArgumentError):
        ah.matcher_test("codex", "x", "x")


def test_install_reinstall_uninstall(tmp_path: pathlib.Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    settings = project / ".claude" / "settings.json"
    where: Dict[str, Any] = {"agent": "claude-code,codex", "project": project, "home": home, "env": {}}

    dry = ah.install(MANIFEST, dry_run=True, **where)
    assert [r["agent"] for r in dry["results"]] == ["claude-code", "codex"]
    assert all(r["changed"] for r in dry["results"])
    assert "/opt/guard" in dry["results"][0]["diff"]
    assert not settings.exists(), "a dry run writes nothing"

    done = ah.install(MANIFEST, **where)
    assert all(r["changed"] for r in done["results"]), done
    text = settings.read_text()
    assert "/opt/guard" in text and "--provider=claude-code" in text
    assert "--provider=codex" in (project / ".codex" / "hooks.json").read_text()

    again = ah.install(MANIFEST, **where)
    assert [r["changed"] for r in again["results"]] == [False, False], "idempotent"
    assert settings.read_text() == text

    report = ah.doctor(project=project, home=home, env={})
    ours = {o["hook_id"] for a in report["agents"] if a["agent"] == "claude-code" for o in a["ours"]}
    assert ours == {"guard:pre"}

    gone = ah.uninstall(MANIFEST, **where)
    assert all(r["changed"] for r in gone["results"]), gone
    assert "/opt/guard" not in (settings.read_text() if settings.exists() else "")
    assert [r["changed"] for r in ah.uninstall(MANIFEST, **where)["results"]] == [False, False]


def test_install_inputs(tmp_path: pathlib.Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    as_file = tmp_path / "hooks.toml"
    as_file.write_text(MANIFEST)
    from_path = ah.install(as_file, agent="claude-code", project=project, home=tmp_path, env={}, dry_run=True)
    as_dict = {"id": "guard", "program": "/opt/guard", "hooks": [{"id": "pre", "kind": "tool.pre", "match": "shell"}]}
    from_dict = ah.install(as_dict, agent="claude-code", project=project, home=tmp_path, env={}, dry_run=True)
    assert from_path["results"][0]["files"] == from_dict["results"][0]["files"]

    # An agent that cannot take the scope reports an error; the others are done.
    every = ah.install(MANIFEST, project=project, home=tmp_path, env={}, dry_run=True)
    assert len(every["results"]) == len(ah.Provider)
    assert all(("error" in r) != ("changed" in r) for r in every["results"])
    assert any(r.get("changed") for r in every["results"])

    with pytest.raises(ah.InvalidArgumentError) as m:
        ah.install("id = ", project=project, dry_run=True)
    assert m.value.code == "manifest"
    with pytest.raises(ah.AgentHooksError) as a:
        ah.install(MANIFEST, agent="emacs", project=project, dry_run=True)
    assert a.value.code == "unknown_provider"
    with pytest.raises(ah.InvalidArgumentError):
        ah.install(MANIFEST, scope="galaxy", project=project, dry_run=True)


def test_host_module_loads_on_first_use() -> None:
    code = (
        "import sys, agenthooks as ah\n"
        "assert 'agenthooks.host' not in sys.modules\n"
        "assert ah.matcher_test('codex', 'a', ['a']) == [True]\n"
        "assert 'agenthooks.host' in sys.modules\n"
    )
    p = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
