package agenthookstest

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Agents lists every agent id, in the core's order.
var Agents = []string{"claude-code", "codex", "cursor", "gemini", "kimi-code", "copilot", "opencode", "openclaw"}

// Effect is what an agent does with a hook's answer (the core's stable
// snake_case names; fixtures/simulate/README.md has the table).
type Effect string

// Every effect.
const (
	ToolRuns                   Effect = "tool_runs"                      // the tool runs as it would have anyway
	ToolRunsWithoutPrompt      Effect = "tool_runs_without_prompt"       // approved: runs, the user is not asked
	ToolRunsWithInputRewritten Effect = "tool_runs_with_input_rewritten" // runs with the hook's replacement input
	ToolBlocked                Effect = "tool_blocked"                   // the tool call does not run
	AsksUser                   Effect = "asks_user"                      // the agent asks the user to approve
	PromptBlocked              Effect = "prompt_blocked"                 // the prompt is not sent to the model
	PromptContinues            Effect = "prompt_continues"               // the prompt goes to the model unchanged
	PromptRewritten            Effect = "prompt_rewritten"               // the prompt is replaced by the hook's text
	ContextInjected            Effect = "context_injected"               // the hook's text is added to the model's context
	AgentContinues             Effect = "agent_continues"                // a stop was blocked: the agent keeps working
	AgentStops                 Effect = "agent_stops"                    // the agent stops
	OutputReplaced             Effect = "output_replaced"                // the tool result the model sees is replaced
	NoEffect                   Effect = "no_effect"                      // nothing changes
)

// IsBlock reports whether the effect stops the action the event is about
// (a tool call, a prompt): what a guard wants.
func (e Effect) IsBlock() bool { return e == ToolBlocked || e == PromptBlocked }

// Warning codes: why an answer is suspect on an agent (the core's stable
// names; fixtures/simulate/README.md has the table).
const (
	EmptyAllow             = "empty_allow"
	JSONOnStderr           = "json_on_stderr"
	StderrReadAsAnswer     = "stderr_read_as_answer"
	JSONIgnoredOnExit      = "json_ignored_on_exit"
	InvalidJSON            = "invalid_json"
	PlainTextStdout        = "plain_text_stdout"
	StdoutInjectedVerbatim = "stdout_injected_verbatim"
	UnknownField           = "unknown_field"
	IgnoredField           = "ignored_field"
	UnsupportedDecision    = "unsupported_decision"
	MissingReason          = "missing_reason"
	ReasonDropped          = "reason_dropped"
	HookFailed             = "hook_failed"
	FailOpen               = "fail_open"
	FailClosed             = "fail_closed"
	TimedOut               = "timed_out"
	Crashed                = "crashed"
	ExitCodeIgnored        = "exit_code_ignored"
	HangsHeadless          = "hangs_headless"
)

// Fixture is one payload of the corpus the core ships: the shapes the real
// agents send (fixtures/<agent>/ in the repository).
type Fixture struct {
	Agent string `json:"agent"`
	// Name is "<agent>/<file stem>".
	Name string `json:"name"`
	// Event is the native event name; Kind its unified kind ("tool.pre").
	Event string `json:"event"`
	Kind  string `json:"kind"`
	// Variant is the dialect variant the payload needs ("" for none).
	Variant string `json:"variant,omitempty"`
	// NamesEvent: the payload carries its event name (else the agent's
	// command passes --event).
	NamesEvent bool            `json:"names_event"`
	Payload    json.RawMessage `json:"payload"`
}

// Scenario turns the fixture into a scenario for its agent.
func (f Fixture) Scenario() Scenario {
	return Scenario{Name: f.Name, Agent: f.Agent, Event: f.Event, Payload: f.Payload, Variant: f.Variant}
}

// Scenario is what happens on the agent side. Either generic (Event
// "tool.pre", "tool.post", "prompt.submit" or "stop", with Tool, Command,
// Path, Prompt), built into each agent's own payload by the core, or one
// agent's native payload (Agent, Payload, and Event: its native name).
// Build them with Shell, Edit, Read, PromptSubmit, Stop, Payload or
// Fixture.Scenario.
type Scenario struct {
	Name    string          `json:"name,omitempty"`
	Event   string          `json:"event,omitempty"`
	Tool    string          `json:"tool,omitempty"`
	Command string          `json:"command,omitempty"`
	Path    string          `json:"path,omitempty"`
	Prompt  string          `json:"prompt,omitempty"`
	Agent   string          `json:"agent,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
	// Variant is passed as --variant to an in-process run (fixtures that
	// need one); not part of the core's scenario.
	Variant string `json:"-"`
}

// Shell is a shell command about to run (tool.pre).
func Shell(command string) Scenario {
	return Scenario{Event: "tool.pre", Tool: "shell", Command: command}
}

// Edit is a file edit about to run (tool.pre).
func Edit(path string) Scenario { return Scenario{Event: "tool.pre", Tool: "file.edit", Path: path} }

// Read is a file read about to run (tool.pre).
func Read(path string) Scenario { return Scenario{Event: "tool.pre", Tool: "file.read", Path: path} }

// PromptSubmit is a prompt the user submitted.
func PromptSubmit(text string) Scenario {
	return Scenario{Event: "prompt.submit", Prompt: text}
}

// Stop is the agent about to stop.
func Stop() Scenario { return Scenario{Event: "stop"} }

// Payload is one agent's native payload, sent as is; event is its native
// event name when the payload does not carry it ("" otherwise).
func Payload(agent string, payload []byte, event string) Scenario {
	return Scenario{Agent: agent, Payload: json.RawMessage(payload), Event: event}
}

// Named returns the scenario with a label (shown in outcomes and failure
// messages).
func (s Scenario) Named(name string) Scenario { s.Name = name; return s }

// After returns the tool scenario as the tool has run (tool.post).
func (s Scenario) After() Scenario {
	if s.Payload == nil {
		s.Event = "tool.post"
	}
	return s
}

// Answer is a hook's wire answer as the agent got it.
type Answer struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// Exit is nil when the hook was killed, timed out or never started.
	Exit     *int `json:"exit"`
	TimedOut bool `json:"timed_out,omitempty"`
}

func (a Answer) String() string {
	exit := "no exit"
	if a.Exit != nil {
		exit = fmt.Sprintf("exit %d", *a.Exit)
	}
	if a.TimedOut {
		exit += " (timed out)"
	}
	return fmt.Sprintf("%s, stdout %s, stderr %s", exit, clip(a.Stdout), clip(a.Stderr))
}

// Warning is one reason an answer is suspect on an agent.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Prediction is what the agent does with the answer.
type Prediction struct {
	Agent string `json:"agent"`
	Event string `json:"event"`
	Kind  string `json:"kind"`
	// Effect is what the agent does.
	Effect Effect `json:"effect"`
	// Decision is the decision the agent read (allow, deny, ask, block,
	// continue, stop, ...), if any.
	Decision string `json:"decision,omitempty"`
	// ModelSees and UserSees are the texts the model and the user are
	// shown ("" for none).
	ModelSees string `json:"model_sees,omitempty"`
	UserSees  string `json:"user_sees,omitempty"`
	// UpdatedInput is the replacement tool input, on
	// tool_runs_with_input_rewritten.
	UpdatedInput json.RawMessage `json:"updated_input,omitempty"`
	Warnings     []Warning       `json:"warnings,omitempty"`
}

// HasWarning reports whether a warning with this code was raised.
func (p *Prediction) HasWarning(code string) bool {
	if p == nil {
		return false
	}
	for _, w := range p.Warnings {
		if w.Code == code {
			return true
		}
	}
	return false
}

// Outcome is one agent × scenario: the payload the agent sent, the answer
// the hook gave and what the agent does with it.
type Outcome struct {
	Agent    string `json:"agent"`
	Scenario string `json:"scenario"`
	// Event and Tool are the native event and tool names.
	Event string `json:"event"`
	Tool  string `json:"tool,omitempty"`
	// Skipped says why this agent has no such case (no such event or
	// tool, or the payload belongs to another agent); nothing ran.
	Skipped string `json:"skipped,omitempty"`
	// Argv is the command that ran (out of process), or the argv Run got.
	Argv      []string        `json:"argv,omitempty"`
	Payload   json.RawMessage `json:"payload,omitempty"`
	TimeoutMS uint64          `json:"timeout_ms"`
	Answer    Answer          `json:"answer"`
	// DurationMS is the wall time of the run.
	DurationMS uint64 `json:"duration_ms"`
	// RunError says the hook could not be run at all (could not start, or
	// the shell could not find or execute it).
	RunError string `json:"run_error,omitempty"`
	// Prediction is nil when skipped.
	Prediction *Prediction `json:"prediction,omitempty"`
	Notes      []string    `json:"notes,omitempty"`
}

// Effect is the predicted effect ("" when skipped).
func (o Outcome) Effect() Effect {
	if o.Prediction == nil {
		return ""
	}
	return o.Prediction.Effect
}

// Ran reports whether the hook ran for this agent (not skipped).
func (o Outcome) Ran() bool { return o.Skipped == "" && o.Prediction != nil }

// String is one line per outcome: agent, scenario, event, effect,
// warnings and the wire answer (what failure messages list).
func (o Outcome) String() string {
	if o.Skipped != "" {
		return fmt.Sprintf("%s / %s: skipped (%s)", o.Agent, o.Scenario, o.Skipped)
	}
	var codes []string
	if o.Prediction != nil {
		for _, w := range o.Prediction.Warnings {
			codes = append(codes, w.Code)
		}
	}
	sort.Strings(codes)
	line := fmt.Sprintf("%s / %s (%s): %s", o.Agent, o.Scenario, o.Event, orDash(string(o.Effect())))
	if len(codes) > 0 {
		line += " [" + strings.Join(codes, ", ") + "]"
	}
	if o.RunError != "" {
		line += "; did not run: " + o.RunError
	}
	return line + "; answer: " + o.Answer.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// clip quotes a stream, shortened past 300 bytes.
func clip(s string) string {
	const max = 300
	if len(s) > max {
		return fmt.Sprintf("%q... (%d bytes)", s[:max], len(s))
	}
	return fmt.Sprintf("%q", s)
}
