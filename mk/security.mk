# Security suite (issues 11 and 21): every attack test in
# core/tests/security_*.rs and cli/tests/security_*.rs. Multi-user attacks
# create a real second user (needs root; they print SKIPPED otherwise).
SECURITY_CORE := $(patsubst core/tests/%.rs,--test %,$(wildcard core/tests/security_*.rs))
SECURITY_CLI := $(patsubst cli/tests/%.rs,--test %,$(wildcard cli/tests/security_*.rs))

.PHONY: security
security:
	$(CARGO) test -q -p agenthooks $(SECURITY_CORE) -- --test-threads=2
	$(if $(SECURITY_CLI),$(CARGO) test -q -p agenthooks-cli $(SECURITY_CLI) -- --test-threads=2)
	@echo "== security suite passed"
TIER1_EXTRA += security
