package codec

// eucJPStep is one step of the EUC-JP decoder at a byte 0x80 or above (see
// dbcsStep).
//
// It follows the EUC-JP decoder
// (https://encoding.spec.whatwg.org/#euc-jp-decoder). An incomplete
// sequence at the end of src is left there (ErrShortSrc) rather than kept as
// EUC-JP leading and EUC-JP jis0212.
func eucJPStep(s []byte, atEOF bool) (r, r2 rune, size int, short bool) {
	c := s[0]
	r, r2, size = 0xFFFD, -1, 1
	switch {
	case c != 0x8E && c != 0x8F && (c < 0xA1 || c == 0xFF):
		// Error.
	case len(s) <= 1:
		if !atEOF {
			return 0, -1, 0, true
		}
	default:
		c1 := s[1]
		switch {
		case c == 0x8E && c1 >= 0xA1 && c1 <= 0xDF:
			// Halfwidth katakana.
			r, size = 0xFF61-0xA1+rune(c1), 2
		case c == 0x8F && c1 >= 0xA1 && c1 <= 0xFE:
			// JIS X 0212: "set EUC-JP jis0212 to true, set EUC-JP
			// leading to byte".
			if len(s) <= 2 {
				if !atEOF {
					return 0, -1, 0, true
				}
				size = 2
				break
			}
			c2 := s[2]
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
	return r, r2, size, false
}
