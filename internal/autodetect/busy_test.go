package autodetect

import "testing"

// TestSkipAfterUTF8Dies: once UTF-8 is ruled out in the middle of a
// sequence (a windows-1252 "è" before ASCII), no UTF-8 sequence is
// pending, so Feed skips the ASCII after the next byte again instead of
// scoring it byte by byte for the rest of the input.
func TestSkipAfterUTF8Dies(t *testing.T) {
	tests := []struct {
		in   string
		busy bool
	}{
		{"la m\xe8re", false},      // E8 starts a three-byte sequence; r ends it
		{"caf\xe9 au lait", false}, // E9 likewise, before a space
		{"caf\xc3", true},          // a UTF-8 lead byte at the end: pending
		{"caf\xc3\xa9 x", false},   // valid UTF-8: nothing pending after é
	}
	for _, tc := range tests {
		var d Detector
		d.Feed([]byte(tc.in), false)
		if d.busy != tc.busy {
			t.Errorf("after %q: busy = %v, want %v (utf8Dead %v, utf8Need %d)", tc.in, d.busy, tc.busy, d.utf8Dead, d.utf8Need)
		}
	}
}
