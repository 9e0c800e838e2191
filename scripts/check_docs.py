#!/usr/bin/env python3
"""Link checker for the repository's documentation (`make docs-check`).

Fails on any reference, in a tracked *.md file, that does not resolve inside
this repository:

- Markdown links and images `[text](target)` with a relative target: the
  file or directory must exist (relative to the linking file), and a
  `#anchor` must be a heading of the target (GitHub's slugs).
- Repository paths in text or code spans (`core/src/runtime.rs`,
  `fixtures/<agent>/`): a token starting with a top-level directory of the
  repository must exist; a placeholder (`<agent>`, `*`) is checked up to the
  directory before it.
- Bare document names (`STYLE.md`): some tracked file must have that name.

It also reads the messages of the build files and the CLI (mk/*.mk, the
Makefile, the string literals of cli/src and of the core's run entry and
errors) for `*.md` paths, which must exist too. Usage: check_docs.py [--root DIR]; prints each problem as
`file:line: message` and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterable, List, Set, Tuple

# Names that are not files of this repository but of the agents (OpenClaw
# loads `HOOK.md` hook folders): mentioned as the agents' own concepts.
AGENT_FILE_NAMES = {"HOOK.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md"}
# Paths the agents read in a user's project (Copilot CLI's hook files) that
# start like a directory of this repository (.github/ holds our workflows).
AGENT_PATH_PREFIXES = (".github/hooks/",)

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
BARE_MD = re.compile(r"(?<![\w./<>-])([A-Za-z0-9_][A-Za-z0-9_.-]*\.md)\b")
FENCE = re.compile(r"^\s*(```|~~~)")


def tracked(root: Path) -> List[str]:
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=root, capture_output=True, text=True, check=True,
    ).stdout
    return [l for l in out.splitlines() if l and (root / l).exists()]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading text."""
    h = re.sub(r"`([^`]*)`", r"\1", heading.strip())
    h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", h)
    h = h.lower()
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


def anchors(path: Path, cache: Dict[Path, Set[str]]) -> Set[str]:
    if path not in cache:
        seen: Dict[str, int] = {}
        found: Set[str] = set()
        in_fence = False
        for line in path.read_text(encoding="utf-8").splitlines():
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if m:
                s = slug(m.group(2))
                n = seen.get(s, 0)
                seen[s] = n + 1
                found.add(s if n == 0 else f"{s}-{n}")
            for a in re.findall(r"<a (?:name|id)=\"([^\"]+)\"", line):
                found.add(a)
        cache[path] = found
    return cache[path]


def path_tokens(line: str, tops: Set[str]) -> Iterable[str]:
    """Tokens that name a repository path (start with a top-level dir)."""
    for tok in re.findall(r"[A-Za-z0-9_.<>*{}$-]+(?:/[A-Za-z0-9_.<>*{}$@:-]*)+", line):
        first = tok.split("/", 1)[0]
        if first in tops and not tok.startswith("http"):
            yield tok


def check_path(root: Path, base: Path, tok: str) -> bool:
    """Whether a path token exists, relative to the repository root or to
    the referring file's directory; placeholders are checked up to the
    directory before them."""
    tok = tok.rstrip(".,:;)")
    tok = tok.split("#", 1)[0].split("::", 1)[0]
    if "vX.Y.Z" in tok:
        return True  # a tag name, not a path
    if tok.startswith(AGENT_PATH_PREFIXES):
        return True  # an agent's path in the user's project
    parts = tok.split("/")
    cut = [i for i, p in enumerate(parts) if re.search(r"[<>*{}$]", p)]
    if cut:
        parts = parts[: cut[0]]
        if not parts:
            return True
    rel = "/".join(p for p in parts if p)
    # `§` ranges and line suffixes: `file.rs:12`
    rel = re.sub(r":\d+(-\d+)?$", "", rel)
    return (root / rel).exists() or (base / rel).exists()


def check_markdown(root: Path, files: List[str], names: Set[str], tops: Set[str]) -> List[str]:
    problems: List[str] = []
    cache: Dict[Path, Set[str]] = {}
    for f in files:
        path = root / f
        base = path.parent
        in_fence = False
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if in_fence:
                # Code and payloads: their paths are data, not references.
                continue
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
                    continue  # http:, mailto:, ...
                file_part, _, anchor = target.partition("#")
                dest = path if not file_part else (base / file_part)
                if not dest.exists():
                    problems.append(f"{f}:{n}: link to `{target}`: no such file")
                    continue
                if anchor and dest.suffix == ".md" and anchor not in anchors(dest.resolve(), cache):
                    problems.append(f"{f}:{n}: link to `{target}`: no heading `#{anchor}` in {dest.relative_to(root) if dest.resolve().is_relative_to(root) else dest}")
            stripped = LINK.sub("", line)
            for tok in path_tokens(stripped, tops):
                if not check_path(root, base, tok):
                    problems.append(f"{f}:{n}: `{tok}` does not exist in this repository")
            for tok in re.findall(r"(?<![\w/.-])((?:\.{1,2}/|[A-Za-z0-9_-]+/)[\w./-]*\.md)\b", stripped):
                if tok.split("/", 1)[0] not in tops and not check_path(root, base, tok):
                    problems.append(f"{f}:{n}: `{tok}` does not exist in this repository")
            for name in BARE_MD.findall(stripped):
                if name in AGENT_FILE_NAMES or name in names:
                    continue
                problems.append(f"{f}:{n}: `{name}` is not a file of this repository")
    return problems


def check_messages(root: Path, files: List[str], names: Set[str], tops: Set[str]) -> List[str]:
    """`*.md` references in build-file messages and CLI/core string literals."""
    problems: List[str] = []
    for f in files:
        if not (f in ("Makefile",) or (f.startswith("mk/") and f.endswith(".mk"))
                or (f.startswith("cli/src/") and f.endswith(".rs"))
                or f in ("core/src/runtime.rs", "core/src/error.rs")):
            continue
        path = root / f
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0] if f.endswith(".rs") else line
            if f.endswith(".rs"):
                texts = re.findall(r"\"((?:[^\"\\]|\\.)*)\"", code)
            else:
                texts = [code.split("#", 1)[0]] if not code.lstrip().startswith("#") else []
            for t in texts:
                for tok in path_tokens(t, tops):
                    if tok.endswith(".md") and not check_path(root, root, tok):
                        problems.append(f"{f}:{n}: message names `{tok}`, which does not exist")
                for name in BARE_MD.findall(t):
                    if name not in names and name not in AGENT_FILE_NAMES:
                        problems.append(f"{f}:{n}: message names `{name}`, not a file of this repository")
    return problems


# Each package a user installs carries the license texts at its root (the
# Go module, the npm package, the wheel's source tree): copies of the
# repository's own, kept identical here.
LICENSE_FILES = ("LICENSE-MIT", "LICENSE-APACHE")
LICENSE_COPIES = ("bindings/go", "bindings/node", "bindings/python")


def check_licenses(root: Path) -> List[str]:
    problems = []
    for name in LICENSE_FILES:
        src = root / name
        if not src.is_file():
            problems.append(f"{name}: missing at the repository root")
            continue
        for pkg in LICENSE_COPIES:
            copy = root / pkg / name
            if not copy.is_file() or copy.read_bytes() != src.read_bytes():
                problems.append(f"{pkg}/{name}: must be a copy of {name} (cp {name} {pkg}/)")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    args = ap.parse_args()
    root = Path(args.root).resolve()
    files = tracked(root)
    names = {Path(f).name for f in files}
    tops = {f.split("/", 1)[0] for f in files if "/" in f}
    md = [f for f in files if f.endswith(".md") and "node_modules/" not in f]
    problems = (
        check_markdown(root, md, names, tops)
        + check_messages(root, files, names, tops)
        + check_licenses(root)
    )
    for p in problems:
        print(p)
    print(f"docs-check: {len(md)} Markdown files, {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
