package archive

import (
	"bytes"
	"context"
	"errors"
	"io"
	"iter"
	"runtime"
	"sync"

	"github.com/charsniff/charsniff/internal/ordered"
)

// defaultPartSize is the size of the parts ReadAll cuts a gzip WARC file
// into (see Split) when Options.PartSize is 0.
const defaultPartSize = 256 << 10

// maxHeld returns the payload size to Hold for MaxHeld, -1 for none.
func (o *Options) maxHeld() int {
	switch {
	case o.MaxHeld == 0:
		return maxHeldPayload
	case o.MaxHeld < 0:
		return -1
	}
	return o.MaxHeld
}

// split returns the cuts of Split one at a time; the tests make wrong cuts
// with it.
var split = func(src io.ReaderAt, size, partSize int64) func() (int64, bool) {
	return newCutter(src, size, partSize).next
}

// Memory bounds of ReadAll (see its documentation).
const (
	maxHeldPayload = 1 << 20 // the largest payload decoded ahead of its turn
	partQueue      = 256     // records a part may hold ahead of its turn
	partHeld       = 2 << 20 // bytes of text a part may hold ahead of its turn
)

// readAll reads the WARC file src of size bytes on all cores
// (GOMAXPROCS goroutines) and calls fn with each record Reader.Next would
// return, in file order, one call at a time. fn may read the record's Text
// (or call WriteText) and call Finish for the final Result, until it
// returns; the record is finished afterwards, and its Text may not be
// kept. The offsets of the results are src's plus opts.Offset.
//
// A gzip file of one member per record, or a zstd file of one frame per
// record, is cut into parts of about 256 KiB (Options.PartSize) at record
// starts (see Split), each read by its own Reader ahead of its turn, while
// the next cuts are looked for. Records whose payload is at most 1 MiB
// are decoded ahead, straight into memory, their text held there, and
// larger ones when their turn comes, as they are read (Options.MaxHeld);
// with Options.NoText each record is sniffed where it is read and only
// its Result is held. At most 2 × GOMAXPROCS + 1 parts are read at
// once, and a part holds at most 2 MiB of text (and 256 records) ahead
// of its turn, beyond the record it is decoding: so memory is bounded by
// about (2 × GOMAXPROCS + 1) × 5 MiB at worst (a payload of 1 MiB
// decodes to at most 3 MiB of UTF-8), and is typically a few MiB. A
// file that is not gzip or zstd, or cannot be cut (see Split), is read
// as ReadStream reads it.
//
// A part that meets an error before its end (damage, or its end inside a
// record, if a cut was wrong after all) is read on from its start on one
// goroutine (ReadStream), as the whole file would be, so the records are
// those of Reader.Next in every case.
//
// A panic on one of ReadAll's goroutines (a bug) is raised again on the
// caller's, once the others have stopped.
//
// readAll returns the counts of the file (complete when the error is nil)
// and the first error: fn's (which stops the reading), ctx's, or a read
// error of src, which ends the reading as it ends Reader.Next's.
func readAll(ctx context.Context, src io.ReaderAt, size int64, opts Options, fn func(*Record) error) (*Counts, error) {
	ps := opts.PartSize
	if ps <= 0 {
		ps = defaultPartSize
	}
	n := runtime.GOMAXPROCS(0)
	if n == 1 {
		return readStream(ctx, io.NewSectionReader(src, 0, size), opts, fn)
	}
	cuts := split(src, size, ps)
	cuts() // 0
	second, ok := cuts()
	if !ok {
		return readStream(ctx, io.NewSectionReader(src, 0, size), opts, fn)
	}
	counts := &Counts{Skipped: make(map[string]int)}
	workers := make(chan *recordWorker, n) // reused by the part readers
	for range n {
		workers <- new(recordWorker)
	}
	var damaged *allPart
	cfg := ordered.Config{Workers: n, Ahead: 2*n + 1, Queue: partQueue}
	err := ordered.FlatMap(ctx, cfg, parts(second, cuts, size), func(ctx context.Context, p *allPart, send func(partItem) bool) {
		aw := <-workers
		defer func() { workers <- aw }()
		p.read(ctx, src, opts, aw, send)
		send(partItem{end: p})
	}, func(it partItem) error {
		if it.end == nil {
			return it.emit(fn)
		}
		if it.end.first >= 0 {
			damaged = it.end
			return errReadOn
		}
		counts.add(&it.end.counts)
		return nil
	})
	if err == errReadOn {
		err = damaged.readOn(ctx, src, size, opts, fn, counts)
	}
	return counts, err
}

// errReadOn stops ReadAll's parts at a part that met an error before its
// end: the rest of the file is read from that part's start on one
// goroutine.
var errReadOn = errors.New("archive: read on from a damaged part")

// parts returns a part for each cut, in file order: from 0 to second, then
// from each cut next returns to the one after it (the last part to size).
// next is called on the goroutine that ranges over the parts, so the cuts
// after the first are looked for while the first parts are read.
func parts(second int64, next func() (int64, bool), size int64) func(context.Context) iter.Seq[*allPart] {
	return func(context.Context) iter.Seq[*allPart] {
		return func(yield func(*allPart) bool) {
			off, end, more := int64(0), second, true
			for more {
				var cut int64
				if cut, more = next(); !more {
					cut = size
				}
				if !yield(&allPart{off: off, end: end, last: end == size, first: -1}) {
					return
				}
				off, end = end, cut
			}
			if off < size {
				yield(&allPart{off: off, end: size, last: true, first: -1})
			}
		}
	}
}

// emit calls fn with the record of it, and hands a record read in place
// back to its reader. It returns fn's error or a read error of src.
func (it *partItem) emit(fn func(*Record) error) error {
	err := it.err
	if err == nil {
		err = fn(it.rec)
	}
	if it.done != nil {
		if it.rec != nil {
			it.rec.Finish()
		}
		close(it.done)
	}
	it.release()
	return err
}

// An allPart is a byte range of a file read by ReadAll on a goroutine of
// its own. Its fields after last are set when it is read.
type allPart struct {
	off, end  int64
	last      bool  // the part ends the file: its errors are the file's
	first     int64 // the offset of the part's first error Record, or -1
	delivered bool  // that Record went to fn (it was read in place)
	counts    Counts
	held      budget // of the text held ahead of its turn: partHeld bytes
}

// A budget bounds the bytes a part holds ahead of its turn: its reader
// takes them before it sends a record, fn's goroutine gives them back
// once fn is done with it.
type budget struct {
	mu   sync.Mutex
	n    int           // bytes taken, not given back
	room chan struct{} // a token once bytes were given back; lazily made
}

// take takes n bytes of b, waiting while that would put more than max in
// use (the first record always fits). It reports false, having taken
// nothing, if ctx is done first.
func (b *budget) take(ctx context.Context, n, max int) bool {
	for {
		b.mu.Lock()
		if b.n == 0 || b.n+n <= max {
			b.n += n
			b.mu.Unlock()
			return true
		}
		if b.room == nil {
			b.room = make(chan struct{}, 1)
		}
		room := b.room
		b.mu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			return false
		}
	}
}

// give gives back n bytes taken from b, waking a take that waits.
func (b *budget) give(n int) {
	b.mu.Lock()
	b.n -= n
	room := b.room
	b.mu.Unlock()
	if room != nil {
		select {
		case room <- struct{}{}:
		default:
		}
	}
}

// A partItem is one record of a part: held (decoded, its text in memory),
// or read in place (done is closed when fn is done with it), or a read
// error of src; or the end of a part (end set, nothing else).
type partItem struct {
	rec  *Record
	text *bytes.Buffer // a held record's text, given back to texts after fn
	part *allPart      // the part whose budget text was taken from
	done chan struct{}
	err  error
	end  *allPart
}

// texts holds the text buffers of held records for reuse.
var texts = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// release gives the memory of it's text back for reuse, and to its
// part's budget.
func (it *partItem) release() {
	b := it.text
	if b == nil {
		return
	}
	if it.part != nil {
		it.part.held.give(b.Cap())
	}
	if b.Cap() <= 4*maxHeldPayload {
		b.Reset()
		texts.Put(b)
	}
	it.text, it.part = nil, nil
}

// read reads the records of p with aw's Reader, sending them with send,
// until the part's end, its first error Record (unless it is the file's
// last part), or ctx is done. Each record is finished before it is sent
// (its text decoded into memory if its payload is at most max bytes, see
// Reader.next; with opts.NoText no text at all), but for a larger one,
// sent unfinished, read in place: fn finishes it.
func (p *allPart) read(ctx context.Context, src io.ReaderAt, opts Options, aw *recordWorker, send func(partItem) bool) {
	opts.Offset += p.off
	r := aw.reader(io.NewSectionReader(src, p.off, p.end-p.off), opts)
	defer func() { p.counts = *r.Counts() }()
	max := opts.maxHeld()
	for ctx.Err() == nil {
		rec, small, err := r.next(max)
		if err == io.EOF {
			return
		}
		it := partItem{rec: rec, err: err}
		switch {
		case rec == nil:
		case opts.NoText || rec.Text == nil:
			rec.Finish()
			rec.Text, rec.text, rec.r = nil, nil, nil
		case small:
			it.text = texts.Get().(*bytes.Buffer)
			bufferText(rec, it.text)
			if !p.held.take(ctx, it.text.Cap(), partHeld) {
				it.release()
				return
			}
			it.part = p
		default:
			it.done = make(chan struct{})
		}
		if it.err == nil && !p.last && it.done == nil && it.rec.Result.Err != nil {
			p.first = it.rec.Offset // not sent: the part stops before it
			it.release()
			return
		}
		if !p.send(ctx, it, send) || err != nil {
			return
		}
		// Let fn's goroutine (or the one looking for cuts) have this core
		// now if the send woke it. Otherwise it waits for the end of this
		// goroutine's time slice while every core reads parts ahead: the
		// records it would have emitted stay held, and the readers run
		// out of parts they may read (on two cores, they waited ~200 ms
		// of a 0.9 s --decode --json run for one, the memory held grew).
		runtime.Gosched()
		if it.done != nil && !p.last && it.rec.Result.Err != nil {
			p.first, p.delivered = it.rec.Offset, true
			return
		}
	}
}

// send sends it and, for a record read in place, waits until fn is done
// with it. It reports whether the part goes on: not once ctx is done (fn
// is done with the records then).
func (p *allPart) send(ctx context.Context, it partItem, send func(partItem) bool) bool {
	if !send(it) {
		return false
	}
	if it.done == nil {
		return true
	}
	select {
	case <-it.done:
		return true
	case <-ctx.Done():
		return false
	}
}

// bufferText reads the text of rec, a record just opened, into b,
// finishes it and returns it with that text as its Text.
func bufferText(rec *Record, b *bytes.Buffer) *Record {
	if rec.Text != nil {
		rec.WriteText(b)
	}
	rec.Finish()
	if rec.Text != nil {
		rec.buffered = bytes.NewReader(b.Bytes())
		rec.Text = rec.buffered
	}
	return rec
}

// readOn reads the file src of size bytes from p's start to its end as a
// stream (ReadStream), as the whole file would be read, and calls fn with
// the records after those handed out already: from p's first error Record
// on (but for it, if it was delivered). The counts are added to counts.
func (p *allPart) readOn(ctx context.Context, src io.ReaderAt, size int64, opts Options, fn func(*Record) error, counts *Counts) error {
	opts.Offset += p.off
	c, err := readStream(ctx, io.NewSectionReader(src, p.off, size-p.off), opts, func(rec *Record) error {
		if rec.Offset < p.first || p.delivered && rec.Offset == p.first {
			return nil
		}
		return fn(rec)
	})
	counts.add(c)
	return err
}

// readRecords reads the records of r on this goroutine and calls fn with
// each (finished and without Text if noText); its counts are added to
// counts.
func readRecords(ctx context.Context, r *Reader, fn func(*Record) error, counts *Counts, noText bool) error {
	defer counts.add(r.Counts())
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if noText {
			rec.Finish()
			rec.Text = nil
		}
		if err := fn(rec); err != nil {
			return err
		}
		rec.Finish()
	}
}
