package decode

import (
	"encoding/binary"
	"testing"
)

// TestPrefilters checks the word tests against a byte-at-a-time reference:
// for every byte value at every position of a word of clean bytes, the
// prefilter flags the word whenever the exact test must stop at that byte,
// the exact test stops exactly there, and TAB, LF and space pass the
// prefilter.
func TestPrefilters(t *testing.T) {
	for _, tc := range []struct{ cr, nul bool }{{true, true}, {true, false}, {false, true}, {false, false}} {
		p := newPatterns(tc.cr, tc.nul)
		for pos := range 8 {
			for b := range 256 {
				var w [8]byte
				for i := range w {
					w[i] = 'a'
				}
				w[pos] = byte(b)
				x := binary.LittleEndian.Uint64(w[:])
				special := b == '\r' && tc.cr || b == 0 && tc.nul
				if special {
					if p.utf8Maybe(x) == 0 {
						t.Errorf("cr=%v nul=%v: utf8Maybe(%#x at %d) = 0, want non-zero", tc.cr, tc.nul, b, pos)
					}
					if got := p.utf8Stop(x); got == 0 || got&-got != 0x80<<(8*pos) {
						t.Errorf("cr=%v nul=%v: utf8Stop(%#x at %d) = %#x, want lowest bit at byte %d", tc.cr, tc.nul, b, pos, got, pos)
					}
				} else if got := p.utf8Stop(x); got != 0 {
					t.Errorf("cr=%v nul=%v: utf8Stop(%#x at %d) = %#x, want 0", tc.cr, tc.nul, b, pos, got)
				}
				if (b == '\n' || b == '\t' || b == ' ') && p.utf8Maybe(x) != 0 {
					t.Errorf("cr=%v nul=%v: utf8Maybe flags %#x, want it clean", tc.cr, tc.nul, b)
				}
			}
		}
	}
}
