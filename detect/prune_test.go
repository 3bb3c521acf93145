package detect

import (
	"testing"

	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/override"
)

// TestFirstPrune: the candidates far behind the leader stop being scored
// from the firstPrune-th non-ASCII byte on, not only from the pruneEvery-th:
// a text whose first firstPrune non-ASCII bytes already leave some
// candidates more than pruneMargin behind has rows die at that byte
// that the byte itself does not disqualify.
func TestFirstPrune(t *testing.T) {
	tests := []struct {
		enc  override.Encoding
		text string
	}{
		{override.Windows1253, "Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα."},
		{override.Windows1251, "Все люди рождаются свободными и равными в своем достоинстве и правах."},
	}
	for _, tc := range tests {
		in, dropped := corpus.Encode(tc.enc, tc.text)
		if dropped > 0 {
			t.Fatalf("%v: %d characters dropped", tc.enc, dropped)
		}
		// at is the index of the firstPrune-th non-ASCII byte.
		at, n := -1, 0
		for i, b := range in {
			if b >= 0x80 {
				if n++; n == firstPrune {
					at = i
					break
				}
			}
		}
		if at < 0 {
			t.Fatalf("%v: text has %d non-ASCII bytes, want at least %d", tc.enc, n, firstPrune)
		}
		var before, after Detector
		before.Feed(in[:at], false)
		after.Feed(in[:at+1], false)
		var invalidRows uint64 // rows the byte itself disqualifies
		for enc := range sbEncodings {
			if sbEncodings[enc].classes[in[at]] == invalid {
				invalidRows |= rowsOf[enc]
			}
		}
		if pruned := after.sbDead &^ before.sbDead &^ invalidRows; pruned == 0 {
			t.Errorf("%v: no row pruned at the %d-th non-ASCII byte", tc.enc, firstPrune)
		}
	}
}
