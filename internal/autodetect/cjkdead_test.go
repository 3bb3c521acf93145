package autodetect

import (
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/override"
)

// TestLiveCJKScored: a double-byte candidate that is still live has
// scored every byte, however many of the others have died and been
// pruned (feedByte skips the double-byte feeders only once all are dead).
// The reference feeds the same bytes to the candidate's feeder alone.
func TestLiveCJKScored(t *testing.T) {
	feeders := [numCJK]func(*Detector, *cjkState, byte){
		(*Detector).feedShiftJIS, (*Detector).feedEUCJP, (*Detector).feedEUCKR,
		(*Detector).feedGBK, (*Detector).feedBig5,
	}
	tests := []encText{
		{override.EUCJP, "すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。"},
		{override.ShiftJIS, "すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。"},
		{override.GBK, "人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心。"},
		{override.Big5, "人人生而自由，在尊嚴和權利上一律平等。他們賦有理性和良心。"},
		{override.EUCKR, "모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다."},
	}
	for _, tc := range tests {
		in, dropped := corpus.Encode(tc.enc, strings.Repeat(tc.text, 4))
		if dropped > 0 {
			t.Fatalf("%v: %d characters dropped", tc.enc, dropped)
		}
		var d Detector
		d.Feed(in, true)
		died := 0
		for k := range d.cjk {
			if d.cjk[k].dead {
				died++
				continue
			}
			var ref Detector
			for _, b := range in {
				feeders[k](&ref, &ref.cjk[k], b)
			}
			if got, want := d.cjk[k].score, ref.cjk[k].score; got != want {
				t.Errorf("%v text: %v score = %d, want %d", tc.enc, cjkEncodings[k], got, want)
			}
		}
		if died == 0 || died == numCJK {
			t.Errorf("%v text: %d of %d double-byte candidates died, want some but not all", tc.enc, died, numCJK)
		}
	}
}
