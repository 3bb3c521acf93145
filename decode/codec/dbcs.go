package codec

import (
	"encoding/binary"
	"math/bits"
	"sync"

	"golang.org/x/text/transform"
)

// dbcsTables drive the fast path shared by the double-byte decoders
// (Shift_JIS, EUC-JP, gb18030/GBK, Big5, EUC-KR): ASCII bytes, and lead-trail
// byte pairs whose pointer is in the index and decodes to one code point
// from U+0080 to U+FFFF. Everything else (errors, EUDC, four-byte gb18030 sequences,
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
	// utf8 holds each index entry's code point in UTF-8 as a singlebyte
	// table entry, or 0 where the fast path does not apply. Only EUC-JP's is
	// kept once pair is built (ISO-2022-JP's decoder uses it).
	utf8 []uint32
	// pair holds the entry of each lead-trail pair (see buildPair),
	// indexed by lead<<8 | trail, the two bytes read as a big-endian
	// uint16, so that the pairs of a row are neighbours in memory: one
	// load for a character. It takes 256 KB, built when the encoding is
	// first used (80-200 µs).
	pair *[1 << 16]uint32
}

// dbcsNone marks a byte that is not on the fast path: a pointer computed
// with it is past the end of every index.
const dbcsNone = 1 << 24

// dbcsLayout says where an index has the pointer of each lead-trail pair
// of the fast path, as the Encoding Standard computes it: (lead - leading
// offset) × row + (trail - offset), less the index's first pointer.
type dbcsLayout struct {
	row      uint32      // pointers a row of the index has, one lead byte's
	first    uint32      // the index's first pointer
	leads    []dbcsRange // the lead bytes of the fast path, offset: leading offset
	trails   []dbcsRange // the trail bytes of the fast path
	keepUTF8 bool        // keep utf8 once pair is built (EUC-JP's: ISO-2022-JP uses it)
}

// dbcsRange is the bytes lo to hi of a lead or trail byte range, whose
// pointers are computed with offset.
type dbcsRange struct{ lo, hi, offset byte }

// dbcsOnce returns a function that builds the fast-path tables of index
// (pointers from l.first) laid out as l, on its first call.
func dbcsOnce[T uint16 | uint32](index []T, l dbcsLayout) func() *dbcsTables {
	return sync.OnceValue(func() *dbcsTables {
		t := newDBCSTables(index)
		for _, r := range l.leads {
			setRange(&t.lead, r, l.row, l.first)
		}
		for _, r := range l.trails {
			setRange(&t.trail, r, 1, 0)
		}
		t.buildPair()
		if !l.keepUTF8 {
			t.utf8 = nil
		}
		return t
	})
}

// setRange sets t[c] to (c - r.offset) × step - first for each byte c of r.
func setRange(t *[256]uint32, r dbcsRange, step, first uint32) {
	for c := int(r.lo); c <= int(r.hi); c++ {
		t[c] = uint32(c-int(r.offset))*step - first
	}
}

// newDBCSTables returns tables with every byte off the fast path and the
// UTF-8 of index.
func newDBCSTables[T uint16 | uint32](index []T) *dbcsTables {
	t := &dbcsTables{utf8: make([]uint32, len(index))}
	for i := range t.lead {
		t.lead[i], t.trail[i] = dbcsNone, dbcsNone
	}
	var buf [4]byte
	for p, cp := range index {
		if cp < 0x80 || cp > 0xFFFF {
			continue
		}
		n := putRune(buf[:], rune(cp))
		t.utf8[p] = uint32(n)<<24 | uint32(buf[0]) | uint32(buf[1])<<8 | uint32(buf[2])<<16
	}
	return t
}

// buildPair fills t.pair from t.lead, t.trail and t.utf8. A pair entry
// is 0 for a pair off the fast path (and for every lead byte below 0x80);
// otherwise it has the UTF-8 bytes in its low three bytes and their count
// (2 or 3) in its top two bits, so that bit 31 is set in every entry of
// the fast path, and bit 30 (dbcsThree) in those of three bytes.
func (t *dbcsTables) buildPair() {
	t.pair = new([1 << 16]uint32)
	for c := 0x80; c <= 0xFF; c++ {
		l := uint(t.lead[c])
		if l >= uint(len(t.utf8)) {
			continue
		}
		row := t.pair[c<<8 : c<<8+256]
		for b := range row {
			if p := l + uint(t.trail[b]); p < uint(len(t.utf8)) {
				if e := t.utf8[p]; e != 0 {
					row[b] = e&0xFFFFFF | e>>24<<30
				}
			}
		}
	}
}

// dbcsFast decodes the prefix of src that is on the fast path of t into dst,
// and returns how much it wrote and read. It stops before the first byte it
// cannot handle, and when src has fewer than two bytes (one, if it is
// ASCII) or dst fewer than four bytes left.
//
// The work is done by dbcsBlockRun on blocks of about dbcsBlock bytes,
// through array pointers of dbcsWindow bytes that spare it the bounds
// checks, then by dbcsShortBlocks near the end of src or dst, and the last
// few bytes a character at a time.
func dbcsFast(t *dbcsTables, dst, src []byte) (nDst, nSrc int) {
	pair := t.pair
	i, j := 0, 0
	for len(src)-i >= dbcsWindow && len(dst)-j >= dbcsWindow {
		k, m, ok := dbcsBlockRun(pair, (*[dbcsWindow]byte)(dst[j:]), (*[dbcsWindow]byte)(src[i:]), dbcsBlock)
		i += int(k)
		j += int(m)
		if !ok {
			return j, i
		}
	}
	if min(len(src)-i, (len(dst)-j)*2/3-dbcsReach) >= 16 {
		i, j = dbcsShortBlocks(pair, dst, src, i, j)
	}
	// The last few bytes, a character at a time.
	for i < len(src)-1 && j <= len(dst)-4 {
		c := src[i]
		if c < 0x80 {
			dst[j] = c
			i++
			j++
			continue
		}
		e := pair[uint16(c)<<8|uint16(src[i+1])]
		if e == 0 {
			break
		}
		binary.LittleEndian.PutUint32(dst[j:], e)
		i += 2
		j += int(e >> 30)
	}
	if i == len(src)-1 && j < len(dst) && src[i] < 0x80 {
		dst[j] = src[i]
		i++
		j++
	}
	return j, i
}

// dbcsShortBlocks goes on with dbcsFast from src[i:] and dst[j:] when one
// of them is shorter than dbcsWindow, while blocks of 16 bytes or more
// fit: near the end of src the block is a copy on the stack followed by
// 0xFF bytes (never a lead or trail byte of the fast path, so the block
// stops there); near the end of dst the block is decoded into a buffer on
// the stack, no further than fits into dst, and then copied.
func dbcsShortBlocks(pair *[1 << 16]uint32, dst, src []byte, i, j int) (int, int) {
	var sBuf, dBuf [dbcsWindow]byte
	for {
		// Each step of dbcsBlockRun starts below the limit it is given
		// and ends less than dbcsReach source bytes past it, and the
		// block writes at most 3 bytes for 2 it reads.
		limit := dbcsBlock
		s, d := &sBuf, &dBuf
		if len(src)-i >= dbcsWindow {
			s = (*[dbcsWindow]byte)(src[i:])
		} else {
			limit = min(limit, len(src)-i)
			copy(s[:], src[i:i+limit])
			binary.LittleEndian.PutUint64(s[limit:], ^uint64(0))
		}
		if len(dst)-j >= dbcsWindow {
			d = (*[dbcsWindow]byte)(dst[j:])
		} else {
			limit = min(limit, (len(dst)-j)*2/3-dbcsReach)
		}
		if limit < 16 {
			return i, j
		}
		k, m, ok := dbcsBlockRun(pair, d, s, uint(limit))
		if d == &dBuf {
			copy(dst[j:], d[:m])
		}
		i += int(k)
		j += int(m)
		if k == 0 || !ok && (s != &sBuf || int(k)+1 < limit) {
			// Stopped before the end of the block: at a byte off the
			// fast path.
			return i, j
		}
	}
}

// dbcsBlockRunGeneric decodes a block of s into d, as dbcsFast does,
// starting steps while it has read fewer than limit bytes, and returns how
// much it read and wrote, and false if it stopped at a byte off the fast
// path. It is dbcsBlockRun where the assembly does not run (dbcs_other.go),
// and the Go twin the assembly (dbcs_amd64.s) follows step for step: for
// the same input the two return the same k, m and ok and write the same
// d[:m] (FuzzDBCSBlockRunTwin).
// The array lengths let the compiler drop the bounds checks: k < limit <=
// dbcsBlock before each step, k < limit+2 < 256 at every load of eight
// bytes (k <= limit-32 for 32), and m <= 3*k/2 < 256 at every store, so
// masking k and m with 255 changes nothing.
//
// The step for two characters tests the two lead bytes before it looks
// them up: a run of characters ends (a branch the processor cannot
// predict) as soon as the bytes are loaded, not after the table loads
// (through the decode Reader, 5-10% less CPU time for the Shift_JIS,
// EUC-JP and GBK corpora, for 0.6-0.8 more instructions a byte).
func dbcsBlockRunGeneric(pair *[1 << 16]uint32, d, s *[dbcsWindow]byte, limit uint) (k, m uint, ok bool) {
	limit = min(limit, dbcsBlock)
	// Nil checks here spare the loop its own.
	_, _, _ = pair[0], d[0], s[0]
	for k < limit {
		// The four bytes read big-endian hold the indexes of two pairs.
		lx := binary.LittleEndian.Uint32(s[k:])
		x := bits.ReverseBytes32(lx)
		if lx&0x800080 == 0x800080 {
			// Two lead bytes: two characters at once. This test, which
			// ends a run of characters, depends on the loaded bytes
			// only, not on the table.
			e1, e2 := pair[x>>16], pair[uint16(x)]
			if e1&e2&dbcsThree != 0 {
				// Both are three bytes of UTF-8, as are all kana, kanji,
				// hanzi and hangul.
				mm := m & 255
				binary.LittleEndian.PutUint32(d[mm:], e1)
				binary.LittleEndian.PutUint32(d[mm+3:], e2)
				k += 4
				m += 6
				continue
			}
			// A character of two bytes of UTF-8, or a pair off the fast
			// path: one at a time.
			n1 := uint(e1 >> 30)
			if n1 == 0 {
				return k, m, false
			}
			binary.LittleEndian.PutUint32(d[m&255:], e1)
			k += 2
			m += n1
			continue
		}
		// Byte 0 or byte 2 is ASCII. Byte 0 is one character if it is a
		// lead byte (a is 2), then ASCII follows.
		e1 := pair[x>>16]
		n1 := uint(e1 >> 30)
		a := uint(lx>>6) & 2
		if a&^n1 != 0 {
			// A lead byte off the fast path.
			return k, m, false
		}
		binary.LittleEndian.PutUint32(d[m&255:], e1)
		k += a
		m += n1
		// Store eight bytes and keep their ASCII prefix, and go on while
		// they are all ASCII.
		for {
			w := binary.LittleEndian.Uint64(s[k&255:])
			binary.LittleEndian.PutUint64(d[m&255:], w)
			n := uint(bits.TrailingZeros64(w&asciiMask) >> 3)
			k += n
			m += n
			if n < 8 || k >= limit {
				break
			}
			// A long run (English, markup): 32 bytes at a time while
			// they are all ASCII.
			for k+32 <= limit {
				kk, mm := k&255, m&255
				w0 := binary.LittleEndian.Uint64(s[kk:])
				w1 := binary.LittleEndian.Uint64(s[kk+8:])
				w2 := binary.LittleEndian.Uint64(s[kk+16:])
				w3 := binary.LittleEndian.Uint64(s[kk+24:])
				if (w0|w1|w2|w3)&asciiMask != 0 {
					break
				}
				binary.LittleEndian.PutUint64(d[mm:], w0)
				binary.LittleEndian.PutUint64(d[mm+8:], w1)
				binary.LittleEndian.PutUint64(d[mm+16:], w2)
				binary.LittleEndian.PutUint64(d[mm+24:], w3)
				k += 32
				m += 32
			}
		}
	}
	return k, m, true
}

const (
	// dbcsThree is set in the pair entries of characters that are three
	// bytes of UTF-8.
	dbcsThree = 1 << 30
	// dbcsBlock is the number of source bytes dbcsFast decodes, roughly,
	// between two checks of the buffer lengths.
	dbcsBlock = 160
	// dbcsWindow is the room in src and dst that a block needs.
	dbcsWindow = 288
	// dbcsReach bounds how far past its limit dbcsBlockRun reads: a step
	// that starts before limit ends less than dbcsReach bytes after it.
	dbcsReach = 10
)

// The fast-path tables of each decoder, built on first use, and where
// their pairs are in their indexes: the Encoding Standard's pointer
// formulas.
var (
	// Leads 0x81-0x9F and 0xE0-0xFC, but not the EUDC leads 0xF0-0xF9.
	shiftJISTables = dbcsOnce(jis0208Index[:], dbcsLayout{
		row:    188,
		leads:  []dbcsRange{{0x81, 0x9F, 0x81}, {0xE0, 0xEF, 0xC1}, {0xFA, 0xFC, 0xC1}},
		trails: []dbcsRange{{0x40, 0x7E, 0x40}, {0x80, 0xFC, 0x41}},
	})
	eucJPTables = dbcsOnce(jis0208Index[:], dbcsLayout{
		row:      94,
		leads:    []dbcsRange{{0xA1, 0xFE, 0xA1}},
		trails:   []dbcsRange{{0xA1, 0xFE, 0xA1}},
		keepUTF8: true,
	})
	// Trail bytes 0x30-0x39 start a four-byte sequence.
	gb18030Tables = dbcsOnce(gb18030Index[:], dbcsLayout{
		row:    190,
		leads:  []dbcsRange{{0x81, 0xFE, 0x81}},
		trails: []dbcsRange{{0x40, 0x7E, 0x40}, {0x80, 0xFE, 0x41}},
	})
	// Leads below 0x87 have no pointer in the index, nor have the four
	// pointers that decode to two code points (big5Step's).
	big5Tables = dbcsOnce(big5Index[:], dbcsLayout{
		row:    157,
		first:  big5First,
		leads:  []dbcsRange{{0x87, 0xFE, 0x81}},
		trails: []dbcsRange{{0x40, 0x7E, 0x40}, {0xA1, 0xFE, 0x62}},
	})
	eucKRTables = dbcsOnce(eucKRIndex[:], dbcsLayout{
		row:    190,
		leads:  []dbcsRange{{0x81, 0xFE, 0x81}},
		trails: []dbcsRange{{0x41, 0xFE, 0x41}},
	})
)

// dbcsStep is one step of a double-byte decoder of the standard, for what
// dbcsFast leaves: s starts at a byte 0x80 or above. It returns the code
// point the bytes decode to (U+FFFD for an error), a second one or -1 (Big5
// has four pointers that decode to two), and how many bytes of s it
// consumed; or short when s ends inside a sequence and atEOF is false, so
// the caller must offer those bytes again with more input.
type dbcsStep func(s []byte, atEOF bool) (r, r2 rune, size int, short bool)

// dbcsDecoder is the decoder of a double-byte encoding (Shift_JIS, EUC-JP,
// gb18030 and GBK, Big5, EUC-KR): dbcsTransform with the encoding's fast
// path tables and step. It keeps no state between calls: an incomplete
// sequence at the end of src is left there (ErrShortSrc), so the
// standard's "leading" bytes are plain lookahead.
type dbcsDecoder struct {
	transform.NopResetter
	fast *dbcsTables
	step dbcsStep
}

// Transform implements transform.Transformer.
func (d *dbcsDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	return dbcsTransform(d.fast, d.step, dst, src, atEOF)
}

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
