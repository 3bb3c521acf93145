package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/warc"
)

// worker processes inputs one at a time, reusing its readers.
type worker struct {
	a  *app
	rd *decode.Reader  // nil until the first plain input
	br *bufio.Reader   // over each input, to recognize WARC files
	ar *archive.Reader // nil until the first WARC input
}

func (a *app) newWorker() *worker { return &worker{a: a} }

// reader returns the worker's reader, reset to read src.
func (w *worker) reader(src io.Reader) (*decode.Reader, error) {
	if w.rd == nil {
		rd, err := decode.NewReader(src, w.a.opts...)
		if err != nil {
			return nil, err
		}
		w.rd = rd
		return rd, nil
	}
	if err := w.rd.Reset(src); err != nil {
		return nil, err
	}
	return w.rd, nil
}

// openInput opens in and looks at its first bytes. It returns the input
// buffered, and whether it is a WARC file (or --warc says to read it as
// one). A read error in the first bytes is returned as err.
func (w *worker) openInput(in input) (src *source, br *bufio.Reader, er *errReader, isWARC bool, err error) {
	src, err = open(in, w.a.stdin, w.a.outInfo)
	if err != nil {
		return nil, nil, nil, false, err
	}
	er = &errReader{r: src}
	if w.br == nil {
		w.br = bufio.NewReaderSize(er, 64<<10)
	} else {
		w.br.Reset(er)
	}
	head, _ := w.br.Peek(warc.SniffLen)
	if er.err != nil {
		src.Close()
		return nil, nil, nil, false, er.err
	}
	return src, w.br, er, w.a.cfg.warc || warc.IsWARC(head), nil
}

// sniff runs the sniffing algorithm on the input of j, reading only the
// window of a plain input, and sends the results to j.out. It gives up when
// done is closed.
func (w *worker) sniff(j *job, done <-chan struct{}) {
	b := &batch{j: j, done: done}
	defer func() {
		// A last resort: a bug must cost one input, not the run.
		if v := recover(); v != nil {
			b.rs = append(b.rs, internalError(j.in.path, v))
		}
		b.flush()
		close(j.out)
	}()
	src, br, er, isWARC, err := w.openInput(j.in)
	if err != nil {
		b.end(ptr(errorResult(j.in.path, err)))
		return
	}
	defer src.Close()
	if isWARC {
		j.warc = newWARCCounts()
		w.readWARC(j.in.path, br, b, j.warc)
		return
	}
	rd, err := w.reader(br)
	if err != nil {
		b.end(ptr(errorResult(j.in.path, err)))
		return
	}
	if er.err != nil {
		// The reader defers a read error to its first Read; the window is
		// all that is read here, so report it now.
		b.end(ptr(errorResult(j.in.path, er.err)))
		return
	}
	r := result{Result: archive.NewResult(j.in.path, rd)}
	if src.size >= 0 {
		r.Bytes = &src.size
	}
	b.end(&r)
}

// internalError is the result of an input whose processing panicked.
func internalError(path string, v any) result {
	return result{Result: archive.Result{File: path, Error: fmt.Sprintf("internal error: %v", v)}}
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// errStopped is returned by batch when the output has given up.
var errStopped = errors.New("output stopped")

// batch collects a worker's results for its job's channel.
type batch struct {
	j    *job
	done <-chan struct{}
	rs   []result
	err  error
}

// begin does nothing: in sniffing mode the line waits for end, and there
// is no text.
func (b *batch) begin(*result, func(io.Writer) error) error { return b.err }

// end adds r to the batch, sending the batch when it is full.
func (b *batch) end(r *result) error {
	if b.err != nil {
		return b.err
	}
	b.rs = append(b.rs, *r)
	if len(b.rs) == batchSize {
		b.flush()
	}
	return b.err
}

// flush sends the results collected so far.
func (b *batch) flush() {
	if len(b.rs) == 0 || b.err != nil {
		return
	}
	select {
	case b.j.out <- b.rs:
		b.rs = make([]result, 0, batchSize)
	case <-b.done:
		b.err = errStopped
	}
}

// errReader remembers the first error other than io.EOF from its reader.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
