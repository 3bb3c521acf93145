package archive

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"sync"
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

// split is Split; the tests make wrong cuts with it.
var split = Split

// Memory bounds of ReadAll (see its documentation).
const (
	maxHeldPayload = 1 << 20 // the largest payload decoded ahead of its turn
	partQueue      = 8       // records a part may hold ahead of its turn
)

// ReadAll reads the WARC file src of size bytes on all cores
// (GOMAXPROCS goroutines) and calls fn with each record Reader.Next would
// return, in file order, one call at a time. fn may read the record's Text
// (or call WriteText) and call Finish for the final Result, until it
// returns; the record is finished afterwards, and its Text may not be
// kept. The offsets of the results are src's plus opts.Offset.
//
// A gzip file of one member per record is cut into parts of about 256 KiB
// (Options.PartSize)
// at record starts (see Split), each read by its own Reader ahead of its
// turn; records whose payload is at most 1 MiB are decoded ahead, their
// text held in memory, and larger ones when their turn comes, as they are
// read (Options.MaxHeld). A part holds at most 8 records ahead of its turn, and at most
// 2 × GOMAXPROCS + 1 parts are read at once: so memory is bounded by about
// (2 × GOMAXPROCS + 1) × 8 × 3 MiB at worst (a payload of 1 MiB decodes to
// at most 3 MiB of UTF-8), and is typically a few MiB. A file that is not
// gzip, or cannot be cut (see Split), is read as ReadStream reads it.
//
// A part that meets an error before its end (damage, or its end inside a
// record, if a cut was wrong after all) is read on from its start on one
// goroutine (ReadStream), as the whole file would be, so the records are
// those of Reader.Next in every case.
//
// A panic on one of ReadAll's goroutines (a bug) is raised again on the
// caller's, once the others have stopped.
//
// ReadAll returns the counts of the file (complete when the error is nil)
// and the first error: fn's (which stops the reading), ctx's, or a read
// error of src, which ends the reading as it ends Reader.Next's.
func ReadAll(ctx context.Context, src io.ReaderAt, size int64, opts Options, fn func(*Record) error) (*Counts, error) {
	ps := opts.PartSize
	if ps <= 0 {
		ps = defaultPartSize
	}
	cuts := split(src, size, ps)
	n := runtime.GOMAXPROCS(0)
	if len(cuts) < 2 || n == 1 {
		return ReadStream(ctx, io.NewSectionReader(src, 0, size), opts, fn)
	}
	counts := &Counts{Skipped: make(map[string]int)}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	order := make(chan *allPart, n) // bounds the parts read ahead
	work := make(chan *allPart)
	go produceParts(pctx, cuts, size, order, work)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var aw recordWorker
			for p := range work {
				p.read(pctx, src, opts, &aw)
			}
		}()
	}
	damaged, err := consumeParts(ctx, order, fn, counts)
	if err == nil {
		err = ctx.Err() // the producer may have stopped first
	}
	cancel()
	for p := range order { // let the producer and the workers end
		p.drain()
	}
	wg.Wait()
	if damaged != nil && damaged.panicked != nil {
		panic(damaged.panicked)
	}
	if damaged != nil && err == nil {
		err = damaged.readOn(ctx, src, size, opts, fn, counts)
	}
	return counts, err
}

// produceParts sends a part for each cut to order, in file order, and to
// work, until ctx is done.
func produceParts(ctx context.Context, cuts []int64, size int64, order, work chan<- *allPart) {
	defer close(work)
	defer close(order)
	for k, off := range cuts {
		end := size
		if k+1 < len(cuts) {
			end = cuts[k+1]
		}
		p := &allPart{off: off, end: end, last: end == size, items: make(chan partItem, partQueue), first: -1}
		select {
		case order <- p:
		case <-ctx.Done():
			return
		}
		select {
		case work <- p:
		case <-ctx.Done():
			close(p.items) // not read
			return
		}
	}
}

// consumeParts calls fn with the records of the parts of order, in order,
// and adds the counts of each part read to its end to counts. It returns
// the first part that met an error before its end or panicked, if any (the rest of
// the file is to be read from its start on one goroutine), or fn's error,
// ctx's, or a read error of src.
func consumeParts(ctx context.Context, order <-chan *allPart, fn func(*Record) error, counts *Counts) (*allPart, error) {
	for p := range order {
		if err := p.consume(fn); err != nil {
			p.drain()
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if p.panicked != nil || p.first >= 0 {
			return p, nil
		}
		counts.Add(&p.counts)
	}
	return nil, nil
}

// consume calls fn with the records of p, in order, and hands the ones
// read in place back to p's goroutine. It returns fn's error or a read
// error of src.
func (p *allPart) consume(fn func(*Record) error) error {
	for it := range p.items {
		err := it.err
		if err == nil {
			err = fn(it.rec)
		}
		if it.done != nil {
			it.rec.Finish()
			close(it.done)
		}
		it.release()
		if err != nil {
			return err
		}
	}
	return nil
}

// drain waits for the goroutine reading p to stop, handing back the
// records read in place that it waits for.
func (p *allPart) drain() {
	for it := range p.items {
		if it.done != nil {
			close(it.done)
		}
	}
}

// An allPart is a byte range of a file read by ReadAll on a goroutine of
// its own. Its fields after items are set before items is closed.
type allPart struct {
	off, end  int64
	last      bool          // the part ends the file: its errors are the file's
	items     chan partItem // the records, in order
	first     int64         // the offset of the part's first error Record, or -1
	delivered bool          // that Record went to fn (it was read in place)
	counts    Counts
	panicked  any // what a panic reading the part carried, if one did
}

// A partItem is one record of a part: held (decoded, its text in memory),
// or read in place (done is closed when fn is done with it), or a read
// error of src.
type partItem struct {
	rec  *Record
	text *bytes.Buffer // a held record's text, given back to texts after fn
	done chan struct{}
	err  error
}

// texts holds the text buffers of held records for reuse.
var texts = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// release gives the memory of it's text back for reuse.
func (it *partItem) release() {
	if b := it.text; b != nil && b.Cap() <= 4*maxHeldPayload {
		b.Reset()
		texts.Put(b)
	}
	it.text = nil
}

// read reads the records of p with a Reader and aw, sending them to
// p.items, until the part's end, its first error Record (unless it is the
// file's last part), or ctx is done.
func (p *allPart) read(ctx context.Context, src io.ReaderAt, opts Options, aw *recordWorker) {
	defer close(p.items)
	defer func() {
		if v := recover(); v != nil {
			p.panicked = v // ReadAll panics with it on the caller's goroutine
		}
	}()
	opts.Offset += p.off
	r := NewReader(io.NewSectionReader(src, p.off, p.end-p.off), opts)
	defer func() { p.counts = *r.Counts() }()
	for ctx.Err() == nil {
		rec, h, err := r.holdNext(opts.maxHeld())
		if err == io.EOF {
			return
		}
		it := partItem{rec: rec, err: err}
		if h != nil {
			it.text = texts.Get().(*bytes.Buffer)
			it.rec = bufferText(aw.Open(h), it.text)
			h.Release()
		} else if rec != nil && rec.Text != nil {
			it.done = make(chan struct{})
		}
		if it.err == nil && !p.last && it.done == nil && it.rec.Result.Error != "" {
			p.first = it.rec.Offset // not sent: the part stops before it
			return
		}
		if !p.send(ctx, it) || err != nil {
			return
		}
		if it.done != nil && !p.last && it.rec.Result.Error != "" {
			p.first, p.delivered = it.rec.Offset, true
			return
		}
	}
}

// send sends it to p.items and, for a record read in place, waits until
// fn is done with it. It reports whether the part goes on.
func (p *allPart) send(ctx context.Context, it partItem) bool {
	select {
	case p.items <- it:
	case <-ctx.Done():
		return false
	}
	if it.done == nil {
		return true
	}
	select {
	case <-it.done:
		return true
	case <-ctx.Done():
		// The consumer may be inside fn with the record: wait for it.
		<-it.done
		return false
	}
}

// bufferText reads the text of rec, a held record just opened, into b,
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
	c, err := ReadStream(ctx, io.NewSectionReader(src, p.off, size-p.off), opts, func(rec *Record) error {
		if rec.Offset < p.first || p.delivered && rec.Offset == p.first {
			return nil
		}
		return fn(rec)
	})
	counts.Add(c)
	return err
}

// readRecords reads the records of r on this goroutine and calls fn with
// each; its counts are added to counts.
func readRecords(ctx context.Context, r *Reader, fn func(*Record) error, counts *Counts) error {
	defer counts.Add(r.Counts())
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
		if err := fn(rec); err != nil {
			return err
		}
		rec.Finish()
	}
}
