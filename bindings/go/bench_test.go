package agenthooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

// Boundary-overhead benchmarks (numbers in docs/benchmarks.md, "Go").

var denyJSON, _ = json.Marshal(Deny("destructive command"))

// One bare cgo call: the floor under every other number.
func BenchmarkCgoCall(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if libraryABIVersion() != abiVersion {
			b.Fatal("abi")
		}
	}
}

// decode + respond through the C ABI, no Go JSON work: the cgo round trip
// of a typical event (5 cgo calls).
func BenchmarkDecodeRespondCgo(b *testing.B) {
	p := []byte(prePayload)
	for i := 0; i < b.N; i++ {
		if _, err := decodeRespondRaw("claude-code", p, denyJSON); err != nil {
			b.Fatal(err)
		}
	}
}

// The typed round trip a Go author sees: Decode (with the Event built from
// the canonical JSON), Respond, Close.
func BenchmarkDecodeRespondTyped(b *testing.B) {
	p := []byte(prePayload)
	for i := 0; i < b.N; i++ {
		ev, err := Decode("claude-code", p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ev.Respond(Deny("destructive command"), Policy{}); err != nil {
			b.Fatal(err)
		}
		ev.Close()
	}
}

// Router dispatch with two stacked handlers (the fold runs in the core).
func BenchmarkRouterDecide(b *testing.B) {
	r := NewRouter()
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		return NoDecision().WithContext("seen"), nil
	})
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) { return Deny("no"), nil })
	ev := preEvent("rm -rf /")
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		if _, err := r.Decide(ctx, ev); err != nil {
			b.Fatal(err)
		}
	}
}

// Whole process, start to answer: the Go example hook, and the Rust one
// when built (AH_RUST_GUARD; build both in release for a fair number).
func BenchmarkProcessGoGuard(b *testing.B) {
	benchProcess(b, goGuard(b))
}

func BenchmarkProcessRustGuard(b *testing.B) {
	bin := rustGuard()
	if bin == "" {
		b.Skip("Rust guard not built (set AH_RUST_GUARD)")
	}
	benchProcess(b, bin)
}

func benchProcess(b *testing.B, bin string) {
	state := b.TempDir()
	env := []string{"AGENTHOOKS_STATE_DIR=" + state}
	p := []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t"}`)
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		r := runProc(b, bin, env, p, "agenthooks", "run", "--provider=claude-code")
		times = append(times, time.Since(start))
		if r.code != 0 || r.stdout == "" {
			b.Fatalf("%+v", r)
		}
	}
	b.StopTimer()
	// The median resists the noise of a shared machine better than the mean.
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "median-µs/op")
	_ = os.Remove(state)
}

// The serve loop (`agenthooks serve`, the plugin bridges) per frame: 256
// request frames through Run, with a guard handler; in one session (its
// frames in order) and in 256 sessions (run in parallel).
func benchServe(b *testing.B, sessions bool) {
	r := NewRouter()
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		if strings.Contains(e.Tool.Command, "rm -rf") {
			return Deny("destructive command"), nil
		}
		return NoDecision(), nil
	})
	const n = 256
	var in bytes.Buffer
	for i := 0; i < n; i++ {
		ses := "s"
		if sessions {
			ses = fmt.Sprintf("s%d", i)
		}
		fmt.Fprintf(&in, `{"seq":%d,"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"%s","callID":"c%d"},"output":{"args":{"command":"ls -la"}}}`+"\n", i, ses, i)
	}
	data := in.Bytes()
	argv := []string{"h", "agenthooks", "serve", "--provider=opencode"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out, errb bytes.Buffer
		if Run(context.Background(), r, argv, bytes.NewReader(data), &out, &errb) != 0 || bytes.Count(out.Bytes(), []byte("\n")) != n {
			b.Fatalf("serve: %s", errb.String())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n)/1000, "us/frame")
}

func BenchmarkServeOneSession(b *testing.B)   { benchServe(b, false) }
func BenchmarkServeManySessions(b *testing.B) { benchServe(b, true) }

// One hook call in-process through Run (launch, prepare, the router within
// the deadline, complete): the run path per event without the process.
func BenchmarkRunEvent(b *testing.B) {
	r := NewRouter()
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		if strings.Contains(e.Tool.Command, "rm -rf") {
			return Deny("destructive command"), nil
		}
		return NoDecision(), nil
	})
	argv := []string{"h", "agenthooks", "run", "--provider=claude-code"}
	p := []byte(prePayload)
	for i := 0; i < b.N; i++ {
		var out, errb bytes.Buffer
		if Run(context.Background(), r, argv, bytes.NewReader(p), &out, &errb) != 0 {
			b.Fatal(errb.String())
		}
	}
}
