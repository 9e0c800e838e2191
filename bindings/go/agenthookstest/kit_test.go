package agenthookstest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	agenthooks "github.com/agenthooks/agenthooks/bindings/go"
	aht "github.com/agenthooks/agenthooks/bindings/go/agenthookstest"
)

// recorder is a testing.TB that records failures instead of failing the
// test: the helpers' own tests check that a wrong guard fails them, and
// with which message.
type recorder struct {
	testing.TB
	errs []string
}

type fatal struct{}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
	panic(fatal{})
}

// expectFail runs check against a recorder and returns its failure
// message; the test fails when check passed.
func expectFail(t *testing.T, what string, check func(tb testing.TB) bool) string {
	t.Helper()
	r := &recorder{TB: t}
	ok := func() (ok bool) {
		defer func() {
			if p := recover(); p != nil {
				if _, is := p.(fatal); !is {
					panic(p)
				}
				ok = false
			}
		}()
		return check(r)
	}()
	if ok || len(r.errs) == 0 {
		t.Fatalf("%s: the assertion passed (returned %v, %d errors); it must fail", what, ok, len(r.errs))
	}
	return strings.Join(r.errs, "\n")
}

// guard denies shell commands with "rm -rf" (except on the agents in
// forget) and has no opinion otherwise.
func guard(forget ...string) *agenthooks.Router {
	r := agenthooks.NewRouter()
	r.OnToolPre(func(ctx context.Context, e *agenthooks.ToolPreEvent) (agenthooks.Decision, error) {
		for _, a := range forget {
			if e.Provider == a {
				return agenthooks.NoDecision(), nil
			}
		}
		if e.Tool.Canonical == agenthooks.CanonicalShell && strings.Contains(e.Tool.Command, "rm -rf") {
			return agenthooks.Deny("no recursive deletes"), nil
		}
		return agenthooks.NoDecision(), nil
	})
	r.OnPrompt(func(ctx context.Context, e *agenthooks.PromptEvent) (agenthooks.Decision, error) {
		if strings.Contains(e.Prompt, "production") {
			return agenthooks.BlockPrompt("not from here"), nil
		}
		return agenthooks.NoDecision(), nil
	})
	return r
}

// allowAll answers an explicit allow to every tool call.
func allowAll() *agenthooks.Router {
	r := agenthooks.NewRouter()
	r.OnToolPre(func(ctx context.Context, e *agenthooks.ToolPreEvent) (agenthooks.Decision, error) {
		return agenthooks.Allow(), nil
	})
	return r
}

func agentsOf(outcomes []aht.Outcome) map[string]bool {
	m := map[string]bool{}
	for _, o := range outcomes {
		m[o.Agent] = true
	}
	return m
}

func TestCorpusCoversEveryAgentAndFilters(t *testing.T) {
	all := aht.Corpus(t, "", "")
	byAgent := map[string]int{}
	for _, f := range all {
		byAgent[f.Agent]++
		if f.Name == "" || f.Event == "" || f.Kind == "" || len(f.Payload) == 0 || f.Payload[0] != '{' {
			t.Errorf("incomplete fixture %+v", f)
		}
	}
	var agents []string
	for a := range byAgent {
		agents = append(agents, a)
	}
	sort.Strings(agents)
	want := append([]string(nil), aht.Agents...)
	sort.Strings(want)
	if strings.Join(agents, ",") != strings.Join(want, ",") {
		t.Errorf("corpus agents %v, want %v", agents, want)
	}
	some := aht.Corpus(t, "codex", "tool.pre")
	if len(some) == 0 || len(some) >= len(all) {
		t.Fatalf("codex tool.pre: %d of %d", len(some), len(all))
	}
	for _, f := range some {
		if f.Agent != "codex" || f.Kind != "tool.pre" {
			t.Errorf("filter leaked %s (%s, %s)", f.Name, f.Agent, f.Kind)
		}
	}
	msg := expectFail(t, "unknown agent", func(tb testing.TB) bool { aht.Corpus(tb, "vim", ""); return true })
	if !strings.Contains(msg, "vim") {
		t.Errorf("message: %s", msg)
	}
}

func TestGuardBlocksEverywhere(t *testing.T) {
	r := guard()
	rm := aht.AcrossAgents(t, r, aht.Shell("rm -rf build"))
	if len(rm) != len(aht.Agents) {
		t.Fatalf("%d outcomes", len(rm))
	}
	aht.AssertBlockedEverywhere(t, rm...)
	aht.AssertNoEmptyAllow(t, rm...)
	for _, o := range rm {
		aht.AssertEffect(t, o, aht.ToolBlocked)
		if !strings.Contains(o.Prediction.ModelSees, "no recursive deletes") && o.Agent != "copilot" {
			t.Errorf("%s: the model does not see the reason: %s", o.Agent, o)
		}
	}
	ls := aht.AcrossAgents(t, r, aht.Shell("ls -la"))
	aht.AssertRunsEverywhere(t, ls...)
	aht.AssertNoEmptyAllow(t, ls...)
	aht.AssertEffectEverywhere(t, aht.ToolRuns, ls...)
	prompt := aht.AcrossAgents(t, r, aht.PromptSubmit("deploy to production"))
	aht.AssertBlockedEverywhere(t, prompt...)
}

func TestForgottenAgentFailsWithItsAnswer(t *testing.T) {
	outcomes := aht.AcrossAgents(t, guard("gemini"), aht.Shell("rm -rf build"))
	msg := expectFail(t, "a guard that forgets gemini", func(tb testing.TB) bool {
		return aht.AssertBlockedEverywhere(tb, outcomes...)
	})
	if !strings.Contains(msg, "gemini / ") || !strings.Contains(msg, "(1 of 8 agents)") {
		t.Errorf("the message must name gemini alone:\n%s", msg)
	}
	for _, a := range aht.Agents {
		if a != "gemini" && strings.Contains(msg, "\n  "+a+" / ") {
			t.Errorf("the message names %s:\n%s", a, msg)
		}
	}
	if !strings.Contains(msg, "tool_runs") || !strings.Contains(msg, "answer: exit 0") {
		t.Errorf("the message must show the effect and the wire answer:\n%s", msg)
	}
	expectFail(t, "AssertEffect on the forgotten agent", func(tb testing.TB) bool {
		return aht.AssertEffect(tb, outcomes[3], aht.ToolBlocked)
	})
}

func TestAllowEverythingFails(t *testing.T) {
	outcomes := aht.AcrossAgents(t, allowAll(), aht.Shell("rm -rf build"))
	msg := expectFail(t, "allow is not a block", func(tb testing.TB) bool {
		return aht.AssertBlockedEverywhere(tb, outcomes...)
	})
	if !strings.Contains(msg, "(8 of 8 agents)") {
		t.Errorf("every agent runs the tool:\n%s", msg)
	}
	msg = expectFail(t, "an empty allow", func(tb testing.TB) bool {
		return aht.AssertNoEmptyAllow(tb, outcomes...)
	})
	for _, a := range []string{"claude-code", "cursor", "copilot"} {
		if !strings.Contains(msg, "\n  "+a+" / ") {
			t.Errorf("empty allow on %s not reported:\n%s", a, msg)
		}
	}
	if !strings.Contains(msg, "empty_allow") {
		t.Errorf("the warning code is not shown:\n%s", msg)
	}
}

func TestRunsEverywhereFailsOnBlockAndOnAFailingHook(t *testing.T) {
	blocked := aht.AcrossAgents(t, guard(), aht.Shell("rm -rf build"))
	expectFail(t, "a blocked call does not run", func(tb testing.TB) bool {
		return aht.AssertRunsEverywhere(tb, blocked...)
	})
	// A handler error under the fail-closed posture blocks the call on
	// every agent (under fail-open the agent cannot tell: the tool runs).
	r := agenthooks.NewRouter(agenthooks.WithPolicy(agenthooks.Policy{Fail: agenthooks.FailClosed}))
	r.OnToolPre(func(ctx context.Context, e *agenthooks.ToolPreEvent) (agenthooks.Decision, error) {
		return agenthooks.Decision{}, errors.New("broken guard")
	})
	broken := aht.AcrossAgents(t, r, aht.Shell("ls"))
	msg := expectFail(t, "a failing hook does not run", func(tb testing.TB) bool {
		return aht.AssertRunsEverywhere(tb, broken...)
	})
	if !strings.Contains(msg, "(8 of 8 agents)") || !strings.Contains(msg, "broken guard") {
		t.Errorf("every agent blocks, with the handler's error in the answer:\n%s", msg)
	}
	aht.AssertBlockedEverywhere(t, broken...)
}

// After a tool ran no agent can block it any more (capability rows):
// asserting a block there is a mistake in the test, reported as such.
func TestBlockedEverywhereOnAnUnblockableEvent(t *testing.T) {
	post := aht.AcrossAgents(t, guard(), aht.Shell("rm -rf build").After())
	for _, o := range post {
		if c, err := agenthooks.CapabilityOf(o.Agent, o.Event); err != nil || c.CanBlock {
			t.Fatalf("%s %s: can block (%v): pick another unblockable event", o.Agent, o.Event, err)
		}
	}
	aht.AssertEffectEverywhere(t, aht.NoEffect, post...)
	msg := expectFail(t, "nothing can block", func(tb testing.TB) bool { return aht.AssertBlockedEverywhere(tb, post...) })
	if !strings.Contains(msg, "no agent that ran can block") {
		t.Errorf("message: %s", msg)
	}
}

func TestSkippedAgentsAreNotChecked(t *testing.T) {
	// Codex has no file-read tool: the read scenario skips it.
	o := aht.RunRouter(t, guard(), "codex", aht.Read(".env"))
	if o.Ran() || o.Skipped == "" || o.Prediction != nil {
		t.Fatalf("codex read: %+v", o)
	}
	msg := expectFail(t, "nothing ran", func(tb testing.TB) bool { return aht.AssertEffect(tb, o, aht.ToolRuns) })
	if !strings.Contains(msg, "no agent ran") {
		t.Errorf("message: %s", msg)
	}
	reads := aht.AcrossAgents(t, guard(), aht.Read(".env"))
	if agentsOf(reads)["codex"] != true || reads[1].Skipped == "" {
		t.Fatalf("codex read not skipped: %+v", reads[1])
	}
	aht.AssertRunsEverywhere(t, reads...)
}

// Cursor fires a shell call twice (preToolUse and beforeShellExecution),
// and the second hook process to see it answers the no-op (a marker in the
// state dir). The kit gives every call its own state dir, so the same
// call run again is answered again.
func TestEachCallHasItsOwnState(t *testing.T) {
	r := agenthooks.NewRouter()
	r.OnToolPre(func(ctx context.Context, e *agenthooks.ToolPreEvent) (agenthooks.Decision, error) {
		return agenthooks.Deny("no shell"), nil
	})
	call := aht.Payload("cursor", []byte(`{"hook_event_name":"preToolUse","conversation_id":"c-1",
		"generation_id":"g-1","tool_name":"Shell","tool_input":{"command":"ls"},"tool_use_id":"t-1"}`), "")
	for i := 0; i < 3; i++ {
		o := aht.RunRouter(t, r, "cursor", call)
		aht.AssertEffect(t, o, aht.ToolBlocked)
	}
}

// Every fixture of the corpus runs through the router on its agent.
func TestCorpusThroughARouter(t *testing.T) {
	r := agenthooks.NewRouter()
	r.OnToolPre(func(ctx context.Context, e *agenthooks.ToolPreEvent) (agenthooks.Decision, error) {
		return agenthooks.Deny("nothing runs"), nil
	})
	fixtures := aht.Corpus(t, "", "tool.pre")
	if len(fixtures) < len(aht.Agents) {
		t.Fatalf("%d tool.pre fixtures", len(fixtures))
	}
	for _, f := range fixtures {
		t.Run(f.Name, func(t *testing.T) {
			o := aht.RunRouter(t, r, f.Agent, f.Scenario())
			if !o.Ran() {
				t.Fatalf("did not run: %s", o)
			}
			if o.Event != f.Event {
				t.Errorf("event %s, want %s", o.Event, f.Event)
			}
			aht.AssertBlockedEverywhere(t, o)
		})
	}
}

func TestPredictAnAnswer(t *testing.T) {
	zero := 0
	p := aht.Predict(t, "claude-code", "PreToolUse", "Bash", aht.Answer{
		Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, Exit: &zero})
	if p.Effect != aht.ToolRunsWithoutPrompt || !p.HasWarning(aht.EmptyAllow) {
		t.Errorf("%+v", p)
	}
	two := 2
	p = aht.Predict(t, "codex", "PreToolUse", "", aht.Answer{Stderr: "no", Exit: &two})
	if p.Effect != aht.ToolBlocked {
		t.Errorf("%+v", p)
	}
}

// exampleGuard builds examples/guard once for the out-of-process tests.
var exampleGuard struct {
	once sync.Once
	path string
	err  error
}

func buildGuard(t *testing.T) string {
	t.Helper()
	exampleGuard.once.Do(func() {
		dir, err := os.MkdirTemp("", "agenthookstest-guard-")
		if err != nil {
			exampleGuard.err = err
			return
		}
		exampleGuard.path = filepath.Join(dir, "guard")
		cmd := exec.Command("go", "build", "-o", exampleGuard.path, "../examples/guard")
		if out, err := cmd.CombinedOutput(); err != nil {
			exampleGuard.err = fmt.Errorf("go build ../examples/guard: %v\n%s", err, out)
		}
	})
	if exampleGuard.err != nil {
		t.Fatal(exampleGuard.err)
	}
	return exampleGuard.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if exampleGuard.path != "" {
		os.RemoveAll(filepath.Dir(exampleGuard.path))
	}
	os.Exit(code)
}

func TestHookOutOfProcess(t *testing.T) {
	argv := []string{buildGuard(t), "agenthooks", "run", "--provider={agent}", "--event={event}"}
	rm := aht.HookAcrossAgents(t, argv, aht.Shell("rm -rf build"), 0)
	aht.AssertBlockedEverywhere(t, rm...)
	for _, o := range rm {
		if o.RunError != "" || len(o.Argv) == 0 {
			t.Errorf("%s", o)
		}
	}
	o := aht.RunHook(t, argv, "codex", aht.Shell("cargo build"), 10*time.Second)
	aht.AssertRunsEverywhere(t, o)
	aht.AssertNoEmptyAllow(t, o)
	// The same Cursor call twice: each run has its own state dir, so the
	// second is not answered as a sibling's duplicate.
	call := aht.Payload("cursor", []byte(`{"hook_event_name":"preToolUse","conversation_id":"c-1",
		"generation_id":"g-1","tool_name":"Shell","tool_input":{"command":"rm -rf /"},"tool_use_id":"t-1"}`), "")
	for i := 0; i < 2; i++ {
		aht.AssertEffect(t, aht.RunHook(t, argv, "cursor", call, 0), aht.ToolBlocked)
	}
	// A hook that cannot start fails the assertions with the run error.
	missing := aht.RunHook(t, []string{filepath.Join(t.TempDir(), "no-such-hook")}, "claude-code", aht.Shell("ls"), 0)
	msg := expectFail(t, "a missing hook", func(tb testing.TB) bool { return aht.AssertRunsEverywhere(tb, missing) })
	if !strings.Contains(msg, "did not run") {
		t.Errorf("message: %s", msg)
	}
}
