package decode

import (
	"encoding/binary"
	"math/bits"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/override"
)

// A byte table maps each byte of a single-byte encoding to its UTF-8 form,
// ready to store: the UTF-8 bytes in the low three bytes (little-endian, so
// a 4-byte store writes them in order) and their count in the high byte.
// NUL and CR have count 0, so that the table loop stops at them and leaves
// them to the preprocessing.
//
// The tables are built from codec.SingleByteTable on first use (28 of
// them, 1 KB each) and shared by all readers.

var (
	tablesOnce sync.Once
	tables     [override.NumEncodings + 1]*[256]uint32
)

// byteTable returns the byte table of e, a single-byte encoding or
// x-user-defined.
func byteTable(e override.Encoding) *[256]uint32 {
	tablesOnce.Do(buildTables)
	return tables[e]
}

func buildTables() {
	for _, e := range override.All() {
		var high [128]rune
		switch {
		case codec.IsSingleByte(e):
			high = *codec.SingleByteTable(e)
		case e == override.XUserDefined:
			// The x-user-defined decoder: a byte b above 0x7F is
			// U+F780 + b - 0x80.
			for i := range high {
				high[i] = 0xF780 + rune(i)
			}
		default:
			continue
		}
		t := new([256]uint32)
		for b := range 256 {
			r := rune(b)
			if b >= 0x80 {
				r = high[b-0x80]
			}
			t[b] = packRune(r)
		}
		t[0] = 0
		t['\r'] = 0
		tables[e] = t
	}
}

// packRune returns the table entry for r, which must be in the BMP.
func packRune(r rune) uint32 {
	var b [4]byte
	n := utf8.EncodeRune(b[:], r)
	b[3] = byte(n)
	return binary.LittleEndian.Uint32(b[:])
}

// tableDecode is Transform on pathTable.
func (d *decoder) tableDecode(dst, src []byte) (nDst, nSrc int, err error) {
	t := d.table
	nSrc = d.skipLF(src)
	for nSrc < len(src) {
		i, j := tableRun(dst[nDst:], src[nSrc:], t, &d.pat)
		nSrc += i
		nDst += j
		// tableRun writes one byte for each ASCII byte and two or three
		// for the others.
		if j > i {
			d.high = true
		}
		if nSrc == len(src) {
			break
		}
		// Byte by byte, with exact room checks, up to and including the
		// first CR or NUL, or for eight bytes near the ends of the
		// buffers.
		for k := 0; k < 8 && nSrc < len(src); k++ {
			c := src[nSrc]
			v := t[c]
			n := int(v >> 24)
			if n == 0 {
				w, r := d.special(dst[nDst:], src[nSrc:])
				if w < 0 {
					return nDst, nSrc, transform.ErrShortDst
				}
				nDst += w
				nSrc += r
				break
			}
			if len(dst)-nDst < n {
				return nDst, nSrc, transform.ErrShortDst
			}
			for i := range n {
				dst[nDst+i] = byte(v >> (8 * i))
			}
			nDst += n
			nSrc++
			if n > 1 {
				d.high = true
			}
		}
	}
	return nDst, nSrc, nil
}

// tableRun is the fast loop of tableDecode. It works a word of eight input
// bytes at a time while there are eight bytes of input and 12 of room, and
// returns the bytes read and written. A clean ASCII word is copied as it
// is. A word with CR or NUL (which the table leaves out) is copied up to
// that byte, and tableRun stops there for tableDecode. A word with one
// non-ASCII byte is copied up to it, the byte goes through the table with
// one 4-byte store, and the next word starts right after it: text in a
// Latin script, where most words hold at most one accented letter, costs a
// word step for each. A word with two or more goes through the table byte
// by byte, unrolled, into a 64-byte window of dst whose offsets the
// compiler can prove in range (when 64 bytes of room are left; else the
// one-byte step serves). (Cachegrind, instructions a byte of
// BenchmarkDecode through WriteTo: windows-1251 Russian, a plain byte loop
// 31.7, the unrolled word 13.0, 13.6 with the step; windows-1252 French,
// unrolled words only 7.6, with the step 5.7.)
func tableRun(dst, src []byte, t *[256]uint32, p *patterns) (i, j int) {
	q := *p
	for i <= len(src)-8 && j <= len(dst)-12 {
		x := binary.LittleEndian.Uint64(src[i : i+8])
		if q.rawMaybe(x) == 0 {
			binary.LittleEndian.PutUint64(dst[j:j+8], x)
			i += 8
			j += 8
			continue
		}
		high := x & hi8
		crnul := zeroBytes(x^crPattern) | zeroBytes(x)
		stop := high | crnul
		if stop == 0 {
			// ASCII with TAB or LF, which the prefilter flags.
			binary.LittleEndian.PutUint64(dst[j:j+8], x)
			i += 8
			j += 8
			continue
		}
		if high&(high-1) == 0 || j+64 > len(dst) {
			// Copy the word; the bytes past the first that needs the
			// table (or is CR or NUL) are written again later.
			binary.LittleEndian.PutUint64(dst[j:j+8], x)
			k := bits.TrailingZeros64(stop) >> 3
			i += k
			j += k
			v := t[src[i]]
			if v>>24 == 0 {
				// CR or NUL: tableDecode's preprocessing.
				return i, j
			}
			binary.LittleEndian.PutUint32(dst[j:j+4], v)
			i++
			j += int(v >> 24)
			continue
		}
		if crnul != 0 {
			// CR or NUL among many non-ASCII bytes: byte by byte in
			// tableDecode.
			return i, j
		}
		b := (*[8]byte)(src[i : i+8])
		w := (*[64]byte)(dst[j : j+64])
		v := t[b[0]]
		binary.LittleEndian.PutUint32(w[0:], v)
		o := int(v >> 24)
		v = t[b[1]]
		binary.LittleEndian.PutUint32(w[o&31:], v)
		o += int(v >> 24)
		v = t[b[2]]
		binary.LittleEndian.PutUint32(w[o&31:], v)
		o += int(v >> 24)
		v = t[b[3]]
		binary.LittleEndian.PutUint32(w[o&31:], v)
		o += int(v >> 24)
		v = t[b[4]]
		binary.LittleEndian.PutUint32(w[o&31:], v)
		o += int(v >> 24)
		v = t[b[5]]
		binary.LittleEndian.PutUint32(w[o&31:], v)
		o += int(v >> 24)
		v = t[b[6]]
		binary.LittleEndian.PutUint32(w[o&31:], v)
		o += int(v >> 24)
		v = t[b[7]]
		binary.LittleEndian.PutUint32(w[o&31:], v)
		o += int(v >> 24)
		i += 8
		j += o
	}
	return i, j
}
