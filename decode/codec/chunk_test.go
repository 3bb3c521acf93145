package codec

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/override"
)

// splitPoints returns the split points to try for an input of n bytes: all
// of them for short inputs, and for long ones those near both ends and a
// spread in between.
func splitPoints(n int) []int {
	var ps []int
	for i := 0; i <= n; i++ {
		if n <= 600 || i < 64 || i > n-64 || i%13 == 0 {
			ps = append(ps, i)
		}
	}
	return ps
}

// checkChunking checks that decoding src in any chunking and through any
// dst size gives want.
func checkChunking(t *testing.T, e override.Encoding, src, want []byte, desc string) {
	t.Helper()
	for _, p := range splitPoints(len(src)) {
		if got := decodeChunked(t, e, src, []int{p}, 64); !bytes.Equal(got, want) {
			t.Fatalf("%s: split at %d of %x:\ngot  %q\nwant %q", desc, p, src, got, want)
		}
	}
	// Byte at a time.
	every := make([]int, 0, len(src))
	for i := 1; i < len(src); i++ {
		every = append(every, i)
	}
	for dstSize := 4; dstSize <= 8; dstSize++ {
		if got := decodeChunked(t, e, src, nil, dstSize); !bytes.Equal(got, want) {
			t.Fatalf("%s: dst of %d bytes, %x:\ngot  %q\nwant %q", desc, dstSize, src, got, want)
		}
		if got := decodeChunked(t, e, src, every, dstSize); !bytes.Equal(got, want) {
			t.Fatalf("%s: a byte at a time, dst of %d bytes, %x:\ngot  %q\nwant %q", desc, dstSize, src, got, want)
		}
	}
	// Through transform.Reader, one source byte per Read, reading into
	// buffers of 1 to 8 bytes.
	for n := 1; n <= 8; n++ {
		r := transform.NewReader(iotest.OneByteReader(bytes.NewReader(src)), Encoding(e).NewDecoder())
		got, err := readAllSmall(r, n)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: transform.Reader, reads of %d bytes, %x:\ngot  %q, %v\nwant %q", desc, n, src, got, err, want)
		}
	}
}

// readAllSmall reads r to EOF in reads of n bytes.
func readAllSmall(r io.Reader, n int) ([]byte, error) {
	var out []byte
	buf := make([]byte, n)
	for {
		m, err := r.Read(buf)
		out = append(out, buf[:m]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

func TestChunkingVectors(t *testing.T) {
	all := loadVectors(t)
	for _, name := range sortedKeys(all) {
		t.Run(name, func(t *testing.T) {
			for _, v := range all[name] {
				checkChunking(t, v.enc, v.in, v.want, v.kind)
			}
		})
	}
}

// interesting returns bytes that exercise e's decoder: lead and trail byte
// ranges, escapes, surrogates, plus plain ASCII.
func interesting(e override.Encoding) []byte {
	set := []byte("a <>\n\x00\x7f")
	add := func(lo, hi byte) {
		for c := int(lo); c <= int(hi); c += 1 + (int(hi)-int(lo))/12 {
			set = append(set, byte(c))
		}
		set = append(set, hi)
	}
	add(0x80, 0xFF)
	switch e {
	case override.UTF8:
		set = append(set, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xBF)
	case override.GBK, override.GB18030:
		set = append(set, 0x81, 0x84, 0x30, 0x31, 0x39, 0x35, 0xE3, 0x32, 0xFE, 0xA1, 0x40, 0x7E)
	case override.ISO2022JP:
		set = append(set, 0x1B, 0x1B, 0x1B, '(', '$', 'B', 'J', 'I', '@', 0x21, 0x30, 0x5C, 0x7E, 0x0E, 0x0F, 0x5F, 0x60)
	case override.UTF16BE, override.UTF16LE:
		set = append(set, 0xD8, 0xDB, 0xDC, 0xDF, 0x00, 0x00, 0x3D, 0xDE)
	case override.EUCJP:
		set = append(set, 0x8E, 0x8F, 0xA1, 0xB0, 0xDF, 0xFE)
	case override.ShiftJIS:
		set = append(set, 0x81, 0x9F, 0xE0, 0xF0, 0xF9, 0xFC, 0x40, 0x7E, 0xA0)
	case override.Big5:
		set = append(set, 0x81, 0x87, 0x88, 0x62, 0x64, 0xA3, 0xA5, 0xA4, 0xFE, 0x40)
	}
	return set
}

func TestChunkingRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, e := range override.All() {
		t.Run(e.Name(), func(t *testing.T) {
			set := interesting(e)
			for range 12 {
				src := make([]byte, 1+rng.IntN(300))
				for i := range src {
					src[i] = set[rng.IntN(len(set))]
				}
				want := decodeAll(t, e, src)
				if !utf8.Valid(want) {
					t.Fatalf("decode(%x) = %q: not valid UTF-8", src, want)
				}
				checkChunking(t, e, src, want, "random")
				// Random chunking and dst sizes.
				for range 20 {
					var splits []int
					for i := 1; i < len(src); i++ {
						if rng.IntN(4) == 0 {
							splits = append(splits, i)
						}
					}
					if got := decodeChunked(t, e, src, splits, 4+rng.IntN(60)); !bytes.Equal(got, want) {
						t.Fatalf("splits %v of %x:\ngot  %q\nwant %q", splits, src, got, want)
					}
				}
			}
		})
	}
}

func TestPadding(t *testing.T) {
	all := loadVectors(t)
	for _, name := range sortedKeys(all) {
		vs := all[name]
		e := vs[0].enc
		if !e.ASCIICompatible() && e != override.ISO2022JP {
			continue // ASCII bytes are not ASCII in UTF-16 and replacement.
		}
		t.Run(name, func(t *testing.T) {
			for _, v := range vs {
				for n := 0; n <= 16; n++ {
					pad := bytes.Repeat([]byte("p"), n)
					src := append(pad[:n:n], v.in...)
					want := append(pad[:n:n], v.want...)
					if got := decodeAll(t, e, src); !bytes.Equal(got, want) {
						t.Fatalf("%d bytes of padding, line %d: decode(%x)\ngot  %q\nwant %q", n, v.line, src, got, want)
					}
				}
			}
		})
	}
}
