package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progressDelay is how long a run goes before it shows a progress bar: short
// runs stay silent.
var progressDelay = time.Second

// progressThrottle is the least time between two drawings of the bar.
// Tests set it to 0.
var progressThrottle = 100 * time.Millisecond

// isTerminal reports whether w is a terminal. Tests replace it.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress draws a progress bar on standard error once the run has taken
// longer than progressDelay. It counts bytes of input as they are read
// (one large WARC file moves it too), an input's whole size once it is
// done (sniffing reads only the start of a page), against the sum of the
// inputs' sizes once known (a spinner until then, and for standard input
// and --files-from lists), with the inputs done in its description. The
// bar exists from the start of the run, drawing into a gate that opens
// after progressDelay, so its rate is bytes over the run's time from the
// first frame. A nil *progress does nothing. Its methods are safe for
// concurrent use.
type progress struct {
	gate *gate

	mu     sync.Mutex
	bar    *progressbar.ProgressBar
	verb   string // "sniffing" or "decoding"
	done   int64  // bytes done
	inputs int64  // inputs done
	files  int64  // inputs in all; -1 while unknown
	total  int64  // their bytes in all; -1 while unknown
	closed bool   // finish was called: draw nothing more
}

// newProgress returns a progress for a run whose standard output is out and
// standard error is w, or nil when w is not a terminal, or when out is one:
// then the output lines themselves show the progress, and a bar would fight
// with them (curl decides the same way).
func newProgress(out, w io.Writer, verb string) *progress {
	if !isTerminal(w) || isTerminal(out) {
		return nil
	}
	p := &progress{gate: &gate{w: w, open: time.Now().Add(progressDelay)}, verb: verb, files: -1, total: -1}
	p.newBar()
	return p
}

// newBar makes p's bar, a spinner until the total is known, drawing into
// p's gate.
func (p *progress) newBar() {
	p.bar = progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(p.gate),
		progressbar.OptionSetDescription(p.description()),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(progressThrottle),
		progressbar.OptionClearOnFinish(),
	)
}

// A gate passes writes to w from the time open on, and drops those
// before it.
type gate struct {
	w    io.Writer
	open time.Time
}

func (g *gate) Write(p []byte) (int, error) {
	if time.Now().Before(g.open) {
		return len(p), nil
	}
	return g.w.Write(p)
}

// addBytes counts n more bytes of input done.
func (p *progress) addBytes(n int64) {
	if p == nil || n == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	if !p.closed {
		p.bar.Set64(p.value())
	}
}

// value is what the bar shows done: the bytes done, below the total
// when it is known. The bar finishes at its maximum, for good: only
// finish ends it (a damaged part of a WARC file may be read twice).
func (p *progress) value() int64 {
	v := max(p.done, 0)
	if p.total > 0 {
		v = min(v, p.total-1)
	}
	return v
}

// inputDone counts an input done.
func (p *progress) inputDone() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inputs++
	if !p.closed {
		p.bar.Describe(p.description())
	}
}

// description says what the run does and how many inputs are done.
func (p *progress) description() string {
	if p.files < 0 {
		return fmt.Sprintf("%s, %d files done", p.verb, p.inputs)
	}
	return fmt.Sprintf("%s, %d/%d files done", p.verb, p.inputs, p.files)
}

// setTotal records the number of inputs and the sum of their sizes, once
// known (bytes -1: not known, an input is standard input or a pipe).
func (p *progress) setTotal(files, bytes int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.files, p.total = files, bytes
	if !p.closed {
		p.bar.Describe(p.description())
		p.bar.ChangeMax64(bytes)
		p.bar.Set64(p.value())
	}
}

// clear erases the bar so that a line can be written under it; the next
// change draws it again.
func (p *progress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.bar.Clear()
	}
}

// finish erases the bar for good.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.bar.Finish()
	p.bar.Clear()
}

// A meter counts the bytes read of one input for the progress bar.
type meter struct {
	p *progress
	n int64 // bytes counted
}

// count adds n bytes read.
func (m *meter) count(n int) {
	if m.p != nil && n > 0 {
		m.n += int64(n)
		m.p.addBytes(int64(n))
	}
}

// rewind uncounts what was read: the input is read again from its start.
func (m *meter) rewind() {
	if m.p != nil {
		m.p.addBytes(-m.n)
		m.n = 0
	}
}

// done counts the input done: the bytes not read (or read twice) are
// made up so that it counts size bytes in all (size < 0: what was read).
func (m *meter) done(size int64) {
	if m.p == nil {
		return
	}
	if size >= 0 {
		m.p.addBytes(size - m.n)
	}
	m.p.inputDone()
}

// meteredReader counts the bytes read through it.
type meteredReader struct {
	r io.Reader
	m *meter
}

func (r meteredReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.m.count(n)
	return n, err
}

// meteredReadSeeker counts the bytes read through it and seeks; the
// Seeker is the Reader's own.
type meteredReadSeeker struct {
	meteredReader
	io.Seeker
}

// meteredReaderAt counts the bytes read through it. Its parts are read
// on several goroutines: it counts under a lock.
type meteredReaderAt struct {
	r  io.ReaderAt
	m  *meter
	mu *sync.Mutex
}

func (r meteredReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := r.r.ReadAt(p, off)
	r.mu.Lock()
	r.m.count(n)
	r.mu.Unlock()
	return n, err
}
