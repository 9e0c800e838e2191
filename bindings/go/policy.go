package agenthooks

import (
	"encoding/json"
	"time"
)

// Fail is what to answer when the hook itself fails.
type Fail string

// Fail postures.
const (
	// FailOpen lets the agent go on (no decision), with a diagnostic.
	FailOpen Fail = "open"
	// FailClosed blocks with the agent's real blocking mechanism where
	// the event can block.
	FailClosed Fail = "closed"
)

// Unsupported is what to do with a decision the agent cannot express.
type Unsupported string

// Degradation rules.
const (
	// UnsupportedDegrade degrades to the closest expressible decision and
	// adds a note.
	UnsupportedDegrade Unsupported = "degrade"
	// UnsupportedStrict fails with unsupported_decision.
	UnsupportedStrict Unsupported = "strict"
)

// AskFallback is what ask becomes where the agent cannot ask.
type AskFallback string

// Ask fallbacks.
const (
	AskFallbackDeny       AskFallback = "deny"
	AskFallbackNoDecision AskFallback = "no_decision"
)

// HeadlessAsk is what ask becomes in a session known to be headless
// (nobody can answer a prompt).
type HeadlessAsk string

// Headless rules.
const (
	// HeadlessAskDeny denies with the ask's reason (the default).
	HeadlessAskDeny HeadlessAsk = "deny"
	// HeadlessAskNoDecision leaves the call to the agent's own flow.
	HeadlessAskNoDecision HeadlessAsk = "no_decision"
	// HeadlessAskNative sends the agent's own ask where it has one
	// (never on Gemini CLI, where a headless ask hangs the run).
	HeadlessAskNative HeadlessAsk = "native"
)

// Policy is the policy a hook declares. The zero value of every field
// means the default: fail open, degrade, ask falls back to deny, a
// headless ask is a deny, a continuation cap of 5, a deadline of 90% of the configured timeout
// (else 55 s).
type Policy struct {
	Fail        Fail
	Unsupported Unsupported
	AskFallback AskFallback
	HeadlessAsk HeadlessAsk
	// ContinuationCap caps consecutive `continue` decisions on stop
	// events: 0 means the default (5), a negative value means no cap.
	ContinuationCap int
	// Timeout is the handler deadline; 0 means the default.
	Timeout time.Duration
}

// MarshalJSON renders the partial policy JSON the core reads (fields at
// their zero value are left out, so the core's defaults apply).
func (p Policy) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	if p.Fail != "" {
		m["fail"] = p.Fail
	}
	if p.Unsupported != "" {
		m["unsupported"] = p.Unsupported
	}
	if p.AskFallback != "" {
		m["ask_fallback"] = p.AskFallback
	}
	if p.HeadlessAsk != "" {
		m["headless_ask"] = p.HeadlessAsk
	}
	switch {
	case p.ContinuationCap < 0:
		m["continuation_cap"] = 0
	case p.ContinuationCap > 0:
		m["continuation_cap"] = p.ContinuationCap
	}
	if p.Timeout > 0 {
		ms := p.Timeout.Milliseconds()
		if ms == 0 {
			ms = 1
		}
		m["timeout_ms"] = ms
	}
	return json.Marshal(m)
}

func (p Policy) isDefault() bool { return p == Policy{} }

// policyJSON is the policy argument of the C calls (nil: the defaults).
func policyJSON(p Policy) ([]byte, error) {
	if p.isDefault() {
		return nil, nil
	}
	return json.Marshal(p)
}

func msDuration(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }
