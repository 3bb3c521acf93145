package autodetect

import "testing"

// TestFeedWordLoops checks the ASCII-skipping word loops of Feed: a run
// of ASCII holding one NUL, ESC or non-ASCII byte at any place, fed whole,
// leaves the Detector as feeding it a byte at a time does.
func TestFeedWordLoops(t *testing.T) {
	for n := range 100 {
		for k := -1; k < n; k++ {
			for _, c := range []byte{0, 0x1B, 0x80, 0xE9} {
				p := make([]byte, n)
				for i := range p {
					p[i] = byte('a' + i%26)
				}
				if k >= 0 {
					p[k] = c
				}
				var whole, bytewise Detector
				whole.Feed(p, false)
				for i := range p {
					bytewise.Feed(p[i:i+1], false)
				}
				if whole != bytewise {
					t.Fatalf("%d bytes with %#x at %d: fed whole, the state differs from fed a byte at a time", n, c, k)
				}
			}
		}
	}
}
