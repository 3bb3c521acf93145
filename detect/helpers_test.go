package detect_test

import (
	"testing"

	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/override"
)

// A sample is a text written for the tests, the encoding to write it in
// and what the test calls it.
type sample struct {
	desc string
	enc  override.Encoding
	text string
}

// mustEncode returns text in enc, failing the test if a character of it
// is not in enc.
func mustEncode(t testing.TB, enc override.Encoding, text string) []byte {
	t.Helper()
	b, dropped := corpus.Encode(enc, text)
	if dropped > 0 {
		t.Fatalf("%d characters of %q not in %v", dropped, text, enc)
	}
	return b
}

// feedGuess resets d, feeds it in whole and returns its guess with hint.
func feedGuess(d *detect.Detector, in []byte, hint detect.Hint) (override.Encoding, detect.Strength) {
	d.Reset()
	d.Feed(in, false)
	return d.Guess(hint)
}
