package main

import (
	"context"
	"io"
	"iter"
	"runtime"

	"github.com/charsniff/charsniff/internal/ordered"
)

// sniffed is a batch of results of one input, on its way from a worker to
// the output (ordered.FlatMap keeps the order). The batch that ends an
// input has last set.
type sniffed struct {
	rs   []result
	last bool
	// warc counts the records of a WARC input, on its last batch; nil for
	// other inputs.
	warc *warcCounts
}

// batchSize is how many results a worker sends at a time.
const batchSize = 64

// runSniff sniffs every input, GOMAXPROCS of them at a time, and prints the
// results in input order. At most 4 inputs a worker are in flight, each
// holding at most 2 batches: memory stays bounded however many files there
// are, however many records a WARC file holds and however slow one is.
func (a *app) runSniff(stdout io.Writer) int {
	a.setOutput(stdout)
	if a.cfg.stats {
		a.stats = newStats()
	}
	a.prog = newProgress(stdout, a.stderr)
	done := make(chan struct{}) // closed when the output is done
	if a.prog != nil && a.cfg.filesFrom == "" {
		go a.countInputs(done)
	}
	n := runtime.GOMAXPROCS(0)
	pool := make(chan *worker, n) // the workers' readers, reused
	for range n {
		pool <- a.newWorker()
	}
	cfg := ordered.Config{Workers: n, Ahead: 4 * n, Queue: 2, Idle: a.idle}
	werr := ordered.FlatMap(context.Background(), cfg, a.inputs, func(_ context.Context, in input, send func(sniffed) bool) {
		w := <-pool
		defer func() { pool <- w }()
		w.sniff(in, send)
	}, a.writeSniffed)
	close(done)
	return a.finish(stdout, werr)
}

// inputs returns the inputs of the run, in order; the progress bar gets
// their number at the end.
func (a *app) inputs(context.Context) iter.Seq[input] {
	return func(yield func(input) bool) {
		var n int64
		a.enumerate(func(in input) bool {
			n++
			return yield(in)
		})
		a.prog.setTotal(n)
	}
}

// countInputs counts the inputs in a walk of its own (names only, no file
// is opened) to give the progress bar its total early: the producer runs
// only a little ahead of the output.
func (a *app) countInputs(done <-chan struct{}) {
	var n int64
	stopped := false
	a.enumerate(func(input) bool {
		n++
		select {
		case <-done:
			stopped = true
		default:
		}
		return !stopped
	})
	if !stopped {
		a.prog.setTotal(n)
	}
}

// writeSniffed writes the results of b, and returns the output's error,
// which stops the run.
func (a *app) writeSniffed(b sniffed) error {
	for i := range b.rs {
		if err := a.emit(&b.rs[i]); err != nil {
			return err
		}
	}
	a.prog.add(len(b.rs))
	if !b.last {
		return nil
	}
	if b.warc != nil && a.stats != nil {
		a.stats.warc.add(b.warc)
	}
	a.prog.inputDone(b.warc != nil)
	return nil
}

// idle lets what was printed so far out while the output waits (the next
// input is not there yet, a --files-from list on a pipe, say, or a large
// file is still being read), so that a reader of the pipe sees progress.
// A write error there is noticed at the final flush.
func (a *app) idle() { a.out.Flush() }
