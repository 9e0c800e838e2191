#!/usr/bin/env bash
# Pipes real-shaped payloads through the C example hook (example_hook.c),
# under valgrind when it is installed. usage: example_hook_test.sh <binary>
set -euo pipefail
bin=$1
run=()
if command -v valgrind >/dev/null 2>&1; then
  run=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect)
fi
pre='{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"},"tool_use_id":"t"}'
fail=0
check() { # name, want-exit, want-stdout-substring, provider, payload
  local out code=0
  out=$(printf '%s' "$5" | "${run[@]}" "$bin" agenthooks run "--provider=$4" 2>/dev/null) || code=$?
  if [[ $code != "$2" || $out != *"$3"* ]]; then
    echo "example_hook: $1: exit $code, stdout '$out' (want $2, '$3')"; fail=1
  fi
}
# shellcheck disable=SC2059
for p in claude-code codex; do
  check "$p deny" 0 '"permissionDecision":"deny"' "$p" "$(printf "$pre" 'rm -rf /')"
  check "$p no opinion" 0 '' "$p" "$(printf "$pre" 'ls')"
done
check "bad input, fail closed" 2 '' claude-code '{nope'
# shellcheck disable=SC2059
check "typo in the provider, fail closed" 2 '' claude-cod "$(printf "$pre" 'rm -rf /')"
code=0; "${run[@]}" "$bin" >/dev/null 2>&1 || code=$?
[[ $code == 64 ]] || { echo "example_hook: not a hook: exit $code, want 64"; fail=1; }
[[ $fail == 0 ]] && echo "example_hook: ok"
exit $fail
