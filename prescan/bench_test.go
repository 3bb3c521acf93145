package prescan_test

import (
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/prescan"
)

// typicalHead is the shared 1 KB head whose charset <meta> ends at byte 1023.
var typicalHead = testutil.TypicalHead

// adversarial inputs: each would take quadratic time in a scanner that
// re-scans, and must take linear time here.
var adversarial = func() []struct {
	name string
	b    []byte
} {
	const n = 1 << 20
	rep := func(prefix, unit string) []byte {
		return []byte(prefix + strings.Repeat(unit, (n-len(prefix))/len(unit)))
	}
	return []struct {
		name string
		b    []byte
	}{
		{"lt-flood", rep("", "<")},
		{"meta-flood", rep("", "<meta ")},
		{"unterminated-quote", rep(`<a b="`, "x")},
		{"dash-flood", rep("<!--", "-")},
		{"attribute-flood", rep("<meta ", "a=b ")},
		{"repeated-charset", rep("<meta ", "charset=x ")},
		{"content-near-miss", rep(`<meta content="`, "charse")},
		{"xml-near-miss", rep("<?xml ", "encodin")},
		{"xml-unterminated-value", rep(`<?xml encoding="`, "x")},
		{"xml-no-gt", rep(`<?xml encoding="gbk"`, " ")},
	}
}()

func BenchmarkPrescan(b *testing.B) { benchHead(b, nil) }

// benchHead times Prescan of typicalHead with opts.
func benchHead(b *testing.B, opts *prescan.Options) {
	head := []byte(typicalHead)
	if r := prescan.Prescan(head, opts); !r.Found() {
		b.Fatal("typicalHead declares no encoding")
	}
	b.SetBytes(int64(len(head)))
	b.ReportAllocs()
	for b.Loop() {
		prescan.Prescan(head, opts)
	}
}

func BenchmarkScanner(b *testing.B) {
	head := []byte(typicalHead)
	var s prescan.Scanner
	b.SetBytes(int64(len(head)))
	b.ReportAllocs()
	for b.Loop() {
		s.Reset(nil)
		for i := 0; i < len(head); i += 128 {
			s.Feed(head[i:min(i+128, len(head))])
		}
		s.Close()
	}
}

// BenchmarkAdversarial shows linear time: each input is 1 MiB scanned with
// no window, so ns/op divided by 2^20 is the cost per byte.
func BenchmarkAdversarial(b *testing.B) {
	for _, in := range adversarial {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.b)))
			b.ReportAllocs()
			for b.Loop() {
				prescan.Prescan(in.b, &prescan.Options{Window: -1})
			}
		})
	}
}

// BenchmarkTokenizer is BenchmarkPrescan in tokenizer mode.
func BenchmarkTokenizer(b *testing.B) { benchHead(b, &prescan.Options{Tokenizer: true}) }

// BenchmarkTokenizerAdversarial is BenchmarkAdversarial in tokenizer mode,
// with inputs for its text states too.
func BenchmarkTokenizerAdversarial(b *testing.B) {
	const n = 1 << 20
	rep := func(prefix, unit string) []byte {
		return []byte(prefix + strings.Repeat(unit, (n-len(prefix))/len(unit)))
	}
	ins := append(adversarial[:len(adversarial):len(adversarial)], []struct {
		name string
		b    []byte
	}{
		{"script-end-near-miss", rep("<script>", "</scrip")},
		{"script-escape-flood", rep("<script>", "<!--<script>")},
		{"script-dash-flood", rep("<script><!--", "-")},
		{"rcdata-end-near-miss", rep("<textarea>", "</textare")},
		{"comment-bang-flood", rep("<!--", "--!")},
		{"long-tag-name", rep("<", "abcdefgh")},
	}...)
	for _, in := range ins {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.b)))
			b.ReportAllocs()
			for b.Loop() {
				prescan.Prescan(in.b, &prescan.Options{Window: -1, Tokenizer: true})
			}
		})
	}
}

// BenchmarkParsedAlike measures the look at the bytes before a window's
// <meta> that lets a Reader skip the late Tokenizer-mode scan: the short
// head of bench's documents, and a 1 KB head of <link> tags.
func BenchmarkParsedAlike(b *testing.B) {
	for _, tc := range []struct {
		name string
		head []byte
	}{
		{"short", []byte(`<!DOCTYPE html><html><head><meta charset="windows-1252">`)},
		{"1KB", []byte(`<!DOCTYPE html><html lang="en"><head>` +
			strings.Repeat(`<link rel="stylesheet" href="/static/site.css">`, 20) + `<meta charset="utf-8">`)},
	} {
		pre := prescan.Prescan(tc.head, &prescan.Options{})
		w := tc.head[:pre.Offset]
		if pre.Rule != prescan.Meta || !prescan.ParsedAlike(w) {
			b.Fatalf("%s: no <meta> the parser meets first", tc.name)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(w)))
			for b.Loop() {
				prescan.ParsedAlike(w)
			}
		})
	}
}
