package codec

// eucKRStep is one step of the EUC-KR decoder at a byte 0x80 or above (see
// dbcsStep).
//
// It follows the EUC-KR decoder
// (https://encoding.spec.whatwg.org/#euc-kr-decoder). A lead byte at the end
// of src is left there (ErrShortSrc) rather than kept as EUC-KR leading.
func eucKRStep(s []byte, atEOF bool) (r, r2 rune, size int, short bool) {
	c := s[0]
	r, r2, size = 0xFFFD, -1, 1
	switch {
	case c == 0x80 || c == 0xFF:
		// Error.
	case len(s) <= 1:
		if !atEOF {
			return 0, -1, 0, true
		}
	default:
		c1 := s[1]
		if c1 >= 0x80 {
			size = 2 // "If byte is an ASCII byte, restore byte": otherwise it is consumed.
		}
		if c1 >= 0x41 && c1 <= 0xFE {
			if i := (int(c)-0x81)*190 + int(c1) - 0x41; i < len(eucKRIndex) && eucKRIndex[i] != 0 {
				r, size = rune(eucKRIndex[i]), 2
			}
		}
	}
	return r, r2, size, false
}
