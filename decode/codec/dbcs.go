package codec

import (
	"encoding/binary"
	"sync"

	"golang.org/x/text/transform"
)

// dbcsTables drive the fast path shared by the double-byte decoders
// (Shift_JIS, EUC-JP, gb18030/GBK, Big5, EUC-KR): ASCII bytes, and lead-trail
// byte pairs whose pointer is in the index and decodes to one code point
// below U+10000. Everything else (errors, EUDC, four-byte gb18030 sequences,
// JIS X 0212, halfwidth katakana, Big5's pairs and supplementary code points,
// the end of the buffers) is left to each decoder's own step-by-step code,
// which follows the standard.
type dbcsTables struct {
	// lead holds, for each lead byte of the fast path, the pointer of its
	// row's first trail byte minus the index's first pointer; dbcsNone for
	// any other byte.
	lead [256]uint32
	// trail holds, for each trail byte of the fast path, its offset in the
	// row; dbcsNone for any other byte.
	trail [256]uint32
	// utf8 holds each index entry's code point in UTF-8 as a utf8Table
	// entry, or 0 where the fast path does not apply.
	utf8 []uint32
}

// dbcsNone marks a byte that is not on the fast path: a pointer computed
// with it is past the end of every index.
const dbcsNone = 1 << 24

// setRange sets t[lo..hi] to base, base+step, base+2*step, ...
func setRange(t *[256]uint32, lo, hi byte, base, step uint32) {
	for c := int(lo); c <= int(hi); c++ {
		t[c] = base + uint32(c-int(lo))*step
	}
}

// newDBCSTables returns tables with every byte off the fast path and the
// UTF-8 of index, whose first entry is for pointer first.
func newDBCSTables[T uint16 | uint32](index []T) *dbcsTables {
	t := &dbcsTables{utf8: make([]uint32, len(index))}
	for i := range t.lead {
		t.lead[i], t.trail[i] = dbcsNone, dbcsNone
	}
	var buf [4]byte
	for p, cp := range index {
		if cp == 0 || cp > 0xFFFF {
			continue
		}
		n := putRune(buf[:], rune(cp))
		t.utf8[p] = uint32(n)<<24 | uint32(buf[0]) | uint32(buf[1])<<8 | uint32(buf[2])<<16
	}
	return t
}

// dbcsFast decodes the prefix of src that is on the fast path of t into dst,
// and returns how much it wrote and read. It stops before the first byte it
// cannot handle, and when src has fewer than two bytes or dst fewer than four
// bytes left. It works with indexes rather than by reslicing: the slice
// updates (a length, a capacity and a masked pointer each) were half its
// instructions (Shift_JIS through the decode Reader, cachegrind: 25.7
// instructions a byte before, 18.7 after).
func dbcsFast(t *dbcsTables, dst, src []byte) (nDst, nSrc int) {
	utf := t.utf8
	lead, trail := &t.lead, &t.trail
	i, j := 0, 0
	for i < len(src)-1 && j <= len(dst)-4 {
		c := src[i]
		if c < 0x80 {
			// Try a word of ASCII at once, unless this is a lone ASCII
			// byte (a space between words).
			if src[i+1] < 0x80 && i <= len(src)-8 && j <= len(dst)-8 {
				if w := binary.LittleEndian.Uint64(src[i:]); w&asciiMask == 0 {
					binary.LittleEndian.PutUint64(dst[j:], w)
					i += 8
					j += 8
					continue
				}
			}
			dst[j] = c
			i++
			j++
			continue
		}
		p := uint(lead[c]) + uint(trail[src[i+1]])
		if p >= uint(len(utf)) {
			break
		}
		e := utf[p]
		if e == 0 {
			break
		}
		binary.LittleEndian.PutUint32(dst[j:], e)
		i += 2
		j += int(e >> 24)
	}
	return j, i
}

// The fast-path tables of each decoder, built on first use.
var (
	shiftJISTables = sync.OnceValue(func() *dbcsTables {
		t := newDBCSTables(jis0208Index[:])
		// Leads 0x81-0x9F and 0xE0-0xFC, but not the EUDC leads 0xF0-0xF9:
		// (leading - leadingOffset) × 188.
		setRange(&t.lead, 0x81, 0x9F, 0, 188)
		setRange(&t.lead, 0xE0, 0xEF, (0xE0-0xC1)*188, 188)
		setRange(&t.lead, 0xFA, 0xFC, (0xFA-0xC1)*188, 188)
		// Trails 0x40-0x7E and 0x80-0xFC: byte - offset.
		setRange(&t.trail, 0x40, 0x7E, 0, 1)
		setRange(&t.trail, 0x80, 0xFC, 0x80-0x41, 1)
		return t
	})
	eucJPTables = sync.OnceValue(func() *dbcsTables {
		t := newDBCSTables(jis0208Index[:])
		// (leading - 0xA1) × 94 + byte - 0xA1, both 0xA1-0xFE.
		setRange(&t.lead, 0xA1, 0xFE, 0, 94)
		setRange(&t.trail, 0xA1, 0xFE, 0, 1)
		return t
	})
	gb18030Tables = sync.OnceValue(func() *dbcsTables {
		t := newDBCSTables(gb18030Index[:])
		// (leading - 0x81) × 190 + (byte - offset), byte 0x40-0x7E or
		// 0x80-0xFE (0x30-0x39 start a four-byte sequence).
		setRange(&t.lead, 0x81, 0xFE, 0, 190)
		setRange(&t.trail, 0x40, 0x7E, 0, 1)
		setRange(&t.trail, 0x80, 0xFE, 0x80-0x41, 1)
		return t
	})
	big5Tables = sync.OnceValue(func() *dbcsTables {
		t := newDBCSTables(big5Index[:])
		// (leading - 0x81) × 157 + (byte - offset) - big5First; leads
		// below 0x87 have no pointer in the index.
		setRange(&t.lead, 0x87, 0xFE, (0x87-0x81)*157-big5First, 157)
		setRange(&t.trail, 0x40, 0x7E, 0, 1)
		setRange(&t.trail, 0xA1, 0xFE, 0xA1-0x62, 1)
		// The pointers that decode to two code points.
		for _, p := range []int{1133, 1135, 1164, 1166} {
			t.utf8[p-big5First] = 0
		}
		return t
	})
	eucKRTables = sync.OnceValue(func() *dbcsTables {
		t := newDBCSTables(eucKRIndex[:])
		// (leading - 0x81) × 190 + (byte - 0x41).
		setRange(&t.lead, 0x81, 0xFE, 0, 190)
		setRange(&t.trail, 0x41, 0xFE, 0, 1)
		return t
	})
)

// dbcsStep is one step of a double-byte decoder of the standard, for what
// dbcsFast leaves: s starts at a byte 0x80 or above. It returns the code
// point the bytes decode to (U+FFFD for an error), a second one or -1 (Big5
// has four pointers that decode to two), and how many bytes of s it
// consumed; or short when s ends inside a sequence and atEOF is false, so
// the caller must offer those bytes again with more input.
type dbcsStep func(s []byte, atEOF bool) (r, r2 rune, size int, short bool)

// dbcsTransform is the Transform of the double-byte decoders: dbcsFast for
// runs of ASCII and table characters, copyASCII for ASCII it stopped at, and
// step for the rest, one character at a time. It follows the
// transform.Transformer contract and keeps no state between calls.
func dbcsTransform(fast *dbcsTables, step dbcsStep, dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		n, m := dbcsFast(fast, dst[nDst:], src[nSrc:])
		nDst += n
		nSrc += m
		if nSrc >= len(src) {
			break
		}
		if src[nSrc] < 0x80 {
			n := copyASCII(dst[nDst:], src[nSrc:])
			if n == 0 {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += n
			nSrc += n
			continue
		}
		r, r2, size, short := step(src[nSrc:], atEOF)
		if short {
			return nDst, nSrc, transform.ErrShortSrc
		}
		n = putRune(dst[nDst:], r)
		if n == 0 {
			return nDst, nSrc, transform.ErrShortDst
		}
		if r2 >= 0 {
			n2 := putRune(dst[nDst+n:], r2)
			if n2 == 0 {
				return nDst, nSrc, transform.ErrShortDst
			}
			n += n2
		}
		nDst += n
		nSrc += size
	}
	return nDst, nSrc, nil
}
