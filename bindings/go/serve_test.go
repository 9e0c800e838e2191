package agenthooks

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
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
		mustJSON(hello["policy"]) != `{"ask_fallback":"deny","continuation_cap":5,"fail":"closed","timeout_ms":100,"unsupported":"degrade"}` {
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
	if _, has := bySeq["2"]["output"]; has || bySeq["2"]["error"] != nil {
		t.Errorf("seq 2 is no opinion: %v", bySeq["2"])
	}
	if e := bySeq[`"x3"`]["error"]; e == nil || e.(map[string]any)["code"] != "wrong_type" {
		t.Errorf("seq x3: %v", bySeq[`"x3"`])
	}
	if e := bySeq["4"]["error"]; e == nil || e.(map[string]any)["code"] != "handler_timeout" || bySeq["4"]["output"] == nil {
		t.Errorf("seq 4 (timeout, fail closed): %v", bySeq["4"])
	}
	if want := "invalid_json invalid_argument too_large invalid_argument not_an_object"; strings.Join(errs, " ") != want {
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
