# The C ABI: crate agenthooks-ffi (ffi/), the generated header
# (include/agenthooks.h) and the C test (tests/c/).
#   make header        regenerate include/agenthooks.h (commit it)
#   make header-check  fail when the committed header is stale or an ah_* item lacks a doc comment
#   make ffi-check     clippy + Rust tests of the ffi crate
#   make c-test        every fixture and dispatch vector and every ah_* function from C, under valgrind (ASan without it)
.PHONY: header header-check ffi-check ffi-lib c-test

# Honour CARGO_TARGET_DIR (cargo does).
AH_TARGET := $(or $(CARGO_TARGET_DIR),target)
FFI_LIB_DIR := $(AH_TARGET)/release
FFI_LIB_A := $(FFI_LIB_DIR)/libagenthooks_ffi.a
C_TEST_OUT := $(AH_TARGET)/c-test
VALGRIND ?= valgrind
VALGRIND_FLAGS := -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect
C_TEST_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -O1 -Iinclude
C_TEST_SRC := tests/c/abi_test.c tests/c/json.c tests/c/serve_vectors.c
# What rustc reports for a static link (see `go-static-libs`).
C_TEST_LIBS := -lm -ldl -lpthread -lrt -lutil

header:
	$(CARGO) run -q -p agenthooks-ffi --example gen_header -- include/agenthooks.h

header-check:
	@mkdir -p $(AH_TARGET)
	$(CARGO) run -q -p agenthooks-ffi --example gen_header -- $(AH_TARGET)/agenthooks.h.fresh
	@diff -u include/agenthooks.h $(AH_TARGET)/agenthooks.h.fresh \
	  || { echo "header-check: include/agenthooks.h is stale: run 'make header' and commit it"; exit 1; }

ffi-check:
	$(CARGO) clippy -q -p agenthooks-ffi --all-targets -- -D warnings
	$(CARGO) test -q -p agenthooks-ffi --lib --tests

# The release library: the C test and the Go binding link it (valgrind on
# a debug build of the core takes minutes on the 20 MB fixtures).
ffi-lib:
	$(CARGO) build -q --release -p agenthooks-ffi

c-test: ffi-lib
	@mkdir -p $(C_TEST_OUT)
	$(PYTHON) tests/c/flatten_fixtures.py fixtures $(C_TEST_OUT)/fixtures
	@if command -v $(VALGRIND) >/dev/null 2>&1; then \
	  set -x; \
	  $(CC) $(C_TEST_CFLAGS) $(C_TEST_SRC) $(FFI_LIB_A) $(C_TEST_LIBS) -o $(C_TEST_OUT)/abi_test; \
	  $(VALGRIND) $(VALGRIND_FLAGS) $(C_TEST_OUT)/abi_test $(C_TEST_OUT)/fixtures fixtures; \
	else \
	  echo "c-test: valgrind not found; running under AddressSanitizer + UBSan instead"; \
	  set -x; \
	  $(CC) $(C_TEST_CFLAGS) -fsanitize=address,undefined -fno-omit-frame-pointer $(C_TEST_SRC) $(FFI_LIB_A) $(C_TEST_LIBS) -o $(C_TEST_OUT)/abi_test; \
	  ASAN_OPTIONS=detect_leaks=1 $(C_TEST_OUT)/abi_test $(C_TEST_OUT)/fixtures fixtures; \
	fi
	@# The README's example hook, built and piped through.
	$(CC) $(C_TEST_CFLAGS) tests/c/example_hook.c $(FFI_LIB_A) $(C_TEST_LIBS) -o $(C_TEST_OUT)/example_hook
	tests/c/example_hook_test.sh $(C_TEST_OUT)/example_hook
	@# The shared library links too (the header's second link line).
	$(CC) $(C_TEST_CFLAGS) $(C_TEST_SRC) -L$(FFI_LIB_DIR) -lagenthooks_ffi -Wl,-rpath,$(abspath $(FFI_LIB_DIR)) -o $(C_TEST_OUT)/abi_test_shared
	AH_FIXTURE=router/ $(C_TEST_OUT)/abi_test_shared $(C_TEST_OUT)/fixtures fixtures

TIER1_EXTRA += header-check ffi-check c-test
