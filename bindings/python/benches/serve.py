"""The run path per event and the serve path per frame of the Python
binding, in process (the numbers of docs/benchmarks.md, "Python: run and
serve"). Usage: ``python benches/serve.py`` with agenthooks installed."""

from __future__ import annotations

import io
import statistics
import time
from typing import Any, List

import agenthooks as ah
from agenthooks import _native
from agenthooks.runtime import _serve, run

PRE = (b'{"session_id":"s","transcript_path":"/t","cwd":"/w","permission_mode":"default",'
       b'"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"},"tool_use_id":"t1"}')


def guard() -> ah.Router:
    r = ah.Router()

    @r.on_tool_pre
    def gate(e: ah.ToolPreEvent) -> ah.Decision:
        return ah.deny("destructive command") if "rm -rf" in (e.tool.command or "") else ah.no_decision()

    return r


def frames(n: int, sessions: bool) -> bytes:
    out = []
    for i in range(n):
        ses = f"s{i}" if sessions else "s"
        out.append(('{"seq":%d,"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"%s","callID":"c%d"},'
                    '"output":{"args":{"command":"ls -la"}}}' % (i, ses, i)).encode())
    return b"\n".join(out) + b"\n"


def best_of(f: Any, rounds: int) -> float:
    """The least CPU time (all threads) of a round: the machine is shared,
    and wall time mostly measures the neighbours."""
    times: List[float] = []
    for _ in range(rounds):
        t = time.process_time()
        f()
        times.append(time.process_time() - t)
    return min(times)


def main() -> None:
    r = guard()
    argv = ["hook", "agenthooks", "run", "--provider=claude-code"]
    n = 2000
    per = best_of(lambda: [run(r, argv, PRE) for _ in range(n)], 7) / n
    print(f"| run path per event (run(), in process) | {per * 1e6:.1f} us |")
    args = _native.parse_args(["hook", "agenthooks", "serve", "--provider=opencode"])
    for sessions in (False, True):
        data = frames(256, sessions)
        sink: List[Any] = []
        per = best_of(lambda: _serve(r, args, io.BytesIO(data), sink.append), 15) / 256
        label = "256 sessions" if sessions else "one session"
        print(f"| serve path per frame ({label}) | {per * 1e6:.1f} us |")


if __name__ == "__main__":
    main()
