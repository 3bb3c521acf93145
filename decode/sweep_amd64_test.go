//go:build !purego

package decode

import (
	"bytes"
	"io"
	"slices"
	"testing"
	"time"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"

	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
)

// loopModes are the configurations BenchmarkLoops compares in one
// process: the Go twins (as in a purego build or on a CPU without AVX2),
// the AVX2 loops alone, and with the AVX-512 latin loop.
var loopModes = []struct {
	name         string
	sweep, latin bool
}{{"go", false, false}, {"avx2", true, false}, {"latin", true, true}}

// BenchmarkLoops decodes each bench sample, with LF and with CR LF line
// ends, through Read and WriteTo, under each of loopModes in turn in each
// iteration (sweepOK and latinOK set for each), and reports the ratios of
// their median times: go/avx2 (the Go twins' time over the AVX2 loops')
// and avx2/latin (the AVX2 loops' over the latin loop's). The modes take
// turns and the medians drop the turns another process interrupted, so
// that the ratios hold on a busy machine. The latin mode runs only where
// the CPU has the latin loop.
func BenchmarkLoops(b *testing.B) {
	if !sweepOK {
		b.Skip(noSweep)
	}
	// cut8K keeps the first 8 KB; to1252 encodes the UTF-8 sample in
	// windows-1252 (English: almost all ASCII, a few curly quotes).
	cut8K := func(b []byte) []byte { return b[:8<<10] }
	to1252 := func(b []byte) []byte {
		out, err := encoding.ReplaceUnsupported(charmap.Windows1252.NewEncoder()).Bytes(b)
		if err != nil {
			panic(err)
		}
		return out
	}
	samples := []struct {
		name, file string
		e          override.Encoding
		edit       func([]byte) []byte
	}{
		{"utf-8/english", "utf-8-english.html", override.UTF8, nil},
		{"utf-8/french", "utf-8-french.html", override.UTF8, nil},
		{"utf-8/japanese", "utf-8-japanese.html", override.UTF8, nil},
		{"windows-1252/french", "windows-1252.html", override.Windows1252, nil},
		{"windows-1252/french-8KB", "windows-1252.html", override.Windows1252, cut8K},
		{"windows-1252/english", "utf-8-english.html", override.Windows1252, to1252},
		{"windows-1251/russian", "windows-1251.html", override.Windows1251, nil},
		{"shift_jis/japanese", "shift_jis.html", override.ShiftJIS, nil},
		{"euc-jp/japanese", "euc-jp.html", override.EUCJP, nil},
		{"gbk/chinese", "gbk.html", override.GBK, nil},
	}
	wasSweep, wasLatin := sweepOK, latinOK
	defer func() { sweepOK, latinOK = wasSweep, wasLatin }()
	modes := loopModes
	if !cpuLatinOK {
		modes = modes[:2]
	}
	for _, s := range samples {
		for _, ends := range []string{"lf", "crlf"} {
			for _, path := range []string{"read", "writeto"} {
				b.Run(s.name+"/"+ends+"/"+path, func(b *testing.B) {
					data := testutil.BenchSample(b, s.file)
					if s.edit != nil {
						data = s.edit(data)
					}
					if ends == "crlf" {
						data = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
					}
					var ns [3][]time.Duration
					src := bytes.NewReader(data)
					r, err := NewReader(src, WithEncoding(s.e))
					if err != nil {
						b.Fatal(err)
					}
					buf := make([]byte, 32<<10)
					b.SetBytes(int64(len(data)))
					for b.Loop() {
						for k, m := range modes {
							sweepOK, latinOK = m.sweep, m.latin
							t0 := time.Now()
							src.Reset(data)
							r.Reset(src, WithEncoding(s.e))
							if path == "read" {
								for {
									if _, err := r.Read(buf); err != nil {
										break
									}
								}
							} else {
								r.WriteTo(io.Discard)
							}
							ns[k] = append(ns[k], time.Since(t0))
						}
					}
					b.ReportMetric(float64(median(ns[0]))/float64(median(ns[1])), "go/avx2")
					if len(modes) == 3 {
						b.ReportMetric(float64(median(ns[1]))/float64(median(ns[2])), "avx2/latin")
					}
				})
			}
		}
	}
}

// median returns the median of d, which it sorts.
func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}

// BenchmarkIndexPair looks for CR and NUL in 64 KB of Japanese text (the
// search of the double-byte path) with the assembly and its Go twin in
// turn in each iteration, where there is neither, where a CR ends each
// line (the search stops at each), and reports go/asm, the ratio of
// their median times.
func BenchmarkIndexPair(b *testing.B) {
	if !sweepOK {
		b.Skip(noSweep)
	}
	lf := testutil.BenchSample(b, "shift_jis.html")
	for _, c := range []struct {
		name string
		data []byte
	}{{"none", lf}, {"crlf", bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))}} {
		b.Run(c.name, func(b *testing.B) {
			var ns [2][]time.Duration
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				for k, f := range []func([]byte, byte, byte) int{indexPair, indexPairGeneric} {
					t0 := time.Now()
					for s := c.data; ; {
						i := f(s, '\r', 0)
						if i < 0 {
							break
						}
						s = s[i+1:]
					}
					ns[k] = append(ns[k], time.Since(t0))
				}
			}
			b.ReportMetric(float64(median(ns[1]))/float64(median(ns[0])), "go/asm")
		})
	}
}
