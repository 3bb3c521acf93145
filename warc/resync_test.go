package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// pastEOF stands for a Content-Length that runs past the end of the input.
const pastEOF = 1 << 40

// bigBlock returns n bytes of HTML-like lines, none of them a WARC version
// line.
func bigBlock(n int) []byte {
	line := []byte("<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>\n")
	b := bytes.Repeat(line, n/len(line)+1)
	return b[:n]
}

// damagedCrawl is a WARC file of a good record A, a record X with a block of
// size bytes whose Content-Length is off by delta (or past the end of the
// input), and 40 good records after it.
type damagedCrawl struct {
	segs  [][]byte // the records, uncompressed, X's Content-Length damaged
	names []string
	xCL   int64 // X's damaged Content-Length
}

func newDamagedCrawl(size, delta int) damagedCrawl {
	recs := []warctest.Record{testRecord("A", 2)}
	x := warctest.Record{Type: "resource", ID: "<urn:test:X>", TargetURI: "http://example.test/x", ContentType: "text/html", Block: bigBlock(size)}
	recs = append(recs, x)
	for i := range 40 {
		recs = append(recs, testRecord(fmt.Sprintf("F%02d", i), 1+i%5))
	}
	c := damagedCrawl{segs: warctest.Segments(false, recs...)}
	for _, rec := range recs {
		c.names = append(c.names, strings.TrimSuffix(strings.TrimPrefix(rec.ID, "<urn:test:"), ">"))
	}
	c.xCL = int64(size + delta)
	if delta == pastEOF {
		c.xCL = pastEOF
	}
	c.segs[1] = warctest.SetLength(c.segs[1], c.xCL)
	return c
}

// input returns the crawl as one stream: "plain", "gzip" (the whole file one
// gzip member), "members" (a gzip member per record) or "split" (members
// cut anywhere).
func (c damagedCrawl) input(form string) []byte {
	var out bytes.Buffer
	switch form {
	case "plain":
		for _, s := range c.segs {
			out.Write(s)
		}
	case "gzip":
		zw, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
		for _, s := range c.segs {
			zw.Write(s)
		}
		zw.Close()
	case "members":
		for _, s := range c.segs {
			zw, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
			zw.Write(s)
			zw.Close()
		}
	case "zstd", "lz4":
		writeFrames(&out, form, bytes.Join(c.segs, nil))
	case "zstd-frames", "lz4-frames":
		for _, s := range c.segs {
			writeFrames(&out, strings.TrimSuffix(form, "-frames"), s)
		}
	case "split":
		// Members of about 100 KB cut anywhere, as bgzip writes.
		var all []byte
		for _, s := range c.segs {
			all = append(all, s...)
		}
		for len(all) > 0 {
			n := min(len(all), 100_000+len(all)%777)
			zw, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
			zw.Write(all[:n])
			zw.Close()
			all = all[n:]
		}
	}
	return out.Bytes()
}

// writeFrames writes b to w as one zstd or LZ4 frame.
func writeFrames(w io.Writer, form string, b []byte) {
	var zw io.WriteCloser
	if form == "zstd" {
		zw, _ = zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	} else {
		lw := lz4.NewWriter(w)
		// With block checksums, and a block size that makes many blocks.
		lw.Apply(lz4.BlockChecksumOption(true), lz4.BlockSizeOption(lz4.Block64Kb))
		zw = lw
	}
	zw.Write(b)
	zw.Close()
}

// want returns the events that events must report: every record with its
// uncompressed offset, and one error after X.
func (c damagedCrawl) want(errKind string) []string {
	var out []string
	off := 0
	for i, s := range c.segs {
		if i == 1 {
			out = append(out, fmt.Sprintf("rec X %d @%d", c.xCL, off), fmt.Sprintf("err %s @%d", errKind, off))
		} else {
			out = append(out, fmt.Sprintf("rec %s @%d", c.names[i], off))
		}
		off += len(s)
	}
	return out
}

// recordEvents reads all records of r: "rec NAME @OFFSET" for each (with
// X's block length: "rec X LENGTH @OFFSET"), "err KIND @OFFSET" for each
// damaged one, at uncompressed offsets; more adds the lines of its own
// that a record gives.
func recordEvents(t testing.TB, r io.Reader, more func(wr *Reader, rec *Record, name string) []string) []string {
	return walkRecords(t, NewReader(r), uncompressedAt, func(wr *Reader, rec *Record, name string) []string {
		line := fmt.Sprintf("rec %s @%d", name, rec.UncompressedOffset)
		if name == "X" {
			line = fmt.Sprintf("rec X %d @%d", rec.ContentLength, rec.UncompressedOffset)
		}
		return append([]string{line}, more(wr, rec, name)...)
	})
}

// uncompressedAt is where a damaged record starts in the decompressed stream.
func uncompressedAt(re *RecordError) int64 { return re.UncompressedOffset }

// events reads all records of r as recordEvents does, reading their
// blocks if readBodies, and checks that the Reader's buffers stay bounded.
func events(t testing.TB, r io.Reader, readBodies bool) []string {
	return recordEvents(t, r, func(wr *Reader, rec *Record, name string) []string {
		if n := len(wr.in.buf) + len(wr.s.buf); n > 2*maxBuffer {
			t.Fatalf("buffers grew to %d bytes", n)
		}
		if !readBodies {
			return nil
		}
		return readBlock(t, rec, name, uncompressedAt)
	})
}

// chunkings are the ways the tests hand an input to the Reader: the
// shared ones (reads of up to 200 KB) and a reader that stutters.
var chunkings = append(testutil.Chunkings(200<<10),
	testutil.Chunking{Name: "stutter", Wrap: func(r io.Reader) io.Reader { return &stutterReader{r: r} }})

// TestResync damages the Content-Length of a record of 1 KB, 1 MiB + 1 and
// 10 MB by ±1, ±200, ±5000 bytes and past the end of the input, in plain
// input, in a file that is one gzip member and in one member per record,
// and reads it under every chunking: the damaged record is reported once
// with its offset and every other record comes with its offset.
func TestResync(t *testing.T) {
	sizes := []int{1000, 1<<20 + 1, 10 << 20}
	deltas := []int{-5000, -200, -1, 1, 200, 5000, pastEOF}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, size := range sizes {
		for _, delta := range deltas {
			if size+delta < 0 {
				continue
			}
			c := newDamagedCrawl(size, delta)
			for _, form := range []string{"plain", "gzip", "members", "zstd", "zstd-frames", "lz4", "lz4-frames"} {
				in := c.input(form)
				perRecord := form == "members" || strings.HasSuffix(form, "-frames")
				kindWant := "length"
				if delta == pastEOF || perRecord && delta > 0 {
					kindWant = "truncated"
				}
				if perRecord && delta == 1 {
					kindWant = "length" // the member still holds the marker's CR
				}
				want := c.want(kindWant)
				for i, ch := range chunkings {
					if ch.Name == "OneByteReader" && size > 2<<20 && form != "plain" {
						continue // byte by byte through gzip: slow, and the plain run covers it
					}
					if testutil.Race && size > 2<<20 && (i > 0 || form != "plain" && form != "members") {
						// The race detector slows the 10 MB scans tenfold and
						// finds nothing in their volume: one chunking, one
						// container of each kind.
						continue
					}
					name := fmt.Sprintf("%d/%+d/%s/%s", size, delta, form, ch.Name)
					if delta == pastEOF {
						name = fmt.Sprintf("%d/pastEOF/%s/%s", size, form, ch.Name)
					}
					got := events(t, ch.Wrap(bytes.NewReader(in)), i%2 == 1)
					if !equal(got, want) {
						t.Errorf("%s:\n%s", name, warctest.DiffLines(got, want))
					}
				}
			}
		}
	}
}

// TestLineLimit reads header lines around the 64 KiB limit, in the record
// header and in the stored HTTP header, under every chunking: a line is
// accepted if it has at most maxLine bytes, ending included, however the
// bytes arrive.
func TestLineLimit(t *testing.T) {
	for _, n := range []int{maxLine - 1, maxLine, maxLine + 1, 80 << 10, 100 << 10} {
		// "X-Long: " + value + CRLF is n bytes.
		field := "X-Long: " + strings.Repeat("v", n-len("X-Long: ")-2)
		long := testRecord("L", 1)
		long.Fields = []string{field}
		in, o := warctest.Join(warctest.Segments(false, testRecord("A", 1), long, testRecord("C", 1))...)
		warcWant := []string{"rec A @0", fmt.Sprintf("rec L @%d", o[1]), fmt.Sprintf("rec C @%d", o[2])}
		if n > maxLine {
			warcWant = []string{"rec A @0", fmt.Sprintf("err header @%d", o[1]), fmt.Sprintf("rec C @%d", o[2])}
		}
		body := "<p>hi</p>"
		httpRec := warctest.Response("http://example.test/h", warctest.HTTPResponse(200,
			[]string{"Content-Type: text/html", field}, []byte(body)))
		httpIn, _ := warctest.Join(warctest.Segments(false, httpRec)...)
		for _, ch := range chunkings {
			for _, form := range []string{"plain", "gzip"} {
				data, hdata := in, httpIn
				if form == "gzip" {
					data, hdata = warctest.Gzip(in), warctest.Gzip(httpIn)
				}
				got := events(t, ch.Wrap(bytes.NewReader(data)), false)
				if !equal(got, warcWant) {
					t.Errorf("record header line of %d bytes, %s, %s:\n%s", n, form, ch.Name, warctest.DiffLines(got, warcWant))
				}
				rec, err := NewReader(ch.Wrap(bytes.NewReader(hdata))).Next()
				if err != nil {
					t.Fatal(err)
				}
				_, err = rec.Payload()
				if (err == nil) != (n <= maxLine) || err != nil && !errors.Is(err, ErrHTTP) {
					t.Errorf("HTTP header line of %d bytes, %s, %s: Payload error %v", n, form, ch.Name, err)
				}
			}
		}
	}
}

// TestFixtureChunking reads every WARC fixture, those in testdata and the
// generated ones, under every chunking, with and without reading the
// blocks: the records and errors are those of reading it whole.
func TestFixtureChunking(t *testing.T) {
	fixtures := warctest.TestdataGlob(t, "*.warc*")
	for _, compress := range []bool{false, true} {
		var b bytes.Buffer
		if _, err := warctest.Generate(&b, 200<<10, compress, 3); err != nil {
			t.Fatal(err)
		}
		fixtures[fmt.Sprintf("generated crawl, compress=%v", compress)] = b.Bytes()
	}
	for _, set := range [][]corruptCase{plainCases(), gzipCases()} {
		for _, tc := range set {
			fixtures["corruption: "+tc.desc] = tc.in
		}
	}
	for _, delta := range []int{-200, 200, pastEOF} {
		c := newDamagedCrawl(3000, delta)
		for _, form := range []string{"plain", "gzip", "members"} {
			fixtures[fmt.Sprintf("damaged crawl %+d %s", delta, form)] = c.input(form)
		}
	}
	for name, in := range fixtures {
		for _, readBodies := range []bool{false, true} {
			want := events(t, bytes.NewReader(in), readBodies)
			for _, ch := range chunkings[1:] {
				if ch.Name == "OneByteReader" && len(in) > 100<<10 {
					continue
				}
				if got := events(t, ch.Wrap(bytes.NewReader(in)), readBodies); !equal(got, want) {
					t.Errorf("%s, %s, readBodies=%v:\n%s", name, ch.Name, readBodies, warctest.DiffLines(got, want))
				}
			}
		}
	}
}
