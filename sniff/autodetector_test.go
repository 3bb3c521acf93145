package sniff_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// lenDetector records the length of each prefix it is asked about.
type lenDetector struct{ lens []int }

func (d *lenDetector) Detect(prefix []byte) (override.Encoding, bool) {
	d.lens = append(d.lens, len(prefix))
	return override.KOI8R, len(prefix) > 100
}

// TestAutodetector checks that an Autodetector asked over growing prefixes
// answers as Autodetect does for each prefix, on held-out text in legacy
// encodings with few non-ASCII bytes at the start (as late autodetection
// sees it), under several options.
func TestAutodetector(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "detect", "testdata", "heldout", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no held-out text: %v", err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var a sniff.Autodetector
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, label := range []string{"utf-8", "windows-1252", "windows-1251", "shift_jis", "euc-kr", "gbk", "iso-8859-7"} {
			e, _ := htmlindex.Get(label)
			in, err := encoding.ReplaceUnsupported(e.NewEncoder()).Bytes(text)
			if err != nil {
				t.Fatal(err)
			}
			for _, opts := range []sniff.Options{{}, {Locale: "ja"}, {TLD: "ru"}, {Locale: ".gr", TLD: "cn"}} {
				a.Reset(&opts)
				n := 0
				for n < len(in) {
					n = min(len(in), n+rng.IntN(64)) // also the same prefix again
					atEOF := n == len(in) && rng.IntN(2) == 0
					got, gotOK := a.Detect(in[:n], atEOF)
					o := opts
					o.AtEOF = atEOF
					want, wantOK := sniff.Autodetect(in[:n], &o)
					if got != want || gotOK != wantOK {
						t.Fatalf("%s in %s, %+v, prefix %d (atEOF %v): Autodetector %v, %v; Autodetect %v, %v",
							f, label, opts, n, atEOF, got, gotOK, want, wantOK)
					}
					if atEOF {
						break
					}
				}
				a.Release()
			}
		}
	}
}

// TestAutodetectorOptions: NoAutodetect answers nothing, and a caller's
// Detector is asked with the whole prefix each time.
func TestAutodetectorOptions(t *testing.T) {
	var a sniff.Autodetector
	a.Reset(&sniff.Options{NoAutodetect: true})
	if e, ok := a.Detect([]byte("caf\u00e9"), true); ok {
		t.Errorf("NoAutodetect: Detect = %v, true", e)
	}
	d := &lenDetector{}
	a.Reset(&sniff.Options{Detector: d})
	in := make([]byte, 300)
	for _, n := range []int{50, 150, 300} {
		e, ok := a.Detect(in[:n], n == 300)
		if want := n > 100; ok != want || ok && e != override.KOI8R {
			t.Errorf("prefix %d: Detect = %v, %v", n, e, ok)
		}
	}
	if len(d.lens) != 3 || d.lens[0] != 50 || d.lens[1] != 150 || d.lens[2] != 300 {
		t.Errorf("the Detector was asked about prefixes of %v bytes, want [50 150 300]", d.lens)
	}
	a.Release()
}

// TestAutodetectorAllocs: asking over growing prefixes does not allocate.
func TestAutodetectorAllocs(t *testing.T) {
	in := []byte("<p>caf\xe9 cr\xe8me br\xfbl\xe9e, \xe0 la fran\xe7aise")
	var a sniff.Autodetector
	allocs := testing.AllocsPerRun(50, func() {
		a.Reset(nil)
		for n := 8; n <= len(in); n *= 2 {
			a.Detect(in[:n], false)
		}
		a.Detect(in, true)
		a.Release()
	})
	if allocs != 0 {
		t.Errorf("%v allocations, want 0", allocs)
	}
}

// TestAutodetectorSure: over growing prefixes of Russian text in
// windows-1251, the answer is sure exactly from EnoughEvidence(guess) non-ASCII
// bytes on; valid UTF-8 from 16 non-ASCII bytes on; whatever the count,
// at the end of the input and for a caller's Detector; never without an
// answer.
func TestAutodetectorSure(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "detect", "testdata", "heldout", "ru.txt"))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := htmlindex.Get("windows-1251")
	in, err := encoding.ReplaceUnsupported(e.NewEncoder()).Bytes(text)
	if err != nil {
		t.Fatal(err)
	}
	var a sniff.Autodetector
	a.Reset(nil)
	high, sawSure, sawUnsure := 0, false, false
	for n := 1; n <= len(in); n++ {
		if in[n-1] >= 0x80 {
			high++
		}
		enc, ok := a.Detect(in[:n], false)
		want := ok && high >= sniff.EnoughEvidence(enc)
		if got := a.Sure(); got != want {
			t.Fatalf("prefix %d (%d non-ASCII bytes): Detect = %v, %v; Sure = %v, want %v", n, high, enc, ok, got, want)
		}
		sawSure, sawUnsure = sawSure || want, sawUnsure || ok && !want
	}
	if !sawSure || !sawUnsure {
		t.Fatalf("the text never gave a sure (%v) or an unsure (%v) answer", sawSure, sawUnsure)
	}
	few := []byte("<p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0") // a few Cyrillic letters
	tests := []struct {
		desc  string
		opts  sniff.Options
		in    []byte
		atEOF bool
		want  bool
	}{
		{"few letters", sniff.Options{}, few, false, false},
		{"few letters, the whole input", sniff.Options{}, few, true, true},
		// A few bytes of valid UTF-8 may be legacy text by chance.
		{"valid UTF-8, one letter", sniff.Options{}, []byte("<p>caf\u00e9"), false, false},
		{"valid UTF-8, one letter, the whole input", sniff.Options{}, []byte("<p>caf\u00e9"), true, true},
		{"valid UTF-8, 8 letters", sniff.Options{}, []byte(strings.Repeat("<p>caf\u00e9", 8)), false, true},
		{"ASCII", sniff.Options{}, []byte("<p>cafe"), true, false},
		{"a caller's Detector", sniff.Options{Detector: &lenDetector{}}, make([]byte, 200), false, true},
		{"a caller's Detector declining", sniff.Options{Detector: &lenDetector{}}, make([]byte, 50), false, false},
	}
	for _, tc := range tests {
		a.Reset(&tc.opts)
		a.Detect(tc.in, tc.atEOF)
		if got := a.Sure(); got != tc.want {
			t.Errorf("%s: Sure = %v, want %v", tc.desc, got, tc.want)
		}
	}
	a.Release()
}

// TestProvisional: Sniff's answer is provisional only when the built-in
// detector guessed on statistics from fewer than EnoughEvidence(guess) non-ASCII
// bytes and more input may follow.
func TestProvisional(t *testing.T) {
	few := "<p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0</p>" // 9 Cyrillic letters in windows-1251
	many := "<p>" + strings.Repeat("\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! ", 15) + "</p>"
	greek := "<p>" + strings.Repeat("\xca\xe1\xeb\xe7\xec\xdd\xf1\xe1 \xea\xfc\xf3\xec\xe5! ", 15) + "</p>" // Καλημέρα κόσμε in windows-1253
	tests := []struct {
		desc string
		in   string
		opts sniff.Options
		src  sniff.Source // Sniff's source
		want bool
	}{
		{"few letters", few, sniff.Options{}, sniff.SourceAutodetect, true},
		{"many letters", many, sniff.Options{}, sniff.SourceAutodetect, false},
		// windows-1253 and ISO-8859-7 differ in a few letters, which may
		// come late: never sure before the end.
		{"many Greek letters", greek, sniff.Options{}, sniff.SourceAutodetect, true},
		{"many Greek letters, the whole input", greek, sniff.Options{AtEOF: true}, sniff.SourceAutodetect, false},
		{"few letters, the whole input", few, sniff.Options{AtEOF: true}, sniff.SourceAutodetect, false},
		{"few letters, a caller's Detector", few, sniff.Options{Detector: &lenDetector{}}, sniff.SourceDefault, false},
		{"few letters, declared", "<meta charset=koi8-r>" + few, sniff.Options{}, sniff.SourcePrescan, false},
		{"few letters, likely", few, sniff.Options{Likely: override.Windows1251}, sniff.SourceLikely, false},
		{"valid UTF-8, one letter", "<p>caf\u00e9", sniff.Options{}, sniff.SourceAutodetect, false},
		{"valid UTF-8, 8 letters", strings.Repeat("<p>caf\u00e9", 8), sniff.Options{}, sniff.SourceAutodetect, false},
		{"ASCII", "<p>cafe", sniff.Options{}, sniff.SourceDefault, false},
	}
	for _, tc := range tests {
		res := sniff.Sniff([]byte(tc.in), &tc.opts)
		if res.Source != tc.src {
			t.Fatalf("%s: Sniff = %+v, want source %v", tc.desc, res, tc.src)
		}
		in := []byte(tc.in)
		if a := testing.AllocsPerRun(10, func() { sniff.Provisional(in, res, &tc.opts) }); a != 0 {
			t.Errorf("%s: Provisional allocates %v times", tc.desc, a)
		}
		if got := sniff.Provisional([]byte(tc.in), res, &tc.opts); got != tc.want {
			t.Errorf("%s: Provisional(%+v) = %v, want %v", tc.desc, res, got, tc.want)
		}
	}
}
