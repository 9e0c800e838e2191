#!/usr/bin/env python3
"""Installs the release artifacts in dist/ the way a user does and checks
they work (`make test-dist-python`, `test-dist-cli`, `test-dist-rust`;
docs/release.md).

Every case runs in a scratch directory with an empty HOME. The Python and
CLI cases also run with a PATH holding only a few symlinks (python3, sh and
the coreutils a user's shell has): no cargo, rustc, cc or any other build
tool, which each case asserts before it starts. The Rust case needs cargo
(it is the user's build tool there) and builds offline from the registry
cache ~/.cargo already holds.

Each case pipes a real Claude Code PreToolUse payload with an `rm -rf`
command (fixtures/claude-code/pretooluse-decisions.json) through what it
installed and compares the answer with the deny that vector's expected wire
form gives, and runs `agenthooks --version`. The Python and Rust guards are
the README's quickstarts, read from README.md (so the README and this test
cannot drift apart).

Usage: install_test.py python|cli|rust [--dist DIR] [--keep]
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile
import zlib
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
from check_versions import workspace_version  # noqa: E402

# The platform the artifacts are for (make's DIST_TARGET): this machine's.
TARGET = os.environ.get("DIST_TARGET", "x86_64-unknown-linux-gnu")
ARCH = TARGET.split("-")[0]
FIXTURE = ROOT / "fixtures" / "claude-code" / "pretooluse-decisions.json"
# What a user's shell offers besides python3; no compiler, linker or cargo.
USER_TOOLS = ["sh", "env", "cat", "ls", "mkdir", "rm", "cp", "mv", "tar", "gzip", "sha256sum", "uname", "head", "tr"]
BUILD_TOOLS = ["cargo", "rustc", "rustup", "cc", "gcc", "c++", "clang", "ld", "maturin"]


class Failure(Exception):
    pass


# The license texts every artifact that carries our code ships.
LICENSES = ("LICENSE-MIT", "LICENSE-APACHE")


def check(cond: bool, what: str) -> None:
    if not cond:
        raise Failure(what)


# -- the vector ---------------------------------------------------------------

def vector() -> Dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def payload() -> bytes:
    p = vector()["payload"]
    check("rm -rf" in p["tool_input"]["command"], f"{FIXTURE.name}: payload has no rm -rf command")
    return json.dumps(p).encode()


def expected_deny(reason: str) -> Dict[str, Any]:
    """The vector's wire answer to a deny with a reason, with `reason`."""
    for r in vector()["responses"]:
        d = r["decision"]
        if d.get("kind") == "deny" and set(d) == {"kind", "reason"}:
            wire = json.loads(json.dumps(r["wire"]["stdout_json"]).replace(json.dumps(d["reason"]), json.dumps(reason)))
            check(r["wire"]["exit_code"] == 0, "vector: a deny exits 0 on Claude Code")
            return wire
    raise Failure(f"{FIXTURE.name}: no deny-with-reason response")


def assert_deny(p: "subprocess.CompletedProcess[bytes]", reason: str, who: str) -> None:
    check(p.returncode == 0, f"{who}: exit {p.returncode}, stderr: {p.stderr.decode(errors='replace')}")
    try:
        got = json.loads(p.stdout)
    except json.JSONDecodeError:
        raise Failure(f"{who}: stdout is not JSON: {p.stdout[:300]!r}")
    want = expected_deny(reason)
    check(got == want, f"{who}: answered {got}, want {want}")
    print(f"  ok  {who}: deny on the wire ({json.dumps(got)})")


# -- README snippets ----------------------------------------------------------

def readme_block(section: str, lang: str) -> str:
    """The first ```lang block under the README heading `## section`."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^## " + re.escape(section) + r"\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    check(m is not None, f"README.md: no '## {section}' section")
    assert m is not None
    b = re.search(r"^```" + lang + r"\s*\n(.*?)^```\s*$", m.group(1), re.M | re.S)
    check(b is not None, f"README.md '## {section}': no ```{lang} block")
    assert b is not None
    return b.group(1)


def readme_line(section: str, lang: str, marker: str) -> str:
    """The command (comment dropped) of the line containing `marker` in a
    ```lang block under `## section`."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^## " + re.escape(section) + r"\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    check(m is not None, f"README.md: no '## {section}' section")
    assert m is not None
    for b in re.finditer(r"^```" + lang + r"\s*\n(.*?)^```\s*$", m.group(1), re.M | re.S):
        for line in b.group(1).splitlines():
            if marker in line:
                return line.split(" #", 1)[0].strip()
    raise Failure(f"README.md '## {section}': no ```{lang} line with {marker!r}")


# -- ELF facts ----------------------------------------------------------------

class Elf:
    """The few facts of a 64-bit little-endian ELF file the checks need."""

    def __init__(self, data: bytes, name: str) -> None:
        check(data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1, f"{name}: not a 64-bit little-endian ELF file")
        self.name = name
        phoff, shoff = struct.unpack_from("<QQ", data, 0x20)
        phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from("<HHHHH", data, 0x36)
        self.segments = [struct.unpack_from("<I", data, phoff + i * phentsize)[0] for i in range(phnum)]
        raw = []
        for i in range(shnum):
            name_off, _typ, _flags, _addr, off, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
            raw.append((name_off, off, size))
        strtab_off = raw[shstrndx][1] if shnum else 0
        self.sections: Dict[str, bytes] = {}
        for name_off, off, size in raw:
            end = data.index(b"\0", strtab_off + name_off)
            self.sections[data[strtab_off + name_off:end].decode()] = data[off:off + size]

    @property
    def dynamic_loader(self) -> bool:
        return 3 in self.segments  # PT_INTERP

    @property
    def symbols(self) -> bool:
        return ".symtab" in self.sections

    @property
    def dwarf(self) -> bool:
        return any(n.startswith(".debug_") for n in self.sections)

    def debuglink(self) -> Optional[tuple]:
        s = self.sections.get(".gnu_debuglink")
        if s is None:
            return None
        name = s[: s.index(b"\0")].decode()
        crc = struct.unpack_from("<I", s, len(s) - 4)[0]
        return name, crc


def check_shipped_binary(data: bytes, name: str) -> Elf:
    elf = Elf(data, name)
    check(not elf.dynamic_loader, f"{name}: dynamically linked (has PT_INTERP); the release binary is static")
    check(not elf.symbols and not elf.dwarf, f"{name}: not stripped (.symtab or .debug_* present)")
    print(f"  ok  {name}: static ELF, stripped ({len(data)} bytes)")
    return elf


# -- environments -------------------------------------------------------------

class Scratch:
    def __init__(self, keep: bool) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="agenthooks-dist-"))
        self.keep = keep
        self.home = self.dir / "home"
        self.home.mkdir()
        self.bin = self.dir / "userbin"
        self.bin.mkdir()

    def close(self, ok: bool) -> None:
        if self.keep:
            print(f"  (scratch kept: {self.dir})")
        else:
            shutil.rmtree(self.dir, ignore_errors=True)
            if not ok:
                print("  (--keep keeps the scratch directory to look into)")

    def user_path(self) -> str:
        """A PATH directory with python3 and a shell's coreutils only."""
        py = Path(os.path.realpath(sys.executable))
        (self.bin / "python3").symlink_to(py)
        for tool in USER_TOOLS:
            found = shutil.which(tool)
            check(found is not None, f"host has no {tool}")
            (self.bin / tool).symlink_to(os.path.realpath(str(found)) if tool != "sh" else str(found))
        return str(self.bin)

    def env(self, path: str, **extra: str) -> Dict[str, str]:
        e = {"PATH": path, "HOME": str(self.home), "LANG": "C.UTF-8", "TMPDIR": str(self.dir)}
        e.update(extra)
        return e

    def assert_no_build_tools(self, env: Dict[str, str]) -> None:
        probe = " ".join(BUILD_TOOLS)
        p = subprocess.run(
            ["sh", "-c", f'for t in {probe}; do if command -v "$t"; then exit 1; fi; done'],
            env=env, capture_output=True, text=True, executable=str(self.bin / "sh"),
        )
        check(p.returncode == 0, f"clean environment still has a build tool on PATH: {p.stdout.strip()}")
        print(f"  ok  no {', '.join(BUILD_TOOLS)} on PATH; HOME is empty")


def run(argv: List[str], env: Dict[str, str], cwd: Path, stdin: Optional[bytes] = None,
        who: Optional[str] = None) -> "subprocess.CompletedProcess[bytes]":
    p = subprocess.run(argv, env=env, cwd=cwd, input=stdin, capture_output=True)
    if who is not None and p.returncode != 0:
        raise Failure(f"{who}: exit {p.returncode}\n{p.stdout.decode(errors='replace')}{p.stderr.decode(errors='replace')}")
    return p


def one(dist: Path, pattern: str) -> Path:
    found = sorted(dist.glob(pattern))
    check(len(found) == 1, f"want exactly one {dist}/{pattern}, found {[f.name for f in found]} (run make dist)")
    return found[0]


def sha256_ok(artifact: Path) -> None:
    side = artifact.with_name(artifact.name + ".sha256")
    check(side.is_file(), f"{side.name} missing")
    want = side.read_text().split()
    got = hashlib.sha256(artifact.read_bytes()).hexdigest()
    check(want == [got, artifact.name], f"{side.name} says {want}, the file is {got}")


# -- cases --------------------------------------------------------------------

def case_python(dist: Path, s: Scratch, version: str) -> None:
    wheel = one(dist, "agenthooks-*.whl")
    m = re.fullmatch(rf"agenthooks-{re.escape(version)}-cp39-abi3-([\w.]+)\.whl", wheel.name)
    tags = m.group(1).split(".") if m else []
    check(bool(tags) and all(re.fullmatch(rf"manylinux(2014|_2_17)_{ARCH}", t) for t in tags),
          f"{wheel.name}: not an abi3 (cp39) manylinux2014 (glibc 2.17) {ARCH} wheel of {version}")
    with zipfile.ZipFile(wheel) as z:
        script = f"agenthooks-{version}.data/scripts/agenthooks"
        check(script in z.namelist(), f"{wheel.name}: no {script}")
        check((z.getinfo(script).external_attr >> 16) & 0o111 != 0, f"{wheel.name}: {script} is not executable")
        check_shipped_binary(z.read(script), f"{wheel.name}:{script}")
        for lic in LICENSES:
            check(any(re.fullmatch(rf"agenthooks-{re.escape(version)}\.dist-info/(licenses/)?(.*/)?{lic}", n)
                      for n in z.namelist()), f"{wheel.name}: no {lic} in its .dist-info")
        sos = [n for n in z.namelist() if n.endswith(".abi3.so")]
        check(len(sos) == 1, f"{wheel.name}: extension modules {sos}")
        so = Elf(z.read(sos[0]), sos[0])
        check(not so.symbols and not so.dwarf, f"{wheel.name}:{sos[0]}: not stripped")
        print(f"  ok  {wheel.name}: abi3 manylinux, {sos[0]} stripped, the CLI in .data/scripts")
    sdist = one(dist, f"agenthooks-{version}.tar.gz")
    with tarfile.open(sdist) as t:
        names = t.getnames()
        top = f"agenthooks-{version}"
        pkg_info = t.extractfile(f"{top}/PKG-INFO")
        check(pkg_info is not None and f"\nVersion: {version}\n" in pkg_info.read().decode(), f"{sdist.name}: PKG-INFO version")
        check(any(n.endswith("/core/src/lib.rs") for n in names), f"{sdist.name}: the core's sources are missing")
        check(f"{top}/pyproject.toml" in names, f"{sdist.name}: no pyproject.toml")
        for m in t.getmembers():
            f = t.extractfile(m) if m.isfile() else None
            check(f is None or f.read(4) != b"\x7fELF", f"{sdist.name}: ships a binary ({m.name})")
    print(f"  ok  {sdist.name}: sources only (PKG-INFO {version}, core sources, no binaries)")

    env = s.env(s.user_path())
    s.assert_no_build_tools(env)
    run(["python3", "-m", "venv", "venv"], env, s.dir, who="python3 -m venv")
    venv_bin = s.dir / "venv" / "bin"
    # The README's install line for the release files, as written, from the
    # directory holding dist/ (the only index it reaches is that directory).
    line = readme_line("Python quickstart", "sh", "--find-links dist/")
    venv_env = s.env(f"{venv_bin}:{s.bin}", PIP_DISABLE_PIP_VERSION_CHECK="1")
    run(["sh", "-c", line], venv_env, dist.parent, who=line)
    print(f"  ok  `{line}` into a fresh venv")

    guard = s.dir / "guard.py"
    guard.write_text(readme_block("Python quickstart", "python"), encoding="utf-8")
    # Wired as the README says: /abs/venv/bin/python3 /abs/guard.py agenthooks run --provider=claude-code
    p = run([str(venv_bin / "python3"), str(guard), "agenthooks", "run", "--provider=claude-code"], env, s.dir, payload())
    assert_deny(p, "destructive command", "README Python quickstart guard")

    p = run(["sh", "-c", "command -v agenthooks"], venv_env, s.dir, who="command -v agenthooks")
    on_path = Path(p.stdout.decode().strip())
    check(on_path == venv_bin / "agenthooks", f"agenthooks on PATH is {on_path}, not the venv's")
    check_shipped_binary(on_path.read_bytes(), "venv/bin/agenthooks")
    p = run(["agenthooks", "--version"], venv_env, s.dir, who="agenthooks --version")
    check(p.stdout.decode() == f"agenthooks {version}\n", f"agenthooks --version printed {p.stdout!r}")
    print(f"  ok  agenthooks --version (venv/bin): {p.stdout.decode().strip()}")
    p = run(["agenthooks", "respond", "--provider", "claude-code", "--decision", '{"kind":"deny","reason":"x"}'],
            venv_env, s.dir, payload())
    assert_deny(p, "x", "venv agenthooks respond")


def case_cli(dist: Path, s: Scratch, version: str) -> None:
    name = f"agenthooks-{version}-{TARGET}"
    archive = one(dist, f"{name}.tar.gz")
    debug = one(dist, f"{name}-debug.tar.gz")
    for a in (archive, debug):
        sha256_ok(a)
    print(f"  ok  {archive.name}, {debug.name}: sha256 files match")

    env = s.env(s.user_path())
    s.assert_no_build_tools(env)
    run(["tar", "-xzf", str(archive)], env, s.dir, who=f"tar -xzf {archive.name}")
    run(["tar", "-xzf", str(debug)], env, s.dir, who=f"tar -xzf {debug.name}")
    for lic in LICENSES:
        check((s.dir / name / lic).is_file(), f"{archive.name}: no {name}/{lic}")
    binary = s.dir / name / "agenthooks"
    check(binary.is_file() and os.access(binary, os.X_OK), f"{archive.name}: no executable {name}/agenthooks")
    data = binary.read_bytes()
    elf = check_shipped_binary(data, f"{name}/agenthooks")
    link = elf.debuglink()
    check(link is not None, f"{name}/agenthooks: no .gnu_debuglink")
    assert link is not None
    dbg = s.dir / f"{name}-debug" / link[0]
    check(dbg.is_file(), f"{debug.name}: no {name}-debug/{link[0]} (the binary's debuglink)")
    dbg_data = dbg.read_bytes()
    check(zlib.crc32(dbg_data) == link[1], f"{dbg.name}: CRC does not match the binary's debuglink (not its debug file)")
    check(Elf(dbg_data, dbg.name).symbols, f"{dbg.name}: holds no symbol table")
    print(f"  ok  {dbg.name}: the binary's debug file (debuglink CRC matches, {len(dbg_data)} bytes)")

    p = run([str(binary), "--version"], env, s.dir, who="agenthooks --version")
    check(p.stdout.decode() == f"agenthooks {version}\n", f"agenthooks --version printed {p.stdout!r}")
    print(f"  ok  agenthooks --version: {p.stdout.decode().strip()}")
    p = run([str(binary), "respond", "--provider", "claude-code", "--decision", '{"kind":"deny","reason":"x"}'],
            env, s.dir, payload())
    assert_deny(p, "x", "agenthooks respond")


def case_rust(dist: Path, s: Scratch, version: str) -> None:
    cargo_home = os.environ.get("CARGO_HOME") or str(Path.home() / ".cargo")
    rustup_home = os.environ.get("RUSTUP_HOME") or str(Path.home() / ".rustup")
    # The quickstart shares the workspace's target directory: its registry
    # dependencies are the ones `make build` compiled (same profile and
    # versions), so it compiles the packaged core and main.rs only (and
    # leaves target/debug/my-guard). The CLI crate cannot: its binary would
    # replace the workspace's target/debug/agenthooks; it builds in
    # target/dist-rust. AH_DIST_RUST_SHARED=0 builds both in the scratch
    # directory, as on a machine with nothing built.
    # Shared, the crates and the project sit at a fixed place per checkout,
    # so each run rebuilds the same packages instead of adding new ones to
    # target/; outside the repository, or cargo would take them for members
    # of this workspace.
    shared = os.environ.get("AH_DIST_RUST_SHARED", "1") != "0"
    quick_target = str(ROOT / "target") if shared else str(s.dir / "target")
    cli_target = str(ROOT / "target" / "dist-rust") if shared else str(s.dir / "target")
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    work = cache / f"agenthooks-dist-rust-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}" if shared else s.dir
    for d in ("crates", "my-guard"):
        shutil.rmtree(work / d, ignore_errors=True)
    crates = {}
    for crate in ("agenthooks", "agenthooks-cli"):
        f = one(dist, f"{crate}-{version}.crate")
        with tarfile.open(f) as t:
            t.extractall(work / "crates", filter="data")
        crates[crate] = work / "crates" / f"{crate}-{version}"
        check((crates[crate] / "Cargo.toml").is_file(), f"{f.name}: no {crate}-{version}/Cargo.toml")
        for lic in LICENSES:
            check((crates[crate] / lic).is_file(), f"{f.name}: no {crate}-{version}/{lic}")
    print(f"  ok  unpacked {', '.join(c + '-' + version + '.crate' for c in crates)}")

    env = s.env(os.environ["PATH"], CARGO_HOME=cargo_home, RUSTUP_HOME=rustup_home,
                CARGO_TARGET_DIR=quick_target, CARGO_TERM_COLOR="never")
    proj = work / "my-guard"
    (proj / "src").mkdir(parents=True)
    (proj / "Cargo.toml").write_text(
        '[package]\nname = "my-guard"\nversion = "0.1.0"\nedition = "2024"\n\n'
        f'[dependencies]\nagenthooks = {{ path = {json.dumps(str(crates["agenthooks"]))} }}\n',
        encoding="utf-8")
    (proj / "src" / "main.rs").write_text(readme_block("Rust quickstart", "rust"), encoding="utf-8")
    run(["cargo", "build", "--offline", "-q"], env, proj, who="cargo build (README Rust quickstart on the packaged crate)")
    guard = Path(env["CARGO_TARGET_DIR"]) / "debug" / "my-guard"
    p = run([str(guard), "agenthooks", "run", "--provider=claude-code"], env, proj, payload())
    assert_deny(p, "destructive command", "README Rust quickstart guard")

    # The CLI crate as crates.io would build it, its `agenthooks` dependency
    # being the packaged core.
    cli = crates["agenthooks-cli"]
    patch = f'patch.crates-io.agenthooks.path={json.dumps(str(crates["agenthooks"]))}'
    env["CARGO_TARGET_DIR"] = cli_target
    run(["cargo", "build", "--offline", "-q", "--config", patch], env, cli,
        who="cargo build of the packaged CLI crate against the packaged core")
    p = run([str(Path(cli_target) / "debug" / "agenthooks"), "--version"], env, cli, who="agenthooks --version")
    check(p.stdout.decode() == f"agenthooks {version}\n", f"agenthooks --version printed {p.stdout!r}")
    print(f"  ok  the packaged CLI crate builds; agenthooks --version: {p.stdout.decode().strip()}")


CASES = {"python": case_python, "cli": case_cli, "rust": case_rust}


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = ap.parse_args(argv)
    version = workspace_version(ROOT)
    s = Scratch(args.keep)
    print(f"test-dist-{args.case}: agenthooks {version} from {args.dist}")
    ok = False
    try:
        CASES[args.case](args.dist.resolve(), s, version)
        ok = True
    except Failure as e:
        print(f"test-dist-{args.case}: FAILED: {e}", file=sys.stderr)
    finally:
        s.close(ok)
    if ok:
        print(f"test-dist-{args.case}: passed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
