package agenthooks

import (
	"context"
	"io"

	"github.com/agenthooks/agenthooks/bindings/go/internal/kit"
)

// The test kit (package agenthookstest) reaches the core through these
// hooks, so that cgo stays in this package and its public API does not
// grow: the JSON entry points of the simulation (ah_predict_json,
// ah_simulate_json, ah_fixture_corpus_json, ah_scenario_payloads_json,
// ah_verdict_json) and
// Run with a state root of the caller's.
func init() {
	kit.JSON = func(c kit.Call, req []byte, out any) error {
		which := map[kit.Call]int{
			kit.Predict:          callPredict,
			kit.Simulate:         callSimulate,
			kit.Corpus:           callCorpus,
			kit.ScenarioPayloads: callScenarioPayloads,
			kit.Verdict:          callVerdict,
		}
		w, ok := which[c]
		if !ok {
			return newError("invalid_argument", "no test kit entry point %d", int(c))
		}
		return jsonCall(w, req, out)
	}
	kit.Run = func(ctx context.Context, router any, argv []string, stdin io.Reader, stdout, stderr io.Writer, stateDir string) int {
		r, ok := router.(*Router)
		if !ok || r == nil {
			io.WriteString(stderr, "agenthooks: invalid_argument: the test kit needs an *agenthooks.Router\n")
			return 1
		}
		return run(ctx, r, argv, stdin, stdout, stderr, stateDir)
	}
}
