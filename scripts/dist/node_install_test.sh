#!/usr/bin/env bash
# test-dist-node: install the npm tarballs of dist/ as a user does and run
# the README's Node quickstart guard on a real Claude Code payload.
#
#   scripts/dist/node_install_test.sh DIST VERSION
#
# The user's side runs with a PATH of node, npm, npx and sh only (no cargo,
# rustc, C compiler or make), an empty HOME and npm cache, in a fresh npm
# project. `npm install agenthooks@VERSION` goes to a loopback registry
# (scripts/dist/node_registry.mjs) serving only the two tarballs, so npm
# itself resolves the platform package through the main package's
# optionalDependencies and checks its os/cpu/libc, as against npmjs.org.
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
mkdir -p "$work/bin" "$work/home" "$work/tmp" "$work/project"
for t in node npm npx sh; do
  p=$(command -v "$t") || die "$t not found"
  ln -s "$(readlink -f "$p")" "$work/bin/$t"
done

# ---- inputs prepared with the repository's tools: the README guard
# (verbatim) and the payloads
node - "$repo/README.md" "$work/project/guard.mjs" <<'EOF'
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

# ---- the user
cd "$work/project"
env -i HOME="$work/home" TMPDIR="$work/tmp" PATH="$work/bin" LANG=C.UTF-8 \
  npm_config_registry="$registry" npm_config_cache="$work/home/.npm" \
  npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false \
  AH_VERSION="$version" AH_WORK="$work" \
  /bin/bash -euo pipefail -c '
say() { echo "test-dist-node: $*"; }
die() { echo "test-dist-node: FAIL: $*" >&2; exit 1; }
for t in cargo rustc rustup cc gcc clang make; do
  if command -v "$t" >/dev/null; then die "$t is on the user PATH"; fi
done
say "PATH has node $(node --version), npm $(npm --version); no cargo, rustc, C compiler or make"

npm init -y >/dev/null
npm install --loglevel=error "agenthooks@$AH_VERSION"
# npm resolved the platform package as the optional dependency of agenthooks
npm ls --all --json >"$AH_WORK/ls.json"
node -e '"'"'
const ls = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))
const v = process.argv[2], plat = `agenthooks-${process.platform}-${process.arch}-gnu`
const main = ls.dependencies?.agenthooks
if (main?.version !== v) throw new Error(`agenthooks@${v} not installed: ${JSON.stringify(ls)}`)
if (main.dependencies?.[plat]?.version !== v) throw new Error(`${plat}@${v} not resolved under agenthooks: ${JSON.stringify(main)}`)
const lock = require(process.cwd() + "/package-lock.json").packages[`node_modules/${plat}`]
if (!lock?.optional) throw new Error(`${plat} is not an optional dependency in package-lock.json: ${JSON.stringify(lock)}`)
'"'"' "$AH_WORK/ls.json" "$AH_VERSION"
ls node_modules/agenthooks/*.node 2>/dev/null && die "the main package carries an addon"
say "npm install agenthooks@$AH_VERSION: agenthooks + $(cd node_modules && echo agenthooks-*-*) (optional dependency)"

# the README quickstart guard, as a Claude Code PreToolUse hook
out=$(node guard.mjs agenthooks run --provider=claude-code <"$AH_WORK/pretooluse-decisions.payload.json")
node -e '"'"'
const o = JSON.parse(process.argv[1]).hookSpecificOutput
if (o?.hookEventName !== "PreToolUse" || o.permissionDecision !== "deny") throw new Error("not a deny: " + process.argv[1])
'"'"' "$out"
say "README guard denies rm -rf: $out"
out=$(node guard.mjs agenthooks run --provider=claude-code <"$AH_WORK/pretooluse-bash.payload.json")
case $out in *deny*) die "README guard denied a harmless command: $out" ;; esac
say "README guard lets a harmless command through: ${out:-<no output>}"

v=$(npx agenthooks --version)
[[ $v == "agenthooks $AH_VERSION" ]] || die "npx agenthooks --version: $v"
say "npx agenthooks --version: $v"
node "$AH_WORK/node_cli_check.mjs" "$AH_VERSION" "$AH_WORK/pretooluse-decisions.payload.json"
'
say "passed"
