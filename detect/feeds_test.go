package detect_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/override"
)

// check fails the test unless the detector, with no hint, guesses in
// (the first n bytes of a longer input, or all of it) as want.
func check(t *testing.T, desc string, in []byte, last bool, want override.Encoding) {
	t.Helper()
	var d detect.Detector
	d.Feed(in, last)
	if got, s := d.Guess(detect.Hint{}); !right(got, want, in) {
		t.Errorf("%s: guessed %v (%v), want %v", desc, got, s, want)
	}
}

// TestBig5Feeds checks two Atom feeds in Big5 without an encoding
// declaration (testdata/feeds/README.md), the kind of input that reaches
// the detector: mostly ASCII markup, Traditional Chinese titles and text.
// Whole and at 1 KB they are Big5, and so is every prefix that holds
// 16 non-ASCII bytes or more, the fewest on which late autodetection in
// package decode keeps a guess: a reader that stops there must stop at
// Big5. The bracket feed's first 16 non-ASCII bytes are 【】 and
// ideographic spaces (0xA1 and an ASCII trail byte), once read as Latin
// letters and windows-1252; the title feed's first kilobyte holds its
// four-character title alone, once read as EUC-KR.
func TestBig5Feeds(t *testing.T) {
	for _, name := range []string{"big5-brackets.xml", "big5-title.xml"} {
		in, err := os.ReadFile(filepath.Join("testdata", "feeds", name))
		if err != nil {
			t.Fatal(err)
		}
		check(t, name, in, true, override.Big5)
		check(t, name+", 1 KB", in[:1024], false, override.Big5)
		var d detect.Detector
		high := 0 // bytes 0x80-0xFF fed
		for n, c := range in {
			d.Feed(in[n:n+1], false)
			if c >= 0x80 {
				high++
			}
			if high < 16 {
				continue
			}
			if got, s := d.Guess(detect.Hint{}); got != override.Big5 {
				t.Errorf("%s, first %d bytes (%d non-ASCII): guessed %v (%v), want Big5", name, n+1, high, got, s)
				break
			}
		}
	}
}
