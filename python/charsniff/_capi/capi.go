// Command _capi is the C ABI of charsniff for the Python package (and any
// other C caller): built with go build -buildmode=c-shared into
// libcharsniff.so, whose header cgo writes beside it.
//
// # Conventions
//
// Every exported function returns a status (int32): CS_OK (0), CS_EOF (1)
// at the end of a stream or an archive, or a negative error (CS_ERR_*);
// for an error it stores a message in *errmsg when errmsg is not NULL.
// Byte strings are a pointer and a length (int64); a NULL pointer with
// length 0 is the empty string (or "none", for an option).
//
// # Ownership
//
// The caller's memory (input bytes, option strings, the output buffers
// and result structs) is read or written only during the call that is given
// it: no pointer into it is kept after the call returns (the cgo rules).
// Memory this library returns (error messages, decoded text, archive
// lines) is allocated with C's malloc and belongs to the caller, who frees
// it with charsniff_free. Stateful objects (a streaming reader, an archive
// reader) are handles (runtime/cgo.Handle) that the caller closes with their
// close function, once; a closed or unknown handle gives CS_ERR_HANDLE.
//
// A read callback (charsniff_reader_new, charsniff_archive_open_reader) is
// called with the caller's context and a buffer of Go memory that it fills
// with up to n bytes and may not keep; it returns how many (0 at the end of
// the input) or -1 for an error. The streaming reader calls it during
// charsniff_reader_read, on the caller's thread; the archive reader calls it
// from one of its own threads at any time between open and close (its
// reading runs ahead), so the callback must be safe to call from another
// thread, and stay valid until close has returned.
//
// No Go panic leaves this library: each function recovers it and returns
// CS_ERR_INTERNAL with the panic's message.
package main

/*
#include "capi.h"
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"runtime/cgo"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

func main() {}

// Status codes, as the C enum has them.
const (
	statusOK       = C.CS_OK
	statusEOF      = C.CS_EOF
	errArg         = C.CS_ERR_ARG
	errIO          = C.CS_ERR_IO
	errArchive     = C.CS_ERR_ARCHIVE
	errHandle      = C.CS_ERR_HANDLE
	errInternal    = C.CS_ERR_INTERNAL
	errShortBuffer = C.CS_ERR_SHORT
)

// statusError is an error with the status it is returned as.
type statusError struct {
	status C.int32_t
	msg    string
}

func (e *statusError) Error() string { return e.msg }

func fail(status C.int32_t, format string, args ...any) error {
	return &statusError{status, fmt.Sprintf(format, args...)}
}

// statusOf returns the status of err (nil: statusOK) and stores its
// message in *errmsg. An error without a status is a read error.
func statusOf(err error, errmsg **C.char) C.int32_t {
	if err == nil {
		return statusOK
	}
	status := C.int32_t(errIO)
	var se *statusError
	if errors.As(err, &se) {
		status = se.status
	}
	if errmsg != nil {
		*errmsg = C.CString(err.Error())
	}
	return status
}

// guard turns a panic of the exported function it is deferred in into
// CS_ERR_INTERNAL.
func guard(status *C.int32_t, errmsg **C.char) {
	if v := recover(); v != nil {
		*status = statusOf(fail(errInternal, "charsniff: internal error: %v", v), errmsg)
	}
}

// bytesOf is the caller's memory p[:n], valid during the call only.
func bytesOf(p *C.char, n C.int64_t) []byte {
	if p == nil || n <= 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))
}

// stringOf copies the caller's string p[:n].
func stringOf(p *C.char, n C.int64_t) string { return string(bytesOf(p, n)) }

// options are the decode options of a call: the Python API's keywords.
func options(ctype, rawURL string, lookahead C.int64_t) ([]decode.Option, error) {
	so := sniff.Options{ContentType: ctype}
	if rawURL != "" {
		u, err := url.Parse(rawURL)
		if err != nil {
			return nil, fail(errArg, "charsniff: url: %v", err)
		}
		so.TLD = u.Hostname()
	}
	opts := []decode.Option{decode.WithSniff(so)}
	if lookahead >= 0 {
		opts = append(opts, decode.WithLookahead(int64(lookahead)))
	}
	return opts, nil
}

// fill writes rd's decision into *out.
func fill(out *C.cs_result, rd *decode.Reader) {
	res := rd.Result()
	*out = C.cs_result{
		encoding:    C.int32_t(res.Encoding),
		confidence:  C.int32_t(res.Confidence),
		source:      C.int32_t(res.Source),
		bom:         C.int32_t(res.BOMLength),
		late_kind:   C.int32_t(res.Late.Kind),
		late_from:   C.int32_t(res.Late.From),
		late_offset: C.int64_t(res.Late.Offset),
	}
	if res.Decided {
		out.decided = 1
	}
}

// readers are decode.Readers over a bytes.Reader, reused across calls.
var readers = sync.Pool{New: func() any { return &pooled{} }}

type pooled struct {
	src bytes.Reader
	rd  *decode.Reader
}

// reader returns a pooled reader reading data with opts.
func reader(data []byte, opts []decode.Option) (*pooled, error) {
	p := readers.Get().(*pooled)
	p.src.Reset(data)
	var err error
	if p.rd == nil {
		p.rd, err = decode.NewReader(&p.src, opts...)
	} else {
		err = p.rd.Reset(&p.src, opts...)
	}
	if err != nil {
		p.release()
		return nil, fail(errArg, "%v", err)
	}
	return p, nil
}

// open returns a pooled reader of data[:n] with the options of the C
// arguments (see charsniff_sniff), as charsniff_sniff and charsniff_decode
// start.
func open(data *C.char, n C.int64_t, ctype *C.char, ctypeLen C.int64_t, rawURL *C.char, urlLen C.int64_t, lookahead C.int64_t) (*pooled, error) {
	opts, err := options(stringOf(ctype, ctypeLen), stringOf(rawURL, urlLen), lookahead)
	if err != nil {
		return nil, err
	}
	return reader(bytesOf(data, n), opts)
}

// release returns p to the pool, dropping its hold on the caller's bytes.
func (p *pooled) release() {
	p.src.Reset(nil)
	if p.rd != nil {
		p.rd.Reset(&p.src)
	}
	readers.Put(p)
}

// charsniff_sniff sniffs data[:n] as the command does a file: the decision
// once the reader has decided (its window, then as far past it as the
// look-ahead needs), with ctype as the transport layer's Content-Type and
// the host of url as the top-level-domain hint; lookahead < 0 is the
// default.
//
//export charsniff_sniff
func charsniff_sniff(data *C.char, n C.int64_t, ctype *C.char, ctypeLen C.int64_t, rawURL *C.char, urlLen C.int64_t, lookahead C.int64_t, out *C.cs_result, errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	p, err := open(data, n, ctype, ctypeLen, rawURL, urlLen, lookahead)
	if err != nil {
		return statusOf(err, errmsg)
	}
	defer p.release()
	p.rd.Settle(nil, -1) // a bytes.Reader does not fail
	fill(out, p.rd)
	return statusOK
}

// Packed results: charsniff_sniff_packed's answer in one int64, so that a
// call returns no struct. Bits 0-7 are the encoding, 8-9 the confidence,
// 10-13 the source, 14-15 the BOM length, 16-18 the late change's kind,
// 19-26 the encoding it was made from and 27-62 its offset.
const packedOffsetBits = 36

// charsniff_sniff_packed is charsniff_sniff with the result packed into
// its return value (non-negative), or a negative status: for an error,
// or CS_ERR_SHORT for a late offset that does not fit, when the caller
// asks charsniff_sniff.
//
//export charsniff_sniff_packed
func charsniff_sniff_packed(data *C.char, n C.int64_t, ctype *C.char, ctypeLen C.int64_t, rawURL *C.char, urlLen C.int64_t, lookahead C.int64_t) (packed C.int64_t) {
	defer func() {
		if recover() != nil {
			packed = errInternal
		}
	}()
	var out C.cs_result
	if status := charsniff_sniff(data, n, ctype, ctypeLen, rawURL, urlLen, lookahead, &out, nil); status != statusOK {
		return C.int64_t(status)
	}
	if out.late_offset < 0 || out.late_offset >= 1<<packedOffsetBits {
		return errShortBuffer
	}
	return C.int64_t(out.encoding) | C.int64_t(out.confidence)<<8 | C.int64_t(out.source)<<10 |
		C.int64_t(out.bom)<<14 | C.int64_t(out.late_kind)<<16 | C.int64_t(out.late_from)<<19 |
		out.late_offset<<27
}

// charsniff_sniff_bytes is charsniff_sniff_packed with no options: the
// shortest call.
//
//export charsniff_sniff_bytes
func charsniff_sniff_bytes(data *C.char, n C.int64_t) C.int64_t {
	return charsniff_sniff_packed(data, n, nil, 0, nil, 0, -1)
}

// charsniff_decode decodes data[:n] (options as charsniff_sniff's) to
// normalized UTF-8 in *text, *textLen bytes, which the caller frees with
// charsniff_free, and writes the final decision into *out.
//
//export charsniff_decode
func charsniff_decode(data *C.char, n C.int64_t, ctype *C.char, ctypeLen C.int64_t, rawURL *C.char, urlLen C.int64_t, lookahead C.int64_t, out *C.cs_result, text **C.char, textLen *C.int64_t, errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	p, err := open(data, n, ctype, ctypeLen, rawURL, urlLen, lookahead)
	if err != nil {
		return statusOf(err, errmsg)
	}
	defer p.release()
	// Each input byte gives at most 3 bytes of UTF-8 (a U+FFFD), and the
	// pages of the C buffer past what is written are never touched.
	size := 3*int(n) + 16
	buf := (*C.char)(C.malloc(C.size_t(size)))
	if buf == nil {
		return statusOf(fail(errInternal, "charsniff: out of memory"), errmsg)
	}
	dst := unsafe.Slice((*byte)(unsafe.Pointer(buf)), size)
	w := 0
	for {
		if w == len(dst) {
			C.free(unsafe.Pointer(buf))
			return statusOf(fail(errShortBuffer, "charsniff: decoded text longer than 3 bytes a byte"), errmsg)
		}
		m, err := p.rd.Read(dst[w:])
		w += m
		if err == io.EOF {
			break
		}
		if err != nil {
			C.free(unsafe.Pointer(buf))
			return statusOf(err, errmsg)
		}
	}
	fill(out, p.rd)
	*text, *textLen = buf, C.int64_t(w)
	return statusOK
}

// charsniff_free frees memory this library returned.
//
//export charsniff_free
func charsniff_free(p unsafe.Pointer) { C.free(p) }

// Name tables of charsniff_names.
const (
	namesEncoding   = 0 // override.Encoding's LowerName, by value (0: "")
	namesConfidence = 1 // sniff.Confidence's String
	namesSource     = 2 // sniff.Source's String
	namesChange     = 3 // decode.ChangeKind's String
)

// charsniff_names writes into *out (freed with charsniff_free) the names
// of the values of one kind of the result struct, from 0 up, one a line:
// the strings the command prints.
//
//export charsniff_names
func charsniff_names(kind C.int32_t, out **C.char, outLen *C.int64_t, errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	var names []string
	switch kind {
	case namesEncoding:
		names = make([]string, override.NumEncodings+1)
		for _, e := range override.All() {
			names[e] = e.LowerName()
		}
	case namesConfidence:
		names = enumNames(func(i int) string { return sniff.Confidence(i).String() })
	case namesSource:
		names = enumNames(func(i int) string { return sniff.Source(i).String() })
	case namesChange:
		names = enumNames(func(i int) string { return decode.ChangeKind(i).String() })
	default:
		return statusOf(fail(errArg, "charsniff: no names of kind %d", kind), errmsg)
	}
	s := strings.Join(names, "\n")
	*out, *outLen = C.CString(s), C.int64_t(len(s))
	return statusOK
}

// enumNames returns the names of the values of a uint8 enum up to the
// first that is not one: an empty name, a fmt fallback ("Source(7)") or
// a name given before (a String's "unknown" for every value past the last).
func enumNames(name func(int) string) []string {
	var names []string
	seen := map[string]bool{}
	for i := range 256 {
		s := name(i)
		if s == "" || seen[s] || strings.HasSuffix(s, ")") && strings.Contains(s, "(") {
			break
		}
		seen[s] = true
		names = append(names, s)
	}
	return names
}

// charsniff_selftest_panic panics inside the library, for the tests of
// the boundary: it returns CS_ERR_INTERNAL.
//
//export charsniff_selftest_panic
func charsniff_selftest_panic(errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	panic("a panic for the tests")
}

// handleOf returns the value of handle h, or an error for a closed or
// unknown one.
func handleOf[T any](h C.uintptr_t) (v T, err error) {
	defer func() {
		if recover() != nil { // cgo.Handle.Value panics for an invalid handle
			err = fail(errHandle, "charsniff: closed or unknown handle")
		}
	}()
	v, ok := cgo.Handle(h).Value().(T)
	if !ok {
		return v, fail(errHandle, "charsniff: handle of another kind")
	}
	return v, nil
}

// callbackReader reads through a C read callback.
type callbackReader struct {
	fn  C.cs_read_fn
	ctx C.uintptr_t
}

func (r *callbackReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n := C.cs_call_read(r.fn, r.ctx, (*C.char)(unsafe.Pointer(&p[0])), C.int64_t(len(p)))
	switch {
	case n == 0:
		return 0, io.EOF
	case n < 0:
		return 0, errCallback
	case int(n) > len(p):
		return 0, fail(errInternal, "charsniff: read callback returned %d bytes for a buffer of %d", n, len(p))
	}
	return int(n), nil
}

// errCallback is the error of a read callback that returned -1: the
// caller knows its cause.
var errCallback = fail(errIO, "charsniff: read callback failed")

// charsniff_bench_sniff runs charsniff_sniff's work on data[:n] count
// times inside Go and returns the nanoseconds it took, so that a
// benchmark can tell the cost of the call across the boundary from the
// cost of the sniffing (python/bench.py).
//
//export charsniff_bench_sniff
func charsniff_bench_sniff(data *C.char, n C.int64_t, count C.int64_t) (ns C.int64_t) {
	defer func() {
		if recover() != nil {
			ns = -1
		}
	}()
	b := bytesOf(data, n)
	opts, _ := options("", "", -1)
	start := time.Now()
	for range int(count) {
		p, err := reader(b, opts)
		if err != nil {
			return -1
		}
		p.rd.Settle(nil, -1)
		var out C.cs_result
		fill(&out, p.rd)
		p.release()
	}
	return C.int64_t(time.Since(start).Nanoseconds())
}
