package agenthooks_test

import (
	"context"
	"fmt"

	agenthooks "github.com/agenthooks/agenthooks/bindings/go"
)

const payload = `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}`

func ExampleDecode() {
	ev, err := agenthooks.Decode("claude-code", []byte(payload))
	if err != nil {
		panic(err)
	}
	defer ev.Close()
	fmt.Println(ev.Kind, ev.Tool.Canonical, ev.Tool.Command)
	resp, err := ev.Respond(agenthooks.Deny("destructive command"), agenthooks.Policy{})
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.ExitCode, resp.Stdout)
	// Output:
	// tool.pre shell rm -rf /
	// 0 {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"destructive command"}}
}

func ExampleEvent_Respond_degraded() {
	// Codex cannot ask the human: ask degrades to deny (ask_fallback), with a note.
	ev, _ := agenthooks.Decode("codex", []byte(payload))
	defer ev.Close()
	resp, _ := ev.Respond(agenthooks.Ask("sure?"), agenthooks.Policy{})
	fmt.Println(resp.Notes[0].Code, resp.Notes[0].From, "->", resp.Notes[0].To)
	// Output: degraded ask -> deny
}

func ExampleNewRouter() {
	r := agenthooks.NewRouter(agenthooks.WithPolicy(agenthooks.Policy{Fail: agenthooks.FailClosed}))
	r.OnToolPre(func(ctx context.Context, e *agenthooks.ToolPreEvent) (agenthooks.Decision, error) {
		if e.Tool.Canonical == agenthooks.CanonicalShell {
			return agenthooks.NoDecision().WithContext("shell seen"), nil
		}
		return agenthooks.NoDecision(), nil
	})
	r.OnToolPre(func(ctx context.Context, e *agenthooks.ToolPreEvent) (agenthooks.Decision, error) {
		return agenthooks.Deny("no shell today"), nil
	})
	ev, _ := agenthooks.Decode("codex", []byte(payload))
	defer ev.Close()
	d, _ := r.Decide(context.Background(), ev)
	fmt.Println(d.Kind, d.Reason, d.Context)
	// Output: deny no shell today [shell seen]
}

func ExampleMergeAll() {
	d, _ := agenthooks.MergeAll(agenthooks.Allow(), agenthooks.Ask("check"), agenthooks.Deny("no"))
	fmt.Println(d.Kind, d.Reason)
	// Output: deny no
}

func ExampleFailResponseForPayload() {
	_, err := agenthooks.Decode("claude-code", []byte("{not json"))
	resp, _ := agenthooks.FailResponseForPayload("claude-code", []byte("{not json"), err,
		agenthooks.Policy{Fail: agenthooks.FailClosed})
	fmt.Println(resp.ExitCode, resp.Notes[0].Code, resp.Notes[0].From)
	// Output: 2 fail_closed invalid_json
}
