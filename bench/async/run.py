#!/usr/bin/env python3
"""Agent-visible latency of an async hook (docs/async.md, docs/benchmarks.md).

What the agent waits for is the time from spawning the hook to the hook's
exit with its stdout and stderr closed (subprocess.run with captured pipes
returns only then: a detached child holding a pipe would show here). Three
programs on the same Gemini AfterTool payload, interleaved in a fresh random
order every round:

  noop       the hook, handler returns at once, synchronous
  sync-500   the hook, handler sleeps 500 ms, synchronous
  async-500  the hook, handler sleeps 500 ms, with --async (the handler runs
             in the detached child)

for the Rust hook (core/examples/async_hook.rs) and, with --python, the same
hook in Python (the installed wheel). Rounds are paced so the detached
children never fill the 16 slots (a full house runs the hook synchronously).

    bench/async/run.py [--rounds N] [--rust PATH] [--python PYTHON]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import statistics
import subprocess
import tempfile
import textwrap
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAYLOAD = (b'{"session_id":"bench","cwd":"/w","hook_event_name":"AfterTool","tool_name":"run_shell_command",'
           b'"tool_input":{"command":"make"},"tool_response":{"llmContent":"ok"}}')
PY_HOOK = textwrap.dedent("""
    import os, time
    import agenthooks as ah
    router = ah.Router()
    ms = int(os.environ.get("AH_SLEEP_MS", "0"))
    @router.on_tool_post
    def slow(e):
        time.sleep(ms / 1000)
    ah.main(router)
""")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--rust", default=str(ROOT / "target" / "release" / "examples" / "async_hook"))
    ap.add_argument("--python", default=None, help="a Python with the agenthooks wheel installed")
    a = ap.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="ah-bench-async-"))
    run = ["agenthooks", "run", "--provider=gemini", "--timeout=5"]
    hooks = {"rust": [a.rust]}
    if a.python:
        (work / "hook.py").write_text(PY_HOOK)
        hooks["python"] = [a.python, str(work / "hook.py")]
    cases = {}
    for lang, prog in hooks.items():
        cases[f"{lang} noop"] = (prog + run, "0")
        cases[f"{lang} sync-500"] = (prog + run, "500")
        cases[f"{lang} async-500"] = (prog + run + ["--async"], "500")
    env = dict(os.environ, AGENTHOOKS_STATE_DIR=str(work / "state"))
    times: dict[str, list[float]] = {k: [] for k in cases}
    for name, (argv, ms) in cases.items():  # warm up and check the answer
        p = subprocess.run(argv, input=PAYLOAD, capture_output=True, env=dict(env, AH_SLEEP_MS=ms))
        assert p.returncode == 0 and p.stdout.strip() == b"{}", (name, p.stdout, p.stderr)
        assert b"ran synchronously" not in p.stderr, (name, p.stderr)
    for _ in range(a.rounds):
        order = list(cases)
        random.shuffle(order)
        for name in order:
            argv, ms = cases[name]
            t = time.perf_counter()
            subprocess.run(argv, input=PAYLOAD, capture_output=True, env=dict(env, AH_SLEEP_MS=ms))
            times[name].append(time.perf_counter() - t)
            time.sleep(0.04)  # pace: at most ~13 children alive at once
    time.sleep(1.0)  # let the last children finish
    print(f"{a.rounds} rounds, spawn to exit with pipes closed (ms)")
    print(f"{'case':<22}{'p50':>9}{'p90':>9}")
    for name, xs in times.items():
        xs.sort()
        p90 = xs[min(len(xs) - 1, int(0.9 * len(xs)))]
        print(f"{name:<22}{statistics.median(xs) * 1000:>9.2f}{p90 * 1000:>9.2f}")
    for p in sorted(work.rglob("*"), reverse=True):
        p.unlink() if p.is_file() else p.rmdir()
    work.rmdir()


if __name__ == "__main__":
    main()
