package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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
		b := recordBytes(t, rec, false)
		if i == 1 {
			b = withLength(t, b, 1<<30) // past the end of the file
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
		pre := recordBytes(t, recs[0], form == "gzip")
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
				t.Errorf("%s, %s: %d good lines, want %d:\n%s", form, run.name, len(good), len(wantGood), diffStrings(good, wantGood))
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
		// From standard input the Reader cannot seek back.
		stdout, _, _ = charsniff(t, string(data), "--json")
		if n := strings.Count(stdout, "\n"); n >= len(recs) {
			t.Errorf("%s: standard input gives %d lines: the test does not need seeking", form, n)
		}
	}
}

// diffStrings shows got and want from their first difference.
func diffStrings(got, want []string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d equal, then got %q, want %q", i, got[i:min(i+3, len(got))], want[i:min(i+3, len(want))])
	return b.String()
}
