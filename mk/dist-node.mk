# npm release artifacts (issue 19; docs/release.md):
#   make dist-node       dist/agenthooks-<v>.tgz (the JS package, no addon),
#                        dist/agenthooks-<platform>-<v>.tgz (the addon and the
#                        `agenthooks` CLI for this machine, napi-rs convention:
#                        an optionalDependency of the main package) and
#                        dist/agenthooks-<platform>-<v>.debug.tar.gz (their
#                        symbol tables; the shipped binaries are stripped)
#   make test-dist-node  a fresh npm project with only node/npm on PATH
#                        installs them from a loopback registry serving just
#                        those tarballs, runs the README guard on a Claude Code
#                        payload and `npx agenthooks --version`
# Reuses the release addon of `make node-test` (node-build) and builds the
# CLI as dist-cli does (mk/dist.mk: glibc linked statically, so it runs on
# any x86-64 Linux whatever its glibc; the same command, so one build).
.PHONY: dist-node test-dist-node

DIST_DIR ?= dist
DIST_NODE_VERSION = $(shell sed -n '/^\[workspace.package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' Cargo.toml)
DIST_NODE_TRIPLE = $(shell rustc -vV | sed -n 's/^host: //p')
DIST_NODE_STATIC = $(if $(filter %-linux-gnu,$(DIST_NODE_TRIPLE)),-- -C target-feature=+crt-static)

DIST_PARTS += dist-node
DIST_TESTS += test-dist-node

dist-node: node-build
	$(CARGO) rustc -q --release --locked --target $(DIST_NODE_TRIPLE) -p agenthooks-cli --bin agenthooks $(DIST_NODE_STATIC)
	@set -- $(NODE_DIR)/agenthooks.*.node; [ $$# -eq 1 ] && [ -f "$$1" ] || { echo "dist-node: expected one addon in $(NODE_DIR), found: $$*"; exit 1; }; \
	node scripts/dist/node_pack.mjs $(AH_TARGET)/dist-stage/node $(DIST_DIR) $(DIST_NODE_TRIPLE) "$$1" $(AH_TARGET)/$(DIST_NODE_TRIPLE)/release/agenthooks

test-dist-node:
	scripts/dist/node_install_test.sh $(DIST_DIR) $(DIST_NODE_VERSION)
