package main

import (
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/charsniff/charsniff/archive/index"
	"github.com/charsniff/charsniff/internal/warctest"
)

// indexFiles are WARC files no one here wrote, and the crawler's.
var indexFiles = []string{
	"warc/testdata/wget.warc.gz",
	"warc/testdata/resiliparse/block-sized-records.warc.gz",
	"warc/testdata/resiliparse/block-sized-records.warc.lz4",
	"warc/testdata/resiliparse/warcfile.frames.warc.zst",
	"warc/testdata/resiliparse/clueweb-quirk.warc.gz",
}

// jsonLines returns the command's --json lines of the WARC file path.
func jsonLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	out, _, _ := runStdin(nil, "", "--exit-zero", path)
	var lines []map[string]any
	for l := range strings.Lines(out) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s: %v in %q", path, err, l)
		}
		lines = append(lines, m)
	}
	return lines
}

var cdxjShape = regexp.MustCompile(`^(\S+) (\d{14}|-) (\{.*\})$`)

// TestFormatCDXJ checks that --format cdxj writes a CDXJ line for every
// record --json reports, with its coordinates and decision.
func TestFormatCDXJ(t *testing.T) {
	records := 0
	defer func() {
		if records < 10 {
			t.Errorf("%d records in all: the files test little", records)
		}
	}()
	for _, rel := range indexFiles {
		path := filepath.Join(root, rel)
		want := jsonLines(t, path)
		records += len(want)
		var o, e strings.Builder
		if code := run([]string{"--format", "cdxj", "--exit-zero", path}, strings.NewReader(""), &o, &e); code != 0 {
			t.Fatalf("%s: exit %d: %s", rel, code, e.String())
		}
		got := slices.Collect(strings.Lines(o.String()))
		if len(got) != len(want) {
			t.Fatalf("%s: %d CDXJ lines, %d JSON lines", rel, len(got), len(want))
		}
		for i, l := range got {
			l = strings.TrimSuffix(l, "\n")
			m := cdxjShape.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("%s: not CDXJ: %s", rel, l)
				continue
			}
			var block map[string]string // CDXJ values are strings
			if err := json.Unmarshal([]byte(m[3]), &block); err != nil {
				t.Errorf("%s: %v: %s", rel, err, l)
				continue
			}
			w := want[i]
			if block["offset"] != jsonNumber(w["offset"]) || block["length"] != jsonNumber(w["length"]) ||
				block["url"] != str(w["uri"]) || block["encoding"] != str(w["encoding"]) || m[1] != index.SURT(str(w["uri"])) {
				t.Errorf("%s line %d:\n%s\nagainst the JSON line %v", rel, i, l, w)
			}
		}
	}
}

// TestFormatParquet writes the index of each file to a Parquet file and
// reads it back: a row for every record --json reports, with the same
// coordinates.
func TestFormatParquet(t *testing.T) {
	dir := t.TempDir()
	for _, rel := range indexFiles {
		path := filepath.Join(root, rel)
		want := jsonLines(t, path)
		out := filepath.Join(dir, filepath.Base(rel)+".parquet")
		var o, e strings.Builder
		if code := run([]string{"--format", "parquet", "-o", out, "--exit-zero", path}, strings.NewReader(""), &o, &e); code != 0 {
			t.Fatalf("%s: exit %d: %s", rel, code, e.String())
		}
		if o.Len() != 0 {
			t.Errorf("%s: standard output %q", rel, o.String())
		}
		rows, err := parquet.ReadFile[index.Row](out)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if len(rows) != len(want) {
			t.Fatalf("%s: %d rows, %d JSON lines", rel, len(rows), len(want))
		}
		for i, r := range rows {
			w := want[i]
			if jsonNumber(w["offset"]) != itoa(r.WARCRecordOffset) || jsonNumber(w["length"]) != itoa(r.WARCRecordLength) ||
				r.URL != str(w["uri"]) || r.Encoding != str(w["encoding"]) || r.WARCFilename != path {
				t.Errorf("%s row %d: %+v against %v", rel, i, r, w)
			}
		}
		if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v, mode %v", out, err, fi.Mode())
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %q", leftovers)
	}
}

// TestFormatErrors checks the usage errors of --format and that a Parquet
// file that cannot be completed is not left behind.
func TestFormatErrors(t *testing.T) {
	wget := filepath.Join(root, "warc/testdata/wget.warc.gz")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--format", "xml", wget}, exitUsage, "--format xml: want text, json, cdxj or parquet"},
		{[]string{"--format", "parquet", wget}, exitUsage, "--format parquet needs -o FILE"},
		{[]string{"--format", "cdxj", "--decode", wget}, exitUsage, "drop --decode"},
		{[]string{"--format", "cdxj", "--json", wget}, exitUsage, "choose one"},
		{[]string{"--format", "parquet", "-o", "/nonexistent/dir/x.parquet", wget}, exitFailed, "/nonexistent/dir/x.parquet: "},
		{[]string{"--format", "parquet", "-o", wget, wget}, exitUsage, "is also an input"},
	} {
		var o, e strings.Builder
		code := run(tc.args, strings.NewReader(""), &o, &e)
		if code != tc.code || !strings.Contains(e.String(), tc.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", tc.args, code, e.String(), tc.code, tc.want)
		}
	}
	// -o names a directory: the rename at the end fails, the run says so
	// naming it, and no temporary file is left.
	dir := t.TempDir()
	target := filepath.Join(dir, "index.parquet")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	var o, e strings.Builder
	if code := run([]string{"--format", "parquet", "-o", target, wget}, strings.NewReader(""), &o, &e); code == 0 || !strings.Contains(e.String(), target) {
		t.Errorf("-o a directory: exit %d, %q", code, e.String())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("left behind: %q", left)
	}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func jsonNumber(v any) string {
	f, ok := v.(float64)
	if !ok {
		return ""
	}
	return itoa(int64(f))
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// fullDisk is a writer that takes n bytes, then fails as a full disk
// does.
type fullDisk struct {
	w io.Writer
	n int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) > d.n {
		k, _ := d.w.Write(p[:d.n])
		d.n = 0
		return k, &fs.PathError{Op: "write", Path: "index", Err: syscall.ENOSPC}
	}
	d.n -= len(p)
	return d.w.Write(p)
}

// TestIndexBadOutput checks an index that cannot be written: a clear
// error naming the file, exit 1, and no file left, neither -o FILE nor
// its temporary file, whether the disk fills at the first bytes, in the
// middle or at the footer.
func TestIndexBadOutput(t *testing.T) {
	crawl := filepath.Join(t.TempDir(), "crawl.warc.gz")
	f, err := os.Create(crawl)
	if err != nil {
		t.Fatal(err)
	}
	warctest.Generate(f, 1<<20, true, 7)
	f.Close()
	// The whole index's size, to fill the disk at points inside it.
	sizes := map[string]int64{}
	for _, format := range []string{"cdxj", "parquet"} {
		out := filepath.Join(t.TempDir(), "whole."+format)
		var o, e strings.Builder
		if code := run([]string{"--format", format, "-o", out, crawl}, strings.NewReader(""), &o, &e); code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, e.String())
		}
		fi, err := os.Stat(out)
		if err != nil {
			t.Fatal(err)
		}
		sizes[format] = fi.Size()
	}
	defer func() { wrapIndexFile = nil }()
	for format, size := range sizes {
		for _, at := range []int64{0, 100, size / 2, size - 10} {
			dir := t.TempDir()
			out := filepath.Join(dir, "index."+format)
			wrapIndexFile = func(w io.Writer) io.Writer { return &fullDisk{w, int(at)} }
			var o, e strings.Builder
			code := run([]string{"--format", format, "-o", out, crawl}, strings.NewReader(""), &o, &e)
			if code != exitFailed || !strings.Contains(e.String(), out+": ") || !strings.Contains(e.String(), "no space left on device") {
				t.Errorf("%s, disk full after %d of %d bytes: exit %d, stderr %q", format, at, size, code, e.String())
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("%s, disk full after %d bytes: left %v", format, at, left)
			}
		}
	}
	wrapIndexFile = nil

	// Standard output full: CDXJ to /dev/full stops with the error.
	if full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		var e strings.Builder
		code := run([]string{"--format", "cdxj", crawl}, strings.NewReader(""), full, &e)
		full.Close()
		if code != exitFailed || !strings.Contains(e.String(), "standard output: ") || !strings.Contains(e.String(), "no space left on device") {
			t.Errorf("cdxj to /dev/full: exit %d, stderr %q", code, e.String())
		}
	}

	// An -o in a directory that cannot be made (a path through a file).
	for _, format := range []string{"cdxj", "parquet"} {
		out := filepath.Join(crawl, "index."+format)
		var o, e strings.Builder
		code := run([]string{"--format", format, "-o", out, crawl}, strings.NewReader(""), &o, &e)
		if code != exitFailed || !strings.Contains(e.String(), out+": not a directory") {
			t.Errorf("%s -o through a file: exit %d, stderr %q", format, code, e.String())
		}
	}
}

// TestIndexBadInput checks that damaged records and unreadable inputs
// leave a complete index: the damaged record is a row with its error, an
// input that could not be read is reported and has none, and the run
// exits 1 after writing the file.
func TestIndexBadInput(t *testing.T) {
	short := filepath.Join(root, "warc/testdata/length-short.warc")
	want := jsonLines(t, short)
	out := filepath.Join(t.TempDir(), "index.parquet")
	var o, e strings.Builder
	code := run([]string{"--format", "parquet", "-o", out, short, "no/such.warc.gz"}, strings.NewReader(""), &o, &e)
	if code != exitFailed || !strings.Contains(e.String(), "no/such.warc.gz: no such file or directory") ||
		!strings.Contains(e.String(), short+"#") {
		t.Errorf("exit %d, stderr %q", code, e.String())
	}
	rows, err := parquet.ReadFile[index.Row](out)
	if err != nil {
		t.Fatal(err)
	}
	damaged := 0
	for _, r := range rows {
		if r.Error != "" {
			damaged++
		}
	}
	if len(rows) != len(want) || damaged == 0 {
		t.Errorf("%d rows (%d damaged), want %d with the damaged one", len(rows), damaged, len(want))
	}
}
