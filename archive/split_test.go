package archive_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/charsniff/charsniff/warc"
)

// recordOffsets returns the offsets of the records of the WARC file data.
func recordOffsets(t *testing.T, data []byte) []int64 {
	t.Helper()
	wr := warc.NewReader(bytes.NewReader(data))
	return warctest.Collect(t, wr.Next, func(rec *warc.Record) int64 { return rec.Offset })
}

// checkCuts checks that cuts start with 0, increase, and are record
// starts.
func checkCuts(t *testing.T, cuts, records []int64) {
	t.Helper()
	if len(cuts) == 0 || cuts[0] != 0 {
		t.Fatalf("cuts %v: want 0 first", cuts)
	}
	for i, c := range cuts[1:] {
		if c <= cuts[i] {
			t.Errorf("cuts %v: not increasing", cuts)
		}
		if _, ok := slices.BinarySearch(records, c); !ok {
			t.Errorf("cut %d is not a record's start", c)
		}
	}
}

// readParts reads the parts of data and returns the offsets and results of
// its records, all parts one after the other.
func readParts(t *testing.T, data []byte, cuts []int64) (offs []int64, results []string) {
	t.Helper()
	for k, off := range cuts {
		end := int64(len(data))
		if k+1 < len(cuts) {
			end = cuts[k+1]
		}
		ar := archive.NewReader(io.NewSectionReader(bytes.NewReader(data), off, end-off), archive.Options{File: "f", Offset: off})
		for _, res := range warctest.Collect(t, ar.Next, (*archive.Record).Finish) {
			offs = append(offs, res.Offset)
			results = append(results, fmt.Sprint(res.Encoding.LowerName(), " ", res.Err))
		}
	}
	return offs, results
}

func TestSplitGenerated(t *testing.T) {
	var b bytes.Buffer
	if _, err := warctest.Generate(&b, 2<<20, true, 7); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	records := recordOffsets(t, data)
	cuts := archive.Split(bytes.NewReader(data), int64(len(data)), 64<<10)
	if len(cuts) < 4 {
		t.Fatalf("%d parts of a %d-byte file in 64 KiB parts", len(cuts), len(data))
	}
	checkCuts(t, cuts, records)
	wantOffs, want := readParts(t, data, []int64{0})
	gotOffs, got := readParts(t, data, cuts)
	if !slices.Equal(gotOffs, wantOffs) || !slices.Equal(got, want) {
		t.Errorf("the parts read %d records, the whole file %d, or their results differ", len(got), len(want))
	}
}

func TestSplitWget(t *testing.T) {
	data := warctest.Testdata(t, "wget.warc.gz")
	records := recordOffsets(t, data)
	for _, size := range []int64{1, 100, 1000, int64(len(data)) / 3} {
		cuts := archive.Split(bytes.NewReader(data), int64(len(data)), size)
		checkCuts(t, cuts, records)
		if size < 1000 && len(cuts) < 2 {
			t.Errorf("part size %d: %d parts", size, len(cuts))
		}
		wantOffs, want := readParts(t, data, []int64{0})
		gotOffs, got := readParts(t, data, cuts)
		if !slices.Equal(gotOffs, wantOffs) || !slices.Equal(got, want) {
			t.Errorf("part size %d: the parts read %v, the whole file %v", size, gotOffs, wantOffs)
		}
	}
}

// TestSplitMagicInData checks that the bytes of a gzip header inside a
// member's compressed data (here stored as is: a gzip-encoded page in a
// member without compression) are not taken for a member.
func TestSplitMagicInData(t *testing.T) {
	page := warctest.Gzip(bytes.Repeat([]byte("<p>not a WARC record</p>\n"), 40))
	var fake []byte
	for range 50 {
		fake = append(fake, page...)
		fake = append(fake, 0x1f, 0x8b, 0x08, 0x00, 'W', 'A', 'R', 'C', '/', '1', '.', '0', '\r', '\n')
	}
	block := warctest.HTTPResponse(200, []string{"Content-Type: text/html", "Content-Encoding: gzip"}, fake)
	var data bytes.Buffer
	var members []int64
	for i := range 8 {
		members = append(members, int64(data.Len()))
		var raw bytes.Buffer
		ww := warctest.NewWriter(&raw, false)
		if _, err := ww.Write(warctest.Response("http://example.test/"+string(rune('a'+i)), block)); err != nil {
			t.Fatal(err)
		}
		zw, _ := gzip.NewWriterLevel(&data, gzip.NoCompression)
		zw.Write(raw.Bytes())
		zw.Close()
	}
	if !bytes.Contains(data.Bytes()[members[0]+20:members[1]], page[:3]) {
		t.Fatal("the test's member does not hold a gzip header in its data")
	}
	for _, size := range []int64{1, 1000, 5000} {
		cuts := archive.Split(bytes.NewReader(data.Bytes()), int64(data.Len()), size)
		checkCuts(t, cuts, members)
		if len(cuts) < 2 {
			t.Errorf("part size %d: one part", size)
		}
	}
}

func TestSplitOnePart(t *testing.T) {
	var plain bytes.Buffer
	if _, err := warctest.Generate(&plain, 1<<20, false, 1); err != nil {
		t.Fatal(err)
	}
	whole := warctest.Gzip(plain.Bytes()) // one gzip member
	for name, data := range map[string][]byte{"plain": plain.Bytes(), "one member": whole} {
		if cuts := archive.Split(bytes.NewReader(data), int64(len(data)), 4<<10); !slices.Equal(cuts, []int64{0}) {
			t.Errorf("%s: cuts %v, want [0]", name, cuts)
		}
	}
	// A read error ends the search.
	if cuts := archive.Split(failingReader{}, 1<<20, 4<<10); !slices.Equal(cuts, []int64{0}) {
		t.Errorf("failing reader: cuts %v, want [0]", cuts)
	}
}

type failingReader struct{}

func (failingReader) ReadAt([]byte, int64) (int, error) { return 0, errors.New("broken") }

// TestSplitStored checks that Split does not cut at the members of a gzip
// WARC file held in a record's payload, stored as they are: in members
// written without compression, or mixed with compressed ones.
func TestSplitStored(t *testing.T) {
	for _, levels := range [][]int{
		{gzip.NoCompression},
		{gzip.NoCompression, gzip.BestSpeed, gzip.DefaultCompression},
		{gzip.BestCompression},
	} {
		outer := 2000
		if testutil.Race {
			outer = 500 // the race detector slows inflating, and looks for nothing in it
		}
		var b bytes.Buffer
		members, err := warctest.Embedded(&b, outer, 300, levels...)
		if err != nil {
			t.Fatal(err)
		}
		data := b.Bytes()
		if got := recordOffsets(t, data); !slices.Equal(got, members) {
			t.Fatalf("levels %v: the file has %d records, want %d", levels, len(got), len(members))
		}
		wantOffs, want := readParts(t, data, []int64{0})
		for _, size := range []int64{1000, 16 << 10, 64 << 10} {
			cuts := archive.Split(bytes.NewReader(data), int64(len(data)), size)
			checkCuts(t, cuts, members)
			if size <= 16<<10 && len(cuts) < 5 {
				t.Errorf("levels %v, part size %d: %d parts", levels, size, len(cuts))
			}
			gotOffs, got := readParts(t, data, cuts)
			if !slices.Equal(gotOffs, wantOffs) || !slices.Equal(got, want) {
				t.Errorf("levels %v, part size %d: the parts read %d records, the whole file %d", levels, size, len(gotOffs), len(wantOffs))
			}
		}
	}
}

// TestSplitContainers cuts FastWARC's ClueWeb09 sample (WARC/0.18, a gzip
// member per record) and its zstd files of a frame per record (after a
// dictionary frame, or not) at records, and does not cut its LZ4 file or
// its zstd file of one frame.
func TestSplitContainers(t *testing.T) {
	for file, cut := range map[string]bool{"clueweb-quirk.warc.gz": true, "warcfile.warc.lz4": false, "warcfile.dict.warc.zst": true, "warcfile.frames.warc.zst": true, "warcfile.whole.warc.zst": false} {
		data := warctest.Testdata(t, "resiliparse/"+file)
		cuts := archive.Split(bytes.NewReader(data), int64(len(data)), 16<<10)
		if cut {
			checkCuts(t, cuts, recordOffsets(t, data))
		}
		if got := len(cuts) > 1; got != cut {
			t.Errorf("%s: cuts %v", file, cuts)
		}
	}
}

// TestSplitLongHeader cuts a file whose gzip members carry a long extra
// field in their headers, more than the bytes Split first inflates to
// check a member: it is given the rest, and cuts at records.
func TestSplitLongHeader(t *testing.T) {
	var plain bytes.Buffer
	if _, err := warctest.Generate(&plain, 1<<20, true, 3); err != nil {
		t.Fatal(err)
	}
	// The same members, each with 5000 bytes of extra field (a name may
	// have at most 511: Go's gzip readers refuse a longer one).
	var named bytes.Buffer
	var offs []int64
	br := bufio.NewReader(&plain)
	zr, err := gzip.NewReader(br)
	for err == nil {
		zr.Multistream(false)
		offs = append(offs, int64(named.Len()))
		zw := gzip.NewWriter(&named)
		zw.Extra = bytes.Repeat([]byte{'x'}, 5000)
		if _, err := io.Copy(zw, zr); err != nil {
			t.Fatal(err)
		}
		zw.Close()
		err = zr.Reset(br)
	}
	if err != io.EOF {
		t.Fatal(err)
	}
	data := named.Bytes()
	if got := recordOffsets(t, data); !slices.Equal(got, offs) {
		t.Fatalf("the file has %d records, want %d", len(got), len(offs))
	}
	cuts := archive.Split(bytes.NewReader(data), int64(len(data)), 64<<10)
	if len(cuts) < 4 {
		t.Fatalf("%d parts of a %d-byte file in 64 KiB parts", len(cuts), len(data))
	}
	checkCuts(t, cuts, offs)
}
