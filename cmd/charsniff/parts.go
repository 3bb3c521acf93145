package main

import (
	"context"
	"encoding/binary"
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

// splitWARC returns the file of the WARC input in, opened as o, if it is
// to be read by archive.ReadAll on several cores (readParts): a regular
// gzip or zstd file of more than two parts (ReadAll reads one it cannot
// cut, one gzip member or zstd frame, say, as archive.ReadStream does);
// nil when it is read as one part: on one core, from standard input or a
// byte range, or a smaller file or one of another container. It reads
// four bytes: ReadAll looks for the cuts as it reads the parts.
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
	var head [4]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return nil
	}
	magic := binary.LittleEndian.Uint32(head[:])
	if head[0] == 0x1f && head[1] == 0x8b || magic == 0xFD2FB528 || magic&0xFFFFFFF0 == 0x184D2A50 {
		return f // gzip, a zstd frame or a skippable one (a dictionary)
	}
	return nil
}

// readParts is readWARC for a WARC file read in parts on all cores: the
// lines of its records go to out in file order (archive.Parallel holds the
// parts read ahead, in bounded memory, and reads a part that meets an
// error on from its start on this goroutine). m counts the file consumed
// to each record's start, as the lines go out: not the bytes the parts
// read ahead, nor those read to find where to cut. The error is out's.
func (w *worker) readParts(in input, f io.ReaderAt, size int64, out lines, c *warcCounts, m *meter) error {
	return w.readAll(in, out, c, func(opts archive.Options) iter.Seq2[*archive.Record, error] {
		return func(yield func(*archive.Record, error) bool) {
			for rec, err := range archive.Parallel(context.Background(), f, size, opts) {
				if rec != nil {
					m.reach(rec.Offset)
				}
				if !yield(rec, err) {
					return
				}
			}
		}
	})
}
