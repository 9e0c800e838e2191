# Typed native views (issue 15; docs/native-views.md): per agent and native
# event, typed inputs generated from schemas/ for Rust (core/src/native/),
# Go (bindings/go/native/), Python (agenthooks/native/) and TypeScript
# (bindings/node/lib/native.d.ts).
#   make native-views        regenerate them (after `make schemas`)
#   make native-views-check  tier 1: fail when the committed views are stale
# The views' behaviour is tested by each language's suite (core/tests/
# native_views.rs in `make unit`, go-test, python-test, node-test).
.PHONY: native-views native-views-check

native-views:
	$(PYTHON) scripts/gen_native_views.py

native-views-check:
	$(PYTHON) scripts/gen_native_views.py --check

TIER1_EXTRA += native-views-check
