package agenthooks

/*
#include "agenthooks.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
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
// It is a thin driver over the core's dispatch table (ah_router /
// ah_dispatch, rules in core/src/dispatch.rs): registration goes into the
// core's table, and Decide calls what the core asks for and hands each
// outcome back.
type Router struct {
	policy Policy
	table  *routerTable
	// The callables, by the core's entry id: Handler, Middleware or an
	// observer func.
	fns []any
	// Observers or middleware registered (they run on every event).
	wraps bool
	// observes: an observer is registered (prompt backfill is delivered
	// only then).
	observes bool
}

// routerTable owns the core's table (freed with the Router).
type routerTable struct{ p *C.ah_router }

func (t *routerTable) free() { C.ah_router_free(t.p) }

// Option configures NewRouter.
type Option func(*Router)

// WithPolicy sets the router's policy.
func WithPolicy(p Policy) Option { return func(r *Router) { r.policy = p } }

// NewRouter makes an empty router (default policy unless WithPolicy).
func NewRouter(opts ...Option) *Router {
	r := &Router{}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Policy is the router's policy.
func (r *Router) Policy() Policy { return r.policy }

// On registers a handler for a kind; registrations stack in order.
func (r *Router) On(kind Kind, h Handler) *Router {
	return r.register(0, "kind:"+string(kind), h)
}

// register adds an entry to the core's table (role 0 handler, 1 observer,
// 2 middleware). A spec the core rejects (an unknown kind spelling) is a
// programming error: it panics at registration, like a nil map write.
func (r *Router) register(role uint32, on string, fn any) *Router {
	if r.table == nil {
		r.table = &routerTable{p: C.ah_router_new()}
		runtime.SetFinalizer(r.table, (*routerTable).free)
	}
	p, n := strArg(on)
	var id C.uint32_t
	var cerr *C.ah_error
	if st := C.ah_router_add(r.table.p, C.uint32_t(role), p, n, nil, 0, &id, &cerr); st != C.AH_OK {
		panic(errorOf(st, cerr))
	}
	r.fns = append(r.fns, fn)
	r.wraps = r.wraps || role != 0
	r.observes = r.observes || role == 1
	return r
}

// OnNative registers a handler for a native event name (for events the
// unified kinds do not cover; it may gate them through Decision.Native).
// Native handlers run before the kind's handlers.
func (r *Router) OnNative(name string, h Handler) *Router {
	return r.register(0, "native:"+name, h)
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
// run first and never gate (a panicking observer is reported on stderr as
// a warning; the hook's answer is unaffected).
func (r *Router) OnAny(f func(ctx context.Context, e *Event)) *Router {
	return r.register(1, "*", f)
}

// Use adds middleware around the typed pipeline (outermost first).
func (r *Router) Use(m Middleware) *Router {
	return r.register(2, "*", m)
}

// Handles reports whether any handler is registered for the event.
func (r *Router) Handles(e *Event) bool {
	if r.table == nil {
		return false
	}
	kp, kn := strArg(string(e.Kind))
	np, nn := strArg(e.NativeName)
	ok := bool(C.ah_router_handles(r.table.p, kp, kn, np, nn))
	runtime.KeepAlive(r.table)
	return ok
}

// runsUserCode reports whether deciding e runs any user code (a handler,
// an observer or middleware); when not, the decision is "no opinion" and
// needs no goroutine or deadline.
func (r *Router) runsUserCode(e *Event) bool {
	return r.wraps || r.Handles(e)
}

// Decide runs the pipeline (observers, middleware, native then kind
// handlers with the stacking rule) and returns the winning decision, with
// no wire encoding: for servers and tests.
func (r *Router) Decide(ctx context.Context, e *Event) (Decision, error) {
	if r.table == nil {
		return NoDecision(), nil
	}
	var d *C.ah_dispatch
	var cerr *C.ah_error
	var st C.ah_status
	if e.Backfilled {
		// A backfilled event runs the observers only (dispatch rule 5).
		st = C.ah_dispatch_new_observers(r.table.p, &d, &cerr)
	} else {
		k := keyOf(e)
		st = C.ah_dispatch_new(r.table.p, k.kp, k.kn, k.np, k.nn, k.tp, k.tn, k.cp, k.cn, &d, &cerr)
	}
	if st != C.AH_OK {
		return Decision{}, errorOf(st, cerr)
	}
	defer C.ah_dispatch_free(d)
	defer runtime.KeepAlive(r.table)
	var own error
	return r.drive(ctx, d, e, &own)
}

// eventKey is an event's key for the core's table, as C arguments.
type eventKey struct {
	kp, np, tp, cp *C.uint8_t
	kn, nn, tn, cn C.size_t
}

func keyOf(e *Event) eventKey {
	var k eventKey
	k.kp, k.kn = strArg(string(e.Kind))
	k.np, k.nn = strArg(e.NativeName)
	if e.Tool != nil {
		k.tp, k.tn = strArg(e.Tool.Name)
		k.cp, k.cn = strArg(string(e.Tool.Canonical))
	}
	return k
}

// drive calls what the core's dispatch asks for until its level answers.
// own is the last error a callable returned: the answer is that error
// itself when it is what failed the dispatch.
func (r *Router) drive(ctx context.Context, d *C.ah_dispatch, e *Event, own *error) (Decision, error) {
	for {
		var id, level C.uint32_t
		switch C.ah_dispatch_step(d, &id, &level) {
		case 3: // handler
			dec, err := r.fns[id].(Handler)(ctx, e)
			give(d, dec, err, own)
		case 4: // return
			var out *C.ah_buf
			var cerr *C.ah_error
			if st := C.ah_dispatch_result(d, &out, &cerr); st != C.AH_OK {
				err := errorOf(st, cerr)
				if ce, ok := err.(*Error); ok && *own != nil && strings.HasSuffix(ce.Message, (*own).Error()) {
					return Decision{}, *own
				}
				return Decision{}, err
			}
			return decisionFromJSON(takeBuf(out))
		case 0: // observer
			if msg, failed := observe(ctx, r.fns[id].(func(context.Context, *Event)), e); failed {
				m, n := strArg(msg)
				C.ah_dispatch_give_error(d, nil, 0, m, n, nil)
			} else {
				C.ah_dispatch_give(d, nil, 0, nil)
			}
		case 2: // guard: Go's When is a combinator, so the table holds none
			C.ah_dispatch_guard(d, C.bool(true))
		default: // middleware
			lv := level
			next := func(ctx context.Context, ev *Event) (Decision, error) {
				k := keyOf(ev)
				var cerr *C.ah_error
				st := C.ah_dispatch_enter(d, r.table.p, lv, k.kp, k.kn, k.np, k.nn, k.tp, k.tn, k.cp, k.cn, &cerr)
				if st != C.AH_OK {
					return Decision{}, errorOf(st, cerr)
				}
				return r.drive(ctx, d, ev, own)
			}
			dec, err := r.fns[id].(Middleware)(ctx, e, next)
			give(d, dec, err, own)
		}
	}
}

// observe runs an observer; a panic is its failure (reported by the core).
func observe(ctx context.Context, f func(context.Context, *Event), e *Event) (msg string, failed bool) {
	defer func() {
		if p := recover(); p != nil {
			msg, failed = fmt.Sprint(p), true
		}
	}()
	f(ctx, e)
	return "", false
}

// give hands a callable's outcome to the dispatch.
func give(d *C.ah_dispatch, dec Decision, err error, own *error) {
	if err != nil {
		*own = err
		code := "handler_error"
		if ce, ok := err.(*Error); ok {
			code = ce.Code
		}
		cp, cn := strArg(code)
		m, n := strArg(err.Error())
		C.ah_dispatch_give_error(d, cp, cn, m, n, nil)
		return
	}
	j, jerr := json.Marshal(dec)
	if jerr != nil {
		m, n := strArg(jerr.Error())
		C.ah_dispatch_give_error(d, nil, 0, m, n, nil)
		return
	}
	p, n := bytesArg(j)
	C.ah_dispatch_give(d, p, n, nil)
}
