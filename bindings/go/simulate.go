package agenthooks

/*
#include "agenthooks.h"
*/
import "C"

import "encoding/json"

// The test kit's core (issue 17, docs/testing.md): what each agent does with
// a hook's answer, running a hook the way each agent would, the fixture
// corpus shipped in the library and each agent's payload for a scenario.
// Each is one JSON request through the C ABI (ah_predict_json,
// ah_simulate_json, ah_fixture_corpus_json, ah_scenario_payloads_json); the
// answer is returned as JSON for the agenthookstest package to shape. A
// request the core rejects is an *Error with the core's code.

func rawCall(entry jsonEntry, req any) (json.RawMessage, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return nil, newError("invalid_argument", "request: %v", err)
	}
	var out json.RawMessage
	if err := jsonCall(entry, b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// PredictJSON asks what an agent does with a hook's answer: req is
// {"agent", "event", "tool"?, "answer": {"stdout", "stderr", "exit",
// "timed_out"?}} or {"agent", "payload", "event"?, "decision", "policy"?}.
// The answer is the prediction {"agent", "event", "kind", "effect",
// "decision"?, "model_sees"?, "user_sees"?, "updated_input"?, "warnings"}.
func PredictJSON(req any) (json.RawMessage, error) { return rawCall(predictJSON, req) }

// SimulateJSON runs a hook command the way each agent would (blocking
// until the runs finish): req is {"command": [argv], "scenarios"?,
// "agents"?, "cwd"?, "timeout_ms"?}; the answer is {"outcomes": [...]}.
func SimulateJSON(req any) (json.RawMessage, error) { return rawCall(simulateJSON, req) }

// FixtureCorpusJSON returns the shipped fixture corpus: req is {"agent"?,
// "kind"?}; the answer is {"fixtures": [...]}.
func FixtureCorpusJSON(req any) (json.RawMessage, error) { return rawCall(corpusJSON, req) }

// ScenarioPayloadsJSON returns each agent's payload for each scenario: req
// is {"scenarios"?, "agents"?, "cwd"?}; the answer is {"cases": [...]}.
func ScenarioPayloadsJSON(req any) (json.RawMessage, error) {
	return rawCall(scenarioPayloadsJSON, req)
}

// VerdictJSON asks for the verdict of an assertion over outcomes: req is
// {"assertion": "blocked_everywhere" | "runs_everywhere" |
// "no_empty_allow", "outcomes": [...]}; the answer is {"assertion",
// "holds", "checked", "offending", "nothing_checked"?}.
func VerdictJSON(req any) (json.RawMessage, error) { return rawCall(verdictJSON, req) }

func predictJSON(p *C.uint8_t, n C.size_t, b **C.ah_buf, e **C.ah_error) C.ah_status {
	return C.ah_predict_json(p, n, b, e)
}

func simulateJSON(p *C.uint8_t, n C.size_t, b **C.ah_buf, e **C.ah_error) C.ah_status {
	return C.ah_simulate_json(p, n, b, e)
}

func corpusJSON(p *C.uint8_t, n C.size_t, b **C.ah_buf, e **C.ah_error) C.ah_status {
	return C.ah_fixture_corpus_json(p, n, b, e)
}

func scenarioPayloadsJSON(p *C.uint8_t, n C.size_t, b **C.ah_buf, e **C.ah_error) C.ah_status {
	return C.ah_scenario_payloads_json(p, n, b, e)
}

func verdictJSON(p *C.uint8_t, n C.size_t, b **C.ah_buf, e **C.ah_error) C.ah_status {
	return C.ah_verdict_json(p, n, b, e)
}
