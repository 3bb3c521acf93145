// Package utf8seq is one step of the Encoding Standard's UTF-8 decoder
// (https://encoding.spec.whatwg.org/#utf-8-decoder): how long the sequence
// at the start of a byte slice is, and whether it is well-formed. The
// decoders of decode/codec and the UTF-8 path of decode share it.
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

// Sequence returns the length and status of the sequence at the start of
// s, which must not be empty. For an invalid sequence the length is that of
// its maximal subpart (at least 1); for an incomplete one, the bytes s has.
func Sequence(s []byte) (int, Status) {
	c := s[0]
	// need is the number of trail bytes; lo and hi bound the first one.
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch {
	case c < 0x80:
		return 1, Valid
	case c < 0xC2 || c > 0xF4:
		// 80-C1 and F5-FF never start a sequence.
		return 1, Invalid
	case c < 0xE0:
		need = 1
	case c < 0xF0:
		need = 2
	default:
		need = 3
	}
	// The standard's narrower bounds for the first trail byte.
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
