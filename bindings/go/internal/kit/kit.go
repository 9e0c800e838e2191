// Package kit connects the test kit (package agenthookstest) to the C ABI
// calls of the root package without adding them to its public API: cgo
// stays in the root package, which fills these hooks at init.
package kit

import (
	"context"
	"io"
)

// Call names one of the core's JSON entry points of the test kit.
type Call int

const (
	// Predict is ah_predict_json: what an agent does with a wire answer.
	Predict Call = iota
	// Simulate is ah_simulate_json: run a hook command as each agent would.
	Simulate
	// Corpus is ah_fixture_corpus_json: the fixture corpus the core ships.
	Corpus
	// ScenarioPayloads is ah_scenario_payloads_json: each agent's payload
	// for a scenario.
	ScenarioPayloads
	// Verdict is ah_verdict_json: the core's verdict of an assertion over
	// outcomes.
	Verdict
)

// JSON sends req through the entry point and decodes the answer into out;
// an {"error": ...} answer is an *agenthooks.Error. Set by the root
// package.
var JSON func(c Call, req []byte, out any) error

// Run is agenthooks.Run (the same entry Main uses) with the state root of
// the call (Cursor dedupe markers, the stop-continuation counter) set to
// stateDir ("" for the user's). router is an *agenthooks.Router. Set by
// the root package.
var Run func(ctx context.Context, router any, argv []string, stdin io.Reader, stdout, stderr io.Writer, stateDir string) int
