package autodetect

import (
	"strings"
	"testing"
)

// TestValidUTF8 checks the UTF-8 test of quickDetect: valid UTF-8 with a
// complete non-ASCII character, a character cut at the end allowed unless
// atEOF.
func TestValidUTF8(t *testing.T) {
	tests := []struct {
		desc  string
		in    string
		atEOF bool
		want  bool
	}{
		{"empty", "", false, false},
		{"ascii", "hello, world, long enough for the word loop", false, false},
		{"two-byte", "caf\xC3\xA9", false, true},
		{"three-byte", "\xE6\x97\xA5\xE6\x9C\xAC", false, true},
		{"four-byte", "\xF0\x9F\x98\x80", false, true},
		{"after a long ascii run", strings.Repeat("a", 37) + "\xC3\xA9" + strings.Repeat("b", 20), false, true},
		{"lone continuation", "caf\xA9", false, false},
		{"latin-1", "caf\xE9 au lait", false, false},
		{"overlong", "\xC0\xAF", false, false},
		{"surrogate", "\xED\xA0\x80", false, false},
		{"cut two-byte", "caf\xC3\xA9 \xC3", false, true},
		{"cut three-byte", "caf\xC3\xA9 \xE6\x97", false, true},
		{"cut four-byte", "caf\xC3\xA9 \xF0\x9F\x98", false, true},
		{"cut at EOF", "caf\xC3\xA9 \xE6\x97", true, false},
		{"only a cut character", "cafe \xE6\x97", false, false},
		{"invalid cut", "caf\xC3\xA9 \xE0\x80", false, false},
		{"invalid lead at the end", "caf\xC3\xA9 \xFF", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if got := validUTF8([]byte(tc.in), tc.atEOF); got != tc.want {
				t.Errorf("validUTF8(%q, %v) = %v, want %v", tc.in, tc.atEOF, got, tc.want)
			}
		})
	}
}
