package archive

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"sync"
)

// ReadStream is ReadAll for a WARC file that can only be read in order
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
func ReadStream(ctx context.Context, src io.Reader, opts Options, fn func(*Record) error) (*Counts, error) {
	r := NewReader(src, opts)
	n := runtime.GOMAXPROCS(0)
	if n == 1 {
		counts := &Counts{Skipped: make(map[string]int)}
		return counts, readRecords(ctx, r, fn, counts)
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	items := make(chan *streamItem, 2*n+2) // bounds the records held ahead
	work := make(chan *streamItem, 2*n+2)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var aw recordWorker
			for it := range work {
				it.decode(&aw)
			}
		}()
	}
	framed := make(chan struct{})
	go func() {
		defer close(framed)
		frameStream(sctx, r, items, work)
	}()
	panicked, err := consumeStream(ctx, items, fn)
	cancel()
	for it := range items { // let the framing goroutine end
		<-it.ready
		if it.done != nil {
			close(it.done)
		}
	}
	<-framed
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
	if err == nil {
		err = ctx.Err() // the framing goroutine may have stopped first
	}
	return r.Counts(), err
}

// A streamItem is one record of a stream on its way to fn: held (a worker
// decodes it, then closes ready) or read in place (ready at once).
type streamItem struct {
	partItem
	held     *heldRecord
	ready    chan struct{}
	panicked any // what a panic decoding it carried, if one did
}

// decode decodes the held record of it with aw, its text into memory.
func (it *streamItem) decode(aw *recordWorker) {
	defer close(it.ready)
	defer func() {
		if v := recover(); v != nil {
			it.panicked = v // ReadStream panics with it on the caller's goroutine
		}
	}()
	it.text = texts.Get().(*bytes.Buffer)
	it.rec = bufferText(aw.Open(it.held), it.text)
	it.held.Release()
	it.held = nil
}

// frameStream reads the records of r, sending each to items in order and
// the held ones to work too; for a record read in place it waits until fn
// is done with it. It stops at the end of the file, a read error, or when
// ctx is done, and closes items and work.
func frameStream(ctx context.Context, r *Reader, items, work chan<- *streamItem) {
	defer close(items)
	defer close(work)
	for {
		rec, h, err := r.holdNext(r.opts.maxHeld())
		if err == io.EOF {
			return
		}
		it := &streamItem{partItem: partItem{rec: rec, err: err}, held: h, ready: make(chan struct{})}
		if h == nil {
			it.done = make(chan struct{})
			close(it.ready)
		}
		select {
		case items <- it:
		case <-ctx.Done():
			return
		}
		if h != nil {
			work <- it
			continue
		}
		<-it.done // fn is done with the record; or ReadStream, stopping
		if err != nil || ctx.Err() != nil {
			return
		}
	}
}

// consumeStream calls fn with the records of items, in order, and hands
// the ones read in place back. It returns fn's error, ctx's, or a read
// error of src; or what a panic decoding a record carried.
func consumeStream(ctx context.Context, items <-chan *streamItem, fn func(*Record) error) (any, error) {
	for it := range items {
		<-it.ready
		if it.panicked != nil {
			return it.panicked, nil
		}
		err := it.err
		if err == nil {
			err = ctx.Err()
		}
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
		if err != nil {
			return nil, err
		}
	}
	return nil, nil
}
