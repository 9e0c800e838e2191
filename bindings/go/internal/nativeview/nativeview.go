// Package nativeview reads an event's raw payload into a generated typed
// native view (bindings/go/native/<agent>); the errors are the package's
// *agenthooks.Error values, never a panic.
package nativeview

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	agenthooks "github.com/agenthooks/agenthooks/bindings/go"
)

// Check fails unless e is an event of agent named name.
func Check(e *agenthooks.Event, agent, name string) error {
	if e == nil {
		return &agenthooks.Error{Code: "invalid_argument", Message: "a " + agent + " view of a nil event"}
	}
	if e.Provider != agent {
		return &agenthooks.Error{Code: "invalid_argument",
			Message: fmt.Sprintf("a %s view of an event of %s", agent, e.Provider)}
	}
	if e.NativeName != name {
		return &agenthooks.Error{Code: "invalid_argument",
			Message: fmt.Sprintf("a %s %s view of a %s event", agent, name, e.NativeName)}
	}
	return nil
}

// Read checks the event, then decodes its raw payload into v (a pointer
// to the event's struct): the payload must be a JSON object holding every
// required field, each field of the type its schema declares.
func Read(e *agenthooks.Event, agent, name string, required []string, v any) error {
	if err := Check(e, agent, name); err != nil {
		return err
	}
	raw := bytes.TrimSpace(e.Raw())
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &agenthooks.Error{Code: "not_an_object", Message: "payload must be a JSON object, got " + te.Value}
		}
		return &agenthooks.Error{Code: "invalid_json", Message: err.Error()}
	}
	if top == nil {
		return &agenthooks.Error{Code: "not_an_object", Message: "payload must be a JSON object, got null"}
	}
	for _, r := range required {
		if _, ok := top[r]; !ok {
			return &agenthooks.Error{Code: "wrong_type",
				Message: fmt.Sprintf("%s input: required field `%s` is missing", name, r)}
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &agenthooks.Error{Code: "wrong_type",
				Message: fmt.Sprintf("%s input: field `%s` must be %s, got %s", name, te.Field, te.Type, te.Value)}
		}
		return &agenthooks.Error{Code: "wrong_type", Message: fmt.Sprintf("%s input: %v", name, err)}
	}
	return nil
}
