package decode

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/charsniff/charsniff/internal/ascii"
)

// Word-at-a-time scanning of decoded UTF-8 for the preprocessing (the
// codec path's staged output): a run of bytes other than CR and NUL is
// copied eight bytes at a time, a uint64 loaded, tested with a few
// arithmetic operations and stored. (The UTF-8 and table paths find CR and
// NUL in their raw input with bytes.IndexByte instead, and test words only
// for non-ASCII bytes; on amd64 with AVX2 the sweep of sweep_amd64.s does
// all of it in one pass, and these word loops take only what it leaves.)
//
// The test has two stages. The prefilter, four operations, flags every
// byte below a bound after XORing each byte with a constant. When CR is
// special the constant is 0x04 and the bound 0x0C: NUL becomes 0x04 and CR
// 0x09, which are flagged, while TAB and LF become 0x0D and 0x0E, which are
// not (the other C0 controls but 0x08, 0x0B, 0x0E and 0x0F are flagged
// too). When only NUL is special the bound is 0x01 with no XOR. Only a word
// the prefilter flags gets the exact test, which singles out CR and NUL,
// so that line feeds do not send words to the exact test.

const (
	lo8 = ascii.LowBits
	hi8 = ascii.HighBits
	// crPattern is XORed into a word before the zero-byte test, so that CR
	// bytes become zero bytes.
	crPattern = 0x0D0D0D0D0D0D0D0D
)

// patterns says which ASCII bytes stop a clean run: CR when newlines are
// normalized, NUL when it is replaced.
type patterns struct {
	crOn, nulOn bool
	// flip is XORed into a word before the prefilter compares its bytes
	// with below, the prefilter's bound; both are repeated in each byte.
	flip, below uint64
	// crMask and nulMask are hi8 when the pattern is on, else 0.
	crMask, nulMask uint64
}

// newPatterns returns the patterns for the preprocessing switches.
func newPatterns(cr, nul bool) patterns {
	p := patterns{crOn: cr, nulOn: nul}
	switch {
	case cr:
		p.flip, p.below = 0x04*lo8, 0x0C*lo8
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

// utf8Maybe is the prefilter for decoded UTF-8: bytes below p.below once
// XORed with p.flip.
func (p *patterns) utf8Maybe(x uint64) uint64 {
	y := x ^ p.flip
	return (y - p.below) &^ y & hi8
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

// lines copies from s to d lines of ASCII that end in CR LF or a lone CR,
// writing LF for each, 16 bytes at a time while 16 fit into both, and
// returns the bytes written and read. It stops at the first byte from
// 0x80, NUL (if p replaces it) or other control byte that the prefilter
// flags, at a CR that ends s (its LF may come with the next call), and
// where fewer than 16 bytes are left in s or d. It may write up to 15
// bytes past the bytes written.
//
// The UTF-8 path takes it once it has met a CR, since the text likely has
// more lines like it: one pass that tests, copies and turns each CR LF
// into LF, rather than a search for the CR, a validation and a copy, each
// with the cost of its call. (Where the vector sweep runs, it does this
// instead.) Cachegrind, English UTF-8 with CR LF line ends: 3.94
// instructions a byte, against 6.68 for the search, validation and copy.
// The step is 16 bytes, not 32: finding the byte among four words costs
// more than the longer step saves. The loop runs over the lines itself,
// rather than being called for each.
func (p *patterns) lines(d, s []byte) (j, i int) {
	flip, below, cr := p.flip, p.below, p.crOn
	for 0 <= i && i <= len(s)-16 && 0 <= j && j <= len(d)-16 {
		w, o := (*[16]byte)(s[i:]), (*[16]byte)(d[j:])
		x0 := binary.LittleEndian.Uint64(w[:8])
		x1 := binary.LittleEndian.Uint64(w[8:])
		binary.LittleEndian.PutUint64(o[:8], x0)
		binary.LittleEndian.PutUint64(o[8:], x1)
		// Bit 7 of a byte from 0x80 or of one that the prefilter flags;
		// exact for the first such byte of a word: a borrow leaves only
		// a byte that the prefilter flags, and no byte from 0x80
		// borrows.
		f0 := (x0 ^ flip) - below | x0
		f1 := (x1 ^ flip) - below | x1
		if (f0|f1)&hi8 == 0 {
			i += 16
			j += 16
			continue
		}
		k := 8 + bits.TrailingZeros64(f1&hi8)>>3
		if f0 &= hi8; f0 != 0 {
			k = bits.TrailingZeros64(f0) >> 3
		}
		i += k
		j += k
		if s[i] != '\r' || !cr || i == len(s)-1 {
			break
		}
		d[j] = '\n'
		j++
		i++
		if s[i] == '\n' {
			i++
		}
	}
	return j, i
}

// indexHigh returns the index of the first byte of p from 0x80, or -1 if p
// is ASCII.
func indexHigh(p []byte) int {
	if i := ascii.Prefix(p); i < len(p) {
		return i
	}
	return -1
}

// stops finds, for the UTF-8 and table paths, where the next CR and NUL
// stand in a Transform call's src, with bytes.IndexByte, so that their word
// loops test only for non-ASCII bytes. Each position is looked for again
// once the decoder has reached it. The search goes no further than the
// input that fits the room left in dst (each byte makes one or more), as
// most calls fill dst before they read all of src; if it finds nothing
// there it gives the end of that window. A call starts with
// stops{-1, -1}: nothing found yet.
type stops struct{ cr, nul int }

// limit returns the position in src of the first CR (if cr) or NUL (if
// nul) at or after from, or the end of the window of room bytes there.
// With the vector sweep's CPU one pass finds both (indexSpecial).
func (s *stops) limit(src []byte, from, room int, cr, nul bool) int {
	if s.cr <= from || s.nul <= from {
		end := from + min(len(src)-from, room)
		if sweepOK {
			k := end
			if i := indexSpecial(src[from:end], cr, nul); i >= 0 {
				k = from + i
			}
			s.cr, s.nul = k, k
			return k
		}
		if s.cr <= from {
			s.cr = nextByte(src[:end], from, '\r', cr)
		}
		if s.nul <= from {
			s.nul = nextByte(src[:end], from, 0, nul)
		}
	}
	return min(s.cr, s.nul)
}

// nextByte returns the position of the first byte c in src from i, or
// len(src) if there is none or on is false.
func nextByte(src []byte, i int, c byte, on bool) int {
	if on {
		if k := bytes.IndexByte(src[i:], c); k >= 0 {
			return i + k
		}
	}
	return len(src)
}
