// Package warcio is an Apache Beam transform that sniffs and decodes the
// HTML records of WARC files as the charsniff command does, split at record
// boundaries inside each file, so that one large file is read by many
// workers at once.
//
// ReadGlob reads the files a glob matches, as textio.Read reads text
// files; ReadFiles a PCollection of fileio.FileMetadata or ReadableFile
// (fileio.MatchFiles, MatchAll, ReadMatches); Read a PCollection of Spans
// (a file, or a byte range of one: an index row's path, offset and
// length). Each returns a PCollection of Record, one per HTML record,
// damaged record and stretch of damaged input: archive.Result as a Beam
// row of typed fields (the record's coordinates, WARC-Date, digest and
// MIME type, the encoding decided, how and why) and, with Options.Text,
// its decoded text; JSON turns one into the line `charsniff --json`
// prints for it.
//
// Read is a splittable DoFn over the byte offsets of each span (an
// offsetrange restriction): a record belongs to the piece of the range
// its first byte is in. The initial pieces start at the cuts
// archive.Split finds (record-starting gzip members, about
// Options.PartSize bytes apart); a runner may split a piece again at any
// byte while it runs, and the piece after that byte is read from the last
// cut before it, its records before the byte passed over unclaimed, so
// every record is emitted once, as archive.Reader reads it from the cut.
//
//	records := warcio.ReadGlob(s, "crawl/*.warc.gz", warcio.Options{})
//	textio.Write(s, "out.jsonl", beam.ParDo(s, warcio.JSON, records))
package warcio

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/charsniff/charsniff/archive"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*Span)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Record)(nil)).Elem())
	register.DoFn4x1[context.Context, *sdf.LockRTracker, Span, func(Record), error](&readFn{})
	register.Emitter1[Record]()
	register.Function1x1(pathSpan)
	register.Function1x1(JSON)
}

// DefaultPartSize is the size of the pieces Read cuts a gzip WARC file
// into before it runs, when Options.PartSize is 0: a Common Crawl file of
// 1 GiB is read by 16 workers.
const DefaultPartSize = 64 << 20

// A Span is what Read reads: the WARC file at Path (a local path, or any
// path Beam's filesystem registry opens, such as gs://), or its bytes
// [Offset, Offset+Length), as an index row (CDX, columnar index) names a
// record or a run of records. Length 0 means to the end of the file.
type Span struct {
	Path   string
	Offset int64
	Length int64
}

// Paths turns a PCollection of file paths (strings) into Spans of whole
// files, for Read.
func Paths(s beam.Scope, paths beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("warcio.Paths"), pathSpan, paths)
}

func pathSpan(path string) Span { return Span{Path: path} }

// Read reads the Spans of spans (a PCollection of Span) and returns a
// PCollection of Record, one for each line `charsniff --json` prints for
// them, in no particular order: sort by File and Offset for the command's.
// It panics if opts name an encoding by a label that names none; TryRead
// returns the error.
func Read(s beam.Scope, spans beam.PCollection, opts Options) beam.PCollection {
	out, err := TryRead(s, spans, opts)
	if err != nil {
		panic(err)
	}
	return out
}

// TryRead is Read, returning the error of bad options instead of
// panicking, as beam.TryParDo does.
func TryRead(s beam.Scope, spans beam.PCollection, opts Options) (beam.PCollection, error) {
	if _, err := opts.decodeOptions(); err != nil {
		return beam.PCollection{}, err
	}
	out, err := beam.TryParDo(s.Scope("warcio.Read"), &readFn{Opts: opts}, spans)
	if err != nil {
		return beam.PCollection{}, fmt.Errorf("warcio.Read: %w", err)
	}
	return out[0], nil
}

// readFn is Read's splittable DoFn. Its field is its options, which Beam
// serializes with it.
type readFn struct {
	Opts Options
}

// CreateInitialRestriction returns the byte range of s: its offsets. A
// span that is not in its file gets the one offset of its error line.
func (fn *readFn) CreateInitialRestriction(ctx context.Context, s Span) (offsetrange.Restriction, error) {
	end, problem, err := check(ctx, s)
	if err != nil {
		return offsetrange.Restriction{}, err
	}
	if problem != "" {
		return offsetrange.Restriction{Start: max(s.Offset, 0), End: max(s.Offset, 0) + 1}, nil
	}
	return offsetrange.Restriction{Start: s.Offset, End: end}, nil
}

// SplitRestriction cuts r at the record-starting gzip members that
// archive.Split finds about PartSize bytes apart.
func (fn *readFn) SplitRestriction(ctx context.Context, s Span, r offsetrange.Restriction) ([]offsetrange.Restriction, error) {
	end, problem, err := check(ctx, s)
	if err != nil || problem != "" {
		return []offsetrange.Restriction{r}, err
	}
	f, err := open(ctx, s.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return pieces(cuts(f, s.Offset, end, fn.partSize()), r), nil
}

// pieces returns r cut at the cuts inside it.
func pieces(cuts []int64, r offsetrange.Restriction) []offsetrange.Restriction {
	var out []offsetrange.Restriction
	start := r.Start
	for _, c := range cuts {
		if c > start && c < r.End {
			out = append(out, offsetrange.Restriction{Start: start, End: c})
			start = c
		}
	}
	return append(out, offsetrange.Restriction{Start: start, End: r.End})
}

// RestrictionSize is the number of bytes of r.
func (fn *readFn) RestrictionSize(_ Span, r offsetrange.Restriction) float64 {
	return r.Size()
}

// CreateTracker returns an offsetrange tracker of r, safe for the
// runner's splits while ProcessElement runs.
func (fn *readFn) CreateTracker(r offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(r))
}

// ProcessElement emits the records of s that start in rt's restriction,
// or the error line of a span that is not in its file. A file that cannot
// be opened or read is an error (the runner retries the bundle).
func (fn *readFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, s Span, emit func(Record)) error {
	end, problem, err := check(ctx, s)
	if err != nil {
		return err
	}
	if problem != "" {
		r := rt.GetRestriction().(offsetrange.Restriction)
		if rt.TryClaim(r.Start) {
			emit(Record{File: s.Path, Offset: s.Offset, Length: s.Length, Error: problem})
			rt.TryClaim(r.End)
		}
		return nil
	}
	f, err := open(ctx, s.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	from := s.Offset
	if r := rt.GetRestriction().(offsetrange.Restriction); r.Start > s.Offset {
		from = lastCut(cuts(f, s.Offset, end, fn.partSize()), r.Start)
	}
	return fn.read(ctx, rt, s, f, from, end, emit)
}

// read reads the records of s from the record boundary from on, passes
// over those before the restriction's start, and emits those rt claims.
func (fn *readFn) read(ctx context.Context, rt *sdf.LockRTracker, s Span, f file, from, end int64, emit func(Record)) error {
	start := rt.GetRestriction().(offsetrange.Restriction).Start
	dec, err := fn.Opts.decodeOptions()
	if err != nil {
		return err
	}
	src, err := f.section(from, end)
	if err != nil {
		return fmt.Errorf("warcio: %s: %w", s.Path, err)
	}
	// Provenance as the command's --json lines carry it; with text, as
	// --decode --json, without.
	ar := archive.NewReader(src, archive.Options{File: s.Path, Offset: from, Decode: dec, Provenance: !fn.Opts.Text})
	claimed := int64(-1)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := ar.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("warcio: %s: %w", s.Path, err)
		}
		if rec.Offset < start {
			continue
		}
		// Results at one offset belong together: only a new one is claimed.
		if rec.Offset > claimed {
			if !rt.TryClaim(rec.Offset) {
				return nil
			}
			claimed = rec.Offset
		}
		emit(fn.record(rec))
	}
	// No record starts in the rest of the range: claim it all, so that the
	// tracker is done (a claim at its end fails, as it should).
	rt.TryClaim(rt.GetRestriction().(offsetrange.Restriction).End)
	return nil
}

// record returns the Record of rec, finished: with its text, if the
// options ask for it.
func (fn *readFn) record(rec *archive.Record) Record {
	var text strings.Builder
	hasText := fn.Opts.Text && rec.Text != nil
	if hasText {
		rec.WriteText(&text) // a strings.Builder never fails
	}
	r := FromResult(rec.Finish())
	r.Text, r.HasText = text.String(), hasText
	return r
}

func (fn *readFn) partSize() int64 {
	if fn.Opts.PartSize > 0 {
		return fn.Opts.PartSize
	}
	return DefaultPartSize
}

// check returns where s ends in its file; or the problem of a span that
// is not in its file, in the words of the command's error line for such a
// range; or the error of a file whose size cannot be had.
func check(ctx context.Context, s Span) (end int64, problem string, err error) {
	switch {
	case s.Offset < 0:
		return 0, fmt.Sprintf("bad range %d:%d: the offset is not a number of bytes", s.Offset, s.Length), nil
	case s.Length < 0:
		return 0, fmt.Sprintf("bad range %d:%d: the length is not a positive number of bytes", s.Offset, s.Length), nil
	case s.Offset > math.MaxInt64-s.Length:
		return 0, fmt.Sprintf("bad range %d:%d: too large", s.Offset, s.Length), nil
	}
	size, err := fileSize(ctx, s.Path)
	if err != nil {
		return 0, "", err
	}
	end = s.Offset + s.Length
	if s.Length == 0 {
		end = max(size, s.Offset)
	}
	if end > size || s.Offset > size {
		return 0, fmt.Sprintf("range %d:%d: past the end of the file (%d bytes)", s.Offset, s.Length, size), nil
	}
	return end, "", nil
}

// fileSize returns the size of the file at path.
func fileSize(ctx context.Context, path string) (int64, error) {
	if !strings.Contains(path, "://") {
		fi, err := os.Stat(path)
		if err != nil {
			return 0, err
		}
		return fi.Size(), nil
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("warcio: %w", err)
	}
	defer fs.Close()
	n, err := fs.Size(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("warcio: %s: %w", path, err)
	}
	return n, nil
}

// cuts returns the record boundaries of the bytes [from, end) of f that
// archive.Split finds about partSize bytes apart, as offsets in the file:
// from first. A file that can only be read in order has that one.
func cuts(f file, from, end, partSize int64) []int64 {
	ra := f.readerAt()
	if ra == nil {
		return []int64{from}
	}
	cs := archive.Split(io.NewSectionReader(ra, from, end-from), end-from, partSize)
	for i := range cs {
		cs[i] += from
	}
	return cs
}

// lastCut returns the last of cuts (increasing, the first at most at) at
// or before at.
func lastCut(cuts []int64, at int64) int64 {
	c := cuts[0]
	for _, x := range cuts[1:] {
		if x > at {
			break
		}
		c = x
	}
	return c
}

// A skipReader reads n bytes of r after the first skip: a byte range of a
// file that can only be read in order.
type skipReader struct {
	r       io.Reader
	skip, n int64
}

func (sr *skipReader) Read(p []byte) (int, error) {
	if sr.skip > 0 {
		k, err := io.CopyN(io.Discard, sr.r, sr.skip)
		if sr.skip -= k; err != nil {
			return 0, err // io.EOF for a file shorter than the span's start
		}
	}
	if sr.n <= 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), sr.n)]
	n, err := sr.r.Read(p)
	sr.n -= int64(n)
	return n, err
}
