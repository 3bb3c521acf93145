package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mismatchWARC is a WARC file of four records on two hosts, three of
// whose <meta> lose to the HTTP charset: one would decode with 15 U+FFFD.
const mismatchWARC = "archive/testdata/mismatch.warc"

// TestStatsMismatches checks the --stats tables of lost declarations: in
// all, per file and per host.
func TestStatsMismatches(t *testing.T) {
	stdout, stderr, code := charsniff(t, "", "--stats", mismatchWARC, samplePath("news-utf8-meta.html"))
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{
		"declaration that lost  documents with U+FFFD not counted\n" +
			"transport (HTTP)               0           0           0\n" +
			"prescan (meta, XML)            3           1           0\n",
		"file                           documents mismatched with U+FFFD not counted\n" +
			"archive/testdata/mismatch.warc         4          3           1           0\n\n",
		"host         documents mismatched with U+FFFD not counted\n" +
			"a.example.jp         2          2           1           0\n" +
			"b.example.gr         2          1           0           0\n",
		"5 documents, 0 failed\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--stats lacks\n%s\nin\n%s", want, stdout)
		}
	}

	// With --decode --json: the same counts, on standard error, and lines
	// without provenance.
	stdout, stderr, code = charsniff(t, "", "--stats", "--decode", "--json", mismatchWARC)
	if code != 0 || strings.Contains(stdout, "provenance") ||
		!strings.Contains(stderr, "prescan (meta, XML)            3           1           0\n") {
		t.Errorf("--stats --decode --json: exit %d, stdout\n%s\nstderr\n%s", code, stdout, stderr)
	}
}

// TestStatsMismatchMany checks that the file table lists at most
// maxMismatchRows files, most mismatches first, and says how many more.
func TestStatsMismatchMany(t *testing.T) {
	dir := t.TempDir()
	page := "<meta charset=utf-8><p>caf\xe9</p>"
	for i := range maxMismatchRows + 3 {
		name := filepath.Join(dir, "p"+string(rune('a'+i))+".html")
		if err := os.WriteFile(name, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, _, code := charsniff(t, "", "--stats", "--content-type", "text/html; charset=koi8-r", dir)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	// Each page's <meta> says UTF-8, and its é is not.
	if !strings.Contains(stdout, "prescan (meta, XML)           23          23           0\n") ||
		!strings.Contains(stdout, "(3 more files with a mismatch)\n") ||
		strings.Count(stdout, ".html ") != maxMismatchRows {
		t.Errorf("--stats over %d mismatched files:\n%s", maxMismatchRows+3, stdout)
	}
}

// TestStatsDestination checks where the summary goes: standard output
// when that has the text lines or nothing, standard error when it has
// JSON or CDXJ lines, and never into an input that is standard output's
// file.
func TestStatsDestination(t *testing.T) {
	parquet := filepath.Join(t.TempDir(), "i.parquet")
	for _, tc := range []struct {
		args     []string
		toStdout bool
	}{
		{[]string{"--stats", mismatchWARC}, true},
		{[]string{"--stats", "--json", mismatchWARC}, false},
		{[]string{"--stats", "--format", "cdxj", mismatchWARC}, false},
		{[]string{"--stats", "--format", "parquet", "-o", parquet, mismatchWARC}, true},
	} {
		stdout, stderr, code := charsniff(t, "", tc.args...)
		if code != 0 {
			t.Errorf("%q: exit %d, stderr %q", tc.args, code, stderr)
		}
		const total = "4 documents, 0 failed\n"
		if inOut := strings.Contains(stdout, total); inOut != tc.toStdout || strings.Contains(stderr, total) == tc.toStdout {
			t.Errorf("%q: summary on standard output %v, want %v\nstdout\n%s\nstderr\n%s", tc.args, inOut, tc.toStdout, stdout, stderr)
		}
	}

	// charsniff --stats page.html other.html >> page.html: page.html is
	// refused, and the summary must not go into it either.
	page := readRoot(t, samplePath("news-utf8-meta.html"))
	dir := t.TempDir()
	for _, name := range []string{"page.html", "other.html"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := os.OpenFile(filepath.Join(dir, "page.html"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	stderr, code := runTo(t, dir, out, "--stats", "page.html", "other.html")
	out.Close()
	got, _ := os.ReadFile(filepath.Join(dir, "page.html"))
	if tail := string(got[len(page):]); code != 1 || tail != "other.html: utf-8 (tentative, prescan)\n" || !strings.Contains(stderr, "1 document, 1 failed\n") {
		t.Errorf("--stats >> an input: exit %d, the file got %q after the page, stderr\n%s", code, tail, stderr)
	}
}

// TestPlainFileMismatch checks a plain input's lost declaration: its
// U+FFFD are counted over the whole input, read on past the decision
// (here 200 KB past the window), and --stats counts them in --decode too.
func TestPlainFileMismatch(t *testing.T) {
	page := "<meta charset=utf-8><p>caf\xe9</p>" + strings.Repeat("<p>plain text</p>\n", 12000) + "<p>\xe9\xe9 \xff</p>"
	ct := "text/html; charset=koi8-r"
	stdout, _, code := charsniff(t, page, "--json", "--content-type", ct)
	want := `"prescan_mismatch":true,"prescan_replacements":4}}` + "\n"
	if code != 0 || !strings.HasSuffix(stdout, want) {
		t.Errorf("--json: exit %d, %s, want the end %s", code, stdout, want)
	}
	_, stderr, code := charsniff(t, page, "--decode", "--stats", "--content-type", ct)
	if code != 0 || !strings.Contains(stderr, "prescan (meta, XML)            1           1           0\n") {
		t.Errorf("--decode --stats: exit %d, stderr\n%s", code, stderr)
	}
}
