// Package ascii finds where ASCII ends in a byte slice, a word at a time:
// the fast paths of the decoders of decode/codec and the look-ahead of
// decode share it.
package ascii

import "encoding/binary"

// hi8 has the high bit of every byte of a uint64 set: a word of eight
// bytes is all ASCII when word&hi8 is 0.
const hi8 = 0x8080808080808080

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
		if (a|b|c|d)&hi8 != 0 {
			break
		}
	}
	for ; i+8 <= len(p); i += 8 {
		if binary.LittleEndian.Uint64(p[i:])&hi8 != 0 {
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
