package codec

import "golang.org/x/text/transform"

// eucJPDecoder implements the EUC-JP decoder
// (https://encoding.spec.whatwg.org/#euc-jp-decoder). An incomplete
// sequence at the end of src is left there (ErrShortSrc) rather than kept as
// EUC-JP leading and EUC-JP jis0212.
type eucJPDecoder struct {
	transform.NopResetter
	fast *dbcsTables // eucJPTables()
}

// Transform implements transform.Transformer.
func (d *eucJPDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
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
		case c != 0x8E && c != 0x8F && (c < 0xA1 || c == 0xFF):
			// Error.
		case nSrc+1 >= len(src):
			if !atEOF {
				return nDst, nSrc, transform.ErrShortSrc
			}
		default:
			c1 := src[nSrc+1]
			switch {
			case c == 0x8E && c1 >= 0xA1 && c1 <= 0xDF:
				// Halfwidth katakana.
				r, size = 0xFF61-0xA1+rune(c1), 2
			case c == 0x8F && c1 >= 0xA1 && c1 <= 0xFE:
				// JIS X 0212: "set EUC-JP jis0212 to true, set EUC-JP
				// leading to byte".
				if nSrc+2 >= len(src) {
					if !atEOF {
						return nDst, nSrc, transform.ErrShortSrc
					}
					size = 2
					break
				}
				c2 := src[nSrc+2]
				size = 3
				if c2 >= 0xA1 && c2 <= 0xFE {
					if i := (int(c1)-0xA1)*94 + int(c2) - 0xA1 - jis0212First; i >= 0 && i < len(jis0212Index) {
						if cp := jis0212Index[i]; cp != 0 {
							r = rune(cp)
						}
					}
				} else if c2 < 0x80 {
					size = 2
				}
			default:
				size = 2
				if c >= 0xA1 && c1 >= 0xA1 && c1 <= 0xFE {
					if cp := jis0208Index[(int(c)-0xA1)*94+int(c1)-0xA1]; cp != 0 {
						r = rune(cp)
					}
				} else if c1 < 0x80 {
					size = 1
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
