// Package utf8seq is one step of the Encoding Standard's UTF-8 decoder
// (https://encoding.spec.whatwg.org/#utf-8-decoder): how long the sequence
// at the start of a byte slice is, and whether it is well-formed; and what
// its first byte asks for (Lead). The decoders of decode/codec and the
// UTF-8 path of decode share it, and detect's UTF-8 candidate, which is
// fed a byte at a time, shares Lead.
package utf8seq

// Status classifies the sequence at the start of a byte slice.
type Status uint8

const (
	// Valid is a well-formed sequence.
	Valid Status = iota
	// Incomplete is a well-formed prefix cut off by the end of the slice.
	Incomplete
	// Invalid is an ill-formed sequence: its maximal subpart, the bytes
	// that one U+FFFD replaces (the byte after it is decoded afresh).
	Invalid
)

// Lead returns what the byte c at the start of a sequence asks for: need,
// the number of trail bytes (0 for ASCII, -1 for 80 to C1 and F5 to FF,
// which never start a sequence), and the bounds lo and hi of the first
// trail byte.
func Lead(c byte) (need int, lo, hi byte) {
	e := leads[c]
	return int(int8(e)), byte(e >> 8), byte(e >> 16)
}

// leads holds Lead's answer for each byte: need in bits 0 to 7 (two's
// complement), lo in bits 8 to 15 and hi in 16 to 23.
var leads = func() (t [256]uint32) {
	for c := range t {
		need, lo, hi := lead(byte(c))
		t[c] = uint32(uint8(need)) | uint32(lo)<<8 | uint32(hi)<<16
	}
	return t
}()

// lead is Lead as the Encoding Standard's UTF-8 decoder writes it: C2-DF,
// E0-EF and F0-F4 give the number of trail bytes, and E0, ED, F0 and F4
// narrow the first one.
func lead(c byte) (need int8, lo, hi byte) {
	lo, hi = 0x80, 0xBF
	switch {
	case c < 0x80:
		return 0, lo, hi
	case c < 0xC2 || c > 0xF4:
		return -1, lo, hi
	case c < 0xE0:
		need = 1
	case c < 0xF0:
		need = 2
	default:
		need = 3
	}
	switch c {
	case 0xE0:
		lo = 0xA0
	case 0xED:
		hi = 0x9F
	case 0xF0:
		lo = 0x90
	case 0xF4:
		hi = 0x8F
	}
	return need, lo, hi
}

// Sequence returns the length and status of the sequence at the start of
// s, which must not be empty. For an invalid sequence the length is that of
// its maximal subpart (at least 1); for an incomplete one, the bytes s has.
func Sequence(s []byte) (int, Status) {
	need, lo, hi := Lead(s[0])
	switch {
	case need == 0:
		return 1, Valid
	case need < 0:
		return 1, Invalid
	}
	for i := 1; i <= need; i++ {
		if i >= len(s) {
			return i, Incomplete
		}
		if b := s[i]; b < lo || b > hi {
			return i, Invalid
		}
		lo, hi = 0x80, 0xBF
	}
	return need + 1, Valid
}
