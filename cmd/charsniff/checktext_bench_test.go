package main

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCheckText times the text-or-binary check of each sample page,
// named as it is (page.html: the name decides) and from standard input
// (no name: the bytes decide).
func BenchmarkCheckText(b *testing.B) {
	heads := sampleHeads(b)
	c, err := parseArgs(nil)
	if err != nil {
		b.Fatal(err)
	}
	a := &app{cfg: c}
	a.given, a.givenEssence = c.givenType()
	for _, bc := range []struct{ desc, name string }{{"named", "page.html"}, {"stdin", ""}} {
		b.Run(bc.desc, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, h := range heads {
					if a.checkText(h, bc.name, false) != nil {
						b.Fatal("refused")
					}
				}
			}
		})
	}
}

// sampleHeads returns the first bytes of each sample page, as openFirst
// peeks them.
func sampleHeads(b *testing.B) [][]byte {
	paths, _ := filepath.Glob(filepath.Join(root, "samples", "*.html"))
	var heads [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		heads = append(heads, data[:min(len(data), 64<<10)])
	}
	if len(heads) == 0 {
		b.Fatal("no samples")
	}
	return heads
}
