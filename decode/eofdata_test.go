package decode

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/sniff"
)

// TestEOFWithLastBytes: a source that says io.EOF with its last bytes
// (iotest.DataErrReader) gives what one that says it on the next read
// gives, whatever the window, an input as long as the window included.
func TestEOFWithLastBytes(t *testing.T) {
	for _, in := range []string{
		"\xc7\x90\xc7",        // UTF-8 cut at the end
		"abc\xe3\x81",         // likewise, after ASCII
		"<p>\x82\xa0\x82",     // Shift_JIS cut at the end
		"\xe9t\xe9",           // windows-1252
		"<html>\xa4\xa4\xa4",  // Big5 cut at the end
		"<meta charset=utf-8", // a <meta> cut in the window
	} {
		for w := 1; w <= len(in)+2; w++ {
			opts := []Option{WithSniff(sniff.Options{Window: w})}
			want, wantRes := readAllWith(t, bytes.NewReader([]byte(in)), opts)
			got, gotRes := readAllWith(t, iotest.DataErrReader(bytes.NewReader([]byte(in))), opts)
			if gotRes != wantRes || got != want {
				t.Errorf("%q, window %d: EOF with the last bytes: %+v %q\nEOF after them:          %+v %q", in, w, gotRes, got, wantRes, want)
			}
		}
	}
}

func readAllWith(t *testing.T, src io.Reader, opts []Option) (string, Result) {
	t.Helper()
	r, err := NewReader(src, opts...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), r.Result()
}
