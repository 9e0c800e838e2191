package agenthooks

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// decodeHead decodes the core's head JSON (the canonical event without
// output and raw) into an Event. It walks the members by hand and decodes
// only scalars, string lists, the tool input (a generic map) and raw_input
// (kept verbatim) through encoding/json: decoding into the Event struct
// would make encoding/json reflect over every Go type of the event on
// first use, a fixed cost of a few hundred microseconds paid by every
// hook process. Unknown members are skipped. TestDecodeHeadMatchesReflection
// keeps it equal to the reflective decoding on every fixture.
func decodeHead(b []byte) (*Event, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	e := &Event{}
	err := members(d, func(k string) error {
		switch k {
		case "provider":
			return d.Decode(&e.Provider)
		case "variant":
			return d.Decode(&e.Variant)
		case "native_name":
			return d.Decode(&e.NativeName)
		case "kind":
			return d.Decode(&e.Kind)
		case "detection":
			return d.Decode(&e.Detection)
		case "session":
			return decodeSession(d, &e.Session)
		case "agent":
			return object(d, func() { e.Agent = &Agent{} }, func(k string) error {
				switch k {
				case "id":
					return d.Decode(&e.Agent.ID)
				case "type":
					return d.Decode(&e.Agent.Type)
				}
				return skip(d)
			})
		case "tool":
			return decodeTool(d, &e.Tool)
		case "prompt":
			return d.Decode(&e.Prompt)
		case "failed":
			return d.Decode(&e.Failed)
		case "error":
			return d.Decode(&e.Error)
		case "duration_ms":
			return d.Decode(&e.DurationMs)
		case "stop":
			return decodeStop(d, &e.Stop)
		case "source":
			return d.Decode(&e.Source)
		case "reason":
			return d.Decode(&e.Reason)
		case "trigger":
			return d.Decode(&e.Trigger)
		case "instructions":
			return d.Decode(&e.Instructions)
		case "message":
			return d.Decode(&e.Message)
		case "path":
			return d.Decode(&e.Path)
		case "backfilled":
			return d.Decode(&e.Backfilled)
		}
		return skip(d)
	})
	if err != nil {
		return nil, newError("invalid_json", "canonical event: %v", err)
	}
	return e, nil
}

func decodeSession(d *json.Decoder, s *Session) error {
	return members(d, func(k string) error {
		switch k {
		case "id":
			return d.Decode(&s.ID)
		case "turn_id":
			return d.Decode(&s.TurnID)
		case "cwd":
			return d.Decode(&s.Cwd)
		case "workspace_roots":
			return d.Decode(&s.WorkspaceRoots)
		case "transcript_path":
			return d.Decode(&s.TranscriptPath)
		case "model":
			return d.Decode(&s.Model)
		case "permission_mode":
			return d.Decode(&s.PermissionMode)
		case "user_email":
			return d.Decode(&s.UserEmail)
		}
		return skip(d)
	})
}

func decodeTool(d *json.Decoder, tp **ToolCall) error {
	var t *ToolCall
	return object(d, func() { t = &ToolCall{}; *tp = t }, func(k string) error {
		switch k {
		case "id":
			return d.Decode(&t.ID)
		case "synthesized":
			return d.Decode(&t.Synthesized)
		case "name":
			return d.Decode(&t.Name)
		case "canonical":
			return d.Decode(&t.Canonical)
		case "mcp":
			return object(d, func() { t.MCP = &MCPInfo{} }, func(k string) error {
				switch k {
				case "server":
					return d.Decode(&t.MCP.Server)
				case "tool":
					return d.Decode(&t.MCP.Tool)
				case "url":
					return d.Decode(&t.MCP.URL)
				case "command":
					return d.Decode(&t.MCP.Command)
				}
				return skip(d)
			})
		case "input":
			return d.Decode(&t.Input)
		case "raw_input":
			return d.Decode(&t.RawInput)
		case "command":
			return d.Decode(&t.Command)
		case "paths":
			return d.Decode(&t.Paths)
		case "pattern":
			return d.Decode(&t.Pattern)
		case "glob":
			return d.Decode(&t.Glob)
		}
		return skip(d)
	})
}

func decodeStop(d *json.Decoder, sp **StopInfo) error {
	var s *StopInfo
	return object(d, func() { s = &StopInfo{}; *sp = s }, func(k string) error {
		switch k {
		case "previously_continued":
			return d.Decode(&s.PreviouslyContinued)
		case "loop_count":
			return d.Decode(&s.LoopCount)
		case "final_message":
			return d.Decode(&s.FinalMessage)
		case "usage":
			u := &s.Usage
			return members(d, func(k string) error {
				switch k {
				case "input_tokens":
					return d.Decode(&u.InputTokens)
				case "output_tokens":
					return d.Decode(&u.OutputTokens)
				case "cache_read_tokens":
					return d.Decode(&u.CacheReadTokens)
				case "cache_write_tokens":
					return d.Decode(&u.CacheWriteTokens)
				case "cost":
					return d.Decode(&u.Cost)
				case "loop_count":
					return d.Decode(&u.LoopCount)
				case "status":
					return d.Decode(&u.Status)
				}
				return skip(d)
			})
		}
		return skip(d)
	})
}

// members reads one JSON object (null reads as none), calling f with each
// key; f decodes or skips the value.
func members(d *json.Decoder, f func(key string) error) error {
	return object(d, func() {}, f)
}

// object is members for a value behind a pointer: open runs when the
// value is an object (not null), before the first key.
func object(d *json.Decoder, open func(), f func(key string) error) error {
	t, err := d.Token()
	if err != nil {
		return err
	}
	if t == nil {
		return nil
	}
	if t != json.Delim('{') {
		return fmt.Errorf("expected an object, got %v", t)
	}
	open()
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return err
		}
		k, ok := t.(string)
		if !ok {
			return fmt.Errorf("expected a key, got %v", t)
		}
		if err := f(k); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	_, err = d.Token()
	return err
}

// skip reads and drops one value.
func skip(d *json.Decoder) error {
	var v json.RawMessage
	return d.Decode(&v)
}

// decisionFromJSON decodes decision JSON as the core renders it (fold
// results, normalized decisions), by hand for the reason decodeHead is.
func decisionFromJSON(b []byte) (Decision, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out Decision
	err := members(d, func(k string) error {
		switch k {
		case "kind":
			return d.Decode(&out.Kind)
		case "reason":
			return d.Decode(&out.Reason)
		case "instruction":
			return d.Decode(&out.Instruction)
		case "context":
			return d.Decode(&out.Context)
		case "system_message":
			return d.Decode(&out.SystemMessage)
		case "block_reason":
			return d.Decode(&out.BlockReason)
		case "stop_agent":
			return object(d, func() { out.StopAgent = &StopAgent{} }, func(k string) error {
				if k == "reason" {
					return d.Decode(&out.StopAgent.Reason)
				}
				return skip(d)
			})
		case "updated_input":
			return d.Decode(&out.UpdatedInput)
		case "patch_input":
			return d.Decode(&out.PatchInput)
		case "rewrite_conflicts":
			return d.Decode(&out.RewriteConflicts)
		case "replaced_output":
			return d.Decode(&out.ReplacedOutput)
		case "native":
			return d.Decode(&out.Native)
		}
		return skip(d)
	})
	if err != nil {
		return Decision{}, newError("invalid_decision", "%v", err)
	}
	return out, nil
}

// notesFromJSON decodes the core's notes array (by hand, as above).
func notesFromJSON(b []byte) ([]Note, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	t, err := d.Token()
	if err != nil || t == nil {
		return nil, err
	}
	if t != json.Delim('[') {
		return nil, fmt.Errorf("expected an array, got %v", t)
	}
	notes := []Note{}
	for d.More() {
		var n Note
		err := members(d, func(k string) error {
			switch k {
			case "code":
				return d.Decode(&n.Code)
			case "from":
				return d.Decode(&n.From)
			case "to":
				return d.Decode(&n.To)
			case "detail":
				return d.Decode(&n.Detail)
			}
			return skip(d)
		})
		if err != nil {
			return nil, err
		}
		notes = append(notes, n)
	}
	_, err = d.Token()
	return notes, err
}
