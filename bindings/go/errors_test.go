package agenthooks

import (
	"errors"
	"fmt"
	"sort"
	"testing"
)

func TestSentinelsCoverEveryLibraryCode(t *testing.T) {
	// Status 99 (AH_ERR_UNKNOWN) has the id "unknown", which the table
	// walk cannot tell from "no such status".
	lib := append(libraryStatusIDs(), "unknown")
	var ours []string
	for _, s := range sentinels {
		ours = append(ours, s.Code)
	}
	sort.Strings(lib)
	sort.Strings(ours)
	if fmt.Sprint(lib) != fmt.Sprint(ours) {
		t.Fatalf("library codes %v\n    sentinels %v", lib, ours)
	}
}

func TestErrorsIs(t *testing.T) {
	_, err := Decode("codex", []byte("{nope"))
	if !errors.Is(err, ErrInvalidJSON) || errors.Is(err, ErrTooDeep) {
		t.Fatalf("errors.Is: %v", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Code != "invalid_json" || e.Message == "" {
		t.Fatalf("errors.As: %+v", e)
	}
	wrapped := fmt.Errorf("hook: %w", err)
	if !errors.Is(wrapped, ErrInvalidJSON) {
		t.Fatal("wrapped error")
	}
	if _, err := Decode("vim", []byte("{}")); !errors.Is(err, ErrUnknownProvider) {
		t.Fatalf("unknown provider: %v", err)
	}
	if _, err := Decode("codex", []byte{0xff}); !errors.Is(err, ErrInvalidUTF8) {
		t.Fatalf("invalid utf8: %v", err)
	}
	if _, err := Decode("codex", []byte(`{"hook_event_name":"PreToolUse"}`), WithDetection("guess")); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("bad detection: %v", err)
	}
	if _, err := Decode("codex", []byte(`{"hook_event_name":"Stop"}`), WithMaxBytes(5)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("max bytes: %v", err)
	}
}

func TestEventLifecycle(t *testing.T) {
	ev, err := Decode("claude", []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","n":12345678901234567890},"tool_use_id":"t"}`))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Provider != "claude-code" || ev.Kind != KindToolPre || ev.Tool.Command != "ls" {
		t.Fatalf("%+v", ev)
	}
	if n := fmt.Sprint(ev.Tool.Input["n"]); n != "12345678901234567890" {
		t.Fatalf("numbers stay exact: %s", n)
	}
	r, err := ev.Respond(Deny("no"), Policy{})
	if err != nil || r.ExitCode != 0 || r.Stdout == "" {
		t.Fatalf("respond: %+v %v", r, err)
	}
	if _, err := ev.Respond(Finish(), Policy{}); !errors.Is(err, ErrInvalidDecision) {
		t.Fatalf("invalid decision: %v", err)
	} else if fr, ferr := ev.FailResponse(err, Policy{Fail: FailClosed}); ferr != nil || fr.Notes[0].Code != "fail_closed" {
		t.Fatalf("fail response: %+v %v", fr, ferr)
	}
	if _, err := ev.Respond(Ask("x"), Policy{Unsupported: UnsupportedStrict, Fail: "sideways"}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("bad policy: %v", err)
	}
	fr, err := ev.FailResponse(errors.New("plain"), Policy{})
	if err != nil || fr.Notes[0].From != "handler_error" {
		t.Fatalf("plain error: %+v %v", fr, err)
	}
	ev.Close()
	ev.Close()
	if _, err := ev.Respond(Allow(), Policy{}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("closed event: %v", err)
	}
	if _, err := ev.JSON(); err == nil {
		t.Fatal("closed event JSON")
	}
}

func TestInfo(t *testing.T) {
	if id, err := ParseProvider("gemini-cli"); err != nil || id != "gemini" {
		t.Fatalf("%s %v", id, err)
	}
	caps, err := Capabilities("codex")
	if err != nil || len(caps) == 0 || caps[0].Provider != "codex" {
		t.Fatalf("%+v %v", caps, err)
	}
	c, err := CapabilityOf("codex", "PreToolUse")
	if err != nil || c.Kind != KindToolPre || !c.CanBlock {
		t.Fatalf("%+v %v", c, err)
	}
	if _, err := Capabilities("vim"); !errors.Is(err, ErrUnknownProvider) {
		t.Fatal(err)
	}
	d, err := Detect("", nil, map[string]string{}, []byte(`{"conversation_id":"c","generation_id":"g","hook_event_name":"beforeShellExecution","command":"ls"}`))
	if err != nil || d.Provider != "cursor" || d.Detection != "shape" {
		t.Fatalf("%+v %v", d, err)
	}
	if d, err := Detect("claude", []string{"guard", "agenthooks"}, nil, nil); err != nil || d.Detection != "config" {
		t.Fatalf("%+v %v", d, err)
	}
	if _, err := Detect("", nil, map[string]string{}, []byte(`{}`)); !errors.Is(err, ErrUnknownProvider) {
		t.Fatal(err)
	}
	if Version() == "" || libraryABIVersion() != abiVersion {
		t.Fatal("versions")
	}
}

func TestParseArgs(t *testing.T) {
	a, err := ParseArgs([]string{"/bin/guard", "agenthooks", "run", "--provider=codex", "--timeout", "20", "--fail=closed"})
	if err != nil || a.Provider != "codex" || *a.TimeoutS != 20 || a.Fail != FailClosed || a.ArgvPayload {
		t.Fatalf("%+v %v", a, err)
	}
	if a, err := ParseArgs([]string{"guard", "x"}); a != nil || err != nil {
		t.Fatalf("absent: %+v %v", a, err)
	}
	if _, err := ParseArgs([]string{"g", "agenthooks", "run", "--bogus=1"}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatal(err)
	}
	a, err = ParseArgs([]string{"g", "agenthooks", "run", "--provider=cursor", `{"hook_event_name":"beforeShellExecution","command":"ls"}`})
	if err != nil || !a.ArgvPayload {
		t.Fatalf("argv payload: %+v %v", a, err)
	}
}

func TestQuirks(t *testing.T) {
	all, err := Quirks("")
	if err != nil || len(all) == 0 || all[0].ID == "" || all[0].Mitigation == "" {
		t.Fatalf("%d %v", len(all), err)
	}
	mine, err := Quirks("claude")
	if err != nil || len(mine) == 0 || len(mine) >= len(all) {
		t.Fatalf("%d of %d, %v", len(mine), len(all), err)
	}
	for _, q := range mine {
		if q.Provider != "claude-code" {
			t.Fatalf("%+v", q)
		}
	}
	if _, err := Quirks("vim"); !errors.Is(err, ErrUnknownProvider) {
		t.Fatal(err)
	}
}
