// Package jsonstr finds the bytes of valid UTF-8 text that a JSON string
// escapes as encoding/json does (with SetEscapeHTML(false)): the control
// characters, '"' and '\\', and U+2028 and U+2029, which start with 0xE2.
// The charsniff command escapes each record's text into its JSON line with
// it; the clean runs between those bytes are copied whole.
//
// On amd64 CPUs with AVX2 the search looks at 32 bytes a step in assembly
// (index_amd64.s); elsewhere, and with GODEBUG=cpu.avx2=off or the purego
// build tag, its Go twin looks at eight bytes at a time.
package jsonstr

import (
	"encoding/binary"
	"math/bits"

	"github.com/charsniff/charsniff/internal/ascii"
)

// NeedsLook reports whether the byte c needs a look in valid UTF-8: a
// control character (below 0x20), '"', '\\' or 0xE2, which starts U+2028
// and U+2029 (and other characters, copied as they are).
func NeedsLook(c byte) bool { return needsLook[c] }

var needsLook = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'], t[0xE2] = true, true, true
	return t
}()

// Masks for looking at eight bytes at once.
const (
	lsb = ascii.LowBits
	msb = ascii.HighBits
)

// special returns a word with the high bit set in the first byte of x (in
// memory order) for which NeedsLook is true. Bits above it may be set too
// (borrows), none below.
func special(x uint64) uint64 {
	ctl := (x - 0x20*lsb) &^ x
	q := x ^ ('"' * lsb)
	q = (q - lsb) &^ q
	bs := x ^ ('\\' * lsb)
	bs = (bs - lsb) &^ bs
	e2 := x ^ (0xE2 * lsb)
	e2 = (e2 - lsb) &^ e2
	return (ctl | q | bs | e2) & msb
}

// indexSpecialGeneric is the Go twin of IndexSpecial: it looks at eight
// bytes at a time (special), then at the last few one by one.
func indexSpecialGeneric(s []byte) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if m := special(binary.LittleEndian.Uint64(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s); i++ {
		if needsLook[s[i]] {
			return i
		}
	}
	return -1
}
