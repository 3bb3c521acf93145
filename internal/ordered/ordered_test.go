package ordered

import (
	"context"
	"errors"
	"iter"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// count yields 0, 1, ... n-1, stopping when yield says so.
func count(n int) func(context.Context) iter.Seq[int] {
	return func(context.Context) iter.Seq[int] {
		return func(yield func(int) bool) {
			for i := range n {
				if !yield(i) {
					return
				}
			}
		}
	}
}

// jitter sleeps a random while, up to a few hundred microseconds, or
// yields the processor: the workers end out of order.
func jitter(rng *rand.Rand, mu *sync.Mutex) {
	mu.Lock()
	d := rng.IntN(300)
	mu.Unlock()
	if d < 100 {
		runtime.Gosched()
		return
	}
	time.Sleep(time.Duration(d) * time.Microsecond)
}

// TestOrder checks that the outputs come in input order, those of one
// input in the order sent, whatever the workers' delays, for several
// numbers of workers, inputs held ahead and queue lengths.
func TestOrder(t *testing.T) {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ workers, ahead, queue, n int }{
		{1, 1, 1, 50}, {4, 1, 1, 50}, {4, 8, 2, 300}, {8, 3, 5, 200}, {3, 16, 1, 0},
	} {
		var got []int
		err := FlatMap(context.Background(), Config{Workers: c.workers, Ahead: c.ahead, Queue: c.queue}, count(c.n),
			func(_ context.Context, v int, send func(int) bool) {
				for k := range 3 {
					jitter(rng, &mu)
					send(3*v + k)
				}
			},
			func(o int) error { got = append(got, o); return nil })
		want := make([]int, 3*c.n)
		for i := range want {
			want[i] = i
		}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%+v: got %v, %v; want %v, nil", c, got, err, want)
		}
	}
}

// TestInFlight checks that work runs on at most ahead inputs that emit
// is not done with, and that a slow emit holds the workers back.
func TestInFlight(t *testing.T) {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(3, 4))
	for _, ahead := range []int{1, 2, 5} {
		var started, emitted, most atomic.Int64
		err := Map(context.Background(), Config{Workers: 8, Ahead: ahead}, count(200),
			func(_ context.Context, v int) int {
				n := started.Add(1) - emitted.Load()
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				jitter(rng, &mu)
				return v
			},
			func(int) error {
				jitter(rng, &mu)
				emitted.Add(1)
				return nil
			})
		if err != nil || most.Load() > int64(ahead) || most.Load() < 1 {
			t.Errorf("ahead %d: at most %d in flight, error %v; want 1..%d, nil", ahead, most.Load(), err, ahead)
		}
	}
}

// TestRangeAhead checks that in is ranged ahead of the workers, up to
// Ahead inputs: the next input is ready (the charsniff command's next cut
// of a file found) while every worker is still busy, not looked for once
// one asks for it.
func TestRangeAhead(t *testing.T) {
	var yielded, seen atomic.Int64
	in := func(context.Context) iter.Seq[int] {
		return func(yield func(int) bool) {
			for i := range 4 {
				yielded.Add(1)
				if !yield(i) {
					return
				}
			}
		}
	}
	err := Map(context.Background(), Config{Workers: 1, Ahead: 3}, in,
		func(_ context.Context, v int) int {
			if v == 0 {
				// The one worker is busy: in should still reach the
				// third input (Ahead is 3: this one and two more).
				deadline := time.Now().Add(5 * time.Second)
				for yielded.Load() < 3 && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond)
				}
				seen.Store(yielded.Load())
			}
			return v
		},
		func(int) error { return nil })
	// The fourth may be yielded too, and wait there for room.
	if n := seen.Load(); err != nil || n < 3 {
		t.Fatalf("%d inputs yielded while the worker was busy, error %v; want 3 or 4, nil", n, err)
	}
}

// TestNoWorkAfterStop checks that the inputs ranged ahead are not worked
// on once FlatMap has stopped: work ends when emit fails, and the three
// inputs already handed to the one worker are dropped.
func TestNoWorkAfterStop(t *testing.T) {
	errBad := errors.New("bad")
	var later atomic.Int64
	err := FlatMap(context.Background(), Config{Workers: 1, Ahead: 4}, count(10),
		func(ctx context.Context, v int, send func(int) bool) {
			if v > 0 {
				later.Add(1)
				return
			}
			send(v)
			<-ctx.Done() // canceled once emit has failed
		},
		func(int) error { return errBad })
	if err != errBad || later.Load() != 0 {
		t.Errorf("error %v, %d inputs worked on after the stop; want %v, 0", err, later.Load(), errBad)
	}
}

// TestStop checks that an error of emit, or ctx canceled, stops FlatMap:
// nothing is emitted after it, a send blocked in work returns false, an
// endless in stops, and no goroutine is left.
func TestStop(t *testing.T) {
	before := runtime.NumGoroutine()
	errBad := errors.New("bad")
	endless := func(ctx context.Context) iter.Seq[int] {
		return func(yield func(int) bool) {
			for i := 0; ; i++ {
				if !yield(i) {
					return
				}
			}
		}
	}
	for _, byCtx := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		var calls int
		var refused atomic.Int64
		err := FlatMap(ctx, Config{Workers: 4, Ahead: 4}, endless,
			func(_ context.Context, v int, send func(int) bool) {
				for k := 0; send(v); k++ {
					if k == 1000 {
						return
					}
				}
				refused.Add(1)
			},
			func(o int) error {
				calls++
				if calls == 10 {
					if byCtx {
						cancel()
						return nil
					}
					return errBad
				}
				if calls > 10 {
					t.Fatalf("emit called after the stop")
				}
				return nil
			})
		cancel()
		want := errBad
		if byCtx {
			want = context.Canceled
		}
		if !errors.Is(err, want) || refused.Load() == 0 {
			t.Errorf("stopped by ctx %v: got %v, %d sends refused; want %v, some", byCtx, err, refused.Load(), want)
		}
	}
	checkGoroutines(t, before)
}

// checkGoroutines checks that the goroutines are back to before.
func checkGoroutines(t *testing.T, before int) {
	t.Helper()
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	t.Errorf("%d goroutines left, want %d", runtime.NumGoroutine(), before)
}

// TestPanic checks that a panic in work, in in, or in emit reaches the
// caller once the goroutines have ended, and that the outputs before it
// were emitted in order.
func TestPanic(t *testing.T) {
	before := runtime.NumGoroutine()
	badIn := func(context.Context) iter.Seq[int] {
		return func(yield func(int) bool) {
			for i := range 5 {
				yield(i)
			}
			panic("in exploded")
		}
	}
	for _, c := range []struct {
		desc string
		in   func(context.Context) iter.Seq[int]
		work func(context.Context, int) int
		emit func(int) error
		want string
	}{
		{"work", count(100), func(_ context.Context, v int) int {
			if v == 7 {
				panic("work exploded")
			}
			return v
		}, nil, "work exploded"},
		{"in", badIn, func(_ context.Context, v int) int { return v }, nil, "in exploded"},
		{"emit", count(100), func(_ context.Context, v int) int { return v }, func(o int) error {
			if o == 3 {
				panic("emit exploded")
			}
			return nil
		}, "emit exploded"},
	} {
		var got []int
		emit := c.emit
		if emit == nil {
			emit = func(o int) error { got = append(got, o); return nil }
		}
		v := func() (v any) {
			defer func() { v = recover() }()
			Map(context.Background(), Config{Workers: 3, Ahead: 4}, c.in, c.work, emit)
			return nil
		}()
		if v != c.want {
			t.Errorf("%s: panic %v, want %q", c.desc, v, c.want)
		}
		for i, o := range got {
			if o != i {
				t.Errorf("%s: emitted %v, not in order", c.desc, got)
				break
			}
		}
	}
	checkGoroutines(t, before)
}

// TestIdle checks that Idle is called when the caller would wait for an
// output, on the caller's goroutine (between emits), and not while outputs
// are there to emit.
func TestIdle(t *testing.T) {
	release := make(chan struct{})
	var idles, emits int
	var idleAt []int
	err := Map(context.Background(), Config{Workers: 2, Ahead: 2, Idle: func() {
		idles++
		idleAt = append(idleAt, emits)
		if idles == 1 {
			close(release) // the first input's work waits for the first idle
		}
	}}, count(3), func(_ context.Context, v int) int {
		if v == 0 {
			<-release
		}
		return v
	}, func(int) error { emits++; return nil })
	if err != nil || idles == 0 || idleAt[0] != 0 || emits != 3 {
		t.Errorf("got %d idles (at emits %v), %d emits, %v; want the first idle before any emit, 3 emits", idles, idleAt, emits, err)
	}
}
