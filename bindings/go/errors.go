package agenthooks

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Error is every error this package returns: a stable snake_case Code
// (the same ids in every agenthooks language: "invalid_json",
// "unsupported_decision", ...) and a human-readable Message (never
// compare it). Use errors.Is with the sentinels below to test the code:
//
//	if errors.Is(err, agenthooks.ErrInvalidJSON) { ... }
type Error struct {
	Code    string
	Message string
	// Details is the whole error object of a host or install answer (for
	// "config_rejected", its "diagnostics"); nil otherwise.
	Details json.RawMessage `json:"-"`

	// The library's own error, kept so that fail responses built from
	// this error are exactly the core's.
	native *nativeError
}

func (e *Error) Error() string {
	if e.Message == "" {
		return "agenthooks: " + e.Code
	}
	return "agenthooks: " + e.Code + ": " + e.Message
}

// Is reports whether target is an *Error with the same Code (and, when
// target has a Message, the same Message): the sentinels match by code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	return t.Code == e.Code && (t.Message == "" || t.Message == e.Message)
}

// Sentinels for errors.Is, one per code. The first group is the core's
// codes; the second arises at the C boundary.
var (
	ErrInvalidJSON          = &Error{Code: "invalid_json"}
	ErrInvalidUTF8          = &Error{Code: "invalid_utf8"}
	ErrNotAnObject          = &Error{Code: "not_an_object"}
	ErrMissingEvent         = &Error{Code: "missing_event"}
	ErrWrongType            = &Error{Code: "wrong_type"}
	ErrTooLarge             = &Error{Code: "too_large"}
	ErrTooDeep              = &Error{Code: "too_deep"}
	ErrUnknownProvider      = &Error{Code: "unknown_provider"}
	ErrUnknownEventSpelling = &Error{Code: "unknown_event_spelling"}
	ErrInvalidDecision      = &Error{Code: "invalid_decision"}
	ErrUnsupportedDecision  = &Error{Code: "unsupported_decision"}
	ErrLossyUpdate          = &Error{Code: "lossy_update"}
	ErrHandler              = &Error{Code: "handler_error"}
	ErrHandlerTimeout       = &Error{Code: "handler_timeout"}
	ErrIO                   = &Error{Code: "io"}
	ErrPanic                = &Error{Code: "panic"}
	ErrInvalidArgument      = &Error{Code: "invalid_argument"}

	ErrNullArg     = &Error{Code: "null_arg"}
	ErrAlreadyUsed = &Error{Code: "already_used"}
	ErrUnknown     = &Error{Code: "unknown"}
)

// sentinels lists every sentinel (a test checks it against the library's
// status table).
var sentinels = []*Error{
	ErrInvalidJSON, ErrInvalidUTF8, ErrNotAnObject, ErrMissingEvent, ErrWrongType,
	ErrTooLarge, ErrTooDeep, ErrUnknownProvider, ErrUnknownEventSpelling,
	ErrInvalidDecision, ErrUnsupportedDecision, ErrLossyUpdate, ErrHandler,
	ErrHandlerTimeout, ErrIO, ErrPanic, ErrInvalidArgument,
	ErrNullArg, ErrAlreadyUsed, ErrUnknown,
}

func asError(err error, target **Error) bool { return errors.As(err, target) }

// codeAndMessage is how a handler's error reaches the fail policy: an
// *Error keeps its code; anything else is a handler_error.
func codeAndMessage(err error) (string, string) {
	var e *Error
	if errors.As(err, &e) {
		return e.Code, e.Message
	}
	return "handler_error", err.Error()
}

func newError(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
