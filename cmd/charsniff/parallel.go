package main

import (
	"bytes"
	"io"
	"runtime"
	"sync"

	"github.com/charsniff/charsniff/archive"
)

// maxHeld is the largest payload a WARC record may have to be decoded on
// another core: a record is read into memory up to this size, and a
// larger one is decoded in place, in order, streaming.
var maxHeld = 1 << 20 // a variable for the tests

// inFlight is the number of records of one WARC file that may wait
// between the goroutine reading the file and the output (two more are
// being written and read). Each holds at most maxHeld bytes of payload
// and its rendered text or line: typically about as large again, at worst
// six times as large (a payload of control characters, each escaped as
// \u00XX in JSON). So with --decode, memory is bounded by about
// (inFlight+2) × 2 × maxHeld per file, (inFlight+2) × 7 × maxHeld at
// worst, whatever the file holds.
func inFlight() int { return 2*runtime.GOMAXPROCS(0) + 2 }

// A slot is one record of a WARC file on its way to the output, in file
// order: a held record that a worker renders into text and line, or a
// record handled in place by the reading goroutine when the writer gives
// it its turn.
type slot struct {
	held  *archive.Held
	text  bytes.Buffer  // rendered text (--decode without --json)
	line  bytes.Buffer  // rendered result line
	res   result        // the final result, to count and report
	ready chan struct{} // closed when rendered, or when it is the reader's turn
	done  chan struct{} // in place: closed when the reader is done with the output
}

// decodeWARC is readWARC for --decode with more than one core: this
// goroutine inflates and frames the records (archive.Reader.Hold),
// workers sniff and decode the held ones and render their lines, a writer
// writes them in file order, and records too large to hold are decoded
// here, streaming, when their turn comes.
func (w *worker) decodeWARC(in input, src io.Reader, d *decoder, c *warcCounts) error {
	n := runtime.GOMAXPROCS(0)
	if n == 1 {
		return w.readWARC(in, src, d, c)
	}
	ar := w.archiveReader(in, src)
	c.files++
	defer func() { c.Counts.Add(ar.Counts()) }()
	slots := make(chan *slot, inFlight())
	work := make(chan *slot, inFlight())
	free := make(chan *slot, inFlight()) // written slots, for reuse
	stop := make(chan struct{})          // closed when the output fails
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.renderAll(in.path, work)
		}()
	}
	werr := make(chan error, 1)
	go func() { werr <- d.writeSlots(slots, free, stop) }()
	err := w.frame(ar, in.path, d, slots, work, free, stop)
	close(slots)
	close(work)
	wg.Wait()
	if e := <-werr; err == nil {
		err = e
	}
	return err
}

// frame reads the records of ar, sending each to slots in order and the
// held ones to work; a record that is not held is handled here when the
// writer gives it its turn. It stops when stop is closed, and returns the
// output's error.
func (w *worker) frame(ar *archive.Reader, path string, d *decoder, slots, work chan<- *slot, free <-chan *slot, stop <-chan struct{}) error {
	for {
		rec, h, err := ar.Hold(maxHeld)
		if err == io.EOF {
			return nil
		}
		s := newSlot(free, h)
		select {
		case slots <- s:
		case <-stop:
			return nil
		}
		if h != nil {
			work <- s
			continue
		}
		// Our turn: everything before this record has been written.
		select {
		case <-s.ready:
		case <-stop:
			return nil
		}
		var werr error
		if err != nil {
			// The input itself failed: nothing more can be read.
			r := errorResult(path, err)
			werr = d.end(&r)
		} else {
			werr = emitRecord(rec, d)
		}
		close(s.done)
		if werr != nil || err != nil {
			return werr
		}
	}
}

// newSlot returns a slot for h (nil for a record handled in place),
// reusing a written one from free if there is one.
func newSlot(free <-chan *slot, h *archive.Held) *slot {
	var s *slot
	select {
	case s = <-free:
		s.text.Reset()
		s.line.Reset()
	default:
		s = new(slot)
	}
	s.held, s.ready, s.done = h, make(chan struct{}), nil
	if h == nil {
		s.done = make(chan struct{})
	}
	return s
}

// renderAll renders the held records of work, each into its slot, with a
// decoder like d that writes to the slot's buffers. path names the input.
func (d *decoder) renderAll(path string, work <-chan *slot) {
	var aw archive.Worker
	wd := &decoder{a: d.a}
	if d.text != nil {
		wd.text = new(jsonText)
	}
	for s := range work {
		if d.out != nil {
			wd.out = &s.line
		}
		if d.tw != nil {
			wd.tw = &s.text
		}
		wd.render(path, s, &aw)
		close(s.ready)
	}
}

// render renders the held record of s with aw.
func (d *decoder) render(path string, s *slot, aw *archive.Worker) {
	defer func() {
		// A last resort: a bug must cost one record, not the run.
		if v := recover(); v != nil {
			s.text.Reset()
			s.line.Reset()
			d.begun = false
			s.res = internalError(path, v)
			d.line(&s.res)
		}
	}()
	rec := aw.Open(s.held)
	emitRecord(rec, d) // writes to buffers: no error
	s.res = result{Result: rec.Result}
	s.held.Release()
	s.held = nil
}

// writeSlots writes the slots in order: a rendered one's text and line,
// or, for one handled in place, gives the reading goroutine its turn and
// waits for it. It returns the output's error, having closed stop.
func (d *decoder) writeSlots(slots <-chan *slot, free chan<- *slot, stop chan<- struct{}) error {
	for s := range slots {
		if s.done != nil {
			close(s.ready)
			<-s.done
			continue
		}
		<-s.ready
		if err := d.write(s); err != nil {
			close(stop)
			for range slots {
			}
			return err
		}
		select {
		case free <- s:
		default:
		}
	}
	return nil
}

// write writes a rendered slot to the output.
func (d *decoder) write(s *slot) error {
	d.a.note(&s.res)
	if d.tw != nil {
		if _, err := d.tw.Write(s.text.Bytes()); err != nil {
			return err
		}
	}
	if d.out != nil {
		if _, err := d.out.Write(s.line.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
