package agenthooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// dispatchCase is one fixtures/router/dispatch vector (format in
// fixtures/router/README.md). Go handlers are synchronous: "async" entries
// run synchronously here.
type dispatchCase struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Event       struct {
		Provider string          `json:"provider"`
		Payload  json.RawMessage `json:"payload"`
	} `json:"event"`
	Entries []dispatchEntry `json:"entries"`
	Expect  struct {
		Decision json.RawMessage `json:"decision"`
		Error    *struct {
			Code string `json:"code"`
		} `json:"error"`
	} `json:"expect"`
	Calls   []string `json:"calls"`
	Handles bool     `json:"handles"`
}

type dispatchEntry struct {
	ID    string `json:"id"`
	Role  string `json:"role"`
	On    string `json:"on"`
	When  string `json:"when"`
	Guard bool   `json:"guard"`
	Async bool   `json:"async"`
	Does  struct {
		Decision json.RawMessage `json:"decision"`
		Error    *string         `json:"error"`
		Next     int             `json:"next"`
		Return   json.RawMessage `json:"return"`
	} `json:"does"`
}

func vectorDecision(t *testing.T, raw json.RawMessage) Decision {
	t.Helper()
	d, err := decisionFromJSON(raw)
	if err != nil {
		t.Fatalf("vector decision %s: %v", raw, err)
	}
	return d
}

func buildDispatch(t *testing.T, c *dispatchCase, calls *[]string) *Router {
	r := NewRouter()
	for _, e := range c.Entries {
		e := e
		switch e.Role {
		case "observer":
			r.OnAny(func(ctx context.Context, ev *Event) {
				*calls = append(*calls, e.ID)
				if e.Does.Error != nil {
					panic(*e.Does.Error)
				}
			})
		case "middleware":
			r.Use(func(ctx context.Context, ev *Event, next Handler) (Decision, error) {
				*calls = append(*calls, e.ID)
				var inner *Decision
				var nerr error
				for i := 0; i < e.Does.Next; i++ {
					d, err := next(ctx, ev)
					if err != nil {
						nerr = err
					} else if inner == nil {
						inner = &d
					}
				}
				if e.Does.Error != nil {
					return Decision{}, newError("handler_error", "%s", *e.Does.Error)
				}
				ret := strings.TrimSpace(string(e.Does.Return))
				switch ret {
				case `"inner"`:
					if inner == nil && nerr != nil {
						return Decision{}, nerr
					}
					if inner == nil {
						return NoDecision(), nil
					}
					return *inner, nil
				case "", "null":
					return NoDecision(), nil
				}
				return vectorDecision(t, e.Does.Return), nil
			})
		case "handler":
			h := Handler(func(ctx context.Context, ev *Event) (Decision, error) {
				*calls = append(*calls, e.ID)
				if e.Does.Error != nil {
					return Decision{}, newError("handler_error", "%s", *e.Does.Error)
				}
				if len(e.Does.Decision) == 0 {
					return NoDecision(), nil
				}
				return vectorDecision(t, e.Does.Decision), nil
			})
			switch {
			case e.When == "guard":
				held := e.Guard
				h = When(func(*ToolCall) bool { return held }, h)
			case strings.HasPrefix(e.When, "canonical:"):
				h = When(MatchCanonical(Canonical(strings.TrimPrefix(e.When, "canonical:"))), h)
			case strings.HasPrefix(e.When, "names:"):
				h = When(MatchNames(strings.TrimPrefix(e.When, "names:")), h)
			case e.When != "":
				t.Fatalf("%s: unknown when %q", c.Name, e.When)
			}
			if n, ok := strings.CutPrefix(e.On, "native:"); ok {
				r.OnNative(n, h)
			} else {
				r.On(Kind(strings.TrimPrefix(e.On, "kind:")), h)
			}
		default:
			t.Fatalf("%s: unknown role %q", c.Name, e.Role)
		}
	}
	return r
}

func TestRouterDispatchVectors(t *testing.T) {
	files, err := filepath.Glob("../../fixtures/router/dispatch/*.json")
	if err != nil || len(files) < 20 {
		t.Fatalf("dispatch vectors: %v (%d)", err, len(files))
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c dispatchCase
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		stem := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(stem, func(t *testing.T) {
			if c.Name != "router/dispatch/"+stem || c.Description == "" {
				t.Fatalf("bad name/description %q", c.Name)
			}
			ev, err := Decode(c.Event.Provider, c.Event.Payload)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			var calls []string
			r := buildDispatch(t, &c, &calls)
			if got := r.Handles(ev); got != c.Handles {
				t.Errorf("Handles = %v, want %v", got, c.Handles)
			}
			got, err := r.Decide(context.Background(), ev)
			if c.Expect.Error != nil {
				ce, ok := err.(*Error)
				if !ok || ce.Code != c.Expect.Error.Code {
					t.Fatalf("err = %v (decision %+v), want code %s", err, got, c.Expect.Error.Code)
				}
			} else {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				want := vectorDecision(t, c.Expect.Decision)
				gj, _ := json.Marshal(got)
				wj, _ := json.Marshal(want)
				if string(gj) != string(wj) {
					t.Fatalf("decision = %s, want %s", gj, wj)
				}
			}
			if calls == nil {
				calls = []string{}
			}
			if !reflect.DeepEqual(calls, c.Calls) {
				t.Fatalf("calls = %v, want %v", calls, c.Calls)
			}
		})
	}
}
