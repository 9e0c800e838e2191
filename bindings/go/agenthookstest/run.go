package agenthookstest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	agenthooks "github.com/agenthooks/agenthooks/bindings/go"
	"github.com/agenthooks/agenthooks/bindings/go/internal/kit"
)

// call sends one request to the core's test kit entry point.
func call(entry func(req any) (json.RawMessage, error), req any, out any) error {
	raw, err := entry(req)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, out)
}

// Corpus returns the fixture corpus the core ships (every decodable
// payload of every agent, the shapes the real agents send), filtered by
// agent id and unified kind ("tool.pre", "prompt.submitted", ...; "" for
// any). An unknown agent or kind fails the test. Range over it in a table
// test:
//
//	for _, f := range agenthookstest.Corpus(t, "", "tool.pre") {
//		t.Run(f.Name, func(t *testing.T) {
//			o := agenthookstest.RunRouter(t, r, f.Agent, f.Scenario())
//			agenthookstest.AssertNoEmptyAllow(t, o)
//		})
//	}
func Corpus(t testing.TB, agent, kind string) []Fixture {
	t.Helper()
	req := map[string]string{}
	if agent != "" {
		req["agent"] = agent
	}
	if kind != "" {
		req["kind"] = kind
	}
	var out struct {
		Fixtures []Fixture `json:"fixtures"`
	}
	if err := call(agenthooks.FixtureCorpusJSON, req, &out); err != nil {
		t.Fatalf("agenthookstest: corpus (agent %q, kind %q): %v", agent, kind, err)
	}
	return out.Fixtures
}

// payloadCase is one agent's payload for a scenario.
type payloadCase struct {
	Agent    string          `json:"agent"`
	Scenario string          `json:"scenario"`
	Event    string          `json:"event"`
	Tool     string          `json:"tool"`
	Payload  json.RawMessage `json:"payload"`
	Skipped  string          `json:"skipped"`
}

// RunRouter runs the router in-process for one agent: the core builds the
// agent's payload for the scenario, agenthooks.Run answers it (the same
// entry Main uses: argv, decode, the policy's deadline and fail posture,
// encode), and the core predicts what the agent does with the answer.
// Each call gets a fresh state directory, so one call's Cursor dedupe
// marker never suppresses the next. An outcome with Skipped set means the
// agent has no such event or tool. A scenario or agent the core rejects
// fails the test.
func RunRouter(t testing.TB, r *agenthooks.Router, agent string, s Scenario) Outcome {
	t.Helper()
	return runRouter(t, r, []string{agent}, s)[0]
}

// AcrossAgents is RunRouter on every agent (the order of Agents).
func AcrossAgents(t testing.TB, r *agenthooks.Router, s Scenario) []Outcome {
	t.Helper()
	return runRouter(t, r, Agents, s)
}

func runRouter(t testing.TB, r *agenthooks.Router, agents []string, s Scenario) []Outcome {
	t.Helper()
	if r == nil {
		t.Fatalf("agenthookstest: RunRouter needs a router")
	}
	var cases struct {
		Cases []payloadCase `json:"cases"`
	}
	req := map[string]any{"scenarios": []Scenario{s}, "agents": agents}
	if err := call(agenthooks.ScenarioPayloadsJSON, req, &cases); err != nil {
		t.Fatalf("agenthookstest: scenario %q: %v", label(s), err)
	}
	if len(cases.Cases) != len(agents) {
		t.Fatalf("agenthookstest: scenario %q: %d cases for %d agents", label(s), len(cases.Cases), len(agents))
	}
	out := make([]Outcome, 0, len(agents))
	for _, c := range cases.Cases {
		o := Outcome{Agent: c.Agent, Scenario: c.Scenario, Event: c.Event, Tool: c.Tool, Skipped: c.Skipped, Payload: c.Payload}
		if c.Skipped == "" {
			answerInProcess(t, r, &o, s.Variant)
		}
		out = append(out, o)
	}
	return out
}

// answerInProcess runs the router on o's payload through agenthooks.Run
// and predicts the agent's behaviour.
func answerInProcess(t testing.TB, r *agenthooks.Router, o *Outcome, variant string) {
	t.Helper()
	o.Argv = []string{"agenthookstest", "agenthooks", "run", "--provider=" + o.Agent, "--event=" + o.Event}
	if variant != "" {
		o.Argv = append(o.Argv, "--variant="+variant)
	}
	state := stateDir(t)
	var stdout, stderr bytes.Buffer
	start := time.Now()
	exit := kit.Run(context.Background(), r, o.Argv, bytes.NewReader(o.Payload), &stdout, &stderr, state)
	o.DurationMS = uint64(time.Since(start).Milliseconds())
	o.Answer = Answer{Stdout: stdout.String(), Stderr: stderr.String(), Exit: &exit}
	o.Prediction = predict(t, o.Agent, o.Event, o.Tool, o.Answer)
}

// stateDir is a fresh state root for one call, removed when the test
// ends (the core creates it private).
func stateDir(t testing.TB) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "state")
}

// Predict is what the agent does with a wire answer to a native event
// (tool: the native tool name, "" for the agent's shell tool), the core's
// behaviour reader. Use it to test an answer you built yourself.
func Predict(t testing.TB, agent, event, tool string, a Answer) *Prediction {
	t.Helper()
	return predict(t, agent, event, tool, a)
}

func predict(t testing.TB, agent, event, tool string, a Answer) *Prediction {
	t.Helper()
	req := map[string]any{"agent": agent, "event": event, "answer": a}
	if tool != "" {
		req["tool"] = tool
	}
	var p Prediction
	if err := call(agenthooks.PredictJSON, req, &p); err != nil {
		t.Fatalf("agenthookstest: predict %s %s: %v", agent, event, err)
	}
	return &p
}

// RunHook runs a hook program out of process for one agent, as that agent
// would run it (its shell, hook environment variables, the payload on
// stdin, its default timeout unless timeout > 0), and predicts what the
// agent does with the answer. In argv, "{agent}" and "{event}" are
// replaced by the agent id and the native event name, e.g.
//
//	[]string{"./guard", "agenthooks", "run", "--provider={agent}", "--event={event}"}
//
// Each hook run gets a fresh private AGENTHOOKS_STATE_DIR from the core
// (removed afterwards). A hook that cannot start shows in Outcome.RunError (the
// assertions report it).
func RunHook(t testing.TB, argv []string, agent string, s Scenario, timeout time.Duration) Outcome {
	t.Helper()
	return runHook(t, argv, []string{agent}, s, timeout)[0]
}

// HookAcrossAgents is RunHook on every agent (run in parallel; outcomes in
// the order of Agents).
func HookAcrossAgents(t testing.TB, argv []string, s Scenario, timeout time.Duration) []Outcome {
	t.Helper()
	return runHook(t, argv, Agents, s, timeout)
}

func runHook(t testing.TB, argv []string, agents []string, s Scenario, timeout time.Duration) []Outcome {
	t.Helper()
	if len(argv) == 0 {
		t.Fatalf("agenthookstest: RunHook needs a command")
	}
	if len(s.Payload) > 0 && s.Variant != "" {
		t.Logf("agenthookstest: %s: the variant %q is not passed to a hook program; put --variant in argv", label(s), s.Variant)
	}
	// The core gives each run its own fresh state root: each is the
	// agent's first call.
	req := map[string]any{"command": argv, "scenarios": []Scenario{s}, "agents": agents}
	if timeout > 0 {
		req["timeout_ms"] = timeout.Milliseconds()
	}
	if wd, err := os.Getwd(); err == nil {
		req["cwd"] = wd
	}
	var res struct {
		Outcomes []Outcome `json:"outcomes"`
	}
	if err := call(agenthooks.SimulateJSON, req, &res); err != nil {
		t.Fatalf("agenthookstest: simulate %q: %v", label(s), err)
	}
	if len(res.Outcomes) != len(agents) {
		t.Fatalf("agenthookstest: simulate %q: %d outcomes for %d agents", label(s), len(res.Outcomes), len(agents))
	}
	return res.Outcomes
}

func label(s Scenario) string {
	if s.Name != "" {
		return s.Name
	}
	b, _ := json.Marshal(s)
	return string(b)
}
