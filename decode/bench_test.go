package decode_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
)

// benchSamples are the 64 KB pages of bench/testdata/sample (real text: the
// HTML drafts and translated man pages, see its SOURCE.md), by encoding:
// those in legacy encodings encoded from the UTF-8 texts (benchpage).
var benchSamples = []struct {
	name, file, label string
}{
	{"utf-8/english", "utf-8-english.html", "utf-8"},
	{"utf-8/french", "utf-8-french.html", "utf-8"},
	{"utf-8/russian", "utf-8-russian.html", "utf-8"},
	{"utf-8/japanese", "utf-8-japanese.html", "utf-8"},
	{"windows-1252/french", "windows-1252.html", "windows-1252"},
	{"windows-1251/russian", "windows-1251.html", "windows-1251"},
	{"shift_jis/japanese", "shift_jis.html", "shift_jis"},
	{"euc-jp/japanese", "euc-jp.html", "euc-jp"},
	{"gbk/chinese", "gbk.html", "gbk"},
}

// benchRead decodes data with the Reader options opts to the end with Read
// into a 32 KB buffer, reusing one Reader (Reset with the same options).
func benchRead(b *testing.B, data []byte, opts []decode.Option) {
	src := bytes.NewReader(data)
	r, err := decode.NewReader(src, opts...)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 32<<10)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		src.Reset(data)
		r.Reset(src, opts...) // Reset does not keep options
		for {
			if _, err := r.Read(buf); err != nil {
				break
			}
		}
	}
}

// benchWriteTo decodes data with the Reader options opts to the end with
// WriteTo, with a new Reader for each iteration (fresh) or one Reader
// Reset for each.
func benchWriteTo(b *testing.B, data []byte, opts []decode.Option, fresh bool) {
	src := bytes.NewReader(data)
	r, err := decode.NewReader(src, opts...)
	if err != nil {
		b.Fatal(err)
	}
	var sink discard
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		src.Reset(data)
		if fresh {
			r, _ = decode.NewReader(src, opts...)
		} else {
			r.Reset(src, opts...) // Reset does not keep options
		}
		r.WriteTo(&sink)
	}
}

// lookaheadModes are the look-ahead settings the benchmarks of undeclared
// pages compare: the default look-ahead, and the window alone.
var lookaheadModes = []struct {
	name string
	opts []decode.Option
}{
	{"default", nil},
	{"window", []decode.Option{windowOnly}},
}

// BenchmarkRead decodes each sample with Read into a 32 KB buffer, with
// the preprocessing on, reusing the Reader (Reset).
func BenchmarkRead(b *testing.B) {
	for _, s := range benchSamples {
		b.Run(s.name, func(b *testing.B) {
			benchRead(b, testutil.BenchSample(b, s.file), []decode.Option{withOverride(s.label)})
		})
	}
}

// BenchmarkWriteTo is BenchmarkRead through WriteTo.
func BenchmarkWriteTo(b *testing.B) {
	for _, s := range benchSamples[:1:1] {
		b.Run(s.name, func(b *testing.B) {
			benchWriteTo(b, testutil.BenchSample(b, s.file), []decode.Option{withOverride(s.label)}, false)
		})
	}
}

// BenchmarkReadCRLF decodes each sample with Read, as BenchmarkRead does,
// with LF line ends and with CR LF, the two in turn in each iteration, and
// reports the speed of each (lf-MB/s, crlf-MB/s, of input) and crlf/lf,
// the one's speed as a share of the other's: a cliff in the CR LF paths
// (a CPU that makes them slow, as legacy SSE once did on AMD Zen 3) shows
// there whatever the machine's own speed. It logs the loops that run
// (GODEBUG=cpu.…=off, docs/speed.md); go test prints the CPU.
func BenchmarkReadCRLF(b *testing.B) {
	for _, s := range benchSamples {
		b.Run(s.name, func(b *testing.B) {
			lf := testutil.BenchSample(b, s.file)
			crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
			opts := []decode.Option{withOverride(s.label)}
			halves := [2]struct {
				data []byte
				src  *bytes.Reader
				r    *decode.Reader
				ns   time.Duration
			}{{data: lf}, {data: crlf}}
			for k := range halves {
				h := &halves[k]
				h.src = bytes.NewReader(h.data)
				h.r, _ = decode.NewReader(h.src, opts...)
			}
			buf := make([]byte, 32<<10)
			b.SetBytes(int64(len(lf) + len(crlf)))
			for b.Loop() {
				for k := range halves {
					h := &halves[k]
					t0 := time.Now()
					h.src.Reset(h.data)
					h.r.Reset(h.src, opts...)
					for {
						if _, err := h.r.Read(buf); err != nil {
							break
						}
					}
					h.ns += time.Since(t0)
				}
			}
			mbps := func(k int) float64 {
				return float64(b.N) * float64(len(halves[k].data)) / halves[k].ns.Seconds() / 1e6
			}
			b.ReportMetric(mbps(0), "lf-MB/s")
			b.ReportMetric(mbps(1), "crlf-MB/s")
			b.ReportMetric(mbps(1)/mbps(0), "crlf/lf")
		})
	}
}

// TestMain prints, when benchmarks run, a line "loops: ..." among go
// test's goos, goarch and cpu lines: the decoder's vector loops in this
// process (GODEBUG=cpu.…=off, docs/speed.md), a configuration that benchstat
// keeps beside the CPU.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		fmt.Printf("loops: %s (GODEBUG=%s)\n", decode.ActiveLoops(), os.Getenv("GODEBUG"))
	}
	os.Exit(m.Run())
}

// BenchmarkNewReader measures creating a Reader over a small page.
func BenchmarkNewReader(b *testing.B) {
	page := "<!doctype html><meta charset=utf-8><title>x</title><p>hello"
	src := strings.NewReader(page)
	b.ReportAllocs()
	for b.Loop() {
		src.Reset(page)
		decode.NewReader(src)
	}
}

// BenchmarkLookahead decodes each sample with the encoding sniffed (none
// declares it), reusing one Reader, with the default look-ahead and with
// the window alone: the cost of the browser-final default.
func BenchmarkLookahead(b *testing.B) {
	for _, s := range benchSamples {
		for _, mode := range lookaheadModes {
			b.Run(s.name+"/"+mode.name, func(b *testing.B) {
				benchRead(b, testutil.BenchSample(b, s.file), mode.opts)
			})
		}
	}
}

// BenchmarkLateDetect decodes the English sample in windows-1252 (its
// typographic quotes and dashes become single bytes), declared nowhere:
// its first non-ASCII byte lies past 20 KB and the few after it make the
// detector decline at first, so late autodetection goes on over longer
// prefixes of the held bytes.
func BenchmarkLateDetect(b *testing.B) {
	for _, mode := range lookaheadModes {
		b.Run("windows-1252/english/"+mode.name, func(b *testing.B) {
			data, err := encoding.ReplaceUnsupported(charmap.Windows1252.NewEncoder()).Bytes(testutil.BenchSample(b, "utf-8-english.html"))
			if err != nil {
				b.Fatal(err)
			}
			benchRead(b, data, mode.opts)
		})
	}
}

// BenchmarkFreshReader decodes a document of 1, 8 and 64 KB (the start of
// the French UTF-8 sample, with its Content-Type, as a crawler's response)
// to the end with WriteTo, with a new Reader for each document ("fresh")
// and with one Reader reset for each ("reused"): the cost of the Reader
// itself. (Without a charset, the window's autodetection costs more than
// decoding 1 KB.)
func BenchmarkFreshReader(b *testing.B) {
	for _, size := range []int{1 << 10, 8 << 10, 64 << 10} {
		for _, fresh := range []bool{true, false} {
			name := fmt.Sprintf("%dKB/reused", size>>10)
			if fresh {
				name = fmt.Sprintf("%dKB/fresh", size>>10)
			}
			b.Run(name, func(b *testing.B) {
				data := testutil.BenchSample(b, "utf-8-french.html")[:size]
				benchWriteTo(b, data, []decode.Option{withContentType("text/html; charset=utf-8")}, fresh)
			})
		}
	}
}

// BenchmarkFreshUndeclared decodes the start of the French UTF-8 sample,
// 512 bytes (shorter than the window), 1 and 8 KB, declared nowhere, to
// the end with WriteTo and a new Reader for each document, with the
// default look-ahead and with the window alone: the look-ahead's cost on
// small pages.
func BenchmarkFreshUndeclared(b *testing.B) {
	for _, size := range []int{512, 1 << 10, 8 << 10} {
		for _, mode := range lookaheadModes {
			name := fmt.Sprintf("%dKB/%s", size>>10, mode.name)
			if size < 1<<10 {
				name = fmt.Sprintf("%dB/%s", size, mode.name)
			}
			b.Run(name, func(b *testing.B) {
				benchWriteTo(b, testutil.BenchSample(b, "utf-8-french.html")[:size], mode.opts, true)
			})
		}
	}
}

// BenchmarkMislabeled decodes pages in other encodings as UTF-8, as a
// wrong charset label makes a reader do: ill-formed input throughout, the
// careful path's work (a U+FFFD for each bad sequence).
func BenchmarkMislabeled(b *testing.B) {
	for _, s := range benchSamples {
		if s.label == "utf-8" {
			continue
		}
		b.Run(s.name, func(b *testing.B) {
			benchRead(b, testutil.BenchSample(b, s.file), []decode.Option{withOverride("utf-8")})
		})
	}
}

// largeText returns the English UTF-8 sample repeated to at least n bytes,
// with LF line ends, or CR LF if crlf.
func largeText(b *testing.B, n int, crlf bool) []byte {
	s := testutil.BenchSample(b, "utf-8-english.html")
	if crlf {
		s = bytes.ReplaceAll(s, []byte("\n"), []byte("\r\n"))
	}
	return bytes.Repeat(s, (n+len(s)-1)/len(s))
}

// benchPair decodes two inputs in turn in each iteration, reusing a
// Reader for each, through Read into 32 KB (writeTo false) or WriteTo, and
// reports the speed of each (<a>-MB/s, <b>-MB/s, of input) and <b>/<a>,
// the one's speed as a share of the other's, which carries to another
// machine, and to a busy one, where the speeds do not.
func benchPair(b *testing.B, names [2]string, inputs [2][]byte, opts []decode.Option, writeTo bool) {
	var halves [2]struct {
		src *bytes.Reader
		r   *decode.Reader
		ns  time.Duration
	}
	for k := range halves {
		halves[k].src = bytes.NewReader(inputs[k])
		halves[k].r, _ = decode.NewReader(halves[k].src, opts...)
	}
	buf := make([]byte, 32<<10)
	var sink discard
	b.SetBytes(int64(len(inputs[0]) + len(inputs[1])))
	b.ReportAllocs()
	for b.Loop() {
		for k := range halves {
			h := &halves[k]
			t0 := time.Now()
			h.src.Reset(inputs[k])
			h.r.Reset(h.src, opts...)
			if writeTo {
				h.r.WriteTo(&sink)
			} else {
				for {
					if _, err := h.r.Read(buf); err != nil {
						break
					}
				}
			}
			h.ns += time.Since(t0)
		}
	}
	mbps := func(k int) float64 {
		return float64(b.N) * float64(len(inputs[k])) / halves[k].ns.Seconds() / 1e6
	}
	b.ReportMetric(mbps(0), names[0]+"-MB/s")
	b.ReportMetric(mbps(1), names[1]+"-MB/s")
	b.ReportMetric(mbps(1)/mbps(0), names[1]+"/"+names[0])
}

// BenchmarkLarge decodes 4 MB of English UTF-8 text with LF and with CR LF
// line ends, in turn (benchPair), through Read and WriteTo: CR LF text
// should run at no less than half the speed of LF text on large inputs
// too (crlf/lf).
func BenchmarkLarge(b *testing.B) {
	inputs := [2][]byte{largeText(b, 4<<20, false), largeText(b, 4<<20, true)}
	opts := []decode.Option{withOverride("utf-8")}
	for _, writeTo := range []bool{false, true} {
		name := "Read"
		if writeTo {
			name = "WriteTo"
		}
		b.Run(name, func(b *testing.B) { benchPair(b, [2]string{"lf", "crlf"}, inputs, opts, writeTo) })
	}
}

// BenchmarkNUL decodes 4 MB of letters and 4 MB of NUL bytes, in turn
// (benchPair), as UTF-8 and as windows-1252, through Read and WriteTo:
// each NUL becomes U+FFFD, three bytes, and a page of them should decode
// at no less than half the speed of a page of letters (nul/letters).
func BenchmarkNUL(b *testing.B) {
	inputs := [2][]byte{bytes.Repeat([]byte{'a'}, 4<<20), make([]byte, 4<<20)}
	for _, label := range []string{"utf-8", "windows-1252"} {
		opts := []decode.Option{withOverride(label)}
		for _, writeTo := range []bool{false, true} {
			name := label + "/Read"
			if writeTo {
				name = label + "/WriteTo"
			}
			b.Run(name, func(b *testing.B) { benchPair(b, [2]string{"letters", "nul"}, inputs, opts, writeTo) })
		}
	}
}
