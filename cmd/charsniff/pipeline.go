package main

import (
	"io"
	"runtime"
)

// A job is one input on its way through the workers. The worker sends its
// results to out in batches, in order, and closes out when the input is
// done; out has room for a few batches, so that a worker runs ahead of the
// (ordered) output only a little and memory stays bounded however many
// records a WARC file holds.
type job struct {
	in  input
	out chan []result
	// warc counts the records of a WARC input; nil for other inputs. It is
	// complete when out is closed.
	warc *warcCounts
}

// batchSize is how many results a worker sends at a time.
const batchSize = 64

// runSniff sniffs every input, GOMAXPROCS of them at a time, and prints the
// results in input order.
func (a *app) runSniff(stdout io.Writer) int {
	a.setOutput(stdout)
	if a.cfg.stats {
		a.stats = newStats()
	}
	a.prog = newProgress(stdout, a.stderr)
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan *job)
	// order holds the jobs in input order; its capacity bounds how far the
	// workers may run ahead of the output, so memory stays bounded however
	// many files there are and however slow one of them is.
	order := make(chan *job, 4*workers)
	done := make(chan struct{}) // closed when the output gives up
	go a.produce(jobs, order, done)
	if a.prog != nil && a.cfg.filesFrom == "" {
		go a.countInputs(done)
	}
	for range workers {
		go func() {
			w := a.newWorker()
			for j := range jobs {
				w.sniff(j, done)
			}
		}()
	}
	werr := a.writeInOrder(order)
	close(done)
	return a.finish(stdout, werr)
}

// produce sends each input as a job to order, in input order, and to jobs
// for the workers (unless it failed already). It stops when done is closed.
func (a *app) produce(jobs, order chan<- *job, done <-chan struct{}) {
	defer close(order)
	defer close(jobs)
	var n int64
	a.enumerate(true, func(in input) bool {
		n++
		j := &job{in: in, out: make(chan []result, 2)}
		if in.err != nil {
			r := errorResult(in.path, in.err)
			r.fatal = in.fatal
			j.out <- []result{r}
			close(j.out)
		}
		select {
		case order <- j:
		case <-done:
			return false
		}
		if in.err != nil {
			return true
		}
		select {
		case jobs <- j:
		case <-done:
			return false
		}
		return true
	})
	a.prog.setTotal(n)
}

// countInputs counts the inputs in a walk of its own (names only, no file
// is opened) to give the progress bar its total early: the producer runs
// only a little ahead of the output.
func (a *app) countInputs(done <-chan struct{}) {
	var n int64
	stopped := false
	a.enumerate(true, func(input) bool {
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

// writeInOrder writes the results of the jobs in order, and returns the
// output's error, which stops it.
func (a *app) writeInOrder(order <-chan *job) error {
	for {
		j, ok := receive(a, order)
		if !ok {
			return nil
		}
		for {
			rs, ok := receive(a, j.out)
			if !ok {
				break
			}
			for i := range rs {
				if err := a.emit(&rs[i]); err != nil {
					return err
				}
			}
			a.prog.add(len(rs))
		}
		if j.warc != nil && a.stats != nil {
			a.stats.warc.add(j.warc)
		}
		a.prog.inputDone(j.warc != nil)
	}
}

// receive receives from c. When nothing is ready (the next input is not
// there yet, a --files-from list on a pipe, say, or a large file is still
// being read) it first lets what was printed so far out, so that a reader
// of the pipe sees progress. A write error there is noticed at the final
// flush.
func receive[T any](a *app, c <-chan T) (T, bool) {
	select {
	case v, ok := <-c:
		return v, ok
	default:
		a.out.Flush()
		v, ok := <-c
		return v, ok
	}
}
