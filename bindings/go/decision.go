package agenthooks

import (
	"encoding/json"
	"unicode/utf8"
)

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
	// PatchInput is an RFC 7396 merge patch against the tool input as the
	// agent sent it (a nil value deletes a key, maps merge, slices and
	// scalars replace); applied on top of UpdatedInput when both are set.
	PatchInput map[string]any `json:"patch_input,omitempty"`
	// RewriteConflicts is set by the router's fold: where handlers' input
	// rewrites collided (JSON Pointers of patch keys, or "updated_input").
	RewriteConflicts []string `json:"rewrite_conflicts,omitempty"`
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
// Written out by hand (the same members, order and omissions as the
// struct tags say): letting encoding/json reflect over Decision costs a
// hook process a fixed first-use price. TestDecisionJSONMatchesTags holds
// it to the tags.
func (d Decision) MarshalJSON() ([]byte, error) {
	if d.Kind == "" {
		d.Kind = DecisionNoDecision
	}
	b := make([]byte, 0, 64+len(d.Reason)+len(d.Instruction))
	b = append(b, `{"kind":`...)
	b = appendJSONString(b, string(d.Kind))
	b = appendMember(b, "reason", d.Reason)
	b = appendMember(b, "instruction", d.Instruction)
	if len(d.Context) > 0 {
		b = append(b, `,"context":[`...)
		for i, c := range d.Context {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, c)
		}
		b = append(b, ']')
	}
	b = appendMember(b, "system_message", d.SystemMessage)
	b = appendMember(b, "block_reason", d.BlockReason)
	if d.StopAgent != nil {
		b = append(b, `,"stop_agent":{`...)
		if d.StopAgent.Reason != "" {
			b = append(b, `"reason":`...)
			b = appendJSONString(b, d.StopAgent.Reason)
		}
		b = append(b, '}')
	}
	var err error
	if len(d.UpdatedInput) > 0 {
		if b, err = appendValue(b, "updated_input", d.UpdatedInput); err != nil {
			return nil, err
		}
	}
	if len(d.PatchInput) > 0 {
		if b, err = appendValue(b, "patch_input", d.PatchInput); err != nil {
			return nil, err
		}
	}
	if len(d.RewriteConflicts) > 0 {
		b = append(b, `,"rewrite_conflicts":[`...)
		for i, c := range d.RewriteConflicts {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, c)
		}
		b = append(b, ']')
	}
	if d.ReplacedOutput != nil {
		if b, err = appendValue(b, "replaced_output", d.ReplacedOutput); err != nil {
			return nil, err
		}
	}
	if len(d.Native) > 0 {
		if b, err = appendValue(b, "native", d.Native); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendMember appends `,"key":"value"` unless value is empty.
func appendMember(b []byte, key, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendJSONString(b, value)
}

// appendValue appends `,"key":<value as encoding/json renders it>`.
func appendValue(b []byte, key string, v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return append(b, j...), nil
}

// appendJSONString appends s as a JSON string as encoding/json writes it
// (invalid UTF-8 becomes U+FFFD; <, > and & are escaped).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
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

// WithPatchInput returns the decision that patches the tool input (an RFC
// 7396 merge patch; several handlers' patches compose in order, and the
// core renders each agent's own rewrite).
func (d Decision) WithPatchInput(patch map[string]any) Decision {
	d.PatchInput = patch
	return d
}

// WithNative returns the decision with a native object merged into the answer.
func (d Decision) WithNative(native map[string]any) Decision { d.Native = native; return d }
