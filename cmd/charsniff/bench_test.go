package main

import (
	"bufio"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charsniff/charsniff/internal/warctest"
)

// BenchmarkWARC runs the command in-process over a generated crawl of
// -warcbench.size bytes (200 MB by default, written to a temporary file in
// the setup): "sniff" is charsniff --json FILE, a line per response record
// from its first 1024 bytes; "decode" is charsniff --decode --json FILE,
// which also decodes every page into its line. For the gzip file,
// "gunzip" is the baseline: compress/gzip inflating the file to io.Discard
// on one core, in the same run. MB/s counts the file as
// stored; records/s counts every WARC record (a request, a response and a
// metadata record per page), pages/s the response records; peak-heap-MB is
// the largest heap of live and unswept objects, sampled every millisecond.
func BenchmarkWARC(b *testing.B) {
	for _, compress := range []bool{true, false} {
		name := "gzip"
		if !compress {
			name = "plain"
		}
		b.Run(name, func(b *testing.B) {
			path, st, _ := warctest.BenchCrawl(b, compress)
			fi, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			if compress {
				b.Run("gunzip", func(b *testing.B) { benchGunzip(b, path, fi.Size()) })
			}
			for _, mode := range []struct {
				name string
				args []string
			}{
				{"sniff", []string{"--json", path}},
				{"decode", []string{"--decode", "--json", path}},
			} {
				b.Run(mode.name, func(b *testing.B) {
					b.SetBytes(fi.Size())
					b.ReportAllocs()
					peak := samplePeakHeap()
					for b.Loop() {
						lines := &lineCounter{}
						if code := run(mode.args, nil, lines, io.Discard); code != 0 {
							b.Fatalf("exit %d", code)
						}
						if lines.n != st.Responses {
							b.Fatalf("%d lines, want %d", lines.n, st.Responses)
						}
					}
					secs := b.Elapsed().Seconds()
					b.ReportMetric(float64(st.Records)*float64(b.N)/secs, "records/s")
					b.ReportMetric(float64(st.Responses)*float64(b.N)/secs, "pages/s")
					b.ReportMetric(float64(st.Bytes)*float64(b.N)/secs/1e6, "uncompressed-MB/s")
					b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MB")
				})
			}
		})
	}
}

// benchGunzip inflates the gzip file path (of size bytes) to io.Discard.
func benchGunzip(b *testing.B, path string, size int64) {
	b.SetBytes(size)
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		zr, err := gzip.NewReader(bufio.NewReaderSize(f, 64<<10))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// lineCounter counts the lines written to it.
type lineCounter struct{ n int }

func (c *lineCounter) Write(p []byte) (int, error) {
	for _, b := range p {
		if b == '\n' {
			c.n++
		}
	}
	return len(p), nil
}

// samplePeakHeap samples the heap in use (runtime/metrics, which does not
// stop the world as runtime.ReadMemStats does) every millisecond until the
// returned function is called, which returns the largest value seen.
func samplePeakHeap() func() uint64 {
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		return peak.Load()
	}
}

// BenchmarkJSONText escapes decoded pages in the 4 KB writes
// decode.Reader's WriteTo makes: the samples' golden texts repeated to
// 256 KB, "latin" those of pages in Latin script (mostly ASCII, as the
// markup of most pages is), "cjk" the others (Japanese, Korean, Chinese,
// Cyrillic: mostly multi-byte).
func BenchmarkJSONText(b *testing.B) {
	golden, err := filepath.Glob(filepath.Join(root, "samples", "golden", "*.utf8"))
	if err != nil || len(golden) == 0 {
		b.Fatal("no golden texts", err)
	}
	texts := map[string][]byte{}
	for len(texts["latin"]) < 256<<10 || len(texts["cjk"]) < 256<<10 {
		for _, g := range golden {
			t, err := os.ReadFile(g)
			if err != nil {
				b.Fatal(err)
			}
			k := "cjk"
			if utf8.RuneCount(t) > len(t)*9/10 {
				k = "latin"
			}
			texts[k] = append(texts[k], t...)
		}
	}
	for _, name := range []string{"latin", "cjk"} {
		text := texts[name][:256<<10]
		b.Run(name, func(b *testing.B) {
			j := jsonText{valid: true} // as the command writes decoded text
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				j.reset(io.Discard)
				for p := text; len(p) > 0; {
					n := min(len(p), 4096)
					j.Write(p[:n])
					p = p[n:]
				}
				j.Close()
			}
		})
	}
}

// BenchmarkWARCIndex is the index's cost over --json on the generated
// gzip crawl of BenchmarkWARC: "json" is charsniff --json FILE, "cdxj"
// --format cdxj FILE and "parquet" --format parquet -o TMP FILE, all with
// each record's provenance. The goal is at most 10 % over json. On a
// loaded machine compare instructions rather than time (callgrind on one
// core: see docs/archives.md, "What an index costs").
func BenchmarkWARCIndex(b *testing.B) {
	path, st, _ := warctest.BenchCrawl(b, true)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	parquet := filepath.Join(b.TempDir(), "index.parquet")
	for _, mode := range []struct {
		name  string
		args  []string
		lines int // lines on standard output
	}{
		{"json", []string{"--json", path}, st.Responses},
		{"cdxj", []string{"--format", "cdxj", path}, st.Responses},
		{"parquet", []string{"--format", "parquet", "-o", parquet, path}, 0},
	} {
		b.Run(mode.name, func(b *testing.B) {
			b.SetBytes(fi.Size())
			b.ReportAllocs()
			for b.Loop() {
				lines := &lineCounter{}
				if code := run(mode.args, nil, lines, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
				if lines.n != mode.lines {
					b.Fatalf("%d lines, want %d", lines.n, mode.lines)
				}
			}
			b.ReportMetric(float64(st.Responses)*float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}
