package warc

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// BenchmarkReader reads a generated crawl of -warcbench.size bytes (200 MB
// by default) written to a temporary file in the setup: "plain", "gzip" (one
// gzip member per record) and "gzip-whole" (the plain file gzipped as one
// member), "zstd" and "lz4" (a frame per record, from the gzip file's
// members) and "zstd-whole" and "lz4-whole" (the plain file as one frame). "records" reads the records and skips their blocks;
// "payloads" also unwraps every response's HTTP payload (dechunking and
// gunzipping where the page was so served) and reads it. MB/s counts the
// file's bytes as stored; peak-heap-MB is the largest heap in use, sampled
// every 256 records; MB/cpu-s and records/cpu-s divide by the process's CPU
// time rather than the wall clock, which a busy machine distorts.
func BenchmarkReader(b *testing.B) {
	for _, name := range []string{"plain", "gzip", "gzip-whole", "zstd", "zstd-whole", "lz4", "lz4-whole"} {
		b.Run(name, func(b *testing.B) {
			path, st := benchFile(b, name)
			fi, _ := os.Stat(path)
			for _, payloads := range []bool{false, true} {
				name := "records"
				if payloads {
					name = "payloads"
				}
				b.Run(name, func(b *testing.B) {
					b.SetBytes(fi.Size())
					b.ReportAllocs()
					var peak uint64
					cpu := cpuSeconds()
					for b.Loop() {
						n := readBench(b, path, payloads, &peak)
						if n != st.Records {
							b.Fatalf("read %d records, want %d", n, st.Records)
						}
					}
					b.ReportMetric(float64(st.Records)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
					b.ReportMetric(float64(st.Bytes)*float64(b.N)/b.Elapsed().Seconds()/1e6, "uncompressed-MB/s")
					b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
					if cpu := cpuSeconds() - cpu; cpu > 0 {
						b.ReportMetric(float64(fi.Size())*float64(b.N)/cpu/1e6, "MB/cpu-s")
						b.ReportMetric(float64(st.Records)*float64(b.N)/cpu, "records/cpu-s")
					}
				})
			}
		})
	}
}

// benchFile writes the generated crawl to a file in form ("plain", "gzip"
// or "gzip-whole"), or reuses the one in -warcbench.dir.
func benchFile(b *testing.B, form string) (string, warctest.Stats) {
	perRecord := form == "gzip" || form == "zstd" || form == "lz4"
	path, st, keep := warctest.BenchCrawl(b, perRecord)
	switch form {
	case "plain", "gzip":
		return path, st
	case "zstd", "lz4", "zstd-whole", "lz4-whole":
		out := path + "." + form
		if _, err := os.Stat(out); err == nil && keep {
			return out, st
		}
		if err := frameFile(out, path, form); err != nil {
			b.Fatal(err)
		}
		return out, st
	}
	whole := path + ".whole.gz"
	if _, err := os.Stat(whole); err == nil && keep {
		return whole, st
	}
	if err := gzipFile(whole, path); err != nil {
		b.Fatal(err)
	}
	return whole, st
}

// frameFile writes src, a plain file or (for "zstd" and "lz4") a gzip file
// of a member per record, to dst as zstd or LZ4 frames: one per record, or
// ("-whole") one.
func frameFile(dst, src, form string) error {
	in, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	parts := [][]byte{in}
	if form == "zstd" || form == "lz4" {
		parts = nil
		br := bytes.NewReader(in)
		for br.Len() > 0 {
			zr, err := gzip.NewReader(br)
			if err != nil {
				return err
			}
			zr.Multistream(false)
			b, err := io.ReadAll(zr)
			if err != nil {
				return err
			}
			parts = append(parts, b)
		}
	}
	var out bytes.Buffer
	for _, p := range parts {
		var zw io.WriteCloser
		if strings.HasPrefix(form, "zstd") {
			zw, _ = zstd.NewWriter(&out, zstd.WithEncoderConcurrency(1))
		} else {
			zw = lz4.NewWriter(&out)
		}
		zw.Write(p)
		if err := zw.Close(); err != nil {
			return err
		}
	}
	return os.WriteFile(dst, out.Bytes(), 0o644)
}

// gzipFile writes src gzipped, as one member, to dst.
func gzipFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(out)
	_, err = io.Copy(zw, in)
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// readBench reads the WARC file at path, and with payloads every
// response's payload, raising *peak to the heap in use every 256 records;
// it returns the number of records.
func readBench(b *testing.B, path string, payloads bool, peak *uint64) int {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var ms runtime.MemStats
	buf := make([]byte, 32<<10)
	return eachRecord(b, NewReader(f), func(i int, rec *Record) error {
		if i%256 == 0 {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapInuse)
		}
		if !payloads || rec.Type != "response" {
			return nil
		}
		p, err := rec.Payload()
		if err != nil {
			return err
		}
		_, err = io.CopyBuffer(io.Discard, onlyReader{p.Body}, buf)
		return err
	})
}

// onlyReader hides any WriteTo method, so that io.CopyBuffer uses buf.
type onlyReader struct{ io.Reader }
