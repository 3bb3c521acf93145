package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/contentcoding"
	"github.com/charsniff/charsniff/internal/firsterr"
	"github.com/charsniff/charsniff/internal/mimesniff"
	"github.com/charsniff/charsniff/sniff"
	"github.com/charsniff/charsniff/warc"
)

// worker processes inputs one at a time, reusing its readers.
type worker struct {
	a  *app
	rd *decode.Reader  // nil until the first plain input
	br *bufio.Reader   // over each input, to recognize WARC files
	zr *bufio.Reader   // over a compressed input's content, to tell text from binary
	ar *archive.Reader // nil until the first WARC input
	// opts are the options of rd: the app's, and with provenance the
	// option that has rd write prov.
	opts  []decode.Option
	prov  sniff.Provenance
	count archive.Counter // the U+FFFD of a plain input's lost declarations
}

func (a *app) newWorker() *worker {
	w := &worker{a: a, opts: a.opts}
	if a.provenance {
		w.opts = append(slices.Clip(a.opts), decode.WithProvenance(&w.prov))
	}
	return w
}

// reader returns the worker's reader, reset to read src.
func (w *worker) reader(src io.Reader) (*decode.Reader, error) {
	if w.rd == nil {
		rd, err := decode.NewReader(src, w.opts...)
		if err != nil {
			return nil, err
		}
		w.rd = rd
		return rd, nil
	}
	// The options again: decode's coming Reset does not keep them.
	if err := w.rd.Reset(src, w.opts...); err != nil {
		return nil, err
	}
	return w.rd, nil
}

// countedReader is reader for a plain input: with provenance, src is
// read through the worker's Counter, which starts counting once the
// reader has sniffed.
func (w *worker) countedReader(src io.Reader) (*decode.Reader, error) {
	if !w.a.provenance {
		return w.reader(src)
	}
	rd, err := w.reader(w.count.Reader(src))
	if err != nil {
		return nil, err
	}
	first := w.fileResult("", rd)
	w.count.Sniffed(&first)
	return rd, nil
}

// finishCount sets r's Mismatch, with provenance, reading the rest of
// the input through the Counter if a declaration lost (a read error
// there leaves its count at -1: the input's line stays as sniffed).
func (w *worker) finishCount(r *archive.Result) {
	if w.a.provenance {
		w.count.Finish(r)
	}
}

// opened is an input open for reading.
type opened struct {
	*source                  // the file (or standard input)
	r       io.Reader        // its content, buffered, decompressed if it was compressed
	er      *firsterr.Reader // the read errors of r: the file's or the decompressor's
	warc    bool             // a WARC file (or --warc)
	unpack  bool             // r is decompressed: the file's size is not the document's
	m       *meter           // counts the bytes read for the progress bar
}

// Close closes the input and counts it done for the progress bar.
func (o *opened) Close() error {
	o.m.done(o.size)
	return o.source.Close()
}

// openInput opens in (see openFirst); an input that cannot be opened is
// counted done for the progress bar at once.
func (w *worker) openInput(in input) (*opened, error) {
	o, err := w.openFirst(in)
	if err != nil {
		w.a.prog.inputDone()
	}
	return o, err
}

// openFirst opens in and looks at its first bytes: a WARC file (plain,
// gzip, zstd or LZ4; see warc.Detect) is read as one, and another
// compressed file (page.html.gz) is decompressed. A read error in the
// first bytes, a bad gzip header, or an archive in a container or version
// the warc package does not read (bzip2, WARC/2.0) is returned as err.
func (w *worker) openFirst(in input) (*opened, error) {
	src, err := open(in, w.a.stdin, w.a.outs)
	if err != nil {
		return nil, err
	}
	o := &opened{source: src, er: &firsterr.Reader{R: src}, m: &meter{p: w.a.prog}}
	if o.m.p != nil {
		o.er.R = meteredReader{src, o.m}
	}
	if w.br == nil {
		w.br = bufio.NewReaderSize(o.er, 64<<10)
	} else {
		w.br.Reset(o.er)
	}
	o.r = w.br
	head, _ := w.br.Peek(max(warc.SniffLen, mimesniff.HeaderLen))
	if o.er.Err != nil {
		src.Close()
		return nil, o.er.Err
	}
	if o.warc, err = w.isArchive(in, head); err != nil {
		src.Close()
		return nil, err
	}
	if in.rng != nil && !o.warc {
		// A range is a record's coordinates: one error, not a line for
		// each stretch of garbage.
		src.Close()
		return nil, fmt.Errorf("range %d:%d: no WARC record starts at offset %d", in.rng.off, in.rng.n, in.rng.off)
	}
	if o.warc {
		o.r = warcSource(in, src, o.r)
		if rs, ok := o.r.(io.ReadSeeker); ok && o.m.p != nil && o.r != w.br {
			o.m.rewind() // moved back to its start
			o.r = meteredReadSeeker{meteredReader{rs, o.m}, rs}
		}
		return o, nil
	}
	dr, err := w.decompressor(head, w.br)
	if err != nil {
		src.Close()
		return nil, err
	}
	if dr != nil {
		o.er = &firsterr.Reader{R: dr}
		o.r, o.unpack = w.unpacked(o.er), true
		head, _ = o.r.(*bufio.Reader).Peek(mimesniff.HeaderLen)
	}
	name := in.path
	if in.stdin {
		name = ""
	}
	if err := w.a.checkText(head, name, o.unpack); err != nil {
		src.Close()
		return nil, err
	}
	return o, nil
}

// isArchive reports whether head starts a web archive, to be read as one
// (or --warc says so). An archive in a container or version the warc
// package does not read is an error, not a page sniffed from its bytes; an
// input met walking a directory that is no archive is errNotArchive.
func (w *worker) isArchive(in input, head []byte) (bool, error) {
	kind, err := warc.Detect(head)
	switch {
	case in.onlyArchive && (err != nil || kind.Format == ""):
		return false, errNotArchive
	case err != nil:
		return false, err
	}
	return w.a.cfg.warc || kind.Format != "", nil
}

// unpacked returns the worker's buffered reader of decompressed content,
// reset to read r.
func (w *worker) unpacked(r io.Reader) *bufio.Reader {
	if w.zr == nil {
		w.zr = bufio.NewReaderSize(r, 4096)
	} else {
		w.zr.Reset(r)
	}
	return w.zr
}

// warcSource returns what the WARC reader of in reads: the file itself (or
// its byte range), moved back to its start, if it can seek, so that the
// reader can go back to a damaged record's block however far (see
// warc.Reader); otherwise buffered, which has read the first bytes.
func warcSource(in input, src *source, buffered io.Reader) io.Reader {
	rs, ok := src.Reader.(io.ReadSeeker)
	if !ok || in.stdin {
		return buffered
	}
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return buffered // a pipe or FIFO named on the command line
	}
	return rs
}

// decompressor returns a reader of the decompressed content of an input
// that starts with head and is read from r, if its first bytes say it is
// compressed (gzip or zstd: brotli cannot be told by content), or nil if
// they do not. A local file is the user's own: its size is not capped, and
// it streams through in bounded memory.
func (w *worker) decompressor(head []byte, r io.Reader) (io.Reader, error) {
	coding := contentcoding.Sniff(head)
	if coding == "" {
		return nil, nil
	}
	cr, err := contentcoding.NewReader(io.NopCloser(r), []string{coding}, contentcoding.Limits{MaxSize: -1, MaxRatio: -1})
	if err != nil {
		return nil, fileCodingError(err)
	}
	return codingErrors{cr}, nil
}

// codingErrors names a file's compression in its reader's errors as
// "gzip: problem" rather than as an HTTP content coding.
type codingErrors struct{ r io.Reader }

func (c codingErrors) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	return n, fileCodingError(err)
}

// fileCodingError turns a content coding's error into a file's.
func fileCodingError(err error) error {
	var ce *contentcoding.CodingError
	if errors.As(err, &ce) {
		return fmt.Errorf("%s: %w", ce.Coding, ce.Err)
	}
	return err
}

// sniff runs the sniffing algorithm on in, reading only the window of a
// plain input, and sends its results with send, in batches, the last one
// marked. It stops when send returns false.
func (w *worker) sniff(in input, send func(sniffed) bool) {
	b := &batch{send: send}
	defer func() {
		// A last resort: a bug must cost one input, not the run.
		if v := recover(); v != nil {
			b.rs = append(b.rs, internalError(in.path, v))
		}
		if b.err == nil {
			send(sniffed{rs: b.rs, last: true, warc: b.warc})
		}
	}()
	if in.err != nil {
		w.a.prog.inputDone()
		r := errorResult(in.path, in.err)
		r.fatal = in.fatal
		b.end(&r)
		return
	}
	w.sniffInput(in, b)
}

// sniffInput sniffs in, an input that could be named, into b.
func (w *worker) sniffInput(in input, b *batch) {
	o, err := w.openInput(in)
	if err == errNotArchive {
		return // skipped: no result
	}
	if err != nil {
		b.end(ptr(errorResult(in.path, err)))
		return
	}
	defer o.Close()
	if o.warc {
		b.warc = newWARCCounts()
		if f := splitWARC(in, o); f != nil {
			w.readParts(in, f, o.size, b, b.warc, o.m)
			return
		}
		w.readWARC(in, o.r, b, b.warc)
		return
	}
	rd, err := w.countedReader(o.r)
	if err != nil {
		b.end(ptr(errorResult(in.path, err)))
		return
	}
	rd.Settle(nil, -1) // its error is o.er's
	if o.er.Err != nil {
		// The reader defers a read error to a Read; nothing more is read
		// here, so report it now.
		b.end(ptr(errorResult(in.path, o.er.Err)))
		return
	}
	r := result{Result: w.fileResult(in.path, rd)}
	w.finishCount(&r.Result)
	if o.size >= 0 && !o.unpack {
		r.bytes = &o.size
	}
	b.end(&r)
}

// internalError is the result of an input whose processing panicked.
func internalError(path string, v any) result {
	return result{Result: archive.Result{File: path, Err: fmt.Errorf("internal error: %v", v)}}
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// errStopped is returned by batch when the output has given up.
var errStopped = errors.New("output stopped")

// batch collects a worker's results for the output.
type batch struct {
	send func(sniffed) bool
	rs   []result
	warc *warcCounts // the input's WARC counts, if it is a WARC file
	err  error       // errStopped once send has refused a batch
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
		if !b.send(sniffed{rs: b.rs}) {
			b.err = errStopped
		}
		b.rs = make([]result, 0, batchSize)
	}
	return b.err
}

// maxSettle bounds the text held to settle a document's decision before
// its line is written (--decode --json): a document whose text is ASCII
// for longer than that (see decode.Reader.Settle) gets a line that starts
// with its text and has its fields, final, after it (result.textFirst).
const maxSettle = 1 << 20

// unsettled reports whether Settle, which read pre, stopped at maxSettle,
// undecided (or decided on the last byte: the line is right either way).
func unsettled(pre []byte) bool { return len(pre) == maxSettle }

// settled holds the buffers of the text read to settle.
var settled = sync.Pool{New: func() any { return new([]byte) }}

func getSettled() *[]byte { return settled.Get().(*[]byte) }

func putSettled(b *[]byte) {
	if cap(*b) <= maxSettle {
		settled.Put(b)
	}
}
