"""Typed events, lazy conversion, decisions, policy, enums and the
canonical JSON (identical to the CLI's)."""

from __future__ import annotations

import json
import subprocess
import time
from typing import Any, Dict, List, Type

import pytest

import agenthooks as ah
from agenthooks import _native

from conftest import CLI, FIXTURES, compact, load_json

KIND_CLASS: Dict[str, Type[ah.Event]] = {
    "session.start": ah.SessionStartEvent,
    "session.end": ah.SessionEndEvent,
    "prompt.submitted": ah.PromptEvent,
    "tool.pre": ah.ToolPreEvent,
    "tool.post": ah.ToolPostEvent,
    "tool.error": ah.ToolErrorEvent,
    "permission.request": ah.PermissionRequestEvent,
    "agent.stop": ah.StopEvent,
    "subagent.start": ah.SubagentStartEvent,
    "subagent.stop": ah.SubagentStopEvent,
    "compact.pre": ah.CompactPreEvent,
    "compact.post": ah.CompactPostEvent,
    "notification": ah.NotificationEvent,
    "file.edited": ah.FileEditedEvent,
    "model.request": ah.ModelRequestEvent,
    "model.response": ah.ModelResponseEvent,
    "other": ah.OtherEvent,
}


def decodable_cases() -> List[Dict[str, Any]]:
    out = []
    for f in sorted(FIXTURES.glob("*/*.json")):
        c = load_json(f)
        if f.parent.name != "router" and "payload" in c and "event" in c["expect"]:
            out.append(c)
    return out


def test_enums_list_exactly_the_core_ids() -> None:
    assert [p.value for p in ah.Provider] == _native.providers()
    assert [k.value for k in ah.Kind] == _native.kinds()
    assert [c.value for c in ah.Canonical] == _native.canonicals()
    assert [d.value for d in ah.DecisionKind] == _native.decision_kinds()
    assert sorted(KIND_CLASS) == sorted(_native.kinds())
    kind: str = "tool.pre"  # what events report
    assert kind == ah.Kind.TOOL_PRE and f"{ah.Kind.TOOL_PRE}" == "tool.pre"
    assert str(ah.Canonical.FILE_EDIT) == "file.edit"


def test_every_event_is_an_instance_of_its_kind_class() -> None:
    seen = set()
    for c in decodable_cases():
        ev = ah.decode(c["provider"], compact(c["payload"]), event=c.get("event"), variant=c.get("variant"))
        assert type(ev) is KIND_CLASS[ev.kind], c["name"]
        assert isinstance(ev, ah.Event)
        if isinstance(ev, (ah.ToolPreEvent, ah.ToolPostEvent, ah.ToolErrorEvent, ah.PermissionRequestEvent)):
            assert isinstance(ev.tool, ah.ToolCall)
        if isinstance(ev, ah.StopEvent):
            assert isinstance(ev.stop, ah.StopInfo)
        seen.add(ev.kind)
    assert issubclass(ah.SubagentStopEvent, ah.StopEvent)
    assert {"tool.pre", "tool.post", "prompt.submitted", "agent.stop", "session.start"} <= seen


def test_to_json_is_the_cli_canonical_json() -> None:
    if not CLI.exists():
        pytest.fail(f"{CLI} not built (make python-test builds it)")
    cases = decodable_cases()
    for c in cases[:: max(1, len(cases) // 40)]:
        data = compact(c["payload"])
        argv = [str(CLI), "decode", f"--provider={c['provider']}"]
        if c.get("event"):
            argv.append(f"--event={c['event']}")
        if c.get("variant"):
            argv.append(f"--variant={c['variant']}")
        out = subprocess.run(argv, input=data, capture_output=True, check=True).stdout.decode()
        ev = ah.decode(c["provider"], data, event=c.get("event"), variant=c.get("variant"))
        assert ev.to_json() + "\n" == out, c["name"]


def test_a_large_output_is_read_when_asked_and_whole() -> None:
    # 200 kB of output: the core keeps it as a span of the payload and
    # parses it on first read (Event::output); what Python sees, and the
    # canonical JSON, are the same as for any output.
    stdout = "line\twith \"quotes\" é \ud83d\n" * 6000
    payload = {
        "session_id": "s", "cwd": "/w", "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "make"}, "tool_response": {"stdout": stdout, "exit": 0},
        "tool_use_id": "t",
    }
    data = json.dumps(payload).encode()
    assert len(data) > 128 * 1024
    ev = ah.decode("claude-code", data)
    assert isinstance(ev, ah.ToolPostEvent)
    assert ev.output == {"stdout": stdout.replace("\ud83d", "\ufffd"), "exit": 0}
    if CLI.exists():
        out = subprocess.run([str(CLI), "decode", "--provider=claude-code"], input=data,
                             capture_output=True, check=True).stdout.decode()
        assert ev.to_json() + "\n" == out


def test_fields_and_views() -> None:
    payload = {
        "session_id": "s1", "transcript_path": "/t.jsonl", "cwd": "/srv", "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "mcp__github__create_issue",
        "tool_input": {"title": "x", "n": 1, "f": 1.5, "ok": True, "none": None, "list": [1, "a"]},
        "tool_use_id": "t1",
    }
    ev = ah.decode("claude", json.dumps(payload))
    assert isinstance(ev, ah.ToolPreEvent)
    assert (ev.provider, ev.native_name, ev.kind, ev.detection) == ("claude-code", "PreToolUse", "tool.pre", "config")
    assert (ev.session.id, ev.session.cwd, ev.session.transcript_path) == ("s1", "/srv", "/t.jsonl")
    assert ev.tool.canonical == ah.Canonical.MCP and ev.tool.name == "mcp__github__create_issue"
    assert ev.tool.mcp is not None and (ev.tool.mcp.server, ev.tool.mcp.tool) == ("github", "create_issue")
    assert ev.tool.input == payload["tool_input"]
    got = ev.tool.input
    assert type(got["n"]) is int and type(got["f"]) is float and got["ok"] is True and got["none"] is None
    assert ev.raw_json() == payload and json.loads(ev.raw) == payload
    assert ev.agent is None and ev.stop is None and ev.prompt is None and not ev.is_subagent
    assert ev.can("ask") and ev.can("updated_input") and not ev.can("continue")
    assert ev.can("patch_input")
    assert ev.capability.provider == "claude-code" and "deny" in ev.capability.decisions
    assert "ToolPreEvent" in repr(ev)


def test_input_is_a_fresh_dict_each_read() -> None:
    ev = ah.decode("claude-code", b'{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm install"},"tool_use_id":"t"}')
    assert isinstance(ev, ah.ToolPreEvent)
    d = ev.tool.input
    d["command"] = "npm ci"
    assert ev.tool.input == {"command": "npm install"}
    assert ev.tool.command == "npm install"


def test_conversion_is_lazy() -> None:
    # A payload with a huge input: reading one facet must not convert it.
    big: Dict[str, object] = {f"k{i}": {"v": [i, str(i)]} for i in range(100_000)}
    big["command"] = "ls"
    data = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                       "tool_input": big, "tool_use_id": "t"}).encode()
    ev = ah.decode("claude-code", data)
    assert isinstance(ev, ah.ToolPreEvent)
    t0 = time.perf_counter()
    for _ in range(100):
        assert ev.tool.command == "ls"
    facet = (time.perf_counter() - t0) / 100
    t0 = time.perf_counter()
    assert len(ev.tool.input) == 100_001
    whole = time.perf_counter() - t0
    assert facet * 50 < whole, (facet, whole)


def test_prompt_and_stop_events() -> None:
    p = ah.decode("claude-code", b'{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"hi"}')
    assert isinstance(p, ah.PromptEvent) and p.prompt == "hi"
    s = ah.decode("codex", b'{"session_id":"s","turn_id":"t","hook_event_name":"Stop","stop_hook_active":true,"last_assistant_message":"done"}')
    assert isinstance(s, ah.StopEvent)
    assert s.stop.previously_continued and s.stop.final_message == "done"
    assert s.stop.usage.input_tokens is None


def test_decisions() -> None:
    d = ah.deny("no").with_context("a").with_context("b").with_system_message("m").with_stop_agent("halt")
    assert (d.kind, d.reason, d.context, d.system_message, d.stop_agent, d.stop_reason) == (
        "deny", "no", ["a", "b"], "m", True, "halt")
    assert ah.Decision.from_json(d.to_json()) == d
    assert d.to_dict()["kind"] == "deny"
    assert ah.Decision("deny", reason="no", context=["a", "b"], system_message="m", stop_agent="halt") == d
    assert ah.no_decision() == ah.Decision("no-decision") and ah.no_decision().is_neutral
    u = ah.allow().with_updated_input({"command": "npm ci", "n": [1, 2.5, None]})
    assert u.updated_input == {"command": "npm ci", "n": [1, 2.5, None]}
    p = ah.allow().with_patch_input({"command": "npm ci", "timeout": None, "env": {"CI": "1"}})
    assert p.patch_input == {"command": "npm ci", "timeout": None, "env": {"CI": "1"}}
    assert ah.Decision("allow", patch_input={"timeout": None}).to_dict() == {"kind": "allow", "patch_input": {"timeout": None}}
    assert ah.Decision.from_json(p.to_json()) == p and p.rewrite_conflicts == []
    assert ah.replace_output({"ok": 1}).replaced_output == {"ok": 1}
    assert ah.continue_with("go").instruction == "go"
    assert ah.allow().with_native({"x": True}).native == {"x": True}
    for mk in (ah.allow, ah.defer, ah.accept_prompt, ah.finish, ah.observed, ah.no_decision):
        assert isinstance(mk(), ah.Decision)
    for mk1 in (ah.deny, ah.ask, ah.block_prompt, ah.flag_output):
        assert mk1("r").reason == "r"
    with pytest.raises(TypeError):
        ah.allow().with_updated_input({1: "non-str key"})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        ah.replace_output(object())
    with pytest.raises(ValueError):
        ah.replace_output(float("nan"))
    with pytest.raises(TypeError):
        hash(ah.allow())


def test_policy() -> None:
    p = ah.Policy(fail="closed", ask_fallback="no_decision", continuation_cap=0, timeout_ms=500)
    assert (p.fail, p.unsupported, p.ask_fallback, p.continuation_cap, p.timeout_ms) == (
        "closed", "degrade", "no_decision", 0, 500)
    assert ah.Policy.from_json(p.to_json()) == p
    assert ah.Policy().deadline_ms(10) == 9000 and ah.Policy().deadline_ms() == 55_000
    assert p.deadline_ms(10) == 500
    assert p.headless_ask == "deny"
    h = ah.Policy(headless_ask="no_decision")
    assert h.headless_ask == "no_decision" and ah.Policy.from_json(h.to_json()) == h
    assert ah.Policy.from_json('{"headless_ask":"native"}').headless_ask == "native"
    with pytest.raises(ah.InvalidArgumentError):
        ah.Policy(headless_ask="ask")


def test_capabilities_and_lookups() -> None:
    assert "PreToolUse" in ah.native_events("claude-code")
    cap = ah.capability_of("codex", "PreToolUse")
    assert cap.kind == "tool.pre" and cap.can("deny") and not cap.can("ask")
    assert ah.kind_of("claude-code", "Stop") == "agent.stop"
    assert ah.parse_provider("claude") == "claude-code" and ah.parse_kind("PreToolUse") == "tool.pre"


def test_detect() -> None:
    payload = b'{"session_id":"s","hook_event_name":"preToolUse","conversation_id":"c","generation_id":"g","cursor_version":"1.7.2"}'
    p, how, _variant = ah.detect(env={}, payload=payload)
    assert (p, how) == ("cursor", "shape")
    assert ah.detect("codex", env={})[:2] == ("codex", "config")
    with pytest.raises(ah.InvalidArgumentError):
        ah.detect(env={}, payload=b"{}")


def test_quirks() -> None:
    every = ah.quirks()
    claude = ah.quirks("claude")
    assert claude and all(q["provider"] == "claude-code" for q in claude)
    assert {q["id"] for q in claude} <= {q["id"] for q in every}
    assert {"id", "behaviour", "mitigation", "fixture"} <= set(every[0])


def test_response_and_notes() -> None:
    ev = ah.decode("codex", b'{"session_id":"s","turn_id":"t","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}')
    r = ah.respond(ev, ah.ask("why"))
    assert r.exit_code == 0 and json.loads(r.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert [(n.code, n.from_, n.to) for n in r.notes] == [("degraded", "ask", "deny")]
    assert json.loads(r.to_json())["notes"][0]["code"] == "degraded"
    assert ah.Response(stderr="x", exit_code=2) == ah.Response(stderr="x", exit_code=2)


def test_version_is_the_workspace_version() -> None:
    import re
    from conftest import ROOT

    cargo = (ROOT / "Cargo.toml").read_text()
    m = re.search(r'\[workspace\.package\][^\[]*?\nversion = "([^"]+)"', cargo)
    assert m, "workspace version"
    assert ah.__version__ == m.group(1).replace("-alpha.", "a").replace("-beta.", "b").replace("-rc.", "rc")
