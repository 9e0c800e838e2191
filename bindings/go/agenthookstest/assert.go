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

// Verdict is the core's verdict of an assertion over outcomes (the same
// rules in every language; docs/testing.md).
type Verdict struct {
	Assertion string `json:"assertion"`
	// Holds: nothing offends and something was checked.
	Holds     bool `json:"holds"`
	Checked   int  `json:"checked"`
	Offending []struct {
		Index    int    `json:"index"`
		Agent    string `json:"agent"`
		Scenario string `json:"scenario"`
		Event    string `json:"event"`
		Reason   string `json:"reason"`
	} `json:"offending"`
	// NothingChecked says why nothing could be checked (then it fails).
	NothingChecked string `json:"nothing_checked,omitempty"`
}

// VerdictOf asks the core for the verdict of assertion
// ("blocked_everywhere", "runs_everywhere", "no_empty_allow") over
// outcomes.
func VerdictOf(assertion string, outcomes ...Outcome) (Verdict, error) {
	if outcomes == nil {
		outcomes = []Outcome{}
	}
	var v Verdict
	err := call(agenthooks.VerdictJSON, map[string]any{"assertion": assertion, "outcomes": outcomes}, &v)
	return v, err
}

// verdict reports the core's verdict of assertion with t.Errorf, headed
// by what.
func verdict(t testing.TB, assertion, what string, outcomes []Outcome) bool {
	t.Helper()
	v, err := VerdictOf(assertion, outcomes...)
	if err != nil {
		t.Errorf("agenthookstest: %s: %v", assertion, err)
		return false
	}
	if v.Holds {
		return true
	}
	var lines []string
	for _, b := range v.Offending {
		if b.Index >= 0 && b.Index < len(outcomes) {
			lines = append(lines, fmt.Sprintf("  %s -- %s", outcomes[b.Index], b.Reason))
		}
	}
	if v.NothingChecked != "" {
		lines = append(lines, "  nothing checked: "+v.NothingChecked)
	}
	t.Errorf("agenthookstest: %s (%d of %d agents):\n%s", what, len(v.Offending), v.Checked, strings.Join(lines, "\n"))
	return false
}

// AssertBlockedEverywhere checks that every agent whose event can block
// (its capability row) blocked it: tool_blocked or prompt_blocked. Agents
// whose event cannot block are not checked; when none can, it fails.
func AssertBlockedEverywhere(t testing.TB, outcomes ...Outcome) bool {
	t.Helper()
	return verdict(t, "blocked_everywhere", "not blocked on every agent that can block", outcomes)
}

// AssertRunsEverywhere checks that on every agent the action goes ahead (a
// stop stops; tool_blocked, prompt_blocked, asks_user, agent_continues, and
// agent_stops on any other event, do not) and the hook answered cleanly
// (no hook_failed, crashed, timed_out, fail_open or fail_closed warning: a
// crashing guard that the agent fails open does not count as "runs").
func AssertRunsEverywhere(t testing.TB, outcomes ...Outcome) bool {
	t.Helper()
	return verdict(t, "runs_everywhere", "does not run cleanly on every agent", outcomes)
}

// AssertNoEmptyAllow checks that no agent sees an empty allow (an allow
// with nothing else where the agent reads it as "skip the user's
// approval": warning empty_allow). A guard that means "no opinion" should
// answer agenthooks.NoDecision().
func AssertNoEmptyAllow(t testing.TB, outcomes ...Outcome) bool {
	t.Helper()
	return verdict(t, "no_empty_allow", "warning empty_allow raised", outcomes)
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
