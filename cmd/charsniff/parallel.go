package main

import (
	"context"
	"io"
	"iter"
	"runtime"

	"github.com/charsniff/charsniff/archive"
)

// maxHeld is the largest payload a WARC record may have to be decoded on
// another core ahead of its turn (archive.Options.MaxHeld): a record is
// read into memory up to this size, and a larger one is decoded in its
// turn, streaming. A variable for the tests (negative: none is held).
var maxHeld = 1 << 20

// decodeWARC is readWARC for --decode with more than one core: one
// goroutine inflates and frames the records, the others decode the held
// ones, and their lines go to d in file order (archive.ParallelStream).
func (w *worker) decodeWARC(in input, src io.Reader, d *decoder, c *warcCounts) error {
	if runtime.GOMAXPROCS(0) == 1 {
		return w.readWARC(in, src, d, c)
	}
	return w.readAll(in, d, c, func(opts archive.Options) iter.Seq2[*archive.Record, error] {
		return archive.ParallelStream(context.Background(), src, opts)
	})
}

// readAll reads the WARC file of in with read (archive.Parallel or
// archive.ParallelStream, which give its records in file order) and
// sends the lines of its records to out. The records are counted in c.
// The error is out's.
func (w *worker) readAll(in input, out lines, c *warcCounts,
	read func(archive.Options) iter.Seq2[*archive.Record, error]) error {
	c.files++
	opts := archive.Options{File: in.path, Decode: w.a.opts, PartSize: partSize, MaxHeld: maxHeld, NoText: !w.a.cfg.decode, Provenance: w.a.provenance}
	if in.rng != nil {
		opts.Offset = in.rng.off
	}
	opts.Counts = &c.Counts
	for rec, err := range read(opts) {
		if err != nil {
			// The input itself failed: nothing more can be read.
			r := errorResult(in.path, err)
			return out.end(&r)
		}
		if err := emitRecord(rec, out); err != nil {
			return err
		}
	}
	return nil
}
