package bench

import (
	"strings"
	"testing"

	xcharset "golang.org/x/net/html/charset"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

// typicalHead is a 1024-byte <head> of the kind crawlers see: scripts and
// links first, the charset <meta> late in the window.
var typicalHead = func() []byte {
	head := `<!DOCTYPE html>
<html lang="en">
<head>
<link rel="preconnect" href="https://fonts.example.com">
<link rel="stylesheet" href="/static/css/site.min.css?v=20261121">
<script async src="https://analytics.example.com/tag.js?id=UA-000000"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date());</script>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta property="og:title" content="A page about character encodings">
<meta property="og:description" content="Which encoding is this page in, and how sure are we?">
<title>A page about character encodings</title>
`
	tail := `<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">`
	pad := 1024 - len(head) - len(tail)
	return []byte(head + strings.Repeat(" ", pad) + tail)
}()

// BenchmarkSniffHead sniffs a typical 1 KB head: charsniff's prescan and
// full sniff against x/net's DetermineEncoding (which runs a tokenizer).
func BenchmarkSniffHead(b *testing.B) {
	if len(typicalHead) != 1024 {
		b.Fatalf("head is %d bytes", len(typicalHead))
	}
	for _, s := range []struct {
		name string
		ok   func(head []byte) bool // reports whether it finds windows-1251
	}{
		{"prescan.Prescan", func(h []byte) bool { return prescan.Prescan(h, nil).Encoding == override.Windows1251 }},
		{"sniff.Sniff", func(h []byte) bool { return sniff.Sniff(h, nil).Encoding == override.Windows1251 }},
		{"x-net-charset.DetermineEncoding", func(h []byte) bool {
			_, name, _ := xcharset.DetermineEncoding(h, "")
			return name == "windows-1251"
		}},
	} {
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(len(typicalHead)))
			b.ReportAllocs()
			for b.Loop() {
				if !s.ok(typicalHead) {
					b.Fatalf("%s does not find windows-1251", s.name)
				}
			}
		})
	}
}

// BenchmarkLabel compares label lookup with x/text's htmlindex.Get.
func BenchmarkLabel(b *testing.B) {
	labels := []string{"utf-8", " Windows-1252 ", "shift_jis", "x-unknown"}
	b.Run("override.Lookup", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, l := range labels {
				override.Lookup(l)
			}
		}
	})
	b.Run("x-text-htmlindex.Get", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, l := range labels {
				htmlindex.Get(l)
			}
		}
	})
}
