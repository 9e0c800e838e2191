# Release artifacts of the Rust crates, the CLI and the Python package
# (docs/release.md). `make dist` runs DIST_PARTS, `make test-dist` then
# DIST_TESTS (the top-level Makefile); the npm package and the Go module
# zip are mk/dist-node.mk and mk/dist-go.mk.
#
#   make dist-version-check  every file stating a version states the
#                            workspace's (scripts/dist/check_versions.py)
#   make dist-rust           dist/agenthooks-<v>.crate, agenthooks-cli-<v>.crate
#   make dist-cli            dist/agenthooks-<v>-<target>.tar.gz (static,
#                            stripped) + -debug.tar.gz, each with .sha256
#   make dist-python         dist/agenthooks-<v>-cp39-abi3-manylinux_*.whl
#                            (the CLI inside) + the sdist
#   make test-dist-{python,cli,rust}  install each as a user does, no Rust
#                            toolchain on PATH (scripts/dist/install_test.py)

DIST_DIR      := dist
DIST_CACHE    := .cache/dist
DIST_VERSION   = $(shell $(PYTHON) scripts/dist/check_versions.py --print)
# This machine's target; docs/release.md and .github/workflows/release.yml
# build the others on their own runners.
DIST_TARGET   := x86_64-unknown-linux-gnu
DIST_CLI_BIN  := $(or $(CARGO_TARGET_DIR),target)/$(DIST_TARGET)/release/agenthooks
DIST_CLI_DIR  := $(DIST_CACHE)/cli
# The workspace's release profile has no DWARF, so by default the CLI's
# debug file holds its symbol table. DIST_CLI_DEBUG=line-tables-only (what
# release.yml sets) adds line tables; that rebuilds the CLI's dependencies.
DIST_CLI_DEBUG ?=
DIST_CLI_ENV   = $(if $(DIST_CLI_DEBUG),CARGO_PROFILE_RELEASE_DEBUG=$(DIST_CLI_DEBUG) CARGO_PROFILE_RELEASE_STRIP=none)
# A release is cut from a clean tag: the workflow sets this empty so
# `cargo package` refuses uncommitted changes. Locally it would stop
# `make test` on every edit.
DIST_ALLOW_DIRTY ?= --allow-dirty
# Archives are byte-for-byte reproducible: file times are the commit's.
DIST_EPOCH     = $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
DIST_TAR       = tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(DIST_EPOCH) --format=gnu
# The wheel's platform tag, checked by maturin's auditwheel: manylinux2014
# (glibc 2.17). Linked against this machine's glibc (2.36) the extension
# needs GLIBC_2.34 symbols, so maturin links it with zig against a glibc
# 2.17 sysroot (`--zig`; zig from PyPI, into the tool venv). The CLI beside
# it is static.
DIST_MANYLINUX ?= manylinux2014
DIST_ZIG       := "ziglang==0.17.0"
# Its own target directory: with zig as the linker every unit's fingerprint
# differs, and sharing x86_64-unknown-linux-gnu/ with the CLI rebuilt both
# from scratch on every run.
DIST_ZIG_TARGET = $(or $(CARGO_TARGET_DIR),target)/dist-zig
# (a literal path: targets expand as the file is read, and mk/python.mk,
# which defines PY_VENV, is read after this file)
DIST_ZIG_STAMP := .cache/python/venv/.zig-installed
# maturin's default wheel-data directory of this package (pyproject
# module-name `agenthooks._native`): exists only while dist-python builds.
# (`=`: mk/python.mk, included after this file, defines PY_*.)
DIST_PY_DATA   = $(PY_DIR)/agenthooks._native.data

# dist-version-check runs first, whatever the other mk files appended.
DIST_PARTS := dist-version-check $(DIST_PARTS) dist-rust dist-cli dist-python
DIST_TESTS += test-dist-version-check test-dist-cli test-dist-python test-dist-rust

.PHONY: dist-version-check test-dist-version-check dist-rust dist-cli-bin dist-cli dist-python test-dist-cli test-dist-python test-dist-rust

## dist-version-check: one version in every manifest, generated file and install line
dist-version-check:
	$(PYTHON) scripts/dist/check_versions.py

## dist-rust: the publishable crates as crates.io gets them (`cargo package`);
## the install test builds them (test-dist-rust), so no second verify build here
dist-rust:
	mkdir -p $(DIST_DIR)
	rm -f $(DIST_DIR)/agenthooks-*.crate
	$(CARGO) package -q --offline --no-verify $(DIST_ALLOW_DIRTY) -p agenthooks -p agenthooks-cli
	cp $(or $(CARGO_TARGET_DIR),target)/package/agenthooks-$(DIST_VERSION).crate \
	   $(or $(CARGO_TARGET_DIR),target)/package/agenthooks-cli-$(DIST_VERSION).crate $(DIST_DIR)/

# The CLI, statically linked (runs on any x86-64 Linux whatever its glibc,
# and starts without the dynamic loader: README, docs/benchmarks.md), then
# split: the stripped binary links to its debug file by name and CRC.
# `cargo rustc` gives the static flag to the final link only, so the
# dependencies are the ones other release builds of this target compiled.
dist-cli-bin:
	$(DIST_CLI_ENV) $(CARGO) rustc -q --release --locked --target $(DIST_TARGET) -p agenthooks-cli --bin agenthooks -- -C target-feature=+crt-static
	rm -rf $(DIST_CLI_DIR) && mkdir -p $(DIST_CLI_DIR)/bin $(DIST_CLI_DIR)/debug
	objcopy --only-keep-debug $(DIST_CLI_BIN) $(DIST_CLI_DIR)/debug/agenthooks.debug
	objcopy --strip-all --add-gnu-debuglink=$(DIST_CLI_DIR)/debug/agenthooks.debug $(DIST_CLI_BIN) $(DIST_CLI_DIR)/bin/agenthooks

## dist-cli: the CLI archive for this target, its debug file in a second archive
dist-cli: dist-cli-bin
	mkdir -p $(DIST_DIR)
	rm -f $(DIST_DIR)/agenthooks-*-$(DIST_TARGET).tar.gz* $(DIST_DIR)/agenthooks-*-$(DIST_TARGET)-debug.tar.gz*
	set -e; n=agenthooks-$(DIST_VERSION)-$(DIST_TARGET); s=$(DIST_CLI_DIR)/stage; \
	rm -rf $$s && mkdir -p $$s/$$n $$s/$$n-debug; \
	cp $(DIST_CLI_DIR)/bin/agenthooks $$s/$$n/; cp README.md LICENSE-MIT LICENSE-APACHE $$s/$$n/; \
	cp $(DIST_CLI_DIR)/debug/agenthooks.debug $$s/$$n-debug/; \
	$(DIST_TAR) -C $$s -cf - $$n | gzip -9n > $(DIST_DIR)/$$n.tar.gz; \
	$(DIST_TAR) -C $$s -cf - $$n-debug | gzip -9n > $(DIST_DIR)/$$n-debug.tar.gz; \
	cd $(DIST_DIR) && sha256sum $$n.tar.gz > $$n.tar.gz.sha256 && sha256sum $$n-debug.tar.gz > $$n-debug.tar.gz.sha256

$(DIST_ZIG_STAMP): | python-venv
	$(PY_BIN) -m pip install -q --disable-pip-version-check $(DIST_ZIG)
	touch $@

## dist-python: the release abi3 wheel (with the CLI as venv/bin/agenthooks) and the sdist
dist-python: python-venv dist-cli-bin $(DIST_ZIG_STAMP)
	mkdir -p $(DIST_DIR)
	rm -f $(DIST_DIR)/agenthooks-*.whl
	find $(DIST_DIR) -maxdepth 1 -regex '$(DIST_DIR)/agenthooks-[0-9.]*\.tar\.gz' -delete
	@# The sdist first, while the wheel-data directory does not exist: it
	@# holds sources only (built from it, the wheel has no CLI; docs/release.md).
	rm -rf $(DIST_PY_DATA)
	$(PY_ENV) $(PY_VENV)/bin/maturin sdist --manifest-path $(PY_DIR)/Cargo.toml --out $(DIST_DIR)
	scripts/dist/python_wheel.sh $(DIST_CLI_DIR)/bin/agenthooks $(DIST_PY_DATA) $(DIST_DIR) \
		PATH=$(abspath $(PY_VENV))/bin:$$PATH $(PY_ENV) $(PY_VENV)/bin/maturin build --quiet --release --strip \
		--zig --target-dir $(DIST_ZIG_TARGET) --compatibility $(DIST_MANYLINUX) --auditwheel check \
		--manifest-path $(PY_DIR)/Cargo.toml --interpreter $(PY_BIN)

# The check itself: each kind of drift fails naming its file.
test-dist-version-check:
	$(PYTHON) scripts/dist/test_check_versions.py

test-dist-python:
	DIST_TARGET=$(DIST_TARGET) $(PYTHON) scripts/dist/install_test.py python

test-dist-cli:
	DIST_TARGET=$(DIST_TARGET) $(PYTHON) scripts/dist/install_test.py cli

test-dist-rust:
	DIST_TARGET=$(DIST_TARGET) $(PYTHON) scripts/dist/install_test.py rust
