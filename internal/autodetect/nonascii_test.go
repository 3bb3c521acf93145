package autodetect

import "testing"

// TestNonASCII: NonASCII counts the bytes 0x80-0xFF fed, however the
// input is cut, and Reset forgets them.
func TestNonASCII(t *testing.T) {
	in := []byte("<p>caf\xe9 cr\xe8me \x1b$B\x00 \xc3\xa9\xa4\xa4 end")
	const want = 6
	for cut := range len(in) + 1 {
		var d Detector
		d.Feed(in[:cut], false)
		d.Feed(in[cut:], true)
		if got := d.NonASCII(); got != want {
			t.Fatalf("cut at %d: NonASCII = %d, want %d", cut, got, want)
		}
		d.Reset()
		if got := d.NonASCII(); got != 0 {
			t.Fatalf("after Reset: NonASCII = %d, want 0", got)
		}
	}
}
