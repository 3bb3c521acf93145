package main

/*
#include "capi.h"
*/
import "C"

import (
	"io"
	"runtime/cgo"
	"unsafe"

	"github.com/charsniff/charsniff/decode"
)

// A stream is a decode.Reader over a read callback: a text stream in
// bounded memory (the reader's buffers and its look-ahead).
type stream struct {
	rd *decode.Reader
}

// charsniff_reader_new returns in *handle a streaming reader of the input
// that fn reads (options as charsniff_sniff's). Nothing is read yet.
//
//export charsniff_reader_new
func charsniff_reader_new(fn C.cs_read_fn, ctx C.uintptr_t, ctype *C.char, ctypeLen C.int64_t, rawURL *C.char, urlLen C.int64_t, lookahead C.int64_t, handle *C.uintptr_t, errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	if fn == nil {
		return statusOf(fail(errArg, "charsniff: no read callback"), errmsg)
	}
	opts, err := options(stringOf(ctype, ctypeLen), stringOf(rawURL, urlLen), lookahead)
	if err != nil {
		return statusOf(err, errmsg)
	}
	rd, err := decode.NewReader(&callbackReader{fn: fn, ctx: ctx}, opts...)
	if err != nil {
		return statusOf(fail(errArg, "%v", err), errmsg)
	}
	*handle = C.uintptr_t(cgo.NewHandle(&stream{rd: rd}))
	return statusOK
}

// charsniff_reader_read decodes into buf[:n] and stores the number of
// bytes written in *got: a whole number of UTF-8 sequences only if the
// caller's buffer holds at least 4 bytes, since a character may be split
// between calls. It returns CS_EOF (with *got 0) at the end of the input.
//
//export charsniff_reader_read
func charsniff_reader_read(handle C.uintptr_t, buf *C.char, n C.int64_t, got *C.int64_t, errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	*got = 0
	s, err := handleOf[*stream](handle)
	if err != nil {
		return statusOf(err, errmsg)
	}
	if buf == nil || n <= 0 {
		return statusOf(fail(errArg, "charsniff: no buffer"), errmsg)
	}
	dst := unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n))
	for {
		m, err := s.rd.Read(dst)
		*got = C.int64_t(m)
		if m > 0 {
			return statusOK // an error comes again with the next call
		}
		if err == io.EOF {
			return statusEOF
		}
		if err != nil {
			return statusOf(err, errmsg)
		}
	}
}

// charsniff_reader_result writes the reader's decision so far into *out
// (final once out.decided is 1).
//
//export charsniff_reader_result
func charsniff_reader_result(handle C.uintptr_t, out *C.cs_result, errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	s, err := handleOf[*stream](handle)
	if err != nil {
		return statusOf(err, errmsg)
	}
	fill(out, s.rd)
	return statusOK
}

// charsniff_reader_close releases the reader; the handle is invalid
// afterwards.
//
//export charsniff_reader_close
func charsniff_reader_close(handle C.uintptr_t, errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	if _, err := handleOf[*stream](handle); err != nil {
		return statusOf(err, errmsg)
	}
	cgo.Handle(handle).Delete()
	return statusOK
}
