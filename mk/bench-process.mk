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
# The Rust guard linked statically (glibc's crt-static), the fastest start
# a Rust hook can have; built for the host triple so that RUSTFLAGS reach
# neither the default target dir nor build scripts and proc macros.
BENCH_HOST    = $(shell rustc -vV | sed -n 's/^host: //p')
# How bindings/go/README.md suggests linking a Go hook for speed (glibc's
# static-link warnings about NSS functions the hook never calls go to a log).
GO_HOOK_LDFLAGS = -s -w -linkmode=external -extldflags "-static -Wl,--gc-sections"
BENCH_STATIC  = $(AH_TARGET)/$(BENCH_HOST)/release/guard
# Static and not position-independent: no relocations at start (the
# fastest start; the executable's own image is then not randomized).
BENCH_NOPIE_FLAGS = -C target-feature=+crt-static -C relocation-model=static

# The measure helper, the floors and the Go guard (over the release .a).
bench-process-bins: go-lib
	mkdir -p $(BENCH_DIR)
	$(CC) -O2 -Wall -Wextra -Werror -o $(BENCH_DIR)/measure bench/process/measure.c
	rustc --edition 2021 -C opt-level=3 -C debuginfo=0 -C strip=debuginfo -o $(BENCH_DIR)/rust-floor bench/process/floor.rs
	cd bench/process && $(GO_ENV) $(GO) build -o $(abspath $(BENCH_DIR))/go-floor ./go-floor
	cd bench/process && $(GO_ENV) $(GO) build -o $(abspath $(BENCH_DIR))/go-cgo-floor ./go-cgo-floor
	cd bench/process && $(GO_ENV) $(GO) build -o $(abspath $(BENCH_DIR))/go-json-hook ./go-json-hook
	@# go build does not notice a rebuilt .a: relink from scratch. The
	@# guard as `go build` makes it, and linked as bindings/go/README.md
	@# suggests for hooks (static, unused library code dropped).
	rm -f $(BENCH_DIR)/go-guard $(BENCH_DIR)/go-guard-static
	cd $(GO_DIR) && $(GO_ENV) $(GO) build -o $(abspath $(BENCH_DIR))/go-guard ./examples/guard
	cd $(GO_DIR) && $(GO_ENV) $(GO) build -ldflags '$(GO_HOOK_LDFLAGS)' \
	  -o $(abspath $(BENCH_DIR))/go-guard-static ./examples/guard 2>$(abspath $(BENCH_DIR))/go-guard-static.log \
	  || { cat $(BENCH_DIR)/go-guard-static.log; exit 1; }

## bench-process-build: release builds of every guard and the floors
bench-process-build: bench-process-bins
	$(CARGO) build -q --release -p guard
	@case "$(BENCH_HOST)" in *-linux-gnu) \
	  echo "RUSTFLAGS='-C target-feature=+crt-static' $(CARGO) build -q --release --target $(BENCH_HOST) -p guard"; \
	  RUSTFLAGS='-C target-feature=+crt-static' $(CARGO) build -q --release --target $(BENCH_HOST) -p guard; \
	  echo "CARGO_TARGET_DIR=$(AH_TARGET)/nopie RUSTFLAGS='$(BENCH_NOPIE_FLAGS)' $(CARGO) build -q --release --target $(BENCH_HOST) -p guard"; \
	  CARGO_TARGET_DIR=$(abspath $(AH_TARGET))/nopie RUSTFLAGS='$(BENCH_NOPIE_FLAGS)' $(CARGO) build -q --release --target $(BENCH_HOST) -p guard \
	    && cp $(AH_TARGET)/nopie/$(BENCH_HOST)/release/guard $(BENCH_DIR)/rust-guard-nopie;; \
	esac
	$(MAKE) --no-print-directory python-install PY_BUILD=--release
	$(MAKE) --no-print-directory node-build node-link

## bench-process: the whole-process table (docs/benchmarks.md, "Hook processes")
bench-process: bench-process-build
	$(PYTHON) bench/process/run.py --rounds $(BENCH_ROUNDS) \
	  $(if $(wildcard $(BENCH_STATIC)),--rust-static-guard $(BENCH_STATIC)) $(if $(PEER),--peer '$(PEER)') $(BENCH_ARGS)

## bench-process-smoke: 3 rounds over the dev builds tier 1 makes anyway
## (checks that it runs and the guards' parity on both payloads, not speed)
bench-process-smoke: bench-process-bins python-install node-build node-link
	$(CARGO) build -q -p guard
	$(PYTHON) bench/process/run.py --smoke --rust-guard $(AH_TARGET)/debug/guard

TIER1_EXTRA += bench-process-smoke
