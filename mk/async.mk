# Async hooks on a real agent (tier 2; docs/async.md): Gemini CLI with a 2 s AfterTool hook,
# synchronous and with --async (tests/e2e/async/run).
.PHONY: async-e2e
TIER2_EXTRA += async-e2e

async-e2e:
	$(CARGO) build -q -p agenthooks --example async_hook
	tests/e2e/async/run
