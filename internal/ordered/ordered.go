// Package ordered runs work on several goroutines and hands its results
// on in input order: the one fan-out of the charsniff command (files) and
// of package archive (the parts of a WARC file, its records).
package ordered

import (
	"context"
	"iter"
	"sync"
)

// Config sizes a fan-out.
type Config struct {
	Workers int // goroutines running work (at least 1)
	Ahead   int // inputs in flight: worked on, or waiting for emit (at least 1)
	Queue   int // outputs of one input held for emit (at least 1; FlatMap)
	// Idle, if set, is called on the caller's goroutine before it waits
	// for the next output (to flush what was emitted so far, say).
	Idle func()
}

// FlatMap calls work for each value of in on c.Workers goroutines; work
// sends its outputs (any number) with send, and emit gets every output on
// the caller's goroutine, one call at a time: those of one input in the
// order they were sent, the inputs in the order of in. in is ranged on a
// goroutine of its own, ahead of the workers: the next inputs are ready
// when a worker is free (a slow in, such as the search for a file's next
// cut, does not leave the workers waiting for it).
//
// Memory is bounded: work runs on at most c.Ahead inputs that emit is
// not done with (the one it is at included), and each holds at most
// c.Queue outputs not yet emitted (send waits for room).
//
// FlatMap stops at the end of in, at emit's first error, when ctx is done,
// or at a panic; it then cancels the context work and in get (so a send
// blocked there returns false, and a yield of in false: the outputs are
// no longer used), and returns once all its goroutines have ended. That
// context is canceled only when emit has returned for the last time, so
// work may wait on it for emit to be done with an output it sent. A panic
// in work or in in is raised again on the caller's goroutine then, with
// the first panic's value. The error is emit's or ctx's.
func FlatMap[In, Out any](ctx context.Context, c Config, in func(context.Context) iter.Seq[In],
	work func(ctx context.Context, v In, send func(Out) bool), emit func(Out) error) error {
	f := &fan[In, Out]{work: work, queue: max(c.Queue, 1), idle: c.Idle}
	f.stop, f.cancel = context.WithCancel(context.WithoutCancel(ctx))
	f.tokens = make(chan struct{}, max(c.Ahead, 1))
	order := make(chan *slot[Out], max(c.Ahead, 1))
	jobs := make(chan job[In, Out], max(c.Ahead, 1))
	defer f.wait() // also when emit panics
	f.wg.Add(1)
	go f.produce(in(f.stop), order, jobs)
	for range max(c.Workers, 1) {
		f.wg.Add(1)
		go f.worker(jobs)
	}
	return f.consume(ctx, order, emit)
}

// Map is FlatMap with one output for each input: work returns it.
func Map[In, Out any](ctx context.Context, c Config, in func(context.Context) iter.Seq[In],
	work func(ctx context.Context, v In) Out, emit func(Out) error) error {
	c.Queue = 1
	return FlatMap(ctx, c, in, func(ctx context.Context, v In, send func(Out) bool) {
		send(work(ctx, v))
	}, emit)
}

// fan is the state of one FlatMap.
type fan[In, Out any] struct {
	work   func(context.Context, In, func(Out) bool)
	queue  int
	idle   func()             // Config.Idle
	stop   context.Context    // done once the consumer has stopped
	cancel context.CancelFunc // of stop
	tokens chan struct{}      // one for each input in flight: at most ahead
	wg     sync.WaitGroup     // the producer and the workers

	mu       sync.Mutex
	panicked bool // a goroutine panicked, with value pv (the first one)
	pv       any
}

// A slot holds the outputs of one input until they are emitted.
type slot[Out any] struct {
	q chan Out // closed when work is done (or was never run)
}

// A job is an input and the slot for its outputs.
type job[In, Out any] struct {
	v In
	s *slot[Out]
}

// produce ranges seq, sending a slot for each value to order and the
// value with it to jobs, once a token allows it.
func (f *fan[In, Out]) produce(seq iter.Seq[In], order chan<- *slot[Out], jobs chan<- job[In, Out]) {
	defer f.wg.Done()
	defer close(jobs)
	defer close(order)
	defer f.recover()
	for v := range seq {
		select {
		case f.tokens <- struct{}{}:
		case <-f.stop.Done():
			return
		}
		s := &slot[Out]{q: make(chan Out, f.queue)}
		order <- s // never blocks: order has room for as many as tokens
		select {
		case jobs <- job[In, Out]{v, s}:
		case <-f.stop.Done():
			close(s.q)
			return
		}
	}
}

// worker runs the jobs.
func (f *fan[In, Out]) worker(jobs <-chan job[In, Out]) {
	defer f.wg.Done()
	for j := range jobs {
		f.run(j)
	}
}

// run runs one job, closing its slot's queue when it is done.
func (f *fan[In, Out]) run(j job[In, Out]) {
	defer close(j.s.q)
	defer f.recover()
	if f.stop.Err() != nil {
		return // ranged ahead, but FlatMap has stopped: nobody wants it
	}
	f.work(f.stop, j.v, func(o Out) bool {
		select {
		case j.s.q <- o:
			return true
		case <-f.stop.Done():
			return false
		}
	})
}

// recover notes a panic of the calling goroutine, and stops.
func (f *fan[In, Out]) recover() {
	v := recover()
	if v == nil {
		return
	}
	f.mu.Lock()
	if !f.panicked {
		f.panicked, f.pv = true, v
	}
	f.mu.Unlock()
	f.cancel()
}

// consume emits the outputs of the slots of order, in order.
func (f *fan[In, Out]) consume(ctx context.Context, order <-chan *slot[Out], emit func(Out) error) error {
	for {
		s, ok := receive(ctx, f.idle, order)
		if !ok {
			return ctx.Err()
		}
		if err := f.emitSlot(ctx, s, emit); err != nil {
			return err
		}
		<-f.tokens
	}
}

// emitSlot emits the outputs of s until its work is done.
func (f *fan[In, Out]) emitSlot(ctx context.Context, s *slot[Out], emit func(Out) error) error {
	for {
		o, ok := receive(ctx, f.idle, s.q)
		if err := ctx.Err(); err != nil {
			return err // nothing is emitted once ctx is done
		}
		if !ok {
			return f.stop.Err() // canceled by a panic: wait says so
		}
		if err := emit(o); err != nil {
			return err
		}
	}
}

// receive receives from c; if nothing is there, it calls idle (if set)
// first. It gives up when ctx is done.
func receive[T any](ctx context.Context, idle func(), c <-chan T) (T, bool) {
	select {
	case v, ok := <-c:
		return v, ok
	default:
	}
	if idle != nil {
		idle()
	}
	select {
	case v, ok := <-c:
		return v, ok
	case <-ctx.Done():
		var zero T
		return zero, false
	}
}

// wait stops the goroutines, waits for them to end, and raises the
// first panic again.
func (f *fan[In, Out]) wait() {
	f.cancel()
	f.wg.Wait()
	if f.panicked {
		panic(f.pv)
	}
}
