package agenthooks

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const blockingSettings = `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo blocked >&2; exit 2"}]}]}}`

func hostPayload(command string) json.RawMessage {
	j, _ := json.Marshal(map[string]any{
		"session_id": "s", "cwd": os.TempDir(), "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": command}, "tool_use_id": "t",
	})
	return j
}

func TestHostRunExit2Blocks(t *testing.T) {
	r, err := HostRun(context.Background(), HostRequest{
		Dialect: "claude-code",
		Configs: []HostConfig{{Source: "settings.json", Text: blockingSettings}},
		Event:   hostPayload("ls"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome.Decision != "deny" || r.Outcome.Reason != "blocked" {
		t.Errorf("outcome %+v", r.Outcome)
	}
	if len(r.Hooks) != 1 || r.Hooks[0].ExitCode == nil || *r.Hooks[0].ExitCode != 2 || r.Hooks[0].TimedOut {
		t.Errorf("hooks %+v", r.Hooks)
	}
	if r.Dialect != "claude-code" || r.Event != "PreToolUse" || len(r.Subjects) != 1 || r.Subjects[0] != "Bash" {
		t.Errorf("report %+v", r)
	}
	if len(r.Audit) == 0 || r.Warnings == nil {
		t.Errorf("audit %d records, warnings %v", len(r.Audit), r.Warnings)
	}
}

// TestHostRunSurvivesSIGPIPE: the hook exits without reading its stdin,
// so the library's write to it raises SIGPIPE on a thread Go does not
// know; the library blocks it (the test binary would die otherwise).
func TestHostRunSurvivesSIGPIPE(t *testing.T) {
	for i := 0; i < 50; i++ {
		r, err := HostRun(context.Background(), HostRequest{
			Dialect: "claude-code",
			Configs: []HostConfig{{Text: blockingSettings}},
			Event:   hostPayload("ls"),
		})
		if err != nil || r.Outcome.Decision != "deny" {
			t.Fatalf("run %d: %+v %v", i, r, err)
		}
	}
}

func TestHostRunOptionsAndNoMatch(t *testing.T) {
	r, err := HostRun(context.Background(), HostRequest{
		Dialect:        "claude-code",
		Configs:        []HostConfig{{Text: blockingSettings}},
		Event:          json.RawMessage(`{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{}}`),
		DefaultTimeout: 5e9,
		Sequential:     true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome.Decision != "" || len(r.Hooks) != 0 {
		t.Errorf("Write matched Bash: %+v", r)
	}
}

func TestHostRunErrors(t *testing.T) {
	// An invalid matcher skips its group, as the agent does, with a warning.
	r, err := HostRun(context.Background(), HostRequest{
		Dialect: "claude-code",
		Configs: []HostConfig{{Text: `{"hooks":{"PreToolUse":[{"matcher":"Bash(","hooks":[{"type":"command","command":"x"}]}]}}`}},
		Event:   hostPayload("ls"),
	})
	if err != nil || len(r.Hooks) != 0 || len(r.Warnings) != 1 || r.Warnings[0].Code != "invalid_regex" {
		t.Errorf("skipped group: %v %+v", err, r)
	}
	var e *Error
	_, err = HostRun(context.Background(), HostRequest{Dialect: "nope", Event: hostPayload("ls")})
	if !errors.As(err, &e) || e.Code == "" || e.Message == "" {
		t.Errorf("unknown dialect: %v", err)
	}
	_, err = HostRun(context.Background(), HostRequest{
		Dialect: "codex", Configs: []HostConfig{{Path: filepath.Join(t.TempDir(), "missing.json")}}, Event: hostPayload("ls"),
	})
	if !errors.Is(err, ErrIO) {
		t.Errorf("missing config file: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := HostRun(ctx, HostRequest{Dialect: "claude-code"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

// TestHostRunStrict: one bad group (a matcher Claude Code cannot compile)
// next to a good one. Without Strict the bad group is skipped, as the
// agent skips it, and the good hook runs; with Strict the whole
// configuration is refused with the diagnostics.
func TestHostRunStrict(t *testing.T) {
	mixed := `{"hooks":{"PreToolUse":[` +
		`{"matcher":"Bash(","hooks":[{"type":"command","command":"echo bad >&2; exit 2"}]},` +
		`{"matcher":"Bash","hooks":[{"type":"command","command":"echo good >&2; exit 2"}]}]}}`
	req := HostRequest{
		Dialect: "claude-code",
		Configs: []HostConfig{{Source: "settings.json", Text: mixed}},
		Event:   hostPayload("ls"),
	}
	r, err := HostRun(context.Background(), req)
	if err != nil {
		t.Fatalf("lenient run: %v", err)
	}
	if len(r.Hooks) != 1 || !strings.Contains(r.Hooks[0].Command, "good") ||
		r.Outcome.Decision != "deny" || r.Outcome.Reason != "good" {
		t.Errorf("the good hook alone should run: %+v", r)
	}
	if len(r.Warnings) != 1 || r.Warnings[0].Code != "invalid_regex" || r.Warnings[0].Severity != "error" {
		t.Errorf("warnings %+v", r.Warnings)
	}

	req.Strict = true
	r, err = HostRun(context.Background(), req)
	var e *Error
	if !errors.As(err, &e) || e.Code != "config_rejected" {
		t.Fatalf("strict run: want config_rejected, got %+v %v", r, err)
	}
	var details struct {
		Diagnostics []Diagnostic `json:"diagnostics"`
	}
	if err := json.Unmarshal(e.Details, &details); err != nil ||
		len(details.Diagnostics) != 1 || details.Diagnostics[0].Code != "invalid_regex" {
		t.Errorf("details %s: %v", e.Details, err)
	}
}

func TestMatcherTest(t *testing.T) {
	m, err := MatcherTest("codex", "(?i)^bash$", "BASH", "Write")
	if err != nil || len(m) != 2 || !m[0] || m[1] {
		t.Errorf("codex matcher: %v %v", m, err)
	}
	m, err = MatcherTest("claude-code", "Bash|Write")
	if err != nil || len(m) != 0 {
		t.Errorf("no subjects: %v %v", m, err)
	}
	var e *Error
	if _, err := MatcherTest("claude-code", "(?i)bash", "Bash"); !errors.As(err, &e) || e.Code == "" || e.Details == nil {
		t.Errorf("(?i) is not ECMAScript: %v", err)
	}
	if _, err := MatcherTest("nope", "x"); err == nil {
		t.Error("unknown dialect accepted")
	}
}

const testManifest = "id = \"guard\"\nprogram = \"/opt/guard\"\n\n[[hooks]]\nid = \"pre\"\nkind = \"tool.pre\"\nmatch = \"shell\"\n"

func TestInstallIntoTempProject(t *testing.T) {
	dir := t.TempDir()
	target := InstallTarget{Agent: "claude-code", Scope: "project", Project: dir, Home: dir, Env: map[string]string{}}
	settings := filepath.Join(dir, ".claude", "settings.json")

	dry := target
	dry.DryRun = true
	r, err := Install(testManifest, dry)
	if err != nil || r.Err() != nil || len(r.Results) != 1 || !r.Results[0].Changed || !strings.Contains(r.Results[0].Diff, "/opt/guard") {
		t.Fatalf("dry run: %+v %v", r, err)
	}
	if _, err := os.Stat(settings); !os.IsNotExist(err) {
		t.Fatalf("dry run wrote %s", settings)
	}

	r, err = Install(testManifest, target)
	if err != nil || r.Err() != nil || !r.Results[0].Changed || r.Results[0].Agent != "claude-code" || r.Results[0].Scope != "project" {
		t.Fatalf("install: %+v %v", r, err)
	}
	f := r.Results[0].Files
	if len(f) != 1 || f[0].Path != settings || f[0].Before != nil || f[0].After == nil {
		t.Errorf("files %+v", f)
	}
	text, err := os.ReadFile(settings)
	if err != nil || !strings.Contains(string(text), "/opt/guard") || !strings.Contains(string(text), "--provider=claude-code") {
		t.Fatalf("settings.json: %s %v", text, err)
	}
	if r, err := Install(testManifest, target); err != nil || r.Results[0].Changed {
		t.Errorf("second install changed something: %+v %v", r, err)
	}

	d, err := Doctor(InstallTarget{Project: dir, Home: dir, Env: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range d.Agents {
		for _, h := range a.Ours {
			found = found || (a.Agent == "claude-code" && h.HookID == "guard:pre" && h.Event == "PreToolUse")
		}
	}
	if !found {
		t.Errorf("doctor did not find the hook: %+v", d)
	}

	r, err = Uninstall(testManifest, target)
	if err != nil || r.Err() != nil || !r.Results[0].Changed {
		t.Errorf("uninstall: %+v %v", r, err)
	}
	if text, _ := os.ReadFile(settings); strings.Contains(string(text), "/opt/guard") {
		t.Errorf("uninstall left the hook: %s", text)
	}
}

func TestInstallErrors(t *testing.T) {
	dir := t.TempDir()
	var e *Error
	_, err := Install("[[[", InstallTarget{Project: dir, Home: dir, Env: map[string]string{}})
	if !errors.As(err, &e) || e.Code != "manifest" {
		t.Errorf("bad manifest: %v", err)
	}
	_, err = Install(testManifest, InstallTarget{Agent: "nope", Project: dir, Home: dir})
	if !errors.Is(err, ErrUnknownProvider) {
		t.Errorf("unknown agent: %v", err)
	}
	_, err = Install(testManifest, InstallTarget{Scope: "galaxy", Project: dir, Home: dir})
	if !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("bad scope: %v", err)
	}
}

// TestInstallThenHostRun closes the loop: the Go example guard installed
// into a temporary project denies `rm -rf` when that project's
// settings.json is run the way Claude Code runs it.
func TestInstallThenHostRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds examples/guard")
	}
	dir := t.TempDir()
	manifest := strings.Replace(testManifest, "/opt/guard", goGuard(t), 1)
	target := InstallTarget{Agent: "claude-code", Scope: "project", Project: dir, Home: dir, Env: map[string]string{}}
	if r, err := Install(manifest, target); err != nil || r.Err() != nil {
		t.Fatalf("install: %+v %v", r, err)
	}
	run := func(command string) *HostReport {
		r, err := HostRun(context.Background(), HostRequest{
			Dialect:    "claude-code",
			Configs:    []HostConfig{{Path: filepath.Join(dir, ".claude", "settings.json")}},
			Event:      hostPayload(command),
			Cwd:        dir,
			ProjectDir: dir,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Hooks) != 1 {
			t.Fatalf("%q: hooks %+v", command, r.Hooks)
		}
		return r
	}
	if r := run("rm -rf /"); r.Outcome.Decision != "deny" {
		t.Errorf("rm -rf: outcome %+v, hook %s", r.Outcome, r.Hooks[0].Output)
	}
	if r := run("ls"); r.Outcome.Decision == "deny" {
		t.Errorf("ls: outcome %+v", r.Outcome)
	}
}
