package codec

import (
	"encoding/binary"
	"sync"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/override"
)

// A utf8Table holds the UTF-8 encoding of the code point of each of the 256
// byte values of a single-byte encoding: the bytes of the encoding in the
// low 24 bits, first byte lowest, and its length (1 to 3) in the top 8 bits.
// Writing an entry as a little-endian uint32 and advancing by its length
// writes the code point's UTF-8.
type utf8Table [256]uint32

// newUTF8Table returns the utf8Table of an encoding whose bytes 0x00-0x7F are
// ASCII and whose bytes 0x80-0xFF decode as high says. With stopCRNUL, the
// entries of NUL and CR are 0 (length 0).
func newUTF8Table(high *[128]rune, stopCRNUL bool) *utf8Table {
	var t utf8Table
	var buf [4]byte
	for b := range 256 {
		r := rune(b)
		if b >= 0x80 {
			r = high[b-0x80]
		}
		buf = [4]byte{} // no stale bytes past the code point's
		n := putRune(buf[:], r)
		if n == 0 || n > 3 {
			panic("codec: single-byte code point outside the BMP")
		}
		t[b] = uint32(n)<<24 | uint32(buf[0]) | uint32(buf[1])<<8 | uint32(buf[2])<<16
	}
	if stopCRNUL {
		t[0], t['\r'] = 0, 0
	}
	return &t
}

var (
	utf8TablesOnce [len(singleByteTables)]sync.Once
	utf8Tables     [len(singleByteTables)]*utf8Table
)

// singleByteUTF8Table returns the utf8Table of the single-byte encoding e,
// building it on first use.
func singleByteUTF8Table(e override.Encoding) *utf8Table {
	i := e - override.IBM866
	utf8TablesOnce[i].Do(func() { utf8Tables[i] = newUTF8Table(singleByteTables[i], false) })
	return utf8Tables[i]
}

// singleByteDecoder implements the single-byte decoder
// (https://encoding.spec.whatwg.org/#single-byte-decoder), and the
// x-user-defined decoder, which has the same shape.
type singleByteDecoder struct {
	transform.NopResetter
	table *utf8Table
}

// Transform implements transform.Transformer.
func (d *singleByteDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	t := d.table
	// Fast loop: while src has eight bytes and dst room for them in the
	// worst case (3 bytes each, written 4 at a time, in a 64-byte window), copy an all-ASCII word
	// at once or else decode its eight bytes through the table.
	for nSrc+8 <= len(src) && nDst+64 <= len(dst) {
		w := binary.LittleEndian.Uint64(src[nSrc:])
		if w&asciiMask == 0 {
			binary.LittleEndian.PutUint64(dst[nDst:], w)
			nSrc += 8
			nDst += 8
			continue
		}
		d := (*[64]byte)(dst[nDst : nDst+64])
		j := put(d, 0, t[byte(w)])
		j = put(d, j, t[byte(w>>8)])
		j = put(d, j, t[byte(w>>16)])
		j = put(d, j, t[byte(w>>24)])
		j = put(d, j, t[byte(w>>32)])
		j = put(d, j, t[byte(w>>40)])
		j = put(d, j, t[byte(w>>48)])
		j = put(d, j, t[byte(w>>56)])
		nSrc += 8
		nDst += j
	}
	for ; nSrc < len(src); nSrc++ {
		e := t[src[nSrc]]
		n := int(e >> 24)
		if len(dst)-nDst < n {
			return nDst, nSrc, transform.ErrShortDst
		}
		for k := range n {
			dst[nDst+k] = byte(e >> (8 * k))
		}
		nDst += n
	}
	return nDst, nSrc, nil
}

// put writes the utf8Table entry e at d[j:] and returns the offset after the
// code point's UTF-8. j is at most 7*3 here; masking it with 31 lets the
// compiler drop the bounds checks.
func put(d *[64]byte, j int, e uint32) int {
	binary.LittleEndian.PutUint32(d[j&31:], e)
	return j + int(e>>24)
}

// xUserDefinedHigh holds the code points of the x-user-defined decoder
// (https://encoding.spec.whatwg.org/#x-user-defined-decoder) for the bytes
// 0x80-0xFF: "0xF780 + byte - 0x80".
var xUserDefinedHigh = func() *[128]rune {
	var t [128]rune
	for i := range t {
		t[i] = 0xF780 + rune(i)
	}
	return &t
}()

var (
	xUserDefinedOnce  sync.Once
	xUserDefinedTable *utf8Table
)

// newXUserDefinedDecoder returns an x-user-defined decoder.
func newXUserDefinedDecoder() *singleByteDecoder {
	xUserDefinedOnce.Do(func() { xUserDefinedTable = newUTF8Table(xUserDefinedHigh, false) })
	return &singleByteDecoder{table: xUserDefinedTable}
}

var (
	preprocessOnce   [override.NumEncodings + 1]sync.Once
	preprocessTables [override.NumEncodings + 1]*utf8Table
)

// PreprocessTable returns the UTF-8 table of e, a single-byte encoding or
// x-user-defined (nil for any other), for a decoder that deals with NUL
// and CR itself, as package decode's HTML preprocessing does: entry b holds
// the UTF-8 encoding of the code point of byte b in its low 24 bits, first
// byte lowest, and its length (1 to 3) in its top 8 bits, except that the
// entries of NUL and CR are 0. Storing an entry as a little-endian uint32
// and advancing by its length writes the code point's UTF-8. The table is
// built on first use and shared: callers must not modify it.
func PreprocessTable(e override.Encoding) *[256]uint32 {
	high := SingleByteTable(e)
	if high == nil {
		return nil
	}
	preprocessOnce[e].Do(func() { preprocessTables[e] = newUTF8Table(high, true) })
	return (*[256]uint32)(preprocessTables[e])
}
