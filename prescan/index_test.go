package prescan

import (
	"bytes"
	"testing"
)

// TestIndexFoldC puts a c, a C or a near miss (b, d, 0x43^0x80, 0xE3) at
// every position of inputs of every length up to 20, over bytes that are
// no c, and compares indexFoldC with a byte loop.
func TestIndexFoldC(t *testing.T) {
	for n := 0; n <= 20; n++ {
		for p := -1; p < n; p++ {
			for _, b := range []byte{'c', 'C', 'b', 'd', 0xC3, 0xE3, 0x03} {
				v := bytes.Repeat([]byte{'x'}, n)
				if p >= 0 {
					v[p] = b
				}
				want := -1
				for i, c := range v {
					if c|0x20 == 'c' {
						want = i
						break
					}
				}
				if got := indexFoldC(v); got != want {
					t.Errorf("indexFoldC(%q) = %d, want %d", v, got, want)
				}
			}
		}
	}
}

// TestFolded puts every byte at every position of each string a folded
// compares with, and compares folded.equal with a byte loop.
func TestFolded(t *testing.T) {
	for _, s := range []string{"charset", "content", "http-equiv", "content-type", "abcd", "a-b-c-d-e-f-g-h-"} {
		f := newFolded(s)
		for k := 0; k < len(s); k++ {
			for c := 0; c < 256; c++ {
				b := []byte(s)
				b[k] = byte(c)
				want := c == int(s[k]) || ('a' <= s[k] && s[k] <= 'z' && c == int(s[k])-0x20)
				if got := f.equal(b); got != want {
					t.Errorf("newFolded(%q).equal(%q) = %v, want %v", s, b, got, want)
				}
			}
		}
		for _, b := range []string{s[1:], s + "x", " " + s[1:], ""} {
			if f.equal([]byte(b)) {
				t.Errorf("newFolded(%q).equal(%q) = true, want false", s, b)
			}
		}
	}
}
