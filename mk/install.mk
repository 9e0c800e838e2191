# Install (issue 8): hooks written by `agenthooks install` fire and deny in
# the real agents that tests/e2e/smoke (and the plugin suite) installed.
.PHONY: install-smoke
install-smoke:
	$(CARGO) build -q -p guard -p agenthooks-cli
	tests/e2e/install_smoke
TIER2_EXTRA += install-smoke
