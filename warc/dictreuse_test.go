package warc

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/charsniff/charsniff/internal/warctest"
)

// dictWARC writes the records of a .warc.zst file of a frame per record
// (no dictionary) again after a dictionary frame of its own, built from
// them with id, each frame compressed with it. It returns the file and
// the offsets of its frames.
func dictWARC(t *testing.T, frames []byte, id uint32) ([]byte, []int64) {
	t.Helper()
	zr, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	plain, err := zr.DecodeAll(frames, nil)
	if err != nil {
		t.Fatal(err)
	}
	offs := append(recordStarts(t, plain), int64(len(plain)))
	var records [][]byte
	for i := range len(offs) - 1 {
		records = append(records, plain[offs[i]:offs[i+1]])
	}
	history := bytes.Join(records, nil)
	history = history[:min(len(history), 32<<10)]
	dict, err := zstd.BuildDict(zstd.BuildDictOptions{ID: id, Contents: records, History: history, Offsets: [3]int{1, 4, 8}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	var head [8]byte
	binary.LittleEndian.PutUint32(head[:], 0x184D2A5D)
	binary.LittleEndian.PutUint32(head[4:], uint32(len(dict)))
	b.Write(head[:])
	b.Write(dict)
	zw, err := zstd.NewWriter(nil, zstd.WithEncoderDict(dict), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	offs = offs[:0]
	for _, rec := range records {
		offs = append(offs, int64(b.Len()))
		b.Write(zw.EncodeAll(rec, nil))
	}
	return b.Bytes(), offs
}

// recordStarts returns the offsets of the records of the WARC file in.
func recordStarts(t *testing.T, in []byte) []int64 {
	t.Helper()
	var offs []int64
	r := NewReader(bytes.NewReader(in))
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return offs
		}
		if err != nil {
			t.Fatal(err)
		}
		offs = append(offs, rec.Offset)
	}
}

// TestDictionaryReused reads byte ranges of two .warc.zst files with
// dictionaries of their own and of one without, in turn, with one Reader
// (Reset between them, as a worker of archive.Parallel reads its parts): a
// range of a file reads with that file's dictionary, kept from its last
// range or not, and gives the records a Reader of its own gives.
func TestDictionaryReused(t *testing.T) {
	frames := warctest.Testdata(t, "resiliparse/warcfile.frames.warc.zst")
	one, offsOne := dictWARC(t, frames, 0x1234)
	two, offsTwo := dictWARC(t, frames, 0x5678)
	offsFrames := recordStarts(t, frames)
	// Ranges of two records from the second on, so that each needs the
	// dictionary at its file's start; then the files whole.
	type rng struct {
		file []byte
		off  int64
		n    int64
	}
	ranges := func(file []byte, offs []int64) (rs []rng) {
		for i := 1; i+2 < len(offs); i += 3 {
			rs = append(rs, rng{file, offs[i], offs[i+2] - offs[i]})
		}
		return rs
	}
	a, b, c := ranges(one, offsOne), ranges(two, offsTwo), ranges(frames, offsFrames)
	var order []rng
	for i := range min(len(a), len(b), len(c)) {
		// the same file twice, then each other one, back and forth
		order = append(order, a[i], a[(i+1)%len(a)], b[i], c[i], b[(i+1)%len(b)], a[i])
	}
	order = append(order, rng{one, 0, int64(len(one))}, rng{frames, 0, int64(len(frames))}, rng{two, 0, int64(len(two))})
	files := map[*byte]io.ReaderAt{&one[0]: bytes.NewReader(one), &two[0]: bytes.NewReader(two), &frames[0]: bytes.NewReader(frames)}
	var r *Reader
	for i, g := range order {
		sr := func() io.Reader { return io.NewSectionReader(files[&g.file[0]], g.off, g.n) }
		if r == nil {
			r = NewReader(sr())
		} else {
			r.Reset(sr())
		}
		got := describeReader(t, r, true)
		want := describe(t, sr(), true)
		if len(want) == 0 || !equal(got, want) {
			t.Fatalf("range %d (%d:%d): with the Reader of earlier ranges\n%q\nalone\n%q", i, g.off, g.n, got, want)
		}
		for _, l := range got {
			if bytes.HasPrefix([]byte(l), []byte("err")) {
				t.Fatalf("range %d (%d:%d): %s", i, g.off, g.n, l)
			}
		}
	}
}

// BenchmarkDictionaryRanges reads a .warc.zst file with a dictionary as
// archive.Parallel's workers do: byte ranges of a few records each, one
// Reader Reset for each (the dictionary at the file's start needed by
// every range).
func BenchmarkDictionaryRanges(b *testing.B) {
	t := &testing.T{}
	file, offs := dictWARC(t, warctest.Testdata(b, "resiliparse/warcfile.frames.warc.zst"), 0x1234)
	ra := bytes.NewReader(file)
	offs = append(offs, int64(len(file)))
	r := NewReader(bytes.NewReader(nil))
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i+1 < len(offs); i += 3 {
			j := min(i+3, len(offs)-1)
			r.Reset(io.NewSectionReader(ra, offs[i], offs[j]-offs[i]))
			for {
				rec, err := r.Next()
				if err != nil {
					break
				}
				io.Copy(io.Discard, rec.Body)
			}
		}
	}
}
