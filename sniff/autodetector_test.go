package sniff_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
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
