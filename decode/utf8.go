package decode

import (
	"encoding/binary"
	"math/bits"

	"golang.org/x/text/transform"
)

// utf8 is Transform on pathUTF8: the Encoding Standard's UTF-8 decoder
// (https://encoding.spec.whatwg.org/#utf-8-decoder). Valid input is copied
// as it is; each maximal subpart of an ill-formed sequence becomes one
// U+FFFD. A sequence cut off by the end of src waits for more input, or
// becomes one U+FFFD at EOF.
func (d *decoder) utf8(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	nSrc = d.skipLF(src)
	for nSrc < len(src) {
		n, high := utf8Run(dst[nDst:], src[nSrc:], &d.pat)
		copy(dst[nDst:], src[nSrc:nSrc+n])
		nSrc += n
		nDst += n
		if high {
			d.high = true
		}
		if nSrc == len(src) {
			break
		}
		c := src[nSrc]
		if c < 0x80 {
			if nDst == len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			if c == '\r' && d.pat.crOn || c == 0 && d.pat.nulOn {
				w, r := d.special(dst[nDst:], src[nSrc:])
				if w < 0 {
					return nDst, nSrc, transform.ErrShortDst
				}
				nDst += w
				nSrc += r
				continue
			}
			dst[nDst] = c
			nDst++
			nSrc++
			continue
		}
		n, ok := utf8Sequence(src[nSrc:])
		if n == 0 {
			if !atEOF {
				return nDst, nSrc, transform.ErrShortSrc
			}
			// The end of the input inside a sequence: one U+FFFD.
			n = len(src) - nSrc
		}
		if ok {
			if len(dst)-nDst < n {
				return nDst, nSrc, transform.ErrShortDst
			}
			copy(dst[nDst:], src[nSrc:nSrc+n])
			nDst += n
		} else {
			if len(dst)-nDst < len(fffd) {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += copy(dst[nDst:], fffd)
		}
		nSrc += n
		d.high = true
	}
	return nDst, nSrc, nil
}

// utf8Sequence examines the sequence that starts with the non-ASCII byte
// s[0], following the UTF-8 decoder's steps. It returns the length of a
// valid sequence and true; or the length of a maximal subpart of an
// ill-formed sequence (the bytes that one U+FFFD replaces; the byte after it
// is decoded afresh) and false; or 0 if s ends before the sequence can be
// judged.
func utf8Sequence(s []byte) (int, bool) {
	c := s[0]
	// need is the number of trail bytes; lo and hi bound the first one.
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	default:
		// 80-C1 and F5-FF never start a sequence.
		return 1, false
	}
	for i := 1; i <= need; i++ {
		if i >= len(s) {
			return 0, false
		}
		if b := s[i]; b < lo || b > hi {
			return i, false
		}
		lo, hi = 0x80, 0xBF
	}
	return need + 1, true
}

// utf8Run is the fast path of the UTF-8 decoder. Valid UTF-8 is its own
// decoding, so it finds the longest prefix of src (as long as fits dst)
// that needs no work, for the caller to copy with one copy, and leaves the
// rest (CR, NUL, four-byte and E0/ED sequences, ill-formed input, a
// sequence cut off by the end of src) to the careful loop of utf8. It
// returns the length of the prefix and whether it holds a non-ASCII byte.
//
// Clean ASCII goes sixteen bytes at a time through the prefilter. Text
// with other characters goes sixteen bytes at a time through mixedWord,
// which checks ASCII, two- and three-byte sequences in a word at once
// with no branch, carrying the sequences that cross the end of a word into
// the next, so that the loop does not stop between characters, scripts or
// words. Only a block that holds something else (or clean ASCII only) ends
// the loop; the bytes of that block then go one character at a time.
func utf8Run(dst, src []byte, p *patterns) (i int, high bool) {
	s := src[:min(len(dst), len(src))]
	q := *p
	for i < len(s) {
		c := s[i]
		if c < 0x80 {
			if i+8 <= len(s) {
				x := binary.LittleEndian.Uint64(s[i : i+8])
				if q.rawMaybe(x) == 0 {
					// Likely a long run: sixteen bytes at a time.
					i += 8
					for i+16 <= len(s) {
						x := binary.LittleEndian.Uint64(s[i : i+8])
						y := binary.LittleEndian.Uint64(s[i+8 : i+16])
						if q.rawMaybe(x)|q.rawMaybe(y) != 0 {
							break
						}
						i += 16
					}
					continue
				}
				// Skip the clean ASCII bytes before the first byte that
				// is not: a non-ASCII byte, or CR or NUL.
				i += bits.TrailingZeros64(q.rawStop(x)) >> 3
				if i < len(s) && s[i] < 0x80 {
					return i, high
				}
				continue
			}
			if c == '\r' && q.crOn || c == 0 && q.nulOn {
				return i, high
			}
			i++
			continue
		}
		high = true
		// Mixed text, sixteen bytes a step. carry marks the trail bytes
		// that sequences begun in the previous word expect at the start of
		// the next.
		var carry uint64
		for i <= len(s)-16 {
			w := (*[16]byte)(s[i:])
			x := binary.LittleEndian.Uint64(w[:8])
			y := binary.LittleEndian.Uint64(w[8:])
			if (x|y|carry)&hi8 == 0 {
				break // clean ASCII, likely: back to the ASCII loop
			}
			// mixedWord(x, carry) and mixedWord(y, ...), written out:
			// the function is too large to be inlined. Only bit 7 of each
			// byte counts until the end, so no mask is needed before.
			l := x & (x << 1)
			l3 := l & (x << 2)
			bad := x ^ l ^ (l<<8 | l3<<16 | carry)
			mid := l>>56 | l3>>48
			u := x | hi8
			bad |= l &^ ((u - 0x42*lo8) ^ (u - 0x70*lo8))
			bad |= ((x ^ 0xE0*lo8 - lo8) | (x ^ 0xED*lo8 - lo8)) & x
			bad |= (x ^ q.flip - q.below) &^ x
			l = y & (y << 1)
			l3 = l & (y << 2)
			bad |= y ^ l ^ (l<<8 | l3<<16 | mid)
			u = y | hi8
			bad |= l &^ ((u - 0x42*lo8) ^ (u - 0x70*lo8))
			bad |= ((y ^ 0xE0*lo8 - lo8) | (y ^ 0xED*lo8 - lo8)) & y
			bad |= (y ^ q.flip - q.below) &^ y
			if bad&hi8 != 0 {
				break
			}
			carry = l>>56 | l3>>48
			i += 16
		}
		carry &= hi8
		// Back to the start of a sequence that crosses into the block.
		if carry != 0 {
			i--
			if s[i] < 0xC0 {
				i--
			}
		}
		// The block that ended the loop, one character at a time.
		for end := min(i+16, len(s)); i < end; {
			c := s[i]
			switch {
			case c < 0x80:
				if c == '\r' && q.crOn || c == 0 && q.nulOn {
					return i, high
				}
				i++
			case c-0xC2 <= 0xDF-0xC2:
				if i+1 >= len(s) || s[i+1]&0xC0 != 0x80 {
					return i, high
				}
				i += 2
			case c-0xE1 <= 0xEF-0xE1 && c != 0xED:
				if i+2 >= len(s) || s[i+1]&0xC0 != 0x80 || s[i+2]&0xC0 != 0x80 {
					return i, high
				}
				i += 3
			default:
				return i, high
			}
		}
	}
	return i, high
}

// mixedWord checks x, eight bytes in memory order, for the fast path of
// the UTF-8 decoder: it returns 0 if every byte is clean ASCII (as the
// prefilter says, for flip and below; some other C0 controls are refused
// too), the lead or trail byte of a two-byte sequence with lead C2-DF, or
// of a three-byte sequence with lead E1-EC or EE-EF (E0 and ED bound their
// first trail byte more tightly, so they are left to the careful path),
// with the trail bytes that carry says sequences begun before x expect at
// its start; and a word with a bit set otherwise. It also returns the carry
// for the next word: the high bits of its first two bytes set where
// sequences begun in x expect trail bytes.
func mixedWord(x, carry, flip, below uint64) (bad, next uint64) {
	h := x & hi8
	lead := x << 1 & h     // 11xxxxxx
	lead3 := x << 2 & lead // 111xxxxx
	trail := h ^ lead      // 10xxxxxx
	// Every trail byte where a lead expects one, and nowhere else.
	bad = trail ^ (lead<<8 | lead3<<16 | carry)
	// Leads C2-EF: with bit 7 set, the low seven bits from 0x42 and below
	// 0x70 (no borrow crosses a byte).
	u := x | hi8
	bad |= lead &^ ((u - 0x42*lo8) ^ (u - 0x70*lo8))
	// No E0 or ED (spurious bits only above a byte that is one).
	e0, ed := x^0xE0*lo8, x^0xED*lo8
	bad |= (e0-lo8)&^e0 | (ed-lo8)&^ed
	// CR and NUL, as the prefilter sees them, among the ASCII bytes.
	bad |= (x ^ flip - below) &^ x
	return bad & hi8, lead>>56 | lead3>>48
}

// four3 reports whether x and y, each eight bytes in memory order, each
// start with two three-byte sequences with leads E1-EC or EE-EF: the leads
// and trails match their bit patterns (E0-EF, 80-BF), and no lead's low
// nibble is 0 or D (E0 and ED bound their first trail byte more tightly,
// so they are left to the careful path).
func four3(x, y uint64) bool {
	const mask, want = 0xC0C0F0C0C0F0, 0x8080E08080E0
	if (x&mask^want)|(y&mask^want) != 0 {
		return false
	}
	// The leads' low nibbles in bytes 0, 1, 3 and 4; a nibble n sets bit
	// 4 of n+0x0F exactly when it is not 0.
	const lo, d, bit4 = 0x0F0F000F0F, 0x0D0D000D0D, 0x1010001010
	z := x&0x0F00000F | y&0x0F00000F<<8
	return (z+lo)&(z^d+lo)&bit4 == bit4
}

// four2 reports whether x, eight bytes in memory order, holds four
// two-byte sequences: leads C2-DF (the pattern C0-DF, and not C0 or C1,
// whose bits 1-4 are clear) each followed by a trail byte 80-BF.
func four2(x uint64) bool {
	const mask, want = 0xC0E0C0E0C0E0C0E0, 0x80C080C080C080C0
	// Bits 1-4 of a lead, b, set bit 7 of b+0x7E exactly when not all 0.
	const bits14, add, bit7 = 0x001E001E001E001E, 0x007E007E007E007E, 0x0080008000800080
	return x&mask == want && (x&bits14+add)&bit7 == bit7
}
