package prescan

import "testing"

// TestTagNameEnd checks tagNameEnd against a byte loop: names of up to 40
// bytes with any byte value at any place, before and after a byte of
// every other value, from several starts.
func TestTagNameEnd(t *testing.T) {
	want := func(p []byte, j int) int {
		for j < len(p) && !isSpace(p[j]) && p[j] != '>' {
			j++
		}
		return j
	}
	for n := range 41 {
		for k := range n {
			for c := range 256 {
				p := make([]byte, n)
				for i := range p {
					p[i] = byte('a' + i%26)
				}
				p[k] = byte(c)
				if k+1 < n {
					p[n-1] = byte(255 - c) // a second byte further on
				}
				for _, j := range []int{0, 1, k} {
					if j > n {
						continue
					}
					if got, w := tagNameEnd(p, j), want(p, j); got != w {
						t.Fatalf("tagNameEnd(%q, %d) = %d, want %d", p, j, got, w)
					}
				}
			}
		}
	}
}
