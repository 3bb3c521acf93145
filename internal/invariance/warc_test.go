package invariance

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// A warcFile is the corpus as response records of one WARC file.
type warcFile struct {
	name string
	data []byte
	// at[i] is the offset and length of document i's record (its gzip
	// member in a gzip file), as an index gives them.
	at [][2]int64
}

// uri is the target URI of document i's record: an IP address, so that no
// domain hint is taken from it.
func uri(i int) string { return fmt.Sprintf("http://192.0.2.1/d/%03d", i) }

// Levels of the gzip members of each kind of WARC file: -2 is no gzip,
// zstdFrames and lz4Frames a zstd or LZ4 frame per record.
var warcKinds = []struct {
	name   string
	levels []int
	nested bool // with a stored .warc.gz inside a record
}{
	{"plain", []int{-2}, false},
	{"gzip", []int{gzip.DefaultCompression}, false},
	// Stored members: large enough for the command to cut it into parts
	// on several cores, without and with a stored .warc.gz inside.
	{"stored-clean", []int{gzip.NoCompression}, false},
	{"stored", []int{gzip.NoCompression}, true},
	// Mixed also stores some bodies gzip-encoded or chunked.
	{"mixed", []int{gzip.NoCompression, gzip.BestSpeed, gzip.DefaultCompression, gzip.BestCompression}, true},
	// The other containers, a frame per record (as .warc.zst and FastWARC's
	// .warc.lz4 files have them).
	{"zstd", []int{zstdFrames}, false},
	{"lz4", []int{lz4Frames}, false},
}

const (
	zstdFrames = -3
	lz4Frames  = -4
)

// records writes WARC records, each a gzip member of a level drawn from
// levels (or none), and returns where each starts and its length.
type records struct {
	out    bytes.Buffer
	rec    bytes.Buffer
	w      *warctest.Writer
	levels []int
	rng    *rand.Rand
}

func newRecords(levels []int, rng *rand.Rand) *records {
	r := &records{levels: levels, rng: rng}
	r.w = warctest.NewWriter(&r.rec, false)
	return r
}

func (r *records) write(rec warctest.Record, level int) (off, n int64) {
	r.rec.Reset()
	if _, err := r.w.Write(rec); err != nil {
		panic(err)
	}
	off = int64(r.out.Len())
	switch level {
	case -2:
		r.out.Write(r.rec.Bytes())
	case zstdFrames:
		zw, err := zstd.NewWriter(&r.out, zstd.WithEncoderConcurrency(1))
		if err != nil {
			panic(err)
		}
		zw.Write(r.rec.Bytes())
		zw.Close()
	case lz4Frames:
		zw := lz4.NewWriter(&r.out)
		zw.Write(r.rec.Bytes())
		zw.Close()
	default:
		zw, err := gzip.NewWriterLevel(&r.out, level)
		if err != nil {
			panic(err)
		}
		zw.Write(r.rec.Bytes())
		zw.Close()
	}
	return off, int64(r.out.Len()) - off
}

func (r *records) level() int { return r.levels[r.rng.IntN(len(r.levels))] }

// response is the response record of document d at uri.
func response(uri string, d *Doc) warctest.Record {
	return warctest.Response(uri, warctest.HTTPResponse(200,
		[]string{"Content-Type: " + d.ContentType, "Content-Length: " + strconv.Itoa(len(d.Data))}, d.Data))
}

// codedResponse is the response record of document d at uri with its body
// as a server may have sent it: as it is, gzip-encoded, or chunked in
// pieces of a random size (rng chooses).
func codedResponse(uri string, d *Doc, rng *rand.Rand) warctest.Record {
	switch rng.IntN(4) {
	case 0:
		body := warctest.Gzip(d.Data)
		return warctest.Response(uri, warctest.HTTPResponse(200, []string{"Content-Type: " + d.ContentType,
			"Content-Encoding: gzip", "Content-Length: " + strconv.Itoa(len(body))}, body))
	case 1:
		return warctest.Response(uri, warctest.HTTPResponse(200, []string{"Content-Type: " + d.ContentType,
			"Transfer-Encoding: chunked"}, warctest.Chunk(d.Data, 1+rng.IntN(5000))))
	}
	return response(uri, d)
}

// nestedWARC returns a .warc.gz of stored members holding the documents
// from, as a crawler that archived an archive would store it.
func nestedWARC(docs []Doc, rng *rand.Rand) []byte {
	r := newRecords([]int{gzip.NoCompression}, rng)
	for i := range docs {
		r.write(response(fmt.Sprintf("http://192.0.2.2/inner/%03d", i), &docs[i]), gzip.NoCompression)
	}
	return r.out.Bytes()
}

// buildWARCs writes the corpus as WARC files of each kind.
func buildWARCs(docs []Doc) []warcFile {
	var files []warcFile
	for k, kind := range warcKinds {
		rng := rand.New(rand.NewPCG(Seed, uint64(100+k)))
		r := newRecords(kind.levels, rng)
		at := make([][2]int64, len(docs))
		lvl := func() int {
			if kind.levels[0] == -2 {
				return -2
			}
			return r.level()
		}
		r.write(warctest.Record{Type: "warcinfo", ContentType: "application/warc-fields",
			Block: []byte("software: charsniff invariance\r\n")}, lvl())
		for i := range docs {
			if kind.nested && (i == len(docs)/3 || i == 2*len(docs)/3) {
				// A .warc.gz as the payload of a response (not HTML, so
				// skipped), its members left as they are by a stored
				// outer member.
				inner := nestedWARC(docs[i:min(i+120, len(docs))], rng)
				rec := warctest.Response("http://192.0.2.3/archive.warc.gz", warctest.HTTPResponse(200,
					[]string{"Content-Type: application/warc", "Content-Length: " + strconv.Itoa(len(inner))}, inner))
				r.write(rec, gzip.NoCompression)
			}
			if rng.IntN(5) == 0 {
				r.write(warctest.Record{Type: "request", TargetURI: uri(i), ContentType: "application/http; msgtype=request",
					Block: []byte("GET /d HTTP/1.1\r\nHost: 192.0.2.1\r\n\r\n")}, lvl())
			}
			rec := response(uri(i), &docs[i])
			if kind.name == "mixed" {
				rec = codedResponse(uri(i), &docs[i], rng)
			}
			off, n := r.write(rec, lvl())
			at[i] = [2]int64{off, n}
		}
		files = append(files, warcFile{kind.name, bytes.Clone(r.out.Bytes()), at})
	}
	return files
}

// compareRecords checks results, by URI, against the answers of the
// documents with their Content-Type: one for each document, no other.
func compareRecords(t *testing.T, docs []Doc, want []answer, lines []line, how string, which []int) {
	t.Helper()
	index := map[string]int{}
	for i := range docs {
		index[uri(i)] = i
	}
	seen := map[int]int{}
	for _, l := range lines {
		w := l.Where
		if w == nil {
			w = &Where{Offset: -1}
		}
		i, ok := index[w.URI]
		if !ok || l.Error != "" {
			report(t, how, "%s: a line for uri %q at offset %d (error %q): not a record of the file's own", how, w.URI, w.Offset, l.Error)
			continue
		}
		seen[i]++
		if got := l.answer(want[i]); !knownLine(t, &docs[i], how, got, want[i]) {
			check(t, &docs[i], how, got, want[i])
		}
	}
	for _, i := range which {
		if seen[i] != 1 {
			report(t, how, "%s: %s: %d lines, want 1", docs[i].Name, how, seen[i])
		}
	}
}

// TestArchive: archive.Reader.Next (some records read in part or not at
// all), archive.Parallel on all cores with small parts, and
// archive.ParallelStream give each record the answer of its document with its
// stored Content-Type.
func TestArchive(t *testing.T) {
	docs, _, ctr := corpus(t)
	all := seq(len(docs))
	for _, f := range buildWARCs(docs) {
		if testutil.Race && f.name != "mixed" {
			continue // the others in the plain runs
		}
		rng := rand.New(rand.NewPCG(*pathSeed, 5))
		ways := []string{"Next", "Parallel", "ParallelStream"}
		for _, way := range ways {
			how := f.name + " WARC, archive." + way
			var lines []line
			add := func(rec *archive.Record, part bool) {
				var text bytes.Buffer
				if part {
					// Stop anywhere: Finish must still give the final
					// answer, and the next record must not see the rest.
					if rec.Text != nil {
						io.CopyN(&text, rec.Text, int64(rng.IntN(3000)))
					}
				} else {
					rec.WriteText(&text)
				}
				res := rec.Finish()
				l := resultLine(t, res)
				if s := text.String(); !part {
					l.Text = &s
				}
				lines = append(lines, l)
			}
			opts := archive.Options{File: f.name}
			fn := func(rec *archive.Record) error { add(rec, false); return nil }
			var err error
			switch way {
			case "Next":
				how += ", the text of some records read in part or not at all"
				rd := archive.NewReader(bytes.NewReader(f.data), opts)
				for {
					var rec *archive.Record
					rec, err = rd.Next()
					if err != nil {
						break
					}
					add(rec, rng.IntN(3) == 0)
				}
				if err == io.EOF {
					err = nil
				}
			case "Parallel":
				opts.PartSize = 16 << 10 // many parts, so every cut is tried
				err = each(archive.Parallel(context.Background(), bytes.NewReader(f.data), int64(len(f.data)), opts), fn)
			case "ParallelStream":
				err = each(archive.ParallelStream(context.Background(), bytes.NewReader(f.data), opts), fn)
			}
			if err != nil {
				t.Fatalf("%s: %v", how, err)
			}
			compareRecords(t, docs, ctr, lines, how, all)
		}
	}
}

// each calls fn with each record of seq, and returns its error.
func each(seq iter.Seq2[*archive.Record, error], fn func(*archive.Record) error) error {
	for rec, err := range seq {
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
	return nil
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestCLIWARC: the command on WARC files, on one core and several, from a
// pipe, each record by --range and all of them by --files-from, gives each
// record the answer of its document with its stored Content-Type. Its
// subtests are named KIND/HOW/GOMAXPROCS=N, as knownBugs names them.
func TestCLIWARC(t *testing.T) {
	command(t)
	docs, _, ctr := corpus(t)
	all := seq(len(docs))
	dir := t.TempDir()
	for _, f := range buildWARCs(docs) {
		// Named .warc.gz but for plain: the zstd and LZ4 files too, as
		// containers are told by content.
		path := filepath.Join(dir, f.name+".warc")
		if f.name != "plain" {
			path += ".gz"
		}
		if err := os.WriteFile(path, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, how := range []string{"file", "pipe"} {
			for _, procs := range []string{"1", "2", "4"} {
				t.Run(f.name+"/"+how+"/GOMAXPROCS="+procs, func(t *testing.T) {
					skipKnown(t)
					for _, decode := range []bool{false, true} {
						flags := []string{"--json", "--exit-zero"}
						if decode {
							flags = append(flags, "--decode")
						}
						env := []string{"GOMAXPROCS=" + procs}
						desc := fmt.Sprintf("%s WARC (%d bytes), GOMAXPROCS=%s charsniff %s", f.name, len(f.data), procs, strings.Join(flags, " "))
						var lines []line
						if how == "file" {
							lines = run(t, env, nil, append(flags, path)...)
							desc += " FILE"
						} else {
							lines = run(t, env, bytes.NewReader(f.data), append(flags, "-")...)
							desc += " - <FILE (a pipe)"
						}
						compareRecords(t, docs, ctr, lines, desc, all)
					}
				})
			}
		}
		t.Run(f.name+"/files-from", func(t *testing.T) {
			skipKnown(t)
			var list strings.Builder
			for i := range docs {
				fmt.Fprintf(&list, "%s\t%d\t%d\n", path, f.at[i][0], f.at[i][1])
			}
			how := f.name + " WARC, charsniff --json --decode --files-from PATH<TAB>OFFSET<TAB>LENGTH"
			compareRecords(t, docs, ctr, run(t, nil, strings.NewReader(list.String()), "--json", "--decode", "--exit-zero", "--files-from", "-"), how, all)
		})
		if f.name != "mixed" && f.name != "plain" {
			continue // one command a record: two kinds are enough
		}
		t.Run(f.name+"/range", func(t *testing.T) {
			skipKnown(t)
			for i := range docs {
				rng := fmt.Sprintf("%d:%d", f.at[i][0], f.at[i][1])
				how := f.name + " WARC, charsniff --json --decode --range " + rng
				compareRecords(t, docs, ctr, run(t, nil, nil, "--json", "--decode", "--exit-zero", "--range", rng, path), how, []int{i})
			}
		})
	}
}
