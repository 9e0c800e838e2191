//go:build debug

package agenthooks

import "runtime"

// maybeGC forces a collection before each use of a native handle (see
// maybe_gc.go): `go test -tags debug` shakes out missing KeepAlives.
func maybeGC() { runtime.GC() }
