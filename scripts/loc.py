#!/usr/bin/env python3
"""Hand-written, non-test, non-generated lines of code under bindings/ (issue 13's
measure), per language and per role. Counts non-blank lines of the files git tracks.

  python3 scripts/loc.py            # this checkout
  python3 scripts/loc.py --rev REV  # a commit (git show)

Excluded: tests (tests/, test/, *_test.go, plugins/test), benchmarks (bench/,
benches/, bench.mjs), examples, generated files (napi's index.js/index.d.ts, the fail
tables, anything whose first lines say "auto-generated"), docs and package metadata.
The failsafe stand-ins (_failsafe.py, lib/failsafe.js) are counted apart: they are a
deliberate second implementation that must run when the native library cannot load.
"""
import argparse
import subprocess
import sys

CODE = (".py", ".pyi", ".rs", ".js", ".mjs", ".cjs", ".ts", ".mts", ".go")
GENERATED = {"bindings/node/index.js", "bindings/node/index.d.ts"}
STANDINS = {"bindings/python/python/agenthooks/_failsafe.py", "bindings/node/lib/failsafe.js"}


def excluded(path: str) -> bool:
    parts = path.split("/")
    if any(p in ("tests", "test", "bench", "benches", "examples", "scripts") for p in parts):
        return True
    return path.endswith("_test.go") or path.endswith("bench.mjs") or path in GENERATED


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rev", default=None)
    a = ap.parse_args()
    rev = a.rev or "HEAD"
    if a.rev:
        files = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, "bindings"],
                               capture_output=True, text=True, check=True).stdout.split()
        read = lambda p: subprocess.run(["git", "show", f"{rev}:{p}"], capture_output=True,
                                        text=True, check=True).stdout
    else:
        files = subprocess.run(["git", "ls-files", "bindings"], capture_output=True,
                               text=True, check=True).stdout.split()
        read = lambda p: open(p, encoding="utf-8").read()
    totals, standins = {}, 0
    for p in sorted(files):
        if not p.endswith(CODE) or excluded(p):
            continue
        text = read(p)
        if "auto-generated" in "\n".join(text.splitlines()[:3]).lower():
            continue
        n = sum(1 for line in text.splitlines() if line.strip())
        if p in STANDINS:
            standins += n
            continue
        lang = p.split("/")[1]
        part = "plugins" if "/plugins/" in p else ("rust" if p.endswith(".rs") else "host-language")
        totals[(lang, part)] = totals.get((lang, part), 0) + n
    total = sum(totals.values())
    for (lang, part), n in sorted(totals.items()):
        print(f"{lang:8} {part:14} {n:6}")
    print(f"{'total':23} {total:6}   (+ failsafe stand-ins {standins})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
