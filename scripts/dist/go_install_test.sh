#!/usr/bin/env bash
# test-dist-go: `go get` the module zip of dist/goproxy as a user does and
# build the README's Go quickstart guard; pipe a real Claude Code payload
# through it.
#
#   scripts/dist/go_install_test.sh GOPROXY_DIR MODULE VERSION
#
# The user's side runs with a PATH of go and the C toolchain cgo needs
# (gcc, as, ld) only: no cargo, rustc or make; an empty HOME, GOPATH, module
# cache and build cache; GOPROXY=file://GOPROXY_DIR (nothing else
# reachable), GOSUMDB=off, GOFLAGS=-mod=mod, GOTOOLCHAIN=local.
set -euo pipefail

proxy=$(cd "$1" && pwd)
module=$2
version=$3
repo=$(cd "$(dirname "$0")/../.." && pwd)
say() { echo "test-dist-go: $*"; }
die() { echo "test-dist-go: FAIL: $*" >&2; exit 1; }

[[ -f $proxy/$module/@v/$version.zip ]] || die "no $proxy/$module/@v/$version.zip (make dist-go)"
# The module carries the license texts at its root (pkg.go.dev shows a
# module's documentation only when it finds a license there).
for lic in LICENSE-MIT LICENSE-APACHE; do
  python3 -c 'import sys, zipfile; sys.exit(sys.argv[2] not in zipfile.ZipFile(sys.argv[1]).namelist())' \
    "$proxy/$module/@v/$version.zip" "$module@$version/$lic" || die "the module zip has no $lic at its root"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/ah-test-dist-go.XXXXXX")
# the module cache is read-only by design
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# ---- the user's tools: go, and the C compiler and binutils cgo drives
mkdir -p "$work/bin" "$work/home" "$work/tmp" "$work/project/readme" "$work/project/binding-readme"
for t in go gcc as ld; do
  p=$(command -v "$t") || die "$t not found"
  ln -s "$(readlink -f "$p")" "$work/bin/$t"
done

# ---- inputs prepared with the repository's tools: the README guards
# (verbatim) and the payloads
python3 - "$repo" "$work/project" "$module" <<'EOF'
import json, re, sys
repo, proj, module = sys.argv[1:]
def block(path, heading):
    text = open(f"{repo}/{path}").read()
    if heading:
        m = re.search(r"^## " + re.escape(heading) + r"\n\n```go\n(.*?)^```$", text, re.S | re.M)
    else:
        m = re.search(r"^```go\n(.*?)^```$", text, re.S | re.M)
    if not m:
        sys.exit(f"no ```go block {'under ## ' + heading if heading else ''} in {path}")
    return m.group(1)
# README.md's quickstart is the body of main(): the program around it is
# the one bindings/go/README.md shows.
body = block("README.md", "Go quickstart")
with open(f"{proj}/readme/main.go", "w") as f:
    f.write('package main\n\nimport (\n\t"context"\n\t"strings"\n\n\tagenthooks "%s"\n)\n\nfunc main() {\n%s}\n' % (module, body))
# bindings/go/README.md opens with a whole program
prog = block("bindings/go/README.md", None)
if "package main" not in prog:
    sys.exit("bindings/go/README.md: the first ```go block is not a whole program")
with open(f"{proj}/binding-readme/main.go", "w") as f:
    f.write(prog)
for name in ("pretooluse-decisions", "pretooluse-bash"):
    payload = json.load(open(f"{repo}/fixtures/claude-code/{name}.json"))["payload"]
    with open(f"{proj}/../{name}.payload.json", "w") as f:
        json.dump(payload, f, separators=(",", ":"))
EOF
grep -q '"command":"rm -rf' "$work/pretooluse-decisions.payload.json" || die "fixtures/claude-code/pretooluse-decisions.json: no rm -rf command"

# The README's install line (README.md, bindings/go/README.md), run below
# with GOPROXY set as that line sets it.
get="go get $module@latest"
grep -qF "GOPROXY=file://\$PWD/dist/goproxy GOSUMDB=off $get" "$repo/README.md" || die "README.md no longer says: $get"
grep -qF "GOPROXY=file://\$PWD/dist/goproxy GOSUMDB=off $get" "$repo/bindings/go/README.md" || die "bindings/go/README.md no longer says: $get"

# ---- the user
cd "$work/project"
env -i HOME="$work/home" TMPDIR="$work/tmp" PATH="$work/bin" LANG=C.UTF-8 \
  GOPATH="$work/gopath" GOMODCACHE="$work/gopath/pkg/mod" GOCACHE="$work/gocache" \
  GOFLAGS=-mod=mod GOPROXY="file://$proxy" GOSUMDB=off GOTOOLCHAIN=local GOTELEMETRY=off CGO_ENABLED=1 \
  AH_MODULE="$module" AH_VERSION="$version" AH_WORK="$work" AH_GET="$get" \
  /bin/bash -euo pipefail -c '
say() { echo "test-dist-go: $*"; }
die() { echo "test-dist-go: FAIL: $*" >&2; exit 1; }
for t in cargo rustc rustup make; do
  if command -v "$t" >/dev/null; then die "$t is on the user PATH"; fi
done
say "PATH has $(go version), gcc $(gcc -dumpversion); no cargo, rustc or make; GOPROXY=$GOPROXY"

go mod init example.com/guard 2>/dev/null
$AH_GET
got=$(go list -m -f "{{.Version}}" "$AH_MODULE")
[[ $got == "$AH_VERSION" ]] || die "$AH_GET gave $got, expected $AH_VERSION"
go mod verify
dir=$(go list -m -f "{{.Dir}}" "$AH_MODULE")
plat=$(go env GOOS)_$(go env GOARCH)
[[ -f $dir/lib/$plat/libagenthooks_ffi.a && -f $dir/include/agenthooks.h ]] || die "the module in $dir has no lib/$plat or header"
say "$AH_GET: $AH_VERSION in $dir"

for prog in readme binding-readme; do
  go build -o "$AH_WORK/$prog" "./$prog"
  out=$("$AH_WORK/$prog" agenthooks run --provider=claude-code <"$AH_WORK/pretooluse-decisions.payload.json")
  case $out in
    *\"hookEventName\":\"PreToolUse\"*\"permissionDecision\":\"deny\"*\"permissionDecisionReason\":\"destructive\ command\"*) ;;
    *) die "$prog guard: not a deny: $out" ;;
  esac
  say "$prog guard denies rm -rf: $out"
  out=$("$AH_WORK/$prog" agenthooks run --provider=claude-code <"$AH_WORK/pretooluse-bash.payload.json")
  case $out in *deny*) die "$prog guard denied a harmless command: $out" ;; esac
  say "$prog guard lets a harmless command through: ${out:-<no output>}"
done
'
say "passed"
