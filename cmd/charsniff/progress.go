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
// longer than progressDelay. It counts documents: the inputs, and the
// records of WARC files. The number of inputs is unknown while directories
// are still being walked or a --files-from list read (the bar spins), known
// afterwards; once a WARC file is met the number of documents is unknown,
// and the bar spins, counting records, with the inputs done in its
// description. A nil *progress does nothing. Its methods are safe for
// concurrent use.
type progress struct {
	w     io.Writer
	start time.Time

	mu     sync.Mutex
	bar    *progressbar.ProgressBar // nil until shown
	done   int64                    // documents done
	inputs int64                    // inputs done
	total  int64                    // inputs in all; -1 while unknown
	warc   bool                     // a WARC input was met: documents are not inputs
	closed bool                     // finish was called: draw nothing more
}

// newProgress returns a progress for a run whose standard output is out and
// standard error is w, or nil when w is not a terminal, or when out is one:
// then the output lines themselves show the progress, and a bar would fight
// with them (curl decides the same way).
func newProgress(out, w io.Writer) *progress {
	if !isTerminal(w) || isTerminal(out) {
		return nil
	}
	return &progress{w: w, start: time.Now(), total: -1}
}

// add counts n more documents done, showing the bar when it is time.
func (p *progress) add(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += int64(n)
	if p.closed {
		return
	}
	if p.bar == nil {
		if time.Since(p.start) < progressDelay {
			return
		}
		p.bar = progressbar.NewOptions64(p.max(),
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(p.description()),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("docs"),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(progressThrottle),
			progressbar.OptionClearOnFinish(),
		)
		p.bar.Set64(p.done)
		return
	}
	p.bar.Add(n)
}

// inputDone counts an input done; warc says it was a WARC file.
func (p *progress) inputDone(warc bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inputs++
	if warc && !p.warc {
		p.warc = true
		if p.bar != nil && !p.closed {
			p.bar.ChangeMax64(-1)
		}
	}
	if p.warc && p.bar != nil && !p.closed {
		p.bar.Describe(p.description())
	}
}

// max is the bar's length: the number of inputs, when they are the
// documents and their number is known; otherwise -1 (a spinner).
func (p *progress) max() int64 {
	if p.warc {
		return -1
	}
	return p.total
}

// description says what the bar counts: with WARC files, how many inputs
// are done.
func (p *progress) description() string {
	if !p.warc {
		return "sniffing"
	}
	if p.total < 0 {
		return fmt.Sprintf("sniffing, %d files done", p.inputs)
	}
	return fmt.Sprintf("sniffing, %d/%d files done", p.inputs, p.total)
}

// setTotal records the number of inputs, once known.
func (p *progress) setTotal(n int64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = n
	if p.bar != nil && !p.closed {
		if p.warc {
			p.bar.Describe(p.description())
		} else {
			p.bar.ChangeMax64(n)
		}
	}
}

// clear erases the bar so that a line can be written under it; the next add
// draws it again.
func (p *progress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil && !p.closed {
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
	if p.bar != nil {
		p.bar.Finish()
		p.bar.Clear()
	}
}
