package main

import (
	"context"
	"io"
	"iter"
	"os"
	"runtime"

	"github.com/charsniff/charsniff/archive"
)

// partSize is the size of the parts a large gzip WARC file is cut into
// to be read on several cores (archive.Parallel, archive.Split); a
// variable for the tests. Smaller parts hold less memory; 256 KiB took no
// longer than 1 MiB parts on the benchmark's 66 MB file (0.53-0.56 s
// against 0.56-0.59 s for --decode --json on two cores).
var partSize int64 = 256 << 10

// split is archive.Split, which decides whether a file is read in parts.
var split = archive.Split

// splitWARC returns the file of the WARC input in, opened as o, if it is
// to be read in parts on several cores (readParts); nil when it is read as
// one part: on one core, from standard input or a byte range, or a file
// that is not a regular gzip file of more than two parts of one gzip
// member per record or so.
func splitWARC(in input, o *opened) *os.File {
	if runtime.GOMAXPROCS(0) == 1 || in.stdin || in.rng != nil || o.size < 2*partSize {
		return nil
	}
	f, ok := o.source.Reader.(*os.File)
	if !ok {
		return nil
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() != o.size {
		return nil
	}
	if len(split(f, o.size, partSize)) < 2 {
		return nil
	}
	return f
}

// readParts is readWARC for a WARC file read in parts on all cores: the
// lines of its records go to out in file order (archive.Parallel holds the
// parts read ahead, in bounded memory, and reads a part that meets an
// error on from its start on this goroutine). The error is out's.
func (w *worker) readParts(in input, f io.ReaderAt, size int64, out lines, c *warcCounts) error {
	return w.readAll(in, out, c, func(opts archive.Options) iter.Seq2[*archive.Record, error] {
		return archive.Parallel(context.Background(), f, size, opts)
	})
}
