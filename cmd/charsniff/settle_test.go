package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/warctest"
)

// asciiHead returns a page that is ASCII for more than maxSettle bytes,
// then Russian in windows-1251: the decision changes after the text a
// line may be settled on (from windows-1252, default, to windows-1251).
func asciiHead() (page []byte, tail string) {
	page = slices.Concat([]byte("<html>"), bytes.Repeat([]byte("a"), maxSettle+maxSettle/16),
		[]byte("<p>\xdd\xf2\xee \xf0\xf3\xf1\xf1\xea\xe0\xff.</p>"))
	return page, "<p>Это русская.</p>"
}

// TestUnsettledLine checks that the line of --decode --json carries the
// final decision, the one --json gives, for a document whose decision
// changes after the first MiB of text (its line starts with the text), as
// a plain file, from a pipe, and as a WARC record: plain, gzip, from a
// pipe, in parts, by --range and by --files-from. The text lines of -o
// carry it too.
func TestUnsettledLine(t *testing.T) {
	dir := t.TempDir()
	page, tail := asciiHead()
	html := filepath.Join(dir, "big.html")
	rec := warctest.Response("http://example.ru/", warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, page))
	small := warctest.Response("http://example.ru/2", warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, []byte("<p>next")))
	plain := slices.Concat(warctest.Bytes(small, false), warctest.Bytes(rec, false), warctest.Bytes(small, false))
	gz := slices.Concat(warctest.Bytes(small, true), warctest.Bytes(rec, true), warctest.Bytes(small, true))
	files := map[string][]byte{html: page, filepath.Join(dir, "big.warc"): plain, filepath.Join(dir, "big.warc.gz"): gz}
	for path, data := range files {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := int64(len(warctest.Bytes(small, false)))
	n := int64(len(warctest.Bytes(rec, false)))
	list := filepath.Join(dir, "list")
	if err := os.WriteFile(list, fmt.Appendf(nil, "%s\t%d\t%d\n", filepath.Join(dir, "big.warc"), start, n), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		desc  string
		stdin []byte
		args  []string
	}{
		{"plain file", nil, []string{html}},
		{"plain pipe", page, []string{"-"}},
		{"WARC file", nil, []string{filepath.Join(dir, "big.warc")}},
		{"gzip WARC file", nil, []string{filepath.Join(dir, "big.warc.gz")}},
		{"WARC pipe", plain, []string{"-"}},
		{"gzip WARC pipe", gz, []string{"-"}},
		{"range", nil, []string{"--range", fmt.Sprintf("%d:%d", start, n), filepath.Join(dir, "big.warc")}},
		{"files-from", nil, []string{"--files-from", list}},
	} {
		t.Run(c.desc, func(t *testing.T) {
			checkUnsettled(t, c.stdin, c.args, tail)
		})
	}
	// In parts on several cores, and the text lines of -o.
	out := filepath.Join(dir, "out.txt")
	for _, args := range [][]string{
		{"--decode", "--json", filepath.Join(dir, "big.warc.gz")},
		{"--decode", "-o", out, html, filepath.Join(dir, "big.warc.gz")},
	} {
		got, _, _ := runPartsWith(t, args, 2, 100)
		if !strings.Contains(got, "windows-1251") || strings.Contains(got, "windows-1252") {
			t.Errorf("%q: got\n%.300s\nwant windows-1251 for the big page", args, got)
		}
	}
}

// checkUnsettled checks the big page's line of --decode --json against
// its line of --json, for the command run with args and stdin.
func checkUnsettled(t *testing.T, stdin []byte, args []string, tail string) {
	t.Helper()
	out, _, _ := charsniff(t, string(stdin), append([]string{"--json"}, args...)...)
	want := bigLine(t, parseLines(t, out))
	out, _, _ = charsniff(t, string(stdin), append([]string{"--json", "--decode"}, args...)...)
	got := bigLine(t, parseLines(t, out))
	if want.Encoding != "windows-1251" {
		t.Errorf("--json: got %s, want windows-1251", want.Encoding)
	}
	if got.Text == nil || !strings.HasSuffix(*got.Text, tail) {
		t.Fatalf("--json --decode: no text ending in %q", tail)
	}
	got.Text = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("--json --decode: got line\n%+v\nwant --json's\n%+v", got, want)
	}
}

// bigLine returns the line of the big page (the one without record
// "example.ru/2"), the only one.
func bigLine(t *testing.T, lines []jsonLine) jsonLine {
	t.Helper()
	var big []jsonLine
	for _, l := range lines {
		if !strings.HasSuffix(l.URI, "/2") {
			big = append(big, l)
		}
	}
	if len(big) != 1 {
		t.Fatalf("got %d lines of the big page, want 1: %+v", len(big), lines)
	}
	return big[0]
}
