package ascii

import "testing"

// TestPrefix checks Prefix against a byte loop: every length up to 100
// (the 32- and 8-byte loops and the tail), with a non-ASCII byte at every
// position or none.
func TestPrefix(t *testing.T) {
	for n := range 100 {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte('a' + i%26)
		}
		if got := Prefix(p); got != n {
			t.Fatalf("Prefix(ASCII of %d bytes) = %d, want %d", n, got, n)
		}
		for k := range n {
			for _, c := range []byte{0x80, 0xC3, 0xFF} {
				p[k] = c
				if got := Prefix(p); got != k {
					t.Fatalf("Prefix(%d bytes, %#x at %d) = %d", n, c, k, got)
				}
				if k+1 < n {
					p[n-1] = 0x80 // a second one further on
					if got := Prefix(p); got != k {
						t.Fatalf("Prefix(%d bytes, %#x at %d and 0x80 at the end) = %d", n, c, k, got)
					}
					p[n-1] = byte('a' + (n-1)%26)
				}
			}
			p[k] = byte('a' + k%26)
		}
	}
}
