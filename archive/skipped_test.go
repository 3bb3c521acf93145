package archive

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/warctest"
)

// skippyCrawl is a WARC file of a record X whose block of 100 KB has a
// Content-Length 1.5 MB too long, then n small HTML responses; it returns
// the file and the offset of each record.
func skippyCrawl(t *testing.T, n int) ([]byte, []int) {
	x := warctest.Record{Type: "resource", ID: "<urn:test:X>", TargetURI: "http://example.test/x",
		ContentType: "text/html", Block: bytes.Repeat([]byte("<p>x</p>\n"), 100<<10/9)}
	recs := []warctest.Record{x}
	for i := range n {
		recs = append(recs, warctest.Response(fmt.Sprintf("http://example.test/%d", i),
			warctest.HTTPResponse(200, []string{"Content-Type: text/html; charset=utf-8"}, []byte("<p>hello</p>"))))
	}
	in, at := file(t, recs...)
	field := "Content-Length: " + strconv.Itoa(len(x.Block)) + "\r\n"
	i := bytes.Index(in, []byte(field))
	damaged := fmt.Sprintf("Content-Length: %d\r\n", len(x.Block)+1_500_000)
	in = append(in[:i:i], append([]byte(damaged), in[i+len(field):]...)...)
	for k := range at[1:] {
		at[k+1] += len(damaged) - len(field)
	}
	return in, at
}

// TestSkippedRange reads issue 26's pipe case through Reader and
// ReadStream from a source that cannot seek: the records lost after the
// damaged one come as one error Record that names their byte range, at
// the first of them, and are counted; from a source that can seek
// (ReadAll), none is lost.
func TestSkippedRange(t *testing.T) {
	const n = 6000
	in, at := skippyCrawl(t, n)
	pipe := func() io.Reader { return struct{ io.Reader }{bytes.NewReader(in)} }
	collect := func(recs *[]*Record) func(*Record) error {
		return func(rec *Record) error {
			rec.Finish() // as the charsniff command does: damage found on reading comes in
			r := *rec
			r.Text, r.text, r.buffered, r.r = nil, nil, nil, nil
			*recs = append(*recs, &r)
			return nil
		}
	}
	for _, tc := range []struct {
		name string
		read func(fn func(*Record) error) (*Counts, error)
		lost bool
	}{
		{"Reader", func(fn func(*Record) error) (*Counts, error) {
			r := NewReader(pipe(), Options{File: "f"})
			for {
				rec, err := r.Next()
				if err == io.EOF {
					return r.Counts(), nil
				}
				if err != nil {
					return r.Counts(), err
				}
				fn(rec)
			}
		}, true},
		{"ReadStream", func(fn func(*Record) error) (*Counts, error) {
			return readStream(context.Background(), pipe(), Options{File: "f"}, fn)
		}, true},
		{"ReadAll", func(fn func(*Record) error) (*Counts, error) {
			return readAll(context.Background(), bytes.NewReader(in), int64(len(in)), Options{File: "f", PartSize: 64 << 10}, fn)
		}, false},
	} {
		var recs []*Record
		c, err := tc.read(collect(&recs))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sniffed, skips := 0, []*Record{}
		for _, rec := range recs {
			switch {
			case rec.Result.Err != nil && strings.Contains(rec.Result.Err.Error(), "skipped"):
				skips = append(skips, rec)
			case rec.Result.Err == nil:
				sniffed++
			}
		}
		if !tc.lost {
			if sniffed != n || len(skips) != 0 || c.SkippedRanges != 0 {
				t.Errorf("%s: %d sniffed, %d skipped ranges (counted %d), want %d and none", tc.name, sniffed, len(skips), c.SkippedRanges, n)
			}
			continue
		}
		if len(skips) != 1 {
			t.Fatalf("%s: %d skipped ranges, want 1", tc.name, len(skips))
		}
		s := skips[0]
		var start, end int64
		if _, err := fmt.Sscanf(s.Result.Err.Error(), "bytes %d to %d skipped", &start, &end); err != nil {
			t.Fatalf("%s: %q: %v", tc.name, s.Result.Err, err)
		}
		lost := 0
		for _, off := range at[1:] {
			if start <= int64(off) && int64(off) < end {
				lost++
			}
		}
		if start != int64(at[1]) || s.Offset != start || lost == 0 {
			t.Errorf("%s: skipped %d-%d at offset %d, want it to start at the first record, @%d", tc.name, start, end, s.Offset, at[1])
		}
		if sniffed+lost != n || c.Sniffed != sniffed || c.SkippedRanges != 1 || c.SkippedBytes != end-start {
			t.Errorf("%s: %d sniffed (counted %d) and %d lost of %d; counted %d ranges of %d bytes, want 1 of %d",
				tc.name, sniffed, c.Sniffed, lost, n, c.SkippedRanges, c.SkippedBytes, end-start)
		}
		t.Logf("%s: %s", tc.name, s.Result.Err)
	}
}

// TestSkippedRangeGzip reads the crawl of TestSkippedRange as one gzip
// member from a pipe, its damaged record first and without a
// WARC-Record-ID: the skipped range has the same offset (the member's) and
// record ID (none) as the damaged record, and still gets a result of its
// own.
func TestSkippedRangeGzip(t *testing.T) {
	in, _ := skippyCrawl(t, 6000)
	i := bytes.Index(in, []byte("WARC-Record-ID: "))
	j := i + bytes.Index(in[i:], []byte("\r\n")) + 2
	in = append(in[:i:i], in[j:]...)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(in)
	zw.Close()
	r := NewReader(struct{ io.Reader }{&gz}, Options{File: "f"})
	var errs []string
	for _, res := range warctest.Collect(t, r.Next, (*Record).Finish) {
		if res.Err != nil {
			errs = append(errs, fmt.Sprintf("@%d %s: %s", res.Offset, res.RecordID, res.Err))
		}
	}
	if len(errs) != 2 || !strings.Contains(errs[0], "no end of record") || !strings.Contains(errs[1], " skipped (") {
		t.Errorf("error results %q, want the damaged record's, then the skipped range's", errs)
	}
	if c := r.Counts(); c.SkippedRanges != 1 || c.Failed != 2 {
		t.Errorf("counted %d skipped ranges and %d failed, want 1 and 2", c.SkippedRanges, c.Failed)
	}
}
