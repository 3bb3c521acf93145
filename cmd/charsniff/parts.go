package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/charsniff/charsniff/archive"
)

// partSize is the size of the parts a large gzip WARC file is cut into
// to be read on several cores (see archive.Split); a variable for the
// tests. A part of a typical crawl inflates to about 800 KB, which
// decodes to about as much text: less than maxPartHold, so that a part
// read ahead of the output rarely waits for its turn. Smaller parts
// hold less memory; 256 KiB took no longer than 1 MiB parts on the
// benchmark's 66 MB file (0.53-0.56 s against 0.56-0.59 s for
// --decode --json on two cores).
var partSize int64 = 256 << 10

// maxPartHold bounds the output a part read ahead of its turn may hold:
// the bytes of its lines and text (--decode; a result to note counts 256
// bytes), or, in sniffing mode, maxPartHold/1024 results. A part that
// would hold more waits for its turn and then writes straight to the
// output. At most 2 × GOMAXPROCS + 1 parts hold output, so what is held
// for one file is bounded by about (2 × GOMAXPROCS + 1) × 2 × maxPartHold
// (a buffer may have twice the room it uses): 10 MiB on two cores, plus
// each core's archive.Reader (about 4 MiB).
var maxPartHold = 1 << 20

// split is archive.Split; the tests make wrong cuts with it, to check
// that the parts catch them.
var split = archive.Split

// splitWARC returns the file of the WARC input in, opened as o, and where
// to cut it to read it on several cores; nil cuts when it is read as one
// part: on one core, from standard input or a byte range, or a file that
// is not a regular gzip file of more than two parts of one gzip member
// per record or so.
func splitWARC(in input, o *opened) (*os.File, []int64) {
	if runtime.GOMAXPROCS(0) == 1 || in.stdin || in.rng != nil || o.size < 2*partSize {
		return nil, nil
	}
	f, ok := o.source.Reader.(*os.File)
	if !ok {
		return nil, nil
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() != o.size {
		return nil, nil
	}
	cuts := split(f, o.size, partSize)
	if len(cuts) < 2 {
		return nil, nil
	}
	return f, cuts
}

// A part is a byte range of a WARC file read on its own core, its output
// held until the parts before it have been written.
type part struct {
	in     input         // the file, with the part's byte range
	c      *warcCounts   // the part's counts
	turn   chan struct{} // closed when the parts before it are written
	done   chan struct{} // closed when the part has been read
	stop   <-chan struct{}
	live   bool // the turn came: the part writes straight to the output
	held   int  // the bytes of output held
	line   *bytes.Buffer
	text   *bytes.Buffer
	rs     []result // results held: to note, or (sniffing) to send
	err    error    // the output's error
	flush  func(p *part) error
	direct lines     // sniffing: where the results go once live
	out    lines     // the part's lines
	d      *decoder  // decoding: the part's decoder
	tail   *tailHold // out, with the part's trailing error lines held back
}

// wait waits for p's turn and then writes what p holds. It returns the
// output's error, or errStopped if the output has given up.
func (p *part) wait() error {
	if p.live {
		return nil
	}
	select {
	case <-p.turn:
	case <-p.stop:
		return errStopped
	}
	p.live = true
	return p.flush(p)
}

// readParts reads the parts of the WARC file f (of size bytes), cut at
// cuts, on GOMAXPROCS goroutines, each part with read, and writes their
// output in order: flush writes what a part held, on this goroutine or on
// the part's once its turn has come. The counts of the parts go to c. The
// error is the output's.
//
// A part that ends with a damaged record may have been cut inside a
// record (see archive.Split: a gzip WARC file stored in a record can look
// like the start of one): its trailing error lines are held back
// (tailHold), the parts after it are dropped unwritten, and seq reads the
// file from that record to its end on this goroutine, as a file read
// whole would.
func (w *worker) readParts(in input, f *os.File, size int64, cuts []int64, c *warcCounts,
	read func(pw *worker, p *part, src io.Reader) error, flush func(p *part) error,
	seq func(in input, src io.Reader, c *warcCounts, out func(lines) lines) error) error {
	c.files++
	n := runtime.GOMAXPROCS(0)
	work := make(chan *part, n)
	order := make(chan *part, 2*n) // bounds the parts read ahead
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pw := w.a.newWorker()
			for p := range work {
				select {
				case <-stop:
					p.err = errStopped
				default:
					p.err = readPart(pw, p, io.NewSectionReader(f, p.in.rng.off, p.in.rng.n), read)
				}
				close(p.done)
			}
		}()
	}
	go func() {
		defer close(work)
		defer close(order)
		for k, off := range cuts {
			end := size
			if k+1 < len(cuts) {
				end = cuts[k+1]
			}
			pin := in
			pin.rng = &span{off: off, n: end - off}
			p := &part{in: pin, c: newWARCCounts(), turn: make(chan struct{}), done: make(chan struct{}), stop: stop, flush: flush}
			select {
			case order <- p:
			case <-stop:
				return
			}
			work <- p
		}
	}()
	var err error
	// After a part that ends damaged: read again from, write from resume
	// on (and not the record at resume itself if skip).
	var from, resume int64 = 0, -1
	skip := false
	for p := range order {
		if err != nil || resume >= 0 {
			continue
		}
		close(p.turn)
		<-p.done
		damaged := p.err == errPartDamaged
		if damaged {
			p.err = nil
		}
		if p.err == nil && !p.live {
			p.live = true
			p.err = flush(p)
		}
		if p.err == nil && damaged {
			// The part met an error: read the file again from the
			// part's start, on this goroutine, and write the lines
			// from that record on, as a file read whole would; the
			// part's counts go with it.
			from, resume, skip = p.in.rng.off, p.tail.first.Offset, p.tail.skip
			close(stop)
			continue
		}
		c.Counts.Add(&p.c.Counts)
		if err = p.err; err != nil {
			close(stop)
		}
	}
	wg.Wait()
	if err == nil && resume >= 0 {
		pin := in
		pin.rng = &span{off: from, n: size - from}
		rc := newWARCCounts()
		err = seq(pin, io.NewSectionReader(f, from, size-from), rc, func(l lines) lines {
			return &resumeAt{out: l, off: resume, skip: skip}
		})
		c.Counts.Add(&rc.Counts)
	}
	return err
}

// tailHold is a part's lines up to its first error line (a damaged
// record's, or a stretch of garbage's), unless the part is the file's
// last. A part that starts where a record starts reads the records a file
// read whole would, and ends where the next part starts, unless it meets
// an error: damage, or the part's end inside a record (a wrong cut, see
// archive.Split), after which the reader's resynchronization may take
// bytes inside the record for records. So the part stops there, and
// readParts reads the file on from that record on one core, as a file
// read whole. A record whose text is out already gets its line and is
// skipped when read again.
type tailHold struct {
	out   lines
	last  bool    // the part is the file's last: its errors are the file's
	open  bool    // a record's text has begun: the next end is its
	first *result // the first error line, once met: the part stops there
	skip  bool    // first's text and line are out
}

// errPartDamaged stops a part at its first error line.
var errPartDamaged = errors.New("part damaged")

func (t *tailHold) begin(r *result, text func(io.Writer) error) error {
	t.open = true
	return t.out.begin(r, text)
}

func (t *tailHold) end(r *result) error {
	open := t.open
	t.open = false
	if t.last || r.Error == "" || r.Where == nil {
		return t.out.end(r)
	}
	c := *r
	t.first = &c
	if open {
		t.skip = true
		if err := t.out.end(r); err != nil {
			return err
		}
	}
	return errPartDamaged
}

// resumeAt is lines from the record at offset off on: the lines of the
// records before it (and of that record too, the first time, if skip)
// are dropped, as a part wrote them already.
type resumeAt struct {
	out  lines
	off  int64
	skip bool
}

func (s *resumeAt) drop(r *result) bool {
	return r.Where != nil && (r.Offset < s.off || s.skip && r.Offset == s.off)
}

func (s *resumeAt) begin(r *result, text func(io.Writer) error) error {
	if s.drop(r) {
		return text(io.Discard)
	}
	return s.out.begin(r, text)
}

func (s *resumeAt) end(r *result) error {
	if s.drop(r) {
		if r.Offset == s.off {
			s.skip = false
		}
		return nil
	}
	return s.out.end(r)
}

// readPart reads p with read. A panic costs the rest of the part, not
// the run: the part ends with an internal error, as a file does.
func readPart(pw *worker, p *part, src io.Reader, read func(pw *worker, p *part, src io.Reader) error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			if p.d != nil {
				p.d.begun = false
			}
			r := internalError(p.in.path, v)
			err = p.out.end(&r)
		}
	}()
	return read(pw, p, src)
}

// sniffParts is readWARC for a WARC file cut into parts: the results go to
// out in file order.
func (w *worker) sniffParts(in input, f *os.File, size int64, cuts []int64, out lines, c *warcCounts) error {
	maxResults := maxPartHold / 1024
	read := func(pw *worker, p *part, src io.Reader) error {
		p.direct = out
		p.out = &partResults{p: p, max: maxResults}
		p.tail = &tailHold{out: p.out, last: p.in.rng.off+p.in.rng.n == size}
		return pw.readWARC(p.in, src, p.tail, p.c)
	}
	flush := func(p *part) error {
		for i := range p.rs {
			if err := out.end(&p.rs[i]); err != nil {
				return err
			}
		}
		p.rs = nil
		return nil
	}
	seq := func(in input, src io.Reader, c *warcCounts, wrap func(lines) lines) error {
		return w.readWARC(in, src, wrap(out), c)
	}
	return w.readParts(in, f, size, cuts, c, read, flush, seq)
}

// partResults are the lines of a part in sniffing mode: results held until
// the part's turn, at most max of them.
type partResults struct {
	p   *part
	max int
}

func (r *partResults) begin(*result, func(io.Writer) error) error { return nil }

func (r *partResults) end(res *result) error {
	p := r.p
	if !p.live && len(p.rs) < r.max {
		p.rs = append(p.rs, *res)
		return nil
	}
	if err := p.wait(); err != nil {
		return err
	}
	return p.direct.end(res)
}

// decodeParts is decodeWARC for a WARC file cut into parts: each part is
// decoded on a core of its own, its text and lines held (up to
// maxPartHold bytes) until the parts before it are written.
func (w *worker) decodeParts(in input, f *os.File, size int64, cuts []int64, d *decoder, c *warcCounts) error {
	read := func(pw *worker, p *part, src io.Reader) error {
		pd := &decoder{a: d.a, part: p}
		if d.out != nil {
			p.line = getPartBuffer()
			pd.out = &heldWriter{p: p, buf: p.line, dst: d.out}
		}
		if d.tw != nil {
			p.text = getPartBuffer()
			pd.tw = &heldWriter{p: p, buf: p.text, dst: d.tw}
		}
		if d.text != nil {
			pd.text = new(jsonText)
		}
		p.d, p.out = pd, pd
		p.tail = &tailHold{out: pd, last: p.in.rng.off+p.in.rng.n == size}
		return pw.readWARC(p.in, src, p.tail, p.c)
	}
	flush := func(p *part) error {
		for i := range p.rs {
			d.a.note(&p.rs[i])
		}
		p.rs = nil
		for _, b := range []*bytes.Buffer{p.text, p.line} {
			if b == nil {
				continue
			}
			dst := io.Writer(d.out)
			if b == p.text {
				dst = d.tw
			}
			_, err := dst.Write(b.Bytes())
			if b.Reset(); b.Cap() <= 2*maxPartHold {
				partBuffers.Put(b)
			}
			if err != nil {
				return err
			}
		}
		p.text, p.line = nil, nil
		return nil
	}
	seq := func(in input, src io.Reader, c *warcCounts, wrap func(lines) lines) error {
		return w.readWARC(in, src, wrap(d), c)
	}
	return w.readParts(in, f, size, cuts, c, read, flush, seq)
}

// partBuffers holds the buffers of written parts for reuse.
var partBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getPartBuffer() *bytes.Buffer { return partBuffers.Get().(*bytes.Buffer) }

// note notes r for the part: now if its turn has come, otherwise when it
// comes.
func (p *part) note(r *result) {
	if p.live {
		p.d.a.note(r)
		return
	}
	if p.held += 256; p.held > maxPartHold {
		if p.wait() == nil {
			p.d.a.note(r)
			return
		}
	}
	p.rs = append(p.rs, *r)
}

// heldWriter is a part's output in decoding mode: its buffer until the
// part's turn, the output itself afterwards.
type heldWriter struct {
	p   *part
	buf *bytes.Buffer
	dst io.Writer
}

func (h *heldWriter) Write(b []byte) (int, error) {
	p := h.p
	if !p.live && p.held+len(b) > maxPartHold {
		if err := p.wait(); err != nil {
			return 0, err
		}
	}
	if p.live {
		return h.dst.Write(b)
	}
	p.held += len(b)
	return h.buf.Write(b)
}

func (h *heldWriter) WriteString(s string) (int, error) {
	p := h.p
	if !p.live && p.held+len(s) > maxPartHold {
		if err := p.wait(); err != nil {
			return 0, err
		}
	}
	if p.live {
		return io.WriteString(h.dst, s)
	}
	p.held += len(s)
	return h.buf.WriteString(s)
}

func (h *heldWriter) WriteByte(c byte) error {
	_, err := h.Write([]byte{c})
	return err
}
