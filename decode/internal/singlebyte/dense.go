package singlebyte

import (
	"encoding/binary"
	"sync"

	"github.com/charsniff/charsniff/override"
)

// A Vector holds the bytes 0x80 to 0xFF of a single-byte encoding as the
// vector loop of [Dense] reads them: for byte 0x80+k, Lead[k] and Trail[k]
// are the two bytes of its code point's UTF-8 when it has two, and 0 and
// 0 when it has three (or one, which no encoding has: the loop leaves
// those bytes to the table).
type Vector struct {
	lead, trail [128]byte
}

// vectors are the Vector of each encoding, built on first use.
var vectors struct {
	once [override.NumEncodings + 1]sync.Once
	v    [override.NumEncodings + 1]*Vector
}

// minPairs is the fewest bytes from 0x80 whose UTF-8 is two bytes that an
// encoding needs for a Vector: its letters. Those with fewer (windows-874,
// whose Thai letters take three bytes, and x-user-defined) have none, and
// Dense decodes them through the table alone.
const minPairs = 32

// Vec returns the Vector of e, a single-byte encoding or x-user-defined,
// or nil if e has none (see minPairs) or [High] has no table for it. It is
// built on first use and shared.
func Vec(e override.Encoding) *Vector {
	high := High(e)
	if high == nil {
		return nil
	}
	vectors.once[e].Do(func() { vectors.v[e] = newVector(high) })
	return vectors.v[e]
}

// newVector returns the Vector of the code points high of the bytes 0x80
// to 0xFF, or nil if fewer than minPairs of them take two bytes of UTF-8.
func newVector(high *[128]rune) *Vector {
	v := new(Vector)
	n := 0
	for k, r := range high {
		if 0x80 <= r && r < 0x800 {
			v.lead[k] = 0xC0 | byte(r>>6)
			v.trail[k] = 0x80 | byte(r&0x3F)
			n++
		}
	}
	if n < minPairs {
		return nil
	}
	return v
}

const hi8 = 0x8080808080808080

// Dense decodes src through t, a table of [Decode] or [Preprocess], into
// dst while src has eight bytes and dst 64 bytes of room, eight bytes at a
// time (the last bytes of src, and those for which dst has too little
// room, are the caller's), and returns the bytes read and written. src
// must hold no byte whose entry in t has length 0 (NUL and CR in a
// Preprocess table; no byte in a Decode table). It may write past
// dst[:j], within dst. v is the Vector of
// t's encoding, or nil: with one, on CPUs with AVX-512 VBMI2, it goes 64
// bytes a step (denseVector), and back to the table for 64 bytes after a
// step with a byte whose UTF-8 is three bytes; the result is the same. It is the loop of text in which most words have a byte from 0x80
// (Cyrillic, Greek, Hebrew, Arabic); its output is the table's, byte for
// byte.
func Dense(dst, src []byte, t *[256]uint32, v *Vector) (i, j int) {
	if v != nil && vectorOK {
		return denseVector(dst, src, t, v)
	}
	return denseWords(dst, src, t)
}

// blockRoom is the room in dst with which denseVector's assembly goes 64
// bytes a step (up to 128 bytes of UTF-8, stored in two 64-byte halves):
// where eight steps of denseWords would run, each with 64 bytes of room.
const blockRoom = 192

// denseWords is Dense without a Vector, and the Go twin of denseVector
// (dense_amd64.s), which it is where the assembly does not run: eight
// bytes a step, ASCII as it is, else through the table, unrolled, with
// offsets into a 64-byte window of dst that the compiler proves in range.
func denseWords(dst, src []byte, t *[256]uint32) (i, j int) {
	for 0 <= i && i <= len(src)-8 && 0 <= j && j <= len(dst)-64 {
		s, d := (*[8]byte)(src[i:]), (*[64]byte)(dst[j:])
		x := binary.LittleEndian.Uint64(s[:])
		if x&hi8 == 0 {
			binary.LittleEndian.PutUint64(d[0:8], x)
			i += 8
			j += 8
			continue
		}
		// Inline: as a call, 12% more instructions (callgrind).
		v := t[s[0]]
		binary.LittleEndian.PutUint32(d[0:], v)
		o := int(v >> 24)
		v = t[s[1]]
		binary.LittleEndian.PutUint32(d[o&31:], v)
		o += int(v >> 24)
		v = t[s[2]]
		binary.LittleEndian.PutUint32(d[o&31:], v)
		o += int(v >> 24)
		v = t[s[3]]
		binary.LittleEndian.PutUint32(d[o&31:], v)
		o += int(v >> 24)
		v = t[s[4]]
		binary.LittleEndian.PutUint32(d[o&31:], v)
		o += int(v >> 24)
		v = t[s[5]]
		binary.LittleEndian.PutUint32(d[o&31:], v)
		o += int(v >> 24)
		v = t[s[6]]
		binary.LittleEndian.PutUint32(d[o&31:], v)
		o += int(v >> 24)
		v = t[s[7]]
		binary.LittleEndian.PutUint32(d[o&31:], v)
		o += int(v >> 24)
		i += 8
		j += o
	}
	return i, j
}
