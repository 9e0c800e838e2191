# Host side (issue 7): differential check of `agenthooks host run` against
# the real Claude Code and Codex (agents installed by tests/e2e/smoke).
.PHONY: host-diff
host-diff:
	tests/e2e/host_diff
TIER2_EXTRA += host-diff
