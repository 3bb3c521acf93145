package main

import (
	"context"
	"io"
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
// ones, and their lines go to d in file order (archive.ReadStream).
func (w *worker) decodeWARC(in input, src io.Reader, d *decoder, c *warcCounts) error {
	if runtime.GOMAXPROCS(0) == 1 {
		return w.readWARC(in, src, d, c)
	}
	return w.readAll(in, d, c, func(opts archive.Options, fn func(*archive.Record) error) (*archive.Counts, error) {
		return archive.ReadStream(context.Background(), src, opts, fn)
	})
}

// readAll reads the WARC file of in with read (archive.ReadAll or
// archive.ReadStream, which call fn with each record in file order) and
// sends the lines of its records to out. The records are counted in c.
// The error is out's.
func (w *worker) readAll(in input, out lines, c *warcCounts,
	read func(archive.Options, func(*archive.Record) error) (*archive.Counts, error)) error {
	c.files++
	opts := archive.Options{File: in.path, Decode: w.a.opts, PartSize: partSize, MaxHeld: maxHeld, NoText: !w.a.cfg.decode}
	if in.rng != nil {
		opts.Offset = in.rng.off
	}
	var outErr error
	counts, err := read(opts, func(rec *archive.Record) error {
		outErr = emitRecord(rec, out)
		return outErr
	})
	c.Counts.Add(counts)
	if err != nil && outErr == nil {
		// The input itself failed: nothing more can be read.
		r := errorResult(in.path, err)
		return out.end(&r)
	}
	return outErr
}
