// Package ascii holds what the module's byte loops share about ASCII: the
// masks for looking at eight bytes at once, the Infra Standard's ASCII
// whitespace, and where ASCII ends in a byte slice, a word at a time (the
// fast paths of the decoders of decode/codec and the look-ahead of decode).
package ascii

import "encoding/binary"

// Masks for looking at the eight bytes of a uint64 at once.
const (
	// HighBits has the high bit of every byte set: a word is all ASCII
	// when word&HighBits is 0.
	HighBits = 0x8080808080808080
	// LowBits has the low bit of every byte set: c*LowBits is the byte c
	// eight times, and (w-LowBits)&^w&HighBits is not 0 exactly when a
	// byte of w is 0 (its lowest flagged byte is the first zero byte).
	LowBits = 0x0101010101010101
)

// IsWhitespace reports whether c is ASCII whitespace as the Infra Standard
// defines it (https://infra.spec.whatwg.org/#ascii-whitespace): TAB, LF,
// FF, CR or SPACE.
func IsWhitespace(c byte) bool {
	return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

// Prefix returns the length of the longest all-ASCII prefix of p: the
// index of its first byte from 0x80, or len(p). It looks at 32 bytes a
// step, then 8, then one.
func Prefix(p []byte) int {
	i := 0
	for ; i+32 <= len(p); i += 32 {
		q := p[i : i+32 : i+32]
		a := binary.LittleEndian.Uint64(q)
		b := binary.LittleEndian.Uint64(q[8:])
		c := binary.LittleEndian.Uint64(q[16:])
		d := binary.LittleEndian.Uint64(q[24:])
		if (a|b|c|d)&HighBits != 0 {
			break
		}
	}
	for ; i+8 <= len(p); i += 8 {
		if binary.LittleEndian.Uint64(p[i:])&HighBits != 0 {
			break
		}
	}
	for ; i < len(p); i++ {
		if p[i] >= 0x80 {
			break
		}
	}
	return i
}
