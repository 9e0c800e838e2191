package agenthooks

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Every behaviour vector of fixtures/simulate (and fixtures/simulate/observed,
// when present) through PredictJSON.
func TestEverySimulateVector(t *testing.T) {
	files, _ := filepath.Glob("../../fixtures/simulate/*.json")
	observedFiles, _ := filepath.Glob("../../fixtures/simulate/observed/*.json")
	research := len(files)
	files = append(files, observedFiles...)
	ran := 0
	for i, f := range files {
		// observed rows: headless runs, warnings a subset (fixtures/simulate/README.md)
		observed := i >= research
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Agent string `json:"agent"`
			Rows  []struct {
				Name      string           `json:"name"`
				Event     string           `json:"event"`
				Tool      string           `json:"tool"`
				Answer    json.RawMessage  `json:"answer"`
				Effect    string           `json:"effect"`
				ModelSees *json.RawMessage `json:"model_sees"`
				UserSees  *json.RawMessage `json:"user_sees"`
				Warnings  []string         `json:"warnings"`
			} `json:"rows"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, r := range doc.Rows {
			req := map[string]any{"agent": doc.Agent, "event": r.Event, "answer": r.Answer}
			if observed {
				req["mode"] = "headless"
			}
			if r.Tool != "" {
				req["tool"] = r.Tool
			}
			raw, err := PredictJSON(req)
			if err != nil {
				t.Fatalf("%s/%s: %v", f, r.Name, err)
			}
			var p struct {
				Effect    string  `json:"effect"`
				ModelSees *string `json:"model_sees"`
				UserSees  *string `json:"user_sees"`
				Warnings  []struct {
					Code string `json:"code"`
				} `json:"warnings"`
			}
			_ = json.Unmarshal(raw, &p)
			id := filepath.Base(f) + "/" + r.Name
			if p.Effect != r.Effect {
				t.Errorf("%s: effect %s, want %s", id, p.Effect, r.Effect)
			}
			got := []string{}
			for _, w := range p.Warnings {
				got = append(got, w.Code)
			}
			want := append([]string{}, r.Warnings...)
			sort.Strings(got)
			sort.Strings(want)
			if observed {
				have := "," + strings.Join(got, ",") + ","
				for _, w := range want {
					if !strings.Contains(have, ","+w+",") {
						t.Errorf("%s: warning %s not predicted (%v)", id, w, got)
					}
				}
			} else if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s: warnings %v, want %v", id, got, want)
			}
			for _, c := range []struct {
				what string
				want *json.RawMessage
				got  *string
			}{{"model_sees", r.ModelSees, p.ModelSees}, {"user_sees", r.UserSees, p.UserSees}} {
				if c.want == nil {
					continue
				}
				if string(*c.want) == "null" {
					if c.got != nil {
						t.Errorf("%s: %s %q, want none", id, c.what, *c.got)
					}
					continue
				}
				var w string
				_ = json.Unmarshal(*c.want, &w)
				if c.got == nil || !strings.Contains(*c.got, w) {
					t.Errorf("%s: %s %v, want %q", id, c.what, c.got, w)
				}
			}
			ran++
		}
	}
	if ran < 100 {
		t.Fatalf("ran %d vectors", ran)
	}
	t.Logf("simulate vectors (Go): ran %d", ran)
}

func TestSimulateSurface(t *testing.T) {
	raw, err := FixtureCorpusJSON(map[string]any{"agent": "codex", "kind": "tool.pre"})
	if err != nil || !strings.Contains(string(raw), `"agent":"codex"`) {
		t.Fatalf("corpus: %v %.200s", err, raw)
	}
	raw, err = ScenarioPayloadsJSON(map[string]any{"scenarios": []any{map[string]any{"event": "stop"}}, "cwd": "/tmp"})
	if err != nil || strings.Count(string(raw), `"payload"`) != 8 {
		t.Fatalf("payloads: %v %.200s", err, raw)
	}
	raw, err = SimulateJSON(map[string]any{
		"command":    []string{"sh", "-c", "cat >/dev/null; echo nope >&2; exit 2"},
		"scenarios":  []any{map[string]any{"event": "tool.pre", "command": "rm -rf build"}},
		"agents":     []string{"codex"},
		"cwd":        "/tmp",
		"timeout_ms": 10000,
	})
	if err != nil || !strings.Contains(string(raw), `"effect":"tool_blocked"`) {
		t.Fatalf("simulate: %v %.300s", err, raw)
	}
	if _, err := PredictJSON(map[string]any{"agent": "codex"}); err == nil {
		t.Fatal("a bad request must fail")
	} else if e, ok := err.(*Error); !ok || e.Code != "invalid_argument" {
		t.Fatalf("bad request: %v", err)
	}
}
