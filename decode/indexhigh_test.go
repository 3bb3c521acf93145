package decode

import "testing"

// TestIndexHigh checks indexHigh's answers on top of ascii.Prefix (which
// internal/ascii tests at every length and position): -1 for ASCII.
func TestIndexHigh(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", -1},
		{"plain ASCII text of more than thirty-two bytes", -1},
		{"\x80", 0},
		{"caf\xc3\xa9", 3},
		{"thirty-two bytes of ASCII first.\xff", 32},
	} {
		if got := indexHigh([]byte(tc.in)); got != tc.want {
			t.Errorf("indexHigh(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
