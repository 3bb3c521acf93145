package decode

import (
	"encoding/binary"
	"math/bits"
)

// Word-at-a-time scanning. A run of bytes that need no work (ASCII other
// than CR and NUL, or, for the preprocessing of already decoded UTF-8, any
// byte other than CR and NUL) is copied eight bytes at a time: a uint64 is
// loaded, tested with a few arithmetic operations and stored.

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// crPattern is XORed into a word before the zero-byte test, so that CR
// bytes become zero bytes.
const crPattern = 0x0D0D0D0D0D0D0D0D

// patterns says which ASCII bytes stop a clean run: CR when newlines are
// normalized (crOn), NUL when it is replaced (nulOn).
type patterns struct {
	crOn, nulOn bool
}

// zeroBytes returns a word whose lowest set bit is the high bit of the
// lowest zero byte of v, if v has one, and 0 otherwise. (Bits above the
// lowest zero byte may be set spuriously by borrows; callers only use the
// lowest.)
func zeroBytes(v uint64) uint64 {
	return (v - lo8) &^ v & hi8
}

// stopASCII returns the mask of bytes of x that end a clean run of raw
// input in an ASCII-compatible encoding: non-ASCII bytes, and CR and NUL if
// the patterns are on.
func (p *patterns) stopASCII(x uint64) uint64 {
	m := x & hi8
	if p.crOn {
		m |= zeroBytes(x ^ crPattern)
	}
	if p.nulOn {
		m |= zeroBytes(x)
	}
	return m
}

// copyASCII copies from src to dst the longest prefix of clean bytes (ASCII
// other than the pattern bytes) that fits, and returns its length. It may
// write up to 7 bytes past the returned length into dst.
func (p *patterns) copyASCII(dst, src []byte) int {
	n := min(len(dst), len(src))
	i := 0
	switch {
	case p.crOn && p.nulOn:
		for ; i+8 <= n; i += 8 {
			x := binary.LittleEndian.Uint64(src[i : i+8])
			binary.LittleEndian.PutUint64(dst[i:i+8], x)
			if m := (x | zeroBytes(x^crPattern) | zeroBytes(x)) & hi8; m != 0 {
				return i + bits.TrailingZeros64(m)>>3
			}
		}
	case !p.crOn && !p.nulOn:
		for ; i+8 <= n; i += 8 {
			x := binary.LittleEndian.Uint64(src[i : i+8])
			binary.LittleEndian.PutUint64(dst[i:i+8], x)
			if m := x & hi8; m != 0 {
				return i + bits.TrailingZeros64(m)>>3
			}
		}
	default:
		for ; i+8 <= n; i += 8 {
			x := binary.LittleEndian.Uint64(src[i : i+8])
			binary.LittleEndian.PutUint64(dst[i:i+8], x)
			if m := p.stopASCII(x); m != 0 {
				return i + bits.TrailingZeros64(m)>>3
			}
		}
	}
	for ; i < n; i++ {
		c := src[i]
		if c >= 0x80 || c == '\r' && p.crOn || c == 0 && p.nulOn {
			break
		}
		dst[i] = c
	}
	return i
}

// copyUTF8 copies from src, which is UTF-8, to dst the longest prefix with
// no byte that the preprocessing changes (CR, NUL, as the patterns say) that
// fits, and returns its length. It may write up to 7 bytes past the returned
// length into dst. It may stop inside a multi-byte character when dst is
// full.
func (p *patterns) copyUTF8(dst, src []byte) int {
	n := min(len(dst), len(src))
	i := 0
	for ; i+8 <= n; i += 8 {
		x := binary.LittleEndian.Uint64(src[i : i+8])
		binary.LittleEndian.PutUint64(dst[i:i+8], x)
		var m uint64
		if p.crOn {
			m = zeroBytes(x ^ crPattern)
		}
		if p.nulOn {
			m |= zeroBytes(x)
		}
		if m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < n; i++ {
		c := src[i]
		if c == '\r' && p.crOn || c == 0 && p.nulOn {
			break
		}
		dst[i] = c
	}
	return i
}
