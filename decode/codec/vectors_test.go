package codec

import (
	"bytes"
	"sort"
	"testing"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
)

// vector is one line of testdata/whatwg-decode/*.jsonl: an input and the
// standard's decoding of it without BOM handling.
type vector struct {
	enc  override.Encoding
	in   []byte
	want []byte
	kind string
	line int
}

// loadVectors reads every vector file (through the shared loader in
// internal/testutil), keyed by encoding name as the file names spell it.
func loadVectors(t testing.TB) map[string][]vector {
	t.Helper()
	shared, _ := testutil.Vectors(t)
	all := make(map[string][]vector, len(shared))
	for label, vs := range shared {
		for _, v := range vs {
			all[label] = append(all[label], vector{v.Encoding, v.In, v.Out, v.Kind, v.Line})
		}
	}
	return all
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// decodeAll decodes src with a new decoder for e in one Transform call with
// a large enough dst.
func decodeAll(t testing.TB, e override.Encoding, src []byte) []byte {
	t.Helper()
	dst := make([]byte, 4*len(src)+16)
	nDst, nSrc, err := newDecoder(e).Transform(dst, src, true)
	if err != nil || nSrc != len(src) {
		t.Fatalf("%v: Transform(%x) = %d, %d, %v; want all %d bytes, nil", e, src, nDst, nSrc, err, len(src))
	}
	return dst[:nDst]
}

func TestVectors(t *testing.T) {
	all := loadVectors(t)
	if len(all) != override.NumEncodings {
		t.Errorf("vector files for %d encodings, want %d", len(all), override.NumEncodings)
	}
	total := 0
	for _, name := range sortedKeys(all) {
		vs := all[name]
		t.Run(name, func(t *testing.T) {
			pass := 0
			for _, v := range vs {
				if got := decodeAll(t, v.enc, v.in); !bytes.Equal(got, v.want) {
					t.Errorf("line %d (%s): decode(%x)\ngot  %q\nwant %q", v.line, v.kind, v.in, got, v.want)
					continue
				}
				pass++
			}
			t.Logf("%s: %d/%d vectors pass", name, pass, len(vs))
		})
		total += len(vs)
	}
	t.Logf("%d vectors in %d encodings", total, len(all))
}

// decodeChunked decodes src through a new decoder for e, giving it src in
// pieces that end at the given split points (increasing offsets into src),
// and dst in windows of dstSize bytes. It follows the transform contract:
// bytes not consumed are offered again with the next piece.
func decodeChunked(t testing.TB, e override.Encoding, src []byte, splits []int, dstSize int) []byte {
	t.Helper()
	d := newDecoder(e)
	var out []byte
	dst := make([]byte, dstSize)
	start := 0
	ends := append(append([]int(nil), splits...), len(src))
	for _, end := range ends {
		atEOF := end == len(src)
		for {
			nDst, nSrc, err := d.Transform(dst, src[start:end], atEOF)
			out = append(out, dst[:nDst]...)
			start += nSrc
			switch err {
			case nil:
				if start != end {
					t.Fatalf("%v: Transform returned nil with %d bytes left", e, end-start)
				}
			case transform.ErrShortDst:
				if nDst == 0 && nSrc == 0 && dstSize >= 4 {
					t.Fatalf("%v: no progress with ErrShortDst and %d bytes of dst", e, dstSize)
				}
				continue
			case transform.ErrShortSrc:
				if atEOF {
					t.Fatalf("%v: ErrShortSrc at EOF", e)
				}
			default:
				t.Fatalf("%v: Transform error %v", e, err)
			}
			break
		}
	}
	if start != len(src) {
		t.Fatalf("%v: %d bytes of src never consumed", e, len(src)-start)
	}
	return out
}
