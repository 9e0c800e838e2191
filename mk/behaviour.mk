# Behaviour rows (issue 17): what each real agent does with a hook's wire
# answer on its tool-pre event, checked against the observed rows in
# fixtures/simulate/observed/<agent>.json (the facts `agenthooks simulate`
# predicts). Uses the agents tests/e2e/smoke installs; no project build.
#   make behaviour-e2e
#   AH_BEHAVIOUR_RECORD=1 tests/e2e/behaviour/run   print what was observed
.PHONY: behaviour-e2e
behaviour-e2e:
	tests/e2e/behaviour/run
TIER2_EXTRA += behaviour-e2e
