package decode

import (
	"encoding/binary"
	"math/bits"
)

// Word-at-a-time scanning. A run of bytes that need no work (ASCII other
// than CR and NUL in raw input; any byte other than CR and NUL in decoded
// UTF-8) is copied eight bytes at a time: a uint64 is loaded, tested with a
// few arithmetic operations and stored.
//
// The test has two stages. The prefilter, three operations, flags every
// byte below a bound (0x0E when CR is special, so NUL to CR, which takes in
// TAB and LF; 0x01 when only NUL is) and, for raw input, every byte from
// 0x80. Only a word it flags gets the exact test, which singles out CR and
// NUL. On English text this keeps the common word to the three operations:
// BenchmarkRead/utf-8/english runs at 2.9 instructions a byte in all, as
// counted by cachegrind.

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
	// crPattern is XORed into a word before the zero-byte test, so that CR
	// bytes become zero bytes.
	crPattern = 0x0D0D0D0D0D0D0D0D
)

// patterns says which ASCII bytes stop a clean run: CR when newlines are
// normalized, NUL when it is replaced.
type patterns struct {
	crOn, nulOn bool
	// below is the prefilter's bound, repeated in each byte.
	below uint64
	// crMask and nulMask are hi8 when the pattern is on, else 0.
	crMask, nulMask uint64
}

// newPatterns returns the patterns for the preprocessing switches.
func newPatterns(cr, nul bool) patterns {
	p := patterns{crOn: cr, nulOn: nul}
	switch {
	case cr:
		p.below = 0x0E * lo8
	case nul:
		p.below = lo8
	}
	if cr {
		p.crMask = hi8
	}
	if nul {
		p.nulMask = hi8
	}
	return p
}

// zeroBytes returns a word whose lowest set bit is the high bit of the
// lowest zero byte of v, if v has one, and 0 otherwise. (Bits above the
// lowest zero byte may be set spuriously by borrows; callers only use the
// lowest.)
func zeroBytes(v uint64) uint64 {
	return (v - lo8) &^ v & hi8
}

// rawMaybe is the prefilter for raw input: non-zero if x may hold a byte
// that is not clean. Bytes from 0x80 and below p.below are flagged (and
// bytes above a flagged one may be).
func (p *patterns) rawMaybe(x uint64) uint64 {
	return ((x - p.below) | x) & hi8
}

// rawStop is the exact test for raw input: its lowest set bit marks the
// first byte of x that is not clean.
func (p *patterns) rawStop(x uint64) uint64 {
	return x&hi8 | zeroBytes(x^crPattern)&p.crMask | zeroBytes(x)&p.nulMask
}

// utf8Maybe is the prefilter for decoded UTF-8: bytes below p.below.
func (p *patterns) utf8Maybe(x uint64) uint64 {
	return (x - p.below) &^ x & hi8
}

// utf8Stop is the exact test for decoded UTF-8: CR and NUL as configured.
func (p *patterns) utf8Stop(x uint64) uint64 {
	return zeroBytes(x^crPattern)&p.crMask | zeroBytes(x)&p.nulMask
}

// copyUTF8 copies from src, which is UTF-8, to dst the longest prefix with
// no byte that the preprocessing changes (CR, NUL, as the patterns say) that
// fits, and returns its length. It may write up to 15 bytes past the
// returned length into dst. It may stop inside a multi-byte character when
// dst is full.
func (p *patterns) copyUTF8(dst, src []byte) int {
	n := min(len(dst), len(src))
	s, d := src[:n:n], dst[:n:n]
	q := *p
	i := 0
	for ; i+16 <= len(s); i += 16 {
		x := binary.LittleEndian.Uint64(s[i : i+8])
		y := binary.LittleEndian.Uint64(s[i+8 : i+16])
		binary.LittleEndian.PutUint64(d[i:i+8], x)
		binary.LittleEndian.PutUint64(d[i+8:i+16], y)
		if q.utf8Maybe(x)|q.utf8Maybe(y) != 0 {
			if m := q.utf8Stop(x); m != 0 {
				return i + bits.TrailingZeros64(m)>>3
			}
			if m := q.utf8Stop(y); m != 0 {
				return i + 8 + bits.TrailingZeros64(m)>>3
			}
		}
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\r' && q.crOn || c == 0 && q.nulOn {
			break
		}
		d[i] = c
	}
	return i
}

// indexHigh returns the index of the first byte of p from 0x80, or -1 if p
// is ASCII.
func indexHigh(p []byte) int {
	i := 0
	for ; i+16 <= len(p); i += 16 {
		x := binary.LittleEndian.Uint64(p[i : i+8])
		y := binary.LittleEndian.Uint64(p[i+8 : i+16])
		if (x|y)&hi8 != 0 {
			break
		}
	}
	for ; i < len(p); i++ {
		if p[i] >= 0x80 {
			return i
		}
	}
	return -1
}
