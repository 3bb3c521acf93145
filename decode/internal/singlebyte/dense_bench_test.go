package singlebyte

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"

	"github.com/charsniff/charsniff/internal/benchpage"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
)

// denseCorpora are the Russian sample text (bench/testdata/sample) in the
// Cyrillic single-byte encodings, cut to 64 KB, with no NUL or CR.
var denseCorpora = []struct {
	name   string
	e      override.Encoding
	x      encoding.Encoding
	threes bool // an em dash in every 16 bytes
}{
	{"windows-1251", override.Windows1251, charmap.Windows1251, false},
	{"windows-1251-dashes", override.Windows1251, charmap.Windows1251, true},
	{"koi8-r", override.KOI8R, charmap.KOI8R, false},
	{"iso-8859-5", override.ISO8859_5, charmap.ISO8859_5, false},
	{"ibm866", override.IBM866, charmap.CodePage866, false},
}

// BenchmarkDense decodes each corpus with Dense into a 4 KB buffer, as
// package decode's WriteTo does, with the Vector (vector: the assembly
// where it runs, else the Go twin) and without (words, the twin). MB/s is of input, cpu-MB/s over the benchmark thread's CPU
// time (Linux), which leaves out the time other processes hold the core;
// go-over-vector runs both in turn and reports go/vector, the ratio of
// their median times.
func BenchmarkDense(b *testing.B) {
	text, err := os.ReadFile(filepath.Join(testutil.Root(b), "bench", "testdata", "sample", "utf-8-russian.html"))
	if err != nil {
		b.Skip(err)
	}
	for _, c := range denseCorpora {
		src, err := benchpage.Encode(c.x, text)
		if err != nil {
			b.Fatal(err)
		}
		src = []byte(strings.NewReplacer("\r", "\n", "\x00", " ").Replace(string(src))[:benchpage.SampleSize])
		if c.threes {
			// A byte whose UTF-8 is three bytes in every 16 (an
			// em dash, 0x97 in windows-1251): the worst case of
			// the vector loop, which hands every block to the table.
			for k := 40; k < len(src); k += 16 {
				src[k] = 0x97
			}
		}
		t, v := Preprocess(c.e), Vec(c.e)
		loops := []struct {
			name string
			run  func(dst, src []byte) (int, int)
		}{
			{"vector", func(dst, src []byte) (int, int) { return Dense(dst, src, t, v) }},
			{"words", func(dst, src []byte) (int, int) { return Dense(dst, src, t, nil) }},
		}
		b.Run(c.name+"/go-over-vector", func(b *testing.B) {
			// Both loops in turn on each iteration; go/vector is the
			// ratio of their median times, robust to the turns another
			// process takes.
			dst := make([]byte, 4<<10)
			var ns [2][]time.Duration
			for b.Loop() {
				for k, l := range loops {
					t0 := time.Now()
					for i := 0; i < len(src); {
						n, _ := l.run(dst, src[i:])
						if n == 0 {
							n = len(src) - i
						}
						i += n
					}
					ns[k] = append(ns[k], time.Since(t0))
				}
			}
			b.ReportMetric(float64(medianDuration(ns[1]))/float64(medianDuration(ns[0])), "go/vector")
		})
		for _, l := range loops {
			b.Run(c.name+"/"+l.name, func(b *testing.B) {
				s := src
				dst := make([]byte, 4<<10)
				b.SetBytes(int64(len(s)))
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu0 := testutil.ThreadCPU()
				for b.Loop() {
					for i := 0; i < len(s); {
						n, _ := l.run(dst, s[i:])
						if n == 0 {
							n = len(s) - i // the tail: the caller's
						}
						i += n
					}
				}
				if ns := testutil.ThreadCPU() - cpu0; cpu0 >= 0 && ns > 0 {
					b.ReportMetric(float64(b.N)*float64(len(s))/float64(ns)*1e3, "cpu-MB/s")
				}
			})
		}
	}
}

// medianDuration returns the median of ds, which it sorts.
func medianDuration(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}
