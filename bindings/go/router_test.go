package agenthooks

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
)

func preEvent(cmd string) *Event {
	return &Event{
		Provider: "claude-code", NativeName: "PreToolUse", Kind: KindToolPre,
		Tool: &ToolCall{Name: "Bash", Canonical: CanonicalShell, Command: cmd, Input: map[string]any{"command": cmd}},
	}
}

func TestStackingWhenAndNative(t *testing.T) {
	ctx := context.Background()
	r := NewRouter()
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		if e.Tool.Command == "rm -rf x" {
			return Deny("rm"), nil
		}
		return NoDecision().WithContext("seen"), nil
	})
	r.On(KindToolPre, When(MatchCanonical(CanonicalShell), func(ctx context.Context, e *Event) (Decision, error) {
		return Ask("shell"), nil
	}))
	r.On(KindToolPre, When(MatchNames("Write|Edit"), func(ctx context.Context, e *Event) (Decision, error) {
		return Deny("never for Bash"), nil
	}))
	if d, _ := r.Decide(ctx, preEvent("rm -rf x")); d.Kind != DecisionDeny {
		t.Fatalf("want deny, got %+v", d)
	}
	d, err := r.Decide(ctx, preEvent("ls"))
	if err != nil || d.Kind != DecisionAsk || !reflect.DeepEqual(d.Context, []string{"seen"}) {
		t.Fatalf("want ask with context, got %+v %v", d, err)
	}
	other := &Event{Provider: "claude-code", NativeName: "ConfigChange", Kind: KindOther}
	if d, _ := r.Decide(ctx, other); d.Kind != DecisionNoDecision || r.Handles(other) {
		t.Fatalf("unhandled event: %+v", d)
	}
	r.OnNative("ConfigChange", func(ctx context.Context, e *Event) (Decision, error) {
		return NoDecision().WithSystemMessage("config changed"), nil
	})
	if d, _ := r.Decide(ctx, other); d.SystemMessage != "config changed" || !r.Handles(other) {
		t.Fatalf("native handler: %+v", d)
	}
}

func TestMiddlewareOrderNextOnceAndObservers(t *testing.T) {
	ctx := context.Background()
	var order []string
	var seen atomic.Bool
	r := NewRouter()
	r.Use(func(ctx context.Context, e *Event, next Handler) (Decision, error) {
		order = append(order, "outer")
		return next(ctx, e)
	})
	r.Use(func(ctx context.Context, e *Event, next Handler) (Decision, error) {
		order = append(order, "inner")
		d, err := next(ctx, e)
		return d.WithContext("from middleware"), err
	})
	r.OnAny(func(ctx context.Context, e *Event) { seen.Store(true) })
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) { return Allow(), nil })
	d, err := r.Decide(ctx, preEvent("ls"))
	if err != nil || d.Kind != DecisionAllow || !reflect.DeepEqual(d.Context, []string{"from middleware"}) {
		t.Fatalf("got %+v %v", d, err)
	}
	if !reflect.DeepEqual(order, []string{"outer", "inner"}) || !seen.Load() {
		t.Fatalf("order %v, observer %v", order, seen.Load())
	}
	twice := NewRouter().Use(func(ctx context.Context, e *Event, next Handler) (Decision, error) {
		_, _ = next(ctx, e)
		return next(ctx, e)
	})
	if _, err := twice.Decide(ctx, preEvent("ls")); !errors.Is(err, ErrHandler) {
		t.Fatalf("next twice: %v", err)
	}
}

func TestHandlerErrorsStopTheChain(t *testing.T) {
	calls := 0
	r := NewRouter()
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		calls++
		return Decision{}, errors.New("db down")
	})
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		calls++
		return Allow(), nil
	})
	_, err := r.Decide(context.Background(), preEvent("ls"))
	if err == nil || err.Error() != "db down" || calls != 1 {
		t.Fatalf("err %v, calls %d", err, calls)
	}
	if code, _ := codeAndMessage(err); code != "handler_error" {
		t.Fatalf("code %s", code)
	}
}

func TestTypedEventsNeverNil(t *testing.T) {
	ctx := context.Background()
	r := NewRouter()
	var gotTool, gotStop bool
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		gotTool = e.Tool != nil
		return Decision{}, nil
	})
	r.OnStop(func(ctx context.Context, e *StopEvent) (Decision, error) {
		gotStop = e.Stop != nil
		return Decision{}, nil
	})
	_, _ = r.Decide(ctx, &Event{Kind: KindToolPre})
	_, _ = r.Decide(ctx, &Event{Kind: KindAgentStop})
	if !gotTool || !gotStop {
		t.Fatal("typed event fields must never be nil")
	}
}

func TestMergeHelpers(t *testing.T) {
	d, err := MergeAll(Allow(), Ask("a").WithContext("1"), Deny("d"), Deny("e"))
	if err != nil || d.Kind != DecisionDeny || d.Reason != "d" || !reflect.DeepEqual(d.Context, []string{"1"}) {
		t.Fatalf("MergeAll: %+v %v", d, err)
	}
	d, err = MergeFirst(NoDecision().WithContext("a"), Deny("x").WithContext("b"), Allow())
	if err != nil || d.Kind != DecisionDeny || !reflect.DeepEqual(d.Context, []string{"a", "b"}) {
		t.Fatalf("MergeFirst: %+v %v", d, err)
	}
	if d, err := MergeAll(); err != nil || d.Kind != DecisionNoDecision {
		t.Fatalf("empty: %+v %v", d, err)
	}
	if _, err := MergeAll(Decision{Kind: "maybe"}); !errors.Is(err, ErrInvalidDecision) {
		t.Fatalf("bad kind: %v", err)
	}
	if (Decision{}).IsNeutral() != true || Deny("x").IsNeutral() {
		t.Fatal("IsNeutral")
	}
}

// A registered Router and the package functions are safe for concurrent
// use (run under -race by make go-test).
func TestConcurrentUse(t *testing.T) {
	r := NewRouter()
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		return NoDecision().WithContext("a"), nil
	})
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) { return Deny("no"), nil })
	done := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 50; i++ {
				ev, err := Decode("codex", []byte(prePayload))
				if err != nil {
					done <- err
					return
				}
				d, err := r.Decide(context.Background(), ev)
				if err == nil && d.Kind != DecisionDeny {
					err = errors.New("want deny")
				}
				if err == nil {
					_, err = ev.Respond(d, Policy{})
				}
				ev.Close()
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
