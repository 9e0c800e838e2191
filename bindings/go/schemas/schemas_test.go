package schemas

import (
	"encoding/json"
	"errors"
	"testing"
)

// Every event of the index has an input and an output schema that parse
// and carry their title; unknown agents and events are errors.
func TestEveryIndexedSchemaLoads(t *testing.T) {
	var ix index
	if err := json.Unmarshal(Index(), &ix); err != nil {
		t.Fatal(err)
	}
	if len(ix.Agents) != 8 {
		t.Fatalf("want 8 agents, got %d", len(ix.Agents))
	}
	n := 0
	for agent, a := range ix.Agents {
		for event := range a.Events {
			for _, output := range []bool{false, true} {
				b, err := Get(agent, event, output)
				if err != nil {
					t.Fatal(err)
				}
				var s map[string]any
				if err := json.Unmarshal(b, &s); err != nil {
					t.Fatalf("%s %s: %v", agent, event, err)
				}
				want := agent + " " + event + " input"
				if output {
					want = agent + " " + event + " output"
				}
				if s["title"] != want {
					t.Fatalf("title %v, want %q", s["title"], want)
				}
				n++
			}
		}
	}
	if n < 400 {
		t.Fatalf("only %d schemas", n)
	}
	if _, err := Get("vim", "x", false); !errors.Is(err, ErrUnknown) {
		t.Fatalf("unknown agent: %v", err)
	}
	if _, err := Get("codex", "Nope", true); !errors.Is(err, ErrUnknown) {
		t.Fatalf("unknown event: %v", err)
	}
	for _, c := range []string{"event", "decision"} {
		if _, err := Canonical(c); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Canonical("nope"); !errors.Is(err, ErrUnknown) {
		t.Fatal("canonical nope")
	}
}
