"""`ah.main` end to end, as real hook processes.

The Python example guard must answer every payload of every agent exactly
as the Rust example guard does (same stdout, stderr and exit code); the
deadline abandons hung handlers (sync and async) and the process still
exits promptly; nothing but the answer reaches stdout.
"""

from __future__ import annotations

import base64
import json
import os
import pathlib
import subprocess
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Optional, Tuple

import pytest

import agenthooks as ah
from agenthooks import _native

from conftest import (
    EXAMPLE_GUARD,
    FIXTURES,
    PYTHON,
    RUST_GUARD,
    compact,
    load_json,
    run_hook,
)

PRE = b'{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}'
Answer = Tuple[str, str, int]


def script(tmp_path: pathlib.Path, body: str) -> List[str]:
    path = tmp_path / "hook.py"
    path.write_text("import agenthooks as ah\n" + textwrap.dedent(body))
    return [PYTHON, str(path)]


def answer(p: "subprocess.CompletedProcess[bytes]") -> Answer:
    return p.stdout.decode(), p.stderr.decode(), p.returncode


def guard_cases() -> List[Tuple[str, List[str], bytes]]:
    """(name, argv tail, stdin) for every provider fixture payload (all
    forms but the generated giants)."""
    out = []
    for f in sorted(FIXTURES.glob("*/*.json")):
        if f.parent.name == "router":
            continue
        c = load_json(f)
        if "payload" in c:
            data = compact(c["payload"])
        elif "payload_text" in c:
            data = c["payload_text"].encode()
        elif "payload_b64" in c:
            data = base64.b64decode(c["payload_b64"])
        else:
            continue
        tail = ["agenthooks", "run", f"--provider={c['provider']}"]
        if c.get("event"):
            tail.append(f"--event={c['event']}")
        if c.get("variant"):
            tail.append(f"--variant={c['variant']}")
        out.append((c["name"], tail, data))
    return out


def run_all(argv0: List[str], cases: List[Tuple[str, List[str], bytes]], state: pathlib.Path) -> List[Answer]:
    env = dict(os.environ, AGENTHOOKS_STATE_DIR=str(state))
    return [answer(run_hook(argv0 + tail, data, env)) for _name, tail, data in cases]


def test_python_guard_answers_like_the_rust_guard(tmp_path: pathlib.Path) -> None:
    if not RUST_GUARD.exists():
        pytest.fail(f"{RUST_GUARD} not built (make python-test builds it)")
    cases = guard_cases()
    providers = {tail[2] for _n, tail, _d in cases}
    assert len(providers) >= 5, providers
    # The two sequences run side by side, each in order, each with its own
    # state dir (the stop loop guard counts across processes).
    with ThreadPoolExecutor(2) as pool:
        py = pool.submit(run_all, [PYTHON, str(EXAMPLE_GUARD)], cases, tmp_path / "py")
        rs = pool.submit(run_all, [str(RUST_GUARD)], cases, tmp_path / "rs")
        got, want = py.result(), rs.result()
    diffs = [
        f"{name}:\n  python {g}\n  rust   {w}"
        for (name, _t, _d), g, w in zip(cases, got, want)
        if g != w
    ]
    assert not diffs, f"{len(diffs)} of {len(cases)} differ:\n" + "\n".join(diffs[:20])
    decisions = {json.loads(g[0]).get("hookSpecificOutput", {}).get("permissionDecision")
                 for g in got if g[0].startswith("{")}
    assert {"deny", "allow"} <= decisions  # the guard really decided things


def test_stray_output_goes_to_stderr(tmp_path: pathlib.Path) -> None:
    argv = script(tmp_path, """
        import os, sys
        router = ah.Router()

        @router.on_tool_pre
        def noisy(event: ah.ToolPreEvent) -> ah.Decision:
            print("stray print from a handler:", event.tool.command)
            sys.stdout.write("no newline either")
            os.write(1, b"raw fd 1\\n")
            os.system("echo from a child process")
            return ah.deny("noisy handler says no")

        ah.main(router)
    """)
    out, err, code = answer(run_hook(argv + ["agenthooks", "run", "--provider=claude-code"], PRE))
    assert code == 0, err
    v = json.loads(out)  # nothing but the answer
    assert v["hookSpecificOutput"]["permissionDecision"] == "deny"
    for s in ("stray print from a handler: ls", "no newline either", "raw fd 1", "from a child process"):
        assert s in err, err


@pytest.mark.parametrize("kind", ["sync", "async", "thread"])
def test_a_hung_handler_is_abandoned_at_the_deadline(tmp_path: pathlib.Path, kind: str) -> None:
    body = {
        "sync": "import time\n\ndef hang() -> None:\n    time.sleep(3600)\n",
        "async": "import asyncio\n\nasync def hang() -> None:\n    await asyncio.sleep(3600)\n",
        # A non-daemon thread that never ends must not keep the process alive either.
        "thread": "import threading, time\n\ndef hang() -> None:\n"
                  "    threading.Thread(target=time.sleep, args=(3600,)).start()\n    time.sleep(3600)\n",
    }[kind]
    call = "await hang()" if kind == "async" else "hang()"
    defn = "async def" if kind == "async" else "def"
    argv = script(tmp_path, body + textwrap.dedent(f"""
        router = ah.Router(policy=ah.Policy(fail="closed"))

        @router.on_tool_pre
        {defn} guard(event: ah.ToolPreEvent) -> ah.Decision:
            {call}
            return ah.allow()

        ah.main(router)
    """))
    t0 = time.monotonic()
    out, err, code = answer(run_hook(argv + ["agenthooks", "run", "--provider=claude-code", "--timeout=1"], PRE, timeout=30))
    elapsed = time.monotonic() - t0
    assert elapsed < 10, elapsed  # deadline 0.9 s, then a prompt exit
    assert "handler_timeout" in err
    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"  # fail closed
    assert code == 0


def test_exceptions_follow_the_fail_policy(tmp_path: pathlib.Path) -> None:
    argv = script(tmp_path, """
        router = ah.Router()

        @router.on_tool_pre
        def boom(event: ah.ToolPreEvent) -> ah.Decision:
            raise RuntimeError("db down")

        ah.main(router)
    """)
    out, err, code = answer(run_hook(argv + ["agenthooks", "run", "--provider=codex"], PRE))
    assert (out, code) == ("", 0)
    assert "handler_error" in err and "db down" in err
    out, err, code = answer(run_hook(argv + ["agenthooks", "run", "--provider=codex", "--fail=closed"], PRE))
    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_bad_input_unknown_agents_and_usage(tmp_path: pathlib.Path) -> None:
    argv = script(tmp_path, """
        router = ah.Router()
        router.on_tool_pre(lambda e: ah.deny("x"))
        ah.main(router)
    """)
    out, err, code = answer(run_hook(argv + ["agenthooks", "run", "--provider=codex"], b"{not json"))
    assert (out, code) == ("", 0) and "invalid_json" in err
    out, err, code = answer(run_hook(argv + ["agenthooks", "run", "--provider=codex", "--fail=closed"], b"[1]"))
    assert (out, code) == ("", 2) and "not_an_object" in err
    out, err, code = answer(run_hook(argv + ["agenthooks", "run", "--provider=vim"], PRE))
    assert (out, code) == ("", 0) and "unknown_provider" in err
    # An unknown option is a warning; the run goes on (provider by shape).
    out, err, code = answer(run_hook(argv + ["agenthooks", "run", "--bogus=1"], PRE))
    assert code == 0 and "deny" in out and "--bogus" in err
    # A bad value is answered per the fail policy (a bad --fail reads as closed).
    out, err, code = answer(run_hook(argv + ["agenthooks", "run", "--provider=codex", "--fail=closd"], PRE))
    assert code == 0 and "deny" in out and "closd" in err
    out, err, code = answer(run_hook(argv, PRE))
    assert (out, code) == ("", 64) and "agenthooks run --provider=<agent>" in err
    big = b'{"hook_event_name":"PreToolUse","x":"' + b"x" * 100 + b'"}'
    out, err, code = answer(run_hook(argv + ["agenthooks", "run", "--provider=codex", "--max-bytes=50"], big))
    assert (out, code) == ("", 0) and "too_large" in err


def test_argv_payload_only_when_stdin_is_empty(tmp_path: pathlib.Path) -> None:
    """main() takes the legacy argv payload (older Cursor CLI builds, Codex
    notify) when stdin is empty, and never lets a JSON argument replace
    the payload on stdin (issue 21 §4)."""
    argv = script(tmp_path, """
        router = ah.Router()
        router.on_tool_pre(lambda e: ah.deny("no " + e.tool.command) if "rm" in e.tool.command else None)
        ah.main(router)
    """)
    rm = PRE.replace(b'"ls"', b'"rm -rf /"')
    out, err, code = answer(run_hook(argv + ["agenthooks", "run", "--provider=codex", rm.decode()], b""))
    assert code == 0 and json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny", err
    out, err, code = answer(run_hook(argv + [PRE.decode(), "agenthooks", "run", "--provider=codex"], rm))
    assert code == 0 and "no rm -rf /" in out, err
    out, err, code = answer(run_hook(argv + ["agenthooks", "run", "--provider=codex", PRE.decode()], rm))
    assert code == 0 and "no rm -rf /" in out, err


def test_run_in_process_matches_the_process(tmp_path: pathlib.Path) -> None:
    router = ah.Router(policy=ah.Policy(fail="closed"))
    router.on_tool_pre(lambda e: ah.ask("why").with_context("c"))
    for provider in ("claude-code", "codex", "gemini", "kimi-code", "copilot"):
        r = ah.run(router, ["hook", "agenthooks", "run", f"--provider={provider}"], PRE)
        assert r.exit_code in (0, 2)
    argv = script(tmp_path, """
        router = ah.Router(policy=ah.Policy(fail="closed"))
        router.on_tool_pre(lambda e: ah.ask("why").with_context("c"))
        ah.main(router)
    """)
    for provider in ("claude-code", "codex"):
        r = ah.run(router, ["hook", "agenthooks", "run", f"--provider={provider}"], PRE)
        # run() answers as the process does, notes on stderr included (the
        # core's complete adds them, by default on exit 0).
        assert answer(run_hook(argv + ["agenthooks", "run", f"--provider={provider}"], PRE)) == (
            r.stdout, r.stderr, r.exit_code)
    # The deadline also holds in-process (the worker thread is abandoned).
    slow = ah.Router(policy=ah.Policy(timeout_ms=50))

    @slow.on_tool_pre
    def hang(e: ah.ToolPreEvent) -> ah.Decision:
        time.sleep(2)
        return ah.allow()

    r = ah.run(slow, ["hook", "agenthooks", "run", "--provider=claude-code"], PRE)
    assert r.notes[0].code == "fail_open" and r.notes[0].from_ == "handler_timeout"
    assert "handler_timeout" in r.stderr


def test_serve_answers_frames_like_the_rust_guard() -> None:
    """`agenthooks serve`: the NDJSON loop of the OpenCode / OpenClaw plugin
    bridges (core/src/serve.rs). Request replies equal the Rust guard's;
    bad lines get an error frame and the loop goes on; end of input exits 0."""
    if not RUST_GUARD.exists():
        pytest.fail(f"{RUST_GUARD} not built (make python-test builds it)")
    big = b'{"seq":9,"x":"' + b"x" * 5000 + b'"}'
    lines = [
        b'{"hello":{"provider":"opencode","versions":{"opencode":"1.18.33"},"context":{}}}',
        b'{"seq":1,"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"s","callID":"c1"},'
        b'"output":{"args":{"command":"rm -rf x"}}}',
        b"not json",
        b"",
        b"[1]",
        b'{"hook":"tool.execute.before"}',
        big,
        b'{"seq":2,"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"s","callID":"c2"},'
        b'"output":{"args":{"command":"ls"}}}\r',
        b'{"seq":"x3","hook":7}',
        b'{"hello":{"provider":"openclaw"}}',
    ]
    data = b"\n".join(lines)
    tail = ["agenthooks", "serve", "--provider=opencode", "--max-bytes=4096"]
    py = run_hook([PYTHON, str(EXAMPLE_GUARD)] + tail, data)
    rs = run_hook([str(RUST_GUARD)] + tail, data)
    assert (py.returncode, rs.returncode) == (0, 0), py.stderr.decode()
    got = [json.loads(line) for line in py.stdout.decode().splitlines()]
    want = [json.loads(line) for line in rs.stdout.decode().splitlines()]
    assert got[0] == want[0] and got[0]["hello"]["deadline_ms"] > 0
    by_seq = {f["seq"]: f for f in got if f.get("seq") is not None}
    assert by_seq == {f["seq"]: f for f in want if f.get("seq") is not None}
    assert by_seq[1]["output"]["throw"].startswith("destructive command")
    assert by_seq[2]["output"] is None  # every reply carries output; null is no opinion
    assert by_seq["x3"]["error"]["code"] == "wrong_type"
    # The overlong line's seq is recovered from its first bytes.
    assert by_seq[9]["error"]["code"] == "too_large"
    errors = [f["error"]["code"] for f in got if "seq" in f and f["seq"] is None]
    assert errors == [f["error"]["code"] for f in want if "seq" in f and f["seq"] is None]
    assert errors == ["invalid_json", "not_an_object", "invalid_argument", "invalid_argument"]
    assert all("output" in f for f in got if "hello" not in f)
    # Without --provider: an error on stderr, exit 2, nothing on stdout.
    p = run_hook([PYTHON, str(EXAMPLE_GUARD), "agenthooks", "serve"], b"")
    assert (p.stdout, p.returncode) == (b"", 2) and b"invalid_argument" in p.stderr


def test_serve_keeps_handler_prints_off_stdout_and_survives_hangs(tmp_path: pathlib.Path) -> None:
    argv = script(tmp_path, """
        import os, time
        router = ah.Router(policy=ah.Policy(fail="closed", timeout_ms=200))

        @router.on_tool_pre
        def noisy(event: ah.ToolPreEvent) -> ah.Decision:
            print("stray print")
            os.write(1, b"raw fd 1\\n")
            if event.tool.command == "slow":
                time.sleep(3600)
            raise RuntimeError("boom")

        ah.main(router)
    """)
    frames = b"\n".join(
        b'{"seq":%d,"hook":"before_tool_call","event":{"toolName":"exec","params":{"command":"%s"},'
        b'"toolCallId":"t%d"},"ctx":{"sessionId":"one"}}' % (i, cmd, i)
        for i, cmd in enumerate([b"slow", b"ls"])
    ) + b"\n"
    t0 = time.monotonic()
    p = run_hook(argv + ["agenthooks", "serve", "--provider=openclaw"], frames, timeout=30)
    assert time.monotonic() - t0 < 10
    assert p.returncode == 0, p.stderr.decode()
    got = [json.loads(line) for line in p.stdout.decode().splitlines()]  # nothing but frames
    assert [f["seq"] for f in got] == [0, 1]
    assert got[0]["error"]["code"] == "handler_timeout" and got[0]["output"]["block"] is True
    assert got[1]["error"]["code"] == "handler_error" and "boom" in got[1]["error"]["message"]
    assert "stray print" in p.stderr.decode() and "raw fd 1" in p.stderr.decode()


def test_handlers_read_the_session_mode() -> None:
    seen: List[Tuple[Optional[bool], Optional[str]]] = []

    def record(e: ah.ToolPreEvent) -> ah.Decision:
        seen.append((e.interactive, e.mode_signal))
        return ah.allow()

    router = ah.Router()
    router.on_tool_pre(record)
    cases = [
        ('{"ancestors":[["claude","-p","x"]]}', (False, "argv:-p")),
        ('{"env":{"CLAUDE_CODE_SESSION_ATTENDED":"1"}}', (True, "env:CLAUDE_CODE_SESSION_ATTENDED=1")),
        ('{"ancestors":[["sh"]]}', (None, None)),
    ]
    for observed, want in cases:
        seen.clear()
        r = ah.run(router, ["hook", "agenthooks", "run", "--provider=claude-code", f"--observed={observed}"], PRE)
        assert r.exit_code == 0 and seen == [want], (observed, seen, r.stderr)
    # Without an observation: this process's own (live), consistent.
    ev = ah.decode("claude-code", PRE)
    assert ev.interactive in (True, False, None)
    assert (ev.interactive is None) == (ev.mode_signal is None)
