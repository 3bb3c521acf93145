package codec

import "golang.org/x/text/transform"

// eucKRDecoder implements the EUC-KR decoder
// (https://encoding.spec.whatwg.org/#euc-kr-decoder). A lead byte at the end
// of src is left there (ErrShortSrc) rather than kept as EUC-KR leading.
type eucKRDecoder struct {
	transform.NopResetter
	fast *dbcsTables // eucKRTables()
}

// Transform implements transform.Transformer.
func (d *eucKRDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		n, m := dbcsFast(d.fast, dst[nDst:], src[nSrc:])
		nDst += n
		nSrc += m
		if nSrc >= len(src) {
			break
		}
		// One step of the standard's decoder for what the fast path left.
		c := src[nSrc]
		if c < 0x80 {
			n := copyASCII(dst[nDst:], src[nSrc:])
			if n == 0 {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += n
			nSrc += n
			continue
		}
		r, size := rune(0xFFFD), 1
		switch {
		case c == 0x80 || c == 0xFF:
			// Error.
		case nSrc+1 >= len(src):
			if !atEOF {
				return nDst, nSrc, transform.ErrShortSrc
			}
		default:
			c1 := src[nSrc+1]
			if c1 >= 0x80 {
				size = 2 // "If byte is an ASCII byte, restore byte": otherwise it is consumed.
			}
			if c1 >= 0x41 && c1 <= 0xFE {
				if i := (int(c)-0x81)*190 + int(c1) - 0x41; i < len(eucKRIndex) && eucKRIndex[i] != 0 {
					r, size = rune(eucKRIndex[i]), 2
				}
			}
		}
		n = putRune(dst[nDst:], r)
		if n == 0 {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += n
		nSrc += size
	}
	return nDst, nSrc, nil
}
