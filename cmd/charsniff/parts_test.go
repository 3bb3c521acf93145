package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charsniff/charsniff/internal/warctest"
)

// TestWARCParts checks that a gzip WARC file cut into parts read on
// several cores gives the same output as read whole on one core, in
// sniffing and decoding mode, in parts of any size: the generated crawl, the wget file, and the wget file
// followed by half of itself (cut inside a record's gzip member).
func TestWARCParts(t *testing.T) {
	dir := t.TempDir()
	gen, _, err := warctest.BenchFile(dir, 1<<20, true, false)
	if err != nil {
		t.Fatal(err)
	}
	wget := filepath.Join(root, testdataWARC)
	damaged := writeDamagedWARC(t, filepath.Join(dir, "damaged.warc.gz"))
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
	// The files go to archive.ReadAll with more than one core, the one
	// that is one gzip member too (ReadAll finds no cut in it and reads it
	// as a stream); a plain WARC file does not.
	plainWARC := filepath.Join(root, "warc", "testdata", "length-long.warc")
	zstdWARC := filepath.Join(root, "warc", "testdata", "resiliparse", "warcfile.dict.warc.zst")
	for _, path := range []string{gen, wget, damaged, long, whole, plainWARC, zstdWARC} {
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
			if f := splitWARC(in, o); (f != nil) != (path != plainWARC) {
				t.Errorf("%s: read in parts: %v", path, f != nil)
			}
		}()
	}
	out := filepath.Join(dir, "out.txt")
	for _, args := range [][]string{
		{"--json", "--stats", gen, wget, damaged, long, whole, zstdWARC},
		{"--stats", gen, damaged},
		{"--decode", "--json", gen, wget, damaged, long, whole, zstdWARC},
		{"--decode", "--stats", gen, damaged},
		{"--decode", "--json", "-o", out, gen, damaged},
	} {
		want, wantErr, wantCode := runPartsWith(t, args, 1, 1<<20)
		wantText, _ := os.ReadFile(out)
		for _, c := range []struct {
			procs int
			size  int64
		}{{2, 64 << 10}, {2, 100}, {3, 4 << 10}, {4, 1}} {
			got, gotErr, code := runPartsWith(t, args, c.procs, c.size)
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
// procs and partSize to size.
func runPartsWith(t *testing.T, args []string, procs int, size int64) (stdout, stderr string, code int) {
	t.Helper()
	defer func(p int, s int64) {
		runtime.GOMAXPROCS(p)
		partSize = s
	}(runtime.GOMAXPROCS(procs), partSize)
	partSize = size
	return runInProcess(args)
}

// TestWARCPartsStored checks files whose members are stored (gzip level 0)
// or mixed, with a gzip WARC file in one record's payload: its members
// appear as they are in the outer file. The output is the same on one
// core, on two and on several, in parts of any size, and from standard
// input.
func TestWARCPartsStored(t *testing.T) {
	dir := t.TempDir()
	for _, levels := range [][]int{{gzip.NoCompression}, {gzip.NoCompression, gzip.BestSpeed, gzip.DefaultCompression}} {
		var file bytes.Buffer
		if _, err := warctest.Embedded(&file, 300, 300, levels...); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "stored.warc.gz")
		if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"--json", "--stats", path},
			{"--decode", "--json", path},
		} {
			want, wantErr, wantCode := runPartsWith(t, args, 1, partSize)
			if n := strings.Count(want, `"uri":"http://outer.example/`); strings.Contains(want, "inner.example") || wantCode != 0 || n != 300 {
				t.Fatalf("%q on one core: exit %d, %d outer records, output names the inner file's records:\n%.3000s", args, wantCode, n, want)
			}
			for _, c := range []struct {
				procs int
				size  int64
			}{{2, partSize}, {2, 4 << 10}, {4, 1000}, {3, 64 << 10}} {
				got, gotErr, code := runPartsWith(t, args, c.procs, c.size)
				if got != want || gotErr != wantErr || code != wantCode {
					t.Errorf("levels %v, %q, %+v: exit %d, %d lines, %d inner, stderr %s; want exit %d, %d lines", levels, args, c, code,
						strings.Count(got, "\n"), strings.Count(got, "inner.example"), gotErr, wantCode, strings.Count(want, "\n"))
				}
			}
			// From standard input, on two cores: one part.
			stdinArgs := append(args[:len(args)-1:len(args)-1], "-")
			var o, e bytes.Buffer
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
			code := run(stdinArgs, bytes.NewReader(file.Bytes()), &o, &e)
			if got := strings.ReplaceAll(o.String(), `"file":"-"`, `"file":`+strconv.Quote(path)); got != want || code != wantCode {
				t.Errorf("levels %v, %q: exit %d, %d lines, %d inner; want exit %d, %d lines", levels, stdinArgs, code,
					strings.Count(got, "\n"), strings.Count(got, "inner.example"), wantCode, strings.Count(want, "\n"))
			}
		}
	}
}

// TestPartsProgress checks the progress bar of one gzip WARC file read in
// parts on several cores, sniffing and decoding: it counts the file's
// bytes (read through the parts' ReaderAt) against its size.
func TestPartsProgress(t *testing.T) {
	saveTerm, saveDelay, saveThrottle := isTerminal, progressDelay, progressThrottle
	defer func() { isTerminal, progressDelay, progressThrottle = saveTerm, saveDelay, saveThrottle }()
	defer func(p int, s int64) { runtime.GOMAXPROCS(p); partSize = s }(runtime.GOMAXPROCS(2), partSize)
	partSize = 100
	progressDelay, progressThrottle = 0, 0
	path := filepath.Join(root, testdataWARC)
	out := filepath.Join(t.TempDir(), "out.txt")
	for _, args := range [][]string{{path}, {"--decode", "-o", out, path}} {
		var stdout, stderr bytes.Buffer
		isTerminal = func(w io.Writer) bool { return w == &stderr }
		if code := run(args, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("run(%q): exit %d", args, code)
		}
		for _, want := range []string{"1/1 files done", "/12 kB, "} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("run(%q): the bar lacks %q:\n%q", args, want, stderr.String())
			}
		}
		checkNoStepBack(t, stderr.String())
	}
}

// TestPartsMeter checks that a WARC file read in parts counts the file
// consumed to each record's start as the records come out, in order: not
// what its parts read ahead.
func TestPartsMeter(t *testing.T) {
	p := newProgressAt(io.Discard, "sniffing", time.Now)
	m := &meter{p: p}
	m.count(512) // the first bytes, peeked
	furthest := int64(512)
	for _, off := range []int64{0, 300, 5000, 4000, 9000} {
		m.reach(off) // 4000: the records of a part read again
		furthest = max(furthest, off)
		if p.done != furthest {
			t.Errorf("at %d: %d bytes done, want %d", off, p.done, furthest)
		}
	}
	m.done(12000)
	if p.done != 12000 {
		t.Errorf("done: %d bytes, want the size, 12000", p.done)
	}
}
