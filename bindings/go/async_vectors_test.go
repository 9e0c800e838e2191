package agenthooks

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// asyncVector is one fixtures/async case (schema in its README).
type asyncVector struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Ancestry    [][]string `json:"ancestry"`
	Steps       []struct {
		Argv   []string        `json:"argv"`
		Stdin  json.RawMessage `json:"stdin"`
		Expect struct {
			Stdout         *string          `json:"stdout"`
			StdoutJSON     json.RawMessage  `json:"stdout_json"`
			StderrContains []string         `json:"stderr_contains"`
			ExitCode       *int             `json:"exit_code"`
			Observed       []map[string]any `json:"observed"`
		} `json:"expect"`
	} `json:"steps"`
}

// TestAsyncVectors runs every async/backfill vector in-process (runWith:
// a fresh state root per vector, the injected ancestor chain), with the
// vector guard and a recording observer. The Rust, Python and Node
// runners run the same files.
func TestAsyncVectors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixturesDir, "async", "*.json"))
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no async vectors")
	}
	flt := os.Getenv("AH_FIXTURE")
	ran := 0
	for _, f := range files {
		stem := strings.TrimSuffix(filepath.Base(f), ".json")
		if flt != "" && !strings.Contains("async/"+stem, flt) {
			continue
		}
		ran++
		t.Run(stem, func(t *testing.T) {
			var v asyncVector
			if err := loadStrict(f, &v); err != nil {
				t.Fatal(err)
			}
			if v.Name != "async/"+stem || strings.TrimSpace(v.Description) == "" || len(v.Steps) == 0 {
				t.Fatalf("name must be async/%s, with a description and steps", stem)
			}
			state := t.TempDir()
			for i, s := range v.Steps {
				var mu sync.Mutex
				seen := []map[string]any{}
				r := vectorRouter(t, nil)
				r.OnAny(func(ctx context.Context, e *Event) {
					o := map[string]any{"kind": string(e.Kind), "native_name": e.NativeName}
					if e.Backfilled {
						o["backfilled"] = true
					}
					if e.Prompt != "" {
						o["prompt"] = e.Prompt
					}
					mu.Lock()
					seen = append(seen, o)
					mu.Unlock()
				})
				var out, errb bytes.Buffer
				code := runWith(context.Background(), r, s.Argv, bytes.NewReader(s.Stdin), &out, &errb,
					runOptions{stateDir: state, ancestry: v.Ancestry})
				e := s.Expect
				if e.ExitCode == nil || code != *e.ExitCode {
					t.Errorf("step %d: exit code %d: %s", i, code, errb.String())
				}
				switch {
				case e.Stdout != nil && e.StdoutJSON == nil:
					if out.String() != *e.Stdout {
						t.Errorf("step %d: stdout %q (want %q)", i, out.String(), *e.Stdout)
					}
				case e.Stdout == nil && e.StdoutJSON != nil:
					var got, want any
					if json.Unmarshal(out.Bytes(), &got) != nil || json.Unmarshal(e.StdoutJSON, &want) != nil || !jsonEqual(got, want) {
						t.Errorf("step %d: stdout %s (want %s)", i, out.String(), e.StdoutJSON)
					}
				default:
					t.Fatalf("step %d: exactly one of stdout, stdout_json", i)
				}
				for _, w := range e.StderrContains {
					if !strings.Contains(errb.String(), w) {
						t.Errorf("step %d: stderr lacks %q: %s", i, w, errb.String())
					}
				}
				gotJ, _ := json.Marshal(seen)
				wantJ, _ := json.Marshal(e.Observed)
				var g, w any
				_ = json.Unmarshal(gotJ, &g)
				_ = json.Unmarshal(wantJ, &w)
				if !jsonEqual(g, w) {
					t.Errorf("step %d: observed %s (want %s)", i, gotJ, wantJ)
				}
			}
		})
	}
	if ran == 0 || (flt == "" && ran != len(files)) {
		t.Fatalf("ran %d of %d", ran, len(files))
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// asyncHook is the hook of TestAsyncHookProcess: this test binary, started
// with AH_ASYNC_HOOK set (TestMain), is a hook program whose tool.post
// handler sleeps. Never returns.
func asyncHook() {
	r := NewRouter()
	r.OnToolPost(func(ctx context.Context, e *ToolPostEvent) (Decision, error) {
		m := os.Getenv("AH_MARKER")
		_ = os.WriteFile(m+".pid", []byte(strconv.Itoa(os.Getpid())), 0o600)
		ms, _ := strconv.Atoi(os.Getenv("AH_SLEEP_MS"))
		time.Sleep(time.Duration(ms) * time.Millisecond)
		_ = os.WriteFile(m, []byte("done"), 0o600)
		return NoDecision(), nil
	})
	Main(r)
}

func waitFor(p string, within time.Duration) bool {
	end := time.Now().Add(within)
	for time.Now().Before(end) {
		if _, err := os.Stat(p); err == nil {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	_, err := os.Stat(p)
	return err == nil
}

// TestAsyncHookProcess: --async in a real hook process answers at once
// (none of the agent's pipes stays open), the detached child (this binary
// again, os.Executable + os.Args[1:]) finishes after the exit, and it dies
// at the deadline.
func TestAsyncHookProcess(t *testing.T) {
	payload := `{"session_id":"s","cwd":"/w","hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"make"},"tool_response":{"llmContent":"ok"}}`
	for _, c := range []struct {
		sleepMs, timeout int
		finishes         bool
	}{{2500, 5, true}, {3000, 1, false}} {
		tmp := t.TempDir()
		marker := filepath.Join(tmp, "marker")
		cmd := exec.Command(os.Args[0], "agenthooks", "run",
			"--provider=gemini", "--timeout="+strconv.Itoa(c.timeout), "--async")
		cmd.Env = append(os.Environ(), "AH_ASYNC_HOOK=1", "AH_MARKER="+marker,
			"AH_SLEEP_MS="+strconv.Itoa(c.sleepMs), "AGENTHOOKS_STATE_DIR="+filepath.Join(tmp, "state"))
		cmd.Stdin = strings.NewReader(payload)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		start := time.Now()
		err := cmd.Run() // returns when the pipes close too
		took := time.Since(start)
		if err != nil || strings.TrimSpace(out.String()) != "{}" {
			t.Fatalf("%v: stdout %q stderr %s", err, out.String(), errb.String())
		}
		if took >= time.Duration(c.sleepMs)*time.Millisecond {
			t.Fatalf("the agent waited %v", took)
		}
		if !waitFor(marker+".pid", 10*time.Second) {
			t.Fatal("the detached child never ran")
		}
		if c.finishes {
			if !waitFor(marker, 10*time.Second) {
				t.Fatal("the detached work never finished")
			}
		} else {
			time.Sleep(time.Duration(c.timeout)*time.Second + time.Duration(c.sleepMs)*time.Millisecond)
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the work ran past the deadline")
			}
		}
	}
}
