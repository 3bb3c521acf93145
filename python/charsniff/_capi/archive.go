package main

/*
#include "capi.h"
*/
import "C"

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"runtime/cgo"
	"sync"
	"unsafe"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/warc"
)

// recordLine returns the command's JSON line of rec (charsniff --json),
// once rec is finished: archive.Result's own JSON form, so that the Python
// records have the command's fields whatever they become.
func recordLine(rec *archive.Record) ([]byte, error) {
	return json.Marshal(rec.Finish())
}

// An archiveReader reads a WARC or ARC file on its own goroutine (and the
// archive package's, on all cores) ahead of the caller, who takes the
// records in file order from items.
type archiveReader struct {
	items  chan item
	cancel context.CancelFunc
	done   chan struct{} // closed when the reading goroutine has returned
	closer io.Closer     // the file opened by path, or nil
	text   bool          // decode the records' text
	mu     sync.Mutex    // next is called by one caller at a time; this makes sure
}

// An item is one record (its line, then its text) or the error that
// ended the reading.
type item struct {
	buf     []byte
	lineLen int
	err     error
}

// ahead is how many records the reader holds decoded for the caller.
const ahead = 8

// start reads the archive of head (its first bytes) with read, on a new
// goroutine.
func start(head []byte, closer io.Closer, text C.int32_t, read func(ctx context.Context, fn func(*archive.Record) error) error) (C.uintptr_t, error) {
	kind, err := warc.Detect(head)
	if err != nil {
		return 0, fail(errArchive, "charsniff: %v", err)
	}
	if kind.Format == "" {
		return 0, fail(errArchive, "charsniff: not a WARC or ARC file")
	}
	ctx, cancel := context.WithCancel(context.Background())
	ar := &archiveReader{items: make(chan item, ahead), cancel: cancel, done: make(chan struct{}), closer: closer, text: text != 0}
	go ar.run(ctx, read)
	return C.uintptr_t(cgo.NewHandle(ar)), nil
}

// run reads the records with read and hands them to items.
func (ar *archiveReader) run(ctx context.Context, read func(ctx context.Context, fn func(*archive.Record) error) error) {
	defer close(ar.done)
	defer close(ar.items)
	defer func() {
		if v := recover(); v != nil {
			ar.items <- item{err: fail(errInternal, "charsniff: internal error: %v", v)}
		}
	}()
	err := read(ctx, func(rec *archive.Record) error {
		var it item
		if ar.text {
			var buf bytes.Buffer
			rec.WriteText(&buf) // its error is the record's
			line, err := recordLine(rec)
			if err != nil {
				return err
			}
			it.buf = append(line, buf.Bytes()...)
			it.lineLen = len(line)
		} else {
			line, err := recordLine(rec)
			if err != nil {
				return err
			}
			it.buf, it.lineLen = line, len(line)
		}
		select {
		case ar.items <- it:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		ar.items <- item{err: err}
	}
}

// archiveOptions are the archive options of an open call: the lines of
// charsniff --json, with provenance, or with text of --decode --json,
// without.
func archiveOptions(name string, offset, lookahead C.int64_t, text C.int32_t) archive.Options {
	o := archive.Options{File: name, Offset: int64(offset), Provenance: text == 0}
	if lookahead >= 0 {
		o.Decode = []decode.Option{decode.WithLookahead(int64(lookahead))}
	}
	return o
}

// charsniff_archive_open_fd reads the WARC or ARC file open as the file
// descriptor fd, from its start, for charsniff_archive_next; it owns fd from
// the call on, closing it on an error or in charsniff_archive_close. A
// regular file is read on all cores
// (archive.Parallel), another (a pipe) in order (archive.ParallelStream). The
// records' file field is name, their offsets are the file's plus offset;
// text = 0 leaves their text out.
//
//export charsniff_archive_open_fd
func charsniff_archive_open_fd(fd C.int32_t, name *C.char, nameLen C.int64_t, offset, lookahead C.int64_t, text C.int32_t, handle *C.uintptr_t, errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	opts := archiveOptions(stringOf(name, nameLen), offset, lookahead, text)
	f := os.NewFile(uintptr(fd), opts.File)
	if f == nil {
		return statusOf(fail(errArg, "charsniff: bad file descriptor %d", fd), errmsg)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return statusOf(err, errmsg)
	}
	var head []byte
	var read func(context.Context, func(*archive.Record) error) error
	if fi.Mode().IsRegular() {
		head = make([]byte, min(fi.Size(), warc.SniffLen))
		if _, err := f.ReadAt(head, 0); err != nil && err != io.EOF {
			f.Close()
			return statusOf(err, errmsg)
		}
		size := fi.Size()
		read = func(ctx context.Context, fn func(*archive.Record) error) error {
			return drive(archive.Parallel(ctx, f, size, opts), fn)
		}
	} else {
		br := bufio.NewReaderSize(f, warc.SniffLen)
		head, err = br.Peek(warc.SniffLen)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			f.Close()
			return statusOf(err, errmsg)
		}
		read = func(ctx context.Context, fn func(*archive.Record) error) error {
			return drive(archive.ParallelStream(ctx, br, opts), fn)
		}
	}
	h, err := start(head, f, text, read)
	if err != nil {
		f.Close()
		return statusOf(err, errmsg)
	}
	*handle = h
	return statusOK
}

// charsniff_archive_open_bytes is charsniff_archive_open_fd for an
// archive in data[:n], which it copies: read on all cores.
//
//export charsniff_archive_open_bytes
func charsniff_archive_open_bytes(data *C.char, n C.int64_t, name *C.char, nameLen C.int64_t, offset, lookahead C.int64_t, text C.int32_t, handle *C.uintptr_t, errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	opts := archiveOptions(stringOf(name, nameLen), offset, lookahead, text)
	b := bytes.Clone(bytesOf(data, n)) // read after the call returns
	src := bytes.NewReader(b)
	read := func(ctx context.Context, fn func(*archive.Record) error) error {
		return drive(archive.Parallel(ctx, src, int64(len(b)), opts), fn)
	}
	h, err := start(b[:min(len(b), warc.SniffLen)], nil, text, read)
	if err != nil {
		return statusOf(err, errmsg)
	}
	*handle = h
	return statusOK
}

// charsniff_archive_open_reader is charsniff_archive_open_fd for an
// archive that fn reads, in order (archive.ParallelStream). It reads the first
// 64 KiB during the call; afterwards fn is called from the reader's own
// thread, until charsniff_archive_close returns.
//
//export charsniff_archive_open_reader
func charsniff_archive_open_reader(fn C.cs_read_fn, ctx C.uintptr_t, name *C.char, nameLen C.int64_t, offset, lookahead C.int64_t, text C.int32_t, handle *C.uintptr_t, errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	if fn == nil {
		return statusOf(fail(errArg, "charsniff: no read callback"), errmsg)
	}
	opts := archiveOptions(stringOf(name, nameLen), offset, lookahead, text)
	br := bufio.NewReaderSize(&callbackReader{fn: fn, ctx: ctx}, warc.SniffLen)
	head, err := br.Peek(warc.SniffLen)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return statusOf(err, errmsg)
	}
	read := func(ctx context.Context, fn func(*archive.Record) error) error {
		return drive(archive.ParallelStream(ctx, br, opts), fn)
	}
	h, err := start(head, nil, text, read)
	if err != nil {
		return statusOf(err, errmsg)
	}
	*handle = h
	return statusOK
}

// charsniff_archive_next stores the next record in *out (freed with
// charsniff_free): its JSON line, *lineLen bytes, then its text, *textLen
// bytes (0 without text). It returns CS_EOF after the last record, and the
// error that ended the reading (a read error) once.
//
//export charsniff_archive_next
func charsniff_archive_next(handle C.uintptr_t, out **C.char, lineLen, textLen *C.int64_t, errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	*out, *lineLen, *textLen = nil, 0, 0
	ar, err := handleOf[*archiveReader](handle)
	if err != nil {
		return statusOf(err, errmsg)
	}
	ar.mu.Lock()
	defer ar.mu.Unlock()
	it, ok := <-ar.items
	if !ok {
		return statusEOF
	}
	if it.err != nil {
		return statusOf(it.err, errmsg)
	}
	p := C.malloc(C.size_t(max(len(it.buf), 1)))
	if p == nil {
		return statusOf(fail(errInternal, "charsniff: out of memory"), errmsg)
	}
	copy(unsafe.Slice((*byte)(p), len(it.buf)), it.buf)
	*out, *lineLen, *textLen = (*C.char)(p), C.int64_t(it.lineLen), C.int64_t(len(it.buf)-it.lineLen)
	return statusOK
}

// charsniff_archive_close stops the reading, waits for its goroutine (and
// so for the last call of a read callback) and closes the file it opened.
// The handle is invalid afterwards.
//
//export charsniff_archive_close
func charsniff_archive_close(handle C.uintptr_t, errmsg **C.char) (status C.int32_t) {
	defer guard(&status, errmsg)
	ar, err := handleOf[*archiveReader](handle)
	if err != nil {
		return statusOf(err, errmsg)
	}
	cgo.Handle(handle).Delete()
	ar.cancel()
	for range ar.items { // unblock the goroutine's send
	}
	<-ar.done
	if ar.closer != nil {
		if err := ar.closer.Close(); err != nil {
			return statusOf(fmt.Errorf("charsniff: %w", err), errmsg)
		}
	}
	return statusOK
}

// drive calls fn with each record of seq, in order, and returns the first
// error of either (leaving the loop stops seq's goroutines).
func drive(seq iter.Seq2[*archive.Record, error], fn func(*archive.Record) error) error {
	for rec, err := range seq {
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
	return nil
}
