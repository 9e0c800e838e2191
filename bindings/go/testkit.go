package agenthooks

import (
	"context"
	"io"

	"github.com/agenthooks/agenthooks/bindings/go/internal/kit"
)

// The test kit (package agenthookstest) reaches Run with a state root of
// the caller's through this hook, so that its public API does not grow.
// The kit's JSON entry points are the public PredictJSON, SimulateJSON,
// FixtureCorpusJSON, ScenarioPayloadsJSON and VerdictJSON: nothing here
// names them, so a hook that does not import the kit does not link them.
func init() {
	kit.Run = func(ctx context.Context, router any, argv []string, stdin io.Reader, stdout, stderr io.Writer, stateDir string) int {
		r, ok := router.(*Router)
		if !ok || r == nil {
			io.WriteString(stderr, "agenthooks: invalid_argument: the test kit needs an *agenthooks.Router\n")
			return 1
		}
		return run(ctx, r, argv, stdin, stdout, stderr, stateDir)
	}
}
