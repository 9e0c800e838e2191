package agenthookstest_test

import (
	"encoding/json"
	"os"
	"testing"

	aht "github.com/agenthooks/agenthooks/bindings/go/agenthookstest"
)

// Every vector of fixtures/simulate/verdicts/verdicts.json through the
// core's verdict (ah_verdict_json), and the Assert* helpers agreeing.
func TestVerdictVectors(t *testing.T) {
	raw, err := os.ReadFile("../../../fixtures/simulate/verdicts/verdicts.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			Name      string        `json:"name"`
			Assertion string        `json:"assertion"`
			Outcomes  []aht.Outcome `json:"outcomes"`
			Holds     bool          `json:"holds"`
			Checked   int           `json:"checked"`
			Offending []struct {
				Index int    `json:"index"`
				Agent string `json:"agent"`
			} `json:"offending"`
			NothingChecked bool `json:"nothing_checked"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 10 {
		t.Fatalf("only %d verdict vectors", len(file.Cases))
	}
	asserts := map[string]func(testing.TB, ...aht.Outcome) bool{
		"blocked_everywhere": aht.AssertBlockedEverywhere,
		"runs_everywhere":    aht.AssertRunsEverywhere,
		"no_empty_allow":     aht.AssertNoEmptyAllow,
	}
	for _, c := range file.Cases {
		v, err := aht.VerdictOf(c.Assertion, c.Outcomes...)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if v.Holds != c.Holds || v.Checked != c.Checked || (v.NothingChecked != "") != c.NothingChecked || len(v.Offending) != len(c.Offending) {
			t.Errorf("%s: got %+v", c.Name, v)
			continue
		}
		for i, o := range c.Offending {
			if v.Offending[i].Index != o.Index || v.Offending[i].Agent != o.Agent || v.Offending[i].Reason == "" {
				t.Errorf("%s: offending %d: got %+v, want %+v", c.Name, i, v.Offending[i], o)
			}
		}
		check := asserts[c.Assertion]
		if check == nil {
			t.Errorf("%s: no assertion %s", c.Name, c.Assertion)
			continue
		}
		if c.Holds {
			if !check(t, c.Outcomes...) {
				t.Errorf("%s: %s failed, the vector holds", c.Name, c.Assertion)
			}
		} else {
			expectFail(t, c.Name, func(tb testing.TB) bool { return check(tb, c.Outcomes...) })
		}
	}
	if _, err := aht.VerdictOf("blocked_somewhere"); err == nil {
		t.Error("an unknown assertion must be an error")
	}
}
