# The Go binding (bindings/go): a self-contained module over the C ABI.
#   make go-lib    build the static library and copy it + the header into the module
#   make go-test   vet, gofmt, every fixture, Main end to end against the Rust guard,
#                  -race, the `debug` tag (GC before every native use), LDFLAGS check
#   make go-bench  boundary and whole-process benchmarks (release builds)
.PHONY: go-lib go-static-libs go-test go-bench

GO ?= go
GO_DIR := bindings/go
GO_ENV := GOTOOLCHAIN=local CGO_ENABLED=1
GO_PLATFORM = $(shell cd $(GO_DIR) && $(GO_ENV) $(GO) env GOOS)_$(shell cd $(GO_DIR) && $(GO_ENV) $(GO) env GOARCH)

go-lib: ffi-lib
	@command -v $(GO) >/dev/null || { echo "go-lib: no Go toolchain on PATH (Go 1.26 with cgo and a C compiler; see docs/building.md#go)"; exit 1; }
	mkdir -p $(GO_DIR)/lib/$(GO_PLATFORM) $(GO_DIR)/include
	cp $(FFI_LIB_A) $(GO_DIR)/lib/$(GO_PLATFORM)/libagenthooks_ffi.a
	cp include/agenthooks.h $(GO_DIR)/include/agenthooks.h

# rustc prints the native libraries a static link needs only when it
# compiles the crate, so the dev build of the ffi crate alone is redone.
go-static-libs:
	@mkdir -p $(AH_TARGET)
	$(CARGO) clean -q -p agenthooks-ffi
	$(CARGO) rustc -q -p agenthooks-ffi --lib --crate-type staticlib -- --print native-static-libs 2> $(AH_TARGET)/native-static-libs.txt
	@grep 'native-static-libs:' $(AH_TARGET)/native-static-libs.txt

# The main run is in local directory mode (no package argument), so the
# runners' "ran N, skipped M, total T" lines are printed; vet and build
# cover examples/guard.
go-test: go-lib go-static-libs
	$(CARGO) build -q -p guard
	@test -z "$$(cd $(GO_DIR) && gofmt -l .)" || { echo "go-test: gofmt needed:"; cd $(GO_DIR) && gofmt -l .; exit 1; }
	cd $(GO_DIR) && $(GO_ENV) $(GO) vet ./...
	cd $(GO_DIR) && $(GO_ENV) $(GO) build ./...
	cd $(GO_DIR) && $(GO_ENV) AH_NATIVE_STATIC_LIBS=$(abspath $(AH_TARGET))/native-static-libs.txt \
	  AH_RUST_GUARD=$(abspath $(AH_TARGET))/debug/guard AH_REQUIRE_RUST_GUARD=1 $(GO) test -count=1
	cd $(GO_DIR) && $(GO_ENV) $(GO) test -count=1 -short -race ./...
	cd $(GO_DIR) && $(GO_ENV) $(GO) test -count=1 -short -tags debug ./...

go-bench: go-lib
	$(CARGO) build -q --release -p guard
	cd $(GO_DIR) && $(GO_ENV) AH_RUST_GUARD=$(abspath $(AH_TARGET))/release/guard \
	  $(GO) test -count=1 -run '^$$' -bench . -benchtime=2s ./...

TIER1_EXTRA += go-test
