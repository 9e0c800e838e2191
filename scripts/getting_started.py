#!/usr/bin/env python3
"""Runs docs/getting-started.md as written (`make getting-started`).

The page is read top to bottom, once per language. A ```sh block runs; a
block after `<!-- file: PATH -->` is written to PATH (relative to where the
commands stand at that point); a ```text block after `<!-- output -->` holds
lines the output of the ```sh block before it must contain (each line,
`…` standing for anything, found within one line of that output). Blocks
between `<!-- lang: X -->` and `<!-- /lang -->` belong to language X only.
All blocks of one language run as one bash script (`set -euo pipefail`)
from the repository root, with HOME set to a scratch directory (outside
the repository, under the user's cache directory), so cd, variables and
files carry over as they do for a reader. The run must leave the
repository's files as it found them.

Usage: getting_started.py [LANG ...]   (default: every language of the page)
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "getting-started.md"
# Outside the repository: `cargo new` inside the workspace directory would
# add the reader's crate to the workspace's members. A cache directory, so
# the Rust guard's build is reused between runs.
# One per checkout (two clones never share it). The Rust guard's build is
# kept beside the reader's HOME (see scratch_home), so `cargo new` always
# starts from an empty HOME.
SCRATCH = (Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
           / f"agenthooks-getting-started-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}")

Block = Tuple[str, str, Optional[str], Optional[str]]  # (kind, text, lang, path)


def parse(text: str) -> List[Block]:
    """The page's blocks in order: ("sh", code, lang, None), ("file", code,
    lang, path), ("output", text, lang, None)."""
    blocks: List[Block] = []
    lang: Optional[str] = None
    pending: Optional[Tuple[str, Optional[str]]] = None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^<!-- lang: (\w+) -->$", line)
        if m:
            lang = m.group(1)
        elif line == "<!-- /lang -->":
            lang = None
        elif (m := re.match(r"^<!-- file: (\S+) -->$", line)):
            pending = ("file", m.group(1))
        elif line == "<!-- output -->":
            pending = ("output", None)
        elif (m := re.match(r"^```(\w*)$", line)):
            info = m.group(1)
            body: List[str] = []
            i += 1
            while i < len(lines) and lines[i] != "```":
                body.append(lines[i])
                i += 1
            code = "\n".join(body) + "\n"
            if pending and pending[0] == "file":
                blocks.append(("file", code, lang, pending[1]))
            elif pending and pending[0] == "output":
                blocks.append(("output", code, lang, None))
            elif info == "sh":
                blocks.append(("sh", code, lang, None))
            pending = None
        i += 1
    return blocks


def languages(blocks: List[Block]) -> List[str]:
    out: List[str] = []
    for _, _, lang, _ in blocks:
        if lang and lang not in out:
            out.append(lang)
    return out


def script_for(blocks: List[Block], lang: str, outdir: Path) -> Tuple[str, Dict[int, str]]:
    """The bash script of one language, and the expected output per
    captured sh block number."""
    parts = ["set -euo pipefail"]
    expects: Dict[int, str] = {}
    mine = [b for b in blocks if b[2] in (None, lang)]
    for n, (kind, code, _, path) in enumerate(mine):
        if kind == "file":
            parts.append(f"cat > '{path}' <<'AGENTHOOKS_GUIDE_EOF'\n{code}AGENTHOOKS_GUIDE_EOF")
        elif kind == "sh":
            captured = n + 1 < len(mine) and mine[n + 1][0] == "output"
            parts.append(f"echo '$ [block {n}]' >&2")
            if captured:
                out = outdir / f"block-{n}.txt"
                parts.append(f"{{\n{code}}} > '{out}' 2>&1 || {{ cat '{out}'; exit 1; }}\ncat '{out}'")
                expects[n] = mine[n + 1][1]
            else:
                parts.append(code)
    return "\n".join(parts) + "\n", expects


def matches(expected: str, output: str) -> List[str]:
    """Expected lines not found (each within one output line)."""
    missing = []
    out_lines = output.splitlines()
    for line in expected.splitlines():
        if not line.strip():
            continue
        rx = re.compile(".*".join(re.escape(p) for p in line.strip().split("…")))
        if not any(rx.search(o) for o in out_lines):
            missing.append(line)
    return missing


def scratch_home(lang: str) -> Path:
    """An empty HOME for one language. Its `.cargo/config.toml` (read by
    cargo run anywhere below HOME, never in the repository) sends the
    guide's crate's build to a directory beside HOME that outlives the run:
    a cache, the commands are run all the same."""
    home = SCRATCH / lang / "home"
    shutil.rmtree(home, ignore_errors=True)
    (home / ".cargo").mkdir(parents=True)
    target = (SCRATCH / lang / "cargo-target").as_posix()
    (home / ".cargo" / "config.toml").write_text(f'[build]\ntarget-dir = "{target}"\n')
    return home


def environment(home: Path) -> Dict[str, str]:
    """The reader's environment with HOME moved: the toolchains and their
    caches stay where they are (they live under the real HOME)."""
    env = dict(os.environ)
    real = Path(os.environ.get("HOME", str(Path.home())))
    for var, default in [
        ("CARGO_HOME", real / ".cargo"),
        ("RUSTUP_HOME", real / ".rustup"),
        ("PYENV_ROOT", real / ".pyenv"),
        ("npm_config_cache", real / ".npm"),
    ]:
        if var not in env and default.exists():
            env[var] = str(default)
    for var in ("GOPATH", "GOCACHE", "GOMODCACHE"):
        if var not in env and shutil.which("go"):
            v = subprocess.run(["go", "env", var], capture_output=True, text=True).stdout.strip()
            if v:
                env[var] = v
    for var in ("AGENTHOOKS_STATE_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "CODEX_HOME",
                "COPILOT_HOME", "KIMI_CODE_HOME", "OPENCLAW_STATE_DIR", "AGENTHOOKS_NOTES"):
        env.pop(var, None)
    env["HOME"] = str(home)
    return env


def run(lang: str, blocks: List[Block]) -> bool:
    home = scratch_home(lang)
    outdir = SCRATCH / lang / "out"
    shutil.rmtree(outdir, ignore_errors=True)
    outdir.mkdir(parents=True)
    script, expects = script_for(blocks, lang, outdir)
    (SCRATCH / lang / "guide.sh").write_text(script)
    p = subprocess.run(["bash", str(SCRATCH / lang / "guide.sh")], cwd=ROOT, env=environment(home),
                       capture_output=True, text=True, timeout=1800)
    ok = p.returncode == 0
    problems = [] if ok else [f"exit {p.returncode}"]
    for n, expected in expects.items():
        f = outdir / f"block-{n}.txt"
        got = f.read_text() if f.exists() else ""
        if ok:
            for line in matches(expected, got):
                problems.append(f"block {n}: output lacks: {line}")
    if problems:
        print(f"getting-started [{lang}]: FAILED ({'; '.join(problems)})", file=sys.stderr)
        print(f"--- stdout\n{p.stdout[-6000:]}\n--- stderr\n{p.stderr[-6000:]}", file=sys.stderr)
        return False
    print(f"getting-started [{lang}]: ok ({len(blocks)} blocks, {len(expects)} outputs checked)")
    return True


STATUS_AT_START = ""


def main(argv: List[str]) -> int:
    global STATUS_AT_START
    STATUS_AT_START = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True,
                                     text=True).stdout
    blocks = parse(PAGE.read_text())
    langs = languages(blocks)
    want = argv or langs
    unknown = [l for l in want if l not in langs]
    if unknown:
        print(f"getting-started: no such language on the page: {unknown} (the page has {langs})",
              file=sys.stderr)
        return 2
    results = [run(l, blocks) for l in want]
    before = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout
    if before != STATUS_AT_START:
        print("getting-started: the guide changed files of the repository:\n" + before, file=sys.stderr)
        return 1
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
