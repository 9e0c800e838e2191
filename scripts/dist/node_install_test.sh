#!/usr/bin/env bash
# test-dist-node: install the npm tarballs of dist/ as a user does and run
# the README's Node quickstart guard on a real Claude Code payload.
#
#   scripts/dist/node_install_test.sh DIST VERSION
#
# The user's side runs with a PATH of node, npm, npx and sh only (no cargo,
# rustc, C compiler or make), an empty HOME and npm cache, in a fresh npm
# project, twice, with the README's two install lines: `npm install
# agenthooks` against a loopback registry (scripts/dist/node_registry.mjs)
# serving only the two tarballs, so npm itself resolves the platform package
# through the main package's optionalDependencies and checks its
# os/cpu/libc, as against npmjs.org; and `npm install ./dist/agenthooks-*.tgz`
# offline.
set -euo pipefail

dist=$(cd "$1" && pwd)
version=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
say() { echo "test-dist-node: $*"; }
die() { echo "test-dist-node: FAIL: $*" >&2; exit 1; }

[[ -f $dist/agenthooks-$version.tgz ]] || die "no $dist/agenthooks-$version.tgz (make dist-node)"

work=$(mktemp -d "${TMPDIR:-/tmp}/ah-test-dist-node.XXXXXX")
registry_pid=
cleanup() {
  if [[ -n $registry_pid ]]; then kill "$registry_pid" 2>/dev/null || true; wait "$registry_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# ---- the user's tools: node and npm, nothing that builds native code
mkdir -p "$work/bin" "$work/tmp"
for t in node npm npx sh; do
  p=$(command -v "$t") || die "$t not found"
  ln -s "$(readlink -f "$p")" "$work/bin/$t"
done

# ---- inputs prepared with the repository's tools: the README guard
# (verbatim) and the payloads
node - "$repo/README.md" "$work/guard.mjs" <<'EOF'
const fs = require('fs')
const [readme, out] = process.argv.slice(2)
const text = fs.readFileSync(readme, 'utf8')
const m = text.match(/^## TypeScript \/ JavaScript quickstart\n\n```js\n([^]*?)^```$/m)
if (!m) { console.error('no ```js block under "## TypeScript / JavaScript quickstart" in README.md'); process.exit(1) }
fs.writeFileSync(out, m[1])
EOF
for f in pretooluse-decisions pretooluse-bash; do
  node -e 'const f=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); process.stdout.write(JSON.stringify(f.payload))' \
    "$repo/fixtures/claude-code/$f.json" >"$work/$f.payload.json"
done
grep -q '"command":"rm -rf' "$work/pretooluse-decisions.payload.json" || die "fixtures/claude-code/pretooluse-decisions.json: no rm -rf command"
cp "$repo/scripts/dist/node_cli_check.mjs" "$work/"

plat=$(node -p "require('$repo/bindings/node/package.json').name + '-' + process.platform + '-' + process.arch + '-gnu'")
[[ -f $dist/$plat-$version.tgz ]] || die "no $dist/$plat-$version.tgz (make dist-node)"
node "$repo/scripts/dist/node_registry.mjs" "$work/port" "$dist/agenthooks-$version.tgz" "$dist/$plat-$version.tgz" &
registry_pid=$!
for _ in $(seq 100); do [[ -s $work/port ]] && break; sleep 0.1; done
[[ -s $work/port ]] || die "the loopback registry did not start"
registry=http://127.0.0.1:$(cat "$work/port")/

# The README's install lines, run verbatim below.
install_registry='npm install agenthooks'
install_files='npm install ./dist/agenthooks-*.tgz'
grep -qF "\`$install_registry\`" "$repo/README.md" || die "README.md no longer says \`$install_registry\`"
grep -qF "$install_files" "$repo/README.md" || die "README.md no longer says $install_files"
grep -qF "$install_files" "$repo/bindings/node/README.md" || die "bindings/node/README.md no longer says $install_files"

# ---- the user: MODE registry (npm install agenthooks from the loopback
# registry) or files (the release tarballs by path, npm offline)
cat >"$work/user.sh" <<'USER'
set -euo pipefail
mode=$1 install=$2
say() { echo "test-dist-node: [$mode] $*"; }
die() { echo "test-dist-node: FAIL: [$mode] $*" >&2; exit 1; }
for t in cargo rustc rustup cc gcc clang make; do
  if command -v "$t" >/dev/null; then die "$t is on the user PATH"; fi
done
say "PATH has node $(node --version), npm $(npm --version); no cargo, rustc, C compiler or make"

npm init -y >/dev/null
$install --loglevel=error
# npm resolved the platform package as the optional dependency of agenthooks
npm ls --all --json >"$AH_WORK/ls.json"
node -e '
const ls = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))
const [v, mode] = process.argv.slice(2), plat = `agenthooks-${process.platform}-${process.arch}-gnu`
const main = ls.dependencies?.agenthooks
if (main?.version !== v) throw new Error(`agenthooks@${v} not installed: ${JSON.stringify(ls)}`)
if (main.dependencies?.[plat]?.version !== v) throw new Error(`${plat}@${v} not resolved under agenthooks: ${JSON.stringify(main)}`)
const lock = require(process.cwd() + "/package-lock.json").packages[`node_modules/${plat}`]
if (mode === "registry" && !lock?.optional) throw new Error(`${plat} is not an optional dependency in package-lock.json: ${JSON.stringify(lock)}`)
' "$AH_WORK/ls.json" "$AH_VERSION" "$mode"
if ls node_modules/agenthooks/*.node >/dev/null 2>&1; then die "the main package carries an addon"; fi
say "$install: agenthooks@$AH_VERSION + $(cd node_modules && echo agenthooks-*-*) (its optional dependency)"

# the README quickstart guard, as a Claude Code PreToolUse hook
out=$(node guard.mjs agenthooks run --provider=claude-code <"$AH_WORK/pretooluse-decisions.payload.json")
node -e '
const o = JSON.parse(process.argv[1]).hookSpecificOutput
// the reason of the guard: a failsafe deny (addon not loaded) names the load error
if (o?.hookEventName !== "PreToolUse" || o.permissionDecision !== "deny" || o.permissionDecisionReason !== "destructive command") {
  throw new Error("not the deny of the guard: " + process.argv[1])
}
' "$out"
say "README guard denies rm -rf: $out"
out=$(node guard.mjs agenthooks run --provider=claude-code <"$AH_WORK/pretooluse-bash.payload.json")
case $out in *deny*) die "README guard denied a harmless command: $out" ;; esac
say "README guard lets a harmless command through: ${out:-<no output>}"

v=$(npx agenthooks --version)
[[ $v == "agenthooks $AH_VERSION" ]] || die "npx agenthooks --version: $v"
say "npx agenthooks --version: $v"
if [[ $mode == registry ]]; then
  node "$AH_WORK/node_cli_check.mjs" "$AH_VERSION" "$AH_WORK/pretooluse-decisions.payload.json"
fi
USER

user() { # MODE INSTALL [ENV...]: the user's session in $work/<MODE>
  local mode=$1 install=$2
  shift 2
  mkdir -p "$work/$mode"
  cp "$work/guard.mjs" "$work/$mode/guard.mjs"
  (cd "$work/$mode" && env -i HOME="$work/home-$mode" TMPDIR="$work/tmp" PATH="$work/bin" LANG=C.UTF-8 \
    npm_config_cache="$work/home-$mode/.npm" npm_config_audit=false npm_config_fund=false \
    npm_config_update_notifier=false AH_VERSION="$version" AH_WORK="$work" "$@" \
    /bin/bash "$work/user.sh" "$mode" "$install")
}
user registry "$install_registry" npm_config_registry="$registry"
# the tarballs where the README has them: ./dist/ (this repository's dist/)
mkdir -p "$work/files"
ln -s "$dist" "$work/files/dist"
user files "$install_files" npm_config_offline=true npm_config_registry=http://127.0.0.1:9/
say "passed"
