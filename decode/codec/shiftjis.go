package codec

// shiftJISStep is one step of the Shift_JIS decoder at a byte 0x80 or above (see
// dbcsStep).
//
// It follows the Shift_JIS decoder
// (https://encoding.spec.whatwg.org/#shift_jis-decoder). A lead byte at the
// end of src is left there (ErrShortSrc) rather than kept as Shift_JIS
// leading.
func shiftJISStep(s []byte, atEOF bool) (r, r2 rune, size int, short bool) {
	c := s[0]
	switch {
	case c == 0x80:
		return 0x80, -1, 1, false
	case c >= 0xA1 && c <= 0xDF:
		return 0xFF61 - 0xA1 + rune(c), -1, 1, false
	case c == 0xA0 || c >= 0xFD:
		return 0xFFFD, -1, 1, false // Error.
	}
	c1, size, short := trail(s, atEOF)
	if short || (c1 < 0x40 || c1 > 0x7E) && (c1 < 0x80 || c1 > 0xFC) {
		return 0xFFFD, -1, size, short
	}
	offset, leadingOffset := 0x40, 0x81
	if c1 >= 0x7F {
		offset = 0x41
	}
	if c >= 0xA0 {
		leadingOffset = 0xC1
	}
	pointer := (int(c)-leadingOffset)*188 + int(c1) - offset
	switch {
	case pointer >= 8836 && pointer <= 10715:
		// "interoperable legacy from Windows known as EUDC".
		return 0xE000 - 8836 + rune(pointer), -1, 2, false
	case pointer < len(jis0208Index) && jis0208Index[pointer] != 0:
		return rune(jis0208Index[pointer]), -1, 2, false
	}
	return 0xFFFD, -1, size, false
}
