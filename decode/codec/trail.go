package codec

// trail returns the byte after the lead byte s[0] of a two-byte sequence
// (Big5, EUC-KR, Shift_JIS) and the size of the sequence if it is not
// valid: 2, or 1 when the trail byte is ASCII ("If byte is an ASCII byte,
// restore byte"). When s holds the lead byte alone, short reports that
// more input may come; at the end of the input c1 is 0, which no decoder
// takes as a trail byte, and size 1: the lead byte is an error.
func trail(s []byte, atEOF bool) (c1 byte, size int, short bool) {
	switch {
	case len(s) <= 1:
		return 0, 1, !atEOF
	case s[1] < 0x80:
		return s[1], 1, false
	}
	return s[1], 2, false
}
