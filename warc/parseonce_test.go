package warc

import (
	"bytes"
	"io"
	"testing"

	"github.com/charsniff/charsniff/internal/mimetype"
	"github.com/charsniff/charsniff/internal/warctest"
)

// TestPayloadParsesContentTypeOnce checks that a payload's Content-Type
// is parsed once, for both Charset and IsHTML.
func TestPayloadParsesContentTypeOnce(t *testing.T) {
	var in bytes.Buffer
	w := warctest.NewWriter(&in, false)
	page := []byte("<p>text")
	for _, rec := range []warctest.Record{
		warctest.Response("http://example.com/", warctest.HTTPResponse(200, []string{"Content-Type: text/html; charset=Shift_JIS"}, page)),
		warctest.Response("http://example.com/b", warctest.HTTPResponse(200, []string{"Content-Type: text/plain"}, page)),
		warctest.Response("http://example.com/c", warctest.HTTPResponse(200, nil, page)),
		{Type: "resource", ID: "<urn:test:r>", TargetURI: "http://example.com/r", ContentType: `application/xhtml+xml; charset="koi8-r"`, Block: page},
	} {
		if _, err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	want := []struct {
		charset string
		html    bool
	}{{"Shift_JIS", true}, {"", false}, {"", true}, {"koi8-r", true}}
	parses := 0
	mimetype.ExtractHook = func() { parses++ }
	t.Cleanup(func() { mimetype.ExtractHook = nil })
	r := NewReader(&in)
	for i := 0; ; i++ {
		rec, err := r.Next()
		if err == io.EOF {
			if i != len(want) {
				t.Errorf("%d records, want %d", i, len(want))
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		parses = 0
		p, err := rec.Payload()
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		html := p.IsHTML()
		if p.Charset != want[i].charset || html != want[i].html || parses != 1 {
			t.Errorf("record %d: Charset %q, IsHTML %v, %d parses; want %q, %v, 1 parse", i, p.Charset, html, parses, want[i].charset, want[i].html)
		}
	}
}
