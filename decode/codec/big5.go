package codec

// big5Step is one step of the Big5 decoder at a byte 0x80 or above (see
// dbcsStep).
//
// It follows the Big5 decoder
// (https://encoding.spec.whatwg.org/#big5-decoder). A lead byte at the end
// of src is left there (ErrShortSrc) rather than kept as Big5 leading.
func big5Step(s []byte, atEOF bool) (r, r2 rune, size int, short bool) {
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
	return r, r2, size, false
}
