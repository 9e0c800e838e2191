# The Kotlin/JVM binding (bindings/kotlin) over the uniffi crate (bindings/uniffi).
#   make kotlin-gen    regenerate the committed Kotlin and Swift sources (uniffi library mode)
#   make kotlin-check  regenerate into .cache/ and fail on drift (like header-check)
#   make kotlin-test   kotlin-check, then Maven: compile, every shared vector
#                      (fixtures, router, runtime, serve) and the example guard's
#                      byte parity with the Rust guard, jar with the native library
#   make kotlin-guard  the example guard as a launcher script (tier 2, benchmarks)
#   make kotlin-guard-cds / kotlin-bench   AppCDS launcher; start -> answer
#                      against the Rust guard (docs/benchmarks.md, "Kotlin / JVM")
#   make kotlin-install-smoke  tier 2: installed by `agenthooks install`, real
#                      Claude Code and Codex deny and allow
#   make dist-kotlin / test-dist-kotlin  the jar in dist/ and its install check
# Maven's local repository is .cache/maven: a clean clone downloads the
# pinned Kotlin compiler, JNA, coroutines, JUnit and plugins once.
.PHONY: kotlin-lib kotlin-bindgen kotlin-gen kotlin-check kotlin-test kotlin-guard kotlin-guard-cds kotlin-bench

MVN          ?= mvn
KT_DIR       := bindings/kotlin
SWIFT_DIR    := bindings/swift
KT_CACHE     := .cache/kotlin
KT_M2        := .cache/maven
KT_MVN        = $(MVN) -B -q -Dmaven.repo.local=$(abspath $(KT_M2)) -f $(KT_DIR)/pom.xml
# The native library: release, like the C ABI the other suites build.
KT_LIB        = $(AH_TARGET)/release/libagenthooks_uniffi.so
KT_BINDGEN    = $(AH_TARGET)/debug/uniffi-bindgen
KT_GEN_FILE  := src/main/kotlin/dev/agenthooks/core/agenthooks_uniffi.kt
# JNA's resource prefix for this machine (linux-x86-64, linux-aarch64).
KT_PLATFORM   = linux-$(subst _,-,$(shell uname -m | sed 's/^aarch64$$/aarch64/'))
# The binding's version: the pom's <version>, which must be the workspace's
# (checked by dist-kotlin).
KT_VERSION    = $(shell sed -n '0,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' $(KT_DIR)/pom.xml)
KT_JAR        = $(KT_DIR)/target/agenthooks-$(KT_VERSION).jar
KT_GUARD      = $(KT_DIR)/target/kotlin-guard

kotlin-lib:
	$(CARGO) build -q --release -p agenthooks-uniffi
	mkdir -p $(KT_DIR)/native/$(KT_PLATFORM)
	cp $(KT_LIB) $(KT_DIR)/native/$(KT_PLATFORM)/libagenthooks_uniffi.so

kotlin-bindgen:
	$(CARGO) build -q -p agenthooks-uniffi --features bindgen --bin uniffi-bindgen

# Generated from the release library's metadata; --no-format keeps the
# output independent of a ktlint / swiftformat on PATH.
define kt_generate
	rm -rf $(1) && mkdir -p $(1)
	$(KT_BINDGEN) generate --library $(KT_LIB) --language kotlin --language swift --no-format --out-dir $(1) >/dev/null
endef

## kotlin-gen: regenerate bindings/kotlin's generated Kotlin and bindings/swift
kotlin-gen: kotlin-lib kotlin-bindgen
	$(call kt_generate,$(KT_CACHE)/gen)
	mkdir -p $(dir $(KT_DIR)/$(KT_GEN_FILE))
	cp $(KT_CACHE)/gen/dev/agenthooks/core/agenthooks_uniffi.kt $(KT_DIR)/$(KT_GEN_FILE)
	mkdir -p $(SWIFT_DIR)/Sources/AgentHooksCore $(SWIFT_DIR)/Sources/agenthooks_uniffiFFI
	cp $(KT_CACHE)/gen/AgentHooksCore.swift $(SWIFT_DIR)/Sources/AgentHooksCore/
	cp $(KT_CACHE)/gen/agenthooks_uniffiFFI.h $(KT_CACHE)/gen/agenthooks_uniffiFFI.modulemap $(SWIFT_DIR)/Sources/agenthooks_uniffiFFI/

## kotlin-check: the committed Kotlin and Swift match what uniffi generates now
kotlin-check: kotlin-lib kotlin-bindgen
	$(call kt_generate,$(KT_CACHE)/gen)
	@diff -u $(KT_DIR)/$(KT_GEN_FILE) $(KT_CACHE)/gen/dev/agenthooks/core/agenthooks_uniffi.kt \
	  && diff -u $(SWIFT_DIR)/Sources/AgentHooksCore/AgentHooksCore.swift $(KT_CACHE)/gen/AgentHooksCore.swift \
	  && diff -u $(SWIFT_DIR)/Sources/agenthooks_uniffiFFI/agenthooks_uniffiFFI.h $(KT_CACHE)/gen/agenthooks_uniffiFFI.h \
	  && diff -u $(SWIFT_DIR)/Sources/agenthooks_uniffiFFI/agenthooks_uniffiFFI.modulemap $(KT_CACHE)/gen/agenthooks_uniffiFFI.modulemap \
	  || { echo "kotlin-check: generated bindings drifted; run 'make kotlin-gen' and commit"; exit 1; }
	@echo "kotlin-check: generated Kotlin and Swift up to date"

## kotlin-test: the Kotlin binding built and tested on the JVM (every shared vector, guard parity)
kotlin-test: kotlin-check
	@command -v $(MVN) >/dev/null || { echo "kotlin-test: Maven (mvn) and a JDK 17 are needed"; exit 1; }
	$(CARGO) clippy -q -p agenthooks-uniffi --all-targets -- -D warnings
	$(CARGO) test -q -p agenthooks-uniffi
	$(CARGO) build -q -p guard
	$(KT_MVN) package -Dagenthooks.rustGuard=$(abspath $(AH_TARGET))/debug/guard
	@jar tf $(KT_JAR) | grep -q '$(KT_PLATFORM)/libagenthooks_uniffi.so' \
	  || { echo "kotlin-test: the jar lacks $(KT_PLATFORM)/libagenthooks_uniffi.so"; exit 1; }
	$(MAKE) --no-print-directory kotlin-guard
	@echo "kotlin-test: passed"

# The example guard as a command: its classes (compiled with the tests)
# in a jar of their own, the binding's jar and the pinned runtime jars in
# .cache/maven. Jars only: class data sharing refuses directories.
KT_RUNTIME_JARS = \
  $(KT_M2)/org/jetbrains/kotlin/kotlin-stdlib/2.4.21/kotlin-stdlib-2.4.21.jar \
  $(KT_M2)/org/jetbrains/annotations/13.0/annotations-13.0.jar \
  $(KT_M2)/net/java/dev/jna/jna/5.19.1/jna-5.19.1.jar \
  $(KT_M2)/org/jetbrains/kotlinx/kotlinx-coroutines-core-jvm/1.11.0/kotlinx-coroutines-core-jvm-1.11.0.jar
KT_GUARD_JAR = $(KT_DIR)/target/kotlin-guard.jar
KT_EMPTY :=
KT_GUARD_CP = $(subst $(KT_EMPTY) ,:,$(abspath $(KT_JAR) $(KT_GUARD_JAR) $(KT_RUNTIME_JARS)))
# JVM flags for a hook process: the client compiler only (a hook runs for
# milliseconds), and the native library loaded from disk (JNA otherwise
# extracts it from the jar to a temporary file on every start).
KT_JAVA_OPTS ?= -XX:TieredStopAtLevel=1 -Djna.library.path=$(abspath $(KT_DIR)/native/$(KT_PLATFORM))
KT_GUARD_MAIN := dev.agenthooks.examples.GuardKt

define kt_launcher
	printf '#!/bin/sh\nexec java %s -Dagenthooks.program=kotlin-guard -cp %s $(KT_GUARD_MAIN) "$$@"\n' '$(2)' '$(KT_GUARD_CP)' > $(1)
	chmod +x $(1)
endef

## kotlin-guard: bindings/kotlin/target/kotlin-guard, the example guard as a command
kotlin-guard:
	@for j in $(KT_JAR) $(KT_RUNTIME_JARS); do test -f $$j || { echo "kotlin-guard: $$j missing (make kotlin-test first)"; exit 1; }; done
	jar cf $(KT_GUARD_JAR) -C $(KT_DIR)/target/test-classes dev/agenthooks/examples
	$(call kt_launcher,$(KT_GUARD),$(KT_JAVA_OPTS))
	$(call kt_launcher,$(KT_DIR)/target/kotlin-guard-plain,)

TIER1_EXTRA += kotlin-test

# AppCDS: a dynamic class-data archive of the guard's classes (the JDK's
# -XX:ArchiveClassesAtExit, JDK 13+), recorded on one real call, and a
# launcher that maps it (-XX:SharedArchiveFile). The archive is tied to
# this JDK build and class path: regenerate it after either changes.
KT_GUARD_CDS = $(KT_DIR)/target/kotlin-guard-cds
KT_GUARD_JSA = $(abspath $(KT_DIR)/target/kotlin-guard.jsa)

## kotlin-guard-cds: the example guard with an AppCDS archive (faster JVM start)
kotlin-guard-cds: kotlin-guard
	rm -f $(KT_GUARD_JSA)
	printf '%s' '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}' \
	  | java $(KT_JAVA_OPTS) -XX:ArchiveClassesAtExit=$(KT_GUARD_JSA) -cp '$(KT_GUARD_CP)' $(KT_GUARD_MAIN) agenthooks run --provider=claude-code >/dev/null 2>$(KT_DIR)/target/cds.log
	test -s $(KT_GUARD_JSA)
	$(call kt_launcher,$(KT_GUARD_CDS),$(KT_JAVA_OPTS) -XX:SharedArchiveFile=$(KT_GUARD_JSA))

KT_RUN_ARGS := agenthooks run --provider=claude-code
## kotlin-bench: the Kotlin guard's process start -> answer beside the Rust guard (bench/process/run.py)
kotlin-bench: kotlin-guard-cds
	$(CARGO) build -q --release -p guard
	$(PYTHON) bench/process/run.py --rounds $(or $(BENCH_ROUNDS),20) --only kotlin \
	  --rust-guard $(AH_TARGET)/release/guard \
	  --peer 'kotlin guard=$(abspath $(KT_GUARD)) $(KT_RUN_ARGS)' \
	  --peer 'kotlin guard (AppCDS)=$(abspath $(KT_GUARD_CDS)) $(KT_RUN_ARGS)' \
	  --extra 'kotlin guard (default JVM flags)=$(abspath $(KT_DIR)/target/kotlin-guard-plain) $(KT_RUN_ARGS)'

# Tier 2 (issue 18): the Kotlin example guard installed by `agenthooks
# install` denies and allows in the real Claude Code and Codex
# (tests/e2e/install_smoke with this guard as the hook program).
.PHONY: kotlin-install-smoke
kotlin-install-smoke:
	$(CARGO) build -q -p agenthooks-cli
	@test -x $(KT_GUARD) || $(MAKE) --no-print-directory kotlin-test
	AH_E2E_HOOK=$(abspath $(KT_GUARD)) AH_E2E_ONLY=claude-code,codex tests/e2e/install_smoke

TIER2_EXTRA += kotlin-install-smoke

# make dist: the binding's jar (the release native library inside, for this
# machine's platform), and its install check: the jar taken from dist/
# with the pinned runtime jars, the native library loaded from inside the
# jar (no jna.library.path), the example guard answering a destructive call.
DIST_PARTS += dist-kotlin
DIST_TESTS += test-dist-kotlin
.PHONY: dist-kotlin test-dist-kotlin

## dist-kotlin: dist/agenthooks-kotlin-<v>.jar
dist-kotlin: kotlin-check
	@test "$(KT_VERSION)" = "$(DIST_VERSION)" || { echo "dist-kotlin: $(KT_DIR)/pom.xml states $(KT_VERSION), the workspace $(DIST_VERSION)"; exit 1; }
	$(KT_MVN) package -DskipTests
	$(MAKE) --no-print-directory kotlin-guard
	mkdir -p $(DIST_DIR)
	cp $(KT_JAR) $(DIST_DIR)/agenthooks-kotlin-$(DIST_VERSION).jar

test-dist-kotlin:
	@rm -rf $(KT_CACHE)/dist-test && mkdir -p $(KT_CACHE)/dist-test
	printf '%s' '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t"}' \
	  | env -i PATH=/usr/bin:/bin HOME=$(abspath $(KT_CACHE)/dist-test) java -Djava.io.tmpdir=$(abspath $(KT_CACHE)/dist-test) \
	    -cp $(subst $(KT_EMPTY) ,:,$(abspath $(DIST_DIR)/agenthooks-kotlin-$(DIST_VERSION).jar $(KT_GUARD_JAR) $(KT_RUNTIME_JARS))) \
	    $(KT_GUARD_MAIN) agenthooks run --provider=claude-code > $(KT_CACHE)/dist-test/out
	grep -q '"permissionDecision":"deny"' $(KT_CACHE)/dist-test/out || { cat $(KT_CACHE)/dist-test/out; exit 1; }
	for l in LICENSE-MIT LICENSE-APACHE; do \
	  $(PYTHON) -c 'import sys, zipfile; sys.exit(sys.argv[2] not in zipfile.ZipFile(sys.argv[1]).namelist())' \
	    $(DIST_DIR)/agenthooks-kotlin-$(DIST_VERSION).jar "META-INF/$$l" || { echo "test-dist-kotlin: the jar has no META-INF/$$l"; exit 1; }; \
	done
	@echo "test-dist-kotlin: the jar from dist/ loads its native library, answers and carries the license texts"
