package agenthooks

/*
#include "agenthooks.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
)

// Handler decides on one event. Return Decision{} (or NoDecision()) for
// "no opinion"; an error goes through the fail policy.
type Handler func(ctx context.Context, e *Event) (Decision, error)

// Middleware wraps the typed pipeline (registered outermost first); call
// next at most once.
type Middleware func(ctx context.Context, e *Event, next Handler) (Decision, error)

// Matcher tests a tool call, for When.
type Matcher func(t *ToolCall) bool

// MatchCanonical matches tool calls of a canonical class.
func MatchCanonical(c Canonical) Matcher {
	return func(t *ToolCall) bool { return t.Canonical == c }
}

// MatchNames matches exact native tool names, "|"-separated ("Write|Edit").
func MatchNames(spec string) Matcher {
	var names []string
	for _, n := range strings.Split(spec, "|") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return func(t *ToolCall) bool {
		for _, n := range names {
			if n == t.Name {
				return true
			}
		}
		return false
	}
}

// When runs h only for tool calls m matches (events without a tool call
// never match); otherwise the answer is no_decision.
func When(m Matcher, h Handler) Handler {
	return func(ctx context.Context, e *Event) (Decision, error) {
		if e.Tool == nil || !m(e.Tool) {
			return NoDecision(), nil
		}
		return h(ctx, e)
	}
}

// Any is the stacking rule over several handlers: they run in order, a
// neutral decision falls through, the first conclusive one wins (the
// core's fold decides, through the C ABI).
func Any(hs ...Handler) Handler {
	return func(ctx context.Context, e *Event) (Decision, error) {
		return foldHandlers(ctx, e, hs)
	}
}

// All runs every handler and keeps the most restrictive decision
// (deny > defer > ask > allow > neutral; continue > finish; replace > flag
// > observed; ties to the earliest), contexts from all.
func All(hs ...Handler) Handler {
	return func(ctx context.Context, e *Event) (Decision, error) {
		ds := make([]Decision, 0, len(hs))
		for _, h := range hs {
			d, err := h(ctx, e)
			if err != nil {
				return Decision{}, err
			}
			ds = append(ds, d)
		}
		return MergeAll(ds...)
	}
}

// foldHandlers pushes each handler's decision into the core's fold and
// stops at the first conclusive one.
func foldHandlers(ctx context.Context, e *Event, hs []Handler) (Decision, error) {
	f := C.ah_fold_new()
	defer C.ah_fold_free(f)
	for _, h := range hs {
		d, err := h(ctx, e)
		if err != nil {
			return Decision{}, err
		}
		j, err := json.Marshal(d)
		if err != nil {
			return Decision{}, newError("invalid_decision", "%v", err)
		}
		p, n := bytesArg(j)
		var done C.bool
		var cerr *C.ah_error
		if st := C.ah_fold_push(f, p, n, &done, &cerr); st != C.AH_OK {
			return Decision{}, errorOf(st, cerr)
		}
		if done {
			break
		}
	}
	var out *C.ah_buf
	var cerr *C.ah_error
	if st := C.ah_fold_finish(f, &out, &cerr); st != C.AH_OK {
		return Decision{}, errorOf(st, cerr)
	}
	return decisionFromJSON(takeBuf(out))
}

// ToolPreEvent is a tool.pre event: a tool is about to run. Tool is never nil.
type ToolPreEvent struct {
	*Event
	Tool *ToolCall
}

// ToolPostEvent is a tool.post event: a tool ran. Tool is never nil.
type ToolPostEvent struct {
	*Event
	Tool *ToolCall
}

// ToolErrorEvent is a tool.error event: a tool failed. Tool is never nil.
type ToolErrorEvent struct {
	*Event
	Tool *ToolCall
}

// PermissionRequestEvent is a permission.request event: the agent is
// about to ask the user. Tool is never nil.
type PermissionRequestEvent struct {
	*Event
	Tool *ToolCall
}

// PromptEvent is a prompt.submitted event.
type PromptEvent struct {
	*Event
	Prompt string
}

// StopEvent is an agent.stop or subagent.stop event. Stop is never nil.
type StopEvent struct {
	*Event
	Stop *StopInfo
}

func toolOf(e *Event) *ToolCall {
	if e.Tool != nil {
		return e.Tool
	}
	return &ToolCall{}
}

func stopOf(e *Event) *StopInfo {
	if e.Stop != nil {
		return e.Stop
	}
	return &StopInfo{}
}

// Router holds handlers, observers, middleware and the policy. Register
// everything before Main/Decide; a Router is then safe for concurrent use.
type Router struct {
	policy     Policy
	byKind     map[Kind][]Handler
	byNative   map[string][]Handler
	observers  []func(ctx context.Context, e *Event)
	middleware []Middleware
}

// Option configures NewRouter.
type Option func(*Router)

// WithPolicy sets the router's policy.
func WithPolicy(p Policy) Option { return func(r *Router) { r.policy = p } }

// NewRouter makes an empty router (default policy unless WithPolicy).
func NewRouter(opts ...Option) *Router {
	r := &Router{byKind: map[Kind][]Handler{}, byNative: map[string][]Handler{}}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Policy is the router's policy.
func (r *Router) Policy() Policy { return r.policy }

// On registers a handler for a kind; registrations stack in order.
func (r *Router) On(kind Kind, h Handler) *Router {
	r.byKind[kind] = append(r.byKind[kind], h)
	return r
}

// OnNative registers a handler for a native event name (for events the
// unified kinds do not cover; it may gate them through Decision.Native).
// Native handlers run before the kind's handlers.
func (r *Router) OnNative(name string, h Handler) *Router {
	r.byNative[name] = append(r.byNative[name], h)
	return r
}

// OnToolPre registers a tool.pre handler.
func (r *Router) OnToolPre(f func(ctx context.Context, e *ToolPreEvent) (Decision, error)) *Router {
	return r.On(KindToolPre, func(ctx context.Context, e *Event) (Decision, error) {
		return f(ctx, &ToolPreEvent{Event: e, Tool: toolOf(e)})
	})
}

// OnToolPost registers a tool.post handler.
func (r *Router) OnToolPost(f func(ctx context.Context, e *ToolPostEvent) (Decision, error)) *Router {
	return r.On(KindToolPost, func(ctx context.Context, e *Event) (Decision, error) {
		return f(ctx, &ToolPostEvent{Event: e, Tool: toolOf(e)})
	})
}

// OnToolError registers a tool.error handler.
func (r *Router) OnToolError(f func(ctx context.Context, e *ToolErrorEvent) (Decision, error)) *Router {
	return r.On(KindToolError, func(ctx context.Context, e *Event) (Decision, error) {
		return f(ctx, &ToolErrorEvent{Event: e, Tool: toolOf(e)})
	})
}

// OnPermissionRequest registers a permission.request handler.
func (r *Router) OnPermissionRequest(f func(ctx context.Context, e *PermissionRequestEvent) (Decision, error)) *Router {
	return r.On(KindPermissionRequest, func(ctx context.Context, e *Event) (Decision, error) {
		return f(ctx, &PermissionRequestEvent{Event: e, Tool: toolOf(e)})
	})
}

// OnPrompt registers a prompt.submitted handler.
func (r *Router) OnPrompt(f func(ctx context.Context, e *PromptEvent) (Decision, error)) *Router {
	return r.On(KindPromptSubmitted, func(ctx context.Context, e *Event) (Decision, error) {
		return f(ctx, &PromptEvent{Event: e, Prompt: e.Prompt})
	})
}

// OnStop registers an agent.stop handler.
func (r *Router) OnStop(f func(ctx context.Context, e *StopEvent) (Decision, error)) *Router {
	return r.On(KindAgentStop, func(ctx context.Context, e *Event) (Decision, error) {
		return f(ctx, &StopEvent{Event: e, Stop: stopOf(e)})
	})
}

// OnSubagentStop registers a subagent.stop handler.
func (r *Router) OnSubagentStop(f func(ctx context.Context, e *StopEvent) (Decision, error)) *Router {
	return r.On(KindSubagentStop, func(ctx context.Context, e *Event) (Decision, error) {
		return f(ctx, &StopEvent{Event: e, Stop: stopOf(e)})
	})
}

// OnSessionStart registers a session.start handler.
func (r *Router) OnSessionStart(h Handler) *Router { return r.On(KindSessionStart, h) }

// OnAny registers an observer of every event (mapped or not); observers
// run first and never gate.
func (r *Router) OnAny(f func(ctx context.Context, e *Event)) *Router {
	r.observers = append(r.observers, f)
	return r
}

// Use adds middleware around the typed pipeline (outermost first).
func (r *Router) Use(m Middleware) *Router {
	r.middleware = append(r.middleware, m)
	return r
}

// Handles reports whether any handler is registered for the event.
func (r *Router) Handles(e *Event) bool {
	return len(r.byKind[e.Kind]) > 0 || len(r.byNative[e.NativeName]) > 0
}

// runsUserCode reports whether deciding e runs any user code (a handler,
// an observer or middleware); when not, the decision is "no opinion" and
// needs no goroutine or deadline.
func (r *Router) runsUserCode(e *Event) bool {
	return len(r.observers) > 0 || len(r.middleware) > 0 || r.Handles(e)
}

// Decide runs the pipeline (observers, middleware, native then kind
// handlers with the stacking rule) and returns the winning decision, with
// no wire encoding: for servers and tests.
func (r *Router) Decide(ctx context.Context, e *Event) (Decision, error) {
	for _, o := range r.observers {
		o(ctx, e)
	}
	return r.runMiddleware(ctx, 0, e)
}

func (r *Router) runMiddleware(ctx context.Context, i int, e *Event) (Decision, error) {
	if i == len(r.middleware) {
		return r.dispatch(ctx, e)
	}
	var called atomic.Bool
	next := func(ctx context.Context, ev *Event) (Decision, error) {
		if called.Swap(true) {
			return Decision{}, newError("handler_error", "middleware called next more than once")
		}
		return r.runMiddleware(ctx, i+1, ev)
	}
	return r.middleware[i](ctx, e, next)
}

func (r *Router) dispatch(ctx context.Context, e *Event) (Decision, error) {
	hs := append(append([]Handler(nil), r.byNative[e.NativeName]...), r.byKind[e.Kind]...)
	if len(hs) == 0 {
		return NoDecision(), nil
	}
	return foldHandlers(ctx, e, hs)
}
