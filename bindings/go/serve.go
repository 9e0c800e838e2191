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
	"runtime"
	"sync/atomic"
	"time"
)

// serve is `<program> agenthooks serve --provider=opencode|openclaw`: the
// author side of the OpenCode / OpenClaw plugin bridges, NDJSON over stdio,
// as the Rust runtime serves it (core/src/serve.rs):
//
//	plugin  -> program  {"hello": {"provider", "versions", "context"}}
//	program -> plugin   {"hello": {"provider", "version", "policy", "deadline_ms"}}
//	plugin  -> program  {"seq": n, "hook": ..., ...}   one hook call
//	program -> plugin   {"seq": n, "output": {...} | null, "notes"?, "error"?}
//
// Which line is a request, and every reply frame, come from the core
// (ah_serve_step, ah_serve_reply), so the replies are the Rust server's
// (fixtures/serve/): every reply carries output, the fail policy's answer
// when something failed. Requests run one at a time (so in order per
// session, and stdin is not read meanwhile: nothing is buffered); a line
// over --max-bytes is skipped without being kept. A handler past its
// deadline is abandoned; while ah_serve_abandoned_cap() of them still run,
// requests are refused with the fail policy's answer. At end of input it
// returns 0.
func serve(ctx context.Context, r *Router, args *C.ah_run_args, stdin io.Reader, stdout, stderr io.Writer) int {
	var ra RunArgs
	if err := json.Unmarshal(view(C.ah_run_args_json(args)), &ra); err != nil {
		fmt.Fprintf(stderr, "agenthooks: invalid_json: %v\n", err)
		return 2
	}
	if ra.Provider == "" {
		fmt.Fprintf(stderr, "agenthooks: invalid_argument: invalid argument: `serve` needs --provider (opencode or openclaw)\n")
		return 2
	}
	if _, err := ParseProvider(ra.Provider); err != nil {
		code, msg := codeAndMessage(err)
		fmt.Fprintf(stderr, "agenthooks: %s: %s\n", code, msg)
		return 2
	}
	pj, err := policyJSON(r.policy)
	if err != nil {
		fmt.Fprintf(stderr, "agenthooks: invalid_argument: policy: %v\n", err)
		return 2
	}
	s := &server{ctx: ctx, r: r, args: args, policy: pj, stdout: stdout, stderr: stderr}
	// A blank line classifies as a skip: this checks args and the policy once.
	if _, _, err := s.step(nil, 0); err != nil {
		code, msg := codeAndMessage(err)
		fmt.Fprintf(stderr, "agenthooks: %s: %s\n", code, msg)
		return 2
	}
	max, head := intLimit(C.ah_run_args_max_bytes(args)), int(C.ah_serve_head_bytes())
	br := bufio.NewReaderSize(stdin, 64*1024)
	for {
		line, tooLong, ok := readFrame(br, max, head)
		if !ok {
			return 0
		}
		kind, out, err := s.step(line, tooLong)
		if err != nil {
			// Not reachable: args and policy were checked above.
			code, msg := codeAndMessage(err)
			fmt.Fprintf(stderr, "agenthooks: %s: %s\n", code, msg)
			continue
		}
		switch kind {
		case C.AH_SERVE_REPLY:
			s.writeLine(out)
		case C.AH_SERVE_REQUEST:
			var req struct {
				Seq json.RawMessage `json:"seq"`
			}
			if json.Unmarshal(out, &req) == nil {
				s.request(req.Seq, line)
			}
		}
	}
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
	args           *C.ah_run_args
	policy         []byte
	stdout, stderr io.Writer
	// abandoned counts handlers past their deadline still running.
	abandoned atomic.Int64
}

// step is ah_serve_step: what to do with one line.
func (s *server) step(line []byte, tooLong int) (C.uint32_t, []byte, error) {
	pp, pn := optArg(s.policy)
	lp, ln := bytesArg(line)
	var kind C.uint32_t
	var out *C.ah_buf
	var cerr *C.ah_error
	if st := C.ah_serve_step(s.args, pp, pn, lp, ln, C.size_t(tooLong), &kind, &out, &cerr); st != C.AH_OK {
		return 0, nil, errorOf(st, cerr)
	}
	if out == nil {
		return kind, nil, nil
	}
	return kind, takeBuf(out), nil
}

func (s *server) writeLine(b []byte) {
	s.stdout.Write(append(b, '\n'))
}

// request runs one request (the whole line is the dialect's payload) and
// writes its reply.
func (s *server) request(seq json.RawMessage, line []byte) {
	resp := s.answer(line)
	rj, err := json.Marshal(resp)
	if err != nil {
		rj = []byte(`{"stdout":"","stderr":"","exit_code":0}`)
	}
	sp, sn := bytesArg(seq)
	rp, rn := bytesArg(rj)
	var out *C.ah_buf
	var cerr *C.ah_error
	if st := C.ah_serve_reply(sp, sn, rp, rn, &out, &cerr); st != C.AH_OK {
		// Not reachable (both are JSON): the plugin applies its fail policy
		// to a reply with an error.
		_, msg := codeAndMessage(errorOf(st, cerr))
		b, _ := json.Marshal(map[string]any{"seq": seq, "output": nil,
			"error": map[string]string{"code": "io", "message": msg}})
		s.writeLine(b)
		return
	}
	s.writeLine(takeBuf(out))
	if resp.Stderr != "" {
		io.WriteString(s.stderr, resp.Stderr)
	}
}

// answer is one request as `agenthooks run` answers it (prepare, the
// router within the deadline, complete), with the abandoned-handler cap.
func (s *server) answer(line []byte) *Response {
	pp, pn := optArg(s.policy)
	bp, bn := bytesArg(line)
	var inv *C.ah_invocation
	var ans *C.ah_response
	var cerr *C.ah_error
	if st := C.ah_invocation_prepare(s.args, pp, pn, bp, bn, nil, &inv, &ans, &cerr); st != C.AH_OK {
		// Not reachable: the policy was checked when the loop started.
		code, msg := codeAndMessage(errorOf(st, cerr))
		return &Response{Stderr: fmt.Sprintf("agenthooks: %s: %s\n", code, msg)}
	}
	if ans != nil {
		return takeResponse(ans)
	}
	defer C.ah_invocation_free(inv)
	ev, err := eventFromNative(C.ah_invocation_event(inv), line, nil)
	if err != nil {
		return completeError(inv, err)
	}
	defer ev.releaseOutput() // before the invocation is freed
	if !s.r.runsUserCode(ev) {
		// Nothing of the author's runs for this event: nothing can hang.
		return completeDecision(inv, NoDecision())
	}
	if s.abandoned.Load() >= int64(C.ah_serve_abandoned_cap()) {
		return completeStatus(inv, C.AH_ERR_HANDLER_ERROR, goString(C.ah_serve_overloaded_message()))
	}
	return s.decide(ev, inv, time.Duration(C.ah_invocation_deadline_ms(inv))*time.Millisecond)
}

// decide is Main's decide (the router on its own goroutine, abandoned at
// the deadline, a panic recovered into the fail policy) that also counts
// the goroutines still running past their deadline.
func (s *server) decide(ev *Event, inv *C.ah_invocation, deadline time.Duration) *Response {
	const running, done, abandoned = 0, 1, 2
	var state atomic.Int32
	ctx, cancel := context.WithTimeout(s.ctx, deadline)
	defer cancel()
	ch := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				buf := make([]byte, 4096)
				ch <- outcome{panicked: p, stack: buf[:runtime.Stack(buf, false)]}
			}
			if state.Swap(done) == abandoned {
				s.abandoned.Add(-1)
			}
		}()
		d, err := s.r.Decide(ctx, ev)
		ch <- outcome{d: d, err: err}
	}()
	select {
	case o := <-ch:
		return completeOutcome(inv, o)
	case <-ctx.Done():
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return completeStatus(inv, C.AH_ERR_HANDLER_ERROR, ctx.Err().Error())
		}
		s.abandoned.Add(1)
		if !state.CompareAndSwap(running, abandoned) {
			s.abandoned.Add(-1) // it finished just now
		}
		return completeStatus(inv, C.AH_ERR_HANDLER_TIMEOUT, "")
	}
}

// completeOutcome completes with the router's outcome, as Main's decide.
func completeOutcome(inv *C.ah_invocation, o outcome) *Response {
	switch {
	case o.panicked != nil:
		return completeStatus(inv, C.AH_ERR_PANIC, fmt.Sprint(o.panicked))
	case o.err != nil:
		return completeError(inv, o.err)
	}
	return completeDecision(inv, o.d)
}

// serveAbandonedCap is ah_serve_abandoned_cap (for the tests).
func serveAbandonedCap() int { return int(C.ah_serve_abandoned_cap()) }
