package agenthookstest

import (
	"fmt"
	"strings"
	"testing"

	agenthooks "github.com/agenthooks/agenthooks/bindings/go"
)

// The assertions take outcomes (one, or a slice with ...), report with t.Errorf (the test goes on) and return
// whether they held. Each failure lists every offending agent with its
// effect, warnings and wire answer. Outcomes an agent skipped (no such
// event or tool) are not checked, but an assertion over outcomes none of
// which ran fails: a test cannot pass by checking nothing.

// canBlock reports whether the agent's event can block at all (its
// capability row).
func canBlock(agent, event string) bool {
	c, err := agenthooks.CapabilityOf(agent, event)
	return err == nil && c.CanBlock
}

// failed is the shared check: bad picks the offending outcomes.
func failed(t testing.TB, what string, outcomes []Outcome, bad func(Outcome) bool) bool {
	t.Helper()
	var ran int
	var lines []string
	for _, o := range outcomes {
		if o.Skipped != "" {
			continue
		}
		ran++
		if o.RunError != "" || o.Prediction == nil || bad(o) {
			lines = append(lines, "  "+o.String())
		}
	}
	if ran == 0 {
		t.Errorf("agenthookstest: %s: no agent ran the scenario (%d outcomes, all skipped)", what, len(outcomes))
		return false
	}
	if len(lines) > 0 {
		t.Errorf("agenthookstest: %s (%d of %d agents):\n%s", what, len(lines), ran, strings.Join(lines, "\n"))
		return false
	}
	return true
}

// AssertBlockedEverywhere checks that every agent whose event can block
// (its capability row) blocked it: tool_blocked or prompt_blocked. Agents
// whose event cannot block are not checked; when none can, it fails.
func AssertBlockedEverywhere(t testing.TB, outcomes ...Outcome) bool {
	t.Helper()
	var blockable int
	ok := failed(t, "not blocked on every agent that can block", outcomes, func(o Outcome) bool {
		if !canBlock(o.Agent, o.Event) {
			return false
		}
		blockable++
		return !o.Effect().IsBlock()
	})
	if ok && blockable == 0 {
		t.Errorf("agenthookstest: not blocked on every agent that can block: no agent that ran can block this event (%s)", outcomes[0].Scenario)
		return false
	}
	return ok
}

// failures are the warnings of a run that did not answer cleanly.
var failures = []string{HookFailed, Crashed, TimedOut, FailOpen, FailClosed}

// AssertRunsEverywhere checks that on every agent the action goes ahead
// (the effect is none of tool_blocked, prompt_blocked, asks_user,
// agent_continues) and the hook answered cleanly (no hook_failed, crashed,
// timed_out, fail_open or fail_closed warning: a crashing guard that the
// agent fails open does not count as "runs").
func AssertRunsEverywhere(t testing.TB, outcomes ...Outcome) bool {
	t.Helper()
	return failed(t, "does not run cleanly on every agent", outcomes, func(o Outcome) bool {
		switch o.Effect() {
		case ToolBlocked, PromptBlocked, AsksUser, AgentContinues:
			return true
		}
		for _, c := range failures {
			if o.Prediction.HasWarning(c) {
				return true
			}
		}
		return false
	})
}

// AssertNoEmptyAllow checks that no agent sees an empty allow (an allow
// with nothing else where the agent reads it as "skip the user's
// approval": warning empty_allow). A guard that means "no opinion" should
// answer agenthooks.NoDecision().
func AssertNoEmptyAllow(t testing.TB, outcomes ...Outcome) bool {
	t.Helper()
	return AssertNoWarning(t, EmptyAllow, outcomes...)
}

// AssertNoWarning checks that no outcome carries the warning code.
func AssertNoWarning(t testing.TB, code string, outcomes ...Outcome) bool {
	t.Helper()
	return failed(t, fmt.Sprintf("warning %s raised", code), outcomes, func(o Outcome) bool {
		return o.Prediction.HasWarning(code)
	})
}

// AssertEffect checks one outcome's effect.
func AssertEffect(t testing.TB, o Outcome, want Effect) bool {
	t.Helper()
	return failed(t, fmt.Sprintf("want %s", want), []Outcome{o}, func(o Outcome) bool {
		return o.Effect() != want
	})
}

// AssertEffectEverywhere checks that every outcome that ran has this
// effect.
func AssertEffectEverywhere(t testing.TB, want Effect, outcomes ...Outcome) bool {
	t.Helper()
	return failed(t, fmt.Sprintf("not %s everywhere", want), outcomes, func(o Outcome) bool {
		return o.Effect() != want
	})
}
