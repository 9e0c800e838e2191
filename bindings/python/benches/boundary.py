"""Boundary overhead of the Python binding (``make python-bench``).

1. In process, per call: ``decode``, ``decode`` + ``respond`` (no decision,
   deny) through Python, on the inputs core/benches/decode.rs uses (the
   PreToolUse fixture of each agent, a 1 MB PostToolUse), beside the Rust
   numbers of the same groups when criterion left them in target/criterion
   (``make python-bench`` runs that bench first), and beside cchooks, a
   pure-Python Claude Code hook library, doing the same decode + deny.
2. Per hook process: wall time of a hook process over a bare
   ``python -c pass`` (the agent starts one per event), and the
   ``-X importtime`` breakdown of ``import agenthooks``.

Prints Markdown (the Python section of docs/benchmarks.md).
"""

from __future__ import annotations

import io
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import tempfile
import timeit
from contextlib import redirect_stdout
from typing import Any, Callable, Dict, List, Optional, Tuple

import agenthooks as ah

ROOT = pathlib.Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures"
CRITERION = ROOT / "target" / "criterion"
PY = sys.executable
PRE = ("pretooluse", "beforetool-")


def pick_pre(provider: str) -> Optional[Tuple[str, bytes]]:
    """The fixture decode.rs benches: a shell PreToolUse when there is one."""
    cands = []
    for f in sorted((FIXTURES / provider).glob("*.json")):
        c = json.loads(f.read_text())
        if isinstance(c.get("payload"), dict) and f.stem.lower().startswith(PRE):
            cands.append((f.stem, c["payload"]))
    if not cands:
        return None
    stem, payload = next(((s, p) for s, p in cands if s.endswith(("-bash", "-shell"))), cands[0])
    data = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    try:
        ah.decode(provider, data)
    except ah.AgentHooksError:
        return None
    return stem, data


def big_post(pre: bytes, n: int) -> bytes:
    m = json.loads(pre)
    m["hook_event_name"] = "PostToolUse"
    line, out, i = "", [], 0
    size = 0
    while size < n:
        line = f'test db::pool::case_{i:06} ... ok\t("burst" {i % 97} ms)\n'
        out.append(line)
        size += len(line)
        i += 1
    m["tool_response"] = "".join(out)[:n]
    return json.dumps(m, separators=(",", ":"), sort_keys=True).encode()


def per_call(fn: Callable[[], Any]) -> float:
    """Best-of-7 mean seconds per call."""
    t = timeit.Timer(fn)
    n, _ = t.autorange()
    return min(t.repeat(7, n)) / n


def rust_ns(group: str, func: str) -> Optional[float]:
    est = CRITERION / group.replace("/", "_") / func / "new" / "estimates.json"
    try:
        return float(json.loads(est.read_text())["mean"]["point_estimate"])
    except (OSError, KeyError, ValueError):
        return None


def fmt_us(s: Optional[float]) -> str:
    if s is None:
        return "–"
    us = s * 1e6
    return f"{us:.2f}" if us < 100 else f"{us:,.0f}"


def in_process() -> List[str]:
    deny = ah.deny("Blocked by the benchmark policy.")
    none = ah.no_decision()
    policy = ah.Policy()
    rows = [
        "| input | bytes | Python decode | Python decode+respond (no decision) | Python decode+respond (deny) "
        "| Rust decode+respond (deny) | binding overhead |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    cases: List[Tuple[str, str, str, bytes]] = []
    for p in ("claude-code", "codex", "cursor", "gemini", "kimi-code", "copilot"):
        got = pick_pre(p)
        if got:
            cases.append((p, got[0], got[0], got[1]))
    claude = next((c for c in cases if c[0] == "claude-code"), None)
    if claude:
        cases.append(("claude-code", "posttooluse-1mb", "posttooluse-1mb", big_post(claude[3], 1 << 20)))
    for p, label, group, data in cases:
        dec = per_call(lambda: ah.decode(p, data))
        dn = per_call(lambda: ah.respond(ah.decode(p, data), none, policy))
        dd = per_call(lambda: ah.respond(ah.decode(p, data), deny, policy)) if "post" not in label else None
        rust = rust_ns(f"{p}/{group}", "decode+respond_deny" if dd is not None else "decode+respond_no_decision")
        py = dd if dd is not None else dn
        over = f"{(py - rust / 1e9) * 1e6:+.2f} µs" if rust is not None and py is not None else "–"
        rust_s = rust / 1e9 if rust is not None else None
        rows.append(
            f"| {p} {label} | {len(data):,} | {fmt_us(dec)} µs | {fmt_us(dn)} µs | {fmt_us(dd)}"
            f"{' µs' if dd is not None else ''} | {fmt_us(rust_s)}{' µs' if rust_s is not None else ''} | {over} |"
        )
    return rows


def cchooks_in_process(data: bytes) -> Optional[float]:
    try:
        from cchooks.contexts import PreToolUseContext
    except ImportError:
        return None
    sink = io.StringIO()

    def once() -> None:
        ctx = PreToolUseContext(json.loads(data))
        with redirect_stdout(sink):
            ctx.output.deny("Blocked by the benchmark policy.")
        sink.seek(0)
        sink.truncate()

    return per_call(once)


def router_in_process(data: bytes) -> float:
    """What `main` does per event minus the process: decode, the router
    (one handler), respond."""
    router = ah.Router()

    @router.on_tool_pre
    def guard(event: ah.ToolPreEvent) -> ah.Decision:
        if "rm -rf" in (event.tool.command or ""):
            return ah.deny("destructive")
        return ah.deny("Blocked by the benchmark policy.")

    policy = ah.Policy()

    def once() -> ah.Response:
        event = ah.decode("claude-code", data)
        return ah.respond(event, router.decide(event), policy)

    return per_call(once)


HOOK_AH = """import agenthooks as ah
router = ah.Router()
router.on_tool_pre(lambda e: ah.deny("Blocked by the benchmark policy."))
ah.main(router)
"""
HOOK_CCHOOKS = """from cchooks import create_context, PreToolUseContext
c = create_context()
if isinstance(c, PreToolUseContext):
    c.output.deny("Blocked by the benchmark policy.")
"""


def wall(argv: List[str], stdin: bytes, runs: int) -> Tuple[float, float]:
    """(median, min) wall seconds of a process, after one warm-up run."""
    import time

    subprocess.run(argv, input=stdin, capture_output=True)
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(argv, input=stdin, capture_output=True)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), min(ts)


def importtime(module: str, runs: int = 15) -> Dict[str, int]:
    """Best cumulative import time (µs) of `module` and its own submodules."""
    best: Dict[str, int] = {}
    for _ in range(runs):
        err = subprocess.run([PY, "-X", "importtime", "-c", f"import {module}"],
                             capture_output=True, text=True).stderr
        for line in err.splitlines():
            if not line.startswith("import time:") or "|" not in line:
                continue
            _, cum, name = (x.strip() for x in line.split(":", 1)[1].split("|"))
            if name.startswith(module.split(".")[0]):
                best[name] = min(best.get(name, 1 << 60), int(cum))
    return best


def per_process(data: bytes) -> List[str]:
    runs = int(os.environ.get("AH_BENCH_RUNS", "40"))
    tmp = pathlib.Path(tempfile.mkdtemp())
    (tmp / "ah_hook.py").write_text(HOOK_AH)
    (tmp / "cc_hook.py").write_text(HOOK_CCHOOKS)
    args = ["agenthooks", "run", "--provider=claude-code"]
    rows = [
        "| process (absolute interpreter path, stdin = the Claude PreToolUse payload) | median | min | over bare Python (median) |",
        "|---|---:|---:|---:|",
    ]
    bare = wall([PY, "-c", "pass"], b"", runs)
    measured = [
        ("bare `python -c pass`", [PY, "-c", "pass"]),
        ("`python -c 'import agenthooks'`", [PY, "-c", "import agenthooks"]),
        ("agenthooks hook: decode + deny + answer (`ah.main`)", [PY, str(tmp / "ah_hook.py"), *args]),
        ("examples/python/guard.py", [PY, str(ROOT / "examples" / "python" / "guard.py"), *args]),
    ]
    try:
        import cchooks  # noqa: F401

        measured.append(("cchooks hook: parse + deny (Claude Code only)", [PY, str(tmp / "cc_hook.py")]))
    except ImportError:
        pass
    rust_guard = ROOT / "target" / "release" / "guard"
    if rust_guard.exists():
        measured.append(("Rust examples/rust/guard (release), for scale", [str(rust_guard), *args]))
    for label, argv in measured:
        med, mn = (bare if argv == [PY, "-c", "pass"] else wall(argv, data, runs))
        over = "" if argv == [PY, "-c", "pass"] else f"{(med - bare[0]) * 1e3:+.1f} ms"
        rows.append(f"| {label} | {med * 1e3:.1f} ms | {mn * 1e3:.1f} ms | {over} |")
    return rows


def main() -> None:
    claude = pick_pre("claude-code")
    assert claude, "no Claude Code PreToolUse fixture"
    data = claude[1]
    print(f"Python {platform.python_version()} ({PY}), agenthooks {ah.__version__}, "
          f"{os.cpu_count()} CPUs, {platform.platform()}\n")
    print("**Per call, in process** (best of 7 timeit rounds):\n")
    print("\n".join(in_process()))
    cc = cchooks_in_process(data)
    rt = router_in_process(data)
    print(f"\nThe same Claude PreToolUse through a Router with one handler (decode, decide, respond): "
          f"{fmt_us(rt)} µs. cchooks (pure Python, Claude Code only), json.loads + context + deny: "
          f"{fmt_us(cc)}{' µs' if cc is not None else ' (not installed)'}.\n")
    print("**Per hook process** (wall time, " + os.environ.get("AH_BENCH_RUNS", "40") + " runs each):\n")
    print("\n".join(per_process(data)))
    imp = importtime("agenthooks")
    parts = ", ".join(f"`{k}` {v / 1000:.2f} ms" for k, v in sorted(imp.items(), key=lambda kv: -kv[1]))
    print(f"\n`-X importtime` (best of 15, cumulative): {parts}.")
    try:
        import cchooks  # noqa: F401

        cc_imp = importtime("cchooks")
        print(f"cchooks: `cchooks` {cc_imp.get('cchooks', 0) / 1000:.2f} ms.")
    except ImportError:
        pass


if __name__ == "__main__":
    main()
