#!/usr/bin/env python3
"""The version check fails, naming the file, for each kind of place a
version can drift (`make test-dist-version-check`).

Copies the files check_versions.py reads into a scratch root, checks the
copy passes, then changes one place at a time and asserts the check fails
with that file (and line) in its message.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, List, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CHECK = HERE / "check_versions.py"

FILES = [
    "Cargo.toml", "core/Cargo.toml", "cli/Cargo.toml", "ffi/Cargo.toml", "bindings/node/Cargo.toml",
    "bindings/python/Cargo.toml", "examples/rust/guard/Cargo.toml", "bindings/python/pyproject.toml",
    "bindings/node/package.json", "bindings/node/package-lock.json", "bindings/node/index.js",
    "include/agenthooks.h", "ffi/src/version.rs", "bindings/go/api.go", "README.md",
    "bindings/python/README.md",
]


def sub(rel: str, pattern: str, repl: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        p = root / rel
        text = p.read_text(encoding="utf-8")
        new, n = re.subn(pattern, repl, text, count=1, flags=re.M)
        if n != 1:
            raise SystemExit(f"test_check_versions: {rel}: pattern {pattern!r} not found (update this test)")
        p.write_text(new, encoding="utf-8")
    return apply


def add_npm_platform_package(root: Path) -> None:
    d = root / "bindings/node/npm/linux-x64-gnu"
    d.mkdir(parents=True)
    (d / "package.json").write_text('{\n  "name": "agenthooks-linux-x64-gnu",\n  "version": "0.0.1"\n}\n')


def main() -> int:
    want = subprocess.run([sys.executable, str(CHECK), "--print"], capture_output=True, text=True, check=True).stdout.strip()
    other = "9.8.7"
    cases: List[Tuple[str, Callable[[Path], None], str]] = [
        ("a crate's own version", sub("cli/Cargo.toml", r"^version\.workspace = true$", f'version = "{other}"'), "cli/Cargo.toml:"),
        ("the core dependency's version", sub("Cargo.toml", r'(agenthooks = \{ path = "core", version = )"[^"]*"', rf'\1"{other}"'), "Cargo.toml:"),
        ("a static pyproject version", sub("bindings/python/pyproject.toml", r'^dynamic = \["version"\]$', f'version = "{other}"'), "bindings/python/pyproject.toml:"),
        ("no version for maturin", sub("bindings/python/pyproject.toml", r'^dynamic = \["version"\]$', ""), "bindings/python/pyproject.toml:"),
        ("package.json", sub("bindings/node/package.json", r'"version": "[^"]*"', f'"version": "{other}"'), "bindings/node/package.json:"),
        ("package-lock.json", sub("bindings/node/package-lock.json", r'"version": "[^"]*"', f'"version": "{other}"'), "bindings/node/package-lock.json:"),
        ("an npm platform package", add_npm_platform_package, "bindings/node/npm/linux-x64-gnu/package.json:"),
        ("the napi loader", sub("bindings/node/index.js", r"bindingPackageVersion !== '[^']*'", f"bindingPackageVersion !== '{other}'"), "bindings/node/index.js:"),
        ("the C header", sub("include/agenthooks.h", r'^#define AH_VERSION "[^"]*"', f'#define AH_VERSION "{other}"'), "include/agenthooks.h:"),
        ("a quoted doc comment", sub("bindings/go/api.go", r'agenthooks library \("[^"]*"\)', f'agenthooks library ("{other}")'), "bindings/go/api.go:"),
        ("a README artifact name", sub("README.md", r"dist/agenthooks-[0-9.]+\.crate", f"dist/agenthooks-{other}.crate"), "README.md:"),
        ("a README platform archive", sub("README.md", r"agenthooks-[0-9.]+-x86_64", f"agenthooks-{other}-x86_64"), "README.md:"),
        ("a README pip pin", sub("bindings/python/README.md", r"^pip install agenthooks ", f"pip install agenthooks=={other} "), "bindings/python/README.md:"),
    ]
    failed = 0
    with tempfile.TemporaryDirectory(prefix="agenthooks-versions-") as tmp:
        base = Path(tmp) / "base"
        for rel in FILES:
            (base / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, base / rel)
        p = subprocess.run([sys.executable, str(CHECK), "--root", str(base)], capture_output=True, text=True)
        if p.returncode != 0:
            print(f"test_check_versions: the unchanged copy fails:\n{p.stderr}", file=sys.stderr)
            return 1
        for i, (what, change, names) in enumerate(cases):
            root = Path(tmp) / f"case{i}"
            shutil.copytree(base, root)
            change(root)
            p = subprocess.run([sys.executable, str(CHECK), "--root", str(root)], capture_output=True, text=True)
            if p.returncode == 0 or names not in p.stderr:
                failed += 1
                print(f"test_check_versions: {what}: want a failure naming {names!r}, got exit {p.returncode}: {p.stderr.strip()}", file=sys.stderr)
            else:
                print(f"  ok  {what}: {p.stderr.splitlines()[0]}")
    if failed:
        return 1
    print(f"test_check_versions: {len(cases)} drifts caught (workspace version {want})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
