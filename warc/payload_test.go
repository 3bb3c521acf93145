package warc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/internal/warctest"
)

// firstRecord returns the first record of the uncompressed WARC holding
// rec, and its Reader.
func firstRecord(t *testing.T, rec warctest.Record) (*Reader, *Record) {
	t.Helper()
	var b bytes.Buffer
	warctest.NewWriter(&b, false).Write(rec)
	r := NewReader(&b)
	got, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	return r, got
}

func TestPayload(t *testing.T) {
	page := []byte("<!DOCTYPE html><title>\x93\xfa\x96{</title>\r\n")
	resp := func(header []string, body []byte) warctest.Record {
		return warctest.Response("http://example.test/", warctest.HTTPResponse(200, header, body))
	}
	for _, tc := range []struct {
		desc        string
		rec         warctest.Record
		status      int
		contentType string
		charset     string
		undecoded   string
		body        string
		err         error // of Payload
		bodyErr     error // of reading Body
	}{
		{desc: "plain", rec: resp([]string{"Content-Type: text/html; charset=Shift_JIS"}, page),
			status: 200, contentType: "text/html; charset=Shift_JIS", charset: "Shift_JIS", body: string(page)},
		{desc: "quoted charset", rec: resp([]string{`Content-Type: text/html; charset="windows-1251"`}, page),
			status: 200, contentType: `text/html; charset="windows-1251"`, charset: "windows-1251", body: string(page)},
		{desc: "no content type", rec: resp(nil, page), status: 200, body: string(page)},
		{desc: "two Content-Type fields", rec: resp([]string{"Content-Type: text/plain", "Content-Type: text/html;charset=gbk"}, page),
			status: 200, contentType: "text/plain, text/html;charset=gbk", charset: "gbk", body: string(page)},
		{desc: "chunked", rec: resp([]string{"Transfer-Encoding: chunked"}, warctest.Chunk(page, 7)),
			status: 200, body: string(page)},
		{desc: "chunked with extensions and trailer",
			rec:    resp([]string{"Transfer-Encoding: chunked"}, []byte("5;name=value\r\nhello\r\n6 \r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n")),
			status: 200, body: "hello world"},
		{desc: "chunked in the header but not in the body (archiver decoded it): stored body, then the error",
			rec:    resp([]string{"Transfer-Encoding: chunked"}, page),
			status: 200, body: string(page), bodyErr: ErrChunked},
		{desc: "chunked, first size zz: stored body, then the error",
			rec:    resp([]string{"Content-Type: text/html", "Transfer-Encoding: chunked"}, []byte("zz\r\n<p>hi</p>\r\n0\r\n\r\n")),
			status: 200, contentType: "text/html", body: "zz\r\n<p>hi</p>\r\n0\r\n\r\n", bodyErr: ErrChunked},
		{desc: "chunked, cut inside a chunk", rec: resp([]string{"Transfer-Encoding: chunked"}, []byte("b\r\nhello")),
			status: 200, body: "hello", bodyErr: io.ErrUnexpectedEOF},
		{desc: "chunked, last chunk missing", rec: resp([]string{"Transfer-Encoding: chunked"}, []byte("5\r\nhello\r\n")),
			status: 200, body: "hello"},
		{desc: "chunked, bad size", rec: resp([]string{"Transfer-Encoding: chunked"}, []byte("5\r\nhello\r\nzz\r\n")),
			status: 200, body: "hello", bodyErr: ErrChunked},
		{desc: "gzip", rec: resp([]string{"Content-Encoding: gzip"}, warctest.Gzip(page)), status: 200, body: string(page)},
		{desc: "x-gzip", rec: resp([]string{"Content-Encoding: X-Gzip"}, warctest.Gzip(page)), status: 200, body: string(page)},
		{desc: "deflate (zlib)", rec: resp([]string{"Content-Encoding: deflate"}, testutil.Encode(t, "deflate", page)), status: 200, body: string(page)},
		{desc: "deflate (raw)", rec: resp([]string{"Content-Encoding: deflate"}, testutil.Encode(t, "deflate-raw", page)), status: 200, body: string(page)},
		{desc: "chunked gzip", rec: resp([]string{"Transfer-Encoding: chunked", "Content-Encoding: gzip"}, warctest.Chunk(warctest.Gzip(page), 10)),
			status: 200, body: string(page)},
		{desc: "gzip twice", rec: resp([]string{"Content-Encoding: gzip, identity", "Content-Encoding: gzip"}, warctest.Gzip(warctest.Gzip(page))),
			status: 200, body: string(page)},
		{desc: "unknown coding", rec: resp([]string{"Content-Encoding: br"}, []byte("\x1b\x00\x00")),
			status: 200, undecoded: "br", body: "\x1b\x00\x00"},
		{desc: "unknown coding over gzip", rec: resp([]string{"Content-Encoding: gzip, br"}, []byte("xyz")),
			status: 200, undecoded: "gzip, br", body: "xyz"},
		{desc: "gzip that is not gzip", rec: resp([]string{"Content-Encoding: gzip"}, page),
			status: 200, undecoded: "gzip", body: string(page)},
		{desc: "gzip cut short", rec: resp([]string{"Content-Encoding: gzip"}, warctest.Gzip(page)[:30]),
			status: 200, body: string(page), bodyErr: io.ErrUnexpectedEOF}, // a prefix, then the error
		{desc: "interim 100 Continue", rec: warctest.Response("http://example.test/",
			[]byte("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\nnope")),
			status: 404, contentType: "text/html", body: "nope"},
		{desc: "lenient header: folded line, line without colon, bare LF, no reason phrase",
			rec: warctest.Response("http://example.test/",
				[]byte("HTTP/1.0 200\nContent-Type: text/html;\n charset=euc-kr\nthis is junk\nX: y\n\n"+string(page))),
			status: 200, contentType: "text/html; charset=euc-kr", charset: "euc-kr", body: string(page)},
		{desc: "header and no body", rec: warctest.Response("http://example.test/", []byte("HTTP/1.1 304 Not Modified\r\nContent-Type: text/html\r\n\r\n")),
			status: 304, contentType: "text/html"},
		{desc: "header not ended by a blank line", rec: warctest.Response("http://example.test/", []byte("HTTP/1.1 304 Not Modified\r\nContent-Type: text/html")),
			status: 304, contentType: "text/html", bodyErr: ErrHTTP},
		{desc: "header not ended by a blank line, last line ended", rec: warctest.Response("http://example.test/",
			[]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=gbk\r\n")),
			status: 200, contentType: "text/html; charset=gbk", charset: "gbk", bodyErr: ErrHTTP},
		{desc: "header not ended, chunked: the header's error", rec: warctest.Response("http://example.test/",
			[]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n")),
			status: 200, bodyErr: ErrHTTP},
		{desc: "not HTTP", rec: warctest.Response("http://example.test/", []byte("<html>")), err: ErrHTTP},
		{desc: "empty block", rec: warctest.Response("http://example.test/", nil), err: ErrHTTP},
		{desc: "resource record", rec: warctest.Record{Type: "resource", TargetURI: "file:///x.html",
			ContentType: "text/html; charset=ISO-8859-2", Block: page},
			contentType: "text/html; charset=ISO-8859-2", charset: "ISO-8859-2", body: string(page)},
		{desc: "response record that is not HTTP", rec: warctest.Record{Type: "response", TargetURI: "dns:example.test",
			ContentType: "text/dns", Block: []byte("example.test. 300 IN A 192.0.2.1")},
			contentType: "text/dns", body: "example.test. 300 IN A 192.0.2.1"},
		{desc: "request record", rec: warctest.Record{Type: "request", ContentType: "application/http; msgtype=request", Block: []byte("GET / HTTP/1.1\r\n\r\n")},
			err: ErrNoPayload},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, rec := firstRecord(t, tc.rec)
			p, err := rec.Payload()
			if !errors.Is(err, tc.err) {
				t.Fatalf("Payload: got error %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			body, err := io.ReadAll(p.Body)
			if !errors.Is(err, tc.bodyErr) {
				t.Errorf("reading Body: got error %v, want %v", err, tc.bodyErr)
			}
			if p.StatusCode != tc.status || p.ContentType != tc.contentType || p.Charset != tc.charset || p.Undecoded != tc.undecoded {
				t.Errorf("got StatusCode %d, ContentType %q, Charset %q, Undecoded %q\nwant StatusCode %d, ContentType %q, Charset %q, Undecoded %q",
					p.StatusCode, p.ContentType, p.Charset, p.Undecoded, tc.status, tc.contentType, tc.charset, tc.undecoded)
			}
			if string(body) != tc.body && !(tc.bodyErr != nil && strings.HasPrefix(tc.body, string(body))) {
				t.Errorf("Body:\ngot  %q\nwant %q", body, tc.body)
			}
		})
	}
}

func TestPayloadMisuse(t *testing.T) {
	rec := testRecord("A", 2)
	_, got := firstRecord(t, rec)
	p1, err := got.Payload()
	if err != nil {
		t.Fatal(err)
	}
	if p2, err := got.Payload(); p2 != p1 || err != nil {
		t.Errorf("second Payload: got %p, %v, want %p, nil", p2, err, p1)
	}

	_, got = firstRecord(t, rec)
	got.Body.Read(make([]byte, 1))
	if _, err := got.Payload(); err == nil {
		t.Error("Payload after reading Body: got no error")
	}

	var b bytes.Buffer
	w := warctest.NewWriter(&b, false)
	w.Write(rec)
	w.Write(rec)
	r := NewReader(&b)
	first, _ := r.Next()
	r.Next()
	if _, err := first.Payload(); err == nil {
		t.Error("Payload after Next: got no error")
	}
}

// TestPayloadBlockError checks that a bad block shows through Payload.Body
// and is then not reported again by Next.
func TestPayloadBlockError(t *testing.T) {
	p := warctest.Segments(false, abcd()...)
	in, _ := warctest.Join(p[0], warctest.WithLength(p[1], 40), p[2])
	for _, read := range []bool{true, false} {
		r := NewReader(bytes.NewReader(in))
		var got []string
		for rec, err := range records(t, r) {
			if err != nil {
				got = append(got, "next: "+kind(err))
				continue
			}
			got = append(got, rec.RecordID)
			pl, err := rec.Payload()
			if err != nil {
				t.Fatal(err)
			}
			if !read {
				pl.IsHTML()
				continue
			}
			if _, err := io.ReadAll(pl.Body); err != nil {
				got = append(got, "body: "+kind(err))
			}
		}
		want := []string{"<urn:test:A>", "<urn:test:B>", "next: length", "<urn:test:C>"}
		if read {
			want[2] = "body: length"
		}
		if !equal(got, want) {
			t.Errorf("read=%v: got %q, want %q", read, got, want)
		}
	}
}

func TestIsHTML(t *testing.T) {
	for _, tc := range []struct {
		contentType string
		body        string
		want        bool
	}{
		{"text/html", "", true},
		{"TEXT/HTML; charset=utf-8", "plain words", true},
		{"application/xhtml+xml", "", true},
		{"text/plain", "<html><body>", false},
		{"application/json", "{}", false},
		{"", "  \n<!DOCTYPE html><html>", true},
		{"", "<!-- comment --><p>", true},
		{"", "%PDF-1.4", false},
		{"", "just text", false},
		{"*/*", "<html>", true},
		{"unknown/unknown", "<HTML>", true},
		{"text/html/junk", "<html>", true},  // malformed: sniffed
		{"text/plain, text/html", "", true}, // Fetch: the last type wins
		{"", "\xef\xbb\xbf<html>", false},   // a BOM: text/plain to the sniffing rules
		{"", "<?xml version=\"1.0\"?><html>", false},
		{"", "<p\x00>", false},
		{"", strings.Repeat(" ", 600) + "<html>", true}, // the resource header is 1445 bytes
		{"", strings.Repeat(" ", 1440) + "<html>", false},
	} {
		rec := warctest.Record{Type: "resource", ContentType: tc.contentType, Block: []byte(tc.body)}
		_, got := firstRecord(t, rec)
		p, err := got.Payload()
		if err != nil {
			t.Fatal(err)
		}
		if got := p.IsHTML(); got != tc.want {
			t.Errorf("IsHTML(%q, %q) = %v, want %v", tc.contentType, tc.body, got, tc.want)
		}
		if b, _ := io.ReadAll(p.Body); string(b) != tc.body {
			t.Errorf("IsHTML(%q, %q) consumed the payload: Body = %q", tc.contentType, tc.body, b)
		}
	}
}

// TestIsHTMLAsNetHTTP holds IsHTML's sniffing of an untyped payload
// against net/http.DetectContentType, an independent implementation of the
// same MIME Sniffing rules, on resource headers it reads whole (512 bytes
// at most): every HTML tag of the standard's table in both cases, after
// whitespace, with each byte that may end it and some that may not.
func TestIsHTMLAsNetHTTP(t *testing.T) {
	tags := []string{"<!DOCTYPE HTML", "<HTML", "<HEAD", "<SCRIPT", "<IFRAME", "<H1", "<DIV", "<FONT", "<TABLE", "<A", "<STYLE", "<TITLE", "<B", "<BODY", "<BR", "<P", "<!--", "<HTM", "<BODYX", "<XML"}
	var bodies []string
	for _, tag := range tags {
		for _, lead := range []string{"", " \t\r\n\f", "\v"} {
			for _, end := range []string{" ", ">", "\t", "x", "/", ""} {
				bodies = append(bodies, lead+tag+end, lead+strings.ToLower(tag)+end+"rest")
			}
		}
	}
	bodies = append(bodies, "", "\x00<html>", "%PDF-1.4 <html>", "GIF89a<html>", "\xfe\xff<html>")
	for _, body := range bodies {
		rec := warctest.Record{Type: "resource", Block: []byte(body)}
		_, got := firstRecord(t, rec)
		p, err := got.Payload()
		if err != nil {
			t.Fatal(err)
		}
		want := strings.HasPrefix(http.DetectContentType([]byte(body)), "text/html")
		if got := p.IsHTML(); got != want {
			t.Errorf("IsHTML(%q) = %v, net/http says %v", body, got, want)
		}
	}
}

// TestContentTypeTable runs the Content-Type table shared with package
// sniff through a stored HTTP response's header and a resource record's
// Content-Type: Payload.Charset and IsHTML follow Fetch's extract a MIME
// type (values with CR or LF cannot be written into a header and are
// skipped).
func TestContentTypeTable(t *testing.T) {
	for _, tc := range reference.ContentTypeCases {
		if strings.ContainsAny(tc.In, "\r\n") {
			continue
		}
		body := "plain words"
		wantHTML := tc.Essence == "text/html" || tc.Essence == "application/xhtml+xml"
		for _, rec := range []warctest.Record{
			warctest.Response("http://example.test/", warctest.HTTPResponse(200, []string{"Content-Type: " + tc.In}, []byte(body))),
			{Type: "resource", ContentType: tc.In, Block: []byte(body)},
		} {
			if rec.Type == "resource" && tc.In == "" {
				continue // no Content-Type field at all
			}
			_, got := firstRecord(t, rec)
			p, err := got.Payload()
			if err != nil {
				t.Fatalf("%s: %v", tc.Desc, err)
			}
			// The HTTP header reader trims white space around the
			// value, which changes no charset of the table.
			wantCS := tc.Charset
			if p.Charset != wantCS || p.IsHTML() != wantHTML {
				t.Errorf("%s, %s record, Content-Type %q: Charset %q, IsHTML %v; want %q, %v", tc.Desc, rec.Type, tc.In, p.Charset, p.IsHTML(), wantCS, wantHTML)
			}
		}
	}
}

// TestPayloadDecodersReused reads payloads in every content coding the
// Reader undoes, each coding twice over and once under another, through
// one Reader: its kept decompressors, reset for each payload, give each
// body whole, and a coding under the same coding gets its own.
func TestPayloadDecodersReused(t *testing.T) {
	var b bytes.Buffer
	w := warctest.NewWriter(&b, false)
	var want []string
	seed := rand.NewChaCha8([32]byte{})
	for round := range 2 {
		for _, c := range []struct{ header, codings string }{
			{"gzip", "gzip"}, {"deflate", "deflate"}, {"deflate", "deflate-raw"}, {"gzip, deflate", "gzip, deflate-raw"}, {"gzip, gzip", "gzip, gzip"},
		} {
			// Hex of random bytes: compressed, still larger than the
			// buffers between two decoders.
			noise := make([]byte, 48<<10)
			seed.Read(noise)
			body := fmt.Appendf(nil, "<p>round %d, %s: %x", round, c.codings, noise)
			want = append(want, string(body))
			for coding := range strings.SplitSeq(c.codings, ", ") {
				body = testutil.Encode(t, coding, body)
			}
			w.Write(warctest.Response("http://example.test/", warctest.HTTPResponse(200, []string{"Content-Encoding: " + c.header}, body)))
		}
	}
	n := eachRecord(t, NewReader(&b), func(i int, rec *Record) error {
		p, err := rec.Payload()
		if err != nil {
			return err
		}
		if got, err := io.ReadAll(p.Body); string(got) != want[i] || err != nil || p.Undecoded != "" {
			t.Errorf("record %d: got %d bytes %.40q, %v, Undecoded %q; want %d bytes %.40q",
				i, len(got), got, err, p.Undecoded, len(want[i]), want[i])
		}
		return nil
	})
	if n != len(want) {
		t.Errorf("%d records, want %d", n, len(want))
	}
}
