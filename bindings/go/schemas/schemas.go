// Package schemas embeds the JSON Schemas of every agent's hook payloads
// and answers (the repository's schemas/ folder, mirrored here by
// `make schemas`; generated, do not edit). The agenthooks package's
// Schema function is the usual way in.
package schemas

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
)

//go:embed files
var files embed.FS

// FS holds the schema files, rooted like schemas/: index.json,
// canonical/event.json, canonical/decision.json and
// <agent-id>/<NativeEvent>.input.json / .output.json.
var FS fs.FS = mustSub(files, "files")

func mustSub(f embed.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return sub
}

// ErrUnknown is wrapped by the errors of Get for an unknown agent or event.
var ErrUnknown = errors.New("agenthooks/schemas: unknown schema")

type index struct {
	Agents map[string]struct {
		Version string `json:"version"`
		Events  map[string]struct {
			Input  string `json:"input"`
			Output string `json:"output"`
		} `json:"events"`
	} `json:"agents"`
}

// Index returns index.json: per agent its pinned version and its events'
// schema paths.
func Index() []byte {
	b, err := fs.ReadFile(FS, "index.json")
	if err != nil {
		panic(err) // embedded at build time
	}
	return b
}

// Get returns the schema of agent's payload on a native event (output:
// of what the agent reads on stdout). agent is the id (claude-code,
// codex, cursor, gemini, kimi-code, copilot, opencode, openclaw); event
// is the native name, verbatim.
func Get(agent, event string, output bool) ([]byte, error) {
	var ix index
	if err := json.Unmarshal(Index(), &ix); err != nil {
		return nil, err
	}
	a, ok := ix.Agents[agent]
	if !ok {
		known := make([]string, 0, len(ix.Agents))
		for k := range ix.Agents {
			known = append(known, k)
		}
		sort.Strings(known)
		return nil, fmt.Errorf("%w: agent %q (known: %v)", ErrUnknown, agent, known)
	}
	e, ok := a.Events[event]
	if !ok {
		return nil, fmt.Errorf("%w: %s has no native event %q", ErrUnknown, agent, event)
	}
	path := e.Input
	if output {
		path = e.Output
	}
	return fs.ReadFile(FS, path)
}

// Canonical returns canonical/event.json ("event") or
// canonical/decision.json ("decision").
func Canonical(name string) ([]byte, error) {
	switch name {
	case "event", "decision":
		return fs.ReadFile(FS, "canonical/"+name+".json")
	}
	return nil, fmt.Errorf("%w: canonical %q (event or decision)", ErrUnknown, name)
}
