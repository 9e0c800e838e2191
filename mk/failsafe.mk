# Failsafe (issue 22): what a hook answers when its native part cannot
# load. The answers are rendered from the core (core/src/failsafe.rs) into
# a table committed into both packages; `make unit` fails when a copy is
# stale (core/tests/failsafe_table.rs).
#   make fail-table     regenerate both copies (commit them)
#   make failsafe-e2e   tier 2: a fail-closed guard with its native part
#                       removed or corrupted still blocks `rm -rf` in the real
#                       OpenCode and OpenClaw (in-process plugin, installed
#                       from `npm pack`) and, as a Python command hook, in
#                       Claude Code and Codex (tests/e2e/failsafe/README.md)
.PHONY: fail-table failsafe-e2e

fail-table:
	AGENTHOOKS_BLESS=1 $(CARGO) test -q -p agenthooks --test failsafe_table

failsafe-e2e: node-build python-wheel
	tests/e2e/failsafe/run

TIER2_EXTRA += failsafe-e2e
