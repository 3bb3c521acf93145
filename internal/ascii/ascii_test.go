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

// TestIsWhitespace checks IsWhitespace on every byte against the Infra
// Standard's list: U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, U+0020
// SPACE, and nothing else (not U+000B VT, nor U+0085 or U+00A0).
func TestIsWhitespace(t *testing.T) {
	for c := range 256 {
		want := c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D || c == 0x20
		if got := IsWhitespace(byte(c)); got != want {
			t.Errorf("IsWhitespace(%#02x) = %v, want %v", c, got, want)
		}
	}
}

// TestMasks checks that HighBits and LowBits are the bytes 0x80 and 0x01
// eight times.
func TestMasks(t *testing.T) {
	for i := range 8 {
		if b := byte(uint64(HighBits) >> (8 * i)); b != 0x80 {
			t.Errorf("byte %d of HighBits is %#x", i, b)
		}
		if b := byte(uint64(LowBits) >> (8 * i)); b != 0x01 {
			t.Errorf("byte %d of LowBits is %#x", i, b)
		}
	}
}
