package codec

// gb18030Step is one step of the gb18030 decoder at a byte 0x80 or above (see
// dbcsStep).
//
// It follows the gb18030 decoder
// (https://encoding.spec.whatwg.org/#gb18030-decoder), which is also the
// GBK decoder. Instead of keeping gb18030 first, second and third between
// calls it leaves an incomplete sequence in src (ErrShortSrc), so the
// standard's "restore" steps are plain lookahead.
func gb18030Step(s []byte, atEOF bool) (r, r2 rune, size int, short bool) {
	c := s[0]
	r, r2, size = 0xFFFD, -1, 1
	switch {
	case c == 0x80:
		r = 0x20AC
	case c == 0xFF:
		// Error.
	case len(s) <= 1:
		if !atEOF {
			return 0, -1, 0, true
		}
		// gb18030 first is set at end-of-queue: error.
	default:
		c1 := s[1]
		if c1 >= 0x30 && c1 <= 0x39 {
			// A four-byte sequence.
			if len(s) <= 2 {
				if !atEOF {
					return 0, -1, 0, true
				}
				size = len(s) // One error for first and second.
				break
			}
			c2 := s[2]
			if c2 < 0x81 || c2 > 0xFE {
				// Restore « second, byte »: only first is consumed.
				break
			}
			if len(s) <= 3 {
				if !atEOF {
					return 0, -1, 0, true
				}
				size = len(s)
				break
			}
			c3 := s[3]
			if c3 < 0x30 || c3 > 0x39 {
				// Restore « second, third, byte »: only first is consumed.
				break
			}
			size = 4
			pointer := (int(c)-0x81)*(10*126*10) + (int(c1)-0x30)*(10*126) + (int(c2)-0x81)*10 + int(c3) - 0x30
			if cp := gb18030RangesCodePoint(pointer); cp >= 0 {
				r = cp
			}
			break
		}
		// A two-byte sequence.
		offset := 0x40
		if c1 >= 0x7F {
			offset = 0x41
		}
		if (c1 >= 0x40 && c1 <= 0x7E) || (c1 >= 0x80 && c1 <= 0xFE) {
			if cp := gb18030Index[(int(c)-0x81)*190+int(c1)-offset]; cp != 0 {
				r, size = rune(cp), 2
				break
			}
		}
		// "If byte is an ASCII byte, restore byte to ioQueue."
		if c1 >= 0x80 {
			size = 2
		}
	}
	return r, r2, size, false
}

// gb18030RangesCodePoint returns the index gb18030 ranges code point for
// pointer (https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point),
// or -1 for null.
func gb18030RangesCodePoint(pointer int) rune {
	if (pointer > 39419 && pointer < 189000) || pointer > 1237575 {
		return -1
	}
	if pointer == 7457 {
		return 0xE7C7
	}
	// The last range whose pointer is less than or equal to pointer.
	lo, hi := 0, len(gb18030Ranges)
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if int(gb18030Ranges[m].pointer) <= pointer {
			lo = m
		} else {
			hi = m
		}
	}
	r := gb18030Ranges[lo]
	return rune(r.codePoint) + rune(pointer-int(r.pointer))
}
