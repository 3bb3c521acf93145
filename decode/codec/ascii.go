package codec

import "github.com/charsniff/charsniff/internal/ascii"

// asciiMask is ascii.HighBits: a word of eight bytes is all ASCII when
// word&asciiMask is 0.
const asciiMask = ascii.HighBits

// copyASCII copies the all-ASCII prefix of src to dst, as much of it as fits,
// and returns the number of bytes copied. It is the fast path of the decoders
// of the ASCII-compatible encodings, whose ASCII bytes decode to themselves.
func copyASCII(dst, src []byte) int {
	if len(src) > len(dst) {
		src = src[:len(dst)]
	}
	n := ascii.Prefix(src)
	copy(dst, src[:n])
	return n
}

// putRune writes the UTF-8 encoding of r, a scalar value, to dst and returns
// its length, or returns 0 if dst is too short for it.
func putRune(dst []byte, r rune) int {
	switch {
	case r < 0x80:
		if len(dst) < 1 {
			return 0
		}
		dst[0] = byte(r)
		return 1
	case r < 0x800:
		if len(dst) < 2 {
			return 0
		}
		dst[0] = 0xC0 | byte(r>>6)
		dst[1] = 0x80 | byte(r)&0x3F
		return 2
	case r < 0x10000:
		if len(dst) < 3 {
			return 0
		}
		dst[0] = 0xE0 | byte(r>>12)
		dst[1] = 0x80 | byte(r>>6)&0x3F
		dst[2] = 0x80 | byte(r)&0x3F
		return 3
	default:
		if len(dst) < 4 {
			return 0
		}
		dst[0] = 0xF0 | byte(r>>18)
		dst[1] = 0x80 | byte(r>>12)&0x3F
		dst[2] = 0x80 | byte(r>>6)&0x3F
		dst[3] = 0x80 | byte(r)&0x3F
		return 4
	}
}

// putReplacement writes U+FFFD REPLACEMENT CHARACTER, the output of a
// decoder error in the standard's "replacement" error mode, to dst and
// returns 3, or returns 0 if dst is too short for it.
func putReplacement(dst []byte) int {
	if len(dst) < 3 {
		return 0
	}
	dst[0], dst[1], dst[2] = 0xEF, 0xBF, 0xBD
	return 3
}
