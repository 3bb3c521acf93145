package warc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/internal/warctest"
)

// newTailCrawl is a damagedCrawl whose record X, of 100 KB, is followed by
// about tail bytes of good records of 64 KiB each, and whose X has
// Content-Length xCL (pastEOF: past the end of the input).
func newTailCrawl(tail int, xCL int64) damagedCrawl {
	recs := []warctest.Record{testRecord("A", 2), {Type: "resource", ID: "<urn:test:X>",
		TargetURI: "http://example.test/x", ContentType: "text/html", Block: bigBlock(100 << 10)}}
	for i := 0; i*(64<<10) < tail; i++ {
		recs = append(recs, warctest.Record{Type: "resource", ID: fmt.Sprintf("<urn:test:F%02d>", i),
			TargetURI: fmt.Sprintf("http://example.test/f%d", i), ContentType: "text/html", Block: bigBlock(64 << 10)})
	}
	c := damagedCrawl{segs: warctest.Segments(false, recs...), xCL: xCL}
	for _, rec := range recs {
		c.names = append(c.names, rec.ID[len("<urn:test:"):len(rec.ID)-1])
	}
	c.segs[1] = warctest.SetLength(c.segs[1], xCL)
	return c
}

// blockStart returns the uncompressed offset of X's block.
func (c damagedCrawl) blockStart() int64 {
	return int64(len(c.segs[0]) + bytes.Index(c.segs[1], []byte("\r\n\r\n")) + 4)
}

// size returns the length of the uncompressed crawl.
func (c damagedCrawl) size() int64 {
	n := 0
	for _, s := range c.segs {
		n += len(s)
	}
	return int64(n)
}

// wantFrom is want without the records after X that start before cut, and
// with the report of the bytes skipped after X's error: from the first
// record lost to cut.
func (c damagedCrawl) wantFrom(errKind string, cut int64) []string {
	var out []string
	off := int64(0)
	for i, line := range c.want(errKind) {
		k := i - 1 // the segment of the line: X has two lines
		if i < 2 {
			k = 0
		}
		if i > 2 {
			off = c.start(k)
		}
		if i <= 2 || off >= cut {
			out = append(out, line)
		}
		if i == 2 && c.start(2) < cut {
			out = append(out, fmt.Sprintf("skip %d-%d", c.start(2), cut))
		}
	}
	return out
}

// start returns the uncompressed offset of record k.
func (c damagedCrawl) start(k int) int64 {
	n := 0
	for _, s := range c.segs[:k] {
		n += len(s)
	}
	return int64(n)
}

// seekReader reads through r and seeks s, the source r reads from without
// buffering.
type seekReader struct {
	io.Reader
	s io.Seeker
}

func (s seekReader) Seek(off int64, whence int) (int64, error) { return s.s.Seek(off, whence) }

// pipeLike is an io.ReadSeeker that cannot seek, as an *os.File on a pipe.
type pipeLike struct{ io.Reader }

func (pipeLike) Seek(int64, int) (int64, error) { return 0, errors.New("illegal seek") }

// countingSeeker counts the bytes read from a seekable source.
type countingSeeker struct {
	*bytes.Reader
	n int64
}

func (c *countingSeeker) Read(p []byte) (int, error) {
	n, err := c.Reader.Read(p)
	c.n += int64(n)
	return n, err
}

// sources are the ways TestResyncSeek hands an input to the Reader, and
// whether the Reader can seek in them.
var sources = []struct {
	name     string
	seekable bool
	open     func(in []byte) io.Reader
}{
	{"bytes.Reader", true, func(in []byte) io.Reader { return bytes.NewReader(in) }},
	{"SectionReader", true, func(in []byte) io.Reader {
		// A byte range of a larger file, as the CLI's --range reads.
		junk := bytes.Repeat([]byte("WARC/1.0\r\n"), 1000)
		return io.NewSectionReader(bytes.NewReader(append(junk, in...)), int64(len(junk)), int64(len(in)))
	}},
	{"bytes.Reader past a prefix", true, func(in []byte) io.Reader {
		// A source that is not at its start when the Reader gets it.
		br := bytes.NewReader(append(bytes.Repeat([]byte("WARC/1.1\n"), 777), in...))
		br.Seek(777*9, io.SeekStart)
		return br
	}},
	{"HalfReader, seekable", true, func(in []byte) io.Reader {
		br := bytes.NewReader(in)
		return seekReader{iotest.HalfReader(br), br}
	}},
	{"random, seekable", true, func(in []byte) io.Reader {
		br := bytes.NewReader(in)
		return seekReader{testutil.RandomReader(br, 200<<10), br}
	}},
	{"no Seek", false, func(in []byte) io.Reader { return struct{ io.Reader }{bytes.NewReader(in)} }},
	{"Seek fails", false, func(in []byte) io.Reader { return pipeLike{bytes.NewReader(in)} }},
}

// TestResyncSeek damages the Content-Length of a record followed by 3 MiB
// of good records: past the end of the input, and too long by 2 MiB (the
// block then ends inside a later record). From a source that can seek,
// every good record comes back with its offset, in plain input, in a file
// that is one gzip member, in a member per record and in members cut
// anywhere (the block then starts in a member before the one the damage
// shows in). From one that
// cannot, the records that start more than 1 MiB before the place where
// the damage shows are lost, except with a member per record, and
// reported: one skipped range, from the first of them to that place.
func TestResyncSeek(t *testing.T) {
	const tail = 3 << 20
	past := newTailCrawl(tail, pastEOF)
	x := int64(100<<10) + 2<<20
	long := newTailCrawl(tail, x)
	for _, tc := range []struct {
		name   string
		c      damagedCrawl
		showAt int64 // where the damage shows: the end of X's block, or of the input
	}{
		{"past EOF", past, past.size()},
		{"2 MiB too long", long, long.blockStart() + x},
	} {
		for _, form := range []string{"plain", "gzip", "members", "split"} {
			in := tc.c.input(form)
			kindWant := "length"
			if tc.c.xCL == pastEOF || form == "members" {
				kindWant = "truncated"
			}
			for _, src := range sources {
				want := tc.c.want(kindWant)
				if !src.seekable && form != "members" {
					want = tc.c.wantFrom(kindWant, tc.showAt-maxHold)
				}
				if len(want) == len(tc.c.want(kindWant)) && !src.seekable && form != "members" {
					t.Fatalf("%s: the test loses nothing without seeking", tc.name)
				}
				got := events(t, src.open(in), false)
				if !equal(got, want) {
					t.Errorf("%s, %s, %s:\n%s", tc.name, form, src.name, warctest.DiffLines(got, want))
				}
			}
		}
	}
}

// TestResyncSeekOffsets reads records after a damaged one through a byte
// range with a non-zero base: Record.Offset is counted from the range's
// start, the offset of the record in plain input and of its (only) member
// in a file that is one gzip member.
func TestResyncSeekOffsets(t *testing.T) {
	c := newTailCrawl(2<<20, pastEOF)
	for _, form := range []string{"plain", "gzip"} {
		in := c.input(form)
		junk := bytes.Repeat([]byte{'j'}, 4321)
		src := io.NewSectionReader(bytes.NewReader(append(junk, in...)), int64(len(junk)), int64(len(in)))
		r := NewReader(src)
		n := 0
		for rec, err := range records(t, r) {
			if errors.Is(err, ErrTruncated) {
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", form, err)
			}
			want := rec.UncompressedOffset
			if form == "gzip" {
				want = 0
			}
			if rec.Offset != want {
				t.Errorf("%s: record %s at offset %d, want %d", form, rec.RecordID, rec.Offset, want)
			}
			n++
		}
		if n != len(c.segs) {
			t.Errorf("%s: %d records, want %d", form, n, len(c.segs))
		}
	}
}

// TestResyncSeekBound reads a file whose every Content-Length runs past its
// end, from a source that can seek: each rescan would read the rest of the
// file again. In plain input the Reader reads the input at most six times
// over (maxReread times again, then once more when it starts to check each
// record's end before handing it out) and every record comes back; in a
// file that is one gzip member it inflates at most maxReread times again,
// and the records it cannot go back to lie in reported skipped ranges.
func TestResyncSeekBound(t *testing.T) {
	var recs []warctest.Record
	for i := range 40 {
		recs = append(recs, warctest.Record{Type: "resource", ID: fmt.Sprintf("<urn:test:R%02d>", i),
			ContentType: "text/html", Block: bigBlock(100 << 10)})
	}
	segs := warctest.Segments(false, recs...)
	for i := range segs {
		segs[i] = warctest.SetLength(segs[i], pastEOF)
	}
	for _, form := range []string{"plain", "gzip"} {
		c := damagedCrawl{segs: segs}
		in := c.input(form)
		src := &countingSeeker{Reader: bytes.NewReader(in)}
		got := events(t, src, false)
		bound := (1+maxReread)*int64(len(in)) + minBuffer
		if form == "plain" {
			bound += int64(len(in)) + 5*int64(len(segs))
		}
		if src.n > bound {
			t.Errorf("%s: read %d bytes of a %d-byte input, want at most %d", form, src.n, len(in), bound)
		}
		var skips [][2]int64
		recsGot := map[string]bool{}
		for _, e := range got {
			var a, b int64
			var name string
			if _, err := fmt.Sscanf(e, "skip %d-%d", &a, &b); err == nil {
				skips = append(skips, [2]int64{a, b})
			} else if _, err := fmt.Sscanf(e, "rec %s @%d", &name, &a); err == nil {
				recsGot[e] = true
			}
		}
		if form == "plain" && len(skips) > 0 {
			t.Errorf("plain: skipped %v", skips)
		}
		for k := range segs {
			line := fmt.Sprintf("rec R%02d @%d", k, c.start(k))
			in := slices.ContainsFunc(skips, func(s [2]int64) bool { return s[0] <= c.start(k) && c.start(k) < s[1] })
			if !recsGot[line] && !in {
				t.Errorf("%s: record %d @%d lost without a report", form, k, c.start(k))
			}
		}
		t.Logf("%s: read %d bytes of a %d-byte input, %d records, skipped %v", form, src.n, len(in), len(recsGot), skips)
	}
}
