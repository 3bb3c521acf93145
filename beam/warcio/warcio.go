// Package warcio is an Apache Beam transform that sniffs and decodes the
// HTML records of WARC files as the charsniff command does, split at record
// boundaries inside each file, so that one large file is read by many
// workers at once.
//
// Read takes a PCollection of Spans (a file, or a byte range of one: an
// index row's path, offset and length) and returns a PCollection of Docs,
// one per HTML record, damaged record and stretch of damaged input: the
// line `charsniff --json` prints for it and, with Options.Text, its
// decoded text. Read is a splittable DoFn over the byte offsets of each
// span (an offsetrange restriction): a record belongs to the piece of the
// range its first byte is in. The initial pieces start at the cuts
// archive.Split finds (record-starting gzip members, about
// Options.PartSize bytes apart); a runner may split a piece again at any
// byte while it runs, and the piece after that byte is read from the last
// cut before it, its records before the byte passed over unclaimed, so
// every record is emitted once, as archive.Reader reads it from the cut.
//
//	spans := warcio.Paths(s, beam.Create(s, "a.warc.gz", "b.warc.gz"))
//	docs := warcio.Read(s, spans, warcio.Options{})
//	textio.Write(s, "out.jsonl", beam.ParDo(s, warcio.JSON, docs))
package warcio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
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
	beam.RegisterType(reflect.TypeOf((*Doc)(nil)).Elem())
	register.DoFn4x1[context.Context, *sdf.LockRTracker, Span, func(Doc), error](&readFn{})
	register.Emitter1[Doc]()
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

// A Doc is one output of Read: a record of a WARC file, a damaged record
// or a stretch of damaged input.
type Doc struct {
	File   string // the Span's Path
	Offset int64  // where the record starts in the file (its gzip member)
	Length int64  // its length in the file as stored (see archive.Where); 0 if unknown
	// JSON is the line `charsniff --json` prints for the record, without
	// its newline: archive.Result encoded with SetEscapeHTML(false).
	JSON string
	// Text is the record's decoded text (normalized UTF-8), with
	// Options.Text; empty otherwise, and for a record that has none.
	Text    string
	HasText bool // the record has text (Text is set, with Options.Text)
}

// Options configure Read.
type Options struct {
	// PartSize is the size of the pieces a gzip WARC file is cut into
	// before the run (see archive.Split); 0 means DefaultPartSize.
	// Smaller pieces spread a file over more workers, at the cost of
	// about 16 KiB read per cut.
	PartSize int64
	// Text makes each Doc carry its record's decoded text.
	Text bool
}

// Paths turns a PCollection of file paths (strings) into Spans of whole
// files, for Read.
func Paths(s beam.Scope, paths beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("warcio.Paths"), pathSpan, paths)
}

func pathSpan(path string) Span { return Span{Path: path} }

// Read reads the Spans of spans (a PCollection of Span) and returns a
// PCollection of Doc, one for each line `charsniff --json` prints for
// them, in no particular order: sort by File and Offset for the command's.
func Read(s beam.Scope, spans beam.PCollection, opts Options) beam.PCollection {
	s = s.Scope("warcio.Read")
	return beam.ParDo(s, &readFn{PartSize: opts.PartSize, Text: opts.Text}, spans)
}

// JSON returns the output line of d: its JSON line, with a "text" field
// last when it has text, as `charsniff --decode --json` writes a record
// whose text settled its encoding.
func JSON(d Doc) string {
	if !d.HasText {
		return d.JSON
	}
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(d.JSON, "}"))
	b.WriteString(`,"text":`)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(d.Text) // a string always encodes
	s := strings.TrimSuffix(b.String(), "\n")
	if d.Length != 0 {
		s += `,"length":` + strconv.FormatInt(d.Length, 10) // after the text, as the command writes it
	}
	return s + "}"
}

// readFn is Read's splittable DoFn. Its fields are its options, which
// Beam serializes with it.
type readFn struct {
	PartSize int64
	Text     bool
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
func (fn *readFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, s Span, emit func(Doc)) error {
	end, problem, err := check(ctx, s)
	if err != nil {
		return err
	}
	if problem != "" {
		r := rt.GetRestriction().(offsetrange.Restriction)
		if rt.TryClaim(r.Start) {
			emit(errorDoc(s, problem))
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

// errorDoc returns the error line of s: the command's for a bad range.
func errorDoc(s Span, problem string) Doc {
	b, _ := json.Marshal(&archive.Result{File: s.Path, Err: errors.New(problem)}) // never fails
	return Doc{File: s.Path, Offset: s.Offset, JSON: string(b)}
}

// read reads the records of s from the record boundary from on, passes
// over those before the restriction's start, and emits those rt claims.
func (fn *readFn) read(ctx context.Context, rt *sdf.LockRTracker, s Span, f file, from, end int64, emit func(Doc)) error {
	start := rt.GetRestriction().(offsetrange.Restriction).Start
	src, err := f.section(from, end)
	if err != nil {
		return fmt.Errorf("warcio: %s: %w", s.Path, err)
	}
	// The lines of charsniff --json, with provenance; with text, of --decode --json, without.
	ar := archive.NewReader(src, archive.Options{File: s.Path, Offset: from, Provenance: !fn.Text})
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
		d, err := fn.doc(s, rec)
		if err != nil {
			return err
		}
		emit(d)
	}
	// No record starts in the rest of the range: claim it all, so that the
	// tracker is done (a claim at its end fails, as it should).
	rt.TryClaim(rt.GetRestriction().(offsetrange.Restriction).End)
	return nil
}

// doc returns the Doc of rec, finished.
func (fn *readFn) doc(s Span, rec *archive.Record) (Doc, error) {
	d := Doc{File: s.Path, Offset: rec.Offset, HasText: fn.Text && rec.Text != nil}
	if d.HasText {
		var b strings.Builder
		rec.WriteText(&b) // a strings.Builder never fails
		d.Text = b.String()
	}
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	res := *rec.Finish()
	if w := res.Where; w != nil {
		d.Length = w.Length
		if d.HasText {
			wc := *w
			wc.Length = 0 // JSON writes it after the text
			res.Where = &wc
		}
	}
	if err := enc.Encode(&res); err != nil {
		return Doc{}, fmt.Errorf("warcio: %s: %w", s.Path, err)
	}
	d.JSON = strings.TrimSuffix(line.String(), "\n")
	return d, nil
}

func (fn *readFn) partSize() int64 {
	if fn.PartSize > 0 {
		return fn.PartSize
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
