package decode_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// TestPreprocessPositions puts CR, CR LF, CR CR LF, LF CR and NUL at every
// position of 80 bytes of text (every offset in the word loops' 8-, 16- and
// 32-byte steps) in each path's encodings, alone and after a first line
// that ends in CR LF, with the input whole and cut
// into two Reads at the special bytes and right after them (a CR at the
// end of one Read, its LF at the start of the next), and checks Read and
// WriteTo against the reference decoder.
func TestPreprocessPositions(t *testing.T) {
	texts := []struct {
		label, text string
	}{
		{"utf-8", strings.Repeat("abcdefgh", 10)},
		{"utf-8", strings.Repeat("日本語の文字", 6)},
		{"utf-8", strings.Repeat("русский", 6)},
		{"windows-1252", strings.Repeat("abcdefgh", 10)},
		{"windows-1252", strings.Repeat("été à la", 10)},
		{"windows-1251", strings.Repeat("русский", 10)},
		{"shift_jis", strings.Repeat("日本語の文字 ab", 8)},
		{"euc-jp", strings.Repeat("日本語の文字", 8)},
		{"gbk", strings.Repeat("中文文本 ab", 8)},
	}
	specials := []string{"\r", "\r\n", "\r\r\n", "\n\r", "\x00", "\r\x00", "\x00\r\n"}
	for _, tc := range texts {
		e, ok := override.Lookup(tc.label)
		if !ok {
			t.Fatalf("no encoding %q", tc.label)
		}
		text, err := codec.Encoding(e).NewEncoder().Bytes([]byte(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		text = text[:min(len(text), 80)]
		for _, sp := range specials {
			// After a CR (lead), the UTF-8 path copies lines in one pass.
			for p, lead := 0, ""; p <= len(text); p++ {
				if p == len(text) && lead == "" {
					p, lead = -1, "x\r\n"
					continue
				}
				in := append(append(append([]byte(lead), text[:p]...), sp...), text[p:]...)
				p := p + len(lead)
				want := refDecode(t, e, in, false, full, true)
				for _, cut := range []int{len(in), p, p + 1, p + len(sp)} {
					for _, viaWriteTo := range []bool{false, true} {
						bufSize := -1 // io.ReadAll
						if viaWriteTo {
							bufSize = 0
						}
						got, err := decodeAll(t, testutil.ChunkReader(in, cut, len(in)), bufSize, decode.WithEncoding(e))
						if err != nil || !bytes.Equal(got, want) {
							t.Fatalf("%s %q, %q at %d, cut at %d, WriteTo %v: got %q, %v, want %q",
								tc.label, tc.text[:8], sp, p, cut, viaWriteTo, got, err, want)
						}
					}
				}
			}
		}
	}
}

// BenchmarkPreprocess decodes each sample through Read into a 32 KB buffer
// and through WriteTo, with line ends as they are (LF) and as CR LF, with
// the preprocessing on and off ("plain"): what the preprocessing costs.
func BenchmarkPreprocess(b *testing.B) {
	for _, s := range benchSamples {
		for _, crlf := range []bool{false, true} {
			data := testutil.BenchSample(b, s.file)
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
					benchWriteTo(b, data, opts, false)
				})
			}
		}
	}
}
