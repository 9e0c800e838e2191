# OpenCode and OpenClaw plugins (bindings/node/plugins/: in-process through
# the Node addon, or bridged to `<program> agenthooks serve`).
#
#   make plugins-test   tier 1: node --test of both plugins driven by simulated
#                       hosts (in-process and bridged to the Rust example guard),
#                       tsc --strict on a typed usage of their typings
#   make plugins-e2e    tier 2: the real OpenCode 1.18.33 and OpenClaw 2026.9.6
#                       (npm, into ${AH_E2E_CACHE:-.cache/e2e}) inside unshare -n,
#                       our plugins wired to a router that denies `rm -rf`;
#                       SKIPPED when they cannot be installed
#   make plugins-bench  per OpenCode `tool.execute.before` through the plugin:
#                       in-process (target <= 50 us), bridged to
#                       target/debug/guard over `agenthooks serve`, and the
#                       bare decode + answer through napi (docs/benchmarks.md)

.PHONY: plugins-test plugins-e2e plugins-bench

## plugins-test: the plugins' unit tests (needs the addon: node-build)
plugins-test: node-build
	$(CARGO) build -q -p guard
	cd bindings/node && node --test plugins/test/*.test.mjs
	cd bindings/node && npx tsc -p plugins/test/types/tsconfig.json

## plugins-e2e: real OpenCode and OpenClaw with our plugins (tests/e2e/plugins/README.md)
plugins-e2e: node-build
	$(CARGO) build -q -p guard
	tests/e2e/plugins/run

## plugins-bench: plugin overhead numbers (docs/benchmarks.md "Plugins"; never gates)
plugins-bench: node-build
	$(CARGO) build -q -p guard
	cd bindings/node && node plugins/bench.mjs

TIER1_EXTRA += plugins-test
TIER2_EXTRA += plugins-e2e
