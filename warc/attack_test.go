package warc

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/warctest"
)

var updateAttacks = flag.Bool("update-attacks", false, "rewrite the attack fixtures in testdata")

// An attack is a small damaged WARC file kept in testdata, and what reading
// it must give.
type attack struct {
	file string
	data []byte
	want []string
}

// attacks returns the damaged files of issue 18: wrong Content-Lengths
// (too long, too short, past the end of the input; plain and one gzip
// member) and malformed HTTP inside a record (a header without its blank
// line, a first chunk size of "zz").
func attacks() []attack {
	var out []attack
	for _, d := range []struct {
		name  string
		delta int
		kind  string
	}{{"length-long", 200, "length"}, {"length-short", -200, "length"}, {"length-past-eof", pastEOF, "truncated"}} {
		c := newDamagedCrawl(1000, d.delta)
		c.segs, c.names = c.segs[:6], c.names[:6] // A, X and four after it
		out = append(out, attack{d.name + ".warc", c.input("plain"), c.want(d.kind)})
		if d.delta == 200 {
			out = append(out, attack{d.name + ".warc.gz", c.input("gzip"), c.want(d.kind)})
		}
	}

	a, b := testRecord("A", 1), testRecord("B", 1)
	noBlank := warctest.Response("http://example.test/noblank", []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=gbk\r\n"))
	noBlank.ID = "<urn:test:noblank>"
	zz := warctest.Response("http://example.test/zz", []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n<p>hi</p>\r\n0\r\n\r\n"))
	zz.ID = "<urn:test:zz>"
	for _, m := range []struct {
		file string
		rec  warctest.Record
		name string
		err  string
	}{
		{"http-no-blank-line.warc", noBlank, "noblank", "payload http\x00warc: malformed HTTP response: header not ended by a blank line"},
		{"http-bad-chunk.warc", zz, "zz", "payload chunked\x00warc: malformed chunked encoding: Transfer-Encoding is chunked but the body does not start with a chunk size (\"zz\"); body read as stored"},
	} {
		in, o := warctest.Join(warctest.Segments(false, a, m.rec, b)...)
		want := []string{"rec A @0", fmt.Sprintf("rec %s @%d", m.name, o[1])}
		want = append(want, strings.Split(m.err, "\x00")...) // the kind, then the message
		out = append(out, attack{m.file, in, append(want, fmt.Sprintf("rec B @%d", o[2]))})
	}
	return out
}

// attackEvents is events with each response's payload read: a Body error
// adds "payload http" or "payload chunked".
func attackEvents(t *testing.T, r io.Reader) []string {
	return recordEvents(t, r, func(_ *Reader, rec *Record, _ string) []string {
		p, err := rec.Payload()
		if err != nil {
			return nil
		}
		_, err = io.ReadAll(p.Body)
		var re *RecordError
		switch {
		case errors.As(err, &re):
			return []string{fmt.Sprintf("err %s @%d", kind(err), re.UncompressedOffset)}
		case errors.Is(err, ErrHTTP):
			return []string{"payload http", err.Error()}
		case errors.Is(err, ErrChunked):
			return []string{"payload chunked", err.Error()}
		case err != nil:
			return []string{"payload " + err.Error()}
		}
		return nil
	})
}

// TestAttacks reads the attack fixtures in testdata (rewritten with
// -update-attacks) and checks that they are what attacks generates.
func TestAttacks(t *testing.T) {
	for _, at := range attacks() {
		path := filepath.Join("testdata", at.file)
		if *updateAttacks {
			if err := os.WriteFile(path, at.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, at.data) && !strings.HasSuffix(path, ".gz") {
			t.Errorf("%s differs from what attacks generates; run go test -update-attacks", path)
		}
		for _, ch := range chunkings {
			if got := attackEvents(t, ch.Wrap(bytes.NewReader(data))); !equal(got, at.want) {
				t.Errorf("%s, %s:\n%s", at.file, ch.Name, warctest.DiffLines(got, at.want))
			}
		}
	}
}
