package bench

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"github.com/charsniff/charsniff/decode"
)

// undeclaredPages are the samples BenchmarkUndeclared cuts pages from:
// pages that declare no encoding, so that the detector decides.
var undeclaredPages = []string{"windows-1252", "windows-1251", "shift_jis", "euc-jp", "gbk", "utf-8-french"}

// BenchmarkUndeclared decodes the first 512 bytes and 8 KB of each
// undeclared sample to the end with a new Reader per page (NewReader,
// WriteTo), the default options: what sniffing, autodetection (in the
// window and, while it waits for evidence, after it) and decoding cost
// per document. Issue 24 asks that waiting for evidence make no page
// more than 10 % slower.
func BenchmarkUndeclared(b *testing.B) {
	for _, name := range undeclaredPages {
		data := sample(b, name+".html")
		for _, size := range []int{512, 8 << 10} {
			page := data[:size]
			if name == "windows-1252" && size > 512 {
				// Also after an ASCII head that leaves the window 8
				// accented letters: too few to keep the guess, so the
				// Reader holds the rest and detects on it (the cost of
				// waiting for evidence).
				head := bytes.Repeat([]byte("<link rel=stylesheet href=/static/site.css>\n"), 11)
				thin := append(head, data[:size-len(head)]...)
				b.Run(fmt.Sprintf("%s-head/%d", name, size), func(b *testing.B) { benchUndeclared(b, thin) })
				// And after an ASCII head that fills the window: late
				// detection, as before issue 24 but sure sooner.
				head = bytes.Repeat(head[:44], 24)
				late := append(head, data[:size-len(head)]...)
				b.Run(fmt.Sprintf("%s-late/%d", name, size), func(b *testing.B) { benchUndeclared(b, late) })
			}
			b.Run(fmt.Sprintf("%s/%d", name, size), func(b *testing.B) { benchUndeclared(b, page) })
		}
	}
	// Greek in windows-1253: a guess never sure before the end
	// (enough evidence for its guess), so the Reader holds and scores the page to
	// its end or the look-ahead.
	greek, err := charmap.Windows1253.NewEncoder().String(greekText)
	if err != nil {
		b.Fatal(err)
	}
	page := []byte("<!DOCTYPE html>\n<html><body>\n")
	for len(page) < 8<<10 {
		page = append(page, "<p>"+greek+"</p>\n"...)
	}
	for _, size := range []int{512, 8 << 10} {
		b.Run(fmt.Sprintf("windows-1253/%d", size), func(b *testing.B) { benchUndeclared(b, page[:size]) })
	}
}

// greekText is a paragraph of Greek news text (written for the tests).
const greekText = "Άρθρο: Η Ελλάδα είναι χώρα της νοτιοανατολικής Ευρώπης. " +
	"Άνθρωποι από όλο τον κόσμο έρχονται κάθε καλοκαίρι στα νησιά. " +
	"Η κυβέρνηση ανακοίνωσε νέα μέτρα για τις μεταφορές και οι πολίτες τα υποδέχθηκαν θετικά."

// benchUndeclared decodes page with a new Reader per iteration.
func benchUndeclared(b *testing.B, page []byte) {
	src := bytes.NewReader(page)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		src.Reset(page)
		r, _ := decode.NewReader(src)
		r.WriteTo(io.Discard)
	}
}
