package codec

import (
	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/decode/internal/singlebyte"
)

// singleByteDecoder implements the single-byte decoder
// (https://encoding.spec.whatwg.org/#single-byte-decoder), and the
// x-user-defined decoder, which has the same shape.
type singleByteDecoder struct {
	transform.NopResetter
	// table is singlebyte.Decode's table of the encoding: entry b is
	// the UTF-8 of byte b's code point, its length in the top byte.
	table *[256]uint32
	// vec is singlebyte.Vec of the encoding, for singlebyte.Dense.
	vec *singlebyte.Vector
}

// Transform implements transform.Transformer.
func (d *singleByteDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	t := d.table
	// Fast loop: while src has eight bytes and dst room for them in the
	// worst case (3 bytes each, written 4 at a time, in a 64-byte window),
	// an all-ASCII word at once or else its eight bytes through the table;
	// 64 bytes a step with AVX-512 (singlebyte.Dense). No entry of a Decode
	// table has length 0, as Dense asks.
	nSrc, nDst = singlebyte.Dense(dst, src, t, d.vec)
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
