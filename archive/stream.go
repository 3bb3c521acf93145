package archive

import (
	"bytes"
	"context"
	"io"
	"iter"
	"runtime"

	"github.com/charsniff/charsniff/internal/ordered"
)

// readStream is readAll for a WARC file that can only be read in order
// (standard input, a pipe, a byte range, a file that Split cannot cut):
// this goroutine's helper inflates and frames the records, GOMAXPROCS
// goroutines decode those whose payload is at most 1 MiB (Options.MaxHeld)
// ahead of their turn, and fn gets every record in file order, one call
// at a time, as from ReadAll. Larger records are decoded when their turn
// comes, as fn reads them. At most 2 × GOMAXPROCS + 2 records are held
// ahead, about that many times 4 MiB at worst (a payload of 1 MiB and its
// text).
//
// A panic on one of its goroutines is raised again on the caller's. It
// returns the counts of the file (complete when the error is nil) and
// the first error: fn's, ctx's, or a read error of src.
func readStream(ctx context.Context, src io.Reader, opts Options, fn func(*Record) error) (*Counts, error) {
	r := NewReader(src, opts)
	n := runtime.GOMAXPROCS(0)
	if n == 1 || opts.NoText {
		// Without text, sniffing is little beside inflating: nothing to
		// spread.
		counts := &Counts{Skipped: make(map[string]int)}
		return counts, readRecords(ctx, r, fn, counts, opts.NoText)
	}
	workers := make(chan *recordWorker, n) // reused by the decoding goroutines
	for range n {
		workers <- new(recordWorker)
	}
	cfg := ordered.Config{Workers: n, Ahead: 2*n + 2} // bounds the records held ahead
	err := ordered.Map(ctx, cfg, func(ctx context.Context) iter.Seq[*streamItem] {
		return frameStream(ctx, r)
	}, func(_ context.Context, it *streamItem) *streamItem {
		if it.held != nil {
			aw := <-workers
			defer func() { workers <- aw }()
			it.decode(aw)
		}
		return it
	}, func(it *streamItem) error {
		return it.partItem.emit(fn)
	})
	return r.Counts(), err
}

// A streamItem is one record of a stream on its way to fn: held (a worker
// decodes it) or read in place.
type streamItem struct {
	partItem
	held *heldRecord
}

// decode decodes the held record of it with aw, its text into memory.
func (it *streamItem) decode(aw *recordWorker) {
	it.text = texts.Get().(*bytes.Buffer)
	it.rec = bufferText(aw.Open(it.held), it.text)
	it.held.Release()
	it.held = nil
}

// frameStream returns the records of r, in order: held, or read in place,
// when it waits until fn is done with the record (done closed) before it
// reads on. It stops at the end of the file, a read error, or when ctx is
// done (ReadStream is done with the records then).
func frameStream(ctx context.Context, r *Reader) iter.Seq[*streamItem] {
	return func(yield func(*streamItem) bool) {
		for {
			rec, h, err := r.holdNext(r.opts.maxHeld())
			if err == io.EOF {
				return
			}
			it := &streamItem{partItem: partItem{rec: rec, err: err}, held: h}
			if h == nil {
				it.done = make(chan struct{})
			}
			if !yield(it) {
				return
			}
			if h == nil {
				select {
				case <-it.done: // fn is done with the record
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return
			}
		}
	}
}
