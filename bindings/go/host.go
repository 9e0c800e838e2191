package agenthooks

/*
#include "agenthooks.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"time"
)

// The host side (run a Claude Code / Codex hook configuration the way that
// agent would, test matchers) and install / uninstall / doctor. Each is one
// JSON request through the C ABI (ah_host_run_json, ah_matcher_json,
// ah_install_json); the structs below mirror those JSON shapes.

// HostRequest asks HostRun to run the hooks of a configuration for one
// event.
type HostRequest struct {
	// Dialect is "claude-code" or "codex".
	Dialect string `json:"dialect"`
	// Configs are settings.json / hooks.json documents, in precedence order.
	Configs []HostConfig `json:"configs,omitempty"`
	// Plugins are plugin hooks.json documents with their roots.
	Plugins []HostPlugin `json:"plugins,omitempty"`
	// Event is the hook payload the agent would send (or a canonical event
	// with kind and native_name).
	Event json.RawMessage `json:"event"`
	// EventProvider names who sent Event (default: the dialect).
	EventProvider string `json:"event_provider,omitempty"`
	// Cwd and ProjectDir are the hooks' working and project directories.
	Cwd        string `json:"cwd,omitempty"`
	ProjectDir string `json:"project_dir,omitempty"`
	// DefaultTimeout applies to hooks that set none (0: the agent's default).
	DefaultTimeout time.Duration `json:"-"`
	// OutputCap limits the bytes kept of each hook's output (0: default).
	OutputCap int `json:"output_cap,omitempty"`
	// Sequential runs the hooks one after another instead of in parallel.
	Sequential bool `json:"sequential,omitempty"`
	// Strict refuses a configuration with any bad entry (an *Error with
	// Code "config_rejected"). Without it a bad entry is skipped, exactly
	// as the agent skips it, and reported in HostReport.Warnings.
	Strict bool `json:"strict,omitempty"`
}

// HostConfig is one configuration document: Text (labelled Source), or a
// Path to read.
type HostConfig struct {
	Source string `json:"source,omitempty"`
	Text   string `json:"text,omitempty"`
	Path   string `json:"path,omitempty"`
}

// HostPlugin is a plugin's hooks.json document and its root directory.
type HostPlugin struct {
	Root  string          `json:"root"`
	Hooks json.RawMessage `json:"hooks"`
}

// HostReport is what running the hooks for one event gave.
type HostReport struct {
	Dialect  string   `json:"dialect"`
	Event    string   `json:"event"`
	Subjects []string `json:"subjects"`
	// Outcome is the merged result the agent would act on.
	Outcome HostOutcome `json:"outcome"`
	// Hooks lists every hook that ran, in configuration order.
	Hooks []HookRun `json:"hooks"`
	// Audit is the record of the run (invoked / result records).
	Audit []json.RawMessage `json:"audit"`
	// Warnings are every diagnostic: entries skipped as the agent skips
	// them (Severity "error"), caveats, and per-event ones
	// (matcher_undecided, cwd_missing).
	Warnings []Diagnostic `json:"warnings"`
}

// HostOutcome is the merged decision of the hooks (empty Decision: no
// hook decided; the agent's normal flow applies).
type HostOutcome struct {
	Decision           string                     `json:"decision,omitempty"`
	Reason             string                     `json:"reason,omitempty"`
	Stop               json.RawMessage            `json:"stop,omitempty"`
	Contexts           []string                   `json:"contexts,omitempty"`
	SystemMessages     []string                   `json:"system_messages,omitempty"`
	UpdatedInput       map[string]any             `json:"updated_input,omitempty"`
	UpdatedToolOutput  json.RawMessage            `json:"updated_tool_output,omitempty"`
	UpdatedPermissions json.RawMessage            `json:"updated_permissions,omitempty"`
	Interrupt          bool                       `json:"interrupt,omitempty"`
	Extra              map[string]json.RawMessage `json:"extra,omitempty"`
	Conflicts          []json.RawMessage          `json:"conflicts,omitempty"`
	Errors             []json.RawMessage          `json:"errors,omitempty"`
}

// HookRun is one hook that ran.
type HookRun struct {
	Hook    string `json:"hook"`
	Command string `json:"command"`
	// ExitCode is nil when the hook was killed, timed out or never started.
	ExitCode *int `json:"exit_code"`
	TimedOut bool `json:"timed_out"`
	// Output is how the agent reads the hook's answer.
	Output json.RawMessage `json:"output"`
}

// Diagnostic is a configuration or matcher problem found by the dialect's
// rules.
type Diagnostic struct {
	Agent        string `json:"agent"`
	Source       string `json:"source,omitempty"`
	Event        string `json:"event"`
	GroupIndex   *int   `json:"group_index,omitempty"`
	HandlerIndex *int   `json:"handler_index,omitempty"`
	Pattern      string `json:"pattern,omitempty"`
	Code         string `json:"code"`
	Severity     string `json:"severity"`
	Reason       string `json:"reason"`
}

// Each ah_*_json entry point is called from its own closure (jsonCall
// takes it as a value): a hook that never calls HostRun, Install or the
// test kit then references none of them, and a link with --gc-sections
// drops them and the host code, regex engines and TOML parser behind them
// (bindings/go/README.md, "Building a hook for speed").

func hostRunJSON(p *C.uint8_t, n C.size_t, b **C.ah_buf, e **C.ah_error) C.ah_status {
	return C.ah_host_run_json(p, n, b, e)
}

func matcherJSON(p *C.uint8_t, n C.size_t, b **C.ah_buf, e **C.ah_error) C.ah_status {
	return C.ah_matcher_json(p, n, b, e)
}

func installJSON(p *C.uint8_t, n C.size_t, b **C.ah_buf, e **C.ah_error) C.ah_status {
	return C.ah_install_json(p, n, b, e)
}

// HostRun runs the hooks of a Claude Code or Codex configuration for one
// event, exactly as that agent would (the same as `agenthooks host run`),
// and reports the merged outcome, every hook's run and the audit record.
// A bad configuration entry is skipped, as the agent skips it, and
// reported in Warnings; only with req.Strict is a configuration with a bad
// entry refused, as an *Error with Code "config_rejected" whose Details
// hold the diagnostics. ctx is checked
// before the hooks start; a run in progress is bounded by the hooks'
// timeouts, not by ctx.
func HostRun(ctx context.Context, req HostRequest) (*HostReport, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type wire HostRequest
	body := struct {
		wire
		DefaultTimeoutS float64 `json:"default_timeout_s,omitempty"`
	}{wire: wire(req), DefaultTimeoutS: req.DefaultTimeout.Seconds()}
	if len(body.Event) == 0 {
		body.Event = json.RawMessage("{}")
	}
	j, err := json.Marshal(body)
	if err != nil {
		return nil, newError("invalid_argument", "host request: %v", err)
	}
	var r HostReport
	if err := jsonCall(hostRunJSON, j, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// MatcherTest compiles pattern in a dialect's matcher flavour ("claude-code":
// ECMAScript-like, "codex": Rust regex) and reports, per subject, whether
// it matches. A pattern the dialect rejects is an *Error whose Details
// hold the diagnostic.
func MatcherTest(dialect, pattern string, subjects ...string) ([]bool, error) {
	if subjects == nil {
		subjects = []string{}
	}
	j, err := json.Marshal(map[string]any{"dialect": dialect, "pattern": pattern, "subjects": subjects})
	if err != nil {
		return nil, newError("invalid_argument", "matcher request: %v", err)
	}
	var r struct {
		Matches []bool `json:"matches"`
	}
	if err := jsonCall(matcherJSON, j, &r); err != nil {
		return nil, err
	}
	return r.Matches, nil
}

// InstallTarget says where Install, Uninstall and Doctor work. Zero
// values take the defaults: every agent, project scope, the current
// directory, $HOME and the process environment.
type InstallTarget struct {
	// Agent is an agent id, a comma-separated list ("codex,cursor") or
	// "all" (the default).
	Agent string
	// Scope is "user", "project" (the default) or "local".
	Scope string
	// Project and Home are the project and home directories.
	Project string
	Home    string
	// Env stands in for the process environment (CODEX_HOME, ...) when
	// not nil.
	Env map[string]string
	// DryRun plans the change (Files, Diff) without writing anything.
	DryRun bool
	// CursorEvents limits the Cursor events installed.
	CursorEvents []string
	// Run makes Doctor probe each installed hook by running it.
	Run bool
}

// InstallReport is what Install or Uninstall did (or, with DryRun,
// would do), per agent.
type InstallReport struct {
	Results []InstallResult `json:"results"`
}

// InstallResult is one agent's part. Error is set when that agent failed;
// the other fields then are empty.
type InstallResult struct {
	Agent   string       `json:"agent"`
	Scope   string       `json:"scope"`
	Changed bool         `json:"changed"`
	Files   []FileChange `json:"files"`
	Diff    string       `json:"diff"`
	Notes   []string     `json:"notes"`
	Error   *Error       `json:"error,omitempty"`
}

// FileChange is one configuration file written (Before nil: created;
// After nil: removed).
type FileChange struct {
	Path   string  `json:"path"`
	Before *string `json:"before"`
	After  *string `json:"after"`
}

// Err returns the first agent's error, or nil when every agent succeeded.
func (r *InstallReport) Err() error {
	for _, res := range r.Results {
		if res.Error != nil {
			return res.Error
		}
	}
	return nil
}

// DoctorReport is what Doctor found, per agent.
type DoctorReport struct {
	Agents []DoctorAgent `json:"agents"`
}

// DoctorAgent is one agent's installed hooks.
type DoctorAgent struct {
	Agent    string        `json:"agent"`
	Found    string        `json:"found"`
	Files    []string      `json:"files"`
	Ours     []HookEntry   `json:"ours"`
	Others   []HookEntry   `json:"others"`
	Warnings []string      `json:"warnings"`
	Probes   []DoctorProbe `json:"probes"`
}

// HookEntry is one hook command found in an agent's configuration.
type HookEntry struct {
	File     string `json:"file"`
	Event    string `json:"event"`
	Command  string `json:"command"`
	HookID   string `json:"hook_id,omitempty"`
	Provider string `json:"provider,omitempty"`
}

// DoctorProbe is the result of running one installed hook (InstallTarget.Run).
type DoctorProbe struct {
	HookID   string `json:"hook_id"`
	Event    string `json:"event"`
	OK       bool   `json:"ok"`
	ExitCode *int   `json:"exit_code"`
	Ms       uint64 `json:"ms"`
	Stdout   string `json:"stdout"`
	Detail   string `json:"detail"`
}

func installRequest(action, manifest string, t InstallTarget) ([]byte, error) {
	req := map[string]any{"action": action}
	if action != "doctor" {
		req["manifest"] = manifest
		req["dry_run"] = t.DryRun
	}
	set := func(k, v string) {
		if v != "" {
			req[k] = v
		}
	}
	set("agent", t.Agent)
	set("scope", t.Scope)
	set("project", t.Project)
	set("home", t.Home)
	if t.Env != nil {
		req["env"] = t.Env
	}
	if t.CursorEvents != nil {
		req["cursor_events"] = t.CursorEvents
	}
	if t.Run {
		req["run"] = true
	}
	j, err := json.Marshal(req)
	if err != nil {
		return nil, newError("invalid_argument", "install request: %v", err)
	}
	return j, nil
}

func installAction(action, manifest string, t InstallTarget) (*InstallReport, error) {
	j, err := installRequest(action, manifest, t)
	if err != nil {
		return nil, err
	}
	var r InstallReport
	if err := jsonCall(installJSON, j, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Install writes the hooks of a manifest (hooks.toml or hooks.json text)
// into each target agent's configuration (the same as `agenthooks
// install`). Idempotent: a second install changes nothing. A bad request
// or manifest is an *Error (Code "invalid_argument", "manifest", ...); an
// agent that failed is reported in its InstallResult (see
// InstallReport.Err).
func Install(manifest string, target InstallTarget) (*InstallReport, error) {
	return installAction("install", manifest, target)
}

// Uninstall removes the hooks of a manifest from each target agent's
// configuration, leaving every other hook in place. Errors as for Install.
func Uninstall(manifest string, target InstallTarget) (*InstallReport, error) {
	return installAction("uninstall", manifest, target)
}

// Doctor reports, per agent, which configuration files exist and which
// hooks (ours and others) they hold; with target.Run it also runs each of
// our hooks once.
func Doctor(target InstallTarget) (*DoctorReport, error) {
	j, err := installRequest("doctor", "", target)
	if err != nil {
		return nil, err
	}
	var r DoctorReport
	if err := jsonCall(installJSON, j, &r); err != nil {
		return nil, err
	}
	return &r, nil
}
