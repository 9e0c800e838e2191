#!/usr/bin/env python3
"""Whole-process benchmark of the example guards: exec to exit, every language.

A hook runs as a fresh process on every tool call, so what users feel is the
time from exec to exit. This driver runs every language's guard (the Rust,
Go, Python and Node twins of examples/rust/guard) and the floors (programs
that do nothing: `/bin/true`, `python -c pass` with the guard's interpreter,
`node -e 0`, an empty Go and an empty Rust program) on the same payloads,
interleaved: every round runs every (program, payload) pair once, in a fresh
random order, so machine noise lands on all of them alike. It reports the
median and p90 wall time and the median peak RSS of each pair, with ratios
computed inside the same run.

Payloads (built from fixtures/claude-code/):
  deny     PreToolUse for Bash running `rm -rf build/` (~420 B): the guard
           denies it.
  post1m   PostToolUse whose `tool_response.stdout` is 1 MiB of log-like
           text (an escape every ~12 bytes, as core/benches/decode.rs
           builds it): no handler, the answer is "no opinion".

Before timing, every guard's stdout, stderr and exit code on each payload
are compared with the Rust guard's (the parity the binding suites test on
every fixture); a difference fails the run. Timing never fails it.

    bench/process/run.py [--rounds N] [--smoke] [--peer 'PATH [ARGS...]']

`--peer '[NAME=]PATH [ARGS...]'` adds another guard to compare with by hand
(e.g. one written with a different hook library, or a build of an older
commit); its answers are not checked, the payload goes on its stdin, and
the first peer is the reference of the "× peer" columns. Paths of the programs
default to what `make bench-process` builds (see mk/bench-process.mk).

Timing: a small C helper (measure.c, built by `make bench-process`) spawns
each program with posix_spawn, stdin from the payload file and
stdout/stderr to files, and waits with wait4 (ru_maxrss); the clock runs
from just before the spawn to the return of wait4. The helper's own spawn
cost is in every row, floors included (`/bin/true` shows it).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import shlex
import shutil
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
HERE = pathlib.Path(__file__).resolve().parent


# ---------------------------------------------------------------- payloads


def big_output(n: int) -> str:
    """Log-like text of exactly n bytes (core/benches/decode.rs big_output)."""
    parts = []
    size = 0
    i = 0
    while size < n:
        line = f'test db::pool::case_{i:06} ... ok\t("burst" {i % 97} ms)\n'
        parts.append(line)
        size += len(line)
        i += 1
    return "".join(parts)[:n]


def fixture_payload(name: str) -> dict:
    case = json.loads((ROOT / "fixtures" / "claude-code" / f"{name}.json").read_text())
    return case["payload"]


def payloads() -> dict[str, bytes]:
    pre = fixture_payload("pretooluse-bash")
    pre["tool_input"] = {"command": "rm -rf build/", "description": "Clean the build directory"}
    post = fixture_payload("posttooluse-bash")
    post["tool_response"]["stdout"] = big_output(1 << 20)
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    return {
        "deny": json.dumps(pre, **compact).encode(),
        "post1m": json.dumps(post, **compact).encode(),
    }


# ---------------------------------------------------------------- programs


class Program:
    def __init__(self, name: str, argv: list[str], kind: str, floor: str | None = None) -> None:
        self.name = name
        self.argv = argv
        self.kind = kind  # "floor", "guard" (parity-checked) or "peer"
        self.floor = floor  # the name of the floor program this guard sits on


def programs(a: argparse.Namespace, work: pathlib.Path) -> list[Program]:
    run = ["agenthooks", "run", "--provider=claude-code"]
    out: list[Program] = []

    def add(p: Program, needs: str) -> None:
        if os.path.exists(needs):
            out.append(p)
        else:
            print(f"bench-process: SKIPPED {p.name}: {needs} not found", file=sys.stderr)

    add(Program("/bin/true", ["/bin/true"], "floor"), "/bin/true")
    add(Program("rust floor (fn main)", [a.rust_floor], "floor"), a.rust_floor)
    add(Program("go floor (func main)", [a.go_floor], "floor"), a.go_floor)
    add(Program("go+cgo floor", [a.go_cgo_floor], "floor"), a.go_cgo_floor)
    add(Program("python -c pass", [a.python, "-c", "pass"], "floor"), a.python)
    add(Program("node -e 0", [a.node, "-e", "0"], "floor"), a.node)
    add(Program("node empty.mjs", [a.node, str(HERE / "empty.mjs")], "floor"), a.node)
    add(Program("rust guard", [a.rust_guard, *run], "guard", "/bin/true"), a.rust_guard)
    if a.rust_static_guard:
        add(Program("rust guard (static)", [a.rust_static_guard, *run], "guard", "/bin/true"),
            a.rust_static_guard)
    if a.rust_nopie_guard:
        add(Program("rust guard (static, non-PIE)", [a.rust_nopie_guard, *run], "guard", "/bin/true"),
            a.rust_nopie_guard)
    add(Program("go guard", [a.go_guard, *run], "guard", "go+cgo floor"), a.go_guard)
    if a.go_static_guard:
        add(Program("go guard (static, gc-sections)", [a.go_static_guard, *run], "guard", "go+cgo floor"),
            a.go_static_guard)
    add(Program("go encoding/json hook (ref)", [a.go_json_hook], "ref"), a.go_json_hook)
    add(Program("python guard", [a.python, str(ROOT / "examples/python/guard.py"), *run], "guard",
                "python -c pass"), a.python)
    add(Program("node guard (ESM)", [a.node, str(ROOT / "examples/node/guard.mjs"), *run], "guard",
                "node -e 0"), a.node)
    # The CJS twin resolves `agenthooks` from a node_modules beside it, as a
    # user's would: copy it next to a link to the package.
    node_pkg = pathlib.Path(a.node_package).resolve()
    if (node_pkg / "package.json").exists():
        cjs_dir = work / "node-cjs"
        (cjs_dir / "node_modules").mkdir(parents=True, exist_ok=True)
        link = cjs_dir / "node_modules" / "agenthooks"
        if not link.exists():
            link.symlink_to(node_pkg)
        shutil.copy(HERE / "guard.cjs", cjs_dir / "guard.cjs")
        add(Program("node guard (CJS)", [a.node, str(cjs_dir / "guard.cjs"), *run], "guard",
                    "node -e 0"), a.node)
    for spec in a.peer or []:
        name, argv = peer_spec(spec)
        add(Program(name, argv, "peer"), argv[0])
    for spec in a.extra or []:
        name, argv = peer_spec(spec)
        add(Program(name.replace("peer: ", "", 1), argv, "extra"), argv[0])
    return out


def peer_spec(spec: str) -> tuple[str, list[str]]:
    """`[NAME=]PATH [ARGS...]` -> (row name, argv)."""
    name, sep, rest = spec.partition("=")
    if sep and name.strip() and "/" not in name and not name.startswith("-"):
        argv = shlex.split(rest)
        return f"peer: {name.strip()}", argv
    argv = shlex.split(spec)
    return f"peer: {os.path.basename(argv[0])}", argv


# ---------------------------------------------------------------- running


class Runner:
    def __init__(self, measure: str, work: pathlib.Path, payload_files: dict[str, str],
                 env: dict[str, str]) -> None:
        self.measure = measure
        self.work = work
        self.payload_files = payload_files
        self.env = env
        self.out = str(work / "stdout")
        self.err = str(work / "stderr")
        self.report = str(work / "measured")

    def once(self, p: Program, payload: str) -> tuple[float, int, int, float]:
        """(wall seconds, exit code, peak RSS in KiB, CPU seconds) of one
        run, as the measure helper (measure.c) saw it."""
        argv = [self.measure, self.payload_files[payload], self.out, self.err, *p.argv]
        actions = [(os.POSIX_SPAWN_OPEN, 1, self.report, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)]
        pid = os.posix_spawn(self.measure, argv, self.env, file_actions=actions)
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"measure failed on {shlex.join(p.argv)}: "
                               f"{pathlib.Path(self.err).read_text(errors='replace')[:500]}")
        ns, code, kib, cpu_us = pathlib.Path(self.report).read_text().split()
        return int(ns) / 1e9, int(code), int(kib), int(cpu_us) / 1e6

    def answer(self, p: Program, payload: str) -> tuple[bytes, bytes, int]:
        _, code, _, _ = self.once(p, payload)
        return (pathlib.Path(self.out).read_bytes(), pathlib.Path(self.err).read_bytes(), code)


def check_parity(r: Runner, progs: list[Program], names: list[str]) -> list[str]:
    ref = next((p for p in progs if p.name == "rust guard"), None)
    if ref is None:
        return ["the Rust guard is missing: nothing to check parity against"]
    problems = []
    for payload in names:
        want = r.answer(ref, payload)
        if want[2] != 0 or not want[0]:
            problems.append(f"rust guard on {payload}: exit {want[2]}, stdout {want[0][:200]!r}")
        for p in progs:
            if p.kind != "guard" or p is ref:
                continue
            got = r.answer(p, payload)
            if got != want:
                problems.append(
                    f"{p.name} on {payload} differs from the Rust guard:\n"
                    f"  want exit {want[2]} stdout {want[0][:300]!r} stderr {want[1][:300]!r}\n"
                    f"  got  exit {got[2]} stdout {got[0][:300]!r} stderr {got[1][:300]!r}")
    return problems


def quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if len(s) == 1:
        return s[0]
    pos = q * (len(s) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


# ---------------------------------------------------------------- report


def fmt_ms(s: float) -> str:
    ms = s * 1000
    return f"{ms:.2f}" if ms < 10 else f"{ms:.1f}"


def report(progs: list[Program], names: list[str], times, rss, cpus, peer: str | None, rounds: int,
           load: tuple[float, float], goals_too: bool) -> dict:
    med = {(p.name, n): statistics.median(times[p.name, n]) for p in progs for n in names}
    p90 = {(p.name, n): quantile(times[p.name, n], 0.9) for p in progs for n in names}
    mrss = {(p.name, n): statistics.median(rss[p.name, n]) for p in progs for n in names}
    mcpu = {(p.name, n): statistics.median(cpus[p.name, n]) for p in progs for n in names}
    floor_med = {p.name: statistics.median([t for n in names for t in times[p.name, n]])
                 for p in progs if p.kind == "floor"}

    print(f"\nbench-process: {rounds} interleaved rounds, load average {load[0]:.2f} -> {load[1]:.2f}, "
          f"{os.cpu_count()} CPUs; wall time exec -> exit in ms (p50, p90), CPU time (user + system) in ms "
          f"(p50), peak RSS in MB (p50)\n")
    head = ["program"]
    for n in names:
        head += [f"{n} p50", f"{n} p90", f"{n} cpu"]
        if peer:
            head.append(f"{n} × {'peer' if peer.startswith('peer') else 'ref'}")
    head += ["floor", "over floor (p50)", "× floor"] + [f"RSS {n}" for n in names]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for p in progs:
        row = [p.name]
        for n in names:
            row += [fmt_ms(med[p.name, n]), fmt_ms(p90[p.name, n]), fmt_ms(mcpu[p.name, n])]
            if peer:
                pm = med[peer, n]
                row.append(f"{med[p.name, n] / pm:.2f}×" if pm > 0 else "–")
        if p.floor and p.floor in floor_med:
            f = floor_med[p.floor]
            row += [f"{p.floor} {fmt_ms(f)}",
                    " / ".join(f"+{(med[p.name, n] - f) * 1000:.1f}" for n in names),
                    " / ".join(f"{med[p.name, n] / f:.2f}×" for n in names)]
        else:
            row += ["–", "–", "–"]
        row += [f"{mrss[p.name, n] / 1024:.1f}" for n in names]
        print("| " + " | ".join(row) + " |")

    # The goals (docs/benchmarks.md), read off this run (informational,
    # never fatal; a smoke run's timings mean nothing).
    print()
    goals = []

    def goal(text: str, ok: bool) -> None:
        goals.append({"goal": text, "met": ok})
        if goals_too:
            print(f"  [{'met' if ok else 'MISSED'}] {text}")

    def have(*ns: str) -> bool:
        return all(any(p.name == n for p in progs) for n in ns)

    if have("python guard", "python -c pass"):
        f = floor_med["python -c pass"]
        worst = max(med["python guard", n] for n in names) - f
        goal(f"Python guard ≤ +5 ms over `python -c pass` (worst payload +{worst * 1000:.1f} ms)", worst <= 0.005)
    for entry in ("node guard (ESM)", "node guard (CJS)"):
        if have(entry, "node -e 0"):
            f = floor_med["node -e 0"]
            worst = max(med[entry, n] for n in names) - f
            esm = ""
            if entry.endswith("(ESM)") and have("node empty.mjs"):
                esm = (f"; +{(max(med[entry, n] for n in names) - floor_med['node empty.mjs']) * 1000:.1f}"
                       " ms over `node empty.mjs`")
            goal(f"{entry} ≤ +10 ms over `node -e 0` (worst payload +{worst * 1000:.1f} ms{esm})",
                 worst <= 0.010)
    for rust in ("rust guard", "rust guard (static)", "rust guard (static, non-PIE)"):
        if have(rust, "/bin/true"):
            r = med[rust, "deny"] / floor_med["/bin/true"]
            goal(f"{rust} within 1.3× of /bin/true on the typical event ({r:.2f}×)", r <= 1.3)
    what = "the peer" if peer and peer.startswith("peer") else "the pure-Go reference"
    gos = [g for g in ("go guard", "go guard (static, gc-sections)") if have(g)]
    if peer:
        for g in gos:
            for n in names:
                r = med[g, n] / med[peer, n]
                goal(f"{g} ≤ 1.0× {what} on {n} ({r:.2f}×)", r <= 1.0)
        if have("rust guard"):
            for n in names:
                r = med["rust guard", n] / med[peer, n]
                goal(f"rust guard ≤ 0.6× {what} on {n} ({r:.2f}×)", r <= 0.6)
    if have("rust guard") and "post1m" in names:
        for g in gos:
            size = PAYLOAD_SIZES["post1m"]
            limit = 1.5 * size / 1024 + mrss["rust guard", "post1m"]
            got = mrss[g, "post1m"]
            goal(f"{g} peak RSS on post1m ≤ 1.5× payload + the Rust guard's "
                 f"({got / 1024:.1f} MB ≤ {limit / 1024:.1f} MB)", got <= limit)
    return {
        "rounds": rounds,
        "load": load,
        "payload_bytes": PAYLOAD_SIZES,
        "rows": [{"program": p.name, "kind": p.kind, "floor": p.floor,
                  **{f"{n}_p50_ms": med[p.name, n] * 1000 for n in names},
                  **{f"{n}_p90_ms": p90[p.name, n] * 1000 for n in names},
                  **{f"{n}_cpu_ms": mcpu[p.name, n] * 1000 for n in names},
                  **{f"{n}_rss_kib": mrss[p.name, n] for n in names}} for p in progs],
        "goals": goals,
    }


PAYLOAD_SIZES: dict[str, int] = {}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=3, help="untimed rounds first (page cache, CPU clocks)")
    ap.add_argument("--smoke", action="store_true", help="3 rounds, 1 warm-up: checks that it all runs")
    ap.add_argument("--peer", action="append", metavar="'[NAME=]PATH [ARGS...]'",
                    help="a peer guard (and its arguments) to compare with; repeatable, the first "
                         "one is the reference of the × peer columns")
    ap.add_argument("--extra", action="append", metavar="'NAME=PATH [ARGS...]'",
                    help="another program to time beside the others (e.g. a build of an older "
                         "commit); not a reference, answers not checked; repeatable")
    ap.add_argument("--only", default="",
                    help="comma-separated substrings of the program names to run (the Rust guard, "
                         "the parity reference, always runs)")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    t = ROOT / "target" / "bench-process"
    ap.add_argument("--bin-dir", default=str(t), help="where `make bench-process` puts the binaries")
    ap.add_argument("--rust-guard", default=str(ROOT / "target/release/guard"))
    ap.add_argument("--measure", help="the measure helper (measure.c), built when missing")
    ap.add_argument("--rust-static-guard", default="",
                    help="the Rust guard linked statically (crt-static), if built")
    ap.add_argument("--go-guard")
    ap.add_argument("--rust-nopie-guard", default="",
                    help="the Rust guard linked statically and not position-independent "
                         "(crt-static, relocation-model=static: no start-up relocations), if built")
    ap.add_argument("--go-static-guard", default="",
                    help="the Go guard linked statically with --gc-sections, if built")
    ap.add_argument("--go-json-hook", help="the pure-Go reference hook (go-json-hook/)")
    ap.add_argument("--rust-floor")
    ap.add_argument("--go-floor")
    ap.add_argument("--go-cgo-floor")
    ap.add_argument("--python", default=str(ROOT / ".cache/python/venv/bin/python"))
    ap.add_argument("--node", default=shutil.which("node") or "/usr/bin/node")
    ap.add_argument("--node-package", default=str(ROOT / "bindings/node"))
    a = ap.parse_args()
    bins = pathlib.Path(a.bin_dir)
    a.go_guard = a.go_guard or str(bins / "go-guard")
    a.rust_floor = a.rust_floor or str(bins / "rust-floor")
    a.go_floor = a.go_floor or str(bins / "go-floor")
    a.go_cgo_floor = a.go_cgo_floor or str(bins / "go-cgo-floor")
    a.go_json_hook = a.go_json_hook or str(bins / "go-json-hook")
    if not a.rust_nopie_guard and os.path.exists(bins / "rust-guard-nopie"):
        a.rust_nopie_guard = str(bins / "rust-guard-nopie")
    if not a.go_static_guard and os.path.exists(bins / "go-guard-static"):
        a.go_static_guard = str(bins / "go-guard-static")
    a.measure = a.measure or str(bins / "measure")
    bins.mkdir(parents=True, exist_ok=True)
    if a.smoke:
        a.rounds, a.warmup = 3, 1
    if not os.path.exists(a.measure):
        cc = os.environ.get("CC", "cc")
        rc = os.spawnvp(os.P_WAIT, cc, [cc, "-O2", "-o", a.measure, str(HERE / "measure.c")])
        if rc != 0:
            print(f"bench-process: cannot build the measure helper with {cc}", file=sys.stderr)
            return 2

    work = pathlib.Path(tempfile.mkdtemp(prefix="run-", dir=bins))
    try:
        pl = payloads()
        files = {}
        for n, b in pl.items():
            PAYLOAD_SIZES[n] = len(b)
            f = work / f"{n}.json"
            f.write_bytes(b)
            files[n] = str(f)
        progs = programs(a, work)
        if a.only:
            keep = [s.strip() for s in a.only.split(",") if s.strip()]
            progs = [p for p in progs if p.name == "rust guard" or any(k in p.name for k in keep)]
        state = work / "state"
        state.mkdir()
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(work), "LANG": "C.UTF-8",
               "AGENTHOOKS_STATE_DIR": str(state)}
        r = Runner(a.measure, work, files, env)
        names = list(pl)
        print("bench-process: payloads " + ", ".join(f"{n} {len(b):,} B" for n, b in pl.items()))
        print("bench-process: programs " + "; ".join(f"{p.name}: {shlex.join(p.argv)}" for p in progs))

        problems = check_parity(r, progs, names)
        if problems:
            for m in problems:
                print(f"bench-process: PARITY: {m}", file=sys.stderr)
            return 1
        print("bench-process: parity: every guard answers both payloads byte for byte as the Rust guard")

        # The "× peer" columns: the first --peer, else the pure-Go reference.
        peer = next((p.name for p in progs if p.kind == "peer"), None) or next(
            (p.name for p in progs if p.kind == "ref"), None)
        pairs = [(p, n) for p in progs for n in names]
        times = {(p.name, n): [] for p, n in pairs}
        rss = {(p.name, n): [] for p, n in pairs}
        cpus = {(p.name, n): [] for p, n in pairs}
        load0 = os.getloadavg()[0]
        for i in range(a.warmup + a.rounds):
            random.shuffle(pairs)
            for p, n in pairs:
                dt, code, kib, cpu = r.once(p, n)
                if code != 0:
                    print(f"bench-process: {p.name} on {n} exited {code}", file=sys.stderr)
                    return 1
                if i >= a.warmup:
                    times[p.name, n].append(dt)
                    rss[p.name, n].append(kib)
                    cpus[p.name, n].append(cpu)
        load1 = os.getloadavg()[0]
        res = report(progs, names, times, rss, cpus, peer, a.rounds, (load0, load1), not a.smoke)
        if a.smoke:
            print("bench-process: smoke run (3 rounds): it runs and the guards agree; the timings mean nothing")
        if a.json:
            pathlib.Path(a.json).write_text(json.dumps(res, indent=2) + "\n")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
