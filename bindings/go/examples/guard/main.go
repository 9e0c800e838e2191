// Command guard is the Go twin of examples/rust/guard: one program that
// guards every agent. Wire it as `<path>/guard agenthooks run
// --provider=claude-code` (or codex, cursor, gemini, ...). It denies
// destructive shell commands, asks before force-pushes, rewrites
// `npm install` to `npm ci`, adds context at session start, and keeps the
// agent going once if it stops before running tests.
package main

import (
	"context"
	"strings"

	agenthooks "github.com/agenthooks/agenthooks/bindings/go"
)

func main() {
	agenthooks.Main(newRouter())
}

// newRouter is the guard's router (main_test.go runs it on every agent).
func newRouter() *agenthooks.Router {
	r := agenthooks.NewRouter(agenthooks.WithPolicy(agenthooks.Policy{
		Fail:        agenthooks.FailClosed,
		AskFallback: agenthooks.AskFallbackDeny,
	}))
	r.OnToolPre(func(ctx context.Context, e *agenthooks.ToolPreEvent) (agenthooks.Decision, error) {
		cmd := e.Tool.Command
		if e.Tool.Canonical != agenthooks.CanonicalShell {
			return agenthooks.NoDecision(), nil
		}
		switch {
		case strings.Contains(cmd, "rm -rf"):
			return agenthooks.Deny("destructive command: " + cmd).
				WithBlockReason("agenthooks guard blocked a destructive shell command"), nil
		case strings.Contains(cmd, "git push --force") || strings.Contains(cmd, "git push -f"):
			return agenthooks.Ask("Force-pushing rewrites shared history; a human must approve it."), nil
		case strings.TrimSpace(cmd) == "npm install":
			input := map[string]any{}
			for k, v := range e.Tool.Input {
				input[k] = v
			}
			input["command"] = "npm ci"
			return agenthooks.Allow().WithUpdatedInput(input), nil
		case strings.HasPrefix(cmd, "ls") || strings.HasPrefix(cmd, "pwd"):
			return agenthooks.Allow(), nil
		}
		return agenthooks.NoDecision(), nil
	})
	r.OnSessionStart(func(ctx context.Context, e *agenthooks.Event) (agenthooks.Decision, error) {
		return agenthooks.NoDecision().WithContext("Project rule: run the test suite before finishing."), nil
	})
	r.OnStop(func(ctx context.Context, e *agenthooks.StopEvent) (agenthooks.Decision, error) {
		ranTests := strings.Contains(e.Stop.FinalMessage, "test")
		if e.Stop.PreviouslyContinued || ranTests {
			return agenthooks.Finish(), nil
		}
		return agenthooks.Continue("Run the test suite and report the result before you finish."), nil
	})
	return r
}
