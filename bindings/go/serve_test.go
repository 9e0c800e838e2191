package agenthooks

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

func serveGuard() *Router {
	r := NewRouter(WithPolicy(Policy{Fail: FailClosed, Timeout: 100 * time.Millisecond}))
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		switch {
		case strings.Contains(e.Tool.Command, "rm -rf"):
			return Deny("destructive command"), nil
		case e.Tool.Command == "slow":
			time.Sleep(time.Second)
		}
		return NoDecision(), nil
	})
	return r
}

func ocFrame(seq, cmd string) string {
	return `{"seq":` + seq + `,"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"s","callID":"c` + seq + `"},"output":{"args":{"command":"` + cmd + `"}}}`
}

func serveLines(t *testing.T, r *Router, input string, args ...string) ([]map[string]any, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	argv := append([]string{"h", "agenthooks", "serve"}, args...)
	code := Run(context.Background(), r, argv, strings.NewReader(input), &out, &errb)
	var frames []map[string]any
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var f map[string]any
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("reply line is not JSON: %q", sc.Text())
		}
		frames = append(frames, f)
	}
	return frames, errb.String(), code
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestServeHelloRequestsAndBadLines(t *testing.T) {
	big := `{"seq":9,"x":"` + strings.Repeat("x", 5000) + `"}`
	input := strings.Join([]string{
		`{"hello":{"provider":"opencode","versions":{"opencode":"1.18.33"},"context":{}}}`,
		ocFrame("1", "rm -rf /"),
		ocFrame("2", "ls"),
		"not json",
		"",
		`{"hook":"tool.execute.before"}`,
		big,
		`{"seq":"x3","hook":7}`,
		`{"hello":{"provider":"openclaw"}}`,
		ocFrame("4", "slow"),
		"[1]\r",
		ocFrame("5", "rm -rf y"), // last line, no newline
	}, "\n")
	frames, stderr, code := serveLines(t, serveGuard(), input, "--provider=opencode", "--max-bytes=4096")
	if code != 0 || len(frames) != 11 {
		t.Fatalf("code %d, %d frames: %v\nstderr %s", code, len(frames), frames, stderr)
	}
	hello := frames[0]["hello"].(map[string]any)
	if hello["provider"] != "opencode" || hello["deadline_ms"] != 100.0 ||
		mustJSON(hello["policy"]) != `{"ask_fallback":"deny","continuation_cap":5,"fail":"closed","headless_ask":"deny","timeout_ms":100,"unsupported":"degrade"}` {
		t.Errorf("hello: %v", frames[0])
	}
	bySeq := map[string]map[string]any{}
	var errs []string
	for _, f := range frames[1:] {
		if f["seq"] == nil {
			errs = append(errs, f["error"].(map[string]any)["code"].(string))
		} else {
			bySeq[mustJSON(f["seq"])] = f
		}
	}
	if got := mustJSON(bySeq["1"]["output"]); got != `{"throw":"destructive command"}` {
		t.Errorf("seq 1: %v", bySeq["1"])
	}
	if got := mustJSON(bySeq["5"]["output"]); got != `{"throw":"destructive command"}` {
		t.Errorf("seq 5: %v", bySeq["5"])
	}
	if out, has := bySeq["2"]["output"]; !has || out != nil || bySeq["2"]["error"] != nil {
		t.Errorf("seq 2 is no opinion (output null): %v", bySeq["2"])
	}
	if e := bySeq["9"]["error"]; e == nil || e.(map[string]any)["code"] != "too_large" || bySeq["9"]["output"] == nil {
		t.Errorf("seq 9 (overlong, seq from its first bytes; fail closed): %v", bySeq["9"])
	}
	for _, f := range frames[1:] {
		if _, has := f["output"]; !has {
			t.Errorf("a reply without output: %v", f)
		}
	}
	if e := bySeq[`"x3"`]["error"]; e == nil || e.(map[string]any)["code"] != "wrong_type" {
		t.Errorf("seq x3: %v", bySeq[`"x3"`])
	}
	if e := bySeq["4"]["error"]; e == nil || e.(map[string]any)["code"] != "handler_timeout" || bySeq["4"]["output"] == nil {
		t.Errorf("seq 4 (timeout, fail closed): %v", bySeq["4"])
	}
	if want := "invalid_json invalid_argument invalid_argument not_an_object"; strings.Join(errs, " ") != want {
		t.Errorf("error frames %v, want %s", errs, want)
	}
}

func TestServeArgs(t *testing.T) {
	if _, stderr, code := serveLines(t, NewRouter(), ""); code != 2 || !strings.Contains(stderr, "--provider") {
		t.Errorf("no provider: %d %q", code, stderr)
	}
	if _, stderr, code := serveLines(t, NewRouter(), "", "--provider=vim"); code != 2 || !strings.Contains(stderr, "unknown_provider") {
		t.Errorf("unknown provider: %d %q", code, stderr)
	}
	frames, _, code := serveLines(t, NewRouter(), `{"hello":{}}`, "--provider=openclaw", "--fail=closed", "--timeout=10")
	if code != 0 || len(frames) != 1 || mustJSON(frames[0]["hello"].(map[string]any)["policy"].(map[string]any)["fail"]) != `"closed"` ||
		frames[0]["hello"].(map[string]any)["deadline_ms"] != 9000.0 {
		t.Errorf("hello with argv overrides: %v", frames)
	}
}

// Stray prints of handlers must not reach the plugin in a real process.
func TestServeInAProcess(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in := `{"hello":{"provider":"opencode"}}` + "\n" + ocFrame("7", "ls") + "\n"
	r := runProc(t, self, []string{"AH_GO_TEST_HOOK=print"}, []byte(in), "agenthooks", "serve", "--provider=opencode")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 2 || !strings.Contains(lines[1], `"seq":7`) || !strings.Contains(lines[1], `"throw":"printed"`) {
		t.Fatalf("%+v", r)
	}
	if !strings.Contains(r.stderr, "stray") {
		t.Errorf("stray print belongs on stderr: %q", r.stderr)
	}
}

// serveVectorRouter is the router of fixtures/serve/README.md.
func serveVectorRouter() *Router {
	r := NewRouter()
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		switch cmd := e.Tool.Command; {
		case strings.Contains(cmd, "rm -rf"):
			return Deny("destructive command"), nil
		case cmd == "fail":
			return Decision{}, errors.New("boom")
		case cmd == "slow":
			time.Sleep(3 * time.Second)
		case strings.HasPrefix(cmd, "sleep "):
			if ms, err := strconv.Atoi(strings.TrimPrefix(cmd, "sleep ")); err == nil {
				time.Sleep(time.Duration(ms) * time.Millisecond)
			}
		}
		return NoDecision(), nil
	})
	return r
}

type serveVector struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Provider    string            `json:"provider"`
	Args        []string          `json:"args"`
	Input       []json.RawMessage `json:"input"`
	Output      []json.RawMessage `json:"output"`
	InOrder     [][]any           `json:"in_order"`
}

func vectorLine(t *testing.T, raw json.RawMessage) []byte {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []byte(s)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("bad input entry %s", raw)
	}
	if b, ok := m["$b64"]; ok {
		var enc string
		json.Unmarshal(b, &enc)
		out, err := base64.StdEncoding.DecodeString(enc)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if g, ok := m["$gen"]; ok {
		var gen struct {
			Prefix, Fill, Suffix string
			Repeat               int
		}
		json.Unmarshal(g, &gen)
		return []byte(gen.Prefix + strings.Repeat(gen.Fill, gen.Repeat) + gen.Suffix)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// canon is a frame's canonical JSON (keys sorted), "$VERSION" expanded.
func canon(t *testing.T, raw []byte) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("not JSON: %s", raw)
	}
	if h, ok := v.(map[string]any)["hello"].(map[string]any); ok && h["version"] == "$VERSION" {
		h["version"] = Version()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// The shared serve vectors (fixtures/serve/, the same files the Rust and
// Python suites run) through the Go serve loop.
func TestServeVectors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixturesDir, "serve", "*.json"))
	if len(files) < 8 {
		t.Fatalf("too few serve vectors: %d", len(files))
	}
	ran := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v serveVector
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if want := "serve/" + strings.TrimSuffix(filepath.Base(f), ".json"); v.Name != want || v.Description == "" {
			t.Fatalf("%s: name %q", f, v.Name)
		}
		var in bytes.Buffer
		for _, l := range v.Input {
			in.Write(vectorLine(t, l))
			in.WriteByte('\n')
		}
		var out, errb bytes.Buffer
		argv := append([]string{"h", "agenthooks", "serve", "--provider=" + v.Provider}, v.Args...)
		if code := Run(context.Background(), serveVectorRouter(), argv, &in, &out, &errb); code != 0 {
			t.Errorf("%s: exit %d: %s", v.Name, code, errb.String())
			continue
		}
		ran++
		var got, want []string
		var gotSeqs []string
		for _, l := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			got = append(got, canon(t, l))
			var f struct {
				Seq json.RawMessage `json:"seq"`
			}
			json.Unmarshal(l, &f)
			gotSeqs = append(gotSeqs, string(f.Seq))
		}
		for _, w := range v.Output {
			want = append(want, canon(t, w))
		}
		first := ""
		if len(want) > 0 {
			first = want[0]
		}
		sg, sw := append([]string(nil), got...), append([]string(nil), want...)
		sort.Strings(sg)
		sort.Strings(sw)
		if strings.Join(sg, "\n") != strings.Join(sw, "\n") {
			t.Errorf("%s: replies differ\n got  %s\n want %s", v.Name, strings.Join(sg, "\n      "), strings.Join(sw, "\n      "))
			continue
		}
		if strings.HasPrefix(first, `{"hello"`) && got[0] != first {
			t.Errorf("%s: the hello reply must come first", v.Name)
		}
		for _, order := range v.InOrder {
			last := -1
			for _, s := range order {
				b, _ := json.Marshal(s)
				pos := -1
				for i, g := range gotSeqs {
					if g == string(b) {
						pos = i
						break
					}
				}
				if pos <= last {
					t.Errorf("%s: seqs %v out of order", v.Name, order)
					break
				}
				last = pos
			}
		}
	}
	t.Logf("serve vectors: ran %d of %d", ran, len(files))
	if ran != len(files) {
		t.Errorf("ran %d of %d serve vectors", ran, len(files))
	}
}

// Handlers past their deadline are abandoned; while 32 of them
// (agenthooks::bridge::ABANDONED_CAP) still run, requests are refused with
// the fail policy's answer instead of starting more goroutines. Sessions
// run in parallel, so up to the bridge's queue (5 per worker) are handed
// out before the cap is reached.
func TestServeCapsHungHandlers(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	r := NewRouter(WithPolicy(Policy{Fail: FailClosed, Timeout: 10 * time.Millisecond}))
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		<-release // ignores ctx: hung
		return NoDecision(), nil
	})
	capN, queue := 32, 5*serveWorkers()
	n := capN + queue + 8
	var lines []string
	for i := 0; i < n; i++ {
		lines = append(lines, ocFrame(strconv.Itoa(i), "ls"))
	}
	before := runtime.NumGoroutine()
	frames, stderr, code := serveLines(t, r, strings.Join(lines, "\n"), "--provider=opencode")
	if extra := runtime.NumGoroutine() - before; extra > capN+queue {
		t.Errorf("%d handler goroutines left running, cap %d + queue %d", extra, capN, queue)
	}
	if code != 0 || len(frames) != n {
		t.Fatalf("code %d, %d frames, stderr %s", code, len(frames), stderr)
	}
	timeouts, refused := 0, 0
	for i, f := range frames {
		e, _ := f["error"].(map[string]any)
		if e == nil || f["output"] == nil {
			t.Fatalf("frame %d: want an error with the fail-closed block: %v", i, f)
		}
		switch e["code"] {
		case "handler_timeout":
			timeouts++
		case "handler_error":
			refused++
			if msg, _ := e["message"].(string); !strings.Contains(msg, "overloaded") {
				t.Errorf("frame %d: %v", i, f)
			}
		default:
			t.Errorf("frame %d: %v", i, f)
		}
	}
	if timeouts < capN || refused == 0 {
		t.Errorf("%d timeouts, %d refused: want at least %d and some", timeouts, refused, capN)
	}
}
