// Package agenthookstest tests a hook against every agent from go test:
// the fixture corpus the core ships, a router run in-process (through
// agenthooks.Run, the entry Main uses) or a hook program run out of
// process (as each agent runs it), and assertions on what each agent DOES
// with the answer — the core's behaviour reader — not only on its bytes.
//
//	func TestGuard(t *testing.T) {
//		r := newRouter() // your *agenthooks.Router
//		rm := agenthookstest.AcrossAgents(t, r, agenthookstest.Shell("rm -rf build"))
//		agenthookstest.AssertBlockedEverywhere(t, rm...) // every agent that can block, blocked
//		ls := agenthookstest.AcrossAgents(t, r, agenthookstest.Shell("ls"))
//		agenthookstest.AssertRunsEverywhere(t, ls...)
//		agenthookstest.AssertNoEmptyAllow(t, ls...) // no agent skips the user's approval
//	}
//
// Out of process, with the built program ({agent} and {event} are
// replaced per agent, as `agenthooks install` writes the command):
//
//	argv := []string{bin, "agenthooks", "run", "--provider={agent}", "--event={event}"}
//	agenthookstest.AssertBlockedEverywhere(t, agenthookstest.HookAcrossAgents(t, argv, agenthookstest.Shell("rm -rf /"), 0)...)
//
// Table tests range over the corpus:
//
//	for _, f := range agenthookstest.Corpus(t, "", "tool.pre") {
//		t.Run(f.Name, func(t *testing.T) {
//			agenthookstest.AssertNoEmptyAllow(t, agenthookstest.RunRouter(t, r, f.Agent, f.Scenario()))
//		})
//	}
//
// Helpers take a testing.TB: a request the core rejects (an unknown agent
// or scenario) is t.Fatalf; an assertion that does not hold is t.Errorf
// listing every offending agent with its effect, warnings and wire answer,
// and returns false. Every call gets a fresh state directory (removed with
// the test's temporary directories), so Cursor's duplicate-call marker of
// one run never silences the next. Effects and warning codes:
// fixtures/simulate/README.md; the core side: docs/testing.md.
package agenthookstest
