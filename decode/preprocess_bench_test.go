package decode_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// BenchmarkPreprocess decodes each sample through Read into a 32 KB buffer
// and through WriteTo, with line ends as they are (LF) and as CR LF, with
// the preprocessing on and off ("plain"): what the preprocessing costs.
func BenchmarkPreprocess(b *testing.B) {
	for _, s := range benchSamples {
		for _, crlf := range []bool{false, true} {
			data := readSample(b, s.file)
			name := s.name + "/lf"
			if crlf {
				data = []byte(strings.ReplaceAll(string(data), "\n", "\r\n"))
				name = s.name + "/crlf"
			}
			for _, on := range []bool{true, false} {
				e, _ := override.Lookup(s.label)
				opts := []decode.Option{decode.WithSniff(sniff.Options{Override: e})}
				mode := "/on"
				if !on {
					opts = append(opts, decode.WithoutPreprocessing())
					mode = "/plain"
				}
				b.Run(name+mode+"/Read", func(b *testing.B) {
					benchRead(b, data, opts)
				})
				b.Run(name+mode+"/WriteTo", func(b *testing.B) {
					benchWriteTo(b, data, opts)
				})
			}
		}
	}
}

// benchWriteTo is benchRead through WriteTo.
func benchWriteTo(b *testing.B, data []byte, opts []decode.Option) {
	src := bytes.NewReader(data)
	r, err := decode.NewReader(src, opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		src.Reset(data)
		r.Reset(src, opts...) // Reset does not keep options
		r.WriteTo(io.Discard)
	}
}
