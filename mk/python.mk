# Python binding (bindings/python): abi3 wheel built by maturin, installed
# into a venv under .cache/, tested there (the built wheel, not an editable
# install). Everything it needs is installed here from the package index.
#
#   make python-test    tier 1: clippy, wheel, pytest (fixtures, router, main
#                       end to end, README, mypy --strict, stubtest, wheel
#                       into fresh venvs; the example guard's tests in
#                       examples/python, through agenthooks.testing)
#   make python-bench   boundary-overhead numbers (docs/benchmarks.md)
#   make python-demo    the Python example guard on showcase payloads

PY_DIR      := bindings/python
PY_CACHE    := .cache/python
PY_VENV     := $(PY_CACHE)/venv
PY_BIN      := $(PY_VENV)/bin/python
PY_WHEELS   := $(PY_CACHE)/wheels
PY_STAMP    := $(PY_VENV)/.tools-installed
# The tools the suite needs; maturin 1.16 and pyo3 0.30 are the pair
# verified together (docs/building.md#python).
PY_TOOLS    := "maturin>=1.16,<2" "mypy>=1.10" "pytest>=8"
PY_ENV      := PYO3_PYTHON=$(abspath $(PY_BIN))
# The suite builds the wheel in the dev profile: it reuses the core that
# `make build` compiled, in seconds. `python-bench` builds --release.
PY_BUILD    ?=

TIER1_EXTRA += python-test

.PHONY: python-venv python-wheel python-install python-clippy python-test python-bench python-demo

$(PY_STAMP):
	rm -rf $(PY_VENV)
	mkdir -p $(PY_CACHE)
	$(PYTHON) -m venv $(PY_VENV)
	$(PY_BIN) -m pip install -q --disable-pip-version-check $(PY_TOOLS)
	touch $@

## python-venv: the tool venv under .cache/python (created once)
python-venv: $(PY_STAMP)

## python-wheel: the abi3 wheel of agenthooks (maturin, this package only)
python-wheel: $(PY_STAMP)
	rm -rf $(PY_WHEELS)
	$(PY_ENV) $(PY_VENV)/bin/maturin build --quiet --strip $(PY_BUILD) \
		--manifest-path $(PY_DIR)/Cargo.toml --interpreter $(PY_BIN) --out $(PY_WHEELS)

## python-install: installs the built wheel into the venv (replacing any previous one)
python-install: python-wheel
	$(PY_BIN) -m pip install -q --disable-pip-version-check --no-deps --force-reinstall $(PY_WHEELS)/agenthooks-*.whl

python-clippy: $(PY_STAMP)
	$(PY_ENV) $(CARGO) clippy -q -p agenthooks-python --no-deps -- -D warnings

## python-test: clippy, then pytest against the installed wheel (incl. mypy --strict and stubtest)
python-test: python-clippy python-install
	$(CARGO) build -q -p agenthooks-cli -p guard
	cd $(PY_DIR) && ../../$(PY_BIN) -m pytest -q -p no:cacheprovider tests ../../examples/python

## python-bench: decode+respond per call through Python (beside the Rust
## numbers of the same criterion groups, and cchooks), hook process overhead
python-bench: $(PY_STAMP)
	$(MAKE) --no-print-directory python-install PY_BUILD=--release
	$(PY_BIN) -m pip install -q --disable-pip-version-check "cchooks==0.1.5"
	$(CARGO) build -q --release -p guard
	$(CARGO) bench -q -p agenthooks --bench decode -- \
		'pretooluse-bash|pretooluse-shell|beforetool-shell|claude-code/posttooluse-1mb' \
		--warm-up-time 1 --measurement-time 3
	$(PY_BIN) $(PY_DIR)/benches/boundary.py

## python-demo: the Python guard (examples/python/guard.py) answering showcase payloads
# `make demo` runs it after the Rust guard (it builds the venv and wheel once).
DEMO_EXTRA += python-demo
python-demo: python-install
	@echo "=== examples/python/guard.py (the Python twin of examples/rust/guard)"
	printf '#!/bin/sh\nexec "%s" "%s" "$$@"\n' "$(abspath $(PY_BIN))" "$(abspath examples/python/guard.py)" > $(PY_CACHE)/guard-py
	chmod +x $(PY_CACHE)/guard-py
	$(PY_BIN) examples/demo.py $(if $(FULL),--full) $(PY_CACHE)/guard-py
