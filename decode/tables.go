package decode

import (
	"encoding/binary"
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
	for nSrc < len(src) {
		if d.cr {
			d.cr = false
			if src[nSrc] == '\n' {
				nSrc++
				continue
			}
		}
		// The fast loop: four bytes of room for any byte.
		for nSrc < len(src) && nDst+4 <= len(dst) {
			c := src[nSrc]
			if c < 0x80 {
				if k := d.pat.copyASCII(dst[nDst:], src[nSrc:]); k > 0 {
					nDst += k
					nSrc += k
					continue
				}
			}
			v := t[c]
			if v>>24 == 0 {
				break
			}
			binary.LittleEndian.PutUint32(dst[nDst:], v)
			nDst += int(v >> 24)
			nSrc++
		}
		if nSrc == len(src) {
			break
		}
		// One byte, with exact room checks: CR, NUL, or the end of dst.
		c := src[nSrc]
		v := t[c]
		n := int(v >> 24)
		if n == 0 {
			w := d.special(dst[nDst:], c)
			if w < 0 {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += w
			nSrc++
			continue
		}
		if len(dst)-nDst < n {
			return nDst, nSrc, transform.ErrShortDst
		}
		for i := range n {
			dst[nDst+i] = byte(v >> (8 * i))
		}
		nDst += n
		nSrc++
	}
	return nDst, nSrc, nil
}
