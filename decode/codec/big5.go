package codec

import "golang.org/x/text/transform"

// big5Decoder implements the Big5 decoder
// (https://encoding.spec.whatwg.org/#big5-decoder). A lead byte at the end
// of src is left there (ErrShortSrc) rather than kept as Big5 leading.
type big5Decoder struct {
	transform.NopResetter
	fast *dbcsTables // big5Tables()
}

// Transform implements transform.Transformer.
func (d *big5Decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
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
		r, r2, size := rune(0xFFFD), rune(-1), 1
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
			offset := 0x40
			if c1 >= 0x7F {
				offset = 0x62
			}
			if (c1 < 0x40 || c1 > 0x7E) && (c1 < 0xA1 || c1 > 0xFE) {
				break
			}
			pointer := (int(c)-0x81)*157 + int(c1) - offset
			// Four pointers decode to two code points each.
			switch pointer {
			case 1133:
				r, r2, size = 0x00CA, 0x0304, 2
			case 1135:
				r, r2, size = 0x00CA, 0x030C, 2
			case 1164:
				r, r2, size = 0x00EA, 0x0304, 2
			case 1166:
				r, r2, size = 0x00EA, 0x030C, 2
			default:
				if i := pointer - big5First; i >= 0 && i < len(big5Index) {
					if cp := big5Index[i]; cp != 0 {
						r, size = rune(cp), 2
					}
				}
			}
		}
		if r2 >= 0 {
			// Both combining pairs are two bytes each in UTF-8.
			if len(dst)-nDst < 4 {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += putRune(dst[nDst:], r)
			nDst += putRune(dst[nDst:], r2)
			nSrc += size
			continue
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
