package agenthooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestMain doubles as a hook program: with AH_GO_TEST_HOOK set, the test
// binary runs Main with a router that misbehaves in the named way, so the
// tests below can pipe payloads through a real process.
func TestMain(m *testing.M) {
	if mode := os.Getenv("AH_GO_TEST_HOOK"); mode != "" {
		testHook(mode)
	}
	if os.Getenv("AH_ASYNC_HOOK") != "" {
		asyncHook() // async_vectors_test.go
	}
	os.Exit(m.Run())
}

func testHook(mode string) {
	policy := Policy{Fail: FailClosed}
	if mode == "sleep" {
		policy.Timeout = 100 * time.Millisecond
	}
	r := NewRouter(WithPolicy(policy))
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		switch mode {
		case "panic":
			panic("boom in a handler")
		case "sleep":
			time.Sleep(5 * time.Second)
		case "error":
			return Decision{}, errors.New("db down")
		case "print":
			fmt.Println("a stray print that must not reach the agent")
			return Deny("printed"), nil
		}
		return Allow(), nil
	})
	Main(r)
}

const prePayload = `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}`

type procResult struct {
	stdout, stderr string
	code           int
}

func runProc(t testing.TB, bin string, env []string, stdin []byte, args ...string) procResult {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	return procResult{out.String(), errb.String(), code}
}

func TestMainFailPolicyInAProcess(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"agenthooks", "run", "--provider=claude-code"}
	for _, mode := range []string{"panic", "sleep", "error"} {
		start := time.Now()
		r := runProc(t, self, []string{"AH_GO_TEST_HOOK=" + mode}, []byte(prePayload), args...)
		if !strings.Contains(r.stdout, `"permissionDecision":"deny"`) || r.code != 0 {
			t.Errorf("%s: fail closed must deny: %+v", mode, r)
		}
		want := map[string]string{"panic": "panic", "sleep": "handler_timeout", "error": "handler_error"}[mode]
		if !strings.Contains(r.stderr, want) {
			t.Errorf("%s: stderr %q lacks %q", mode, r.stderr, want)
		}
		if mode == "sleep" && time.Since(start) > 3*time.Second {
			t.Errorf("a hung handler must be abandoned at the deadline (took %v)", time.Since(start))
		}
	}
	r := runProc(t, self, []string{"AH_GO_TEST_HOOK=print"}, []byte(prePayload), args...)
	if strings.Contains(r.stdout, "stray") || !strings.Contains(r.stderr, "stray") {
		t.Errorf("stray prints belong on stderr: %+v", r)
	}
	var answer map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &answer); err != nil {
		t.Errorf("stdout must be exactly the answer: %q", r.stdout)
	}
	r = runProc(t, self, []string{"AH_GO_TEST_HOOK=allow"}, nil, "--not-a-hook")
	if r.code != 64 || !strings.Contains(r.stderr, "coding-agent hook") {
		t.Errorf("usage: %+v", r)
	}
}

func TestRunInProcess(t *testing.T) {
	r := NewRouter()
	var observed []Kind
	r.OnAny(func(ctx context.Context, e *Event) { observed = append(observed, e.Kind) })
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		return Deny("no " + e.Tool.Command), nil
	})
	run := func(stdin string, args ...string) procResult {
		var out, errb bytes.Buffer
		code := Run(context.Background(), r, append([]string{"hook"}, args...), strings.NewReader(stdin), &out, &errb)
		return procResult{out.String(), errb.String(), code}
	}
	got := run(prePayload, "agenthooks", "run", "--provider=codex")
	if !strings.Contains(got.stdout, `"permissionDecisionReason":"no ls"`) || got.code != 0 {
		t.Fatalf("deny: %+v", got)
	}
	if len(observed) != 1 || observed[0] != KindToolPre {
		t.Fatalf("observer: %v", observed)
	}
	if got := run(prePayload); got.code != 64 {
		t.Fatalf("no agenthooks word: %+v", got)
	}
	// An unknown option is a warning; the run goes on (the provider from
	// the payload's shape here).
	if got := run(prePayload, "agenthooks", "run", "--bogus=1"); got.code != 0 || !strings.Contains(got.stderr, "--bogus") ||
		!strings.Contains(got.stdout, "deny") {
		t.Fatalf("unknown option: %+v", got)
	}
	// A bad value is answered per the fail policy (a bad --fail reads as closed).
	if got := run(prePayload, "agenthooks", "run", "--provider=codex", "--fail=closd"); got.code != 0 ||
		!strings.Contains(got.stdout, "deny") || !strings.Contains(got.stderr, "closd") {
		t.Fatalf("bad --fail: %+v", got)
	}
	if got := run(prePayload, "agenthooks", "run", "--provider=vim"); got.code != 0 || got.stdout != "" || !strings.Contains(got.stderr, "unknown_provider") {
		t.Fatalf("unknown provider: %+v", got)
	}
	if got := run(prePayload, "agenthooks", "run", "--provider=claude-code", "--fail=closed", "--max-bytes=10"); got.code != 2 || !strings.Contains(got.stderr, "too_large") {
		t.Fatalf("too large under fail closed: %+v", got)
	}
	if got := run("{nope", "agenthooks", "run", "--provider=codex"); got.code != 0 || !strings.Contains(got.stderr, "invalid_json") {
		t.Fatalf("bad input: %+v", got)
	}
	// ctx deadline and a timeout policy.
	slow := NewRouter(WithPolicy(Policy{Timeout: 50 * time.Millisecond, Fail: FailClosed}))
	slow.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		<-ctx.Done()
		return Allow(), nil
	})
	var out, errb bytes.Buffer
	code := Run(context.Background(), slow, []string{"h", "agenthooks", "run", "--provider=codex"}, strings.NewReader(prePayload), &out, &errb)
	if code != 0 || !strings.Contains(out.String(), "deny") || !strings.Contains(errb.String(), "handler_timeout") {
		t.Fatalf("timeout: %d %q %q", code, out.String(), errb.String())
	}
}

var guardBuild struct {
	path string
	err  error
	done bool
}

// goGuard builds examples/guard once per test binary.
func goGuard(t testing.TB) string {
	t.Helper()
	if !guardBuild.done {
		guardBuild.done = true
		dir, err := os.MkdirTemp("", "ah-go-guard")
		if err != nil {
			t.Fatal(err)
		}
		guardBuild.path = filepath.Join(dir, "guard")
		cmd := exec.Command("go", "build", "-o", guardBuild.path, "./examples/guard")
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			guardBuild.err = fmt.Errorf("go build ./examples/guard: %v\n%s", err, out)
		}
	}
	if guardBuild.err != nil {
		t.Fatal(guardBuild.err)
	}
	return guardBuild.path
}

// rustGuard is examples/rust/guard, when built (AH_RUST_GUARD, else
// target/debug/guard); "" when absent.
func rustGuard() string {
	p := os.Getenv("AH_RUST_GUARD")
	if p == "" {
		p = "../../target/debug/guard"
	}
	if abs, err := filepath.Abs(p); err == nil {
		if _, err := os.Stat(abs); err == nil {
			return abs
		}
	}
	return ""
}

// TestGuardEndToEnd pipes the payload of every provider fixture (the
// shapes the real agents send; generated 20 MB inputs left out) through
// the Go example hook as a subprocess, and, when the Rust example hook is
// built, requires byte-identical answers from both.
func TestGuardEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs subprocesses")
	}
	goBin := goGuard(t)
	rustBin := rustGuard()
	if rustBin == "" {
		if os.Getenv("AH_REQUIRE_RUST_GUARD") != "" {
			t.Fatal("AH_REQUIRE_RUST_GUARD is set but the Rust guard is not built")
		}
		t.Log("Rust guard not built: checking the Go guard alone")
	}
	goState, rustState := t.TempDir(), t.TempDir()
	perProvider := map[string]int{}
	for _, dir := range providerDirs(t) {
		files, _ := filepath.Glob(filepath.Join(fixturesDir, dir, "*.json"))
		sort.Strings(files)
		for _, f := range files {
			var c fixtureCase
			if err := loadStrict(f, &c); err != nil {
				t.Fatal(err)
			}
			if c.PayloadGen != nil {
				continue
			}
			payload := payloadBytes(t, &c)
			args := []string{"agenthooks", "run", "--provider=" + c.Provider}
			if c.Event != nil {
				args = append(args, "--event="+*c.Event)
			}
			if c.Variant != nil && *c.Variant != "" {
				args = append(args, "--variant="+*c.Variant)
			}
			if len(c.Argv) > 1 {
				// The argv-payload modes: the payload is an argument.
				args, payload = c.Argv[1:], nil
			}
			// Every other case also asks for the notes on stderr
			// (AGENTHOOKS_NOTES), which the C ABI mirrors from the runtime.
			env := []string{}
			if (perProvider[dir])%2 == 1 {
				env = append(env, "AGENTHOOKS_NOTES=1")
			}
			g := runProc(t, goBin, append(env, "AGENTHOOKS_STATE_DIR="+goState), payload, args...)
			if g.code != 0 && g.code != 2 {
				t.Errorf("%s: Go guard exit %d: %+v", c.Name, g.code, g)
			}
			if rustBin != "" {
				r := runProc(t, rustBin, append(env, "AGENTHOOKS_STATE_DIR="+rustState), payload, args...)
				if g != r {
					t.Errorf("%s: Go and Rust guards differ\n  go:   %+v\n  rust: %+v", c.Name, g, r)
				}
			}
			perProvider[dir]++
		}
	}
	for _, dir := range providerDirs(t) {
		if perProvider[dir] == 0 {
			t.Errorf("no payloads piped for %s", dir)
		}
	}
	t.Logf("guard end to end: %v (Rust comparison: %v, %s/%s)", perProvider, rustBin != "", runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(os.Stderr, "guard end to end (Go vs Rust: %v): %v\n", rustBin != "", perProvider)
}

func TestHandlersReadTheSessionMode(t *testing.T) {
	type mode struct {
		known, interactive bool
		signal             string
	}
	var seen []mode
	r := NewRouter()
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		m := mode{signal: e.ModeSignal()}
		if i := e.Interactive(); i != nil {
			m.known, m.interactive = true, *i
		}
		seen = append(seen, m)
		return Allow(), nil
	})
	cases := []struct {
		observed string
		want     mode
	}{
		{`{"ancestors":[["claude","-p","x"]]}`, mode{true, false, "argv:-p"}},
		{`{"env":{"CLAUDE_CODE_SESSION_ATTENDED":"1"}}`, mode{true, true, "env:CLAUDE_CODE_SESSION_ATTENDED=1"}},
		{`{"ancestors":[["sh"]]}`, mode{}},
	}
	for _, c := range cases {
		seen = nil
		var out, errb bytes.Buffer
		argv := []string{"hook", "agenthooks", "run", "--provider=claude-code", "--observed=" + c.observed}
		code := Run(context.Background(), r, argv, strings.NewReader(prePayload), &out, &errb)
		if code != 0 || len(seen) != 1 || seen[0] != c.want {
			t.Errorf("%s: code %d, seen %+v, want %+v (%s)", c.observed, code, seen, c.want, errb.String())
		}
	}
	// Decode: this process's own (live) mode, consistent; nil after Close.
	e, err := Decode("claude-code", []byte(prePayload))
	if err != nil {
		t.Fatal(err)
	}
	if (e.Interactive() == nil) != (e.ModeSignal() == "") {
		t.Errorf("live mode inconsistent: %v %q", e.Interactive(), e.ModeSignal())
	}
	e.Close()
	built := &Event{}
	if built.Interactive() != nil || built.ModeSignal() != "" {
		t.Error("an event built in Go has an unknown mode")
	}
}
