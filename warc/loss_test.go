package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/internal/warctest"
)

// lossCrawl is a plain WARC file of small good records and damaged ones.
type lossCrawl struct {
	in      []byte
	starts  []int64 // the offset of each record
	damaged []bool  // whether record i has a wrong Content-Length
	// kinds is the error each damaged record must get: "truncated" if
	// its block runs past the end of the input, otherwise "length".
	kinds map[int64]string
}

// newLossCrawl writes n records of about 340 + 60×lines bytes (the first,
// if big is set, has a block of 100 KB), setting the Content-Length of those that
// damage picks to its length plus delta (or past the end of the input).
func newLossCrawl(n, lines int, big bool, damage func(i int) bool, delta int64) lossCrawl {
	var c lossCrawl
	var out bytes.Buffer
	ends := map[int64]int64{} // the end of each damaged block, by record offset
	for i := range n {
		rec := testRecord(fmt.Sprintf("R%04d", i), lines)
		if i == 0 && big {
			rec = warctest.Record{Type: "resource", ID: "<urn:test:R0000>", TargetURI: "http://example.test/big",
				ContentType: "text/html", Block: bigBlock(100 << 10)}
		}
		seg := warctest.Segments(false, rec)[0]
		d := damage(i)
		cl := int64(len(rec.Block))
		if d {
			cl += delta
			if delta == pastEOF || delta == math.MaxInt64 {
				cl = delta
			}
			seg = warctest.SetLength(seg, cl)
		}
		c.starts = append(c.starts, int64(out.Len()))
		c.damaged = append(c.damaged, d)
		if d {
			ends[int64(out.Len())] = int64(out.Len()+bytes.Index(seg, []byte("\r\n\r\n"))+4) + cl
		}
		out.Write(seg)
	}
	c.in = out.Bytes()
	c.kinds = map[int64]string{}
	for off, end := range ends {
		c.kinds[off] = "length"
		if end > int64(len(c.in)) || end < 0 {
			c.kinds[off] = "truncated"
		}
	}
	return c
}

// gzipped returns the crawl as one gzip member.
func (c lossCrawl) gzipped() []byte {
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
	zw.Write(c.in)
	zw.Close()
	return out.Bytes()
}

// lossEvents is what reading a lossCrawl gave.
type lossEvents struct {
	recs  map[int64]bool   // the offsets of the records returned
	errs  map[int64]string // the damaged records reported: the error's kind, by offset
	skips []SkippedError
}

// readLoss reads all of r, reading each block through Body if
// readBodies.
func readLoss(t *testing.T, r io.Reader, readBodies bool) lossEvents {
	t.Helper()
	ev := lossEvents{recs: map[int64]bool{}, errs: map[int64]string{}}
	for rec, err := range records(t, NewReader(r)) {
		var se *SkippedError
		var re *RecordError
		switch {
		case errors.As(err, &se):
			ev.skips = append(ev.skips, *se)
			continue
		case errors.As(err, &re):
			ev.errs[re.UncompressedOffset] = kind(err)
			continue
		case err != nil:
			t.Fatal(err)
		}
		ev.recs[rec.UncompressedOffset] = true
		if readBodies {
			if _, err := io.Copy(io.Discard, rec.Body); err != nil {
				var re *RecordError
				if !errors.As(err, &re) {
					t.Fatal(err)
				}
				ev.errs[re.UncompressedOffset] = kind(err)
			}
		}
	}
	return ev
}

// check checks that every damaged record of c is reported, and that every
// good record is returned or lies in a skipped range; it returns how many
// good records are lost. A skipped range must start at a record that is
// lost (or inside a damaged record's block).
func (c lossCrawl) check(t *testing.T, name string, ev lossEvents) int {
	t.Helper()
	lost := 0
	for i, off := range c.starts {
		switch {
		case c.damaged[i]:
			k, ok := ev.errs[off]
			switch {
			case !ok && !skippedAt(ev.skips, off):
				t.Errorf("%s: damaged record %d @%d not reported", name, i, off)
			case ok && k != c.kinds[off]:
				t.Errorf("%s: damaged record %d @%d: error %q, want %q", name, i, off, k, c.kinds[off])
			}
		case ev.recs[off]:
		case skippedAt(ev.skips, off):
			lost++
		default:
			t.Errorf("%s: good record %d @%d lost without a report", name, i, off)
		}
	}
	for _, s := range ev.skips {
		if s.Start >= s.End {
			t.Errorf("%s: empty skipped range %d-%d", name, s.Start, s.End)
		}
	}
	for off := range ev.recs {
		if !slices.Contains(c.starts, off) {
			t.Errorf("%s: a record returned @%d, where none starts", name, off)
		}
	}
	return lost
}

func skippedAt(skips []SkippedError, off int64) bool {
	for _, s := range skips {
		if s.Start <= off && off < s.End {
			return true
		}
	}
	return false
}

// TestLossPipe is issue 26's first case: through a pipe, a record whose
// Content-Length is 1.5 MB too long, followed by 6000 good records. The
// records that start more than 1 MiB before the end of its block as the
// Content-Length has it are lost, and reported: one skipped range, from
// the first of them to that limit, after the damaged record's error.
func TestLossPipe(t *testing.T) {
	const delta = 1_500_000
	c := newLossCrawl(6001, 1, true, func(i int) bool { return i == 0 }, delta)
	showAt := c.starts[1] - 4 + delta // where X's block ends as its Content-Length has it
	for _, ch := range []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"no Seek", func(r io.Reader) io.Reader { return r }},
		{"OneByteReader", iotest.OneByteReader},
		{"Seek fails", func(r io.Reader) io.Reader { return pipeLike{r} }},
	} {
		for _, readBodies := range []bool{false, true} {
			name := fmt.Sprintf("%s, readBodies=%v", ch.name, readBodies)
			ev := readLoss(t, ch.wrap(struct{ io.Reader }{bytes.NewReader(c.in)}), readBodies)
			lost := c.check(t, name, ev)
			want := SkippedError{Start: c.starts[1], End: showAt - maxHold, Reason: reasonPipe}
			if len(ev.skips) != 1 || ev.skips[0] != want {
				t.Errorf("%s: skipped %+v, want %+v", name, ev.skips, want)
			}
			if n := len(ev.errs); n != 1 {
				t.Errorf("%s: %d errors, want 1", name, n)
			}
			if lost < 1000 {
				t.Errorf("%s: %d records lost: the test loses too few", name, lost)
			}
			t.Logf("%s: %d of 6000 good records lost, in %d bytes reported", name, lost, want.End-want.Start)
		}
	}
}

// TestLossSeekable is issue 26's second case: a plain WARC file of 3000
// records, every second one damaged (Content-Length past the end of the
// input, the largest there is, or 1.5 MB too long), read from a source that
// can seek, a file on disk among them. Every good
// record comes back and every damaged one is reported, nothing is
// skipped, and the input is read at most six times over (once, four times
// again, once more when the Reader starts to check records' ends first)
// plus a few bytes per record.
func TestLossSeekable(t *testing.T) {
	for _, delta := range []int64{pastEOF, math.MaxInt64, 1_500_000} {
		c := newLossCrawl(3000, 20, false, func(i int) bool { return i%2 == 1 }, delta)
		path := filepath.Join(t.TempDir(), "crawl.warc")
		if err := os.WriteFile(path, c.in, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		file := struct {
			name     string
			seekable bool
			open     func(in []byte) io.Reader
		}{"os.File", true, func([]byte) io.Reader { f.Seek(0, io.SeekStart); return f }}
		for _, src := range append(sources, file) {
			if !src.seekable {
				continue
			}
			for _, readBodies := range []bool{false, true} {
				name := fmt.Sprintf("delta %d, %s, readBodies=%v", delta, src.name, readBodies)
				cs := &countingSeeker{Reader: bytes.NewReader(c.in)}
				r := src.open(c.in)
				if src.name == "bytes.Reader" {
					r = cs
				}
				ev := readLoss(t, r, readBodies)
				if lost := c.check(t, name, ev); lost != 0 || len(ev.skips) != 0 {
					t.Errorf("%s: %d records lost, skipped %v", name, lost, ev.skips)
				}
				if len(ev.recs) != 3000 || len(ev.errs) != 1500 {
					t.Errorf("%s: %d records and %d errors, want 3000 (the damaged ones too) and 1500", name, len(ev.recs), len(ev.errs))
				}
				if r == io.Reader(cs) {
					n := int64(len(c.in))
					if max := 6*n + 5*3000 + minBuffer; cs.n > max {
						t.Errorf("%s: read %d bytes of a %d-byte input, want at most %d", name, cs.n, n, max)
					}
					t.Logf("%s: read %d bytes of a %d-byte input", name, cs.n, n)
				}
			}
		}
	}
}

// TestLossAccounted reads the crawl of TestLossSeekable where records can
// be lost (through a pipe, and as one gzip member, whose re-reads the
// Reader bounds): every good record comes back or lies in a reported
// skipped range.
func TestLossAccounted(t *testing.T) {
	for _, delta := range []int64{pastEOF, 1_500_000} {
		c := newLossCrawl(3000, 20, false, func(i int) bool { return i%2 == 1 }, delta)
		gz := c.gzipped()
		for _, tc := range []struct {
			name string
			r    io.Reader
		}{
			{"plain, no Seek", struct{ io.Reader }{bytes.NewReader(c.in)}},
			{"gzip, no Seek", struct{ io.Reader }{bytes.NewReader(gz)}},
			{"gzip, seekable", bytes.NewReader(gz)},
		} {
			name := fmt.Sprintf("delta %d, %s", delta, tc.name)
			ev := readLoss(t, tc.r, false)
			lost := c.check(t, name, ev)
			t.Logf("%s: %d records, %d lost in %d skipped ranges", name, len(ev.recs), lost, len(ev.skips))
		}
	}
}

// TestProbedBody reads the blocks of TestLossSeekable's crawl (every
// second Content-Length past the end): once the Reader checks records'
// ends before reading them, a damaged record's Body returns its error at
// once, and a good one its whole block.
func TestProbedBody(t *testing.T) {
	c := newLossCrawl(3000, 20, false, func(i int) bool { return i%2 == 1 }, pastEOF)
	damaged := map[int64]bool{}
	for i, off := range c.starts {
		damaged[off] = c.damaged[i]
	}
	wr := NewReader(bytes.NewReader(c.in))
	probed := 0
	for rec, err := range records(t, wr) {
		var re *RecordError
		if errors.As(err, &re) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if !wr.probing {
			continue
		}
		n, err := io.Copy(io.Discard, rec.Body)
		switch {
		case damaged[rec.Offset] && (n != 0 || !errors.Is(err, ErrTruncated)):
			t.Fatalf("damaged record @%d: Body gave %d bytes and %v, want none and its error", rec.Offset, n, err)
		case !damaged[rec.Offset] && (n != rec.ContentLength || err != nil):
			t.Fatalf("record @%d: Body gave %d bytes of %d and %v", rec.Offset, n, rec.ContentLength, err)
		}
		probed++
	}
	if probed < 1000 {
		t.Errorf("%d records read while probing: the test probes too little", probed)
	}
}
