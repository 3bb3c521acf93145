package codec

// eucKRStep is one step of the EUC-KR decoder at a byte 0x80 or above (see
// dbcsStep).
//
// It follows the EUC-KR decoder
// (https://encoding.spec.whatwg.org/#euc-kr-decoder). A lead byte at the end
// of src is left there (ErrShortSrc) rather than kept as EUC-KR leading.
func eucKRStep(s []byte, atEOF bool) (r, r2 rune, size int, short bool) {
	c := s[0]
	if c == 0x80 || c == 0xFF {
		return 0xFFFD, -1, 1, false // Error.
	}
	c1, size, short := trail(s, atEOF)
	if !short && c1 >= 0x41 && c1 <= 0xFE {
		if i := (int(c)-0x81)*190 + int(c1) - 0x41; i < len(eucKRIndex) && eucKRIndex[i] != 0 {
			return rune(eucKRIndex[i]), -1, 2, false
		}
	}
	return 0xFFFD, -1, size, short
}
