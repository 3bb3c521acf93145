package sniff_test

import (
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/sniff"
)

// typicalHead is the shared 1 KB head whose charset <meta> ends at byte 1023.
var typicalHead = testutil.TypicalHead

func BenchmarkSniff(b *testing.B) {
	head := []byte(typicalHead)
	for _, bc := range []struct {
		name string
		opts *sniff.Options
	}{
		{"prescan", nil},
		{"content-type", &sniff.Options{ContentType: "text/html; charset=UTF-8"}},
		{"content-type-without-charset", &sniff.Options{ContentType: "text/html"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(head)))
			b.ReportAllocs()
			for b.Loop() {
				sniff.Sniff(head, bc.opts)
			}
		})
	}
}

func BenchmarkSniffAutodetect(b *testing.B) {
	text := []byte(strings.Repeat("<p>Gr\xC3\xBC\xC3\x9Fe aus K\xC3\xB6ln. ", 60)[:1024])
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		sniff.Sniff(text, nil)
	}
}

func BenchmarkContentTypeCharset(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sniff.ContentTypeCharset(`text/html; charset="utf-8"`)
	}
}
