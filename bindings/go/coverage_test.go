package agenthooks

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Functions of the C ABI the Go package deliberately does not call, with
// the reason. Every other ah_* function in the header must be used.
var notWrapped = map[string]string{
	"ah_error_code":             "the status returned by each call is the code; errorOf reads it from there",
	"ah_serve_step":             "deprecated: the serve loop is a driver over ah_bridge_*",
	"ah_serve_reply":            "deprecated: the serve loop is a driver over ah_bridge_*",
	"ah_event_provider":         "read from the canonical JSON",
	"ah_event_kind":             "read from the canonical JSON",
	"ah_event_native_name":      "read from the canonical JSON",
	"ah_fold_is_done":           "ah_fold_push reports done",
	"ah_response_json":          "the getters are read one by one",
	"ah_invocation_event_json":  "Main decodes the head of ah_invocation_event (ah_event_head_json) and reads the output on demand",
	"ah_invocation_event_view":  "Main decodes the head of ah_invocation_event (ah_event_head_json: no raw, no output); raw is the payload bytes it read",
	"ah_run_args_command":       "Run tells `serve` from `run` with ah_run_args_reads_stdin",
	"ah_read_fd_limited":        "Main hands stdin to the core (ah_invocation_prepare_fd reads it, limit + 1 kept, so an oversized payload still names its event)",
	"ah_read_stdin":             "Main hands stdin to the core: ah_invocation_prepare_fd reads it into the event, no copy through Go",
	"ah_invocation_policy_json": "the Go Router holds the policy it passed in",
	"ah_policy_deadline_ms":     "Main reads the invocation's deadline (ah_invocation_deadline_ms)",
	"ah_default_max_bytes":      "Main reads the limit of the parsed arguments (ah_run_args_max_bytes)",
}

// TestEveryABIFunctionIsWrapped keeps the binding complete: a function
// added to include/agenthooks.h must be called by the Go package or listed
// above with a reason.
func TestEveryABIFunctionIsWrapped(t *testing.T) {
	header, err := os.ReadFile("../../include/agenthooks.h")
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`(?m)^[a-z_ ]*[ *](ah_[a-z0-9_]+)\(`)
	var src strings.Builder
	files, _ := os.ReadDir(".")
	for _, f := range files {
		if strings.HasSuffix(f.Name(), ".go") && !strings.HasSuffix(f.Name(), "_test.go") {
			b, _ := os.ReadFile(f.Name())
			src.Write(b)
		}
	}
	var missing, stale []string
	declared := map[string]bool{}
	for _, m := range decl.FindAllStringSubmatch(string(header), -1) {
		name := m[1]
		declared[name] = true
		used := strings.Contains(src.String(), "C."+name+"(")
		_, excluded := notWrapped[name]
		if !used && !excluded {
			missing = append(missing, name)
		}
		if used && excluded {
			stale = append(stale, name)
		}
	}
	for name := range notWrapped {
		if !declared[name] {
			stale = append(stale, name)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	if len(declared) < 40 {
		t.Fatalf("found only %d functions in the header", len(declared))
	}
	if len(missing) > 0 {
		t.Errorf("C ABI functions the Go package neither calls nor excludes: %v", missing)
	}
	if len(stale) > 0 {
		t.Errorf("exclusions that are used or no longer exist: %v", stale)
	}
}
