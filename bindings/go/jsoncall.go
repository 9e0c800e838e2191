package agenthooks

/*
#include "agenthooks.h"
*/
import "C"

import (
	"bytes"
	"encoding/json"
)

// jsonEntry is one of the core's ah_*_json entry points:
// ah_status f(const uint8_t *req, size_t len, ah_buf **out, ah_error **err).
type jsonEntry func(p *C.uint8_t, n C.size_t, b **C.ah_buf, e **C.ah_error) C.ah_status

// jsonCall sends one request through an ah_*_json entry point. A boundary
// fault is the call's error; an {"error": ...} answer becomes an *Error
// with the core's code (config_rejected, manifest, io, ...) and the whole
// error object in Details.
func jsonCall(entry jsonEntry, req []byte, out any) error {
	p, n := bytesArg(req)
	var buf *C.ah_buf
	var cerr *C.ah_error
	if st := entry(p, n, &buf, &cerr); st != C.AH_OK {
		return errorOf(st, cerr)
	}
	answer := takeBuf(buf)
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(answer, &e); err != nil {
		return newError("invalid_json", "answer of the library: %v", err)
	}
	if len(e.Error) > 0 && !bytes.Equal(e.Error, []byte("null")) {
		var fields struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Reason  string `json:"reason"`
		}
		_ = json.Unmarshal(e.Error, &fields)
		if fields.Message == "" {
			fields.Message = fields.Reason // a matcher diagnostic
		}
		return &Error{Code: fields.Code, Message: fields.Message, Details: e.Error}
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return newError("invalid_json", "answer of the library: %v", err)
	}
	return nil
}
