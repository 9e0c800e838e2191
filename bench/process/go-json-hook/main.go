// Command go-json-hook is the reference a Go binding is measured against
// when no peer library is at hand: a Claude Code hook written in plain Go
// with encoding/json (no cgo, no agenthooks), doing what the guard does on
// the benchmark's payloads. It decodes the whole payload once (the tool
// input and output kept as json.RawMessage), as a pure-Go hook library
// does, denies `rm -rf` and answers "no opinion" otherwise. It knows one
// agent and none of the protocol's rules: a floor, not a competitor.
package main

import (
	"encoding/json"
	"io"
	"os"
	"strings"
)

type payload struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	PermissionMode string          `json:"permission_mode"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	ToolUseID      string          `json:"tool_use_id"`
}

func main() {
	b, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var p payload
	if err := json.Unmarshal(b, &p); err != nil {
		os.Exit(1)
	}
	out := map[string]any{}
	if p.HookEventName == "PreToolUse" && p.ToolName == "Bash" {
		var in struct {
			Command string `json:"command"`
		}
		_ = json.Unmarshal(p.ToolInput, &in)
		if strings.Contains(in.Command, "rm -rf") {
			out["hookSpecificOutput"] = map[string]any{
				"hookEventName":            "PreToolUse",
				"permissionDecision":       "deny",
				"permissionDecisionReason": "destructive command: " + in.Command,
			}
			out["systemMessage"] = "agenthooks guard blocked a destructive shell command"
		}
	}
	j, _ := json.Marshal(out)
	os.Stdout.Write(j)
}
