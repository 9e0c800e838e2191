"""Router semantics: stacking, when/any_of/all_of, observers, middleware,
native handlers, async handlers, return values (the merge rules
themselves are pinned by fixtures/router through test_fixtures.py)."""

from __future__ import annotations

import asyncio
import threading
from typing import List, Optional

import pytest

import agenthooks as ah


def pre(command: str = "ls", tool: str = "Bash") -> ah.ToolPreEvent:
    ev = ah.decode(
        "claude-code",
        '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"%s",'
        '"tool_input":{"command":"%s","file_path":"/a"},"tool_use_id":"t"}' % (tool, command),
    )
    assert isinstance(ev, ah.ToolPreEvent)
    return ev


def test_stacking_when_and_native() -> None:
    r = ah.Router()

    @r.on_tool_pre
    def first(e: ah.ToolPreEvent) -> ah.Decision:
        if "rm" in (e.tool.command or ""):
            return ah.deny("rm")
        return ah.no_decision().with_context("seen")

    r.on_tool_pre(ah.when(ah.Canonical.SHELL, lambda e: ah.ask("shell")))
    r.on_tool_pre(ah.when("Write|Edit", lambda e: ah.deny("never for Bash")))
    assert r.decide(pre("rm -rf x")).kind == "deny"
    d = r.decide(pre("ls"))
    assert (d.kind, d.context) == ("ask", ["seen"])
    other = ah.decode("claude-code", b'{"session_id":"s","hook_event_name":"ConfigChange","source":"user_settings"}')
    assert other.kind == "other"
    assert r.decide(other) == ah.no_decision()

    @r.on_native("ConfigChange")
    def config(e: ah.Event) -> ah.Decision:
        return ah.no_decision().with_system_message("config changed")

    assert r.decide(other).system_message == "config changed"
    assert r.handles(other) and r.handles(pre())
    assert not ah.Router().handles(pre())


def test_when_matchers() -> None:
    hit = lambda e: ah.deny("hit")  # noqa: E731
    assert ah.when("Write|Edit", hit)(pre(tool="Edit")) == ah.deny("hit")
    assert ah.when("Write|Edit", hit)(pre(tool="Bash")) is None
    # A plain string names tools, a Canonical names a class: Codex's tool
    # is literally called "shell", Claude's is "Bash".
    assert ah.when("shell", hit)(pre(tool="Bash")) is None
    assert ah.when(ah.Canonical.SHELL, hit)(pre(tool="Bash")) == ah.deny("hit")
    assert ah.when(lambda t: t.paths == ["/a"], hit)(pre()) == ah.deny("hit")
    prompt = ah.decode("claude-code", b'{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"x"}')
    assert ah.when(lambda t: True, hit)(prompt) is None  # no tool call: never matches


def test_kinds_register_by_any_spelling() -> None:
    r = ah.Router()
    r.add("PreToolUse", lambda e: ah.deny("a"))
    assert r.decide(pre()).kind == "deny"
    r2 = ah.Router()

    @r2.on(ah.Kind.TOOL_PRE)
    def h(e: ah.Event) -> ah.Decision:
        return ah.allow()

    assert r2.decide(pre()).kind == "allow"
    with pytest.raises(ah.InvalidArgumentError):
        r2.add("launch", h)


def test_none_means_no_decision_and_other_returns_fail() -> None:
    r = ah.Router()
    r.on_tool_pre(lambda e: None)
    assert r.decide(pre()) == ah.no_decision()
    r.on_tool_pre(lambda e: "deny")  # type: ignore[type-var]
    with pytest.raises(ah.HandlerError) as info:
        r.decide(pre())
    assert info.value.code == "handler_error" and "str" in str(info.value)


def test_observers_and_middleware() -> None:
    order: List[str] = []
    r = ah.Router()

    @r.middleware
    def outer(e: ah.Event, next: ah.Next) -> ah.Decision:
        order.append("outer")
        return next(e)

    @r.middleware
    def inner(e: ah.Event, next: ah.Next) -> ah.Decision:
        order.append("inner")
        return next(e).with_context("from middleware")

    seen: List[str] = []
    r.on_any(lambda e: seen.append(e.kind))
    r.on_tool_pre(lambda e: ah.allow())
    d = r.decide(pre())
    assert (d.kind, d.context) == ("allow", ["from middleware"])
    assert order == ["outer", "inner"] and seen == ["tool.pre"]

    twice = ah.Router()

    @twice.middleware
    def again(e: ah.Event, next: ah.Next) -> ah.Decision:
        next(e)
        return next(e)

    with pytest.raises(ah.HandlerError) as info:
        twice.decide(pre())
    assert info.value.code == "handler_error"


def test_async_handlers_observers_and_middleware() -> None:
    r = ah.Router()
    seen: List[str] = []

    @r.on_any
    async def observe(e: ah.Event) -> None:
        await asyncio.sleep(0)
        seen.append("observed")

    @r.middleware
    async def mw(e: ah.Event, next: ah.Next) -> ah.Decision:
        await asyncio.sleep(0)
        return next(e).with_system_message("async middleware")

    @r.on_tool_pre
    async def first(e: ah.ToolPreEvent) -> Optional[ah.Decision]:
        await asyncio.sleep(0.01)
        return None

    @r.on_tool_pre
    async def second(e: ah.ToolPreEvent) -> ah.Decision:
        return ah.deny("async says no")

    d = r.decide(pre())
    assert (d.kind, d.reason, d.system_message) == ("deny", "async says no", "async middleware")
    assert seen == ["observed"]
    # From async code: decide_async keeps the caller's loop running.
    d2 = asyncio.run(r.decide_async(pre()))
    assert d2 == d
    # decide() called inside a running loop still works (helper thread).

    async def inside() -> ah.Decision:
        return r.decide(pre())

    assert asyncio.run(inside()) == d


def test_any_of_and_all_of_are_handlers() -> None:
    r = ah.Router()
    r.on_tool_pre(ah.all_of(lambda e: ah.allow(), lambda e: ah.ask("a").with_context("1"), lambda e: ah.deny("d")))
    d = r.decide(pre())
    assert (d.kind, d.reason, d.context) == ("deny", "d", ["1"])
    calls: List[int] = []

    def count(dec: ah.Decision) -> ah.Handler[ah.Event]:
        def h(e: ah.Event) -> ah.Decision:
            calls.append(1)
            return dec

        return h

    stacked = ah.any_of(count(ah.no_decision().with_context("a")), count(ah.deny("x")), count(ah.allow()))
    d = stacked(pre())
    assert (d.kind, d.context, len(calls)) == ("deny", ["a"], 2)


def test_handler_exceptions_propagate_from_decide() -> None:
    r = ah.Router()

    @r.on_tool_pre
    def boom(e: ah.ToolPreEvent) -> ah.Decision:
        raise RuntimeError("db down")

    with pytest.raises(RuntimeError):
        r.decide(pre())


def test_router_is_usable_from_threads() -> None:
    r = ah.Router()

    @r.on_tool_pre
    async def h(e: ah.ToolPreEvent) -> ah.Decision:
        await asyncio.sleep(0.001)
        return ah.allow()

    out: List[str] = []
    ts = [threading.Thread(target=lambda: out.append(r.decide(pre()).kind)) for _ in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert out == ["allow"] * 8
