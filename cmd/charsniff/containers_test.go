package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/warctest"
)

// resiliparseDir holds FastWARC's test files (and the zstd files made from
// them), committed with package warc.
var resiliparseDir = filepath.Join("warc", "testdata", "resiliparse")

// TestWARCContainers runs the command on one crawl in every container it
// reads, told by content (the files are given names that say nothing):
// each gives the same results, record for record, named or on standard
// input, with --decode too.
func TestWARCContainers(t *testing.T) {
	dir := t.TempDir()
	plain := warctest.Gunzip(t, warctest.Testdata(t, "resiliparse/warcfile.warc.gz"))
	files := map[string]string{"plain": filepath.Join(dir, "a")}
	if err := os.WriteFile(files["plain"], plain, 0o644); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"warcfile.warc.gz", "warcfile.warc.lz4", "warcfile.dict.warc.zst", "warcfile.frames.warc.zst", "warcfile.whole.warc.zst"} {
		b := warctest.Testdata(t, "resiliparse/"+name)
		files[name] = filepath.Join(dir, fmt.Sprint(i))
		if err := os.WriteFile(files[name], b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	results := func(stdout string) []string {
		var out []string
		for _, l := range parseLines(t, stdout) {
			text := ""
			if l.Text != nil {
				text = *l.Text
			}
			out = append(out, fmt.Sprintf("%s %s %s %s %s %d %s", l.URI, l.Encoding, l.Confidence, l.Source, l.Error, len(text), l.RecordID))
		}
		return out
	}
	stdout, stderr, code := charsniff(t, "", "--json", files["plain"])
	want := results(stdout)
	if code != 0 || stderr != "" || len(want) != 16 {
		t.Fatalf("plain: exit %d, stderr %q, %d results (want 16 responses)", code, stderr, len(want))
	}
	stdout, _, _ = charsniff(t, "", "--json", "--decode", files["plain"])
	wantText := results(stdout)
	for name, path := range files {
		stdout, stderr, code := charsniff(t, "", "--json", path)
		if got := results(stdout); code != 0 || stderr != "" || !slices.Equal(got, want) {
			t.Errorf("%s: exit %d, stderr %q, results:\n%s", name, code, stderr, strings.Join(got, "\n"))
		}
		b, _ := os.ReadFile(path)
		stdout, _, code = charsniff(t, string(b), "--json", "--decode")
		if got := results(stdout); code != 0 || !slices.Equal(got, wantText) {
			t.Errorf("%s on standard input, --decode: exit %d, results:\n%s", name, code, strings.Join(got, "\n"))
		}
	}
}

// TestUnsupportedArchive checks that an archive the warc package cannot
// read is one error line and a non-zero exit, not a page sniffed from its
// bytes nor a line for each stretch of garbage.
func TestUnsupportedArchive(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ in, msg string }{
		{"BZh91AY&SY" + strings.Repeat("\x00<p>", 100), "warc: unsupported container: bzip2"},
		{"\xfd7zXZ\x00\x00\x04" + strings.Repeat("<p>", 100), "warc: unsupported container: xz"},
		{"WARC/2.0\r\nWARC-Type: response\r\nContent-Length: 5\r\n\r\n<p>é\r\n\r\n", "warc: unsupported WARC version 2.0"},
	} {
		path := filepath.Join(dir, "in")
		if err := os.WriteFile(path, []byte(tc.in), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{path}, {"--warc", path}, {"--json", path}, {}} {
			stdin := ""
			if len(args) == 0 {
				stdin = tc.in
			}
			stdout, stderr, code := charsniff(t, stdin, args...)
			// One line on standard error, and with --json one error line.
			json := len(args) > 0 && args[0] == "--json"
			if code == 0 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.msg) ||
				json && (strings.Count(stdout, "\n") != 1 || !strings.Contains(stdout, `"error":"`+tc.msg)) || !json && stdout != "" {
				t.Errorf("charsniff %q on %.10q: exit %d, stdout %q, stderr %q; want one error %q", args, tc.in, code, stdout, stderr, tc.msg)
			}
		}
	}
}

// TestARCFiles runs the command on warcio's ARC files: the capture gets its
// line, with the offset of its header line (or gzip member).
func TestARCFiles(t *testing.T) {
	for file, off := range map[string]int64{"example.arc": 151, "example.arc.gz": 171} {
		path := filepath.Join("warc", "testdata", "warcio", file)
		stdout, stderr, code := charsniff(t, "", "--json", path)
		lines := parseLines(t, stdout)
		if code != 0 || stderr != "" || len(lines) != 1 || lines[0].URI != "http://example.com/" || lines[0].Offset == nil || *lines[0].Offset != off || lines[0].Encoding != "utf-8" || lines[0].Status != 200 {
			t.Errorf("charsniff --json %s: exit %d, stderr %q, stdout %s", path, code, stderr, stdout)
		}
	}
}

// TestWARCZstdRanges reads each HTML record of a .warc.zst file with a
// dictionary by its offset and length (--files-from, as a Common Crawl
// index gives them): each gets the line the whole file gives it, the
// dictionary taken from the file's start.
func TestWARCZstdRanges(t *testing.T) {
	path := filepath.Join(resiliparseDir, "warcfile.dict.warc.zst")
	data := []byte(readRoot(t, path))
	stdout, _, _ := charsniff(t, "", "--json", path)
	want := parseLines(t, stdout)
	// The frames' starts, by their magic number (which this file's
	// compressed data does not hold by chance).
	var starts []int64
	for off := range data {
		if off+4 <= len(data) && string(data[off:off+4]) == "\x28\xb5\x2f\xfd" {
			starts = append(starts, int64(off))
		}
	}
	var list strings.Builder
	for _, l := range want {
		i := slices.Index(starts, *l.Offset)
		if i < 0 || i+1 >= len(starts) {
			continue // the last record: its length is the rest
		}
		fmt.Fprintf(&list, "%s\t%d\t%d\n", path, starts[i], starts[i+1]-starts[i])
	}
	stdout, stderr, code := charsniff(t, list.String(), "--json", "--files-from", "-")
	got := parseLines(t, stdout)
	if code != 0 || stderr != "" || len(got) < len(want)-1 {
		t.Fatalf("exit %d, stderr %q, %d lines for %d records", code, stderr, len(got), len(want))
	}
	for i, g := range got {
		if g.URI != want[i].URI || g.Encoding != want[i].Encoding || *g.Offset != *want[i].Offset {
			t.Errorf("range %d: %s %s @%d, want %s %s @%d", i, g.URI, g.Encoding, *g.Offset, want[i].URI, want[i].Encoding, *want[i].Offset)
		}
	}
}
