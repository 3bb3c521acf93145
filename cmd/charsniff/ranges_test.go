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

// recordRanges returns the byte range of each record of data: from its
// start to the next record's (a gzip member, in wget's file).
func recordRanges(t *testing.T, data []byte) map[int64]int64 {
	t.Helper()
	starts := append(recordStarts(t, data), int64(len(data)))
	n := make(map[int64]int64)
	for i := range len(starts) - 1 {
		n[starts[i]] = starts[i+1] - starts[i]
	}
	return n
}

// TestRangeWget reads each HTML record of the WARC file wget wrote by its
// byte range, with --range and with PATH<TAB>OFFSET<TAB>LENGTH lines in
// --files-from (the columnar index's coordinates): each gives the line of
// the whole file's run, with the file's offset, and so does its text with
// --decode --json.
func TestRangeWget(t *testing.T) {
	data := []byte(readRoot(t, testdataWARC))
	length := recordRanges(t, data)
	for _, mode := range [][]string{{"--json"}, {"--decode", "--json"}} {
		whole, _, code := charsniff(t, "", append(mode, testdataWARC)...)
		if code != 0 {
			t.Fatalf("%q: exit %d", mode, code)
		}
		var list strings.Builder
		for _, l := range parseLines(t, whole) {
			off := *l.Offset
			list.WriteString(fmt.Sprintf("%s\t%d\t%d\n", testdataWARC, off, length[off]))
		}
		if list.Len() == 0 {
			t.Fatal("no HTML records")
		}
		for i, line := range strings.SplitAfter(whole, "\n")[:strings.Count(whole, "\n")] {
			f := strings.Split(strings.Split(list.String(), "\n")[i], "\t")
			got, stderr, code := charsniff(t, "", append(mode, "--range", f[1]+":"+f[2], testdataWARC)...)
			if got != line || code != 0 {
				t.Errorf("%q --range %s:%s: exit %d (%s), got\n%s\nwant\n%s", mode, f[1], f[2], code, stderr, got, line)
			}
		}
		got, stderr, code := charsniff(t, list.String(), append(mode, "--files-from", "-")...)
		if got != whole || code != 0 {
			t.Errorf("%q --files-from ranges: exit %d (%s), got\n%s\nwant\n%s", mode, code, stderr, got, whole)
		}
	}
}

// TestRangeErrors checks that a bad range is a clear error for its line
// of the list, and that the lines after it are read.
func TestRangeErrors(t *testing.T) {
	data := []byte(readRoot(t, testdataWARC))
	length := recordRanges(t, data)
	const sjis = 1919 // the Shift_JIS page's record
	good := fmt.Sprintf("%s\t%d\t%d\n", testdataWARC, sjis, length[sjis])
	list := good +
		testdataWARC + "\t1919\tlots\n" +
		testdataWARC + "\t-1\t10\n" +
		testdataWARC + fmt.Sprintf("\t%d\t10\n", len(data)) +
		testdataWARC + "\t1000\t100\n" +
		"no-such.warc.gz\t0\t100\n" +
		"samples\t0\t100\n" +
		"17\t" + good // after Hadoop Streaming's offset
	stdout, stderr, code := charsniff(t, list, "--json", "--files-from", "-")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	wantErrs := []string{
		"bad range 1919:lots: the length is not a positive number of bytes",
		"bad range -1:10: the offset is not a number of bytes",
		fmt.Sprintf("range %d:10: past the end of the file (%d bytes)", len(data), len(data)),
		"range 1000:100: no WARC record starts at offset 1000",
		"no such file or directory",
		"is a directory",
	}
	if code != 1 || len(lines) != 2+len(wantErrs) {
		t.Fatalf("exit %d, %d lines, want 1 and %d:\n%s\n%s", code, len(lines), 2+len(wantErrs), stdout, stderr)
	}
	if lines[0] != lines[len(lines)-1] || !strings.Contains(lines[0], `"encoding":"shift_jis"`) {
		t.Errorf("good lines:\n%s\n%s", lines[0], lines[len(lines)-1])
	}
	for i, e := range wantErrs {
		if !strings.HasSuffix(lines[1+i], `"error":"`+e+`"}`) || !strings.Contains(stderr, e) {
			t.Errorf("line %d: %s\nwant the error %q", 2+i, lines[1+i], e)
		}
	}
	for _, args := range [][]string{
		{"--range", "5", testdataWARC},
		{"--range", "5:0", testdataWARC},
		{"--range", "5:10"},
		{"--range", "5:10", testdataWARC, testdataWARC},
		{"--range", "5:10", "-"},
		{"--range", "5:10", "--files-from", "-", testdataWARC},
	} {
		if _, stderr, code := charsniff(t, "", args...); code != 2 || !strings.Contains(stderr, "--range") {
			t.Errorf("charsniff %q: exit %d, stderr %q; want a usage error", args, code, stderr)
		}
	}
}

// TestRangePlain reads a record in the middle of a generated uncompressed
// WARC file by its range, and a range that cuts it short: the offsets are
// the file's.
func TestRangePlain(t *testing.T) {
	var b bytes.Buffer
	w := warctest.NewWriter(&b, false)
	var at []int
	for i, label := range []string{"utf-8", "euc-jp", "koi8-r"} {
		at = append(at, b.Len())
		page := []byte(`<meta charset="` + label + `"><p>page</p>`)
		rec := warctest.Response(fmt.Sprintf("http://example%d.test/", i), warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, page))
		if _, err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	at = append(at, b.Len())
	path := filepath.Join(t.TempDir(), "crawl.warc")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rng := fmt.Sprintf("%d:%d", at[1], at[2]-at[1])
	stdout, stderr, code := charsniff(t, "", "--range", rng, path)
	want := fmt.Sprintf("%s#%d http://example1.test/: euc-jp (tentative, prescan)\n", path, at[1])
	if stdout != want || code != 0 {
		t.Errorf("--range %s: exit %d (%s), got %q, want %q", rng, code, stderr, stdout, want)
	}
	rng = fmt.Sprintf("%d:%d", at[1], at[2]-at[1]-20)
	_, stderr, code = charsniff(t, "", "--range", rng, path)
	if wantErr := fmt.Sprintf("#%d http://example1.test/: record ends before its Content-Length", at[1]); code != 1 || !strings.Contains(stderr, wantErr) {
		t.Errorf("--range %s: exit %d, stderr %q, want %q", rng, code, stderr, wantErr)
	}
}

// TestListLineErrors checks that the problems of a --files-from list's
// lines name the list and the line, LIST:LINE, as compilers do, and that
// the lines around them are read.
func TestListLineErrors(t *testing.T) {
	ok := samplePath("news-utf8-meta.html")
	list := filepath.Join(t.TempDir(), "list.txt")
	body := ok + "\n" + // 1
		"\n" + // 2: empty, skipped
		"x1\t" + ok + "\n" + // 3: two fields, the first no offset
		testdataWARC + "\t10\tx\n" + // 4: a bad range
		testdataWARC + "\t1\t2\t3\n" + // 5: four fields
		"12\t" + ok + "\n" // 6: after Hadoop's offset
	if err := os.WriteFile(list, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
	}{
		{list, "", []string{"--files-from", list}},
		{"-", body, []string{"--files-from", "-"}},
	} {
		stdout, stderr, code := charsniff(t, tc.stdin, tc.args...)
		wantErr := "charsniff: " + tc.name + ":3: 2 tab-separated fields: want PATH or PATH<TAB>OFFSET<TAB>LENGTH, either after NUMBER<TAB>\n" +
			"charsniff: " + tc.name + ":4: bad range 10:x: the length is not a positive number of bytes\n" +
			"charsniff: " + tc.name + ":5: 4 tab-separated fields: want PATH or PATH<TAB>OFFSET<TAB>LENGTH, either after NUMBER<TAB>\n"
		wantOut := strings.Repeat(ok+": utf-8 (tentative, prescan)\n", 2)
		if code != 1 || stderr != wantErr || stdout != wantOut {
			t.Errorf("charsniff %q: exit %d\nstdout:\n%s\nstderr:\n%s\nwant 1,\n%s\n%s", tc.args, code, stdout, stderr, wantOut, wantErr)
		}
	}
}
