package agenthooks

/*
#include "agenthooks.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
)

// Main is the whole author-side run of a hook program: it parses argv
// (`<program> agenthooks run --provider=<id> ...`), reads the payload from
// stdin (or argv, in the legacy argv-payload modes), names the agent
// (--provider, else environment, else payload shape), runs the router
// within the deadline, writes the agent's answer and exits with its code.
// It never returns. Every step but running the handlers is the core's,
// through the C ABI, so the answer is byte for byte the Rust runtime's.
//
// Handler errors, panics and timeouts go through the policy's fail
// posture; stray prints to stdout are moved to stderr so they cannot
// corrupt the answer.
func Main(r *Router) {
	os.Exit(mainProcess(r, os.Args))
}

func mainProcess(r *Router, argv []string) int {
	var g *C.ah_stdout_guard
	var w io.Writer = os.Stdout
	if C.ah_stdout_divert(&g, nil) == C.AH_OK {
		defer C.ah_stdout_guard_free(g)
		w = guardWriter{g}
	}
	// How to run this program again, for an async hook's detached child.
	again := append([]string(nil), argv...)
	if exe, err := os.Executable(); err == nil && len(again) > 0 {
		again[0] = exe
	}
	return runWith(context.Background(), r, argv, os.Stdin, w, os.Stderr, runOptions{again: again})
}

// guardWriter writes to the real stdout kept aside by ah_stdout_divert.
type guardWriter struct{ g *C.ah_stdout_guard }

func (w guardWriter) Write(b []byte) (int, error) {
	p, n := bytesArg(b)
	var cerr *C.ah_error
	if st := C.ah_stdout_guard_write(w.g, p, n, &cerr); st != C.AH_OK {
		return 0, errorOf(st, cerr)
	}
	return len(b), nil
}

// Run is Main without the process: argv, stdin, stdout and stderr are
// given, and the exit code is returned (for tests and embedding). It does
// not move stray prints off stdout. ctx bounds the handlers together with
// the deadline.
//
// The argv rules are the core's (runtime::launch and runtime::start, the
// same in every language): an unknown option is a warning on stderr; a
// value that cannot be used or an unknown provider is answered per the
// fail policy; stdin is read first, and a JSON object as the last argument
// is the payload only when stdin is empty.
func Run(ctx context.Context, r *Router, argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(ctx, r, argv, stdin, stdout, stderr, "")
}

// run is Run with the state root of the call (Cursor dedupe markers, the
// stop-continuation counter) set to stateDir; "" is the user's. The test
// kit gives each call a fresh one (internal/kit).
func run(ctx context.Context, r *Router, argv []string, stdin io.Reader, stdout, stderr io.Writer, stateDir string) int {
	return runWith(ctx, r, argv, stdin, stdout, stderr, runOptions{stateDir: stateDir})
}

// runOptions are what a call may set beyond argv: the state root ("" is
// the user's), the ancestors' argv lists that prompt backfill reads
// instead of /proc (tests, vectors), and how to run this program again
// for an async hook's detached child (Main only; without it an --async
// run answers "no opinion" and runs the handlers before returning).
type runOptions struct {
	stateDir string
	ancestry [][]string
	again    []string
}

func runWith(ctx context.Context, r *Router, argv []string, stdin io.Reader, stdout, stderr io.Writer, o runOptions) int {
	stateDir := o.stateDir
	args, ans, err := startRun(argv)
	if err != nil {
		// Only invalid UTF-8 in argv gets here: no config can be read.
		code, msg := codeAndMessage(err)
		fmt.Fprintf(stderr, "agenthooks: %s: %s\n", code, msg)
		return 0
	}
	if ans != nil {
		return write(takeResponse(ans), stdout, stderr)
	}
	defer C.ah_run_args_free(args)
	if stateDir != "" {
		p, n := strArg(stateDir)
		var cerr *C.ah_error
		if st := C.ah_run_args_set_state_dir(args, p, n, &cerr); st != C.AH_OK {
			code, msg := codeAndMessage(errorOf(st, cerr))
			fmt.Fprintf(stderr, "agenthooks: %s: %s\n", code, msg)
			return 0
		}
	}
	if o.ancestry != nil {
		j, _ := json.Marshal(o.ancestry)
		p, n := bytesArg(j)
		var cerr *C.ah_error
		if st := C.ah_run_args_set_ancestry(args, p, n, &cerr); st != C.AH_OK {
			code, msg := codeAndMessage(errorOf(st, cerr))
			fmt.Fprintf(stderr, "agenthooks: %s: %s\n", code, msg)
			return 0
		}
	}
	if !C.ah_run_args_reads_stdin(args) {
		io.WriteString(stderr, goString(C.ah_run_args_warnings(args)))
		return serve(ctx, r, args, stdin, stdout, stderr)
	}

	resp, err := answer(ctx, r, args, stdinPayload(stdin, args), o.again)
	if err != nil {
		code, msg := codeAndMessage(err)
		fmt.Fprintf(stderr, "agenthooks: %s: %s\n", code, msg)
		return 0
	}
	return write(resp, stdout, stderr)
}

// startRun is the core's launch: the arguments of one call, or the whole
// answer (usage, or `serve` with a value it cannot use).
func startRun(argv []string) (*C.ah_run_args, *C.ah_response, error) {
	ap, an, free := cArgv(argv)
	defer free()
	var args *C.ah_run_args
	var ans *C.ah_response
	var cerr *C.ah_error
	if st := C.ah_run_start(ap, an, &args, &ans, &cerr); st != C.AH_OK {
		return nil, nil, errorOf(st, cerr)
	}
	return args, ans, nil
}

// answer is one hook call, exactly as `agenthooks run` answers it:
// prepare (decode, limits, loop guard), the router within the deadline,
// complete. An error only for a config the core rejects (a bad policy).
func answer(ctx context.Context, r *Router, args *C.ah_run_args, in payloadSource, again []string) (*Response, error) {
	pj, err := policyJSON(r.policy)
	if err != nil {
		return nil, newError("invalid_argument", "policy: %v", err)
	}
	pp, pn := optArg(pj)
	var inv *C.ah_invocation
	var ans *C.ah_response
	var cerr *C.ah_error
	if st := in.prepare(args, pp, pn, &inv, &ans, &cerr); st != C.AH_OK {
		return nil, errorOf(st, cerr)
	}
	if ans != nil {
		return takeResponse(ans), nil
	}
	defer C.ah_invocation_free(inv)

	// The head (the canonical JSON without output and raw) decoded; the
	// raw payload and the output are read when a handler asks.
	ev, err := eventFromNative(C.ah_invocation_event(inv), nil)
	if err != nil {
		return completeError(inv, err), nil
	}
	defer ev.releaseOutput() // before the invocation is freed
	deadline := time.Duration(C.ah_invocation_deadline_ms(inv)) * time.Millisecond

	// Prompt backfill only when an observer can see it (no cost otherwise):
	// observers only, its outcome dropped (docs/async.md).
	var before *Event
	if r.observes {
		var bev *C.ah_event
		if C.ah_invocation_backfill(inv, &bev, nil) == C.AH_OK && bev != nil {
			defer C.ah_event_free(bev)
			if b, err := eventFromNative(bev, nil); err == nil {
				defer b.releaseOutput() // before the event is freed
				before = b
			}
		}
	}
	if C.ah_invocation_detaching(inv) {
		if again != nil {
			ap, an, free := cArgv(again)
			var out *C.ah_response
			st := C.ah_invocation_detach(inv, ap, an, &out, nil)
			free()
			if st == C.AH_OK && out != nil {
				return takeResponse(out), nil
			}
		} else {
			// In-process (tests, embedding): the agent's answer is the no
			// opinion at once; the work runs here, its outcome dropped.
			resp := completeDecision(inv, NoDecision())
			if before != nil {
				decideWithin(ctx, r, before, deadline, nil)
			}
			decideWithin(ctx, r, ev, deadline, nil)
			return resp, nil
		}
	}
	if before != nil {
		decideWithin(ctx, r, before, deadline, nil)
	}
	return decide(ctx, r, ev, inv, deadline), nil
}

type outcome struct {
	d        Decision
	err      error
	panicked any
	stack    []byte
}

// decide runs the router within the deadline (decideWithin) and completes
// the invocation with its outcome.
func decide(ctx context.Context, r *Router, ev *Event, inv *C.ah_invocation, deadline time.Duration) *Response {
	if !r.runsUserCode(ev) {
		// Nothing of the author's runs for this event: no goroutine, no timer.
		return completeDecision(inv, NoDecision())
	}
	o, _, err := decideWithin(ctx, r, ev, deadline, nil)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return completeStatus(inv, C.AH_ERR_HANDLER_TIMEOUT, "")
	case err != nil:
		return completeStatus(inv, C.AH_ERR_HANDLER_ERROR, err.Error())
	}
	return completeOutcome(inv, o)
}

// decideWithin runs the router on its own goroutine within deadline (and
// ctx), a panic recovered into the outcome: the one deadline rule of Main
// and the serve loop. When ctx ends first, err is its error
// (context.DeadlineExceeded at the deadline) and, if the goroutine still
// runs (abandoned), onLate (if set) runs when it returns.
func decideWithin(ctx context.Context, r *Router, ev *Event, deadline time.Duration, onLate func()) (o outcome, abandoned bool, err error) {
	const running, done, gaveUp = 0, 1, 2
	var state atomic.Int32
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	ch := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				buf := make([]byte, 4096)
				ch <- outcome{panicked: p, stack: buf[:runtime.Stack(buf, false)]}
			}
			if state.Swap(done) == gaveUp && onLate != nil {
				onLate()
			}
		}()
		d, err := r.Decide(ctx, ev)
		ch <- outcome{d: d, err: err}
	}()
	select {
	case o := <-ch:
		return o, false, nil
	case <-ctx.Done():
		err := ctx.Err()
		if state.CompareAndSwap(running, gaveUp) {
			return outcome{}, true, err
		}
		// It finished just now: not abandoned.
		return <-ch, false, err
	}
}

// completeOutcome completes with the router's outcome.
func completeOutcome(inv *C.ah_invocation, o outcome) *Response {
	switch {
	case o.panicked != nil:
		return completeStatus(inv, C.AH_ERR_PANIC, fmt.Sprint(o.panicked))
	case o.err != nil:
		return completeError(inv, o.err)
	}
	return completeDecision(inv, o.d)
}

// completeDecision completes with the handlers' decision.
func completeDecision(inv *C.ah_invocation, d Decision) *Response {
	j, err := json.Marshal(d)
	if err != nil {
		return completeStatus(inv, C.AH_ERR_INVALID_DECISION, err.Error())
	}
	p, n := bytesArg(j)
	var out *C.ah_response
	if st := C.ah_invocation_complete(inv, p, n, &out, nil); st != C.AH_OK {
		return &Response{Stderr: "agenthooks: " + statusID(st) + "\n"}
	}
	return takeResponse(out)
}

// completeError completes with a handler's error: an *Error keeps its
// code, anything else is a handler_error.
func completeError(inv *C.ah_invocation, err error) *Response {
	st, msg := errorStatus(err)
	return completeStatus(inv, st, msg)
}

// errorStatus is the status and message a handler's error completes with:
// an *Error keeps its code, anything else is a handler_error.
func errorStatus(err error) (C.uint32_t, string) {
	code, msg := codeAndMessage(err)
	st := statusOfCode(code)
	if st == 0 || st < 100 && st != C.AH_ERR_INVALID_UTF8 && st != C.AH_ERR_PANIC {
		st, msg = C.AH_ERR_HANDLER_ERROR, err.Error()
	}
	return C.uint32_t(st), msg
}

func completeStatus(inv *C.ah_invocation, st C.uint32_t, msg string) *Response {
	p, n := optStrArg(msg)
	var out *C.ah_response
	var cerr *C.ah_error
	if s := C.ah_invocation_complete_error(inv, st, p, n, &out, &cerr); s != C.AH_OK {
		e := errorOf(s, cerr).(*Error)
		return &Response{Stderr: fmt.Sprintf("agenthooks: %s: %s\n", e.Code, e.Message)}
	}
	return takeResponse(out)
}

// write sends the answer: stderr first, then stdout; returns the exit code.
func write(r *Response, stdout, stderr io.Writer) int {
	if r.Stderr != "" {
		io.WriteString(stderr, r.Stderr)
	}
	if _, err := io.WriteString(stdout, r.Stdout); err != nil {
		return 1
	}
	return r.ExitCode
}

// parseRunArgs parses argv through the core; nil when the word
// `agenthooks` is absent.
func parseRunArgs(argv []string) (*C.ah_run_args, error) {
	ap, an, free := cArgv(argv)
	defer free()
	var out *C.ah_run_args
	var cerr *C.ah_error
	if st := C.ah_run_args_parse(ap, an, &out, &cerr); st != C.AH_OK {
		return nil, errorOf(st, cerr)
	}
	return out, nil
}

// payloadSource is where a hook call's payload comes from: a file
// descriptor the core reads itself (ah_invocation_prepare_fd: the bytes go
// into the event without a copy through Go), or bytes read here from any
// other reader (keeping at most limit+1, as the core does: prepare answers
// more than the limit as too_large, still reading the event name).
type payloadSource struct {
	file    *os.File
	payload []byte // read here (not a file)
	readErr error
}

func stdinPayload(stdin io.Reader, args *C.ah_run_args) payloadSource {
	if f, ok := stdin.(*os.File); ok {
		return payloadSource{file: f}
	}
	b, err := io.ReadAll(io.LimitReader(stdin, readCap(C.ah_run_args_max_bytes(args))))
	return payloadSource{payload: b, readErr: err}
}

// prepare is ah_invocation_prepare(_fd) for the source; a read failure is
// the core's to answer per the fail policy.
func (s payloadSource) prepare(args *C.ah_run_args, pp *C.uint8_t, pn C.size_t, inv **C.ah_invocation, ans **C.ah_response, cerr **C.ah_error) C.ah_status {
	if s.file != nil {
		st := C.ah_invocation_prepare_fd(args, pp, pn, C.int32_t(s.file.Fd()), inv, ans, cerr)
		runtime.KeepAlive(s.file)
		return st
	}
	var readErr *C.ah_error
	if s.readErr != nil {
		readErr = newCError(C.AH_ERR_IO, "reading stdin: "+s.readErr.Error())
		defer C.ah_error_free(readErr)
	}
	bp, bn := bytesArg(s.payload)
	return C.ah_invocation_prepare(args, pp, pn, bp, bn, readErr, inv, ans, cerr)
}

// readCap is limit+1 as an int64, saturating (--max-bytes may be up to
// the largest size_t).
func readCap(limit C.size_t) int64 {
	if uint64(limit) >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(limit) + 1
}

// intLimit is a size limit as an int, saturating.
func intLimit(limit C.size_t) int {
	if uint64(limit) >= uint64(math.MaxInt) {
		return math.MaxInt - 1
	}
	return int(limit)
}

func newCError(st C.uint32_t, msg string) *C.ah_error {
	p, n := optStrArg(msg)
	var out *C.ah_error
	C.ah_error_new(st, p, n, &out, nil)
	return out
}

// RunArgs are the parsed `agenthooks run` arguments of a hook program.
type RunArgs struct {
	Command  string   `json:"command"`
	Provider string   `json:"provider"`
	Event    string   `json:"event"`
	Variant  string   `json:"variant"`
	TimeoutS *float64 `json:"timeout_s"`
	Fail     Fail     `json:"fail"`
	HookID   string   `json:"hook_id"`
	Match    string   `json:"match"`
	MaxBytes *uint64  `json:"max_bytes"`
	// ArgvPayload: the last argument is a JSON object, the payload of the
	// legacy argv modes (used only when stdin is empty).
	ArgvPayload bool `json:"argv_payload"`
	// Warnings: what Main would warn about on stderr (unknown options,
	// ignored arguments), one line each.
	Warnings string `json:"warnings"`
	Problem  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"problem"`
}

// ParseArgs validates a hook program's argv strictly: nil (and no error)
// when the word `agenthooks` is absent; an invalid_argument error for an
// unknown option, a stray argument or a bad value, unknown_provider for an
// unknown provider. (Main is lenient where it can be: it only warns about
// unknown options, and answers a bad value per the fail policy.)
func ParseArgs(argv []string) (*RunArgs, error) {
	a, err := parseRunArgs(argv)
	if err != nil || a == nil {
		return nil, err
	}
	defer C.ah_run_args_free(a)
	var out RunArgs
	if err := json.Unmarshal(view(C.ah_run_args_json(a)), &out); err != nil {
		return nil, newError("invalid_json", "%v", err)
	}
	if out.Problem != nil {
		return nil, newError(out.Problem.Code, "%s", out.Problem.Message)
	}
	if out.Warnings != "" {
		line := strings.SplitN(out.Warnings, "\n", 2)[0]
		return nil, newError("invalid_argument", "%s", strings.TrimPrefix(line, "agenthooks: warning: "))
	}
	return &out, nil
}
