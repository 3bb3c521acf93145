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

// TestWARCPartsEmbedded checks that wrong cuts (inside a record: at the
// members of a gzip WARC file stored as is in a record's payload, which
// archive.Split does not make) are caught: the part before such a cut
// does not end where the next begins, and the command reads on from
// there as a file read whole, so that the output is the same as on one
// core.
func TestWARCPartsEmbedded(t *testing.T) {
	var file bytes.Buffer
	members, err := warctest.Embedded(&file, 40, 60, gzip.NoCompression)
	if err != nil {
		t.Fatal(err)
	}
	data := file.Bytes()
	path := filepath.Join(t.TempDir(), "embedded.warc.gz")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// Every gzip header of the file: the outer members and the inner
	// file's.
	var all []int64
	for i := 0; ; i++ {
		j := bytes.Index(data[i:], []byte{0x1f, 0x8b, 0x08})
		if j < 0 {
			break
		}
		i += j
		all = append(all, int64(i))
	}
	if len(all) < len(members)+50 {
		t.Fatalf("%d gzip headers, %d members: the inner file is not stored as is", len(all), len(members))
	}
	defer func(f func(io.ReaderAt, int64, int64) []int64) { split = f }(split)
	for _, args := range [][]string{
		{"--json", "--stats", path},
		{"--decode", "--json", path},
		{"--decode", "--stats", path},
	} {
		want, wantErr, wantCode := runPartsWith(t, args, 1, 1<<20, 1<<20)
		if strings.Contains(want, "inner.example") || wantCode != 0 {
			t.Fatalf("%q on one core: exit %d, output names the inner file's records:\n%s", args, wantCode, want)
		}
		for _, every := range []int{1, 3, 7, 20} {
			split = func(io.ReaderAt, int64, int64) []int64 {
				var cuts []int64
				for i := 0; i < len(all); i += every {
					cuts = append(cuts, all[i])
				}
				return cuts
			}
			for _, c := range []struct {
				procs int
				hold  int
			}{{2, 1 << 20}, {2, 0}, {3, 2000}} {
				got, gotErr, code := runPartsWith(t, args, c.procs, 100, c.hold)
				if got != want || gotErr != wantErr || code != wantCode {
					t.Errorf("%q, every %d, %+v: exit %d, got\n%.2000s\n%s\nwant exit %d\n%.2000s\n%s", args, every, c, code, got, gotErr, wantCode, want, wantErr)
				}
			}
		}
	}
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
			want, wantErr, wantCode := runPartsWith(t, args, 1, partSize, maxPartHold)
			if n := strings.Count(want, `"uri":"http://outer.example/`); strings.Contains(want, "inner.example") || wantCode != 0 || n != 300 {
				t.Fatalf("%q on one core: exit %d, %d outer records, output names the inner file's records:\n%.3000s", args, wantCode, n, want)
			}
			for _, c := range []struct {
				procs int
				size  int64
			}{{2, partSize}, {2, 4 << 10}, {4, 1000}, {3, 64 << 10}} {
				got, gotErr, code := runPartsWith(t, args, c.procs, c.size, maxPartHold)
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
