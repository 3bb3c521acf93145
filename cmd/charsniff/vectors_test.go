package main

import (
	"bytes"
	"io"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/sniff"
)

// TestVectorsDecodeWithOverride checks that every decoding vector of
// testdata/whatwg-decode, control bytes and all, decodes through the
// command from standard input with --decode --raw --override ENC exactly
// as package decode decodes it with that override and no preprocessing
// (a BOM the input starts with still decides, as in decode): naming the
// encoding is asking for the bytes decoded, never refused.
func TestVectorsDecodeWithOverride(t *testing.T) {
	all, labels := testutil.Vectors(t)
	n := 0
	for _, label := range labels {
		for _, v := range all[label] {
			rd, err := decode.NewReader(bytes.NewReader(v.In), decode.WithSniff(sniff.Options{Override: v.Encoding}), decode.WithoutPreprocessing())
			if err != nil {
				t.Fatal(err)
			}
			want, err := io.ReadAll(rd)
			if err != nil {
				t.Fatal(err)
			}
			var o, e bytes.Buffer
			args := []string{"--decode", "--raw", "--override", label}
			if code := run(args, bytes.NewReader(v.In), &o, &e); code != 0 || e.Len() != 0 || !bytes.Equal(o.Bytes(), want) {
				t.Errorf("%s line %d (%s): charsniff %q < %x: exit %d, stderr %q\ngot  %q\nwant %q", label, v.Line, v.Kind, args, v.In, code, e.String(), o.Bytes(), want)
			}
			n++
		}
	}
	t.Logf("%d vectors of %d encodings", n, len(labels))
}
