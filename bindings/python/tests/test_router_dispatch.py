"""Runs every fixtures/router/dispatch/*.json vector (format in
fixtures/router/README.md) through the Python Router, a driver over the
core's dispatch table. ``async`` entries are ``async def`` here."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import pytest

import agenthooks as ah

DIR = Path(__file__).resolve().parents[3] / "fixtures" / "router" / "dispatch"
FILES = sorted(DIR.glob("*.json"))


def decision(v: Any) -> ah.Decision:
    return ah.Decision.from_json(json.dumps(v))


def handler(e: Dict[str, Any], calls: List[str]) -> Callable[..., Any]:
    does = e["does"]

    def body() -> Optional[ah.Decision]:
        calls.append(e["id"])
        if "error" in does:
            raise RuntimeError(does["error"])
        return decision(does["decision"]) if "decision" in does else None

    if e.get("async"):

        async def run_async(ev: ah.Event) -> Optional[ah.Decision]:
            await asyncio.sleep(0)
            return body()

        return run_async
    return lambda ev: body()


def middleware(e: Dict[str, Any], calls: List[str]) -> Callable[..., Any]:
    does = e["does"]

    def body(ev: ah.Event, next: ah.Next) -> Optional[ah.Decision]:
        calls.append(e["id"])
        inner: Optional[ah.Decision] = None
        err: Optional[BaseException] = None
        for _ in range(does.get("next", 0)):
            try:
                d = next(ev)
                inner = inner if inner is not None else d
            except Exception as x:
                err = x
        if "error" in does:
            raise RuntimeError(does["error"])
        ret = does.get("return")
        if ret == "inner":
            if inner is None and err is not None:
                raise err
            return inner
        return None if ret is None else decision(ret)

    if e.get("async"):

        async def run_async(ev: ah.Event, next: ah.Next) -> Optional[ah.Decision]:
            await asyncio.sleep(0)
            return body(ev, next)

        return run_async
    return body


def observer(e: Dict[str, Any], calls: List[str]) -> Callable[..., Any]:
    does = e["does"]

    def body() -> None:
        calls.append(e["id"])
        if "error" in does:
            raise RuntimeError(does["error"])

    if e.get("async"):

        async def run_async(ev: ah.Event) -> None:
            await asyncio.sleep(0)
            body()

        return run_async
    return lambda ev: body()


def build(c: Dict[str, Any], calls: List[str]) -> ah.Router:
    r = ah.Router()
    for e in c["entries"]:
        role, on = e["role"], e["on"]
        if role == "observer":
            r.on_any(observer(e, calls))
        elif role == "middleware":
            r.middleware(middleware(e, calls))
        else:
            h = handler(e, calls)
            w = e.get("when")
            if w == "guard":
                held: bool = e["guard"]

                def guard(t: ah.ToolCall, held: bool = held) -> bool:
                    return held

                h = ah.when(guard, h)
            elif w is not None and w.startswith("canonical:"):
                h = ah.when(ah.Canonical(w[len("canonical:"):]), h)
            elif w is not None:
                h = ah.when(w[len("names:"):], h)
            if on.startswith("native:"):
                r.on_native(on[len("native:"):])(h)
            else:
                r.add(on[len("kind:"):], h)
    return r


def test_every_dispatch_vector_is_here() -> None:
    assert len(FILES) >= 20


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_dispatch_vector(path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    c = json.loads(path.read_text())
    assert c["name"] == f"router/dispatch/{path.stem}"
    ev = ah.decode(c["event"]["provider"], json.dumps(c["event"]["payload"]).encode())
    calls: List[str] = []
    r = build(c, calls)
    assert r.handles(ev) == c["handles"]
    want = c["expect"]
    if "error" in want:
        # A handler's own exception propagates from decide (the runtime
        # answers it as handler_error); the core's errors carry their code.
        with pytest.raises(Exception) as info:
            r.decide(ev)
        code = info.value.code if isinstance(info.value, ah.AgentHooksError) else "handler_error"
        assert code == want["error"]["code"]
    else:
        got = r.decide(ev)
        assert json.loads(got.to_json()) == json.loads(decision(want["decision"]).to_json())
    assert calls == c["calls"]
    failing = [e for e in c["entries"] if e["role"] == "observer" and "error" in e["does"]]
    err = capfd.readouterr().err
    for e in failing:
        assert f"an on_any observer failed (ignored): RuntimeError: {e['does']['error']}" in err
