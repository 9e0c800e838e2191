# Whole-process benchmark (bench/process/run.py): every language's example
# guard and the floors (`/bin/true`, `python -c pass`, `node -e 0`, empty Go
# and Rust programs), exec to exit, interleaved, on a typical PreToolUse and
# a 1 MiB PostToolUse. Release builds; not part of `make test`.
#
#   make bench-process                       100 rounds (a few minutes)
#   make bench-process BENCH_ROUNDS=300
#   make bench-process PEER='/path/to/other-guard [args]'   compare by hand
#   make bench-process-smoke                 tier 1: 3 rounds over the dev
#                                            builds; every guard must answer
#                                            both payloads as the Rust one
.PHONY: bench-process bench-process-bins bench-process-build bench-process-smoke

BENCH_DIR     = $(AH_TARGET)/bench-process
BENCH_ROUNDS ?= 100
BENCH_ARGS   ?=
PEER         ?=

# The measure helper, the floors and the Go guard (over the release .a).
bench-process-bins: go-lib
	mkdir -p $(BENCH_DIR)
	$(CC) -O2 -Wall -Wextra -Werror -o $(BENCH_DIR)/measure bench/process/measure.c
	rustc --edition 2021 -C opt-level=3 -C debuginfo=0 -C strip=debuginfo -o $(BENCH_DIR)/rust-floor bench/process/floor.rs
	cd bench/process && $(GO_ENV) $(GO) build -o $(abspath $(BENCH_DIR))/go-floor ./go-floor
	cd bench/process && $(GO_ENV) $(GO) build -o $(abspath $(BENCH_DIR))/go-cgo-floor ./go-cgo-floor
	@# go build does not notice a rebuilt .a: relink from scratch.
	rm -f $(BENCH_DIR)/go-guard
	cd $(GO_DIR) && $(GO_ENV) $(GO) build -o $(abspath $(BENCH_DIR))/go-guard ./examples/guard

## bench-process-build: release builds of every guard and the floors
bench-process-build: bench-process-bins
	$(CARGO) build -q --release -p guard
	$(MAKE) --no-print-directory python-install PY_BUILD=--release
	$(MAKE) --no-print-directory node-build node-link

## bench-process: the whole-process table (docs/benchmarks.md, "Hook processes")
bench-process: bench-process-build
	$(PYTHON) bench/process/run.py --rounds $(BENCH_ROUNDS) $(if $(PEER),--peer '$(PEER)') $(BENCH_ARGS)

## bench-process-smoke: 3 rounds over the dev builds tier 1 makes anyway
## (checks that it runs and the guards' parity on both payloads, not speed)
bench-process-smoke: bench-process-bins python-install node-build node-link
	$(CARGO) build -q -p guard
	$(PYTHON) bench/process/run.py --smoke --rust-guard $(AH_TARGET)/debug/guard

TIER1_EXTRA += bench-process-smoke
