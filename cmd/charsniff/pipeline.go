package main

import (
	"context"
	"fmt"
	"io"
	"iter"
	"os"
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
	if a.cfg.index() {
		if a.cfg.outFile != "" {
			if err := a.checkOutFile(); err != nil {
				fmt.Fprintf(a.stderr, "charsniff: %s\n", err)
				return exitUsage
			}
		}
		o, err := newIndexOut(a.cfg.format, a.cfg.outFile, a.out)
		if err != nil {
			fmt.Fprintf(a.stderr, "charsniff: %s\n", err)
			return exitFailed
		}
		a.index = o
	}
	if a.cfg.stats {
		a.stats = newStats()
	}
	stop := a.startProgress(stdout, "sniffing")
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
	stop()
	return a.finish(stdout, werr)
}

// inputs returns the inputs of the run, in order; the progress bar gets
// their number and size at the end (countInputs may give it earlier).
func (a *app) inputs(context.Context) iter.Seq[input] {
	return func(yield func(input) bool) {
		var t total
		a.enumerate(func(in input) bool {
			if a.prog != nil {
				t.add(in)
			}
			return yield(in)
		})
		a.prog.setTotal(t.files, t.bytes)
	}
}

// startProgress sets up the progress bar of a run whose results go to
// stdout, and returns the function that ends it. Without a --files-from
// list the inputs are counted in a walk of their own to give the bar its
// total early: the producer runs only a little ahead of the output.
func (a *app) startProgress(stdout io.Writer, verb string) (stop func()) {
	a.prog = newProgress(stdout, a.stderr, verb)
	done := make(chan struct{}) // closed when the output is done
	if a.prog != nil && a.cfg.filesFrom == "" {
		go a.countInputs(done)
	}
	return func() { close(done) }
}

// countInputs counts the inputs and their bytes (names and sizes only, no
// file is opened) and gives the progress bar its total, unless done is
// closed first.
func (a *app) countInputs(done <-chan struct{}) {
	var t total
	stopped := false
	a.enumerate(func(in input) bool {
		t.add(in)
		select {
		case <-done:
			stopped = true
		default:
		}
		return !stopped
	})
	if !stopped {
		a.prog.setTotal(t.files, t.bytes)
	}
}

// total counts inputs and their bytes for the progress bar.
type total struct {
	files int64
	bytes int64 // -1 once an input's size is not known
}

// add counts in: its byte range, its size if it is a regular file, or an
// unknown size (standard input, a pipe).
func (t *total) add(in input) {
	t.files++
	switch {
	case t.bytes < 0 || in.err != nil:
	case in.stdin:
		t.bytes = -1
	case in.rng != nil:
		t.bytes += in.rng.n
	default:
		fi, err := os.Stat(in.path)
		if err != nil || !fi.Mode().IsRegular() {
			t.bytes = -1
			return
		}
		t.bytes += fi.Size()
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
	if b.last && b.warc != nil && a.stats != nil {
		a.stats.warc.add(b.warc)
	}
	return nil
}

// idle lets what was printed so far out while the output waits (the next
// input is not there yet, a --files-from list on a pipe, say, or a large
// file is still being read), so that a reader of the pipe sees progress.
// A write error there is noticed at the final flush.
func (a *app) idle() { a.out.Flush() }
