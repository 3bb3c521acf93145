package archive

import (
	"context"
	"errors"
	"io"
	"iter"
)

// Records returns the records of the WARC file src, as a Reader's Next
// hands them out, on this goroutine: each HTML record, damaged record or
// stretch of damaged input (a Record whose Result.Err is set), then, if
// the file could not be read on, a nil Record with that error. The loop
// body may read the record's Text; the record is finished (see
// Record.Finish) when the body returns. The counts of the file are added
// to opts.Counts if it is not nil.
func Records(src io.Reader, opts Options) iter.Seq2[*Record, error] {
	return func(yield func(*Record, error) bool) {
		r := NewReader(src, opts)
		if opts.Counts != nil {
			defer func() { opts.Counts.add(r.Counts()) }()
		}
		for {
			rec, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(rec, err) || err != nil {
				return
			}
			rec.Finish()
		}
	}
}

// Parallel returns the records of the WARC file src of size bytes, as
// Records does, read on all cores (GOMAXPROCS goroutines) and handed to
// the loop body in file order on the caller's goroutine. A gzip file of
// one member per record is cut into parts read side by side (see Split
// and Options.PartSize); small payloads are decoded ahead of their turn,
// in bounded memory (Options.MaxHeld); another file is read as
// ParallelStream reads it. The offsets of the results are src's plus
// opts.Offset.
//
// The iteration ends at the end of the file, when the body breaks, or
// with a nil Record and an error: ctx's, or a read error of src. A panic
// on one of its goroutines (a bug) is raised again on the caller's. The
// counts of the file are added to opts.Counts if it is not nil.
func Parallel(ctx context.Context, src io.ReaderAt, size int64, opts Options) iter.Seq2[*Record, error] {
	return each(func(fn func(*Record) error) (*Counts, error) {
		return readAll(ctx, src, size, opts, fn)
	}, opts.Counts)
}

// ParallelStream is Parallel for a WARC file that can only be read in
// order (standard input, a pipe, a byte range): this goroutine's helper
// inflates and frames the records while GOMAXPROCS goroutines decode the
// small ones ahead of their turn.
func ParallelStream(ctx context.Context, src io.Reader, opts Options) iter.Seq2[*Record, error] {
	return each(func(fn func(*Record) error) (*Counts, error) {
		return readStream(ctx, src, opts, fn)
	}, opts.Counts)
}

// errBreak stops a read when the loop body breaks.
var errBreak = errors.New("archive: loop body broke")

// each turns read, which calls fn with each record, into an iterator; the
// counts read returns are added to counts if it is not nil.
func each(read func(fn func(*Record) error) (*Counts, error), counts *Counts) iter.Seq2[*Record, error] {
	return func(yield func(*Record, error) bool) {
		c, err := read(func(rec *Record) error {
			if !yield(rec, nil) {
				return errBreak
			}
			return nil
		})
		if counts != nil {
			counts.add(c)
		}
		if err != nil && err != errBreak {
			yield(nil, err)
		}
	}
}
