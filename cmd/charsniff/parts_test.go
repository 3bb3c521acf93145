package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/internal/warctest"
)

// TestWARCParts checks that a gzip WARC file cut into parts read on
// several cores gives the same output as read whole on one core, in
// sniffing and decoding mode, whether the parts' output fits what they
// may hold or not: the generated crawl, the wget file, and the wget file
// followed by half of itself (cut inside a record's gzip member).
func TestWARCParts(t *testing.T) {
	dir := t.TempDir()
	gen, _, err := warctest.BenchFile(dir, 1<<20, true, false)
	if err != nil {
		t.Fatal(err)
	}
	wget := filepath.Join(root, testdataWARC)
	damaged := filepath.Join(dir, "damaged.warc.gz")
	data := []byte(readRoot(t, testdataWARC))
	if err := os.WriteFile(damaged, append(append([]byte{}, data...), data[:len(data)/2]...), 0o644); err != nil {
		t.Fatal(err)
	}
	// length-long.warc's records, one gzip member each: a Content-Length
	// too long runs into the next member, and so across a cut.
	long := filepath.Join(dir, "long.warc.gz")
	var gz []byte
	plain := []byte(readRoot(t, filepath.Join("warc", "testdata", "length-long.warc")))
	for len(plain) > 0 {
		i := bytes.Index(plain[1:], []byte("WARC/1."))
		if i < 0 {
			i = len(plain) - 1
		}
		gz = append(gz, warctest.Gzip(plain[:i+1])...)
		plain = plain[i+1:]
	}
	if err := os.WriteFile(long, gz, 0o644); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(root, "warc", "testdata", "length-long.warc.gz")
	// The files are read in parts with more than one core, but for the one
	// that is one gzip member.
	for _, path := range []string{gen, wget, damaged, long, whole} {
		func() {
			defer func(p int, s int64) { runtime.GOMAXPROCS(p); partSize = s }(runtime.GOMAXPROCS(2), partSize)
			partSize = 100
			w := (&app{cfg: &config{}}).newWorker()
			in := input{path: path}
			o, err := w.openInput(in)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			if _, cuts := splitWARC(in, o); (len(cuts) > 1) != (path != whole) {
				t.Errorf("%s: cuts %v", path, cuts)
			}
		}()
	}
	out := filepath.Join(dir, "out.txt")
	for _, args := range [][]string{
		{"--json", "--stats", gen, wget, damaged, long, whole},
		{"--stats", gen, damaged},
		{"--decode", "--json", gen, wget, damaged, long, whole},
		{"--decode", "--stats", gen, damaged},
		{"--decode", "--json", "-o", out, gen, damaged},
	} {
		want, wantErr, wantCode := runPartsWith(t, args, 1, 1<<20, 1<<20)
		wantText, _ := os.ReadFile(out)
		for _, c := range []struct {
			procs      int
			size, hold int
		}{{2, 64 << 10, 1 << 20}, {2, 100, 1 << 20}, {3, 4 << 10, 2000}, {4, 1, 0}} {
			got, gotErr, code := runPartsWith(t, args, c.procs, int64(c.size), c.hold)
			if got != want || gotErr != wantErr || code != wantCode {
				t.Errorf("%q, %+v: exit %d, got\n%.2000s\n%s\nwant exit %d\n%.2000s\n%s", args, c, code, got, gotErr, wantCode, want, wantErr)
			}
			if text, _ := os.ReadFile(out); string(text) != string(wantText) {
				t.Errorf("%q, %+v: -o text differs", args, c)
			}
		}
	}
}

// runPartsWith runs the command in this process with GOMAXPROCS set to
// procs, partSize to size and maxPartHold to hold.
func runPartsWith(t *testing.T, args []string, procs int, size int64, hold int) (stdout, stderr string, code int) {
	t.Helper()
	defer func(p int, s int64, h int) {
		runtime.GOMAXPROCS(p)
		partSize, maxPartHold = s, h
	}(runtime.GOMAXPROCS(procs), partSize, maxPartHold)
	partSize, maxPartHold = size, hold
	return runInProcess(args)
}

// TestWARCPartsEmbedded checks a file that archive.Split cuts inside a
// record: a response whose body is a gzip WARC file of its own, stored
// as is (no compression) in the record's gzip member, so that the inner
// file's members look like the outer file's. The part before such a cut
// ends with a damaged record; the command then reads on from that record
// as a file read whole, and the output is the same as on one core.
func TestWARCPartsEmbedded(t *testing.T) {
	html := func(s string) []byte {
		return warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, []byte("<title>"+s+"</title>"+strings.Repeat("<p>text ", 40)))
	}
	var inner bytes.Buffer
	iw := warctest.NewWriter(&inner, true)
	for _, u := range []string{"http://inner.example/1", "http://inner.example/2", "http://inner.example/3"} {
		if _, err := iw.Write(warctest.Response(u, html(u))); err != nil {
			t.Fatal(err)
		}
	}
	var file bytes.Buffer
	ow := warctest.NewWriter(&file, true)
	write := func(rec warctest.Record) {
		if _, err := ow.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	write(warctest.Response("http://outer.example/a", html("a")))
	// The record that holds the inner file, in a member of stored blocks.
	var raw bytes.Buffer
	if _, err := warctest.NewWriter(&raw, false).Write(warctest.Response("http://outer.example/crawl.warc.gz",
		warctest.HTTPResponse(200, []string{"Content-Type: application/warc"}, inner.Bytes()))); err != nil {
		t.Fatal(err)
	}
	start := int64(file.Len())
	zw, _ := gzip.NewWriterLevel(&file, gzip.NoCompression)
	zw.Write(raw.Bytes())
	zw.Close()
	end := int64(file.Len())
	write(warctest.Response("http://outer.example/b", html("b")))
	write(warctest.Response("http://outer.example/c", html("c")))
	path := filepath.Join(t.TempDir(), "embedded.warc.gz")
	if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cuts := archive.Split(bytes.NewReader(file.Bytes()), int64(file.Len()), 100)
	inside := false
	for _, c := range cuts {
		inside = inside || start < c && c < end
	}
	if !inside {
		t.Fatalf("no cut inside the record that holds a WARC file (%d-%d): %v; the test needs one", start, end, cuts)
	}
	for _, args := range [][]string{
		{"--json", "--stats", path},
		{"--decode", "--json", path},
		{"--decode", "--stats", path},
	} {
		want, wantErr, wantCode := runPartsWith(t, args, 1, 1<<20, 1<<20)
		if strings.Contains(want, "inner.example") || wantCode != 0 {
			t.Fatalf("%q on one core: exit %d, output names the inner file's records:\n%s", args, wantCode, want)
		}
		for _, c := range []struct {
			procs      int
			size, hold int
		}{{2, 100, 1 << 20}, {2, 100, 0}, {3, 1, 2000}} {
			got, gotErr, code := runPartsWith(t, args, c.procs, int64(c.size), c.hold)
			if got != want || gotErr != wantErr || code != wantCode {
				t.Errorf("%q, %+v: exit %d, got\n%.2000s\n%s\nwant exit %d\n%.2000s\n%s", args, c, code, got, gotErr, wantCode, want, wantErr)
			}
		}
	}
}
