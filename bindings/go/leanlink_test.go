package agenthooks

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A hook that uses only Main, linked as bindings/go/README.md suggests
// (--gc-sections), carries none of the host side, install, the test kit,
// MCP or transcript entry points, nor the regex engines and TOML parser
// behind them: each C entry point is referenced only from the Go code that
// calls it, so the Go linker's dead-code pass and the C linker's section
// GC drop what a hook never calls (3 MB of the 6 MB text when one switch
// named them all).
func TestHookLinkDropsHostCode(t *testing.T) {
	if testing.Short() {
		t.Skip("links a binary; run without -short")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads the ELF symbol table")
	}
	bin := filepath.Join(t.TempDir(), "guard")
	cmd := exec.Command("go", "build", "-o", bin,
		"-ldflags=-linkmode=external -extldflags=-Wl,--gc-sections", "./examples/guard")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	var regex, toml int
	for _, s := range syms {
		if typ := elf.ST_TYPE(s.Info); typ != elf.STT_FUNC && typ != elf.STT_OBJECT {
			continue // e.g. the names of the archive members the link opened
		}
		have[s.Name] = true
		if strings.Contains(s.Name, "regex_automata") || strings.Contains(s.Name, "regress") {
			regex++
		}
		if strings.Contains(s.Name, "toml_edit") || strings.Contains(s.Name, "toml_parser") {
			toml++
		}
	}
	for _, must := range []string{"ah_run_start", "ah_invocation_prepare_fd", "ah_dispatch_new"} {
		if !have[must] {
			t.Errorf("%s missing: the symbol table was not read as expected", must)
		}
	}
	for _, never := range []string{"ah_host_run_json", "ah_matcher_json", "ah_install_json",
		"ah_predict_json", "ah_simulate_json", "ah_fixture_corpus_json",
		"ah_scenario_payloads_json", "ah_verdict_json", "ah_mcp_resolve_json",
		"ah_transcript_page_json"} {
		if have[never] {
			t.Errorf("a Main-only hook links %s", never)
		}
	}
	if regex > 0 || toml > 0 {
		t.Errorf("a Main-only hook links %d regex and %d TOML symbols", regex, toml)
	}
}
