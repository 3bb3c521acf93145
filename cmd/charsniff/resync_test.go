package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/warctest"
)

// TestWARCDamageSeek runs the command on a WARC file (plain, and one gzip
// member) whose second record has a Content-Length running past the end of
// the file, followed by 3 MiB of good records: read from the file, or from
// a byte range of a larger one, every good record gets its line with its
// offset and --stats counts them all; the damaged record gets one error
// line. Standard input cannot seek, and loses the records that start more
// than 1 MiB before the end (warc.Reader).
func TestWARCDamageSeek(t *testing.T) {
	page := func(i int) []byte {
		return []byte(fmt.Sprintf(`<!DOCTYPE html><html><head><meta charset="koi8-r"><title>%d</title></head><body>`, i) +
			strings.Repeat("<p>plain ASCII text, long enough to fill a few pages.</p>\n", 1200) + "</body></html>\n")
	}
	var recs []warctest.Record
	for i := range 50 {
		rec := warctest.Response(fmt.Sprintf("http://example.test/%d", i),
			warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, page(i)))
		rec.ID = fmt.Sprintf("<urn:test:%02d>", i)
		recs = append(recs, rec)
	}
	var plain []byte
	var at []int64
	for i, rec := range recs {
		b := warctest.Bytes(rec, false)
		if i == 1 {
			b = warctest.WithLength(b, 1<<30) // past the end of the file
		}
		at = append(at, int64(len(plain)))
		plain = append(plain, b...)
	}
	if len(plain)-int(at[2]) < 3<<20 {
		t.Fatalf("only %d bytes after the damaged record", len(plain)-int(at[2]))
	}
	dir := t.TempDir()
	for _, form := range []string{"plain", "gzip"} {
		data := plain
		if form == "gzip" {
			data = warctest.Gzip(plain)
		}
		path := filepath.Join(dir, "damaged."+form+".warc")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// The same bytes as a range of a larger file: a good record first.
		pre := warctest.Bytes(recs[0], form == "gzip")
		rangePath := filepath.Join(dir, "ranged."+form+".warc")
		if err := os.WriteFile(rangePath, append(pre, data...), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, run := range []struct {
			name string
			args []string
			base int64
		}{
			{"file", []string{"--json", path}, 0},
			{"range", []string{"--json", "--range", fmt.Sprintf("%d:%d", len(pre), len(data)), rangePath}, int64(len(pre))},
		} {
			stdout, stderr, code := charsniff(t, "", run.args...)
			if code != 1 {
				t.Errorf("%s, %s: exit %d, want 1 (stderr %q)", form, run.name, code, stderr)
			}
			var good, bad []string
			for _, l := range parseLines(t, stdout) {
				if l.Error != "" {
					bad = append(bad, fmt.Sprintf("%s@%d: %s", l.RecordID, *l.Offset, l.Error))
				} else {
					good = append(good, fmt.Sprintf("%s@%d", l.RecordID, *l.Offset))
				}
			}
			var wantGood []string
			for i, rec := range recs {
				off := at[i]
				if form == "gzip" {
					off = 0 // the offset of the file's only member
				}
				if i != 1 {
					wantGood = append(wantGood, fmt.Sprintf("%s@%d", rec.ID, run.base+off))
				}
			}
			if strings.Join(good, "\n") != strings.Join(wantGood, "\n") {
				t.Errorf("%s, %s: %d good lines, want %d:\n%s", form, run.name, len(good), len(wantGood), warctest.DiffLines(good, wantGood))
			}
			xOff := run.base + at[1]
			if form == "gzip" {
				xOff = run.base
			}
			if len(bad) != 1 || !strings.HasPrefix(bad[0], fmt.Sprintf("<urn:test:01>@%d: ", xOff)) ||
				!strings.Contains(bad[0], "record ends before its Content-Length") {
				t.Errorf("%s, %s: error lines %q", form, run.name, bad)
			}
		}

		stdout, _, _ := charsniff(t, "", "--stats", path)
		for _, want := range []string{"sniffed             49\n", "50 records in 1 WARC file, 1 failed\n"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: --stats lacks %q:\n%s", form, want, stdout)
			}
		}
		// From standard input the Reader cannot seek back: the records
		// it loses are in one error line that names their byte range.
		stdout, _, _ = charsniff(t, string(data), "--json")
		if n := strings.Count(stdout, "\n"); n >= len(recs) {
			t.Errorf("%s: standard input gives %d lines: the test does not need seeking", form, n)
		}
		checkSkipped(t, form, parseLines(t, stdout), recs, at)
		stdout, _, _ = charsniff(t, string(data), "--stats")
		if !regexp.MustCompile(`\n1 byte range skipped: [0-9]+ bytes not searched for records\n`).MatchString(stdout) {
			t.Errorf("%s: --stats from standard input does not count the skipped range:\n%s", form, stdout)
		}
	}
}

// checkSkipped checks the lines of the records of TestWARCDamageSeek read
// from standard input: one error line names a skipped byte range, at its
// start (for plain input), and each record has a line or lies in it.
func checkSkipped(t *testing.T, form string, lines []jsonLine, recs []warctest.Record, at []int64) {
	t.Helper()
	var start, end int64
	var skips int
	seen := map[string]bool{}
	for _, l := range lines {
		if _, err := fmt.Sscanf(l.Error, "bytes %d to %d skipped", &start, &end); err == nil {
			skips++
			if form == "plain" && *l.Offset != start {
				t.Errorf("%s: skipped range %d-%d on a line at offset %d", form, start, end, *l.Offset)
			}
			continue
		}
		seen[l.RecordID] = true
	}
	if skips != 1 {
		t.Fatalf("%s: %d lines of skipped ranges, want 1", form, skips)
	}
	for i, rec := range recs {
		if !seen[rec.ID] && !(start <= at[i] && at[i] < end) {
			t.Errorf("%s: record %s @%d lost without a report", form, rec.ID, at[i])
		}
	}
}

// TestWARCEverySecondDamaged is issue 26's named file: a plain WARC of
// 3000 records, every second one with a Content-Length past the end of
// the file. Every good record is sniffed (the re-read cap of warc.Reader
// kept 300 of them), every damaged one gets its error line, and nothing is
// skipped.
func TestWARCEverySecondDamaged(t *testing.T) {
	var plain []byte
	for i := range 3000 {
		body := fmt.Sprintf(`<!DOCTYPE html><html><head><meta charset="koi8-r"><title>%d</title></head><body>`, i) +
			strings.Repeat("<p>plain ASCII text.</p>\n", 40) + "</body></html>\n"
		b := warctest.Bytes(warctest.Response(fmt.Sprintf("http://example.test/%d", i),
			warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, []byte(body))), false)
		if i%2 == 1 {
			b = warctest.WithLength(b, 1<<30)
		}
		plain = append(plain, b...)
	}
	path := filepath.Join(t.TempDir(), "half-damaged.warc")
	if err := os.WriteFile(path, plain, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := charsniff(t, "", "--stats", path)
	summary := stdout[max(strings.LastIndex(stdout, "WARC records"), 0):]
	for _, want := range []string{"sniffed           1500\n", "3000 records in 1 WARC file, 1500 failed\n"} {
		if !strings.Contains(summary, want) {
			t.Errorf("--stats lacks %q:\n%s", want, summary)
		}
	}
	if strings.Contains(summary, "skipped:") || strings.Contains(stderr, " skipped (") {
		t.Errorf("a range skipped:\n%s", summary)
	}
	if n := strings.Count(stderr, "record ends before its Content-Length"); code != 1 || n != 1500 {
		t.Errorf("exit %d, %d error lines for damaged records, want 1 and 1500", code, n)
	}
}
