package autodetect

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/text/encoding/htmlindex"

	"github.com/charsniff/charsniff/override"
)

// quickHints are the hints the full detector is asked with when checking
// quickDetect: its answers must not depend on the hint.
var quickHints = []Hint{
	{},
	{Language: "ja"},
	{Language: "ru"},
	{TLD: ".cn"},
	{TLD: ".gr"},
}

// checkQuick compares quickDetect's answer on p with the full detector's,
// when quickDetect decides, and reports whether it decided.
func checkQuick(t *testing.T, p []byte, atEOF bool) bool {
	t.Helper()
	enc, ok, decided := quickDetect(p, atEOF)
	if !decided {
		return false
	}
	for _, h := range quickHints {
		d := new(Detector)
		d.Feed(p, atEOF)
		want, s := d.Guess(h)
		wantOK := s > NoEvidence
		if ok != wantOK || ok && enc != want {
			t.Fatalf("quickDetect(%q, atEOF=%v) = %v, %v; the detector (hint %+v) says %v, %v",
				clip(p), atEOF, enc, ok, h, want, s)
		}
	}
	return true
}

func clip(p []byte) []byte {
	if len(p) > 80 {
		return append(p[:40:40], append([]byte("..."), p[len(p)-40:]...)...)
	}
	return p
}

// TestQuickDetect checks quickDetect against the full detector on edge
// cases, and that it decides where it should.
func TestQuickDetect(t *testing.T) {
	utf16 := bytes.Repeat([]byte("a\x00"), 20)
	for _, c := range []struct {
		in      string
		atEOF   bool
		decided bool
	}{
		{"", false, true},
		{"", true, true},
		{"plain ASCII text, long enough to take the word loop", true, true},
		{"caf\u00e9", true, true},
		{"caf\u00e9", false, true},
		{"caf\xc3", false, false},    // only a cut character
		{"caf\xc3", true, false},     // a cut character at the end of the input
		{"\u00e9t\xc3", false, true}, // a cut character after a complete one
		{"\u00e9t\xc3", true, false},
		{"\u00e9t\xe2\x82", false, true},
		{"\u00e9t\xf0\x9f\x98", false, true},
		{"\u00e9t\xf0\x9f\x98", true, false},
		{"\u00e9t\xe0\x80", false, false},          // cannot continue
		{"\u00e9\xed\xa0\x80", false, false},       // a surrogate
		{"\u00e9\xc0\xaf", false, false},           // overlong
		{"\u00e9\xf4\x90\x80\x80", false, false},   // past U+10FFFF
		{"\u00e9 \x80", false, false},              // a lone continuation byte
		{"\u00e9\x00", false, false},               // NUL: UTF-16 may win
		{"\x1b$B", true, false},                    // ESC: ISO-2022-JP may win
		{"ab\x1bcdefghijklmnop", true, false},      // ESC in the word loop
		{"abcdefgh\x00ijklmn", true, false},        // NUL in the word loop
		{string(utf16) + "\u00e9", true, false},    // looks like UTF-16LE
		{"caf\xe9 cr\xe8me", true, false},          // windows-1252
		{"\x82\xa0\x82\xa2\x82\xa4", false, false}, // Shift_JIS
	} {
		if got := checkQuick(t, []byte(c.in), c.atEOF); got != c.decided {
			t.Errorf("quickDetect(%q, atEOF=%v) decided %v, want %v", c.in, c.atEOF, got, c.decided)
		}
	}
}

// TestQuickDetectText checks quickDetect against the full detector on
// real text (detect's held-out sample, in UTF-8 and in the legacy
// encodings of its languages, cut at many places), and that it decides on
// every prefix of UTF-8 text holding a complete non-ASCII character.
func TestQuickDetectText(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "detect", "testdata", "heldout", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no held-out text: %v", err)
	}
	legacy := []string{"windows-1252", "windows-1251", "koi8-r", "iso-8859-7", "shift_jis", "euc-jp", "gbk", "big5", "euc-kr", "windows-1250", "utf-16le"}
	rng := rand.New(rand.NewPCG(1, 2))
	decided := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs := [][]byte{text}
		for _, label := range legacy {
			e, err := htmlindex.Get(label)
			if err != nil {
				t.Fatal(err)
			}
			if b, err := e.NewEncoder().Bytes(text); err == nil {
				inputs = append(inputs, b)
			}
		}
		for k, in := range inputs {
			for range 40 {
				n := rng.IntN(len(in) + 1)
				for _, atEOF := range []bool{false, true} {
					got := checkQuick(t, in[:n], atEOF)
					if got {
						decided++
					}
					if k == 0 && validUTF8(in[:n], atEOF) && !got {
						t.Errorf("%s: quickDetect did not decide on a UTF-8 prefix of %d bytes", f, n)
					}
				}
			}
		}
	}
	if decided == 0 {
		t.Error("quickDetect never decided")
	}
}

// FuzzQuickDetect checks that whenever quickDetect decides, the full
// detector gives the same answer under every hint.
func FuzzQuickDetect(f *testing.F) {
	for _, s := range []string{"", "abc", "caf\u00e9", "\u00e9t\xe2\x82", "\u00e9\x00", "\x1b$Bxx", "caf\xe9", "a\x00b\x00c\x00\u00e9"} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, p []byte, atEOF bool) {
		checkQuick(t, p, atEOF)
		if enc, ok := Builtin(p, "", "", atEOF, false); ok && enc == override.Unknown {
			t.Fatal("builtinDetect answered Unknown")
		}
	})
}
