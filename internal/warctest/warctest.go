// Package warctest writes WARC files for the tests and benchmarks of
// charsniff's warc package and command: a few hand-made records, or a
// synthetic crawl of any size.
package warctest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// Record is a WARC record to write.
type Record struct {
	// Type is the WARC-Type, such as "response".
	Type string
	// TargetURI is the WARC-Target-URI, written without angle brackets
	// (as WARC 1.1 does); "" leaves the field out.
	TargetURI string
	// ContentType is the Content-Type of the block; "" leaves it out.
	ContentType string
	// ID is the WARC-Record-ID, angle brackets included; Write makes one
	// up if it is "".
	ID string
	// Fields are extra header lines, "Name: value" each.
	Fields []string
	// Block is the record's content. Content-Length is its length.
	Block []byte
}

// Writer writes WARC/1.1 records, each in its own gzip member if
// compressed, as archives write them.
type Writer struct {
	w    io.Writer
	zw   *gzip.Writer  // nil for uncompressed output
	zs   *zstd.Encoder // a zstd frame a record, if set
	n    int           // records written
	raw  int64         // uncompressed bytes written
	date time.Time
	buf  bytes.Buffer
}

// NewWriter returns a Writer to w. If compress is set, each record is one
// gzip member.
func NewWriter(w io.Writer, compress bool) *Writer {
	if compress {
		return NewWriterLevel(w, gzip.DefaultCompression)
	}
	return &Writer{w: w, date: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// NewWriterLevel returns a Writer to w that writes each record as one gzip
// member compressed at level (a compress/gzip level: gzip.NoCompression
// writes members of stored deflate blocks, the record's bytes as they are).
func NewWriterLevel(w io.Writer, level int) *Writer {
	ww := &Writer{w: w, date: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	ww.zw, _ = gzip.NewWriterLevel(io.Discard, level)
	return ww
}

// NewZstdWriter returns a Writer to w that writes each record as one zstd
// frame (without a dictionary), as .warc.zst files hold them.
func NewZstdWriter(w io.Writer) *Writer {
	zs, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	return &Writer{w: w, zs: zs, date: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// Write writes rec and returns its WARC-Record-ID.
func (w *Writer) Write(rec Record) (string, error) {
	w.n++
	if rec.ID == "" {
		rec.ID = fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012x>", w.n)
	}
	b := &w.buf
	b.Reset()
	b.WriteString("WARC/1.1\r\nWARC-Type: ")
	b.WriteString(rec.Type)
	b.WriteString("\r\nWARC-Record-ID: ")
	b.WriteString(rec.ID)
	b.WriteString("\r\nWARC-Date: ")
	b.WriteString(w.date.Add(time.Duration(w.n) * time.Second).Format(time.RFC3339))
	if rec.TargetURI != "" {
		b.WriteString("\r\nWARC-Target-URI: ")
		b.WriteString(rec.TargetURI)
	}
	if rec.ContentType != "" {
		b.WriteString("\r\nContent-Type: ")
		b.WriteString(rec.ContentType)
	}
	for _, f := range rec.Fields {
		b.WriteString("\r\n")
		b.WriteString(f)
	}
	b.WriteString("\r\nContent-Length: ")
	b.WriteString(strconv.Itoa(len(rec.Block)))
	b.WriteString("\r\n\r\n")
	w.raw += int64(b.Len() + len(rec.Block) + 4)
	if w.zs != nil {
		b.Write(rec.Block)
		b.WriteString("\r\n\r\n")
		_, err := w.w.Write(w.zs.EncodeAll(b.Bytes(), nil))
		return rec.ID, err
	}
	if w.zw == nil {
		if _, err := w.w.Write(b.Bytes()); err != nil {
			return "", err
		}
		if _, err := w.w.Write(rec.Block); err != nil {
			return "", err
		}
		_, err := io.WriteString(w.w, "\r\n\r\n")
		return rec.ID, err
	}
	w.zw.Reset(w.w)
	w.zw.Write(b.Bytes())
	w.zw.Write(rec.Block)
	w.zw.Write([]byte("\r\n\r\n"))
	return rec.ID, w.zw.Close()
}

// HTTPResponse returns the block of a response record: the status line
// "HTTP/1.1 <status> <text>", the header lines ("Name: value" each) and
// body, as a server sent them.
func HTTPResponse(status int, header []string, body []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", status, statusText(status))
	for _, h := range header {
		b.WriteString(h)
		b.WriteString("\r\n")
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

func statusText(code int) string {
	switch code {
	case 200:
		return "OK"
	case 404:
		return "Not Found"
	case 301:
		return "Moved Permanently"
	}
	return "Status"
}

// Response returns a response record for uri holding the HTTP response
// block (see [HTTPResponse]).
func Response(uri string, block []byte) Record {
	return Record{Type: "response", TargetURI: uri, ContentType: "application/http; msgtype=response", Block: block}
}

// Chunk returns body in the chunked transfer coding, in pieces of n bytes.
func Chunk(body []byte, n int) []byte {
	var b bytes.Buffer
	for len(body) > 0 {
		k := min(n, len(body))
		fmt.Fprintf(&b, "%x\r\n", k)
		b.Write(body[:k])
		b.WriteString("\r\n")
		body = body[k:]
	}
	b.WriteString("0\r\n\r\n")
	return b.Bytes()
}

// Gzip returns body gzip-compressed.
func Gzip(body []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(body)
	zw.Close()
	return b.Bytes()
}

// Gunzip returns b, a gzip file of one or more members, decompressed; it
// fails the test on an error.
func Gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

// Embedded writes to w a gzip WARC file of outer HTML response records, one
// gzip member each, compressed at the levels given in turn (cycling), with
// a response record after the first half of them whose payload is a whole
// gzip WARC file of inner HTML records (application/warc, as a crawler
// that fetched a .warc.gz stores it). In a member compressed at
// gzip.NoCompression, or in one whose compressor finds the inner file
// incompressible, the inner file's members appear as they are, and look
// like members of the outer file. It returns the offsets of the outer
// file's records (its members).
func Embedded(w io.Writer, outer, inner int, levels ...int) ([]int64, error) {
	if len(levels) == 0 {
		levels = []int{gzip.NoCompression}
	}
	page := func(host string, i int) Record {
		uri := fmt.Sprintf("http://%s/%d.html", host, i)
		body := "<!DOCTYPE html><title>" + uri + "</title>" + strings.Repeat("<p>text of the page ", 10+i%20)
		return Response(uri, HTTPResponse(200, []string{"Content-Type: text/html"}, []byte(body)))
	}
	var in bytes.Buffer
	iw := NewWriter(&in, true)
	for i := range inner {
		if _, err := iw.Write(page("inner.example", i)); err != nil {
			return nil, err
		}
	}
	var member bytes.Buffer // one outer record, written to w whole
	var offs []int64
	var off int64
	for i := range outer + 1 {
		ww := NewWriterLevel(&member, levels[i%len(levels)])
		ww.n = i
		rec := page("outer.example", i)
		if i == outer/2 {
			rec = Response("http://outer.example/crawl.warc.gz",
				HTTPResponse(200, []string{"Content-Type: application/warc", "Content-Length: " + strconv.Itoa(in.Len())}, in.Bytes()))
		}
		member.Reset()
		if _, err := ww.Write(rec); err != nil {
			return nil, err
		}
		offs = append(offs, off)
		n, err := w.Write(member.Bytes())
		if err != nil {
			return nil, err
		}
		off += int64(n)
	}
	return offs, nil
}

// Stats describes what Generate wrote.
type Stats struct {
	Records   int   // all records
	Responses int   // response records
	Bytes     int64 // uncompressed bytes of WARC
}

// Generate writes a synthetic crawl of at least size uncompressed bytes to
// w, one gzip member per record if compress is set: a warcinfo record, then
// for each page a request, a response and a metadata record. Pages are
// HTML of 1 to 100 KB made of words drawn from a small vocabulary (they
// compress about as well as real pages); one in ten is served
// gzip-encoded, one in ten chunked. The same seed gives the same bytes.
func Generate(w io.Writer, size int64, compress bool, seed uint64) (Stats, error) {
	return generate(NewWriter(w, compress), size, seed)
}

// GenerateZstd writes the crawl Generate writes, a zstd frame a record.
func GenerateZstd(w io.Writer, size int64, seed uint64) (Stats, error) {
	return generate(NewZstdWriter(w), size, seed)
}

func generate(ww *Writer, size int64, seed uint64) (Stats, error) {
	var st Stats
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	if _, err := ww.Write(Record{Type: "warcinfo", ContentType: "application/warc-fields",
		Block: []byte("software: charsniff warctest\r\nformat: WARC File Format 1.1\r\n")}); err != nil {
		return st, err
	}
	st.Records++
	var page bytes.Buffer
	for i := 0; ww.raw < size; i++ {
		uri := fmt.Sprintf("http://example%d.test/page/%d.html", i%97, i)
		req := fmt.Sprintf("GET /page/%d.html HTTP/1.1\r\nHost: example%d.test\r\nUser-Agent: warctest\r\nAccept: */*\r\n\r\n", i, i%97)
		reqID, err := ww.Write(Record{Type: "request", TargetURI: uri, ContentType: "application/http; msgtype=request", Block: []byte(req)})
		if err != nil {
			return st, err
		}
		page.Reset()
		makePage(&page, rng, 1<<10+rng.IntN(99<<10))
		body := page.Bytes()
		header := []string{"Content-Type: text/html; charset=utf-8", "Server: warctest"}
		switch i % 10 {
		case 3:
			body = Gzip(body)
			header = append(header, "Content-Encoding: gzip", "Content-Length: "+strconv.Itoa(len(body)))
		case 7:
			body = Chunk(body, 8<<10)
			header = append(header, "Transfer-Encoding: chunked")
		default:
			header = append(header, "Content-Length: "+strconv.Itoa(len(body)))
		}
		rec := Response(uri, HTTPResponse(200, header, body))
		rec.Fields = []string{"WARC-Concurrent-To: " + reqID}
		if _, err := ww.Write(rec); err != nil {
			return st, err
		}
		meta := fmt.Sprintf("fetchTimeMs: %d\r\n", rng.IntN(2000))
		if _, err := ww.Write(Record{Type: "metadata", TargetURI: uri, ContentType: "application/warc-fields", Block: []byte(meta)}); err != nil {
			return st, err
		}
		st.Records += 3
		st.Responses++
	}
	st.Bytes = ww.raw
	return st, nil
}

var words = []string{
	"the", "of", "and", "archive", "crawl", "page", "encoding", "record", "header", "charset",
	"browser", "standard", "response", "request", "server", "client", "byte", "stream", "reader", "writer",
	"window", "buffer", "member", "offset", "length", "content", "payload", "block", "digest", "date",
	"html", "meta", "title", "body", "table", "script", "style", "link", "image", "anchor",
	"Lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do",
	"eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim",
	"minim", "veniam", "quis", "nostrud", "exercitation", "ullamco", "laboris", "nisi", "aliquip", "ex",
	"commodo", "consequat", "duis", "aute", "irure", "in", "reprehenderit", "voluptate", "velit", "esse",
}

// makePage writes an HTML page of about n bytes.
func makePage(b *bytes.Buffer, rng *rand.Rand, n int) {
	start := b.Len()
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
	for range 6 {
		b.WriteString(words[rng.IntN(len(words))])
		b.WriteByte(' ')
	}
	b.WriteString("</title></head>\n<body>\n")
	for b.Len()-start < n {
		b.WriteString("<p>")
		for range 8 + rng.IntN(40) {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(9) == 0 {
				fmt.Fprintf(b, " %d", rng.IntN(100000))
			}
			b.WriteByte(' ')
		}
		b.WriteString("</p>\n")
	}
	b.WriteString("</body></html>\n")
}
