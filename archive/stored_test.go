package archive

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestInStoredBlock checks the seven-places-at-once scan of inStoredBlock
// against the plain one, on random bytes with headers planted at every
// alignment, reaching just past the place looked at or just short of it.
func TestInStoredBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 3*maxStored)
	for trial := range 300 {
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		off := int64(maxStored + rng.IntN(maxStored))
		if trial%3 != 0 {
			// A header q bytes before off, its data n bytes long.
			q := 4 + rng.IntN(maxStored-4)
			n := q - 4 + rng.IntN(3) // just short of off, at it, past it
			if n > 0xffff {
				n = 0xffff
			}
			at := int(off) - q
			data[at], data[at+1] = byte(n), byte(n>>8)
			data[at+2], data[at+3] = ^byte(n), ^byte(n>>8)
		}
		s := splitter{src: bytes.NewReader(data), size: int64(len(data))}
		b := data[off-maxStored : off]
		want := false
		for q := 0; q+4 <= len(b); q++ {
			n := int(b[q]) | int(b[q+1])<<8
			if b[q+2] == ^b[q] && b[q+3] == ^b[q+1] && q+4+n > len(b) {
				want = true
			}
		}
		if got := s.inStoredBlock(off); got != want {
			t.Fatalf("trial %d: inStoredBlock(%d) = %v, want %v", trial, off, got, want)
		}
	}
}
