# agenthooks — two commands for a newcomer: `make demo` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
CARGO ?= cargo
PYTHON ?= $(shell python3 -c 'import sys; print(sys.executable)' 2>/dev/null || echo python3)
export CARGO_TERM_COLOR ?= never

# The suites must not observe a session mode from the machine that runs
# them (a CI runner's CI=true, an agent's hook variables when `make test`
# runs inside one): a test that needs a mode injects it (`--observed`, or
# the variable on its own subprocess). The list is `mode::env_names()`;
# core/tests/mode_env_scrub.rs keeps the two equal.
AH_MODE_ENV := CI GITHUB_ACTIONS GITLAB_CI BUILDKITE CIRCLECI JENKINS_URL TF_BUILD TEAMCITY_VERSION CODEBUILD_BUILD_ID CLAUDE_CODE_SESSION_ATTENDED CLAUDE_CODE_ENTRYPOINT
unexport $(AH_MODE_ENV)
# Nor the opt-in audit log switch (docs/liveness.md): a developer who turned
# it on would have every suite's hook runs write to their own log; the tests
# that log turn it on for their own subprocesses.
unexport AGENTHOOKS_LOG

# Each language/area adds its own targets in mk/<area>.mk and appends the
# tier-1 ones to TIER1_EXTRA (and real-agent ones to TIER2_EXTRA).
TIER1_EXTRA :=
TIER2_EXTRA :=
DEMO_EXTRA :=
# Release artifacts (docs/release.md): each ecosystem's mk file appends its
# `dist-<x>` target to DIST_PARTS and its install test to DIST_TESTS.
DIST_PARTS :=
DIST_TESTS :=
include $(sort $(wildcard mk/*.mk))

.PHONY: dist test-dist demo sim-corpus test tier1 tier2 tier3 fmt-check clippy build unit fixtures bench-build fuzz-replay bench fuzz e2e clean

## demo: the example guard on every agent, as an agent x scenario table (FULL=1: every fixture payload)
demo:
	$(CARGO) build -q -p guard -p agenthooks-cli
	$(PYTHON) examples/demo.py $(if $(FULL),--full) target/debug/guard
	@# then the same payloads through the Python and Node guards
	@for t in $(DEMO_EXTRA); do $(MAKE) --no-print-directory $$t || exit 1; done

## sim-corpus: regenerate core/src/simulate/corpus.json (the fixture corpus shipped in the crate)
sim-corpus:
	AGENTHOOKS_BLESS=1 $(CARGO) test -q -p agenthooks --test simulate_corpus -- embedded_corpus_matches_the_fixtures

## test: tier 1 (fmt, clippy, build, unit + fixture suites), tier 2 (real
## agents), tier 3 (the release artifacts built and installed as a user does)
test: tier1 tier2 tier3
	@echo "make test: all tiers done (see SKIPPED lines above, if any)"

tier1: fmt-check clippy build unit bench-build fuzz-replay $(TIER1_EXTRA)
	@echo "== tier 1 passed"

fmt-check:
	$(CARGO) fmt --all -- --check

clippy:
	$(CARGO) clippy -q -p agenthooks -p agenthooks-cli -p guard --all-targets -- -D warnings

build:
	$(CARGO) build -q -p agenthooks -p agenthooks-cli -p guard

unit:
	$(CARGO) test -q -p agenthooks -p agenthooks-cli -p guard

bench-build:
	$(CARGO) bench -q -p agenthooks --no-run

fuzz-replay:
	$(CARGO) test -q -p agenthooks --test fuzz_corpus

## tier 2: real Claude Code and Codex in a loopback-only network namespace
tier2 e2e: build
	tests/e2e/smoke
	@# install-smoke last: it reuses agents the other suites installed.
	@for t in $(filter-out install-smoke,$(TIER2_EXTRA)) $(filter install-smoke,$(TIER2_EXTRA)); do \
		$(MAKE) --no-print-directory $$t || exit 1; done

## tier 3: `make dist`, then each artifact installed the way a user installs
## it, with no Rust toolchain on PATH (docs/release.md). Its own tier: the
## release builds it needs (static CLI, manylinux wheel, packaged crates)
## share nothing with tier 1's, about 5-7 minutes on a clean clone.
tier3: test-dist
	@echo "== tier 3 passed"

## dist: every release artifact into dist/, from the workspace version
dist:
	@for t in $(DIST_PARTS); do $(MAKE) --no-print-directory $$t || exit 1; done
	@ls -l dist/

## test-dist: install each artifact the way a user does, with no Rust toolchain on PATH
test-dist: dist
	@for t in $(DIST_TESTS); do $(MAKE) --no-print-directory $$t || exit 1; done

## bench: criterion benchmarks (numbers go to docs/benchmarks.md)
bench:
	$(CARGO) bench -p agenthooks

## fuzz: cargo-fuzz each dialect decoder (needs nightly-free cargo-fuzz build; see core/fuzz/README.md)
fuzz:
	$(MAKE) -C core/fuzz run

clean:
	$(CARGO) clean
