package agenthooks

/*
#cgo CFLAGS: -I${SRCDIR}/include
#cgo linux,amd64 LDFLAGS: ${SRCDIR}/lib/linux_amd64/libagenthooks_ffi.a -lm -ldl -lpthread -lrt -lutil
#cgo linux,arm64 LDFLAGS: ${SRCDIR}/lib/linux_arm64/libagenthooks_ffi.a -lm -ldl -lpthread -lrt -lutil
#cgo darwin,arm64 LDFLAGS: ${SRCDIR}/lib/darwin_arm64/libagenthooks_ffi.a -liconv -lm
#cgo darwin,amd64 LDFLAGS: ${SRCDIR}/lib/darwin_amd64/libagenthooks_ffi.a -liconv -lm
#include <stdlib.h>
#include "agenthooks.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// The native layer: conversions between Go values and the C ABI of
// include/agenthooks.h, and the owned handles. Everything else in the
// package is plain Go over these helpers.

// abiVersion is the C ABI this package was written against.
const abiVersion = 1

func init() {
	if C.AH_ABI_VERSION != abiVersion || C.ah_abi_version() != abiVersion {
		panic("agenthooks: the C library's ABI version does not match this Go package " +
			"(header " + itoa(int(C.AH_ABI_VERSION)) + ", library " + itoa(int(C.ah_abi_version())) +
			", package " + itoa(abiVersion) + "); run `make go-lib` or use the library shipped with this release")
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// emptyByte gives an empty required string a non-NULL pointer.
var emptyByte = [1]byte{0}

// bytesArg passes Go bytes to C (pointer + length; no copy). cgo pins the
// memory for the call; the library keeps no pointer after it returns.
func bytesArg(b []byte) (*C.uint8_t, C.size_t) {
	if len(b) == 0 {
		return (*C.uint8_t)(unsafe.Pointer(&emptyByte[0])), 0
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0])), C.size_t(len(b))
}

// strArg passes a required Go string to C (no copy).
func strArg(s string) (*C.uint8_t, C.size_t) {
	if len(s) == 0 {
		return (*C.uint8_t)(unsafe.Pointer(&emptyByte[0])), 0
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(s))), C.size_t(len(s))
}

// optArg passes optional bytes: nil/empty is NULL (the C "absent").
func optArg(b []byte) (*C.uint8_t, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0])), C.size_t(len(b))
}

// optStrArg passes an optional string: "" is NULL (absent).
func optStrArg(s string) (*C.uint8_t, C.size_t) {
	if len(s) == 0 {
		return nil, 0
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(s))), C.size_t(len(s))
}

// goString copies a borrowed ah_str into Go memory.
func goString(s C.ah_str) string {
	if s.ptr == nil || s.len == 0 {
		return ""
	}
	return C.GoStringN(s.ptr, C.int(s.len))
}

// view is a borrowed ah_str as a Go byte slice: valid only while its owner
// lives; callers must copy what they keep (json.Unmarshal does).
func view(s C.ah_str) []byte {
	if s.ptr == nil || s.len == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(s.ptr)), int(s.len))
}

// statusID is the snake_case id of a status.
func statusID(st C.ah_status) string {
	return C.GoString(C.ah_status_id(C.uint32_t(st)))
}

// errorOf turns a failed status and its ah_error (owned, may be NULL)
// into an *Error that keeps the native error for exact fail responses.
func errorOf(st C.ah_status, e *C.ah_error) error {
	if st == C.AH_OK {
		if e != nil {
			C.ah_error_free(e)
		}
		return nil
	}
	err := &Error{Code: statusID(st)}
	if e != nil {
		err.Message = goString(C.ah_error_message(e))
		err.native = newNativeError(e)
	}
	return err
}

// nativeError owns an ah_error.
type nativeError struct{ p *C.ah_error }

func newNativeError(p *C.ah_error) *nativeError {
	n := &nativeError{p: p}
	runtime.SetFinalizer(n, (*nativeError).free)
	return n
}

func (n *nativeError) ptr() *C.ah_error {
	maybeGC()
	return n.p
}

func (n *nativeError) free() {
	if n.p != nil {
		C.ah_error_free(n.p)
		n.p = nil
	}
	runtime.SetFinalizer(n, nil)
}

// statusOfCode is the numbered status of a snake_case code, or 0.
func statusOfCode(code string) C.uint32_t {
	for s := C.uint32_t(1); s < 256; s++ {
		if C.GoString(C.ah_status_id(s)) == code {
			return s
		}
	}
	return 0
}

// nativeErrorFor returns an ah_error for any Go error: the native one an
// *Error carries, else one made from its code (handler_error for errors
// that are not *Error). The caller frees it with the returned func.
func nativeErrorFor(err error) (*C.ah_error, func(), error) {
	var e *Error
	if asError(err, &e) && e.native != nil && e.native.p != nil {
		return e.native.ptr(), func() { runtime.KeepAlive(e.native) }, nil
	}
	code, msg := codeAndMessage(err)
	st := statusOfCode(code)
	if st == 0 {
		st = C.AH_ERR_HANDLER_ERROR
	}
	var out *C.ah_error
	var cerr *C.ah_error
	p, n := optStrArg(msg)
	if s := C.ah_error_new(st, p, n, &out, &cerr); s != C.AH_OK {
		return nil, func() {}, errorOf(s, cerr)
	}
	return out, func() { C.ah_error_free(out) }, nil
}

// buf copies an owned ah_buf's text into Go and frees it.
func takeBuf(b *C.ah_buf) []byte {
	defer C.ah_buf_free(b)
	s := C.ah_buf_str(b)
	if s.ptr == nil {
		return nil
	}
	return C.GoBytes(unsafe.Pointer(s.ptr), C.int(s.len))
}

// cArgv copies argv into C memory (the ABI takes char *const *).
func cArgv(argv []string) (**C.char, C.size_t, func()) {
	if len(argv) == 0 {
		return nil, 0, func() {}
	}
	arr := (*[1 << 28]*C.char)(C.malloc(C.size_t(len(argv)) * C.size_t(unsafe.Sizeof((*C.char)(nil)))))[:len(argv):len(argv)]
	for i, a := range argv {
		arr[i] = C.CString(a)
	}
	return &arr[0], C.size_t(len(argv)), func() {
		for _, p := range arr {
			C.free(unsafe.Pointer(p))
		}
		C.free(unsafe.Pointer(&arr[0]))
	}
}

// libraryStatusIDs lists the ids of every status the library names (for
// the test that keeps the sentinels complete).
func libraryStatusIDs() []string {
	var ids []string
	for s := C.uint32_t(1); s < 256; s++ {
		if id := C.GoString(C.ah_status_id(s)); id != "unknown" {
			ids = append(ids, id)
		}
	}
	return ids
}

// libraryABIVersion is one bare cgo call (the benchmark's floor).
func libraryABIVersion() uint32 { return uint32(C.ah_abi_version()) }

// decodeRespondRaw is decode + respond + reading the answer with no Go
// JSON work: the C ABI round trip the cgo benchmark measures.
func decodeRespondRaw(provider string, payload, decision []byte) (int, error) {
	pp, pn := strArg(provider)
	bp, bn := bytesArg(payload)
	var ev *C.ah_event
	var cerr *C.ah_error
	if st := C.ah_event_decode(pp, pn, bp, bn, nil, &ev, &cerr); st != C.AH_OK {
		return 0, errorOf(st, cerr)
	}
	defer C.ah_event_free(ev)
	dp, dn := optArg(decision)
	var r *C.ah_response
	if st := C.ah_event_respond(ev, dp, dn, nil, 0, &r, &cerr); st != C.AH_OK {
		return 0, errorOf(st, cerr)
	}
	defer C.ah_response_free(r)
	out := C.ah_response_stdout(r)
	return int(out.len) + int(C.ah_response_exit_code(r)), nil
}
