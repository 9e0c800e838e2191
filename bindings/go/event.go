package agenthooks

import "encoding/json"

// Kind is the unified kind of an event (Claude-shaped taxonomy).
type Kind string

// Every unified kind.
const (
	KindSessionStart      Kind = "session.start"
	KindSessionEnd        Kind = "session.end"
	KindPromptSubmitted   Kind = "prompt.submitted"
	KindToolPre           Kind = "tool.pre"
	KindToolPost          Kind = "tool.post"
	KindToolError         Kind = "tool.error"
	KindPermissionRequest Kind = "permission.request"
	KindAgentStop         Kind = "agent.stop"
	KindSubagentStart     Kind = "subagent.start"
	KindSubagentStop      Kind = "subagent.stop"
	KindCompactPre        Kind = "compact.pre"
	KindCompactPost       Kind = "compact.post"
	KindNotification      Kind = "notification"
	KindFileEdited        Kind = "file.edited"
	KindModelRequest      Kind = "model.request"
	KindModelResponse     Kind = "model.response"
	KindOther             Kind = "other"
)

// Canonical is the class of a tool, whatever the agent calls it.
type Canonical string

// Every canonical tool class.
const (
	CanonicalShell     Canonical = "shell"
	CanonicalFileRead  Canonical = "file.read"
	CanonicalFileWrite Canonical = "file.write"
	CanonicalFileEdit  Canonical = "file.edit"
	CanonicalSearch    Canonical = "search"
	CanonicalFetch     Canonical = "fetch"
	CanonicalTask      Canonical = "task"
	CanonicalMCP       Canonical = "mcp"
	CanonicalOther     Canonical = "other"
)

// Event is one hook event from any agent: the canonical JSON
// (docs/canonical-json.md) as Go values. The raw payload (Raw) and the
// tool output (Output) are read on demand, so a hook that does not look at
// them never copies or decodes them.
//
// Events from Decode own a native handle (for Respond); Close it when
// done, or leave it to the garbage collector. Events passed to handlers
// by Main/Run are plain data but for Output, which they read from the
// core while the hook call runs.
type Event struct {
	Provider   string  `json:"provider"`
	Variant    string  `json:"variant,omitempty"`
	NativeName string  `json:"native_name"`
	Kind       Kind    `json:"kind"`
	Detection  string  `json:"detection,omitempty"`
	Session    Session `json:"session"`
	// Agent is set only inside a subagent.
	Agent *Agent `json:"agent,omitempty"`
	// Tool is set on tool.pre, tool.post, tool.error and permission.request.
	Tool   *ToolCall `json:"tool,omitempty"`
	Prompt string    `json:"prompt,omitempty"`
	Failed bool      `json:"failed,omitempty"`
	Error  string    `json:"error,omitempty"`
	// DurationMs is nil when the agent did not report it.
	DurationMs   *uint64   `json:"duration_ms,omitempty"`
	Stop         *StopInfo `json:"stop,omitempty"`
	Source       string    `json:"source,omitempty"`
	Reason       string    `json:"reason,omitempty"`
	Trigger      string    `json:"trigger,omitempty"`
	Instructions string    `json:"instructions,omitempty"`
	Message      string    `json:"message,omitempty"`
	Path         string    `json:"path,omitempty"`
	Backfilled   bool      `json:"backfilled,omitempty"`

	native *nativeEvent
	output *lazyOutput
}

// Session holds session-level facts.
type Session struct {
	ID             string   `json:"id,omitempty"`
	TurnID         string   `json:"turn_id,omitempty"`
	Cwd            string   `json:"cwd,omitempty"`
	WorkspaceRoots []string `json:"workspace_roots,omitempty"`
	TranscriptPath string   `json:"transcript_path,omitempty"`
	Model          string   `json:"model,omitempty"`
	PermissionMode string   `json:"permission_mode,omitempty"`
	UserEmail      string   `json:"user_email,omitempty"`
}

// Agent is the subagent an event comes from.
type Agent struct {
	ID   string `json:"id,omitempty"`
	Type string `json:"type,omitempty"`
}

// ToolCall is one tool call, normalized. Input is always an object;
// RawInput is what the agent sent. Numbers in Input are json.Number, so
// a rewrite (Decision.UpdatedInput) keeps them exact.
type ToolCall struct {
	ID          string          `json:"id,omitempty"`
	Synthesized bool            `json:"synthesized,omitempty"`
	Name        string          `json:"name"`
	Canonical   Canonical       `json:"canonical"`
	MCP         *MCPInfo        `json:"mcp,omitempty"`
	Input       map[string]any  `json:"input,omitempty"`
	RawInput    json.RawMessage `json:"raw_input,omitempty"`
	Command     string          `json:"command,omitempty"`
	Paths       []string        `json:"paths,omitempty"`
	Pattern     string          `json:"pattern,omitempty"`
	Glob        string          `json:"glob,omitempty"`
}

// MCPInfo names the MCP server and tool behind an MCP tool call.
type MCPInfo struct {
	Server  string `json:"server,omitempty"`
	Tool    string `json:"tool,omitempty"`
	URL     string `json:"url,omitempty"`
	Command string `json:"command,omitempty"`
}

// StopInfo holds stop-event facts and the loop guard.
type StopInfo struct {
	// PreviouslyContinued: the agent is already continuing because a stop
	// hook said so.
	PreviouslyContinued bool `json:"previously_continued,omitempty"`
	// LoopCount: consecutive continuations so far (nil when unknown).
	LoopCount    *uint64 `json:"loop_count,omitempty"`
	FinalMessage string  `json:"final_message,omitempty"`
	Usage        Usage   `json:"usage"`
}

// Usage is token and cost usage reported with a stop; nil when absent.
type Usage struct {
	InputTokens      *uint64  `json:"input_tokens,omitempty"`
	OutputTokens     *uint64  `json:"output_tokens,omitempty"`
	CacheReadTokens  *uint64  `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens *uint64  `json:"cache_write_tokens,omitempty"`
	Cost             *float64 `json:"cost,omitempty"`
	LoopCount        *uint64  `json:"loop_count,omitempty"`
	Status           string   `json:"status,omitempty"`
}

// IsSubagent reports whether the event comes from inside a subagent.
func (e *Event) IsSubagent() bool {
	return e.Agent != nil || e.Kind == KindSubagentStart || e.Kind == KindSubagentStop
}
