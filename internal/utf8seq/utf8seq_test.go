package utf8seq

import "testing"

// TestSequence checks each kind of lead byte, the narrower first-trail
// ranges of E0, ED, F0 and F4, maximal subparts and cut-off sequences.
func TestSequence(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want Status
	}{
		{"a", 1, Valid},
		{"\xC2\x80", 2, Valid},
		{"\xDF\xBF", 2, Valid},
		{"\xC0\x80", 1, Invalid},
		{"\xC1\xBF", 1, Invalid},
		{"\xC2", 1, Incomplete},
		{"\xC2\x41", 1, Invalid},
		{"\xE0\xA0\x80", 3, Valid},
		{"\xE0\x9F\x80", 1, Invalid},
		{"\xED\x9F\xBF", 3, Valid},
		{"\xED\xA0\x80", 1, Invalid},
		{"\xE1\x80", 2, Incomplete},
		{"\xE1\x80\x41", 2, Invalid},
		{"\xEF\xBF\xBF", 3, Valid},
		{"\xF0\x90\x80\x80", 4, Valid},
		{"\xF0\x8F\x80\x80", 1, Invalid},
		{"\xF4\x8F\xBF\xBF", 4, Valid},
		{"\xF4\x90\x80\x80", 1, Invalid},
		{"\xF3\xBF\xBF", 3, Incomplete},
		{"\xF5\x80\x80\x80", 1, Invalid},
		{"\x80", 1, Invalid},
		{"\xFF", 1, Invalid},
	} {
		if n, st := Sequence([]byte(tc.in)); n != tc.n || st != tc.want {
			t.Errorf("Sequence(%q) = %d, %d, want %d, %d", tc.in, n, st, tc.n, tc.want)
		}
	}
}

func TestLead(t *testing.T) {
	for _, tc := range []struct {
		c      byte
		need   int
		lo, hi byte
	}{
		{0x00, 0, 0x80, 0xBF},
		{0x7F, 0, 0x80, 0xBF},
		{0x80, -1, 0x80, 0xBF},
		{0xC1, -1, 0x80, 0xBF},
		{0xC2, 1, 0x80, 0xBF},
		{0xDF, 1, 0x80, 0xBF},
		{0xE0, 2, 0xA0, 0xBF},
		{0xE1, 2, 0x80, 0xBF},
		{0xED, 2, 0x80, 0x9F},
		{0xEF, 2, 0x80, 0xBF},
		{0xF0, 3, 0x90, 0xBF},
		{0xF3, 3, 0x80, 0xBF},
		{0xF4, 3, 0x80, 0x8F},
		{0xF5, -1, 0x80, 0xBF},
		{0xFF, -1, 0x80, 0xBF},
	} {
		if need, lo, hi := Lead(tc.c); need != tc.need || lo != tc.lo || hi != tc.hi {
			t.Errorf("Lead(%#x) = %d, %#x, %#x, want %d, %#x, %#x", tc.c, need, lo, hi, tc.need, tc.lo, tc.hi)
		}
	}
}
