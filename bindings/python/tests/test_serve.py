"""`<program> agenthooks serve`: the shared serve vectors (fixtures/serve/,
frames in, frames out, the same files the Rust and Go suites run) through
the Python serve loop, and its bounds."""

from __future__ import annotations

import base64
import io
import json
import os
import pathlib
import threading
import time
from typing import Any, Dict, List, Set

import agenthooks as ah
from agenthooks import _native
from agenthooks.runtime import _serve

from conftest import FIXTURES, load_json

SERVE = FIXTURES / "serve"
FIELDS = {"name", "description", "provider", "args", "input", "output", "in_order"}


def vector_router() -> ah.Router:
    """The vector router of fixtures/serve/README.md."""
    r = ah.Router()

    @r.on_tool_pre
    def gate(e: ah.ToolPreEvent) -> ah.Decision:
        cmd = e.tool.command or ""
        if "rm -rf" in cmd:
            return ah.deny("destructive command")
        if cmd == "fail":
            raise ah.AgentHooksError("boom", code="handler_error")
        if cmd == "slow":
            time.sleep(3)
        if cmd.startswith("sleep ") and cmd[6:].isdigit():
            time.sleep(int(cmd[6:]) / 1000)
        return ah.no_decision()

    return r


def line_of(entry: Any) -> bytes:
    if isinstance(entry, str):
        return entry.encode()
    assert isinstance(entry, dict), entry
    if "$b64" in entry:
        return base64.b64decode(str(entry["$b64"]))
    if "$gen" in entry:
        g = entry["$gen"]
        return (str(g["prefix"]) + str(g["fill"]) * int(g["repeat"]) + str(g["suffix"])).encode()
    return json.dumps(entry, separators=(",", ":"), ensure_ascii=False).encode()


def semver_to_pep440(v: str) -> str:
    """The inverse view of bindings/python/src/lib.rs `pep440`, for
    comparing the core's version with the package's."""
    base, _, pre = v.partition("-")
    if not pre:
        return v
    tag, _, num = pre.partition(".")
    tag = {"alpha": "a", "a": "a", "beta": "b", "b": "b", "rc": "rc"}.get(tag, "")
    return f"{base}{tag}{num or '0'}" if tag else f"{base}.dev0"


def expand(v: Any, version: str) -> Any:
    if v == "$VERSION":
        return version
    if isinstance(v, list):
        return [expand(x, version) for x in v]
    if isinstance(v, dict):
        return {k: expand(x, version) for k, x in v.items()}
    return v


def serve_lines(router: ah.Router, argv: List[str], data: bytes, state: pathlib.Path) -> List[Dict[str, Any]]:
    args = _native.parse_args(["hook", "agenthooks", "serve", *argv], state_dir=str(state))
    assert args is not None
    chunks: List[bytes] = []
    assert _serve(router, args, io.BytesIO(data), chunks.append) == 0
    # What main() writes: one JSON line per frame.
    out = b"".join(chunks)
    assert out == b"" or out.endswith(b"\n")
    return [json.loads(line) for line in out.splitlines()]


def threads() -> int:
    """OS threads of this process (`_thread` workers included)."""
    return len(os.listdir("/proc/self/task"))


def canon(f: Any) -> str:
    return json.dumps(f, sort_keys=True, separators=(",", ":"))


def test_serve_vectors(tmp_path: pathlib.Path) -> None:
    files = sorted(SERVE.glob("*.json"))
    assert len(files) >= 8, "too few serve vectors"
    names: Set[str] = set()
    failures: List[str] = []
    ran = 0
    for i, f in enumerate(files):
        v = load_json(f)
        assert set(v) <= FIELDS and {"name", "description", "provider", "input", "output"} <= set(v), f
        assert v["name"] == f"serve/{f.stem}" and v["name"] not in names
        names.add(v["name"])
        data = b"".join(line_of(e) + b"\n" for e in v["input"])
        got = serve_lines(vector_router(), [f"--provider={v['provider']}", *v.get("args", [])], data, tmp_path / str(i))
        hello = next((g["hello"]["version"] for g in got if "hello" in g), None)
        if hello is not None:
            assert semver_to_pep440(hello) == _native.__version__, hello
        want = [expand(w, hello or "") for w in v["output"]]
        ran += 1
        if sorted(map(canon, got)) != sorted(map(canon, want)):
            failures.append(
                f"{v['name']}:\n  unexpected {[canon(g) for g in got if g not in want]}"
                f"\n  missing {[canon(w) for w in want if w not in got]}"
            )
            continue
        if want and "hello" in want[0] and got[0] != want[0]:
            failures.append(f"{v['name']}: the hello reply must come first")
        for order in v.get("in_order", []):
            pos = [next(i for i, g in enumerate(got) if g.get("seq") == s) for s in order]
            if pos != sorted(pos):
                failures.append(f"{v['name']}: {order} out of order")
    print(f"serve vectors: ran {ran} of {len(files)}")
    assert ran == len(files)
    assert not failures, "\n\n".join(failures)


def test_hung_handlers_are_capped(tmp_path: pathlib.Path) -> None:
    """Handlers past their deadline are abandoned on their threads; while
    SERVE_ABANDONED_CAP of them still run, requests are refused with the
    fail policy's answer instead of starting more threads (the thread
    count stays bounded: the cap, plus the requests handed out before it
    was reached, at most the bridge's queue)."""
    release = threading.Event()
    r = ah.Router(policy=ah.Policy(fail="closed", timeout_ms=10))

    @r.on_tool_pre
    def hang(e: ah.ToolPreEvent) -> ah.Decision:
        release.wait(30)
        return ah.no_decision()

    cap = _native.SERVE_ABANDONED_CAP
    args = _native.parse_args(["hook", "agenthooks", "serve", "--provider=opencode"])
    assert args is not None
    workers = _native.Bridge(args, r.policy).workers
    # Up to 5 * workers requests are handed out at once: past the cap plus
    # those, requests are refused.
    n = cap + 5 * workers + 8
    lines = [
        json.dumps({"seq": i, "hook": "tool.execute.before",
                    "input": {"tool": "bash", "sessionID": f"s{i}", "callID": f"c{i}"},
                    "output": {"args": {"command": "ls"}}})
        for i in range(n)
    ]
    before = threads()
    try:
        got = serve_lines(r, ["--provider=opencode"], "\n".join(lines).encode(), tmp_path)
        assert threads() - before <= cap + 6 * workers
    finally:
        release.set()
    assert sorted(g["seq"] for g in got) == list(range(n))
    codes = [g["error"]["code"] for g in got]
    assert set(codes) == {"handler_timeout", "handler_error"}, codes
    assert codes.count("handler_timeout") >= cap
    for g in got:
        assert g["output"]["throw"].startswith("Blocked because the hook failed"), g
    refused = [g for g in got if g["error"]["code"] == "handler_error"]
    assert refused[-1]["error"]["message"].endswith(_native.SERVE_OVERLOADED + " (fail-closed: block)")


def test_reply_order_holds_when_a_later_frame_is_answered_inline(
    tmp_path: pathlib.Path, monkeypatch: Any
) -> None:
    """A session's replies keep its frames' order even when the bridge has
    handed out a reply that is not written yet and the next frame of that
    session is answered inline by the reader. The bridge is wrapped so that
    the gap between the bridge's answer and its write is wide; the reader
    sends the session's second frame inside that gap."""
    real_bridge = _native.Bridge
    finished = threading.Event()

    class SlowToWrite:
        def __init__(self, *a: Any) -> None:
            self._b = real_bridge(*a)

        def __getattr__(self, name: str) -> Any:
            return getattr(self._b, name)

        def finish(self, *a: Any) -> Any:
            out = self._b.finish(*a)
            if not finished.is_set():
                finished.set()
                time.sleep(0.3)  # the reply is handed out, not yet written
            return out

    monkeypatch.setattr(_native, "Bridge", SlowToWrite)
    first = {"seq": 1, "hook": "tool.execute.before", "input": {"tool": "bash", "sessionID": "ses_A", "callID": "c1"},
             "output": {"args": {"command": "ls"}}}
    second = {"seq": 2, "hook": "tool.execute.after", "input": {"tool": "bash", "sessionID": "ses_A", "callID": "c1"},
              "output": {"title": "", "output": "ok", "metadata": {}}}

    class Stdin:
        def __init__(self) -> None:
            self.lines = [line_of(first) + b"\n", line_of(second) + b"\n"]

        def readline(self, limit: int = -1) -> bytes:
            if not self.lines:
                return b""
            if len(self.lines) == 1:
                assert finished.wait(10), "the first frame was never answered"
            return self.lines.pop(0)

    args = _native.parse_args(["hook", "agenthooks", "serve", "--provider=opencode"], state_dir=str(tmp_path))
    assert args is not None
    chunks: List[bytes] = []
    assert _serve(vector_router(), args, Stdin(), chunks.append) == 0  # type: ignore[arg-type]
    seqs = [json.loads(line).get("seq") for line in b"".join(chunks).splitlines()]
    assert seqs == [1, 2], seqs
