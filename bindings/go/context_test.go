package agenthooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// fixtures/mcp/: every case through ResolveMCPTransport.
func TestMCPFixtures(t *testing.T) {
	dir := filepath.Join(fixturesDir, "mcp")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "case.json")); err == nil {
			cases = append(cases, e.Name())
		}
	}
	sort.Strings(cases)
	if len(cases) < 20 {
		t.Fatalf("only %d MCP cases", len(cases))
	}
	filter := os.Getenv("AH_FIXTURE")
	ran, skipped := 0, 0
	for _, name := range cases {
		root, err := filepath.EvalSymlinks(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(root)
		text, err := os.ReadFile(filepath.Join(root, "case.json"))
		if err != nil {
			t.Fatal(err)
		}
		text = []byte(strings.ReplaceAll(string(text), "{root}", abs))
		var c struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Request     MCPLookup       `json:"request"`
			Expect      json.RawMessage `json:"expect"`
		}
		d := json.NewDecoder(strings.NewReader(string(text)))
		d.DisallowUnknownFields()
		if err := d.Decode(&c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.Name != "mcp/"+name {
			t.Fatalf("%s: name %q must equal the path", name, c.Name)
		}
		if filter != "" && !strings.Contains(c.Name, filter) {
			skipped++
			continue
		}
		var want struct {
			Transport *MCPTransport `json:"transport"`
			Error     *struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(c.Expect, &want); err != nil {
			t.Fatal(err)
		}
		got, err := ResolveMCPTransport(c.Request)
		ran++
		if want.Error != nil {
			e, ok := err.(*Error)
			if !ok || e.Code != want.Error.Code {
				t.Errorf("%s: want error %s, got %v", c.Name, want.Error.Code, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if !reflect.DeepEqual(got, want.Transport) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.Name, got, want.Transport)
		}
	}
	t.Logf("mcp fixtures (Go): ran %d, skipped %d, total %d", ran, skipped, len(cases))
	if ran+skipped != len(cases) {
		t.Fatal("ran + skipped != total")
	}
}

// fixtures/transcript/: every case through TranscriptReader, compared as
// parsed JSON.
func TestTranscriptFixtures(t *testing.T) {
	dir := filepath.Join(fixturesDir, "transcript")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(files)
	if len(files) < 4 {
		t.Fatalf("only %d transcript cases", len(files))
	}
	filter := os.Getenv("AH_FIXTURE")
	ran, skipped := 0, 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Name         string            `json:"name"`
			Description  string            `json:"description"`
			File         string            `json:"file"`
			Format       string            `json:"format"`
			MaxLineBytes int               `json:"max_line_bytes"`
			PageSize     int               `json:"page_size"`
			Expect       []json.RawMessage `json:"expect"`
		}
		d := json.NewDecoder(strings.NewReader(string(b)))
		d.DisallowUnknownFields()
		if err := d.Decode(&c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if c.Name != "transcript/"+strings.TrimSuffix(filepath.Base(f), ".json") {
			t.Fatalf("%s: name must equal the path", f)
		}
		if filter != "" && !strings.Contains(c.Name, filter) {
			skipped++
			continue
		}
		r := NewTranscriptReader(filepath.Join(dir, c.File), TranscriptOptions{
			Format: c.Format, MaxLineBytes: c.MaxLineBytes, PageSize: c.PageSize,
		})
		i := 0
		for r.Next() {
			if i >= len(c.Expect) {
				t.Errorf("%s: more entries than expected", c.Name)
				break
			}
			got, _ := json.Marshal(r.Entry())
			var g, w any
			_ = json.Unmarshal(got, &g)
			_ = json.Unmarshal(c.Expect[i], &w)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s: entry %d:\n got %s\nwant %s", c.Name, i, got, c.Expect[i])
			}
			i++
		}
		if err := r.Err(); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
		if i != len(c.Expect) {
			t.Errorf("%s: %d entries, want %d", c.Name, i, len(c.Expect))
		}
		ran++
	}
	t.Logf("transcript fixtures (Go): ran %d, skipped %d, total %d", ran, skipped, len(files))
	if ran+skipped != len(files) {
		t.Fatal("ran + skipped != total")
	}
}

func TestTranscriptMissingFileIsIO(t *testing.T) {
	r := NewTranscriptReader("/nonexistent/agenthooks/t.jsonl", TranscriptOptions{})
	if r.Next() {
		t.Fatal("an entry from a missing file")
	}
	if e, ok := r.Err().(*Error); !ok || e.Code != "io" {
		t.Fatalf("want io error, got %v", r.Err())
	}
}

func TestEventMCPTransport(t *testing.T) {
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := `{"mcpServers":{"tickets":{"command":"tix","args":["-v"],"env":{"T":"s3cret"}}}}`
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("AGENTHOOKS_STATE_DIR", filepath.Join(tmp, "state"))
	payload := `{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"` + tmp +
		`","tool_name":"mcp__tickets__create","tool_input":{},"tool_use_id":"t1"}`
	ev, err := Decode("claude-code", []byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ev.MCPTransport()
	if err != nil {
		t.Fatal(err)
	}
	want := &MCPTransport{Server: "tickets", Transport: "stdio", Command: "tix", Args: []string{"-v"},
		FromConfig: true, ConfigPath: filepath.Join(home, ".claude.json"), Scope: "user"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v want %+v", got, want)
	}
}
