package archive

import (
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/charsniff/charsniff/internal/firsterr"
	"github.com/charsniff/charsniff/sniff"
	"github.com/charsniff/charsniff/warc"
)

// A heldRecord is an HTML record whose payload has been read into memory
// and whose block has been checked to its end, detached from its Reader:
// it can be sniffed and decoded with a recordWorker on another goroutine while
// the Reader reads on. See Reader.holdNext.
type heldRecord struct {
	rec         *Record // metadata, and Result.Err for damage found
	buf         *bytes.Buffer
	payload     []byte
	err         error // the read error after payload, if any
	decode      Options
	contentType sniff.MIMEType
}

// Size returns the size of the held payload in bytes.
func (h *heldRecord) Size() int { return len(h.payload) }

// payloads holds the memory of released payloads for reuse.
var payloads = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Release gives the memory of h's payload back for reuse by holdNext, once
// the text of the Record recordWorker.Open made of it has been read. Neither h
// nor that Record's Text may be used afterwards. Release is optional
// (without it, the garbage collector reclaims the payload) and may be
// called on any goroutine.
func (h *heldRecord) Release() {
	if h.buf != nil && h.buf.Cap() <= 2*maxReuse {
		h.buf.Reset()
		payloads.Put(h.buf)
	}
	h.buf, h.payload = nil, nil
}

// maxReuse bounds the payload buffers kept for reuse, so that one huge
// max does not pin its memory.
const maxReuse = 4 << 20

// holdNext is Next for an engine that spreads the records of one file over
// several goroutines. An HTML record whose payload (after its transfer
// and content codings are removed) is at most max bytes is returned as a
// *heldRecord: its payload read, the record finished, ready for recordWorker.Open on
// any goroutine. Any other record (a larger one, or one with an error) is
// returned as Next returns it, to be handled on this goroutine (its text
// read, then Finish) before the next call. Exactly one of the two results
// is non-nil unless err is.
//
// The memory held is the payloads of the held records not yet dropped,
// each at most max bytes, plus what Next holds.
func (r *Reader) holdNext(max int) (*Record, *heldRecord, error) {
	if c := r.cur; c != nil {
		c.Finish()
	}
	if r.err != nil {
		return nil, nil, r.err
	}
	for {
		wrec, err := r.read()
		if err != nil {
			rec, err := r.problem(err)
			return rec, nil, err
		}
		r.counts.Records++
		rec, p := r.frame(wrec)
		if rec == nil {
			continue
		}
		r.cur = rec
		if p == nil {
			return rec, nil, nil
		}
		return r.hold(rec, p, max)
	}
}

// hold reads rec's payload p if it is at most max bytes, and returns the
// record held and finished; otherwise it sniffs the record in place.
func (r *Reader) hold(rec *Record, p *warc.Payload, max int) (*Record, *heldRecord, error) {
	src := firsterr.Reader{R: p.Body}
	buf := payloads.Get().(*bytes.Buffer)
	_, err := buf.ReadFrom(io.LimitReader(&src, int64(max)+1))
	if err == nil && buf.Len() > max {
		// Too large: stream it, the bytes read first (the buffer is
		// garbage once they are).
		body := io.MultiReader(bytes.NewReader(buf.Bytes()), &src)
		r.sniffer.start(rec, body, &r.opts, mimeType(p), hostOf(rec.TargetURI))
		return rec, nil, nil
	}
	h := &heldRecord{rec: rec, buf: buf, payload: buf.Bytes(), err: src.Err, decode: r.opts, contentType: mimeType(p)}
	if src.Err != nil {
		rec.fail(src.Err)
	}
	rec.Finish()
	rec.r = nil
	return nil, h, nil
}

// problem turns an error of the warc.Reader into Next's results: a
// Record for a damaged record or stretch of garbage, or a final error.
func (r *Reader) problem(err error) (*Record, error) {
	var re *warc.RecordError
	switch {
	case err == io.EOF:
		r.err = io.EOF
		return nil, io.EOF
	case errors.As(err, &re):
		r.counts.Failed++
		var se *warc.SkippedError
		if errors.As(re, &se) {
			r.counts.SkippedRanges++
			r.counts.SkippedBytes += se.End - se.Start
		}
		off := r.opts.Offset + re.Offset
		return &Record{Offset: off, RecordID: re.RecordID, finished: true, Result: Result{
			File:  r.opts.File,
			Where: &Where{RecordID: re.RecordID, Offset: off},
			Err:   problem(re),
		}}, nil
	}
	r.counts.Failed++
	r.err = err
	return nil, err
}

// A recordWorker sniffs and decodes held records on one goroutine, reusing its
// decoder from record to record. The zero recordWorker is ready to use; a recordWorker
// is not safe for concurrent use.
type recordWorker struct {
	sniffer
	part *Reader // the Reader of ReadAll's parts, nil until the first
}

// reader returns w's Reader, reset to read src.
func (w *recordWorker) reader(src io.Reader, opts Options) *Reader {
	if w.part == nil {
		w.part = NewReader(src, opts)
	} else {
		w.part.Reset(src, opts)
	}
	return w.part
}

// Open sniffs h's payload and returns the record with its Result and a
// Text to read, as Reader.Next would have returned it (damage found in
// its block is already in Result.Err). The Text is valid until the next
// call to Open on w.
func (w *recordWorker) Open(h *heldRecord) *Record {
	rec := *h.rec
	rec.text, rec.Text, rec.finished = nil, nil, false
	w.sniffer.start(&rec, &heldPayload{b: h.payload, err: h.err}, &h.decode, h.contentType, hostOf(rec.TargetURI))
	return &rec
}

// heldPayload reads a held payload, then its read error, if any.
type heldPayload struct {
	b   []byte
	err error
}

func (p *heldPayload) Read(b []byte) (int, error) {
	if len(p.b) == 0 {
		if p.err != nil {
			return 0, p.err
		}
		return 0, io.EOF
	}
	n := copy(b, p.b)
	p.b = p.b[n:]
	return n, nil
}
