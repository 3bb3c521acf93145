package decode_test

import (
	"bytes"
	"io"
	"testing"
	"testing/iotest"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
)

// TestVectorsRaw runs every decoding vector through a Reader with
// WithoutPreprocessing and WithEncoding: the output must be the vector's,
// byte for byte, less the byte order mark of the encoding itself, which is
// removed. Each encoding is a subtest that logs its count.
func TestVectorsRaw(t *testing.T) {
	vectors, labels := testutil.Vectors(t)
	total := 0
	for _, label := range labels {
		t.Run(label, func(t *testing.T) {
			pass := 0
			for _, v := range vectors[label] {
				r, err := decode.NewReader(bytes.NewReader(v.In), withEncoding(label), decode.WithoutPreprocessing())
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(r)
				if want := withoutBOM(v); err != nil || !bytes.Equal(got, want) {
					t.Errorf("line %d (%s) %x:\ngot  %q, %v\nwant %q", v.Line, v.Kind, v.In, got, err, want)
					continue
				}
				pass++
			}
			t.Logf("%s: %d/%d vectors", label, pass, len(vectors[label]))
			total += pass
		})
	}
	t.Logf("all encodings: %d vectors passed", total)
}

// TestVectorsPreprocessed runs every vector with the preprocessing on, whole
// and one byte at a time, with WithEncoding (no sniffing) and with
// WithOverride (a byte order mark chooses the encoding). The output must be
// the reference's.
func TestVectorsPreprocessed(t *testing.T) {
	eachVector(t, func(t *testing.T, label string, v testutil.Vector) {
		for _, tc := range []struct {
			desc  string
			opt   decode.Option
			sniff bool
		}{
			{"WithEncoding", withEncoding(label), false},
			{"WithOverride", withOverride(label), true},
		} {
			want := refDecode(t, v.Encoding, v.In, tc.sniff, full, true)
			for _, src := range []io.Reader{bytes.NewReader(v.In), iotest.OneByteReader(bytes.NewReader(v.In))} {
				r, err := decode.NewReader(src, tc.opt)
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(r)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s: line %d (%s) %x:\ngot  %q, %v\nwant %q", tc.desc, v.Line, v.Kind, v.In, got, err, want)
				}
			}
		}
	})
}

// TestVectorsTransformer runs every vector through NewTransformer, raw and
// preprocessed, with transform.String and with a transform.Reader whose
// source gives one byte at a time.
func TestVectorsTransformer(t *testing.T) {
	eachVector(t, func(t *testing.T, label string, v testutil.Vector) {
		for _, tc := range []struct {
			desc string
			opt  decode.Option
			want []byte
		}{
			{"Raw", decode.WithoutPreprocessing(), withoutBOM(v)},
			{"preprocessed", nil, refDecode(t, v.Encoding, v.In, false, full, true)},
		} {
			var opts []decode.Option
			if tc.opt != nil {
				opts = append(opts, tc.opt)
			}
			tr := decode.NewTransformer(v.Encoding, opts...)
			got, _, err := transform.String(tr, string(v.In))
			if err != nil || got != string(tc.want) {
				t.Errorf("%s: line %d: transform.String:\ngot  %q, %v\nwant %q", tc.desc, v.Line, got, err, tc.want)
			}
			tr.Reset()
			gotb, err := io.ReadAll(transform.NewReader(iotest.OneByteReader(bytes.NewReader(v.In)), tr))
			if err != nil || !bytes.Equal(gotb, tc.want) {
				t.Errorf("%s: line %d: one byte at a time:\ngot  %q, %v\nwant %q", tc.desc, v.Line, gotb, err, tc.want)
			}
		}
	})
}

// eachVector runs f on every WHATWG decoding vector, in a subtest for each
// label.
func eachVector(t *testing.T, f func(t *testing.T, label string, v testutil.Vector)) {
	vectors, labels := testutil.Vectors(t)
	for _, label := range labels {
		t.Run(label, func(t *testing.T) {
			for _, v := range vectors[label] {
				f(t, label, v)
			}
		})
	}
}

// withoutBOM returns the output of v less the leading U+FEFF that a byte
// order mark of v's own encoding at the start of its input decodes to.
func withoutBOM(v testutil.Vector) []byte {
	bom := map[override.Encoding]string{override.UTF8: "\xEF\xBB\xBF", override.UTF16BE: "\xFE\xFF", override.UTF16LE: "\xFF\xFE"}[v.Encoding]
	if bom != "" && bytes.HasPrefix(v.In, []byte(bom)) {
		return bytes.TrimPrefix(v.Out, []byte("\uFEFF"))
	}
	return v.Out
}
