package agenthooks

/*
#include "agenthooks.h"
*/
import "C"

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// serve is `<program> agenthooks serve --provider=opencode|openclaw`: the
// author side of the OpenCode / OpenClaw plugin bridges, NDJSON over stdio
// (protocol: core/src/serve.rs):
//
//	plugin  -> program  {"hello": {"provider", "versions", "context"}}
//	program -> plugin   {"hello": {"provider", "version", "policy", "deadline_ms"}}
//	plugin  -> program  {"seq": n, "hook": ..., ...}   one hook call
//	program -> plugin   {"seq": n, "output": {...} | null, "notes"?, "error"?}
//
// Every rule of the loop is the core's serve bridge (ah_bridge_*): which
// line is a request, every reply frame, per-session order with sessions in
// parallel, the queue bound and backpressure, stale requests and the cap
// on abandoned handlers. This is a driver over it, as the Rust, Python and
// Node loops are: it reads lines while the bridge wants input (a line over
// --max-bytes is skipped without being kept), runs each job's handlers on
// a goroutine within the job's deadline, and writes the frames. At end of
// input it waits for the pending requests, then returns 0.
func serve(ctx context.Context, r *Router, args *C.ah_run_args, stdin io.Reader, stdout, stderr io.Writer) int {
	pj, err := policyJSON(r.policy)
	if err != nil {
		fmt.Fprintf(stderr, "agenthooks: invalid_argument: policy: %v\n", err)
		return 2
	}
	pp, pn := optArg(pj)
	var b *C.ah_bridge
	var cerr *C.ah_error
	if st := C.ah_bridge_new(args, pp, pn, &b, &cerr); st != C.AH_OK {
		code, msg := codeAndMessage(errorOf(st, cerr))
		fmt.Fprintf(stderr, "agenthooks: %s: %s\n", code, msg)
		return 2
	}
	s := &server{ctx: ctx, r: r, b: b, stdout: stdout, stderr: stderr}
	s.refs.Store(1)
	s.cond = sync.NewCond(&s.mu)
	defer s.release()
	max, head := intLimit(C.ah_bridge_max_line(b)), int(C.ah_bridge_head_bytes())
	br := bufio.NewReaderSize(stdin, 64*1024)
	for {
		s.mu.Lock()
		for !C.ah_bridge_wants_input(b) {
			s.cond.Wait()
		}
		s.mu.Unlock()
		line, tooLong, ok := readFrame(br, max, head)
		if !ok {
			break
		}
		lp, ln := bytesArg(line)
		s.call(func(out **C.ah_bridge_output) C.ah_status {
			return C.ah_bridge_feed(b, lp, ln, C.size_t(tooLong), out, nil)
		})
	}
	s.mu.Lock()
	for !C.ah_bridge_idle(b) {
		s.cond.Wait()
	}
	s.mu.Unlock()
	// The last replies are written by their jobs' goroutines.
	s.jobs.Wait()
	return 0
}

// readFrame reads one line of at most max bytes (without the newline and
// a trailing \r). ok is false at end of input. A longer line is skipped
// without being kept in memory: line is then its first head bytes and
// tooLong its length.
func readFrame(br *bufio.Reader, max, head int) (line []byte, tooLong int, ok bool) {
	n, seen := 0, false
	var first []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			seen = true
		}
		done := err == nil
		if done {
			chunk = chunk[:len(chunk)-1]
		}
		if len(first) < head {
			first = append(first, chunk[:min(len(chunk), head-len(first))]...)
		}
		n += len(chunk)
		if n <= max {
			line = append(line, chunk...)
		} else {
			line = nil
		}
		if done {
			break
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		// End of input or a read failure: the last line, if any.
		if !seen {
			return nil, 0, false
		}
		break
	}
	if n > max {
		return first, n, true
	}
	line = bytes.TrimSuffix(line, []byte{'\r'})
	return line, 0, true
}

type server struct {
	ctx            context.Context
	r              *Router
	b              *C.ah_bridge
	stdout, stderr io.Writer
	// mu and cond: the reader waits on them for room (wants_input) and, at
	// the end, for idle; every finished job signals.
	mu   sync.Mutex
	cond *sync.Cond
	// out: held from a bridge call to the end of writing its output.
	out sync.Mutex
	// jobs: the job goroutines (each writes its reply before it ends).
	jobs sync.WaitGroup
	// refs: the loop plus each abandoned handler still running; the last
	// one frees the bridge.
	refs atomic.Int64
}

func (s *server) release() {
	if s.refs.Add(-1) == 0 {
		C.ah_bridge_free(s.b)
	}
}

// call runs one bridge call that yields an output and writes its frames
// and stderr before anyone else may call the bridge: the bridge orders a
// session's replies by the order of its outputs, so getting an output and
// writing it are one step (else a reply handed out by a later call could
// overtake this one). Then it wakes the reader and starts the output's
// jobs. A caller's io.Writer need not be safe for concurrent use.
func (s *server) call(f func(out **C.ah_bridge_output) C.ah_status) {
	var out *C.ah_bridge_output
	s.out.Lock()
	st := f(&out)
	if st == C.AH_OK {
		if b := view(C.ah_bridge_output_frames(out)); len(b) > 0 {
			s.stdout.Write(b)
		}
		if e := view(C.ah_bridge_output_stderr(out)); len(e) > 0 {
			s.stderr.Write(e)
		}
	}
	s.out.Unlock()
	s.mu.Lock()
	s.cond.Broadcast()
	s.mu.Unlock()
	if st != C.AH_OK {
		return
	}
	defer C.ah_bridge_output_free(out)
	n := int(C.ah_bridge_output_job_count(out))
	for i := 0; i < n; i++ {
		var job *C.ah_bridge_job
		if C.ah_bridge_output_take_job(out, C.size_t(i), &job, nil) == C.AH_OK {
			s.jobs.Add(1)
			go func() {
				defer s.jobs.Done()
				s.run(job)
			}()
		}
	}
}

// run is one job: the router within the deadline (on its own goroutine,
// abandoned at the deadline; a panic is recovered into the fail policy),
// then the outcome to the bridge.
func (s *server) run(job *C.ah_bridge_job) {
	id := C.ah_bridge_job_id(job)
	ev, err := eventFromNative(C.ah_bridge_job_event(job), nil)
	if err != nil {
		s.finishError(id, err)
		C.ah_bridge_job_free(job)
		return
	}
	if !s.r.runsUserCode(ev) {
		// Nothing of the author's runs for this event: nothing can hang.
		s.finishDecision(id, NoDecision())
		ev.releaseOutput()
		C.ah_bridge_job_free(job)
		return
	}
	deadline := time.Duration(C.ah_bridge_job_deadline_ms(job)) * time.Millisecond
	s.refs.Add(1) // held by the handler while it may outlive the loop
	o, abandoned, err := decideWithin(s.ctx, s.r, ev, deadline, func() {
		// Given up on at the deadline: the handler owned the job since.
		C.ah_bridge_abandoned_done(s.b, id)
		ev.releaseOutput()
		C.ah_bridge_job_free(job)
		s.release()
	})
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		s.finishStatus(id, C.AH_ERR_HANDLER_TIMEOUT, "")
	case err != nil:
		s.finishStatus(id, C.AH_ERR_HANDLER_ERROR, err.Error())
	default:
		s.finishOutcome(id, o)
	}
	if abandoned {
		return // the handler frees the job when it returns
	}
	// A timeout whose handler returned just then is not abandoned.
	C.ah_bridge_abandoned_done(s.b, id)
	s.refs.Add(-1)
	ev.releaseOutput()
	C.ah_bridge_job_free(job)
}

// finishOutcome reports the router's outcome, as Main's decide completes it.
func (s *server) finishOutcome(id C.uint64_t, o outcome) {
	switch {
	case o.panicked != nil:
		s.finishStatus(id, C.AH_ERR_PANIC, fmt.Sprint(o.panicked))
	case o.err != nil:
		s.finishError(id, o.err)
	default:
		s.finishDecision(id, o.d)
	}
}

func (s *server) finishDecision(id C.uint64_t, d Decision) {
	j, err := json.Marshal(d)
	if err != nil {
		s.finishStatus(id, C.AH_ERR_INVALID_DECISION, err.Error())
		return
	}
	p, n := bytesArg(j)
	s.call(func(out **C.ah_bridge_output) C.ah_status {
		return C.ah_bridge_finish(s.b, id, p, n, out, nil)
	})
}

func (s *server) finishError(id C.uint64_t, err error) {
	st, msg := errorStatus(err)
	s.finishStatus(id, st, msg)
}

func (s *server) finishStatus(id C.uint64_t, st C.uint32_t, msg string) {
	p, n := optStrArg(msg)
	s.call(func(out **C.ah_bridge_output) C.ah_status {
		return C.ah_bridge_finish_error(s.b, id, st, p, n, out, nil)
	})
}

// serveWorkers is the bridge's worker count on this machine (for the tests).
func serveWorkers() int {
	args, _, err := startRun([]string{"h", "agenthooks", "serve", "--provider=opencode"})
	if err != nil || args == nil {
		return 0
	}
	defer C.ah_run_args_free(args)
	var b *C.ah_bridge
	if C.ah_bridge_new(args, nil, 0, &b, nil) != C.AH_OK {
		return 0
	}
	defer C.ah_bridge_free(b)
	return int(C.ah_bridge_workers(b))
}
