package decode

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// outWatch is a Writer that records whether its Reader had taken its
// output buffer at any Write.
type outWatch struct {
	r    *Reader
	took bool
	b    bytes.Buffer
}

func (w *outWatch) Write(p []byte) (int, error) {
	w.took = w.took || w.r.out != nil
	return w.b.Write(p)
}

// TestWriteToCleanPageNoOut: WriteTo of a clean UTF-8 page (a byte order
// mark or none, the whole page in the window or not, an ASCII start or
// not) writes it all straight from the input buffer: it never takes the
// output buffer, not even to learn that the stream has ended. Every page
// here, windows-1252 ones too (which the decoder writes into out), leaves
// the Reader with no buffer, and its text is Read's, also from a source of
// a byte a read (which the decoder takes, a few bytes being too few to
// write on their own).
func TestWriteToCleanPageNoOut(t *testing.T) {
	head := "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>x</title></head><body><pre>\n"
	text := strings.Repeat("Plain text of a page, caf\u00e9 and all, no CR here.\n", 200)
	for _, tc := range []struct {
		desc string
		doc  string
		opts []Option
	}{
		{"1 KB page", head + text[:900], []Option{WithSniff(sniff.Options{ContentType: "text/html"})}},
		{"8 KB page", head + text[:8000], []Option{WithSniff(sniff.Options{ContentType: "text/html"})}},
		{"BOM", "\xEF\xBB\xBF" + head + text[:3000], nil},
		{"charset in the header", text[:5000], []Option{WithSniff(sniff.Options{ContentType: "text/html; charset=utf-8"})}},
		{"WithEncoding, BOM", "\xEF\xBB\xBF" + text[:2000], []Option{WithEncoding(override.UTF8)}},
		// Decoded into out, whose end WriteTo meets without the decoder:
		// the text and the buffers given back are what count.
		{"windows-1252, decoded", strings.ReplaceAll(head+text[:3000], "\u00e9", "\xE9"), []Option{WithEncoding(override.Windows1252)}},
		{"windows-1252 with NUL, decoded", "a\x00b\xE9" + strings.Repeat("\x00", 100) + "c", []Option{WithEncoding(override.Windows1252)}},
	} {
		decoded := strings.HasSuffix(tc.desc, "decoded")
		for _, wrap := range []struct {
			desc string
			f    func(io.Reader) io.Reader
		}{{"whole", func(r io.Reader) io.Reader { return r }}, {"one byte", iotest.OneByteReader}} {
			opts := tc.opts
			want, err := io.ReadAll(struct{ io.Reader }{must(NewReader(wrap.f(strings.NewReader(tc.doc)), opts...))})
			if err != nil {
				t.Fatal(err)
			}
			r := must(NewReader(wrap.f(strings.NewReader(tc.doc)), opts...))
			w := &outWatch{r: r}
			if n, err := r.WriteTo(w); err != nil || n != int64(len(want)) || !bytes.Equal(w.b.Bytes(), want) {
				t.Errorf("%s, %s: WriteTo = %d, %v; want %d bytes as Read gives", tc.desc, wrap.desc, n, err, len(want))
			}
			if wrap.desc == "whole" && !decoded && w.took || r.out != nil || r.in != nil {
				t.Errorf("%s, %s: WriteTo took the output buffer (%v) or kept a buffer (out %v, in %v)", tc.desc, wrap.desc, w.took, r.out != nil, r.in != nil)
			}
		}
	}
}

// must returns r, failing on err (which the options here never give).
func must(r *Reader, err error) *Reader {
	if err != nil {
		panic(err)
	}
	return r
}
