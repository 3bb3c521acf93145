package autodetect_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/charsniff/charsniff/internal/autodetect"
	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// config is the Config the autodetection step reads of o.
func config(o sniff.Options) *autodetect.Config {
	return &autodetect.Config{Detector: o.Detector, Locale: o.Locale, TLD: o.TLD, Off: o.NoAutodetect, All: o.DetectAll}
}

// step is the autodetection step of sniff.Sniff with the built-in
// detector, as Sniff runs it, alone: no answer is Unknown.
func step(p []byte, o *sniff.Options) (override.Encoding, bool) {
	if e, ok := autodetect.Builtin(p, o.Locale, o.TLD, o.AtEOF, o.DetectAll); ok {
		return e, true
	}
	return override.Unknown, false
}

// windowStep is an Autodetector's Window as the autodetection step of a
// sniffing (its Options.Detector), as package decode runs it.
type windowStep struct {
	a     *autodetect.Autodetector
	c     autodetect.Config
	atEOF bool
}

func (w *windowStep) Detect(p []byte) (override.Encoding, bool) { return w.a.Window(p, &w.c, w.atEOF) }

// ws is sniffWith's step, kept so that sniffWith does not allocate.
var ws windowStep

// sniffWith runs sniff.Sniff over in with opts and a's Window as its
// built-in autodetection step, as package decode does; a caller's
// Detector is Sniff's own step.
func sniffWith(a *autodetect.Autodetector, in []byte, opts *sniff.Options) sniff.Result {
	var o sniff.Options
	if opts != nil {
		o = *opts
	}
	a.Release()
	if o.Detector != nil || o.NoAutodetect {
		return sniff.Sniff(in, &o)
	}
	ws = windowStep{a, *config(o), o.AtEOF}
	o.Detector = &ws
	return sniff.Sniff(in, &o)
}

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
	files, err := filepath.Glob(filepath.Join("..", "..", "detect", "testdata", "heldout", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no held-out text: %v", err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var a autodetect.Autodetector
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
				a.Reset(config(opts))
				n := 0
				for n < len(in) {
					n = min(len(in), n+rng.IntN(64)) // also the same prefix again
					atEOF := n == len(in) && rng.IntN(2) == 0
					got, gotOK := a.Detect(in[:n], atEOF)
					o := opts
					o.AtEOF = atEOF
					want, wantOK := step(in[:n], &o)
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
	var a autodetect.Autodetector
	a.Reset(&autodetect.Config{Off: true})
	if e, ok := a.Detect([]byte("caf\u00e9"), true); ok {
		t.Errorf("NoAutodetect: Detect = %v, true", e)
	}
	d := &lenDetector{}
	a.Reset(&autodetect.Config{Detector: d})
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
	if testutil.Race {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	in := []byte("<p>caf\xe9 cr\xe8me br\xfbl\xe9e, \xe0 la fran\xe7aise")
	var a autodetect.Autodetector
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
	text, err := os.ReadFile(filepath.Join("..", "..", "detect", "testdata", "heldout", "ru.txt"))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := htmlindex.Get("windows-1251")
	in, err := encoding.ReplaceUnsupported(e.NewEncoder()).Bytes(text)
	if err != nil {
		t.Fatal(err)
	}
	var a autodetect.Autodetector
	a.Reset(nil)
	high, sawSure, sawUnsure := 0, false, false
	for n := 1; n <= len(in); n++ {
		if in[n-1] >= 0x80 {
			high++
		}
		enc, ok := a.Detect(in[:n], false)
		want := ok && high >= autodetect.EnoughEvidence(enc)
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
		a.Reset(config(tc.opts))
		a.Detect(tc.in, tc.atEOF)
		if got := a.Sure(); got != tc.want {
			t.Errorf("%s: Sure = %v, want %v", tc.desc, got, tc.want)
		}
	}
	a.Release()
}

// TestProvisional: Autodetector.Sniff's answer is Sniff's, and
// provisional only when the built-in detector guessed on statistics from
// fewer than EnoughEvidence(guess) non-ASCII bytes (for a Greek guess,
// also while its rival is in the running) and more input may follow.
func TestProvisional(t *testing.T) {
	few := "<p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0</p>" // 9 Cyrillic letters in windows-1251
	many := "<p>" + strings.Repeat("\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! ", 15) + "</p>"
	quotes := strings.Repeat("Key \x93%s\x94 in group \x93%s\x94 didn\x92t \x97 work\n", 8)
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
		// windows-1253 and ISO-8859-7 differ in a few bytes, which may
		// come late: not sure while both are in the running.
		{"many Greek letters", greek, sniff.Options{}, sniff.SourceAutodetect, true},
		// “ and ” (0x93, 0x94) are C1 controls in ISO-8859-7, which they
		// rule out.
		{"many Greek letters, quoted", "<p>\x93" + greek[3:] + "\x94", sniff.Options{}, sniff.SourceAutodetect, false},
		{"few Greek letters, quoted", "<p>\x93\xca\xe1\xeb\xe7\xec\xdd\xf1\xe1\x94", sniff.Options{}, sniff.SourceAutodetect, true},
		{"many Greek letters, the whole input", greek, sniff.Options{AtEOF: true}, sniff.SourceAutodetect, false},
		{"few letters, the whole input", few, sniff.Options{AtEOF: true}, sniff.SourceAutodetect, false},
		// Curly quotes are the same in every windows encoding: however
		// many, no evidence to keep a guess on.
		{"English with curly quotes", quotes, sniff.Options{}, sniff.SourceAutodetect, true},
		{"English with curly quotes, then Cyrillic", quotes + many, sniff.Options{}, sniff.SourceAutodetect, false},
		{"few letters, a caller's Detector", few, sniff.Options{Detector: &lenDetector{}}, sniff.SourceDefault, false},
		{"few letters, declared", "<meta charset=koi8-r>" + few, sniff.Options{}, sniff.SourcePrescan, false},
		{"few letters, likely", few, sniff.Options{Likely: override.Windows1251}, sniff.SourceLikely, false},
		{"valid UTF-8, one letter", "<p>caf\u00e9", sniff.Options{}, sniff.SourceAutodetect, false},
		{"valid UTF-8, 8 letters", strings.Repeat("<p>caf\u00e9", 8), sniff.Options{}, sniff.SourceAutodetect, false},
		{"ASCII", "<p>cafe", sniff.Options{}, sniff.SourceDefault, false},
	}
	var a autodetect.Autodetector
	defer a.Release()
	for _, tc := range tests {
		in := []byte(tc.in)
		want := sniff.Sniff(in, &tc.opts)
		if want.Source != tc.src {
			t.Fatalf("%s: Sniff = %+v, want source %v", tc.desc, want, tc.src)
		}
		if res := sniffWith(&a, in, &tc.opts); res != want {
			t.Errorf("%s: Autodetector.Sniff = %+v, want Sniff's %+v", tc.desc, res, want)
		}
		if got := a.Provisional(); got != tc.want {
			t.Errorf("%s: Provisional() = %v, want %v", tc.desc, got, tc.want)
		}
		if testutil.Race {
			continue // pooled state allocates (testutil.Race)
		}
		if n := testing.AllocsPerRun(10, func() { sniffWith(&a, in, &tc.opts) }); n != 0 {
			t.Errorf("%s: Autodetector.Sniff allocates %v times", tc.desc, n)
		}
	}
}

// TestAutodetectorCanBeSure: wherever CanBeSure reports false, Detect's
// answer for that prefix is not sure, on every prefix of held-out text in
// encodings that are sure from statistics (windows-1252 and UTF-8 from 16
// non-ASCII bytes) and from structure (UTF-16's zero bytes, ISO-2022-JP's
// escapes, with few or no non-ASCII bytes); and it reports false on some
// prefixes, so that late autodetection skips guesses there.
func TestAutodetectorCanBeSure(t *testing.T) {
	var a autodetect.Autodetector
	for _, name := range []string{"fr", "ru", "ja", "de"} {
		text, err := os.ReadFile(filepath.Join("..", "..", "detect", "testdata", "heldout", name+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		text = text[:min(len(text), 2048)]
		for _, label := range []string{"utf-8", "windows-1252", "windows-1251", "shift_jis", "iso-2022-jp", "utf-16le", "utf-16be"} {
			e, _ := htmlindex.Get(label)
			in, err := encoding.ReplaceUnsupported(e.NewEncoder()).Bytes(text)
			if err != nil {
				t.Fatal(err)
			}
			if label == "utf-16le" || label == "utf-16be" {
				// htmlindex's UTF-16 encoders write UTF-8.
				in = utf16Bytes(string(text), label == "utf-16be")
			}
			a.Reset(nil)
			skipped, sure := 0, 0
			for n := 1; n <= len(in); n++ {
				can := a.CanBeSure(in[:n])
				enc, ok := a.Detect(in[:n], false)
				switch {
				case a.Sure() && !can:
					t.Fatalf("%s in %s, prefix %d: Detect = %v, %v, sure; CanBeSure = false", name, label, n, enc, ok)
				case !can:
					skipped++
				case a.Sure():
					sure++
				}
			}
			a.Release()
			t.Logf("%s in %s: %d bytes, %d prefixes skipped, %d sure", name, label, len(in), skipped, sure)
		}
	}
	// CanBeSure counts on no encoding being sure from fewer than 16.
	for e := override.Encoding(1); int(e) <= override.NumEncodings; e++ {
		if n := autodetect.EnoughEvidence(e); n < 16 {
			t.Errorf("EnoughEvidence(%v) = %d, under 16", e, n)
		}
	}
	tests := []struct {
		desc string
		opts sniff.Options
		in   string
		want bool
	}{
		{"15 accented letters", sniff.Options{}, strings.Repeat("caf\xe9 ", 15), false},
		{"16 accented letters", sniff.Options{}, strings.Repeat("caf\xe9 ", 16), true},
		{"ASCII", sniff.Options{}, "<p>cafe", false},
		{"a NUL", sniff.Options{}, "<\x00p\x00>\x00", true},
		{"an ESC", sniff.Options{}, "\x1b$B", true},
		{"NoAutodetect", sniff.Options{NoAutodetect: true}, strings.Repeat("caf\xe9 ", 16), false},
		{"a caller's Detector", sniff.Options{Detector: &lenDetector{}}, "<p>", true},
	}
	for _, tc := range tests {
		a.Reset(config(tc.opts))
		if got := a.CanBeSure([]byte(tc.in)); got != tc.want {
			t.Errorf("%s: CanBeSure = %v, want %v", tc.desc, got, tc.want)
		}
	}
	a.Release()
}

// utf16Bytes encodes s in UTF-16, big-endian if be.
func utf16Bytes(s string, be bool) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		if be {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

// TestAutodetectorDrop: after Sniff over a window and Drop(k) of an ASCII
// head the window holds, Detect over the kept input answers as Autodetect
// does over the whole input (the detector goes on from the window, whose
// bytes it does not score again); after Drop past what the detector saw,
// and with a caller's Detector, as over the kept input alone.
func TestAutodetectorDrop(t *testing.T) {
	head := strings.Repeat("<link rel=stylesheet href=/s.css>\n", 12) // 408 bytes of ASCII
	for _, tc := range []struct {
		label string
		text  string
	}{
		{"windows-1252", "Où est la bibliothèque? À côté de l'église, près du marché. Voilà, c'est ça: déjà vu."},
		{"windows-1251", "Все люди рождаются свободными и равными в своем достоинстве и правах."},
		{"shift_jis", "すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。"},
		{"windows-1253", "«Όλοι οι άνθρωποι» γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια."},
	} {
		e, _ := htmlindex.Get(tc.label)
		body, err := e.NewEncoder().String(strings.Repeat(tc.text+"\n", 40))
		if err != nil {
			t.Fatal(err)
		}
		in := []byte(head + body)
		const window = 512
		var a autodetect.Autodetector
		res := sniffWith(&a, in[:window], nil)
		if res.Source != sniff.SourceAutodetect {
			t.Fatalf("%s: Sniff = %+v, want an autodetected guess", tc.label, res)
		}
		k := len(head)
		if seen := a.Drop(k); seen != window-k {
			t.Errorf("%s: Drop(%d) = %d, want %d", tc.label, k, seen, window-k)
		}
		for _, n := range []int{window - k + 1, 600, 1000, 2000, len(in) - k} {
			got, gotOK := a.Detect(in[k:k+n], false)
			want, wantOK := step(in[:k+n], &sniff.Options{})
			if got != want || gotOK != wantOK {
				t.Errorf("%s: after Drop, Detect over %d bytes = %v, %v; over the whole prefix %v, %v", tc.label, n, got, gotOK, want, wantOK)
			}
			if can := a.CanBeSure(in[k : k+n]); a.Sure() && !can {
				t.Errorf("%s: after Drop, %d bytes: Sure but not CanBeSure", tc.label, n)
			}
		}
		a.Release()

		// Dropping past what the detector saw forgets it all.
		sniffWith(&a, in[:window], nil)
		if seen := a.Drop(window + 10); seen != 0 {
			t.Errorf("%s: Drop(%d) past the window = %d, want 0", tc.label, window+10, seen)
		}
		kept := in[window+10:]
		got, gotOK := a.Detect(kept, false)
		want, wantOK := step(kept, &sniff.Options{})
		if got != want || gotOK != wantOK {
			t.Errorf("%s: after Drop past the window, Detect = %v, %v; over the kept input %v, %v", tc.label, got, gotOK, want, wantOK)
		}
		a.Release()
	}
	// A caller's Detector is asked over the kept input.
	d := &lenDetector{}
	var a autodetect.Autodetector
	a.Window([]byte(head), &autodetect.Config{Detector: d}, false)
	if seen := a.Drop(100); seen != 0 {
		t.Errorf("caller's Detector: Drop = %d, want 0", seen)
	}
	a.Detect([]byte(head[100:]), false)
	if want := []int{len(head), len(head) - 100}; !slices.Equal(d.lens, want) {
		t.Errorf("caller's Detector asked over %v, want %v", d.lens, want)
	}
	a.Release()
}

// TestAutodetectorAll: Config.All widens an Autodetector's guesses as
// Options.DetectAll widens Sniff's, and a pooled detector that was wide
// just before guesses as a browser's again without it.
func TestAutodetectorAll(t *testing.T) {
	text := "Le c\u0153ur a ses raisons que la raison ne conna\u00eet point. Un b\u0153uf co\u00fbte 500 \u20ac \u00e0 l'\u0153il nu, dit la s\u0153ur."
	b, _ := corpus.Encode(override.ISO8859_15, text)
	doc := append(append([]byte("<!DOCTYPE html><title>x</title><p>"), b...), "</p>"...)
	for _, all := range []bool{true, false, true, false} {
		want := override.Windows1252
		if all {
			want = override.ISO8859_15
		}
		var a autodetect.Autodetector
		a.Reset(&autodetect.Config{All: all})
		for _, n := range []int{len(doc) / 2, len(doc)} {
			got, ok := a.Detect(doc[:n], n == len(doc))
			if n == len(doc) && (!ok || got != want) {
				t.Errorf("All %v: Detect = %v, %v, want %v", all, got, ok, want)
			}
		}
		a.Release()
	}
}
