#!/usr/bin/env python3
"""One version for every artifact (`make dist-version-check`, docs/release.md).

The version is the Cargo workspace's (`[workspace.package] version` in the
top-level Cargo.toml). Every other place that states a version of agenthooks
must state the same one; this script fails naming each file and line that
does not:

- every workspace crate: `version.workspace = true` or the same literal, and
  the `agenthooks` entry of `[workspace.dependencies]` (the version the
  packaged CLI crate depends on);
- bindings/python/pyproject.toml: the version is `dynamic` (maturin reads it
  from Cargo), or a literal equal to it;
- bindings/node/package.json, package-lock.json (top and `packages[""]`),
  every per-platform package `bindings/node/npm/*/package.json`, and the
  pinned versions of `agenthooks-*` / `@agenthooks/*` optional dependencies;
- generated files that embed it: the napi loader bindings/node/index.js,
  include/agenthooks.h (`AH_VERSION` and its parts);
- doc comments quoting it (ffi/src/version.rs, bindings/go/api.go);
- install lines of the README, docs/ and binding READMEs that name a version
  (`agenthooks-X.Y.Z...` artifact names, `agenthooks==X.Y.Z`,
  `agenthooks@X.Y.Z`, `agenthooks = "X.Y"` in Cargo syntax).

Usage: check_versions.py [--root DIR] [--print]
  --print  prints the workspace version and exits (for the Makefile).
Other helpers' mk files may call it; it only reads.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11: the few keys read here by regex
    tomllib = None  # type: ignore[assignment]

SEMVER = r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?"

# Version mentions in prose and install lines. Each pattern's group 1 is the
# version; `compatible` mentions (Cargo requirements) may name a prefix.
DOC_PATTERNS: List[Tuple[re.Pattern[str], bool]] = [
    # artifact names: agenthooks-0.1.0.crate, agenthooks-0.1.0-py3-..., agenthooks-cli-0.1.0...
    # (the version's own pre-release part and a platform suffix both follow
    # a `-`: such a mention is right when it starts with the version)
    (re.compile(r"\bagenthooks(?:-cli|_ffi|-ffi)?-(\d+\.\d+\.\d+)(?=[.\-_/ \)`'\"]|$)"), False),
    # pip / npm / go pins
    (re.compile(r"\bagenthooks(?:\[[^\]]*\])?\s*==\s*(" + SEMVER + r")"), False),
    (re.compile(r"(?:^|[\s`'\"(])agenthooks@v?(" + SEMVER + r")"), False),
    (re.compile(r"bindings/go@v(" + SEMVER + r")"), False),
    # Cargo: agenthooks = "0.1" / agenthooks = { version = "0.1.0" }
    (re.compile(r"\bagenthooks(?:-cli)?\s*=\s*\"(\d+(?:\.\d+){0,2})\""), True),
    (re.compile(r"\bagenthooks(?:-cli)?\s*=\s*\{[^}]*version\s*=\s*\"(\d+(?:\.\d+){0,2})\""), True),
]


def workspace_version(root: Path) -> str:
    text = (root / "Cargo.toml").read_text(encoding="utf-8")
    if tomllib is not None:
        data = tomllib.loads(text)
        v = data.get("workspace", {}).get("package", {}).get("version")
    else:
        sec = re.search(r"^\[workspace\.package\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
        m = re.search(r'^version\s*=\s*"([^"]+)"', sec.group(1), re.M) if sec else None
        v = m.group(1) if m else None
    if not isinstance(v, str) or not re.fullmatch(SEMVER, v):
        raise SystemExit("check_versions: Cargo.toml: no semver version in [workspace.package]")
    return v


def line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


class Checker:
    def __init__(self, root: Path, want: str) -> None:
        self.root = root
        self.want = want
        self.problems: List[str] = []
        self.checked: List[str] = []

    def rel(self, p: Path) -> str:
        return str(p.relative_to(self.root))

    def bad(self, p: Path, line: Optional[int], what: str, got: str) -> None:
        where = self.rel(p) + (f":{line}" if line else "")
        self.problems.append(
            f"{where}: {what} is {got!r}, the workspace version (Cargo.toml [workspace.package]) is {self.want!r}"
        )

    def compatible(self, got: str) -> bool:
        """A Cargo requirement like "0.1" or "0.1.0" that the version satisfies
        as a caret requirement naming the same leading parts."""
        parts = got.split(".")
        return self.want.split("-")[0].split(".")[: len(parts)] == parts

    # -- Cargo ---------------------------------------------------------------
    def crates(self) -> None:
        top = self.root / "Cargo.toml"
        text = top.read_text(encoding="utf-8")
        members: List[str] = []
        if tomllib is not None:
            data = tomllib.loads(text)
            members = list(data.get("workspace", {}).get("members", []))
            dep = data.get("workspace", {}).get("dependencies", {}).get("agenthooks")
            if isinstance(dep, dict) and "version" in dep:
                m = re.search(r'^agenthooks\s*=.*version\s*=\s*"', text, re.M)
                got = str(dep["version"]).lstrip("=^~")
                if got != self.want:
                    self.bad(top, line_of(text, m.start()) if m else None,
                             "[workspace.dependencies] agenthooks version", got)
            elif isinstance(dep, dict):
                self.problems.append(
                    "Cargo.toml: [workspace.dependencies] agenthooks has no version; "
                    "the CLI crate cannot be packaged against the published core without one"
                )
        else:
            m = re.search(r"^members\s*=\s*\[(.*?)\]", text, re.M | re.S)
            members = re.findall(r'"([^"]+)"', m.group(1)) if m else []
        self.checked.append("Cargo.toml")
        for member in members:
            manifest = self.root / member / "Cargo.toml"
            if not manifest.is_file():
                continue
            mtext = manifest.read_text(encoding="utf-8")
            pkg = re.search(r"^\[package\]\s*$(.*?)(?=^\[|\Z)", mtext, re.M | re.S)
            if not pkg:
                continue
            body = pkg.group(1)
            inherited = re.search(r"^version\.workspace\s*=\s*true\s*$", body, re.M) or re.search(
                r"^version\s*=\s*\{\s*workspace\s*=\s*true\s*\}", body, re.M
            )
            vm = re.search(r'^version\s*=\s*"([^"]*)"', body, re.M)
            if vm:
                if vm.group(1) != self.want:
                    self.bad(manifest, line_of(mtext, pkg.start(1) + vm.start()), "[package] version", vm.group(1))
            elif not inherited:
                self.problems.append(f"{self.rel(manifest)}: [package] has no version (want version.workspace = true)")
            self.checked.append(self.rel(manifest))

    # -- Python ----------------------------------------------------------------
    def python(self) -> None:
        p = self.root / "bindings/python/pyproject.toml"
        if not p.is_file():
            return
        text = p.read_text(encoding="utf-8")
        proj = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
        body = proj.group(1) if proj else ""
        vm = re.search(r'^version\s*=\s*"([^"]*)"', body, re.M)
        dyn = re.search(r"^dynamic\s*=\s*\[([^\]]*)\]", body, re.M)
        if vm:
            if vm.group(1) != self.want:
                self.bad(p, line_of(text, proj.start(1) + vm.start()) if proj else None, "[project] version", vm.group(1))
        elif not (dyn and '"version"' in dyn.group(1)):
            self.problems.append(f"{self.rel(p)}: [project] has neither a version nor dynamic = [\"version\"] (maturin then reads none)")
        self.checked.append(self.rel(p))

    # -- Node ------------------------------------------------------------------
    def node_json(self, p: Path) -> None:
        text = p.read_text(encoding="utf-8")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            self.problems.append(f"{self.rel(p)}:{e.lineno}: not JSON ({e.msg})")
            return

        def find(key: str, value: str) -> Optional[int]:
            m = re.search(r'"' + re.escape(key) + r'"\s*:\s*"' + re.escape(value) + '"', text)
            return line_of(text, m.start()) if m else None

        slots = [("version", data.get("version"))]
        if p.name == "package-lock.json":
            slots.append(('packages[""].version', (data.get("packages") or {}).get("", {}).get("version")))
        for what, got in slots:
            if got is not None and got != self.want:
                self.bad(p, find("version", str(got)), what, str(got))
        for section in ("optionalDependencies", "dependencies", "peerDependencies"):
            for name, spec in (data.get(section) or {}).items():
                if not (name.startswith("@agenthooks/") or name.startswith("agenthooks-")):
                    continue
                if str(spec).lstrip("=^~") != self.want:
                    self.bad(p, find(name, str(spec)), f"{section}[{name!r}]", str(spec))
        self.checked.append(self.rel(p))

    def node(self) -> None:
        base = self.root / "bindings/node"
        for name in ("package.json", "package-lock.json"):
            if (base / name).is_file():
                self.node_json(base / name)
        for p in sorted(base.glob("npm/*/package.json")):
            self.node_json(p)
        loader = base / "index.js"
        if loader.is_file():
            text = loader.read_text(encoding="utf-8")
            for m in re.finditer(r"bindingPackageVersion !== '([^']*)'", text):
                if m.group(1) != self.want:
                    self.bad(loader, line_of(text, m.start()), "the napi loader's expected binding version", m.group(1))
            self.checked.append(self.rel(loader))

    # -- generated header, doc comments ----------------------------------------
    def header(self) -> None:
        h = self.root / "include/agenthooks.h"
        if not h.is_file():
            return
        text = h.read_text(encoding="utf-8")
        m = re.search(r'^#define AH_VERSION "([^"]*)"', text, re.M)
        if not m:
            self.problems.append(f"{self.rel(h)}: no #define AH_VERSION")
        elif m.group(1) != self.want:
            self.bad(h, line_of(text, m.start()), "AH_VERSION", m.group(1))
        core = self.want.split("-")[0].split(".")
        for part, value in zip(("MAJOR", "MINOR", "PATCH"), core):
            pm = re.search(r"^#define AH_VERSION_" + part + r"\s+(\d+)", text, re.M)
            if pm and pm.group(1) != value:
                self.bad(h, line_of(text, pm.start()), f"AH_VERSION_{part}", pm.group(1))
        self.checked.append(self.rel(h))

    def quoted(self) -> None:
        for rel in ("ffi/src/version.rs", "bindings/go/api.go"):
            p = self.root / rel
            if not p.is_file():
                continue
            text = p.read_text(encoding="utf-8")
            for m in re.finditer(r'(?:library version|agenthooks library) \(`?"(' + SEMVER + r')"`?\)', text):
                if m.group(1) != self.want:
                    self.bad(p, line_of(text, m.start()), "the version quoted in a doc comment", m.group(1))
            self.checked.append(rel)

    # -- docs ------------------------------------------------------------------
    def doc_files(self) -> Iterator[Path]:
        yield self.root / "README.md"
        yield from sorted((self.root / "docs").glob("*.md"))
        yield from sorted(self.root.glob("bindings/*/README.md"))
        yield self.root / "cli/README.md"

    def docs(self) -> None:
        for p in self.doc_files():
            if not p.is_file():
                continue
            text = p.read_text(encoding="utf-8")
            for pattern, compatible in DOC_PATTERNS:
                for m in pattern.finditer(text):
                    got = m.group(1)
                    if compatible:
                        ok = self.compatible(got)
                    else:
                        rest = text[m.start(1):]
                        ok = rest.startswith(self.want) and not re.match(r"[0-9A-Za-z]", rest[len(self.want):len(self.want) + 1])
                    if not ok:
                        self.bad(p, line_of(text, m.start(1)), f"the version in {m.group(0).strip()!r}", got)
            self.checked.append(self.rel(p))


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    ap.add_argument("--print", action="store_true", help="print the workspace version and exit")
    args = ap.parse_args(argv)
    root = args.root.resolve()
    want = workspace_version(root)
    if args.print:
        print(want)
        return 0
    c = Checker(root, want)
    c.crates()
    c.python()
    c.node()
    c.header()
    c.quoted()
    c.docs()
    for p in c.problems:
        print(f"check_versions: {p}", file=sys.stderr)
    if c.problems:
        print(f"check_versions: {len(c.problems)} mismatch(es) with the workspace version {want}", file=sys.stderr)
        return 1
    print(f"check_versions: agenthooks {want} in {len(c.checked)} files (Cargo, pyproject, npm, header, docs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
