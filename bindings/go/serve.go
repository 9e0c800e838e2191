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
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// serve is `<program> agenthooks serve --provider=opencode|openclaw`: the
// author side of the OpenCode / OpenClaw plugin bridges, NDJSON over stdio,
// as the Rust runtime serves it (core/src/serve.rs):
//
//	plugin  -> program  {"hello": {"provider", "versions", "context"}}
//	program -> plugin   {"hello": {"provider", "version", "policy", "deadline_ms"}}
//	plugin  -> program  {"seq": n, "hook": ..., ...}   one hook call
//	program -> plugin   {"seq": n, "output"?, "notes"?, "error"?}
//
// Each request goes through answer, exactly as `agenthooks run`. A line
// that is not a frame (not JSON, no seq, longer than --max-bytes) gets an
// error frame and the loop goes on. Frames are handled one at a time (so
// in order per session). At end of input it returns 0.
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
	provider, err := ParseProvider(ra.Provider)
	if err != nil {
		code, msg := codeAndMessage(err)
		fmt.Fprintf(stderr, "agenthooks: %s: %s\n", code, msg)
		return 2
	}
	s := &server{ctx: ctx, r: r, args: args, ra: ra, provider: provider, stdout: stdout, stderr: stderr,
		max: intLimit(C.ah_run_args_max_bytes(args))}
	br := bufio.NewReaderSize(stdin, 64*1024)
	for {
		line, tooLong, ok := readFrame(br, s.max)
		if !ok {
			return 0
		}
		if tooLong {
			s.errorFrame(nil, "too_large", fmt.Sprintf("frame is larger than the limit of %d bytes", s.max))
			continue
		}
		s.handle(line)
	}
}

// readFrame reads one line of at most max bytes (without the newline and
// a trailing \r). ok is false at end of input; tooLong reports a longer
// line, which is skipped without being kept in memory.
func readFrame(br *bufio.Reader, max int) (line []byte, tooLong, ok bool) {
	n, seen := 0, false
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			seen = true
		}
		done := err == nil
		if done {
			chunk = chunk[:len(chunk)-1]
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
			return nil, false, false
		}
		break
	}
	if n > max {
		return nil, true, true
	}
	line = bytes.TrimSuffix(line, []byte{'\r'})
	return line, false, true
}

type server struct {
	ctx            context.Context
	r              *Router
	args           *C.ah_run_args
	ra             RunArgs
	provider       string
	max            int
	stdout, stderr io.Writer
}

// replyFrame is `{"seq", "output"?, "notes"?, "error"?}`.
type replyFrame struct {
	Seq    json.RawMessage `json:"seq"`
	Output json.RawMessage `json:"output,omitempty"`
	Notes  []Note          `json:"notes,omitempty"`
	Error  *frameError     `json:"error,omitempty"`
}

type frameError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (s *server) writeLine(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte("{}")
	}
	s.stdout.Write(append(b, '\n'))
}

// errorFrame reports a line that is not a frame (seq nil: null).
func (s *server) errorFrame(seq json.RawMessage, code, msg string) {
	if seq == nil {
		seq = json.RawMessage("null")
	}
	s.writeLine(replyFrame{Seq: seq, Error: &frameError{code, msg}})
}

func (s *server) handle(line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	if !utf8.Valid(line) {
		s.errorFrame(nil, "invalid_utf8", "invalid UTF-8 in frame")
		return
	}
	var v any
	if err := json.Unmarshal(line, &v); err != nil {
		s.errorFrame(nil, "invalid_json", "invalid JSON: "+err.Error())
		return
	}
	if _, isObj := v.(map[string]any); !isObj {
		s.errorFrame(nil, "not_an_object", fmt.Sprintf("payload must be a JSON object, got %T", v))
		return
	}
	var frame map[string]json.RawMessage
	if err := json.Unmarshal(line, &frame); err != nil {
		s.errorFrame(nil, "invalid_json", "invalid JSON: "+err.Error())
		return
	}
	if h, ok := frame["hello"]; ok {
		s.hello(h)
		return
	}
	seq := bytes.TrimSpace(frame["seq"])
	if len(seq) == 0 || !(seq[0] == '"' || seq[0] == '-' || seq[0] >= '0' && seq[0] <= '9') {
		s.errorFrame(nil, "invalid_argument", "invalid argument: a request frame needs a `seq` (number or string)")
		return
	}
	// The whole line is the dialect payload, as the Rust server passes it
	// (the decoders ignore `seq`).
	resp, err := answer(s.ctx, s.r, s.args, line, nil)
	if err != nil {
		code, msg := codeAndMessage(err)
		s.errorFrame(seq, code, msg)
		return
	}
	s.writeLine(reply(seq, resp))
	if resp.Stderr != "" {
		io.WriteString(s.stderr, resp.Stderr)
	}
}

// reply is core/src/serve.rs reply_frame: output is the stdout JSON
// (absent when empty); error is set when the fail policy answered.
func reply(seq json.RawMessage, r *Response) replyFrame {
	f := replyFrame{Seq: seq, Notes: r.Notes}
	if text := strings.TrimSpace(r.Stdout); text != "" {
		if json.Valid([]byte(text)) {
			f.Output = json.RawMessage(text)
		} else {
			f.Error = &frameError{"io", "the answer is not JSON"}
		}
	}
	if f.Error == nil {
		for _, n := range r.Notes {
			if n.Code == "fail_open" || n.Code == "fail_closed" {
				code := n.From
				if code == "" {
					code = "handler_error"
				}
				f.Error = &frameError{code, strings.TrimSpace(r.Stderr)}
				break
			}
		}
	}
	return f
}

// hello answers the plugin's hello with the effective policy (argv
// overrides applied, defaults filled in) and the handler deadline.
func (s *server) hello(h json.RawMessage) {
	var hello struct {
		Provider *string `json:"provider"`
	}
	_ = json.Unmarshal(h, &hello)
	if hello.Provider != nil {
		if p, err := ParseProvider(*hello.Provider); err != nil || p != s.provider {
			s.errorFrame(nil, "invalid_argument", fmt.Sprintf(
				"invalid argument: hello names provider `%s` but this program serves `%s`", *hello.Provider, s.provider))
			return
		}
	}
	p := s.r.policy
	policy := map[string]any{
		"fail":             orDefault(string(p.Fail), string(FailOpen)),
		"unsupported":      orDefault(string(p.Unsupported), string(UnsupportedDegrade)),
		"ask_fallback":     orDefault(string(p.AskFallback), string(AskFallbackDeny)),
		"continuation_cap": 5,
	}
	if s.ra.Fail != "" {
		policy["fail"] = string(s.ra.Fail)
	}
	switch {
	case p.ContinuationCap < 0:
		policy["continuation_cap"] = 0
	case p.ContinuationCap > 0:
		policy["continuation_cap"] = p.ContinuationCap
	}
	var deadline uint64 = 55000
	if p.Timeout > 0 {
		ms := p.Timeout.Milliseconds()
		if ms == 0 {
			ms = 1
		}
		policy["timeout_ms"] = ms
		deadline = uint64(ms)
	} else if t := s.ra.TimeoutS; t != nil && *t > 0 {
		deadline = uint64(*t * 1000 * 0.9)
	}
	s.writeLine(map[string]any{"hello": map[string]any{
		"provider":    s.provider,
		"version":     Version(),
		"policy":      policy,
		"deadline_ms": deadline,
	}})
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}
