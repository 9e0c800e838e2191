# Documentation checks (tier 1):
#   make docs-check        every relative link, #anchor and repository path
#                          in the *.md files (and the *.md paths named in
#                          build and CLI messages) exists (scripts/check_docs.py)
#   make getting-started   runs every command of docs/getting-started.md in
#                          a temporary HOME and project (scripts/getting_started.py)
# The generated pages (docs/support-matrix.md, docs/agents/*.md,
# docs/quirks.md) are drift-checked by `make unit`.

.PHONY: docs-check getting-started

docs-check:
	$(PYTHON) scripts/check_docs.py

TIER1_EXTRA += docs-check

# The guide builds what a reader builds (the CLI, the Python wheel, the
# Node addon, the Go library, a Rust crate); its scratch HOME is under
# ~/.cache/agenthooks-getting-started (outside the repository).
getting-started: build
	$(PYTHON) scripts/getting_started.py

TIER1_EXTRA += getting-started
