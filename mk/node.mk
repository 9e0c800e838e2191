# Node binding (bindings/node): napi-rs addon + JS/TS layer, npm package
# `agenthooks`. Its tools (napi CLI, TypeScript, Node types) are npm-installed
# into bindings/node/node_modules (gitignored) from the committed lockfile;
# Bun, for the smoke test, from the npm registry into .cache/node-bun.
#
#   make node-test    tier 1: clippy, one release build of the addon (the
#                     generated index.js / index.d.ts must match the committed
#                     ones), version sync, node --test (all fixtures, router,
#                     main end to end, README, guard parity), tsc --strict,
#                     Bun smoke test
#   make node-bench   boundary-overhead numbers (docs/benchmarks.md)
#   make node-demo    the Node example guard on showcase payloads

NODE_DIR     := bindings/node
NODE_CACHE   := .cache/node
NODE_MODULES := $(NODE_DIR)/node_modules/.package-lock.json
NODE_BUN_DIR := .cache/node-bun
NODE_BUN_VER := 1.4.5
NODE_GEN     := index.js index.d.ts

TIER1_EXTRA += node-test

.PHONY: node-install node-clippy node-build node-link node-test node-bun node-bench node-demo

$(NODE_MODULES): $(NODE_DIR)/package-lock.json $(NODE_DIR)/package.json
	cd $(NODE_DIR) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

## node-install: the npm dev tools (napi CLI, TypeScript) from the lockfile
node-install: $(NODE_MODULES)

node-clippy:
	$(CARGO) clippy -q -p agenthooks-node --no-deps -- -D warnings

## node-build: `napi build --platform --release` once; fails when the
## regenerated index.js / index.d.ts differ from the committed ones
node-build: $(NODE_MODULES)
	rm -rf $(NODE_CACHE)/committed && mkdir -p $(NODE_CACHE)/committed
	for f in $(NODE_GEN); do if [ -f $(NODE_DIR)/$$f ]; then cp $(NODE_DIR)/$$f $(NODE_CACHE)/committed/$$f; fi; done
	cd $(NODE_DIR) && npx napi build --platform --release
	for f in $(NODE_GEN); do \
	  if ! diff -u $(NODE_CACHE)/committed/$$f $(NODE_DIR)/$$f; then \
	    echo "node-build: $(NODE_DIR)/$$f is out of date with the addon; the regenerated file is in place: review and commit it" >&2; exit 1; \
	  fi; \
	done

# examples/node/guard.mjs imports 'agenthooks' as a user would.
node-link:
	mkdir -p examples/node/node_modules
	ln -sfn ../../../$(NODE_DIR) examples/node/node_modules/agenthooks

## node-test: the whole Node suite (tier 1)
node-test: node-clippy node-build node-link
	cd $(NODE_DIR) && node scripts/check-version.mjs
	$(CARGO) build -q -p guard
	cd $(NODE_DIR) && node --test test/*.test.mjs
	cd $(NODE_DIR) && npx tsc -p test/types/tsconfig.json
	$(MAKE) --no-print-directory node-bun

## node-bun: the Bun smoke test (Bun from the npm registry); SKIPPED when
## Bun cannot be installed here, never counted as passed
node-bun:
	@arch=$$(uname -m); \
	case "$$arch" in \
	  x86_64) pkg=bun-linux-x64; grep -q avx2 /proc/cpuinfo 2>/dev/null || pkg=bun-linux-x64-baseline;; \
	  aarch64|arm64) pkg=bun-linux-aarch64;; \
	  *) pkg=;; \
	esac; \
	if [ "$$(uname -s)" != Linux ] || [ -z "$$pkg" ]; then \
	  echo "SKIPPED: node-bun: no Bun package for $$(uname -s) $$arch"; exit 0; fi; \
	if ldd --version 2>&1 | grep -qi musl; then pkg=$$pkg-musl; fi; \
	bun=$(NODE_BUN_DIR)/node_modules/@oven/$$pkg/bin/bun; \
	if [ ! -x "$$bun" ]; then \
	  mkdir -p $(NODE_BUN_DIR); \
	  if ! npm install --prefix $(NODE_BUN_DIR) --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
	       @oven/$$pkg@$(NODE_BUN_VER) >$(NODE_BUN_DIR)/install.log 2>&1 || [ ! -x "$$bun" ]; then \
	    echo "SKIPPED: node-bun: could not install @oven/$$pkg@$(NODE_BUN_VER) from the npm registry (see $(NODE_BUN_DIR)/install.log)"; \
	    exit 0; \
	  fi; \
	fi; \
	echo "node-bun: $$("$$bun" --version) from @oven/$$pkg"; \
	cd $(NODE_DIR) && "$(CURDIR)/$$bun" test/bun/smoke.mjs

## node-bench: decode+respond per call from JS, router, hook process
node-bench: node-build node-link
	cd $(NODE_DIR) && node bench/overhead.mjs

## node-demo: the Node guard (examples/node/guard.mjs) answering showcase payloads
# `make demo` runs it after the Rust guard (it installs and builds once).
DEMO_EXTRA += node-demo
node-demo: node-build node-link
	@echo "=== examples/node/guard.mjs (the Node twin of examples/rust/guard)"
	$(PYTHON) examples/demo.py $(if $(FULL),--full) examples/node/guard.mjs
