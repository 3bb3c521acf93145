package codec

import (
	"encoding/binary"

	"golang.org/x/text/transform"
)

// singleByteDecoder implements the single-byte decoder
// (https://encoding.spec.whatwg.org/#single-byte-decoder), and the
// x-user-defined decoder, which has the same shape.
type singleByteDecoder struct {
	transform.NopResetter
	// table is singlebyte.Decode's table of the encoding: entry b is
	// the UTF-8 of byte b's code point, its length in the top byte.
	table *[256]uint32
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
