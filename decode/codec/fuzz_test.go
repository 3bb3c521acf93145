package codec

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/charsniff/charsniff/override"
)

// FuzzDecode checks, for any input in any encoding, that the output is valid
// UTF-8 and does not depend on how the input is split or how small dst is.
func FuzzDecode(f *testing.F) {
	seeds := []string{
		"Hello", "\x81\x30\x81\x30", "\x81\x40", "\xf0\x40", "\x1b(J\x5c", "\xd8\x00\x41",
		"\x88\x62\x88\x64", "\x8f\xa2\xaf", "\xe0\xa0A", "\xef\xbb\xbf\xff\xfe",
	}
	for i, s := range seeds {
		f.Add(uint8(i), []byte(s), uint8(1), uint8(4))
	}
	f.Fuzz(func(t *testing.T, which uint8, src []byte, split, dstSize uint8) {
		e := override.Encoding(1 + int(which)%override.NumEncodings)
		want := decodeAll(t, e, src)
		if !utf8.Valid(want) {
			t.Fatalf("%v: decode(%x) = %q: not UTF-8", e, src, want)
		}
		var splits []int
		for i := int(split); split > 0 && i < len(src); i += int(split) {
			splits = append(splits, i)
		}
		if got := decodeChunked(t, e, src, splits, 4+int(dstSize%29)); !bytes.Equal(got, want) {
			t.Fatalf("%v: decode(%x) in pieces of %d, dst %d:\ngot  %q\nwant %q", e, src, split, 4+dstSize%29, got, want)
		}
	})
}
