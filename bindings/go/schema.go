package agenthooks

import "github.com/agenthooks/agenthooks/bindings/go/schemas"

// Schema returns the JSON Schema (draft 2020-12) of agent's payload on a
// native event, or with output of what the agent reads from the hook's
// stdout there. agent is the agent id (claude-code, codex, ...), event the
// native name verbatim. The schemas are embedded (package schemas); an
// unknown agent or event is an error wrapping schemas.ErrUnknown.
func Schema(agent, event string, output bool) ([]byte, error) {
	return schemas.Get(agent, event, output)
}
