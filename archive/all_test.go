package archive

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/internal/warctest"
)

// recordLines returns a line for each record: its result in JSON and its
// text.
func recordLine(t *testing.T, rec *Record) string {
	var text bytes.Buffer
	if _, err := rec.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	res, _ := json.Marshal(rec.Finish())
	return fmt.Sprintf("%s %q", res, text.String())
}

// nextLines returns the lines of the records of data read with Next.
func nextLines(t *testing.T, data []byte) []string {
	r := NewReader(bytes.NewReader(data), Options{File: "f"})
	return warctest.Collect(t, r.Next, func(rec *Record) string { return recordLine(t, rec) })
}

// readAllLines returns the lines of the records of data read with ReadAll
// on procs goroutines, in parts of size bytes.
func readAllLines(t *testing.T, data []byte, procs int, size int64) ([]string, *Counts) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	var got []string
	c, err := readAll(context.Background(), bytes.NewReader(data), int64(len(data)), Options{File: "f", PartSize: size}, func(rec *Record) error {
		got = append(got, recordLine(t, rec))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, c
}

// testFiles returns WARC files to read: stored members with a WARC file in
// a record, mixed levels, a generated crawl, the wget file, the wget file
// with half of itself after it (damaged), and a plain WARC file. They are
// made once for all the tests, which only read them.
func testFiles(t *testing.T) map[string][]byte {
	t.Helper()
	if madeFiles == nil {
		madeFiles = makeTestFiles(t)
	}
	return madeFiles
}

// madeFiles holds the files of testFiles once made.
var madeFiles map[string][]byte

func makeTestFiles(t *testing.T) map[string][]byte {
	files := make(map[string][]byte)
	for name, levels := range map[string][]int{
		"stored": {gzip.NoCompression},
		"mixed":  {gzip.NoCompression, gzip.BestSpeed, gzip.DefaultCompression},
	} {
		var b bytes.Buffer
		if _, err := warctest.Embedded(&b, 200, 100, levels...); err != nil {
			t.Fatal(err)
		}
		files[name] = b.Bytes()
	}
	var gen, plain bytes.Buffer
	warctest.Generate(&gen, 1<<20, true, 3)
	warctest.Generate(&plain, 256<<10, false, 4)
	files["generated"], files["plain"] = gen.Bytes(), plain.Bytes()
	var zgen bytes.Buffer
	warctest.GenerateZstd(&zgen, 256<<10, 5)
	files["zstd-generated"] = zgen.Bytes()
	wget := warctest.Testdata(t, "wget.warc.gz")
	files["wget"] = wget
	// Records with payloads over 1 MiB, read in place, between small ones.
	// Under the race detector, which slows decoding several times but
	// looks for nothing in its volume, two rounds of the three sizes.
	var large bytes.Buffer
	lw := warctest.NewWriter(&large, true)
	n := 12
	if testutil.Race {
		n = 6
	}
	for i := range n {
		body := bytes.Repeat([]byte("<p>caf\xe9 "), 20+i%3*(150<<10))
		rec := warctest.Response(fmt.Sprintf("http://large.example/%d", i), warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, body))
		if _, err := lw.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	files["large"] = large.Bytes()
	files["damaged"] = append(slices.Clip(wget), wget[:len(wget)/2]...)
	// FastWARC's files: ClueWeb09's WARC/0.18, LZ4, and zstd after a
	// dictionary frame.
	for name, file := range map[string]string{"clueweb": "clueweb-quirk.warc.gz", "lz4": "warcfile.warc.lz4", "zstd": "warcfile.dict.warc.zst"} {
		files[name] = warctest.Testdata(t, "resiliparse/"+file)
	}
	return files
}

// TestReadAll checks that readAll hands out the records Next does, with
// the same results and text, on one goroutine, two and several, in parts
// of any size, and the same counts.
func TestReadAll(t *testing.T) {
	for name, data := range testFiles(t) {
		want := nextLines(t, data)
		r := NewReader(bytes.NewReader(data), Options{})
		for _, err := r.Next(); err == nil; _, err = r.Next() {
		}
		wantCounts := r.Counts()
		for _, c := range []struct {
			procs int
			size  int64
		}{{1, 1000}, {2, 256 << 10}, {2, 1000}, {4, 4 << 10}, {3, 100}} {
			if c.size == 100 && strings.HasPrefix(name, "zstd") {
				// A part a frame already at 1000 bytes; each part
				// loads the dictionary again, which the race detector
				// makes slow.
				continue
			}
			got, counts := readAllLines(t, data, c.procs, c.size)
			if !slices.Equal(got, want) {
				t.Errorf("%s, %+v: %d records, want %d; first difference:\n%s", name, c, len(got), len(want), firstDiff(got, want))
			}
			if fmt.Sprint(counts) != fmt.Sprint(wantCounts) {
				t.Errorf("%s, %+v: counts %+v, want %+v", name, c, counts, wantCounts)
			}
		}
	}
}

func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("got  %.300s\nwant %.300s", got[i], want[i])
		}
	}
	return "(one is a prefix of the other)"
}

// TestReadAllWrongCuts checks the parts' safety net: cuts at every gzip
// header, the inner file's included, give the records of Next.
func TestReadAllWrongCuts(t *testing.T) {
	defer func(f func(io.ReaderAt, int64, int64) func() (int64, bool)) { split = f }(split)
	for _, name := range []string{"stored", "mixed"} {
		data := testFiles(t)[name]
		want := nextLines(t, data)
		for _, every := range []int{1, 5, 17} {
			split = fixedCuts(func() []int64 {
				cuts := []int64{0}
				for i, k := 1, 0; ; i++ {
					j := bytes.Index(data[i:], []byte{0x1f, 0x8b, 0x08})
					if j < 0 {
						return cuts
					}
					if i += j; k%every == 0 {
						cuts = append(cuts, int64(i))
					}
					k++
				}
			}())
			for _, procs := range []int{2, 4} {
				if got, _ := readAllLines(t, data, procs, 1); !slices.Equal(got, want) {
					t.Errorf("%s, a cut at every %d gzip headers, %d goroutines: %d records, want %d; first difference:\n%s",
						name, every, procs, len(got), len(want), firstDiff(got, want))
				}
			}
		}
	}
}

// TestReadAllStop checks that an error of fn, or a canceled context, stops
// readAll and ReadStream and is returned.
func TestReadAllStop(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	data := testFiles(t)["generated"]
	stop := errors.New("enough")
	stream := func(ctx context.Context, src io.ReaderAt, size int64, opts Options, fn func(*Record) error) (*Counts, error) {
		return readStream(ctx, io.NewSectionReader(src, 0, size), opts, fn)
	}
	for k, after := range []int{0, 1, 10, 0, 1, 10} {
		read := readAll
		if k >= 3 {
			read = stream
		}
		n := 0
		_, err := read(context.Background(), bytes.NewReader(data), int64(len(data)), Options{PartSize: 1000}, func(*Record) error {
			if n++; n > after {
				return stop
			}
			return nil
		})
		if err != stop || n != after+1 {
			t.Errorf("stop after %d: %d calls, error %v", after, n, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		n = 0
		_, err = read(ctx, bytes.NewReader(data), int64(len(data)), Options{PartSize: 1000}, func(*Record) error {
			if n++; n > after {
				cancel()
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancel after %d: error %v", after, err)
		}
	}
}

// panicAt is a file that panics the first time it is read at or after
// off (by a part, not by Split).
type panicAt struct {
	*bytes.Reader
	off  int64
	once *atomic.Bool
}

func (p panicAt) ReadAt(b []byte, off int64) (int, error) {
	if off+int64(len(b)) > p.off && off > 0 && p.once.CompareAndSwap(false, true) {
		panic("reader exploded")
	}
	return p.Reader.ReadAt(b, off)
}

// TestReadAllPanic checks that a panic on one of readAll's goroutines
// comes back on the caller's.
func TestReadAllPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	data := testFiles(t)["stored"]
	cuts := Split(bytes.NewReader(data), int64(len(data)), 1000)
	defer func(f func(io.ReaderAt, int64, int64) func() (int64, bool)) { split = f }(split)
	split = fixedCuts(cuts)
	defer func() {
		if v := recover(); v != "reader exploded" {
			t.Errorf("recovered %v, want the reader's panic", v)
		}
	}()
	src := panicAt{bytes.NewReader(data), cuts[len(cuts)/2], new(atomic.Bool)}
	readAll(context.Background(), src, int64(len(data)), Options{PartSize: 1000}, func(*Record) error { return nil })
	t.Error("readAll returned")
}

// TestReadStream checks that ReadStream hands out the records Next does,
// on one goroutine, two and several, from a reader that returns a byte at
// a time too.
func TestReadStream(t *testing.T) {
	for name, data := range testFiles(t) {
		want := nextLines(t, data)
		for _, procs := range []int{1, 2, 4} {
			for _, one := range []bool{false, name == "wget"} {
				func() {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
					var src io.Reader = bytes.NewReader(data)
					if one {
						src = iotest.OneByteReader(src)
					}
					var got []string
					_, err := readStream(context.Background(), src, Options{File: "f"}, func(rec *Record) error {
						got = append(got, recordLine(t, rec))
						return nil
					})
					if err != nil || !slices.Equal(got, want) {
						t.Errorf("%s, %d goroutines, a byte at a time %v: error %v, %d records, want %d; first difference:\n%s",
							name, procs, one, err, len(got), len(want), firstDiff(got, want))
					}
				}()
			}
		}
	}
}

// fixedCuts returns a split that makes the cuts given, whatever the file.
func fixedCuts(cuts []int64) func(io.ReaderAt, int64, int64) func() (int64, bool) {
	return func(io.ReaderAt, int64, int64) func() (int64, bool) {
		k := 0
		return func() (int64, bool) {
			if k == len(cuts) {
				return 0, false
			}
			k++
			return cuts[k-1], true
		}
	}
}

// TestBudget checks a part's budget of held text: the first take always
// fits, one that would go over waits for bytes given back, and one that
// waits gives up when its context is done, having taken nothing.
func TestBudget(t *testing.T) {
	var b budget
	ctx := context.Background()
	if !b.take(ctx, 5<<20, 2<<20) {
		t.Fatal("first take of more than the budget: refused")
	}
	b.give(5 << 20)
	for range 2 {
		if !b.take(ctx, 1<<20, 2<<20) {
			t.Fatal("a take within the budget: refused")
		}
	}
	took := make(chan bool)
	go func() { took <- b.take(ctx, 1, 2<<20) }()
	select {
	case <-took:
		t.Fatal("a take over the budget did not wait")
	case <-time.After(20 * time.Millisecond):
	}
	b.give(1 << 20)
	if !<-took {
		t.Fatal("a take that waited for room: refused")
	}
	canceled, cancel := context.WithCancel(ctx)
	go func() { took <- b.take(canceled, 2<<20, 2<<20) }()
	cancel()
	if <-took {
		t.Fatal("a take over the budget with its context done: taken")
	}
	if b.n != 1<<20+1 {
		t.Errorf("%d bytes taken; want %d", b.n, 1<<20+1)
	}
}
