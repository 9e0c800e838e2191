package agenthooks

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// A handler run by Run reads the tool output on demand; an event kept past
// the hook call keeps what it read and nothing else (the core's copy is
// gone with the invocation).
func TestOutputOnDemandInRun(t *testing.T) {
	payload := `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash",` +
		`"tool_input":{"command":"make"},"tool_use_id":"t",` +
		`"tool_response":{"stdout":"ok \"quoted\"\n","exit_code":0}}` + "\n"
	var read, unread *Event
	var during json.RawMessage
	r := NewRouter()
	r.OnToolPost(func(ctx context.Context, e *ToolPostEvent) (Decision, error) {
		if strings.Contains(e.Tool.Command, "make") && read == nil {
			read = e.Event
			during = e.Output()
			_ = e.Raw()
		} else {
			unread = e.Event
		}
		return NoDecision(), nil
	})
	for i := 0; i < 2; i++ {
		var out, errb bytes.Buffer
		argv := []string{"hook", "agenthooks", "run", "--provider=claude-code"}
		if code := Run(context.Background(), r, argv, strings.NewReader(payload), &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
	}
	var got map[string]any
	if err := json.Unmarshal(during, &got); err != nil || got["stdout"] != "ok \"quoted\"\n" {
		t.Fatalf("Output() during the call = %s (%v)", during, err)
	}
	if !bytes.Equal(read.Output(), during) {
		t.Errorf("a read output must stay readable after the call: %s", read.Output())
	}
	if unread.Output() != nil {
		t.Errorf("an output never read during the call is gone after it: %s", unread.Output())
	}
	if string(read.Raw()) != payload {
		t.Errorf("Raw() read during the call = %q, want the payload verbatim", read.Raw())
	}
	if unread.Raw() != nil {
		t.Errorf("a Raw never read during the call is gone after it: %q", unread.Raw())
	}
}

// An event from Decode reads its output until Close; SetOutput builds one
// for tests.
func TestOutputOfDecodedEvents(t *testing.T) {
	ev, err := Decode("claude-code", []byte(`{"session_id":"s","hook_event_name":"PostToolUse",`+
		`"tool_name":"Read","tool_input":{"file_path":"/x"},"tool_use_id":"t","tool_response":"line\n"}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(ev.Output()) != `"line\n"` {
		t.Errorf("Output() = %s", ev.Output())
	}
	ev2, err := Decode("claude-code", []byte(`{"session_id":"s","hook_event_name":"PostToolUse",`+
		`"tool_name":"Read","tool_input":{},"tool_use_id":"t","tool_response":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	ev2.Close()
	if ev2.Output() != nil {
		t.Errorf("Output() after Close without a read = %s, want nil", ev2.Output())
	}
	pre, err := Decode("claude-code", []byte(`{"session_id":"s","hook_event_name":"PreToolUse",`+
		`"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer pre.Close()
	if pre.Output() != nil {
		t.Errorf("a PreToolUse has no output, got %s", pre.Output())
	}
	var e Event
	e.SetOutput(json.RawMessage(`{"a":1}`))
	if string(e.Output()) != `{"a":1}` || (&Event{}).Output() != nil {
		t.Errorf("SetOutput / zero Event")
	}
}

// A large output (kept unparsed by the core until read) reads whole, and
// an empty one padded past the core's threshold is no output.
func TestLargeOutputReadsWhole(t *testing.T) {
	stdout := strings.Repeat("line\twith \"quotes\" é\n", 8000)
	resp, _ := json.Marshal(map[string]any{"stdout": stdout, "exit_code": 0})
	payload := `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash",` +
		`"tool_input":{"command":"make"},"tool_use_id":"t","tool_response":` + string(resp) + `}`
	if len(payload) < 128*1024 {
		t.Fatalf("payload only %d bytes", len(payload))
	}
	ev, err := Decode("claude-code", []byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	var got map[string]any
	if err := json.Unmarshal(ev.Output(), &got); err != nil || got["stdout"] != stdout {
		t.Fatalf("Output() lost data (%v)", err)
	}
	padded := `{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{},` +
		`"tool_response":[` + strings.Repeat(" ", 70000) + `]}`
	ev2, err := Decode("claude-code", []byte(padded))
	if err != nil {
		t.Fatal(err)
	}
	defer ev2.Close()
	if ev2.Output() != nil {
		t.Errorf("a padded empty array is no output: %s", ev2.Output())
	}
}

// The raw payload is read from the core on demand: a hook whose stdin is a
// file (the core reads it itself) gets the exact bytes while the call
// runs, keeps them if it read them, and has nil after the call if it did
// not; an event from Decode reads them until Close.
func TestRawOnDemand(t *testing.T) {
	payload := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash",` +
		"\t" + `"tool_input":{"command":"ls \u00e9"},"tool_use_id":"t"}` + "\n"
	f, err := os.CreateTemp(t.TempDir(), "payload")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(payload); err != nil {
		t.Fatal(err)
	}
	var read, unread *Event
	var during json.RawMessage
	r := NewRouter()
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		if read == nil {
			read = e.Event
			during = e.Raw()
		} else {
			unread = e.Event
		}
		return NoDecision(), nil
	})
	for i := 0; i < 2; i++ {
		if _, err := f.Seek(0, 0); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		argv := []string{"hook", "agenthooks", "run", "--provider=claude-code"}
		if code := Run(context.Background(), r, argv, f, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
	}
	if string(during) != payload {
		t.Fatalf("Raw() during the call = %q, want the payload byte for byte", during)
	}
	if string(read.Raw()) != payload {
		t.Errorf("a read Raw must stay readable after the call: %q", read.Raw())
	}
	if unread == nil || unread.Raw() != nil {
		t.Errorf("a Raw never read during the call is gone after it")
	}

	ev, err := Decode("claude-code", []byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	if string(ev.Raw()) != payload {
		t.Errorf("Decode: Raw() = %q", ev.Raw())
	}
	ev.Close()
	if string(ev.Raw()) != payload {
		t.Errorf("Decode: a read Raw must survive Close")
	}
	ev2, err := Decode("claude-code", []byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	ev2.Close()
	if ev2.Raw() != nil {
		t.Errorf("Decode: Raw() after Close without a read = %q, want nil", ev2.Raw())
	}
	var e Event
	e.SetRaw(json.RawMessage(`{"a":1}`))
	e.SetOutput(json.RawMessage(`2`))
	if string(e.Raw()) != `{"a":1}` || string(e.Output()) != `2` || (&Event{}).Raw() != nil {
		t.Errorf("SetRaw / SetOutput / zero Event")
	}
}

// Raw is the payload the core decoded, not the bytes read from stdin: with
// a blank stdin and the legacy argv payload, it is the argv payload.
func TestRawIsTheArgvPayloadWhenStdinIsBlank(t *testing.T) {
	payload := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash",` +
		`"tool_input":{"command":"ls"},"tool_use_id":"t"}`
	var raw json.RawMessage
	r := NewRouter()
	r.OnToolPre(func(ctx context.Context, e *ToolPreEvent) (Decision, error) {
		raw = e.Raw()
		return NoDecision(), nil
	})
	for _, stdin := range []string{"", "\n", " \t\r\n"} {
		raw = nil
		var out, errb bytes.Buffer
		argv := []string{"hook", "agenthooks", "run", "--provider=claude-code", payload}
		if code := Run(context.Background(), r, argv, strings.NewReader(stdin), &out, &errb); code != 0 {
			t.Fatalf("stdin %q: exit %d: %s", stdin, code, errb.String())
		}
		if string(raw) != payload {
			t.Errorf("stdin %q: Raw() = %q, want the argv payload", stdin, raw)
		}
	}
}
