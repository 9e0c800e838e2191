# Go release artifact (issue 19; docs/release.md):
#   make dist-go       the module github.com/agenthooks/agenthooks/bindings/go
#                      as a module zip in the GOPROXY layout under
#                      dist/goproxy/ (list, v<v>.info, v<v>.mod, v<v>.zip),
#                      carrying lib/<goos>_<goarch>/libagenthooks_ffi.a (the
#                      release static library of `make ffi-lib`) and
#                      include/agenthooks.h, so `go get` needs no Rust
#   make test-dist-go  a fresh Go module with only go + gcc on PATH and empty
#                      caches gets it through GOPROXY=file://dist/goproxy,
#                      builds the README guard, pipes a Claude Code payload
# The library is shipped with its debug sections stripped: they are the Rust
# standard library's (the release profile compiles this project's crates
# without debug info), and a separate debug file of an archive would match
# no program a user links, so none is written.
.PHONY: dist-go test-dist-go

DIST_DIR ?= dist
DIST_GO_MODULE := github.com/agenthooks/agenthooks/bindings/go
DIST_GO_VERSION = v$(shell sed -n '/^\[workspace.package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' Cargo.toml)
DIST_GO_STAGE = $(AH_TARGET)/dist-stage/go

DIST_PARTS += dist-go
DIST_TESTS += test-dist-go

dist-go: ffi-lib
	@command -v $(GO) >/dev/null || { echo "dist-go: no Go toolchain on PATH (it names the lib/<goos>_<goarch> directory)"; exit 1; }
	rm -rf $(DIST_GO_STAGE) $(DIST_DIR)/goproxy/$(DIST_GO_MODULE)
	mkdir -p $(DIST_GO_STAGE)
	strip --strip-debug -o $(DIST_GO_STAGE)/libagenthooks_ffi.a $(FFI_LIB_A)
	$(PYTHON) scripts/dist/go_module_zip.py $(DIST_DIR)/goproxy $(DIST_GO_MODULE) $(DIST_GO_VERSION) \
	  "$$(git log -1 --format=%cI HEAD)" $(GO_DIR) include/agenthooks.h \
	  $(GO_PLATFORM)=$(DIST_GO_STAGE)/libagenthooks_ffi.a

test-dist-go:
	scripts/dist/go_install_test.sh $(DIST_DIR)/goproxy $(DIST_GO_MODULE) $(DIST_GO_VERSION)
