package warc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/charsniff/charsniff/internal/warctest"
)

// testRecord returns a small response record whose ID ends in name and
// whose body is name's page, n paragraphs long.
func testRecord(name string, n int) warctest.Record {
	body := strings.Repeat("<p>"+name+" "+strings.Repeat(name, 10)+"</p>\n", n)
	rec := warctest.Response("http://example.test/"+name, warctest.HTTPResponse(200,
		[]string{"Content-Type: text/html", "Content-Length: " + strconv.Itoa(len(body))}, []byte(body)))
	rec.ID = "<urn:test:" + name + ">"
	return rec
}

// abcd returns records A, B, C and D, of different lengths.
func abcd() []warctest.Record {
	return []warctest.Record{testRecord("A", 3), testRecord("B", 5), testRecord("C", 2), testRecord("D", 4)}
}

// kind names the package error err wraps.
func kind(err error) string {
	for _, k := range []struct {
		err  error
		name string
	}{
		{ErrGarbage, "garbage"}, {ErrBadHeader, "header"}, {ErrMissingType, "type"},
		{ErrTruncated, "truncated"}, {ErrContentLength, "length"}, {ErrGzip, "gzip"},
		{ErrZstd, "zstd"}, {ErrLZ4, "lz4"},
	} {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	return err.Error()
}

// describe reads all records of r and returns a line for each record
// ("rec B response 345 @123": name, type, block length, offset) and each
// error ("err length @123"). With readBodies it reads each block through
// Body; a block error then follows its record, as it does when Next reports
// it.
func describe(t testing.TB, r io.Reader, readBodies bool) []string {
	return describeReader(t, NewReader(r), readBodies)
}

// describeReader is describe with the records of wr.
func describeReader(t testing.TB, wr *Reader, readBodies bool) []string {
	at := func(re *RecordError) int64 { return re.Offset }
	return walkRecords(t, wr, at, func(_ *Reader, rec *Record, name string) []string {
		line := fmt.Sprintf("rec %s %s %d @%d", name, rec.Type, rec.ContentLength, rec.Offset)
		if !readBodies {
			return []string{line}
		}
		return append([]string{line}, readBlock(t, rec, name, at)...)
	})
}

// walkRecords reads all records of wr and returns the lines lines gives for
// each record (name is its WARC-Record-ID between "<urn:test:" and ">"),
// "err KIND @OFFSET" for each damaged one, at the offset at picks, and
// "fatal MESSAGE" for any other error, which ends it, as does a fatal
// line of lines.
func walkRecords(t testing.TB, wr *Reader, at func(*RecordError) int64, lines func(wr *Reader, rec *Record, name string) []string) []string {
	var out []string
	for rec, err := range records(t, wr) {
		var se *SkippedError
		if errors.As(err, &se) {
			out = append(out, fmt.Sprintf("skip %d-%d", se.Start, se.End))
			continue
		}
		var re *RecordError
		if errors.As(err, &re) {
			out = append(out, fmt.Sprintf("err %s @%d", kind(err), at(re)))
			continue
		}
		if err != nil {
			return append(out, "fatal "+err.Error())
		}
		name := strings.TrimSuffix(strings.TrimPrefix(rec.RecordID, "<urn:test:"), ">")
		l := lines(wr, rec, name)
		out = append(out, l...)
		if len(l) > 0 && strings.HasPrefix(l[len(l)-1], "fatal ") {
			return out
		}
	}
	return out
}

// readBlock reads rec's block through Body and returns nothing, or the
// line of its error: "err KIND @OFFSET" (at the offset at picks) or
// "fatal MESSAGE". A block of the wrong length is a test error.
func readBlock(t testing.TB, rec *Record, name string, at func(*RecordError) int64) []string {
	b, err := io.ReadAll(rec.Body)
	var re *RecordError
	switch {
	case errors.As(err, &re):
		return []string{fmt.Sprintf("err %s @%d", kind(err), at(re))}
	case err != nil:
		return []string{"fatal " + err.Error()}
	case int64(len(b)) != rec.ContentLength:
		t.Errorf("record %s: read %d bytes of block, want %d", name, len(b), rec.ContentLength)
	}
	return nil
}

// maxNext bounds the calls to Next that records makes: a test input has
// fewer records, a benchmark's far fewer.
const maxNext = 1 << 24

// records yields what each call of wr.Next returns, a record or an error,
// until io.EOF; it fails tb if Next does not stop.
func records(tb testing.TB, wr *Reader) iter.Seq2[*Record, error] {
	return func(yield func(*Record, error) bool) {
		for range maxNext {
			rec, err := wr.Next()
			if err == io.EOF || !yield(rec, err) {
				return
			}
		}
		tb.Fatalf("Next does not stop after %d calls", maxNext)
	}
}

// eachRecord calls f with the index and the record of each record of r,
// failing tb on an error from Next or f, and returns how many there were.
func eachRecord(tb testing.TB, r *Reader, f func(i int, rec *Record) error) int {
	i := 0
	for rec, err := range records(tb, r) {
		if err != nil {
			tb.Fatal(err)
		}
		if err := f(i, rec); err != nil {
			tb.Fatal(err)
		}
		i++
	}
	return i
}

func recLine(name string, seg []byte, off int64) string {
	i, j := warctest.LengthField(seg)
	return fmt.Sprintf("rec %s response %s @%d", name, seg[i:j], off)
}

// corruptCase is a damaged input and the lines describe must give.
type corruptCase struct {
	desc string
	in   []byte
	want []string
}

func plainCases() []corruptCase {
	a, b, c, d := func() ([]byte, []byte, []byte, []byte) {
		s := warctest.Segments(false, abcd()...)
		return s[0], s[1], s[2], s[3]
	}()
	var cases []corruptCase
	add := func(desc string, in []byte, want ...string) {
		cases = append(cases, corruptCase{desc, in, want})
	}

	in, o := warctest.Join(a, b, c, d)
	add("intact", in, recLine("A", a, o[0]), recLine("B", b, o[1]), recLine("C", c, o[2]), recLine("D", d, o[3]))

	in, o = warctest.Join(a, []byte("junk junk\r\n"), b, c)
	add("garbage line between records", in,
		recLine("A", a, o[0]), fmt.Sprintf("err garbage @%d", o[1]), recLine("B", b, o[2]), recLine("C", c, o[3]))

	in, o = warctest.Join([]byte("\x00\x01\x02 binary"), a, b)
	add("garbage at the start, no newline before the record", in,
		"err garbage @0", recLine("A", a, o[1]), recLine("B", b, o[2]))

	in, o = warctest.Join(a, []byte("\r\n\r\n\n"), b)
	add("extra blank lines between records are no error", in, recLine("A", a, o[0]), recLine("B", b, o[2]))

	in, o = warctest.Join(a, b[:len(b)-30], c, d)
	add("record cut inside its block, next record follows", in,
		recLine("A", a, o[0]), recLine("B", b, o[1]), fmt.Sprintf("err length @%d", o[1]),
		recLine("C", c, o[2]), recLine("D", d, o[3]))

	in, o = warctest.Join(a, b[:25], c, d)
	add("record cut inside its header, next record follows", in,
		recLine("A", a, o[0]), fmt.Sprintf("err truncated @%d", o[1]), recLine("C", c, o[2]), recLine("D", d, o[3]))

	in, o = warctest.Join(a, b[:len(b)-60])
	add("input ends inside a block", in, recLine("A", a, o[0]), recLine("B", b, o[1]), fmt.Sprintf("err truncated @%d", o[1]))

	in, o = warctest.Join(a, b[:40])
	add("input ends inside a header", in, recLine("A", a, o[0]), fmt.Sprintf("err truncated @%d", o[1]))

	b2 := warctest.WithLength(b, 50)
	in, o = warctest.Join(a, b2, c, d)
	add("Content-Length too long", in,
		recLine("A", a, o[0]), recLine("B", b2, o[1]), fmt.Sprintf("err length @%d", o[1]),
		recLine("C", c, o[2]), recLine("D", d, o[3]))

	b3 := warctest.WithLength(b, -10)
	in, o = warctest.Join(a, b3, c, d)
	add("Content-Length too short", in,
		recLine("A", a, o[0]), recLine("B", b3, o[1]), fmt.Sprintf("err length @%d", o[1]),
		recLine("C", c, o[2]), recLine("D", d, o[3]))

	b4 := warctest.WithLength(b, 100000)
	in, o = warctest.Join(a, b4)
	add("Content-Length beyond the end of input", in,
		recLine("A", a, o[0]), recLine("B", b4, o[1]), fmt.Sprintf("err truncated @%d", o[1]))

	b5 := bytes.Replace(b, []byte("WARC-Type: response\r\n"), nil, 1)
	in, o = warctest.Join(a, b5, c)
	add("no WARC-Type", in, recLine("A", a, o[0]), fmt.Sprintf("err type @%d", o[1]), recLine("C", c, o[2]))

	b6 := bytes.Replace(b, []byte("WARC-Type: response\r\n"), []byte("WARC-Type: response\r\nNo colon here\r\n"), 1)
	in, o = warctest.Join(a, b6, c)
	add("header line without a colon", in, recLine("A", a, o[0]), fmt.Sprintf("err header @%d", o[1]), recLine("C", c, o[2]))

	b7 := bytes.Replace(b, []byte("Content-Length: "), []byte("X-Length: "), 1)
	in, o = warctest.Join(a, b7, c)
	add("no Content-Length", in, recLine("A", a, o[0]), fmt.Sprintf("err header @%d", o[1]), recLine("C", c, o[2]))

	b8 := bytes.Replace(b, []byte("Content-Length: "), []byte("Content-Length: -"), 1)
	in, o = warctest.Join(a, b8, c)
	add("negative Content-Length", in, recLine("A", a, o[0]), fmt.Sprintf("err header @%d", o[1]), recLine("C", c, o[2]))

	b9 := bytes.Replace(b, []byte("WARC-Type: response\r\n"), []byte("WARC-Type: response\r\nX-Big: "+strings.Repeat("x", 300<<10)+"\r\n"), 1)
	in, o = warctest.Join(a, b9, c)
	add("header line longer than the limit", in, recLine("A", a, o[0]), fmt.Sprintf("err header @%d", o[1]), recLine("C", c, o[2]))

	in, o = warctest.Join(a, []byte("WARC/1.1\r\n\r\n"), c)
	add("empty header", in, recLine("A", a, o[0]), fmt.Sprintf("err header @%d", o[1]), recLine("C", c, o[2]))

	ab := append(append([]byte{}, a...), b...)
	ab = ab[:len(ab)-4] // no end-of-record marker at the end of input
	add("last record without its end-of-record marker", ab, recLine("A", a, 0), recLine("B", b, int64(len(a))))

	add("empty input", nil)
	return cases
}

func gzipCases() []corruptCase {
	s := warctest.Segments(true, abcd()...)
	a, b, c, d := s[0], s[1], s[2], s[3]
	var cases []corruptCase
	add := func(desc string, in []byte, want ...string) {
		cases = append(cases, corruptCase{desc, in, want})
	}
	// recLine needs the header: take it from the plain segments.
	p := warctest.Segments(false, abcd()...)
	line := func(i int, off int64) string { return recLine(string(rune('A'+i)), p[i], off) }

	in, o := warctest.Join(a, b, c, d)
	add("intact", in, line(0, o[0]), line(1, o[1]), line(2, o[2]), line(3, o[3]))

	in, o = warctest.Join(a, b[:len(b)-10], c, d)
	add("gzip member cut short, next member follows", in,
		line(0, o[0]), line(1, o[1]), fmt.Sprintf("err gzip @%d", o[1]), line(2, o[2]), line(3, o[3]))

	in, o = warctest.Join(a, b[:len(b)/2], c, d)
	add("gzip member cut in half, next member follows", in,
		line(0, o[0]), fmt.Sprintf("err gzip @%d", o[1]), line(2, o[2]), line(3, o[3]))

	bad := append([]byte{}, b...)
	bad[len(bad)-12] ^= 0xff // in the deflate data or the CRC
	in, o = warctest.Join(a, bad, c)
	add("corrupt gzip member", in, line(0, o[0]), line(1, o[1]), fmt.Sprintf("err gzip @%d", o[1]), line(2, o[2]))

	in, o = warctest.Join(a, []byte("junk"), b, c)
	add("garbage between members", in, line(0, o[0]), fmt.Sprintf("err garbage @%d", o[1]), line(1, o[2]), line(2, o[3]))

	in, o = warctest.Join(a, b[:len(b)-15])
	add("input ends inside a member", in, line(0, o[0]), line(1, o[1]), fmt.Sprintf("err gzip @%d", o[1]))

	in, o = warctest.Join(a, b[:5])
	add("input ends inside a member header", in, line(0, o[0]), fmt.Sprintf("err garbage @%d", o[1]))

	pb := warctest.Segments(false, abcd()[1])[0]
	long := warctest.Gzip(warctest.WithLength(pb, 50))
	in, o = warctest.Join(a, long, c, d)
	add("Content-Length too long: the member ends first", in,
		line(0, o[0]), recLine("B", warctest.WithLength(pb, 50), o[1]), fmt.Sprintf("err truncated @%d", o[1]), line(2, o[2]), line(3, o[3]))

	short := warctest.Gzip(warctest.WithLength(pb, -10))
	in, o = warctest.Join(a, short, c, d)
	add("Content-Length too short", in,
		line(0, o[0]), recLine("B", warctest.WithLength(pb, -10), o[1]), fmt.Sprintf("err length @%d", o[1]), line(2, o[2]), line(3, o[3]))

	notype := warctest.Gzip(bytes.Replace(pb, []byte("WARC-Type: response\r\n"), nil, 1))
	in, o = warctest.Join(a, notype, c)
	add("no WARC-Type", in, line(0, o[0]), fmt.Sprintf("err type @%d", o[1]), line(2, o[2]))

	in, o = warctest.Join(a, warctest.Gzip(nil), b)
	add("empty member between records", in, line(0, o[0]), line(1, o[2]))

	in, o = warctest.Join(a, warctest.Gzip([]byte("not a record\r\n")), b)
	add("member holding garbage", in, line(0, o[0]), fmt.Sprintf("err garbage @%d", o[1]), line(1, o[2]))

	in, _ = warctest.Join(warctest.Gzip([]byte("<html>not a WARC file</html>")))
	add("gzip file of something else", in, "err garbage @0")

	return cases
}

func TestCorruption(t *testing.T) {
	for _, set := range []struct {
		name  string
		cases []corruptCase
	}{{"plain", plainCases()}, {"gzip", gzipCases()}} {
		for _, tc := range set.cases {
			t.Run(set.name+"/"+tc.desc, func(t *testing.T) {
				for _, readBodies := range []bool{false, true} {
					got := describe(t, bytes.NewReader(tc.in), readBodies)
					if !equal(got, tc.want) {
						t.Errorf("readBodies=%v:\ngot  %s\nwant %s", readBodies, strings.Join(got, "\n     "), strings.Join(tc.want, "\n     "))
					}
				}
			})
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestChunking reads every corruption case through each of chunkings
// (one byte at a time, half of what is asked, data with io.EOF, (0, nil)
// now and then, random sizes): the records and errors must not change.
func TestChunking(t *testing.T) {
	for _, set := range [][]corruptCase{plainCases(), gzipCases()} {
		for _, tc := range set {
			for _, rd := range chunkings {
				if len(tc.in) > 100<<10 && rd.Name == "OneByteReader" {
					continue // the long-header case; slow byte by byte
				}
				got := describe(t, rd.Wrap(bytes.NewReader(tc.in)), true)
				if !equal(got, tc.want) {
					t.Errorf("%s, %s:\ngot  %s\nwant %s", tc.desc, rd.Name, strings.Join(got, "\n     "), strings.Join(tc.want, "\n     "))
				}
			}
		}
	}
}

// stutterReader returns (0, nil) every other call and small reads
// otherwise.
type stutterReader struct {
	r io.Reader
	n int
}

func (s *stutterReader) Read(p []byte) (int, error) {
	s.n++
	if s.n%2 == 0 {
		return 0, nil
	}
	return s.r.Read(p[:min(len(p), 7+s.n%13)])
}

// TestSplits reads the same records from one uncompressed stream, one gzip
// member per record, one member for the whole file, and members cut at
// arbitrary points (as bgzip writes): the records are the same.
func TestSplits(t *testing.T) {
	var plain, perRecord bytes.Buffer
	if _, err := warctest.Generate(&plain, 300<<10, false, 7); err != nil {
		t.Fatal(err)
	}
	if _, err := warctest.Generate(&perRecord, 300<<10, true, 7); err != nil {
		t.Fatal(err)
	}
	var cut bytes.Buffer
	for b := plain.Bytes(); len(b) > 0; {
		n := min(len(b), 1000+len(b)%777)
		cut.Write(warctest.Gzip(b[:n]))
		b = b[n:]
	}
	want := blocks(t, bytes.NewReader(plain.Bytes()))
	for _, tc := range []struct {
		desc string
		in   []byte
	}{
		{"one member per record", perRecord.Bytes()},
		{"one member", warctest.Gzip(plain.Bytes())},
		{"members cut anywhere", cut.Bytes()},
	} {
		got := blocks(t, bytes.NewReader(tc.in))
		if len(got) != len(want) {
			t.Errorf("%s: got %d records, want %d", tc.desc, len(got), len(want))
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: record %d differs", tc.desc, i)
				break
			}
		}
	}
}

// blocks returns the header and block of every record, failing on errors.
func blocks(t *testing.T, r io.Reader) []string {
	var out []string
	eachRecord(t, NewReader(r), func(_ int, rec *Record) error {
		b, err := io.ReadAll(rec.Body)
		out = append(out, fmt.Sprint(rec.Header)+string(b))
		return err
	})
	return out
}

func TestRecordFields(t *testing.T) {
	in := "WARC/1.0\r\n" +
		"WARC-Type: response\r\n" +
		"WARC-Record-ID: <urn:uuid:b1738b8f-2d72-497f-8843-4013dcca1071>\r\n" +
		"WARC-Target-URI: <http://127.0.0.1:33279/a.html>\r\n" +
		"WARC-Date: 2026-11-21T21:46:09Z\r\n" +
		"Content-Type: application/http;msgtype=response\r\n" +
		"X-Folded: one\r\n two\r\n" +
		"Content-Length: 5\r\n\r\nhello\r\n\r\n" +
		"WARC/1.1\r\n" +
		"WARC-Type: resource\r\n" +
		"WARC-Record-ID: <urn:uuid:2>\r\n" +
		"WARC-Target-URI: http://example.test/x?y=<z>\r\n" +
		"WARC-Date: 2026-11-21T21:46:09.123456Z\r\n" +
		"Content-Length: 0\r\n\r\n\r\n\r\n"
	r := NewReader(strings.NewReader(in))
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ field, got, want string }{
		{"Version", rec.Version, "1.0"},
		{"Type", rec.Type, "response"},
		{"RecordID", rec.RecordID, "<urn:uuid:b1738b8f-2d72-497f-8843-4013dcca1071>"},
		{"TargetURI", rec.TargetURI, "http://127.0.0.1:33279/a.html"},
		{"ContentType", rec.ContentType, "application/http;msgtype=response"},
		{"Header.Get(X-Folded)", rec.Header.Get("x-folded"), "one two"},
		{"Header.Get(WARC-Target-URI)", rec.Header.Get("WARC-Target-URI"), "<http://127.0.0.1:33279/a.html>"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.field, c.got, c.want)
		}
	}
	if want := time.Date(2026, 11, 21, 21, 46, 9, 0, time.UTC); !rec.Date.Equal(want) {
		t.Errorf("Date = %v, want %v", rec.Date, want)
	}
	if rec.ContentLength != 5 || rec.Offset != 0 || rec.UncompressedOffset != 0 {
		t.Errorf("ContentLength, Offset, UncompressedOffset = %d, %d, %d, want 5, 0, 0", rec.ContentLength, rec.Offset, rec.UncompressedOffset)
	}
	rec2, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if rec2.TargetURI != "http://example.test/x?y=<z>" || rec2.Version != "1.1" || rec2.Date.Nanosecond() != 123456000 {
		t.Errorf("second record: TargetURI %q, Version %q, Date %v", rec2.TargetURI, rec2.Version, rec2.Date)
	}
	if want := int64(strings.Index(in, "WARC/1.1")); rec2.Offset != want {
		t.Errorf("second record: Offset = %d, want %d", rec2.Offset, want)
	}
	if rec.Type != "response" {
		t.Errorf("header fields changed after Next: Type = %q", rec.Type)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("third Next: got %v, want io.EOF", err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("Next after io.EOF: got %v, want io.EOF", err)
	}
}

// TestGzipOffsets checks that Offset is the offset of each record's
// member and UncompressedOffset that in the decompressed stream.
func TestGzipOffsets(t *testing.T) {
	s := warctest.Segments(true, abcd()...)
	p := warctest.Segments(false, abcd()...)
	in, offs := warctest.Join(s...)
	_, uoffs := warctest.Join(p...)
	r := NewReader(bytes.NewReader(in))
	for i := range s {
		rec, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Offset != int64(offs[i]) || rec.UncompressedOffset != int64(uoffs[i]) {
			t.Errorf("record %d: Offset, UncompressedOffset = %d, %d, want %d, %d", i, rec.Offset, rec.UncompressedOffset, offs[i], uoffs[i])
		}
	}
}

// TestReadError checks that an error of the underlying reader ends the
// reading, after the records before it, and is not a *RecordError.
func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	for _, compress := range []bool{false, true} {
		in, offs := warctest.Join(warctest.Segments(compress, abcd()...)...)
		r := NewReader(io.MultiReader(bytes.NewReader(in[:offs[2]+3]), iotest.ErrReader(boom)))
		var got []string
		for range 10 {
			rec, err := r.Next()
			if err != nil {
				got = append(got, err.Error())
				var re *RecordError
				if errors.As(err, &re) {
					t.Errorf("compress=%v: got a *RecordError %v, want the reader's error", compress, err)
				}
				if err == boom {
					if _, err2 := r.Next(); err2 != boom {
						t.Errorf("compress=%v: Next after the error: got %v, want %v", compress, err2, boom)
					}
					break
				}
				continue
			}
			got = append(got, rec.RecordID)
		}
		want := []string{"<urn:test:A>", "<urn:test:B>", "boom"}
		if !equal(got, want) {
			t.Errorf("compress=%v: got %q, want %q", compress, got, want)
		}
	}
}

// TestBoundedMemory reads a record with an 8 MB block (of random hex
// digits, which compress to half) without reading it: each of the
// Reader's windows must stay within maxBuffer.
func TestBoundedMemory(t *testing.T) {
	big := make([]byte, 8<<20)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range big {
		big[i] = "0123456789abcdef"[rng.IntN(16)]
	}
	in, _ := warctest.Join(warctest.Segments(false, warctest.Record{Type: "resource", Block: big}, testRecord("A", 1))...)
	for _, compress := range []bool{false, true} {
		data := in
		if compress {
			data = warctest.Gzip(in)
		}
		r := NewReader(bytes.NewReader(data))
		eachRecord(t, r, func(int, *Record) error { return nil })
		if len(r.in.buf) > maxBuffer || len(r.s.buf) > maxBuffer {
			t.Errorf("compress=%v: buffers grew to %d and %d bytes", compress, len(r.in.buf), len(r.s.buf))
		}
	}
}

func TestIsWARC(t *testing.T) {
	gz := warctest.Segments(true, testRecord("A", 1))[0]
	for _, tc := range []struct {
		desc string
		in   []byte
		want bool
	}{
		{"WARC/1.0", []byte("WARC/1.0\r\nWARC-Type: warcinfo\r\n"), true},
		{"WARC/1.1", []byte("WARC/1.1\r\n"), true},
		{"gzip member", gz, true},
		{"gzip member, first 100 bytes", gz[:100], true},
		{"gzip of HTML", warctest.Gzip([]byte("<html></html>")), false},
		{"HTML", []byte("<!DOCTYPE html>"), false},
		{"too short", []byte("WARC/"), false},
		{"gzip header only", gz[:10], false},
		{"WARC/0.17 (Heritrix 1)", []byte("WARC/0.17\r\n"), true},
		{"WARC/2.0", []byte("WARC/2.0\r\n"), false},
		{"WARC/1.0 cut", []byte("WARC/1.0"), false},
		{"empty", nil, false},
	} {
		if got := IsWARC(tc.in); got != tc.want {
			t.Errorf("%s: IsWARC = %v, want %v", tc.desc, got, tc.want)
		}
	}
}

// TestReset reads inputs one after another with one Reader: each gives
// what a new Reader gives, and a Body of the old input reads no more.
func TestReset(t *testing.T) {
	gz, _ := warctest.Join(warctest.Segments(true, abcd()...)...)
	plain, _ := warctest.Join(warctest.Segments(false, abcd()...)...)
	inputs := [][]byte{gz, plain, gz, cutTail(plain), gz}
	r := NewReader(bytes.NewReader(inputs[0]))
	for i, in := range inputs {
		if i > 0 {
			r.Reset(bytes.NewReader(in))
		}
		want := describe(t, bytes.NewReader(in), false)
		got := describeReader(t, r, false)
		if !equal(got, want) {
			t.Errorf("input %d after Reset:\ngot  %q\nwant %q", i, got, want)
		}
	}

	r.Reset(bytes.NewReader(plain))
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	r.Reset(bytes.NewReader(gz))
	if n, err := rec.Body.Read(make([]byte, 10)); n != 0 || err == nil {
		t.Errorf("Body.Read after Reset = %d, %v, want 0 and an error", n, err)
	}
}

// cutTail returns in without its last 100 bytes.
func cutTail(in []byte) []byte { return in[:len(in)-100] }
