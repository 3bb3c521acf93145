package archive

import (
	"bytes"
	"io"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/mimetype"
	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/charsniff/charsniff/sniff"
)

// parseOnceWARC holds three HTML responses: with a charset, with a
// Content-Type without one, and with none.
func parseOnceWARC(t *testing.T) []byte {
	var in bytes.Buffer
	w := warctest.NewWriter(&in, false)
	page := []byte("<p>\x93\xfa\x96{")
	for _, h := range [][]string{{"Content-Type: text/html; charset=Shift_JIS"}, {"Content-Type: text/html"}, nil} {
		if _, err := w.Write(warctest.Response("http://example.com/", warctest.HTTPResponse(200, h, page))); err != nil {
			t.Fatal(err)
		}
	}
	return in.Bytes()
}

// TestContentTypeParsedOnce checks that a record's stored Content-Type is
// parsed once on its way from warc to the sniffing, through Next and
// through Hold and Worker.Open, and that it still replaces a caller's
// ContentType where it is there, with a charset or not.
func TestContentTypeParsedOnce(t *testing.T) {
	in := parseOnceWARC(t)
	parses := 0
	mimetype.ExtractHook = func() { parses++ }
	t.Cleanup(func() { mimetype.ExtractHook = nil })
	for _, tc := range []struct {
		desc   string
		opts   []decode.Option
		want   []string // encoding and source of each record
		parses int      // per record
	}{
		{"no options", nil, []string{"shift_jis transport", "windows-1252 default", "windows-1252 default"}, 1},
		// The caller's ContentType replaces every record's, as the
		// caller's options replace a response's in charsniff.Transport.
		{"caller's ContentType", []decode.Option{decode.WithSniff(sniff.Options{ContentType: "text/html; charset=koi8-r"})},
			[]string{"koi8-r transport", "koi8-r transport", "koi8-r transport"}, -1},
	} {
		for _, hold := range []bool{false, true} {
			r := NewReader(bytes.NewReader(in), Options{Decode: tc.opts})
			var w recordWorker
			for i := 0; ; i++ {
				parses = 0
				var rec *Record
				var err error
				if hold {
					var h *heldRecord
					rec, h, err = r.holdNext(1 << 20)
					if h != nil {
						rec = w.Open(h)
					}
				} else {
					rec, err = r.Next()
				}
				if err == io.EOF {
					if i != len(tc.want) {
						t.Errorf("%s, hold %v: %d records, want %d", tc.desc, hold, i, len(tc.want))
					}
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				n := parses
				io.Copy(io.Discard, rec.Text)
				if got := rec.Result.Encoding.LowerName() + " " + rec.Result.Source.String(); i >= len(tc.want) || got != tc.want[i] {
					t.Errorf("%s, hold %v, record %d: %s", tc.desc, hold, i, got)
				} else if tc.parses >= 0 && n != tc.parses {
					t.Errorf("%s, hold %v, record %d: %d parses, want %d", tc.desc, hold, i, n, tc.parses)
				}
			}
		}
	}
}
