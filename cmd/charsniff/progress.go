package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

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
// longer than progressDelay. It counts bytes of input as they are consumed,
// in order (a WARC file read in parts moves it as its records come out),
// an input's whole size once it is done (sniffing reads only the start of
// a page), against the sum of the inputs' sizes once known (a count alone
// until then, and for standard input and --files-from lists), with the
// inputs done in its description. What it shows never goes back, and its
// rate is the bytes done over the run's time, so that the first frame,
// a second into the run, has the rate of that second. A nil *progress
// does nothing. Its methods are safe for concurrent use.
type progress struct {
	w     io.Writer
	now   func() time.Time // the clock; tests set their own
	start time.Time        // the run's start
	open  time.Time        // nothing is drawn before it

	mu     sync.Mutex
	verb   string // "sniffing" or "decoding"
	done   int64  // bytes done
	shown  int64  // the most value has been: what the bar shows
	inputs int64  // inputs done
	files  int64  // inputs in all; -1 while unknown
	total  int64  // their bytes in all; -1 while unknown
	drawn  int    // the length of the line on the terminal, 0 if none
	last   time.Time
	closed bool // finish was called: draw nothing more
}

// newProgress returns a progress for a run whose standard output is out and
// standard error is w, or nil when w is not a terminal, or when out is one:
// then the output lines themselves show the progress, and a bar would fight
// with them (curl decides the same way).
func newProgress(out, w io.Writer, verb string) *progress {
	if !isTerminal(w) || isTerminal(out) {
		return nil
	}
	return newProgressAt(w, verb, time.Now)
}

// newProgressAt returns a progress drawing to w on the clock now.
func newProgressAt(w io.Writer, verb string, now func() time.Time) *progress {
	t := now()
	return &progress{w: w, now: now, start: t, open: t.Add(progressDelay), verb: verb, files: -1, total: -1}
}

// addBytes counts n more bytes of input done (fewer if n < 0: an input
// counted more than its size while it was read).
func (p *progress) addBytes(n int64) {
	if p == nil || n == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.draw(false)
}

// value is what the bar may show done: the bytes done, below the total
// when it is known. The bar shows its maximum only at the end: only
// finish ends it.
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
	p.draw(false)
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
	p.draw(true)
}

// draw draws the bar, unless it is not time yet: before p.open, or within
// progressThrottle of the last drawing (unless now is set).
func (p *progress) draw(now bool) {
	p.shown = max(p.shown, p.value())
	if p.closed {
		return
	}
	t := p.now()
	if t.Before(p.open) || !now && p.drawn > 0 && t.Sub(p.last) < progressThrottle {
		return
	}
	p.last = t
	line := p.line(t)
	pad := max(0, p.drawn-len(line))
	fmt.Fprintf(p.w, "\r%s%*s", line, pad, "")
	p.drawn = len(line)
}

// line is the bar at time t: what is done, the rate since the start and,
// with a total, the share done and the time left, as
// "sniffing, 3/10 files done  45% |█████      | (12/27 MB, 8.1 MB/s) [1s:2s]".
func (p *progress) line(t time.Time) string {
	elapsed := max(t.Sub(p.start), time.Millisecond)
	rate := float64(p.shown) / elapsed.Seconds()
	var b strings.Builder
	b.WriteString(p.description())
	if p.total > 0 {
		const width = 30
		share := float64(p.shown) / float64(p.total)
		full := int(share * width)
		fmt.Fprintf(&b, " %3d%% |%s%s|", int(share*100), strings.Repeat("█", full), strings.Repeat(" ", width-full))
		unit, div := byteUnit(float64(p.total))
		fmt.Fprintf(&b, " (%s/%s %s, %s/s)", number(float64(p.shown)/div), number(float64(p.total)/div), unit, humanBytes(rate))
		left := "?"
		if rate > 0 {
			left = roundDuration(time.Duration(float64(p.total-p.shown) / rate * float64(time.Second))).String()
		}
		fmt.Fprintf(&b, " [%s:%s]", roundDuration(elapsed), left)
		return b.String()
	}
	fmt.Fprintf(&b, " (%s, %s/s) [%s]", humanBytes(float64(p.shown)), humanBytes(rate), roundDuration(elapsed))
	return b.String()
}

// roundDuration rounds d to seconds.
func roundDuration(d time.Duration) time.Duration { return d.Round(time.Second) }

// byteUnit returns the unit to show n bytes in (SI, as "27 MB") and its
// size.
func byteUnit(n float64) (string, float64) {
	div := 1.0
	for _, u := range []string{"B", "kB", "MB", "GB", "TB"} {
		if n < 1000*div || u == "TB" {
			return u, div
		}
		div *= 1000
	}
	return "PB", div
}

// number formats a count of units: with one decimal under 10.
func number(v float64) string {
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// humanBytes formats n bytes, as "8.1 MB".
func humanBytes(n float64) string {
	unit, div := byteUnit(n)
	return number(n/div) + " " + unit
}

// clear erases the bar so that a line can be written under it; the next
// change draws it again.
func (p *progress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.erase()
}

// erase erases what is drawn.
func (p *progress) erase() {
	if p.drawn > 0 {
		fmt.Fprintf(p.w, "\r%*s\r", p.drawn, "")
		p.drawn = 0
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
	p.erase()
}

// A meter counts the bytes of one input consumed, for the progress bar:
// the furthest position it has been read to, so that bytes read again
// (its first bytes, read to recognize it, or a damaged record's, after a
// seek back) are not counted twice, and the count never goes back.
type meter struct {
	p  *progress
	at int64 // the position in the input
	n  int64 // bytes counted: the furthest at has been
}

// count adds n bytes read at the position.
func (m *meter) count(n int) {
	if m.p != nil && n > 0 {
		m.reach(m.at + int64(n))
	}
}

// reach moves the position to at, counting the bytes up to it if it is
// further than it has been.
func (m *meter) reach(at int64) {
	if m.p == nil {
		return
	}
	m.at = at
	if at > m.n {
		m.p.addBytes(at - m.n)
		m.n = at
	}
}

// rewind moves the position back to the input's start: it is read again.
func (m *meter) rewind() { m.at = 0 }

// done counts the input done: the bytes not read are made up so that it
// counts size bytes in all (size < 0: what was read).
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
	s io.Seeker
}

func (r meteredReadSeeker) Seek(offset int64, whence int) (int64, error) {
	at, err := r.s.Seek(offset, whence)
	if err == nil {
		r.m.at = at
	}
	return at, err
}
