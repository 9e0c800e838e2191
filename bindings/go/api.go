package agenthooks

/*
#include "agenthooks.h"
*/
import "C"

import (
	"bytes"
	"encoding/json"
	"runtime"
)

// nativeEvent owns an ah_event.
type nativeEvent struct{ p *C.ah_event }

func newNativeEvent(p *C.ah_event) *nativeEvent {
	n := &nativeEvent{p: p}
	runtime.SetFinalizer(n, (*nativeEvent).free)
	return n
}

// ptr returns the handle; callers keep n alive (runtime.KeepAlive) until
// the C call that uses it returns.
func (n *nativeEvent) ptr() *C.ah_event {
	maybeGC()
	return n.p
}

func (n *nativeEvent) free() {
	if n.p != nil {
		C.ah_event_free(n.p)
		n.p = nil
	}
	runtime.SetFinalizer(n, nil)
}

// DecodeOption configures Decode.
type DecodeOption func(*decodeOptions)

type decodeOptions struct {
	variant, event, detection string
	maxBytes                  int
}

// WithVariant sets the variant (cli, ide, cloud, ...) used when the payload
// does not name one.
func WithVariant(v string) DecodeOption { return func(o *decodeOptions) { o.variant = v } }

// WithEventName names the native event for payloads that do not carry one
// (the --event of the argv contract).
func WithEventName(name string) DecodeOption { return func(o *decodeOptions) { o.event = name } }

// WithDetection records how the provider was identified: "config" (the
// default), "env" or "shape" (as Detect reports it).
func WithDetection(how string) DecodeOption { return func(o *decodeOptions) { o.detection = how } }

// WithMaxBytes sets the payload size limit (0: the core's default).
func WithMaxBytes(n int) DecodeOption { return func(o *decodeOptions) { o.maxBytes = n } }

// Decode decodes one hook payload of provider (an id or alias:
// "claude-code", "claude", "codex", "cursor", ...) into an Event. The
// core keeps the payload verbatim (Event.Raw reads it). The event owns a native handle
// for Respond; Close it when done (a finalizer is the backstop).
//
// Errors are *Error with the core's codes (invalid_json, invalid_utf8,
// too_deep, unknown_provider, ...); pass one to FailResponseForPayload for
// the agent's answer to bad input.
func Decode(provider string, payload []byte, opts ...DecodeOption) (*Event, error) {
	var copts *C.ah_decode_options
	if len(opts) > 0 {
		var o decodeOptions
		for _, f := range opts {
			f(&o)
		}
		copts = C.ah_decode_options_new()
		defer C.ah_decode_options_free(copts)
		var cerr *C.ah_error
		if o.variant != "" {
			p, n := strArg(o.variant)
			if st := C.ah_decode_options_set_variant(copts, p, n, &cerr); st != C.AH_OK {
				return nil, errorOf(st, cerr)
			}
		}
		if o.event != "" {
			p, n := strArg(o.event)
			if st := C.ah_decode_options_set_event(copts, p, n, &cerr); st != C.AH_OK {
				return nil, errorOf(st, cerr)
			}
		}
		if o.detection != "" {
			p, n := strArg(o.detection)
			if st := C.ah_decode_options_set_detection(copts, p, n, &cerr); st != C.AH_OK {
				return nil, errorOf(st, cerr)
			}
		}
		if o.maxBytes > 0 {
			C.ah_decode_options_set_max_bytes(copts, C.size_t(o.maxBytes), nil)
		}
	}
	pp, pn := strArg(provider)
	bp, bn := bytesArg(payload)
	var ev *C.ah_event
	var cerr *C.ah_error
	if st := C.ah_event_decode(pp, pn, bp, bn, copts, &ev, &cerr); st != C.AH_OK {
		return nil, errorOf(st, cerr)
	}
	native := newNativeEvent(ev)
	e, err := eventFromNative(ev, native)
	runtime.KeepAlive(native)
	if err != nil {
		native.free()
		return nil, err
	}
	e.native = native
	return e, nil
}

// Close releases the event's native handle (Respond then fails, and
// Output returns nil unless it was read before). Safe to call more than
// once; events without a handle have nothing to release.
func (e *Event) Close() error {
	if e.native != nil {
		e.native.free()
	}
	return nil
}

func (e *Event) handle() (*nativeEvent, error) {
	if e.native == nil || e.native.p == nil {
		return nil, newError("invalid_argument",
			"this event has no native handle (closed, or handed to a handler by Main): use Decode")
	}
	return e.native, nil
}

// JSON returns the event's canonical JSON as the core renders it, with
// raw spliced in verbatim.
func (e *Event) JSON() ([]byte, error) {
	n, err := e.handle()
	if err != nil {
		return nil, err
	}
	out := bytes.Clone(view(C.ah_event_json(n.ptr())))
	runtime.KeepAlive(n)
	return out, nil
}

// Respond encodes a decision for the event's agent under the policy,
// degrading what the agent cannot express (see Response.Notes). Errors:
// invalid_decision, unsupported_decision / lossy_update (policy strict),
// invalid_argument (bad policy); FailResponse gives the fail policy's
// answer to any of them.
func (e *Event) Respond(d Decision, p Policy) (*Response, error) {
	n, err := e.handle()
	if err != nil {
		return nil, err
	}
	dj, err := json.Marshal(d)
	if err != nil {
		return nil, newError("invalid_decision", "%v", err)
	}
	return e.respondJSON(n, dj, p)
}

func (e *Event) respondJSON(n *nativeEvent, dj []byte, p Policy) (*Response, error) {
	pj, err := policyJSON(p)
	if err != nil {
		return nil, err
	}
	dp, dn := optArg(dj)
	pp, pn := optArg(pj)
	var r *C.ah_response
	var cerr *C.ah_error
	st := C.ah_event_respond(n.ptr(), dp, dn, pp, pn, &r, &cerr)
	runtime.KeepAlive(n)
	if st != C.AH_OK {
		return nil, errorOf(st, cerr)
	}
	return takeResponse(r), nil
}

// FailResponse is the fail policy's answer for this event when the hook
// failed with err (a Respond error, a handler error, panic or timeout):
// the agent's real blocking mechanism under FailClosed where the event can
// block, else "no opinion" with a diagnostic on stderr.
func (e *Event) FailResponse(err error, p Policy) (*Response, error) {
	n, herr := e.handle()
	if herr != nil {
		return nil, herr
	}
	ce, done, cerr0 := nativeErrorFor(err)
	if cerr0 != nil {
		return nil, cerr0
	}
	defer done()
	pj, perr := policyJSON(p)
	if perr != nil {
		return nil, perr
	}
	pp, pn := optArg(pj)
	var r *C.ah_response
	var cerr *C.ah_error
	st := C.ah_event_fail_response(n.ptr(), ce, pp, pn, &r, &cerr)
	runtime.KeepAlive(n)
	if st != C.AH_OK {
		return nil, errorOf(st, cerr)
	}
	return takeResponse(r), nil
}

// FailResponseForPayload is the agent's answer to a payload that could not
// be decoded (err from Decode), per the fail policy.
func FailResponseForPayload(provider string, payload []byte, err error, p Policy) (*Response, error) {
	ce, done, cerr0 := nativeErrorFor(err)
	if cerr0 != nil {
		return nil, cerr0
	}
	defer done()
	pj, perr := policyJSON(p)
	if perr != nil {
		return nil, perr
	}
	vp, vn := strArg(provider)
	bp, bn := bytesArg(payload)
	pp, pn := optArg(pj)
	var r *C.ah_response
	var cerr *C.ah_error
	if st := C.ah_fail_response_for_payload(vp, vn, bp, bn, ce, pp, pn, &r, &cerr); st != C.AH_OK {
		return nil, errorOf(st, cerr)
	}
	return takeResponse(r), nil
}

// takeResponse copies an owned ah_response into Go and frees it.
func takeResponse(r *C.ah_response) *Response {
	defer C.ah_response_free(r)
	out := &Response{
		Stdout:   goString(C.ah_response_stdout(r)),
		Stderr:   goString(C.ah_response_stderr(r)),
		ExitCode: int(C.ah_response_exit_code(r)),
	}
	if notes := view(C.ah_response_notes_json(r)); len(notes) > 2 {
		out.Notes, _ = notesFromJSON(notes)
	}
	return out
}

// MergeAll is the `all` rule over decisions: the most restrictive wins
// (deny > defer > ask > allow > neutral; continue > finish; replace > flag
// > observed; ties to the earliest), contexts from all.
func MergeAll(ds ...Decision) (Decision, error) {
	return mergeList(ds, true)
}

// MergeFirst is the stacking rule over decisions: the first conclusive
// one wins, carrying the contexts of the neutrals before it; all neutral
// merge.
func MergeFirst(ds ...Decision) (Decision, error) {
	return mergeList(ds, false)
}

func mergeList(ds []Decision, all bool) (Decision, error) {
	if ds == nil {
		ds = []Decision{}
	}
	j, err := json.Marshal(ds)
	if err != nil {
		return Decision{}, newError("invalid_decision", "%v", err)
	}
	p, n := bytesArg(j)
	var out *C.ah_buf
	var cerr *C.ah_error
	var st C.ah_status
	if all {
		st = C.ah_merge_all(p, n, &out, &cerr)
	} else {
		st = C.ah_merge_first(p, n, &out, &cerr)
	}
	if st != C.AH_OK {
		return Decision{}, errorOf(st, cerr)
	}
	return decisionFromJSON(takeBuf(out))
}

// NormalizeDecision parses decision JSON as every agenthooks language
// does (any kind spelling, context as a string or a list, stop_agent as a
// flag, string or object; unknown fields are an error) and returns it.
func NormalizeDecision(decisionJSON []byte) (Decision, error) {
	b, err := normalizeDecisionJSON(decisionJSON)
	if err != nil {
		return Decision{}, err
	}
	return decisionFromJSON(b)
}

// normalizeDecisionJSON is the core's normalized decision JSON.
func normalizeDecisionJSON(decisionJSON []byte) ([]byte, error) {
	p, n := bytesArg(decisionJSON)
	var out *C.ah_buf
	var cerr *C.ah_error
	if st := C.ah_decision_normalize(p, n, &out, &cerr); st != C.AH_OK {
		return nil, errorOf(st, cerr)
	}
	return takeBuf(out), nil
}

// Capability is what one native event of one agent can express.
type Capability struct {
	Provider   string         `json:"provider"`
	NativeName string         `json:"native_name"`
	Kind       Kind           `json:"kind"`
	CanBlock   bool           `json:"can_block"`
	Decisions  []DecisionKind `json:"decisions"`
	Modifiers  []string       `json:"modifiers"`
}

// Capabilities lists what a provider can express, per native event, in
// documentation order.
func Capabilities(provider string) ([]Capability, error) {
	p, n := strArg(provider)
	var out *C.ah_buf
	var cerr *C.ah_error
	if st := C.ah_capabilities_json(p, n, &out, &cerr); st != C.AH_OK {
		return nil, errorOf(st, cerr)
	}
	var caps []Capability
	if err := json.Unmarshal(takeBuf(out), &caps); err != nil {
		return nil, newError("invalid_json", "%v", err)
	}
	return caps, nil
}

// CapabilityOf is what a provider can express on one native event (an
// unknown name is kind other, taking only no_decision).
func CapabilityOf(provider, nativeName string) (Capability, error) {
	p, n := strArg(provider)
	q, m := strArg(nativeName)
	var out *C.ah_buf
	var cerr *C.ah_error
	if st := C.ah_capability_json(p, n, q, m, &out, &cerr); st != C.AH_OK {
		return Capability{}, errorOf(st, cerr)
	}
	var c Capability
	if err := json.Unmarshal(takeBuf(out), &c); err != nil {
		return Capability{}, newError("invalid_json", "%v", err)
	}
	return c, nil
}

// Detected is which agent called, how that was found, and the variant
// when known.
type Detected struct {
	Provider  string `json:"provider"`
	Detection string `json:"detection"`
	Variant   string `json:"variant,omitempty"`
}

// Detect names the calling agent: the --provider flag (flag, "" for none)
// wins; else the agents' hook environment variables (env; nil reads the
// process environment); else the payload's shape (or, when the payload is
// empty, the last argv element holding a JSON object).
func Detect(flag string, argv []string, env map[string]string, payload []byte) (Detected, error) {
	var envJSON []byte
	if env != nil {
		envJSON, _ = json.Marshal(env)
	}
	fp, fn := optStrArg(flag)
	ap, an, freeArgv := cArgv(argv)
	defer freeArgv()
	ep, en := optArg(envJSON)
	bp, bn := bytesArg(payload)
	var out *C.ah_buf
	var cerr *C.ah_error
	if st := C.ah_detect(fp, fn, ap, an, ep, en, bp, bn, &out, &cerr); st != C.AH_OK {
		return Detected{}, errorOf(st, cerr)
	}
	var d Detected
	if err := json.Unmarshal(takeBuf(out), &d); err != nil {
		return Detected{}, newError("invalid_json", "%v", err)
	}
	return d, nil
}

// ParseProvider resolves a provider id or alias ("claude", "gemini-cli",
// "COPILOT_CLI", ...) to its canonical id.
func ParseProvider(name string) (string, error) {
	p, n := strArg(name)
	var out C.ah_str
	var cerr *C.ah_error
	if st := C.ah_provider_parse(p, n, &out, &cerr); st != C.AH_OK {
		return "", errorOf(st, cerr)
	}
	return goString(out), nil
}

// Version is the version of the linked agenthooks library ("0.1.0").
func Version() string { return C.GoString(C.ah_version()) }

// Quirk is one documented agent quirk (a row of the quirk tables in the
// protocol docs): what the agent does and what a hook does about it.
type Quirk struct {
	ID         string `json:"id"`
	Provider   string `json:"provider"`
	Versions   string `json:"versions"`
	Event      string `json:"event"`
	Capability string `json:"capability"`
	Behaviour  string `json:"behaviour"`
	Mitigation string `json:"mitigation"`
	Source     string `json:"source"`
	Fixture    struct {
		Kind   string `json:"kind"`
		Reason string `json:"reason,omitempty"`
	} `json:"fixture"`
}

// Quirks lists the registry of agent quirks; provider ("" for all) narrows
// it to one agent.
func Quirks(provider string) ([]Quirk, error) {
	p, n := optStrArg(provider)
	var out *C.ah_buf
	var cerr *C.ah_error
	if st := C.ah_quirks_json(p, n, &out, &cerr); st != C.AH_OK {
		return nil, errorOf(st, cerr)
	}
	var qs []Quirk
	if err := json.Unmarshal(takeBuf(out), &qs); err != nil {
		return nil, newError("invalid_json", "%v", err)
	}
	return qs, nil
}
