package agenthooks

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/agenthooks/agenthooks/bindings/go/schemas"
)

func TestSchemaReturnsTheEmbeddedSchemas(t *testing.T) {
	b, err := Schema("claude-code", "PreToolUse", false)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if s["title"] != "claude-code PreToolUse input" {
		t.Fatalf("title %v", s["title"])
	}
	// Copilot's VS Code-compatible name is found through the index.
	b, err = Schema("copilot", "SessionStart", true)
	if err != nil || !json.Valid(b) {
		t.Fatalf("copilot SessionStart output: %v", err)
	}
	if _, err := Schema("codex", "NoSuchEvent", false); !errors.Is(err, schemas.ErrUnknown) {
		t.Fatalf("unknown event: %v", err)
	}
}
