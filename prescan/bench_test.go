package prescan_test

import (
	"strings"
	"testing"

	"github.com/charsniff/charsniff/prescan"
)

// typicalHead is a 1024-byte <head> of the common kind, whose charset
// declaration (the old http-equiv form) ends at byte 1023, so the scan walks
// the whole window.
var typicalHead = func() string {
	start := `<!DOCTYPE html>
<html lang="en">
<head>
<title>Example Domain - a page with a typical head</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="An example page whose head holds the usual links, scripts and metadata.">
<meta property="og:title" content="Example Domain">
<link rel="stylesheet" href="/static/css/main.css?v=20240101" type="text/css">
<link rel="icon" href="/favicon.ico" sizes="any">
<link rel="canonical" href="https://www.example.com/articles/2024/typical-head.html">
<script async src="https://www.googletagmanager.com/gtag/js?id=G-XXXXXXX"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date());</script>
<style>body { margin: 0; font-family: -apple-system, "Segoe UI", Roboto, sans-serif; } a > b { color: #333; }</style>
<!-- `
	end := ` -->
<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">`
	return start + strings.Repeat("x", 1024-len(start)-len(end)) + end
}()

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

func BenchmarkPrescan(b *testing.B) {
	head := []byte(typicalHead)
	if r := prescan.Prescan(head, nil); !r.Found() {
		b.Fatal("typicalHead declares no encoding")
	}
	b.SetBytes(int64(len(head)))
	b.ReportAllocs()
	for b.Loop() {
		prescan.Prescan(head, nil)
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
