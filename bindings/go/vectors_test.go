package agenthooks

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// runtimeVector is one fixtures/runtime case (schema in its README): argv
// and stdin through the whole run entry, and what the process must answer.
type runtimeVector struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Argv        []string          `json:"argv"`
	Router      json.RawMessage   `json:"router"`
	Stdin       json.RawMessage   `json:"stdin"`
	StdinText   *string           `json:"stdin_text"`
	StdinB64    *string           `json:"stdin_b64"`
	StdinParts  []json.RawMessage `json:"stdin_parts"`
	Expect      struct {
		Stdout         *string         `json:"stdout"`
		StdoutJSON     json.RawMessage `json:"stdout_json"`
		StderrContains []string        `json:"stderr_contains"`
		ExitCode       *int            `json:"exit_code"`
	} `json:"expect"`
}

func vectorStdin(t *testing.T, v *runtimeVector) []byte {
	forms := 0
	for _, given := range []bool{v.Stdin != nil, v.StdinText != nil, v.StdinB64 != nil, v.StdinParts != nil} {
		if given {
			forms++
		}
	}
	if forms > 1 {
		t.Fatalf("%s: at most one stdin form", v.Name)
	}
	switch {
	case v.Stdin != nil:
		var buf bytes.Buffer
		if err := json.Compact(&buf, v.Stdin); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	case v.StdinText != nil:
		return []byte(*v.StdinText)
	case v.StdinB64 != nil:
		b, err := base64.StdEncoding.DecodeString(*v.StdinB64)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var out []byte
	for _, p := range v.StdinParts {
		var text string
		if json.Unmarshal(p, &text) == nil {
			out = append(out, text...)
			continue
		}
		var r struct {
			Repeat string `json:"repeat"`
			Times  int    `json:"times"`
		}
		d := json.NewDecoder(bytes.NewReader(p))
		d.DisallowUnknownFields()
		if err := d.Decode(&r); err != nil {
			t.Fatalf("%s: stdin_parts: %v", v.Name, err)
		}
		out = append(out, strings.Repeat(r.Repeat, r.Times)...)
	}
	return out
}

// vectorRouter is the vector guard (fixtures/runtime/README.md).
func vectorRouter(t *testing.T, policy json.RawMessage) *Router {
	r := NewRouter(WithPolicy(policyFromFixture(t, policy)))
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		if strings.Contains(e.Tool.Command, "rm -rf") {
			return Deny("vector guard: rm -rf is not allowed"), nil
		}
		if strings.Contains(e.Tool.Command, "needs-approval") {
			return Ask("vector guard: needs approval"), nil
		}
		return NoDecision(), nil
	})
	return r
}

// TestRuntimeVectors runs every shared runtime vector through Run (the
// core's launch and start over the C ABI) and requires the answer the
// vector pins, as the Rust, C, Python and Node runners do.
func TestRuntimeVectors(t *testing.T) {
	t.Setenv("AGENTHOOKS_STATE_DIR", t.TempDir())
	filter := os.Getenv("AH_FIXTURE")
	files, _ := filepath.Glob(filepath.Join(fixturesDir, "runtime", "*.json"))
	sort.Strings(files)
	total, ran := 0, 0
	for _, f := range files {
		var v runtimeVector
		if err := loadStrict(f, &v); err != nil {
			t.Fatal(err)
		}
		want := "runtime/" + strings.TrimSuffix(filepath.Base(f), ".json")
		if v.Name != want || strings.TrimSpace(v.Description) == "" || v.Expect.ExitCode == nil {
			t.Fatalf("%s: name must be %s, with a description and an exit code", f, want)
		}
		if filter != "" && !strings.Contains(v.Name, filter) {
			continue
		}
		total++
		var out, errb bytes.Buffer
		code := Run(context.Background(), vectorRouter(t, v.Router), v.Argv, bytes.NewReader(vectorStdin(t, &v)), &out, &errb)
		ran++
		var fails []string
		if code != *v.Expect.ExitCode {
			fails = append(fails, fmt.Sprintf("exit %d (want %d)", code, *v.Expect.ExitCode))
		}
		switch {
		case v.Expect.Stdout != nil && v.Expect.StdoutJSON == nil:
			if out.String() != *v.Expect.Stdout {
				fails = append(fails, fmt.Sprintf("stdout %q (want %q)", out.String(), *v.Expect.Stdout))
			}
		case v.Expect.Stdout == nil && v.Expect.StdoutJSON != nil:
			var got, exp any
			if json.Unmarshal(out.Bytes(), &got) != nil || json.Unmarshal(v.Expect.StdoutJSON, &exp) != nil ||
				!jsonDeepEqual(got, exp) {
				fails = append(fails, fmt.Sprintf("stdout %q (want JSON %s)", out.String(), v.Expect.StdoutJSON))
			}
		default:
			t.Fatalf("%s: expect needs exactly one of stdout / stdout_json", v.Name)
		}
		for _, s := range v.Expect.StderrContains {
			if !strings.Contains(errb.String(), s) {
				fails = append(fails, fmt.Sprintf("stderr lacks %q", s))
			}
		}
		if len(fails) > 0 {
			t.Errorf("%s: %s\n  stderr: %q", v.Name, strings.Join(fails, "; "), errb.String())
		}
	}
	fmt.Fprintf(os.Stderr, "go runtime vectors: ran %d of %d\n", ran, total)
	if total == 0 || ran != total {
		t.Fatalf("runtime vectors: ran %d of %d", ran, total)
	}
}

func jsonDeepEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
