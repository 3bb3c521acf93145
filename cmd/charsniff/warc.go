package main

import (
	"io"

	"github.com/charsniff/charsniff/archive"
)

// warcCounts counts what a run met in WARC files, for --stats.
type warcCounts struct {
	files int // WARC inputs
	archive.Counts
}

func newWARCCounts() *warcCounts {
	return &warcCounts{Counts: archive.Counts{Skipped: make(map[string]int)}}
}

// add adds the counts of o to c.
func (c *warcCounts) add(o *warcCounts) {
	c.files += o.files
	addCounts(&c.Counts, &o.Counts)
}

// addCounts adds the counts of o to c.
func addCounts(c, o *archive.Counts) {
	c.Records += o.Records
	c.Sniffed += o.Sniffed
	c.NotHTML += o.NotHTML
	c.Failed += o.Failed
	c.SkippedRanges += o.SkippedRanges
	c.SkippedBytes += o.SkippedBytes
	for t, n := range o.Skipped {
		c.Skipped[t] += n
	}
}

// lines receives the result lines of one input, in order. The reading side
// calls begin for a document that was sniffed, with a function that writes
// its text (a read error goes into r, the error returned is the writer's),
// then end for the same result, which may have gained an error since; a
// result that is an error from the start gets end only. An error returned
// is the output's: the run stops.
type lines interface {
	begin(r *result, text func(io.Writer) error) error
	end(r *result) error
}

// readWARC reads the WARC file of in from src (its byte range, if it has
// one), and sends a line to out for each HTML record, each damaged record
// and each stretch of damaged input. The records are counted in c. The
// error is out's.
func (w *worker) readWARC(in input, src io.Reader, out lines, c *warcCounts) error {
	c.files++
	ar := w.archiveReader(in, src)
	defer func() { addCounts(&c.Counts, ar.Counts()) }()
	for {
		rec, err := ar.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			// The input itself failed: nothing more can be read.
			r := errorResult(in.path, err)
			return out.end(&r)
		}
		if err := emitRecord(rec, out); err != nil {
			return err
		}
	}
}

// archiveReader returns the worker's archive.Reader, reset to read the WARC
// file of in from src (its byte range, if it has one).
func (w *worker) archiveReader(in input, src io.Reader) *archive.Reader {
	opts := archive.Options{File: in.path, Decode: w.a.opts, Provenance: w.a.provenance}
	if in.rng != nil {
		opts.Offset = in.rng.off
	}
	if w.ar == nil {
		w.ar = archive.NewReader(src, opts)
	} else {
		w.ar.Reset(src, opts)
	}
	return w.ar
}

// emitRecord sends the lines of rec to out: its text, if it has one, then
// its final result. The error is out's.
func emitRecord(rec *archive.Record, out lines) error {
	if rec.Text != nil {
		// Settle first, so that a line written before the text holds the
		// final decision.
		pre := getSettled()
		defer putSettled(pre)
		*pre = rec.Settle((*pre)[:0], maxSettle)
		// The error, if the record has one already (a held record's
		// damage is known before its text is read), comes after the text.
		r := result{Result: rec.Result, textFirst: unsettled(*pre)}
		r.Err = nil
		text := func(tw io.Writer) error {
			if _, err := tw.Write(*pre); err != nil {
				return err
			}
			_, err := rec.WriteText(tw)
			return err
		}
		if err := out.begin(&r, text); err != nil {
			return err
		}
	}
	return out.end(&result{Result: *rec.Finish()})
}
