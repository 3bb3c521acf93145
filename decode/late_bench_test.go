package decode_test

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
)

// BenchmarkLateMeta measures what the late-meta scan costs on an
// ASCII-heavy page with no declaration (256 KB: four copies of the English
// sample, and the same with its few non-ASCII bytes made spaces), decoded
// with the default options, without and with WithLateMeta over the whole
// document. Besides wall-clock MB/s it reports cpu-MB/s, from the thread's
// CPU time (Linux), which a busy shared machine disturbs much less.
func BenchmarkLateMeta(b *testing.B) {
	english := bytes.Repeat(readSample(b, "utf-8-english.html"), 4)
	ascii := bytes.Clone(english)
	for i, c := range ascii {
		if c >= 0x80 {
			ascii[i] = ' '
		}
	}
	for _, page := range []struct {
		name string
		data []byte
	}{{"english", english}, {"ascii", ascii}} {
		for _, mode := range []struct {
			name string
			opts []decode.Option
		}{
			{"off", nil},
			{"late", []decode.Option{decode.WithLateMeta(int64(len(page.data)))}},
		} {
			b.Run(page.name+"/"+mode.name, func(b *testing.B) {
				src := bytes.NewReader(page.data)
				r, err := decode.NewReader(src, mode.opts...)
				if err != nil {
					b.Fatal(err)
				}
				buf := make([]byte, 32<<10)
				b.SetBytes(int64(len(page.data)))
				b.ReportAllocs()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu0 := testutil.ThreadCPU()
				for b.Loop() {
					src.Reset(page.data)
					r.Reset(src)
					for {
						if _, err := r.Read(buf); err != nil {
							break
						}
					}
				}
				if cpu0 >= 0 {
					if ns := testutil.ThreadCPU() - cpu0; ns > 0 {
						b.ReportMetric(float64(b.N)*float64(len(page.data))/float64(ns)*1e3, "cpu-MB/s")
					}
				}
			})
		}
	}
}
