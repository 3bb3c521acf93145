package warc

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/internal/warctest"
)

// FuzzReader reads any bytes as a WARC file. It must not panic, must end,
// must report only *RecordError values and io.EOF (the input is a
// bytes.Reader, which does not fail) but for the final refusals of a whole
// input (an unsupported container or version, a bad zstd dictionary), must keep its buffers bounded, and
// must see the same records and errors however the input is chunked, and
// must read the input at most 3+maxReread times over (see
// TestLossSeekable). A slow input is named (watchSlow).
func FuzzReader(f *testing.F) {
	for _, name := range []string{"wget.warc.gz", "resiliparse/block-sized-records.warc.lz4", "warcio/example.arc", "warcio/example.arc.gz"} {
		f.Add(warctest.Testdata(f, name))
	}
	b := warctest.Testdata(f, "resiliparse/warcfile.dict.warc.zst")
	size := int(b[4]) | int(b[5])<<8 // the dictionary frame and three records
	f.Add(b[:8+size+1400])
	for _, set := range [][]corruptCase{plainCases(), gzipCases()} {
		for _, tc := range set {
			if len(tc.in) < 64<<10 {
				f.Add(tc.in)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer watchSlow(t, data)()
		limit := 64*len(data) + 64 // gzip expands at most about 1032 times
		src := &countingSeeker{Reader: bytes.NewReader(data)}
		r := NewReader(src)
		events := fuzzEvents(t, r, limit)
		if n := len(r.in.buf) + len(r.s.buf); n > 3*(maxHold+minBuffer) {
			t.Errorf("buffers grew to %d bytes", n)
		}
		// Rescans seek back and read again, at most maxReread times the
		// input read, then once more; then a few bytes a record header
		// (fewer than the header's).
		if max := int64(3+maxReread) * int64(len(data)); src.n > max {
			t.Errorf("read %d bytes of %d bytes of input, more than %d", src.n, len(data), max)
		}

		// The same reads through a reader that returns half of what is
		// asked give the same events.
		events2 := fuzzEvents(t, NewReader(iotest.HalfReader(bytes.NewReader(data))), limit)
		if !equal(events, events2) {
			t.Errorf("chunking changed the records:\nwhole: %s\nhalf:  %s", strings.Join(events, "\n       "), strings.Join(events2, "\n       "))
		}
	})
}

// fuzzEvents reads all records of r, the block of every other one through
// its Payload (or Body where it has none), and returns a line for each
// record and each error. Next returning more than limit times, or an error
// that is not a *RecordError, fails t.
func fuzzEvents(t *testing.T, r *Reader, limit int) []string {
	var events []string
	for i := 0; ; i++ {
		if i > limit {
			t.Fatalf("Next returned %d times", i)
		}
		rec, err := r.Next()
		if err == io.EOF {
			return events
		}
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) {
				if errors.Is(err, ErrUnsupportedContainer) || errors.Is(err, ErrUnsupportedVersion) || errors.Is(err, ErrZstd) {
					return append(events, "final "+err.Error())
				}
				t.Fatalf("Next: %v is not a *RecordError", err)
			}
			events = append(events, err.Error())
			continue
		}
		events = append(events, rec.RecordID+" "+rec.Type)
		if i%2 == 0 {
			continue // leave the block to Next
		}
		if p, err := rec.Payload(); err == nil {
			p.IsHTML()
			if _, err := io.Copy(io.Discard, io.LimitReader(p.Body, 16<<20)); err != nil {
				var re *RecordError
				if errors.As(err, &re) {
					events = append(events, err.Error())
				}
			}
		} else if _, err := io.Copy(io.Discard, rec.Body); err != nil {
			events = append(events, err.Error())
		}
	}
}

// FuzzDamagedLengths reads a valid WARC of eight records whose one
// Content-Length the fuzzer changes (which record, by how much, or past the
// end of the input), in plain input, one gzip member or a member per
// record, read whole or half at a time. It must not panic, must keep its
// buffers bounded, and must return every record the damage does not touch
// with its offset: all of them, except the records that a block whose
// Content-Length happens to end on an end-of-record marker takes in
// without an error.
func FuzzDamagedLengths(f *testing.F) {
	for _, seed := range []struct {
		rec   uint8
		delta int32
		flags uint8
	}{{1, 200, 0}, {1, -200, 1}, {2, 5000, 2}, {3, -1, 3}, {4, 1, 4}, {5, 0, 8}, {0, -5000, 5}, {6, 1 << 20, 6}} {
		f.Add(seed.rec, seed.delta, seed.flags)
	}
	recs := []warctest.Record{testRecord("A", 2), testRecord("B", 40), testRecord("C", 1),
		{Type: "resource", ID: "<urn:test:D>", ContentType: "text/html", Block: bigBlock(70 << 10)},
		testRecord("E", 3), testRecord("F", 200), testRecord("G", 1), testRecord("H", 5)}
	segs := warctest.Segments(false, recs...)
	f.Fuzz(func(t *testing.T, rec uint8, delta int32, flags uint8) {
		k := int(rec) % len(segs)
		form := []string{"plain", "gzip", "members"}[int(flags&3)%3]
		pastEnd := flags&8 != 0
		half := flags&4 != 0

		// The damaged crawl, and where each record starts.
		c := damagedCrawl{segs: append([][]byte{}, segs...)}
		for _, r := range recs {
			c.names = append(c.names, strings.TrimSuffix(strings.TrimPrefix(r.ID, "<urn:test:"), ">"))
		}
		i := bytes.Index(segs[k], []byte("Content-Length: ")) + 16
		j := i + bytes.IndexByte(segs[k][i:], '\r')
		size, _ := strconv.ParseInt(string(segs[k][i:j]), 10, 64)
		headerLen := bytes.Index(segs[k], []byte("\r\n\r\n")) + 4
		c.xCL = size + int64(delta)
		if pastEnd {
			c.xCL = pastEOF
		}
		c.segs[k] = warctest.SetLength(segs[k], c.xCL)
		var starts []int64
		var off int64
		for _, s := range c.segs {
			starts = append(starts, off)
			off += int64(len(s))
		}
		// The span the damaged record claims: header, block and marker.
		spanEnd := starts[k] + int64(headerLen) + (int64(len(c.segs[k])) - int64(len(segs[k]))) + c.xCL + 4

		in := bytes.NewReader(c.input(form))
		var src io.Reader = in
		if half {
			src = iotest.HalfReader(in)
		}
		wr := NewReader(src)
		got := map[string]int64{}
		reported := false // an error about the damaged record
		for n := 0; ; n++ {
			if n > 100 {
				t.Fatal("Next does not stop")
			}
			if b := len(wr.in.buf) + len(wr.s.buf); b > 2*maxBuffer {
				t.Fatalf("buffers grew to %d bytes", b)
			}
			r, err := wr.Next()
			if err == io.EOF {
				break
			}
			var re *RecordError
			if errors.As(err, &re) {
				reported = reported || re.UncompressedOffset == starts[k]
				continue
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			got[r.RecordID] = r.UncompressedOffset
			if n%2 == 1 {
				if _, err := io.Copy(io.Discard, r.Body); errors.As(err, &re) {
					reported = reported || re.UncompressedOffset == starts[k]
				}
			}
		}
		for j, name := range c.names {
			if j == k {
				continue
			}
			id := "<urn:test:" + name + ">"
			o, ok := got[id]
			swallowed := j > k && starts[j] < spanEnd && !reported && form != "members"
			if !ok && !swallowed {
				t.Errorf("record %s (at %d) lost; record %s's Content-Length %d (was %d), %s, half=%v, reported=%v", name, starts[j], c.names[k], c.xCL, size, form, half, reported)
			}
			if ok && o != starts[j] {
				t.Errorf("record %s at offset %d, want %d", name, o, starts[j])
			}
		}
	})
}
