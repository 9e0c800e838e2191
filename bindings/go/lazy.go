package agenthooks

/*
#include "agenthooks.h"
*/
import "C"

import (
	"bytes"
	"encoding/json"
	"runtime"
	"sync"
)

// The hook path reads as little as it can: an event is built from the
// core's head JSON (the canonical event without its tool output and raw
// payload, a few hundred bytes), decoded without reflecting over the Go
// types; the tool output and the raw payload are read from the core only
// when a handler calls Event.Output or Event.Raw. A 1 MiB PostToolUse thus
// costs the Go side the head, not two megabytes of encoding/json nor a
// second copy of the payload.

// lazyOutput is where Event.Output, Event.Raw and the session mode come
// from: the native event, until the hook call that owns it ends (release)
// or the event is closed.
type lazyOutput struct {
	mu     sync.Mutex
	ev     *C.ah_event  // borrowed from an invocation; nil once released
	owner  *nativeEvent // or the event's own handle (Decode)
	val    json.RawMessage
	loaded bool
	// The raw payload, read on first need unless the caller held it.
	raw       json.RawMessage
	rawLoaded bool
	// The session mode (ah_event_session_mode_json), read on first need.
	mode       sessionMode
	modeLoaded bool
}

// sessionMode is the core's session-mode JSON.
type sessionMode struct {
	Interactive *bool  `json:"interactive"`
	Signal      string `json:"signal"`
}

func (l *lazyOutput) sessionMode() sessionMode {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.modeLoaded {
		return l.mode
	}
	p := l.native()
	if p == nil {
		return sessionMode{} // released or closed before anyone asked
	}
	// A malformed answer leaves the mode unknown (the core renders it).
	_ = json.Unmarshal(view(C.ah_event_session_mode_json(p)), &l.mode)
	runtime.KeepAlive(l.owner)
	l.modeLoaded = true
	return l.mode
}

// Interactive tells whether a person can answer a prompt in this session:
// true interactive, false headless, nil unknown. It is the mode the event
// carries (a run's --observed one), else observed on the first call from
// this process's environment and /proc, once per process (the same
// observation an ask uses). Like Output, an event from Main or Run reads it
// while the hook call runs, one from Decode until Close; nil after that if
// never read.
func (e *Event) Interactive() *bool {
	if e.output == nil {
		return nil
	}
	return e.output.sessionMode().Interactive
}

// ModeSignal is the signal that decided Interactive ("argv:-p",
// "env:CLAUDE_CODE_SESSION_ATTENDED=0", ...); "" when unknown.
func (e *Event) ModeSignal() string {
	if e.output == nil {
		return ""
	}
	return e.output.sessionMode().Signal
}

// native is the event to read from; nil once the hook call ended or the
// event was closed. Called with mu held.
func (l *lazyOutput) native() *C.ah_event {
	if l.owner != nil {
		return l.owner.p
	}
	return l.ev
}

// load returns *dst, reading it from the native event with read on the
// first call (a copy: the core's bytes go away with the event).
func (l *lazyOutput) load(dst *json.RawMessage, loaded *bool, read func(*C.ah_event) C.ah_str) json.RawMessage {
	l.mu.Lock()
	defer l.mu.Unlock()
	if *loaded {
		return *dst
	}
	p := l.native()
	if p == nil {
		return nil // released or closed before anyone read it
	}
	maybeGC()
	if s := view(read(p)); len(s) > 0 {
		*dst = bytes.Clone(s)
	}
	runtime.KeepAlive(l.owner)
	*loaded = true
	return *dst
}

func (l *lazyOutput) get() json.RawMessage {
	return l.load(&l.val, &l.loaded, func(p *C.ah_event) C.ah_str { return C.ah_event_output_json(p) })
}

func (l *lazyOutput) getRaw() json.RawMessage {
	return l.load(&l.raw, &l.rawLoaded, func(p *C.ah_event) C.ah_str { return C.ah_event_raw(p) })
}

func (l *lazyOutput) release() {
	l.mu.Lock()
	l.ev = nil
	l.mu.Unlock()
}

// Output is the tool output as canonical JSON (tool.post, tool.error and
// the like; nil when the agent sent none). It is read from the core on
// the first call and kept; do not modify it. An event handed to a handler
// by Main or Run reads it while the hook call runs; one from Decode until
// Close. After that, an event that never read its output returns nil.
func (e *Event) Output() json.RawMessage {
	if e.output == nil {
		return nil
	}
	return e.output.get()
}

// SetOutput sets what Output returns (for building events in tests).
func (e *Event) SetOutput(out json.RawMessage) {
	if e.output == nil {
		e.output = &lazyOutput{}
	}
	e.output.mu.Lock()
	e.output.val, e.output.loaded = out, true
	e.output.mu.Unlock()
}

// Raw is the payload exactly as the agent sent it (the bytes, not a
// re-encoding; the per-agent views in native/ decode it). Like Output, it
// is read from the core on the first call and kept; do not modify it. An
// event handed to a handler by Main or Run reads it while the hook call
// runs, one from Decode until Close. After that, an event that never read
// it returns nil.
func (e *Event) Raw() json.RawMessage {
	if e.output == nil {
		return nil
	}
	return e.output.getRaw()
}

// SetRaw sets what Raw returns (for building events in tests).
func (e *Event) SetRaw(raw json.RawMessage) {
	if e.output == nil {
		e.output = &lazyOutput{}
	}
	e.output.mu.Lock()
	e.output.raw, e.output.rawLoaded = raw, true
	e.output.mu.Unlock()
}

// releaseOutput ends the event's access to the core's output: Main and Run
// call it before they free the invocation the event came from.
func (e *Event) releaseOutput() {
	if e.output != nil {
		e.output.release()
	}
}

// eventFromNative builds the Go event of a native one: its head JSON
// decoded, Raw and Output read from the native event on demand (Raw is
// always the core's: the bytes a caller read from stdin are not the
// payload when they were blank and the argv held it, or when they were an
// async child's envelope). owner, when set, is the handle that keeps ev
// alive (Decode); otherwise the caller calls releaseOutput before ev goes
// away.
func eventFromNative(ev *C.ah_event, owner *nativeEvent) (*Event, error) {
	e, err := decodeHead(view(C.ah_event_head_json(ev)))
	if err != nil {
		return nil, err
	}
	e.output = &lazyOutput{ev: ev, owner: owner}
	return e, nil
}

// headJSON is the event's head JSON as the core renders it (tests compare
// the two decoders on it); nil without a native handle.
func (e *Event) headJSON() []byte {
	if e.native == nil || e.native.p == nil {
		return nil
	}
	out := bytes.Clone(view(C.ah_event_head_json(e.native.ptr())))
	runtime.KeepAlive(e.native)
	return out
}
