// Package agenthooks writes a coding-agent hook once and runs it on every
// agent: Claude Code, OpenAI Codex CLI, Cursor, Gemini CLI, Kimi Code and
// GitHub Copilot CLI as a command hook, OpenCode and OpenClaw through their
// plugin bridge (Main answers `<program> agenthooks serve`).
//
// The agenthooks Rust core does the protocol work (decoding each agent's
// payload into one Event, encoding a Decision into that agent's exact
// answer, degrading what it cannot express under a Policy) and is linked
// statically through its C ABI (include/agenthooks.h). This package adds
// Go types for the canonical JSON, decision constructors, a Router with
// the shared router semantics, and Main, the whole hook run with
// context.Context deadlines.
//
//	r := agenthooks.NewRouter(agenthooks.WithPolicy(agenthooks.Policy{Fail: agenthooks.FailClosed}))
//	r.OnToolPre(func(ctx context.Context, e *agenthooks.ToolPreEvent) (agenthooks.Decision, error) {
//		if strings.Contains(e.Tool.Command, "rm -rf") {
//			return agenthooks.Deny("destructive command"), nil
//		}
//		return agenthooks.NoDecision(), nil
//	})
//	agenthooks.Main(r)
//
// Errors are *Error values with stable codes; use errors.Is with the
// Err… sentinels. cgo must be enabled.
package agenthooks
