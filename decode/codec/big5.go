package codec

// big5Step is one step of the Big5 decoder at a byte 0x80 or above (see
// dbcsStep).
//
// It follows the Big5 decoder
// (https://encoding.spec.whatwg.org/#big5-decoder). A lead byte at the end
// of src is left there (ErrShortSrc) rather than kept as Big5 leading.
func big5Step(s []byte, atEOF bool) (r, r2 rune, size int, short bool) {
	c := s[0]
	if c == 0x80 || c == 0xFF {
		return 0xFFFD, -1, 1, false // Error.
	}
	c1, size, short := trail(s, atEOF)
	if short || (c1 < 0x40 || c1 > 0x7E) && (c1 < 0xA1 || c1 > 0xFE) {
		return 0xFFFD, -1, size, short
	}
	offset := 0x40
	if c1 >= 0x7F {
		offset = 0x62
	}
	pointer := (int(c)-0x81)*157 + int(c1) - offset
	// Four pointers decode to two code points each.
	switch pointer {
	case 1133:
		return 0x00CA, 0x0304, 2, false
	case 1135:
		return 0x00CA, 0x030C, 2, false
	case 1164:
		return 0x00EA, 0x0304, 2, false
	case 1166:
		return 0x00EA, 0x030C, 2, false
	}
	if i := pointer - big5First; i >= 0 && i < len(big5Index) && big5Index[i] != 0 {
		return rune(big5Index[i]), -1, 2, false
	}
	return 0xFFFD, -1, size, false
}
