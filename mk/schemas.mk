# JSON Schemas of every agent's payloads and answers (issue 15):
#   make schemas         render schemas/ from the core's field tables
#                        (core/src/schema/table/) and commit the result
#   make schemas-check   fail when schemas/ is stale (tier 1; the same test
#                        runs in `make unit`, this target runs it alone)

.PHONY: schemas schemas-check

schemas:
	AGENTHOOKS_BLESS=1 $(CARGO) test -q -p agenthooks --test schemas -- committed_schemas_are_fresh

schemas-check:
	$(CARGO) test -q -p agenthooks --test schemas -- --show-output

TIER1_EXTRA += schemas-check
