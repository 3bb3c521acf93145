package sniff_test

import (
	"testing"

	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// wideDocs are undeclared pages in encodings only the wide detector
// (Options.DetectAll) answers, and what the browser's detector answers
// for them instead.
var wideDocs = []struct {
	enc, browser override.Encoding
	text         string
}{
	{override.XMacCyrillic, override.Windows1251, "Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью."},
	{override.ISO8859_15, override.Windows1252, "Le cœur a ses raisons que la raison ne connaît point. Un bœuf coûte 500 € à l'œil nu, dit la sœur."},
	{override.ISO8859_16, override.Windows1258, "Wszyscy ludzie rodzą się wolni i równi pod względem swej godności i swych praw. Są oni obdarzeni rozumem i sumieniem."},
}

// TestDetectAll checks that Options.DetectAll widens the autodetection
// step of Sniff, and that without it the answer is
// the browser's, also from a pooled detector that was wide just before.
func TestDetectAll(t *testing.T) {
	for _, tc := range wideDocs {
		b, _ := corpus.Encode(tc.enc, tc.text)
		doc := append(append([]byte("<!DOCTYPE html><title>x</title><p>"), b...), "</p>"...)
		for _, all := range []bool{true, false, true, false} {
			want := tc.browser
			if all {
				want = tc.enc
			}
			r := sniff.Sniff(doc, &sniff.Options{AtEOF: true, DetectAll: all})
			if r.Encoding != want || r.Source != sniff.SourceAutodetect {
				t.Errorf("%v, DetectAll %v: Sniff = %v from %v, want %v from autodetection", tc.enc, all, r.Encoding, r.Source, want)
			}
		}
	}
}
