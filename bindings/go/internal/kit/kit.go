// Package kit connects the test kit (package agenthookstest) to what the
// root package keeps private: cgo stays in the root package, which fills
// this hook at init.
package kit

import (
	"context"
	"io"
)

// Run is agenthooks.Run (the same entry Main uses) with the state root of
// the call (Cursor dedupe markers, the stop-continuation counter) set to
// stateDir ("" for the user's). router is an *agenthooks.Router. Set by
// the root package.
var Run func(ctx context.Context, router any, argv []string, stdin io.Reader, stdout, stderr io.Writer, stateDir string) int
