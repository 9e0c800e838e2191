//go:build !debug

package agenthooks

// maybeGC is a no-op; the `debug` build tag makes it force a collection
// before each use of a native handle, so a missing runtime.KeepAlive shows
// up as a crash in tests instead of a rare use-after-free in production.
func maybeGC() {}
