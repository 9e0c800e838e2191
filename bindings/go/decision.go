package agenthooks

import "encoding/json"

// DecisionKind is what a hook decided.
type DecisionKind string

// Every decision kind. Neutral ones (no_decision, accept_prompt, finish,
// observed) fall through in the router; the others are conclusive.
const (
	DecisionNoDecision    DecisionKind = "no_decision"
	DecisionAllow         DecisionKind = "allow"
	DecisionDeny          DecisionKind = "deny"
	DecisionAsk           DecisionKind = "ask"
	DecisionDefer         DecisionKind = "defer"
	DecisionAcceptPrompt  DecisionKind = "accept_prompt"
	DecisionBlockPrompt   DecisionKind = "block_prompt"
	DecisionFinish        DecisionKind = "finish"
	DecisionContinue      DecisionKind = "continue"
	DecisionObserved      DecisionKind = "observed"
	DecisionFlagOutput    DecisionKind = "flag_output"
	DecisionReplaceOutput DecisionKind = "replace_output"
)

// Decision is a hook's answer plus modifiers, as the decision JSON of
// every agenthooks language. The zero value is no_decision ("no opinion":
// the agent's own permission flow runs; never the same as Allow).
type Decision struct {
	Kind DecisionKind `json:"kind"`
	// Reason is shown to the model (deny, ask, block_prompt, flag_output).
	Reason string `json:"reason,omitempty"`
	// Instruction is what the agent should do next (continue).
	Instruction string `json:"instruction,omitempty"`
	// Context is extra context for the model, in order.
	Context []string `json:"context,omitempty"`
	// SystemMessage is shown to the human only.
	SystemMessage string `json:"system_message,omitempty"`
	// BlockReason is the human-facing message for a block.
	BlockReason string `json:"block_reason,omitempty"`
	// StopAgent stops the whole agent (continue:false where supported).
	StopAgent *StopAgent `json:"stop_agent,omitempty"`
	// UpdatedInput replaces the tool input (a whole object).
	UpdatedInput map[string]any `json:"updated_input,omitempty"`
	// ReplacedOutput replaces the tool output the model sees.
	ReplacedOutput any `json:"replaced_output,omitempty"`
	// Native is merged verbatim into the agent's answer (escape hatch).
	Native map[string]any `json:"native,omitempty"`
}

// StopAgent stops the agent after this hook.
type StopAgent struct {
	Reason string `json:"reason,omitempty"`
}

// MarshalJSON renders the decision JSON; an empty Kind is no_decision.
func (d Decision) MarshalJSON() ([]byte, error) {
	type plain Decision
	if d.Kind == "" {
		d.Kind = DecisionNoDecision
	}
	return json.Marshal(plain(d))
}

// IsNeutral reports whether the decision falls through in the router.
func (d Decision) IsNeutral() bool {
	switch d.Kind {
	case "", DecisionNoDecision, DecisionAcceptPrompt, DecisionFinish, DecisionObserved:
		return true
	}
	return false
}

// NoDecision is "no opinion": the agent's own flow runs.
func NoDecision() Decision { return Decision{Kind: DecisionNoDecision} }

// Allow approves the tool call (skipping the agent's own prompt).
func Allow() Decision { return Decision{Kind: DecisionAllow} }

// Deny blocks the tool call, telling the model why.
func Deny(reason string) Decision { return Decision{Kind: DecisionDeny, Reason: reason} }

// Ask asks the human (degrades per policy where the agent cannot ask).
func Ask(reason string) Decision { return Decision{Kind: DecisionAsk, Reason: reason} }

// Defer ends the run and hands the call back (Claude Code; degrades elsewhere).
func Defer() Decision { return Decision{Kind: DecisionDefer} }

// AcceptPrompt lets the prompt through (neutral).
func AcceptPrompt() Decision { return Decision{Kind: DecisionAcceptPrompt} }

// BlockPrompt blocks the prompt.
func BlockPrompt(reason string) Decision { return Decision{Kind: DecisionBlockPrompt, Reason: reason} }

// Finish lets the agent stop (neutral).
func Finish() Decision { return Decision{Kind: DecisionFinish} }

// Continue keeps the agent going with an instruction.
func Continue(instruction string) Decision {
	return Decision{Kind: DecisionContinue, Instruction: instruction}
}

// Observed says the output was seen (neutral).
func Observed() Decision { return Decision{Kind: DecisionObserved} }

// FlagOutput tells the model something is wrong with the tool output.
func FlagOutput(reason string) Decision { return Decision{Kind: DecisionFlagOutput, Reason: reason} }

// ReplaceOutput replaces the tool output the model sees.
func ReplaceOutput(output any) Decision {
	return Decision{Kind: DecisionReplaceOutput, ReplacedOutput: output}
}

// WithReason returns the decision with a reason.
func (d Decision) WithReason(r string) Decision { d.Reason = r; return d }

// WithContext returns the decision with one more context entry.
func (d Decision) WithContext(c string) Decision {
	d.Context = append(append([]string(nil), d.Context...), c)
	return d
}

// WithSystemMessage returns the decision with a human-only message.
func (d Decision) WithSystemMessage(m string) Decision { d.SystemMessage = m; return d }

// WithBlockReason returns the decision with a human-facing block message.
func (d Decision) WithBlockReason(m string) Decision { d.BlockReason = m; return d }

// WithStopAgent returns the decision that also stops the agent.
func (d Decision) WithStopAgent(reason string) Decision {
	d.StopAgent = &StopAgent{Reason: reason}
	return d
}

// WithUpdatedInput returns the decision that rewrites the tool input.
func (d Decision) WithUpdatedInput(input map[string]any) Decision {
	d.UpdatedInput = input
	return d
}

// WithNative returns the decision with a native object merged into the answer.
func (d Decision) WithNative(native map[string]any) Decision { d.Native = native; return d }
