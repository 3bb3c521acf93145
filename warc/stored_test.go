package warc

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"io"
	"testing"

	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// storedRecord is a record read by readStored.
type storedRecord struct {
	rec   *Record
	block [32]byte
	ok    bool // its block read without error
	read  bool // its block was read (block is set)
}

// readStored reads the records of src: the blocks of two in three to
// their end, in large and small reads, the others left to Next to skip.
func readStored(t *testing.T, src io.Reader) []storedRecord {
	t.Helper()
	r := NewReader(src)
	var recs []storedRecord
	for i := 0; ; i++ {
		rec, err := r.Next()
		if err == io.EOF {
			return recs
		}
		var re *RecordError
		if errors.As(err, &re) {
			if n := len(recs); n > 0 && recs[n-1].rec.Offset == re.Offset {
				recs[n-1].ok = false
			}
			continue
		}
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		h := sha256.New()
		var berr error
		switch i % 3 {
		case 0:
			_, berr = io.Copy(h, rec.Body)
		case 1:
			_, berr = io.CopyBuffer(h, struct{ io.Reader }{rec.Body}, make([]byte, 17))
		}
		sr := storedRecord{rec: rec, ok: berr == nil, read: i%3 != 2}
		h.Sum(sr.block[:0])
		recs = append(recs, sr)
	}
}

// checkStored checks every record of file that has a stored length: the
// byte range [Offset, Offset+StoredLength) read alone gives that record,
// same ID and block, and nothing else. It returns how many records were
// read without error and how many of those have a length.
func checkStored(t *testing.T, name string, file []byte) (good, addressable int) {
	t.Helper()
	ra := bytes.NewReader(file)
	for k, sr := range readStored(t, bytes.NewReader(file)) {
		n := sr.rec.StoredLength()
		if sr.ok {
			good++
		}
		if n == 0 {
			continue
		}
		if !sr.ok {
			t.Errorf("%s: record %d @%d: damaged, with a stored length %d", name, k, sr.rec.Offset, n)
			continue
		}
		addressable++
		if sr.rec.Offset+n > int64(len(file)) {
			t.Errorf("%s: record %d: range %d:%d past the end (%d)", name, k, sr.rec.Offset, n, len(file))
			continue
		}
		got := readStored(t, io.NewSectionReader(ra, sr.rec.Offset, n))
		if len(got) != 1 || got[0].rec.RecordID != sr.rec.RecordID || sr.read && got[0].block != sr.block || !got[0].ok {
			t.Errorf("%s: record %d %s: range %d:%d gives %d records", name, k, sr.rec.RecordID, sr.rec.Offset, n, len(got))
			continue
		}
		if g := got[0].rec; g.Offset != 0 || g.StoredLength() != n {
			t.Errorf("%s: record %d: alone at %d with length %d, want 0 and %d", name, k, g.Offset, g.StoredLength(), n)
		}
	}
	return good, addressable
}

// TestStoredLength checks Record.StoredLength on FastWARC's files, wget's,
// the damaged ones of testdata, and generated ones in every container:
// gzip, zstd and LZ4, one member or frame a record, records split across
// members, members cut inside the end-of-record marker, and one member for
// the whole file (where no record has a length).
func TestStoredLength(t *testing.T) {
	files := warctest.TestdataGlob(t, "*.warc*")
	for name, b := range warctest.TestdataGlob(t, "resiliparse/*.warc*") {
		files[name] = b
	}
	// Expected: every good record has a length (all), none (none), or
	// anything (damaged and mixed files).
	all := map[string]bool{}
	none := map[string]bool{}
	var plain, gz bytes.Buffer
	warctest.Generate(&plain, 256<<10, false, 1)
	warctest.Generate(&gz, 256<<10, true, 2)
	files["gen.warc"], files["gen.warc.gz"] = plain.Bytes(), gz.Bytes()
	recs := splitRecords(t, plain.Bytes())
	files["gen.warc.zst"] = perRecord(recs, func(w io.Writer) io.WriteCloser {
		zw, _ := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
		return zw
	})
	files["gen.warc.lz4"] = perRecord(recs, func(w io.Writer) io.WriteCloser { return lz4.NewWriter(w) })
	files["gen-split.warc.gz"] = split(recs, []int{10, 100, 1000}, 0)
	files["gen-cut-marker.warc.gz"] = split(recs, nil, 2)   // the marker's last 2 bytes in a member of their own
	files["gen-cut-marker3.warc.gz"] = split(recs, nil, -2) // the next member starts the next record
	files["gen-blank-tail.warc.gz"] = perRecord(recs, func(w io.Writer) io.WriteCloser { return &tail{gzip.NewWriter(w), w} })
	files["gen-whole.warc.gz"] = warctest.Gzip(plain.Bytes())
	for _, n := range []string{"gen.warc", "gen.warc.gz", "gen.warc.zst", "gen.warc.lz4", "gen-split.warc.gz", "gen-cut-marker.warc.gz",
		"gen-cut-marker3.warc.gz", "gen-blank-tail.warc.gz", "wget.warc.gz", "resiliparse/warcfile.warc.gz",
		"resiliparse/warcfile.warc.lz4", "resiliparse/warcfile.frames.warc.zst", "resiliparse/warcfile.dict.warc.zst",
		"resiliparse/block-sized-records.warc", "resiliparse/block-sized-records.warc.gz", "resiliparse/block-sized-records.warc.lz4",
		"resiliparse/clueweb-quirk.warc.gz"} {
		all[n] = true
	}
	none["gen-whole.warc.gz"], none["resiliparse/warcfile.whole.warc.zst"] = true, true
	for name, file := range files {
		good, n := checkStored(t, name, file)
		switch {
		case all[name] && (n != good || good == 0):
			t.Errorf("%s: %d of %d good records have a stored length, want all", name, n, good)
		case none[name] && n != 0:
			t.Errorf("%s: %d of %d good records have a stored length, want none", name, n, good)
		}
		t.Logf("%s: %d of %d good records addressable", name, n, good)
	}
}

// splitRecords cuts a plain WARC file into its records, each with its
// end-of-record marker.
func splitRecords(t *testing.T, plain []byte) [][]byte {
	var recs [][]byte
	for _, sr := range readStored(t, bytes.NewReader(plain)) {
		recs = append(recs, plain[sr.rec.Offset:sr.rec.Offset+sr.rec.StoredLength()])
	}
	return recs
}

// perRecord compresses each record as one member or frame of its own.
func perRecord(recs [][]byte, newWriter func(io.Writer) io.WriteCloser) []byte {
	var b bytes.Buffer
	for _, r := range recs {
		w := newWriter(&b)
		w.Write(r)
		w.Close()
	}
	return b.Bytes()
}

// split writes each record as gzip members cut at the offsets of cuts
// within it; with cut > 0, the last cut bytes of each record in a member
// of their own; with cut < 0, the record's last -cut bytes left out (its
// marker cut short by the member's end).
func split(recs [][]byte, cuts []int, cut int) []byte {
	var b bytes.Buffer
	for _, r := range recs {
		var parts [][]byte
		switch {
		case cut > 0:
			parts = [][]byte{r[:len(r)-cut], r[len(r)-cut:]}
		case cut < 0:
			parts = [][]byte{r[:len(r)+cut]}
		default:
			last := 0
			for _, c := range cuts {
				if c < len(r) {
					parts = append(parts, r[last:c])
					last = c
				}
			}
			parts = append(parts, r[last:])
		}
		for _, p := range parts {
			b.Write(warctest.Gzip(p))
		}
	}
	return b.Bytes()
}

// tail is a gzip.Writer that writes a blank line after the record, in its
// member.
type tail struct {
	*gzip.Writer
	w io.Writer
}

func (t *tail) Close() error {
	t.Writer.Write([]byte("\r\n"))
	return t.Writer.Close()
}
