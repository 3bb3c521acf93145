package decode

import (
	"encoding/binary"
	"testing"
)

// TestPrefilters checks the word tests against a byte-at-a-time reference:
// for every byte value at every position of a word of clean bytes, the
// prefilters flag the word whenever the exact tests must stop at that
// byte, and the exact tests stop exactly there.
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
				if raw := special || b >= 0x80; raw {
					if p.rawMaybe(x) == 0 {
						t.Errorf("cr=%v nul=%v: rawMaybe(%#x at %d) = 0, want non-zero", tc.cr, tc.nul, b, pos)
					}
					if got := p.rawStop(x); got == 0 || got&-got != 0x80<<(8*pos) {
						t.Errorf("cr=%v nul=%v: rawStop(%#x at %d) = %#x, want lowest bit at byte %d", tc.cr, tc.nul, b, pos, got, pos)
					}
				} else if got := p.rawStop(x); got != 0 {
					t.Errorf("cr=%v nul=%v: rawStop(%#x at %d) = %#x, want 0", tc.cr, tc.nul, b, pos, got)
				}
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
				if (b == '\n' || b == '\t' || b == ' ') && p.rawMaybe(x) != 0 {
					t.Errorf("cr=%v nul=%v: rawMaybe flags %#x, want it clean", tc.cr, tc.nul, b)
				}
			}
		}
	}
}
