package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWalkArchives checks that a directory walk takes web archives by
// their names (.warc, .warc.gz, ...) or their content alongside HTML
// files, sniffing and decoding, and leaves other files alone, in silence.
func TestWalkArchives(t *testing.T) {
	warcData := readRoot(t, testdataWARC)
	page := readRoot(t, samplePath("news-utf8-meta.html"))
	dir := makeTree(t, map[string]string{
		"crawl/a.warc.gz":  warcData,
		"crawl/B.WARC.GZ":  warcData,
		"crawl/page.html":  page,
		"crawl/notes.txt":  page,
		"crawl/.warc.gz":   warcData, // hidden
		"crawl/x.warc.gzz": warcData, // an archive by its content
		"crawl/image.png":  "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
	})
	want, _, code := charsniff(t, "", testdataWARC)
	if code != 0 {
		t.Fatalf("charsniff %s: exit %d", testdataWARC, code)
	}
	recs := strings.Count(want, "\n")
	stdout, stderr, code := charsniff(t, "", filepath.Join(dir, "crawl"))
	if code != 0 || stderr != "" {
		t.Fatalf("charsniff DIR: exit %d, stderr %q", code, stderr)
	}
	for _, name := range []string{"B.WARC.GZ", "a.warc.gz", "x.warc.gzz"} {
		if n := strings.Count(stdout, filepath.Join(dir, "crawl", name)+"#"); n != recs {
			t.Errorf("charsniff DIR: %d lines of %s's records, want %d:\n%s", n, name, recs, stdout)
		}
	}
	if !strings.Contains(stdout, "page.html: utf-8") || strings.Contains(stdout, "notes.txt") || strings.Contains(stdout, "image.png") {
		t.Errorf("charsniff DIR: want page.html and no notes.txt or image.png:\n%s", stdout)
	}
	stdout, stderr, code = charsniff(t, "", "--decode", "--json", filepath.Join(dir, "crawl"))
	if code != 0 || stderr != "" || strings.Count(stdout, `"text":`) != 3*recs+1 {
		t.Errorf("charsniff --decode --json DIR: exit %d, stderr %q, %d texts, want %d", code, stderr, strings.Count(stdout, `"text":`), 3*recs+1)
	}
}

// TestDecodeHeaders checks that --decode writes a header line before each
// document's text, "==> NAME <==" after an empty line as head does, when
// the run has several inputs or a WARC file, and none for one document.
func TestDecodeHeaders(t *testing.T) {
	a, b := samplePath("news-utf8-meta.html"), samplePath("shop-gbk-httpequiv.html")
	ga, gb := readRoot(t, "samples/golden/news-utf8-meta.utf8"), readRoot(t, "samples/golden/shop-gbk-httpequiv.utf8")
	dir := makeTree(t, map[string]string{"d/a.html": readRoot(t, a), "d/b.html": readRoot(t, b)})
	list := filepath.Join(dir, "list.txt")
	os.WriteFile(list, []byte(a+"\n"+b+"\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{a}, ga},
		{[]string{a, b}, "==> " + a + " <==\n" + ga + "\n==> " + b + " <==\n" + gb},
		{[]string{a, "no-such.html", b}, "==> " + a + " <==\n" + ga + "\n==> " + b + " <==\n" + gb},
		{[]string{"--files-from", list}, "==> " + a + " <==\n" + ga + "\n==> " + b + " <==\n" + gb},
		{[]string{filepath.Join(dir, "d")}, "==> " + filepath.Join(dir, "d", "a.html") + " <==\n" + ga +
			"\n==> " + filepath.Join(dir, "d", "b.html") + " <==\n" + gb},
	} {
		stdout, _, _ := charsniff(t, "", append([]string{"--decode"}, tc.args...)...)
		if stdout != tc.want {
			t.Errorf("charsniff --decode %q:\n%s\nwant\n%s", tc.args, stdout, tc.want)
		}
	}
	// One WARC record by its range: one document, no header.
	stdout, _, code := charsniff(t, "", "--decode", "--range", "1919:1005", testdataWARC)
	if code != 0 || strings.Contains(stdout, "==>") || stdout == "" {
		t.Errorf("charsniff --decode --range: exit %d, text %q; want no header", code, stdout)
	}
}
