package agenthooks

/*
#include "agenthooks.h"
*/
import "C"

import (
	"encoding/json"
)

func mcpResolveJSON(p *C.uint8_t, n C.size_t, b **C.ah_buf, e **C.ah_error) C.ah_status {
	return C.ah_mcp_resolve_json(p, n, b, e)
}

func transcriptPageJSON(p *C.uint8_t, n C.size_t, b **C.ah_buf, e **C.ah_error) C.ah_status {
	return C.ah_transcript_page_json(p, n, b, e)
}

// MCPTransport is what an MCP server is, as the agent's own configuration
// defines it. Env values and headers are never reported.
type MCPTransport struct {
	Server string `json:"server"`
	// Transport is "stdio", "http" or "sse" (or the agent's own word).
	Transport string   `json:"transport"`
	Command   string   `json:"command,omitempty"`
	Args      []string `json:"args,omitempty"`
	URL       string   `json:"url,omitempty"`
	// FromConfig is false only for Scope "payload" (the hook payload named
	// the server's url or command itself, e.g. Cursor).
	FromConfig bool   `json:"from_config"`
	ConfigPath string `json:"config_path,omitempty"`
	// Scope is "user", "local" or "flag" (the user's own configuration),
	// "project" (a file the repository brought: it can lie), "plugin" or
	// "payload".
	Scope string `json:"scope"`
}

// MCPLookup is an explicit lookup in a given HOME / project tree (tests,
// tools); Event.MCPTransport does the same for the running hook.
type MCPLookup struct {
	Provider       string            `json:"provider"`
	Server         string            `json:"server"`
	Cwd            string            `json:"cwd,omitempty"`
	Home           string            `json:"home,omitempty"`
	Env            map[string]string `json:"env,omitempty"`
	AgentArgv      []string          `json:"agent_argv,omitempty"`
	PayloadURL     *string           `json:"payload_url,omitempty"`
	PayloadCommand *string           `json:"payload_command,omitempty"`
}

// ResolveMCPTransport looks a server up in the agent's configuration; nil
// when no configuration names it.
func ResolveMCPTransport(l MCPLookup) (*MCPTransport, error) {
	req, err := json.Marshal(l)
	if err != nil {
		return nil, newError("invalid_argument", "MCP lookup: %v", err)
	}
	var out struct {
		Transport *MCPTransport `json:"transport"`
	}
	if err := jsonCall(mcpResolveJSON, req, &out); err != nil {
		return nil, err
	}
	return out.Transport, nil
}

// MCPTransport resolves the transport of the MCP server this event's tool
// call names, lazily, from the agent's own MCP configuration (HOME, the
// agent's argv for Claude's --mcp-config / --strict-mcp-config), cached
// per session in the state directory. nil when the event is not an MCP
// tool call or no configuration names the server.
func (e *Event) MCPTransport() (*MCPTransport, error) {
	if e == nil || e.Tool == nil || e.Tool.MCP == nil {
		return nil, nil
	}
	ev, err := e.JSON()
	if err != nil {
		return nil, err
	}
	req, err := json.Marshal(map[string]json.RawMessage{"event": ev})
	if err != nil {
		return nil, newError("invalid_argument", "MCP lookup: %v", err)
	}
	var out struct {
		Transport *MCPTransport `json:"transport"`
	}
	if err := jsonCall(mcpResolveJSON, req, &out); err != nil {
		return nil, err
	}
	return out.Transport, nil
}

// TranscriptToolCall is a tool call found in a transcript record.
type TranscriptToolCall struct {
	ID    string         `json:"id,omitempty"`
	Name  string         `json:"name"`
	Input map[string]any `json:"input"`
}

// TranscriptToolResult is a tool result found in a transcript record.
type TranscriptToolResult struct {
	ID      string          `json:"id,omitempty"`
	Output  json.RawMessage `json:"output,omitempty"`
	IsError bool            `json:"is_error,omitempty"`
}

// TranscriptEntry is one line of a transcript. Kind is "message", "meta",
// "unknown", "invalid" or "too_long" (a line over the cap, skipped unread;
// Bytes is its length). Raw holds meta and unknown records and the text of
// invalid lines.
type TranscriptEntry struct {
	Line        uint64                 `json:"line"`
	Offset      uint64                 `json:"offset"`
	Kind        string                 `json:"kind"`
	Format      string                 `json:"format,omitempty"`
	Type        string                 `json:"type,omitempty"`
	Role        string                 `json:"role,omitempty"`
	Text        string                 `json:"text,omitempty"`
	ToolCalls   []TranscriptToolCall   `json:"tool_calls,omitempty"`
	ToolResults []TranscriptToolResult `json:"tool_results,omitempty"`
	Timestamp   string                 `json:"timestamp,omitempty"`
	Bytes       *uint64                `json:"bytes,omitempty"`
	Raw         json.RawMessage        `json:"raw,omitempty"`
}

// TranscriptOptions tune a TranscriptReader; zero values are defaults.
type TranscriptOptions struct {
	// Format is "auto" (default) or a provider id.
	Format string
	// MaxLineBytes caps one line (default 4 MiB).
	MaxLineBytes int
	// PageSize is how many lines one native call reads (default 256).
	PageSize int
}

// TranscriptReader streams a transcript file (Event.Session.TranscriptPath)
// with bounded memory:
//
//	r := agenthooks.NewTranscriptReader(path, agenthooks.TranscriptOptions{})
//	for r.Next() {
//		e := r.Entry()
//		...
//	}
//	if err := r.Err(); err != nil { ... }
type TranscriptReader struct {
	path   string
	opts   TranscriptOptions
	offset uint64
	line   uint64
	page   []TranscriptEntry
	at     int
	cur    TranscriptEntry
	done   bool
	err    error
}

// NewTranscriptReader reads path; nothing is opened until Next.
func NewTranscriptReader(path string, opts TranscriptOptions) *TranscriptReader {
	return &TranscriptReader{path: path, opts: opts, line: 1}
}

// Next advances to the next entry; false at the end or on an error.
func (r *TranscriptReader) Next() bool {
	for r.at >= len(r.page) {
		if r.done || r.err != nil {
			return false
		}
		r.fetch()
	}
	r.cur = r.page[r.at]
	r.page[r.at] = TranscriptEntry{}
	r.at++
	return true
}

func (r *TranscriptReader) fetch() {
	req := map[string]any{"path": r.path, "offset": r.offset, "line": r.line}
	if r.opts.Format != "" {
		req["format"] = r.opts.Format
	}
	if r.opts.MaxLineBytes > 0 {
		req["max_line_bytes"] = r.opts.MaxLineBytes
	}
	if r.opts.PageSize > 0 {
		req["max_entries"] = r.opts.PageSize
	}
	body, err := json.Marshal(req)
	if err != nil {
		r.err = newError("invalid_argument", "transcript request: %v", err)
		return
	}
	var page struct {
		Entries    []TranscriptEntry `json:"entries"`
		NextOffset uint64            `json:"next_offset"`
		NextLine   uint64            `json:"next_line"`
		Done       bool              `json:"done"`
	}
	if err := jsonCall(transcriptPageJSON, body, &page); err != nil {
		r.err = err
		return
	}
	r.page, r.at = page.Entries, 0
	r.offset, r.line, r.done = page.NextOffset, page.NextLine, page.Done
}

// Entry is the current entry (valid after Next returned true).
func (r *TranscriptReader) Entry() TranscriptEntry { return r.cur }

// Err is the error that stopped Next, if any.
func (r *TranscriptReader) Err() error { return r.err }
