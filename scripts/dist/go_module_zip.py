#!/usr/bin/env python3
"""dist-go: the Go module bindings/go as a module zip in the GOPROXY layout.

    go_module_zip.py OUT MODULE VERSION TIME MODDIR HEADER GOOS_GOARCH=LIB [GOOS_GOARCH=LIB ...]

Writes OUT/<escaped MODULE>/@v/{list, VERSION.info, VERSION.mod, VERSION.zip}:
a directory `GOPROXY=file://OUT` serves, as `go mod download` and the module
proxy protocol (https://go.dev/ref/mod#goproxy-protocol) expect. The zip holds
the files git tracks under MODDIR, plus include/agenthooks.h (HEADER) and
lib/<goos>_<goarch>/libagenthooks_ffi.a for each LIB given, every name under
the prefix `MODULE@VERSION/`. The module zip rules
(https://go.dev/ref/mod#zip-files; golang.org/x/mod/zip) are checked here,
so a bad zip fails `make dist-go` rather than a user's `go get`: regular
files only, portable paths, no case-insensitive duplicates, no vendor
directory, no nested module (a go.mod below the root), go.mod and LICENSE
under 16 MiB, the zip and its unpacked contents under 500 MiB.
"""

import datetime
import json
import os
import re
import stat
import subprocess
import sys
import zipfile

MAX_ZIP = 500 << 20  # x/mod/zip MaxZipFile, also the unpacked total
MAX_GO_MOD = 16 << 20
MAX_LICENSE = 16 << 20
# Conservative: what module.CheckFilePath allows and more than we need.
PATH_ELEM = re.compile(r"^[A-Za-z0-9_+~.-]+$")


def die(msg):
    sys.exit(f"dist-go: {msg}")


def escape(path):
    # module.EscapePath: upper case letters become '!' + lower case
    return "".join("!" + c.lower() if "A" <= c <= "Z" else c for c in path)


def check_path(rel):
    elems = rel.split("/")
    for e in elems:
        if not PATH_ELEM.match(e) or e in (".", ".."):
            die(f"{rel}: not a portable module file path (element {e!r})")
        if e.endswith(".") or e.lower() in ("con", "prn", "aux", "nul") or re.match(r"^(com|lpt)[0-9]$", e.lower().split(".")[0]):
            die(f"{rel}: element {e!r} is reserved on Windows")
    if "vendor" in elems[:-1]:
        die(f"{rel}: a module zip for a library carries no vendor directory")


def main():
    if len(sys.argv) < 8:
        die(__doc__)
    out, module, version, when, moddir, header = sys.argv[1:7]
    libs = [a.split("=", 1) for a in sys.argv[7:]]
    if not re.match(r"^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$", version):
        die(f"{version}: not a semantic version v<major>.<minor>.<patch>")
    major = int(version[1:].split(".")[0])
    if major >= 2 and not module.endswith(f"/v{major}"):
        die(f"{version} needs the module path to end in /v{major}")
    try:
        info_time = datetime.datetime.fromisoformat(when).astimezone(datetime.timezone.utc)
    except ValueError:
        die(f"{when}: not an ISO 8601 time")

    # What git tracks in the module directory (what a tag would hold);
    # lib/ and include/ are gitignored there and come from the arguments.
    tracked = subprocess.run(["git", "ls-files", "-z", "--", "."], cwd=moddir, check=True,
                             capture_output=True).stdout.decode().split("\0")
    files = {}  # zip-relative path -> source file
    for rel in filter(None, tracked):
        if rel.startswith(("lib/", "include/")):
            die(f"{moddir}/{rel} is tracked; lib/ and include/ come from the build")
        files[rel] = os.path.join(moddir, rel)
    files["include/agenthooks.h"] = header
    for plat, lib in libs:
        if not re.match(r"^[a-z0-9]+_[a-z0-9]+$", plat):
            die(f"{plat}: expected <goos>_<goarch>")
        files[f"lib/{plat}/libagenthooks_ffi.a"] = lib

    if "go.mod" not in files:
        die(f"{moddir} has no go.mod")
    nested = sorted(os.path.dirname(r) for r in files if r.endswith("/go.mod"))
    folded = {}
    total = 0
    for rel, src in sorted(files.items()):
        check_path(rel)
        for d in nested:
            if rel.startswith(d + "/"):
                die(f"{rel} is in the nested module {d}; it does not belong to this module")
        key = rel.lower()
        if key in folded:
            die(f"{rel} and {folded[key]} differ only in case")
        folded[key] = rel
        st = os.lstat(src)
        if not stat.S_ISREG(st.st_mode):
            die(f"{src}: not a regular file (module zips hold regular files only)")
        if rel == "go.mod" and st.st_size > MAX_GO_MOD:
            die(f"go.mod is {st.st_size} bytes, over {MAX_GO_MOD}")
        if rel == "LICENSE" and st.st_size > MAX_LICENSE:
            die(f"LICENSE is {st.st_size} bytes, over {MAX_LICENSE}")
        total += st.st_size
    if total > MAX_ZIP:
        die(f"the module is {total} bytes unpacked, over {MAX_ZIP}")

    vdir = os.path.join(out, escape(module), "@v")
    os.makedirs(vdir, exist_ok=True)
    zpath = os.path.join(vdir, f"{version}.zip")
    prefix = f"{module}@{version}/"
    with zipfile.ZipFile(zpath + ".tmp", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for rel, src in sorted(files.items()):
            zi = zipfile.ZipInfo(prefix + rel, date_time=(1980, 1, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            with open(src, "rb") as f:
                z.writestr(zi, f.read())
    size = os.path.getsize(zpath + ".tmp")
    if size > MAX_ZIP:
        os.remove(zpath + ".tmp")
        die(f"the zip is {size} bytes, over {MAX_ZIP}")
    os.replace(zpath + ".tmp", zpath)

    with open(files["go.mod"], "rb") as f:
        gomod = f.read()
    with open(os.path.join(vdir, f"{version}.mod"), "wb") as f:
        f.write(gomod)
    with open(os.path.join(vdir, f"{version}.info"), "w") as f:
        json.dump({"Version": version, "Time": info_time.strftime("%Y-%m-%dT%H:%M:%SZ")}, f, separators=(",", ":"))
        f.write("\n")
    listed = set()
    lpath = os.path.join(vdir, "list")
    if os.path.exists(lpath):
        with open(lpath) as f:
            listed = {v.strip() for v in f if v.strip()}
    listed.add(version)
    with open(lpath, "w") as f:
        f.write("".join(v + "\n" for v in sorted(listed)))
    print(f"dist-go: {os.path.relpath(zpath)} {size} bytes ({len(files)} files, {total} bytes unpacked)")


if __name__ == "__main__":
    main()
