# Patched input rewrites (issue 14): Decision.patch_input on the real Claude Code, Gemini CLI
# and Copilot CLI; the hook is `target/debug/agenthooks respond` (built by tier 2's `build`).
# Uses the agents tests/e2e/smoke installs; about 20 s with the agents cached.
#   make patch-e2e
.PHONY: patch-e2e
patch-e2e: build
	tests/e2e/patch/run
TIER2_EXTRA += patch-e2e
