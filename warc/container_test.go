package warc

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// recordList reads all records of r and returns a line for each: type,
// ID, target URI, payload Content-Type and undecoded coding, and a hash
// of the payload (or of the block, for records without one). Any error is
// a line too.
func recordList(t testing.TB, r io.Reader) []string {
	return listRecords(t, NewReader(r), func(rec *Record) string {
		line := fmt.Sprintf("%s %s %s %s", rec.Version, rec.Type, rec.RecordID, rec.TargetURI)
		h := sha256.New()
		if p, err := rec.Payload(); err == nil {
			_, err := io.Copy(h, p.Body)
			line += fmt.Sprintf(" [%s|%s] err=%v", p.ContentType, p.Undecoded, err)
		} else {
			_, err := io.Copy(h, rec.Body)
			line += fmt.Sprintf(" block err=%v", err)
		}
		return line + fmt.Sprintf(" %x", h.Sum(nil)[:8])
	})
}

// listRecords reads all records of wr and returns line's line for each,
// and "error MESSAGE" for each error; an error that is not a
// *RecordError ends the list.
func listRecords(t testing.TB, wr *Reader, line func(*Record) string) []string {
	t.Helper()
	var out []string
	for rec, err := range records(t, wr) {
		if err != nil {
			out = append(out, "error "+err.Error())
			var re *RecordError
			if !errors.As(err, &re) {
				return out
			}
			continue
		}
		out = append(out, line(rec))
	}
	return out
}

// TestRealContainers reads FastWARC's test file as FastWARC ships it
// (gzip, LZ4, and plain as the gzip file decompresses) and as the zstd
// tool wrote it (see testdata/resiliparse/mkzst): every form gives the
// same 50 records with the same payloads, whole or read in pieces.
func TestRealContainers(t *testing.T) {
	gz := warctest.Testdata(t, "resiliparse/warcfile.warc.gz")
	forms := map[string][]byte{
		"plain":                      warctest.Gunzip(t, gz),
		"gzip":                       gz,
		"lz4":                        warctest.Testdata(t, "resiliparse/warcfile.warc.lz4"),
		"zstd with dictionary frame": warctest.Testdata(t, "resiliparse/warcfile.dict.warc.zst"),
		"zstd frames":                warctest.Testdata(t, "resiliparse/warcfile.frames.warc.zst"),
		"zstd whole":                 warctest.Testdata(t, "resiliparse/warcfile.whole.warc.zst"),
	}
	want := recordList(t, bytes.NewReader(forms["plain"]))
	if len(want) != 50 {
		t.Fatalf("plain: %d records, want 50 (FastWARC's NUM_RECORDS)", len(want))
	}
	types := map[string]int{}
	for _, l := range want {
		if strings.HasPrefix(l, "error") {
			t.Fatalf("plain: %s", l)
		}
		types[strings.Fields(l)[1]]++
	}
	if types["response"] != 16 || types["warcinfo"] != 1 {
		t.Errorf("plain: record types %v, want 16 responses and 1 warcinfo", types)
	}
	for name, in := range forms {
		for _, ch := range chunkings {
			if ch.Name == "OneByteReader" && name != "lz4" && name != "zstd with dictionary frame" {
				continue
			}
			got := recordList(t, ch.Wrap(bytes.NewReader(in)))
			if !slices.Equal(got, want) {
				t.Errorf("%s/%s:\n%s", name, ch.Name, warctest.DiffLines(got, want))
			}
		}
	}
}

// TestBlockSizedOffsets checks the record offsets that FastWARC's own test
// (test_archive_iterator) expects of its block-sized-records files: of the
// gzip member and of the LZ4 frame each record starts in.
func TestBlockSizedOffsets(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []int64
	}{
		{"block-sized-records.warc", []int64{0, 16386, 32772}},
		{"block-sized-records.warc.gz", []int64{0, 204, 409}},
		{"block-sized-records.warc.lz4", []int64{0, 240, 480}},
	} {
		var got []int64
		eachRecord(t, NewReader(bytes.NewReader(warctest.Testdata(t, "resiliparse/"+tc.file))), func(_ int, rec *Record) error {
			got = append(got, rec.Offset)
			return nil
		})
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: offsets %v, want %v", tc.file, got, tc.want)
		}
	}
}

// TestClueWeb reads FastWARC's ClueWeb09 sample: 30 records of WARC/0.18
// with LF-only HTTP headers, whose bodies were stored gunzipped under a
// "Content-Encoding: gzip" field.
func TestClueWeb(t *testing.T) {
	n := eachRecord(t, NewReader(bytes.NewReader(warctest.Testdata(t, "resiliparse/clueweb-quirk.warc.gz"))), func(i int, rec *Record) error {
		if rec.Version != "0.18" {
			return fmt.Errorf("record %d: Version %q, want 0.18", i, rec.Version)
		}
		if rec.Type != "response" {
			return nil
		}
		p, err := rec.Payload()
		if err != nil {
			return fmt.Errorf("record %d: %v", i, err)
		}
		body, err := io.ReadAll(p.Body)
		if err != nil || p.Undecoded != "" || !p.IsHTML() || !bytes.Contains(bytes.ToLower(body[:min(len(body), 200)]), []byte("<html")) {
			return fmt.Errorf("record %d: Undecoded %q, IsHTML %v, error %v, body %.40q", i, p.Undecoded, p.IsHTML(), err, body)
		}
		if !strings.Contains(strings.ToLower(p.ContentType), "euc-jp") {
			return fmt.Errorf("record %d: Content-Type %q", i, p.ContentType)
		}
		return nil
	})
	if n != 30 {
		t.Errorf("%d records, want 30", n)
	}
}

// TestClipped reads FastWARC's clipped.warc.gz, whose one gzip member is
// cut short: its block reports it, and nothing else is reported.
func TestClipped(t *testing.T) {
	got := describe(t, bytes.NewReader(warctest.Testdata(t, "resiliparse/clipped.warc.gz")), true)
	if len(got) != 2 || !strings.HasPrefix(got[0], "rec ") || got[1] != "err gzip @0" {
		t.Errorf("got %q, want a record and its truncation", got)
	}
}

func TestDetect(t *testing.T) {
	gz := warctest.Testdata(t, "resiliparse/warcfile.warc.gz")
	plain := warctest.Gunzip(t, gz)
	clue := warctest.Testdata(t, "resiliparse/clueweb-quirk.warc.gz")
	html := []byte("<!DOCTYPE html><title>x</title>")
	zw, _ := zstd.NewWriter(nil)
	var lz bytes.Buffer
	lw := lz4.NewWriter(&lz)
	lw.Write(html)
	lw.Close()
	for _, tc := range []struct {
		desc string
		in   []byte
		c    Container
		f    string
		err  error
		msg  string
	}{
		{"plain", plain, Plain, "WARC/1.0", nil, ""},
		{"gzip", gz, Gzip, "WARC/1.0", nil, ""},
		{"lz4", warctest.Testdata(t, "resiliparse/warcfile.warc.lz4"), LZ4, "WARC/1.0", nil, ""},
		{"zstd frames", warctest.Testdata(t, "resiliparse/warcfile.frames.warc.zst"), Zstd, "WARC/1.0", nil, ""},
		{"zstd whole", warctest.Testdata(t, "resiliparse/warcfile.whole.warc.zst"), Zstd, "WARC/1.0", nil, ""},
		{"zstd dictionary", warctest.Testdata(t, "resiliparse/warcfile.dict.warc.zst"), Zstd, "WARC", nil, ""},
		{"ClueWeb09", clue, Gzip, "WARC/0.18", nil, ""},
		{"HTML", html, Plain, "", nil, ""},
		{"gzip HTML", warctest.Gzip(html), Gzip, "", nil, ""},
		{"zstd HTML", zw.EncodeAll(html, nil), Zstd, "", nil, ""},
		{"lz4 HTML", lz.Bytes(), LZ4, "", nil, ""},
		{"zstd, first block cut", warctest.Testdata(t, "resiliparse/warcfile.whole.warc.zst")[:1000], Zstd, "WARC", nil, ""},
		{"lz4, first block cut", warctest.Testdata(t, "resiliparse/warcfile.warc.lz4")[:100], LZ4, "WARC", nil, ""},
		{"WARC/2.0", []byte("WARC/2.0\r\nWARC-Type: warcinfo\r\n"), Plain, "", ErrUnsupportedVersion, "warc: unsupported WARC version 2.0"},
		{"gzip WARC/2.0", warctest.Gzip([]byte("WARC/2.0\r\n")), Gzip, "", ErrUnsupportedVersion, "warc: unsupported WARC version 2.0"},
		{"bzip2", []byte("BZh91AY&SY\x00\x01"), Bzip2, "", ErrUnsupportedContainer, "warc: unsupported container: bzip2"},
		{"xz", []byte("\xfd7zXZ\x00\x00\x04"), XZ, "", ErrUnsupportedContainer, "warc: unsupported container: xz"},
		{"lz4 legacy", []byte("\x02\x21\x4c\x18\x10\x00\x00\x00"), LZ4Legacy, "", ErrUnsupportedContainer, "warc: unsupported container: lz4-legacy"},
		{"BZh as text", []byte("BZh9 is not bzip2"), Plain, "", nil, ""},
		{"empty", nil, Plain, "", nil, ""},
	} {
		in := tc.in[:min(len(tc.in), SniffLen)]
		k, err := Detect(in)
		if k.Container != tc.c || k.Format != tc.f || !errors.Is(err, tc.err) || (err != nil && err.Error() != tc.msg) {
			t.Errorf("%s: Detect = %v %q, %v; want %v %q, %q", tc.desc, k.Container, k.Format, err, tc.c, tc.f, tc.msg)
		}
		if got, want := IsWARC(in), tc.f != ""; got != want {
			t.Errorf("%s: IsWARC = %v, want %v", tc.desc, got, want)
		}
	}
}

// TestUnsupported checks that the Reader refuses an input in a container
// or version it does not read with one final error, as Detect does.
func TestUnsupported(t *testing.T) {
	for _, in := range []string{
		"BZh91AY&SY\x00\x01\x02\x03",
		"\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46",
		"\x02\x21\x4c\x18\x10\x00\x00\x00",
		"WARC/2.0\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\nWARC/2.0\r\n",
		string(warctest.Gzip([]byte("WARC/2.0\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n"))),
	} {
		_, want := Detect([]byte(in))
		wr := NewReader(strings.NewReader(in))
		for range 2 {
			_, err := wr.Next()
			var re *RecordError
			if err == nil || errors.As(err, &re) || want == nil || err.Error() != want.Error() {
				t.Errorf("%.12q: Next = %v, want the final error %v", in, err, want)
			}
		}
	}
}

// dictFrame returns a .warc.zst dictionary frame holding data.
func dictFrame(data []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0x184D2A5D)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data...)
}

// TestDictionaryFrame checks the dictionary frame: compressed or not, it
// is the dictionary of the frames after it; a bad one is one final error.
func TestDictionaryFrame(t *testing.T) {
	in := warctest.Testdata(t, "resiliparse/warcfile.dict.warc.zst")
	size := binary.LittleEndian.Uint32(in[4:])
	packed, frames := in[8:8+size], in[8+size:]
	zd, _ := zstd.NewReader(nil)
	dict, err := zd.DecodeAll(packed, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := recordList(t, bytes.NewReader(in))
	if got := recordList(t, bytes.NewReader(append(dictFrame(dict), frames...))); !slices.Equal(got, want) {
		t.Errorf("uncompressed dictionary:\n%s", warctest.DiffLines(got, want))
	}
	for _, tc := range []struct {
		desc string
		in   []byte
	}{
		{"not a dictionary", append(dictFrame([]byte("not a dictionary at all")), frames...)},
		{"cut short", in[:8+size/2]},
		{"no size", in[:6]},
		{"too large", append(binary.LittleEndian.AppendUint32(append([]byte(nil), in[:4]...), maxDict+1), frames...)},
		{"corrupt compressed", append(dictFrame(append(packed[:len(packed)/2:len(packed)/2], 0xff, 0xff, 0xff)), frames...)},
	} {
		got := recordList(t, bytes.NewReader(tc.in))
		if len(got) != 1 || !strings.HasPrefix(got[0], "error warc: corrupt zstd frame: dictionary frame: ") {
			t.Errorf("%s: got %q, want one final dictionary error", tc.desc, got)
		}
	}
	// Without its dictionary, each frame is corrupt (and reported).
	got := recordList(t, bytes.NewReader(frames))
	if len(got) != 50 || !strings.HasPrefix(got[0], "error warc: record at offset 0: corrupt zstd frame") {
		t.Errorf("frames without dictionary: %d lines, first %q", len(got), got[0])
	}
}

// frameOffsets returns the offsets of the frames of a file of one zstd or
// LZ4 frame per record, from the records' offsets.
func frameOffsets(t testing.TB, in []byte) []int64 {
	var offs []int64
	eachRecord(t, NewReader(bytes.NewReader(in)), func(_ int, rec *Record) error {
		offs = append(offs, rec.Offset)
		return nil
	})
	return offs
}

// TestCorruptFrame damages one frame of a real LZ4 or zstd file: the
// record it holds is one error with the frame's offset, and every other
// record is read; a file cut inside a frame ends in one error.
func TestCorruptFrame(t *testing.T) {
	for _, tc := range []struct {
		file, kind string
	}{
		{"warcfile.warc.lz4", "lz4"},
		{"warcfile.frames.warc.zst", "zstd"},
		{"warcfile.dict.warc.zst", "zstd"},
	} {
		in := warctest.Testdata(t, "resiliparse/"+tc.file)
		offs := frameOffsets(t, in)
		good := recordList(t, bytes.NewReader(in))
		for _, k := range []int{1, 25, 49} {
			for _, what := range []string{"flip", "magic", "cut"} {
				if what == "flip" && tc.kind == "lz4" {
					continue // FastWARC's LZ4 frames have no checksums: a flipped byte goes unseen
				}
				bad := bytes.Clone(in)
				end := int64(len(in))
				if k+1 < len(offs) {
					end = offs[k+1]
				}
				switch what {
				case "flip": // a byte in the middle of the frame's data
					bad[(offs[k]+end)/2] ^= 0x55
				case "magic":
					bad[offs[k]] ^= 0xff
				case "cut":
					bad = bad[:(offs[k]+end)/2]
				}
				got := recordList(t, bytes.NewReader(bad))
				var errs []string
				for _, l := range got {
					if strings.HasPrefix(l, "error") {
						errs = append(errs, l)
					}
				}
				wantErr := fmt.Sprintf("error warc: record at offset %d: corrupt %s frame", offs[k], tc.kind)
				if what == "magic" {
					wantErr = fmt.Sprintf("error warc: record at offset %d: garbage where a record should start", offs[k])
				}
				wantRecs := slices.Concat(good[:k], good[k+1:])
				if what == "cut" {
					wantRecs = good[:k]
				}
				gotRecs := slices.DeleteFunc(got, func(l string) bool { return strings.HasPrefix(l, "error") })
				if len(errs) != 1 || !strings.HasPrefix(errs[0], wantErr) || !slices.Equal(gotRecs, wantRecs) {
					t.Errorf("%s, frame %d, %s: errors %q (want one %q), %d records (want %d)", tc.file, k, what, errs, wantErr, len(gotRecs), len(wantRecs))
				}
			}
		}
	}
}

// TestSmallFrames reads records of fewer than 256 bytes, each a frame of
// its own (a zstd frame of one segment with a one-byte content size),
// with empty frames between them, which the warc-zstd specification
// allows: the records and their offsets are the frames'.
func TestSmallFrames(t *testing.T) {
	recs := []warctest.Record{
		{Type: "resource", ID: "<urn:test:a>", TargetURI: "http://example.test/a", ContentType: "text/html", Block: []byte("<p>a")},
		{Type: "resource", ID: "<urn:test:b>", TargetURI: "http://example.test/b", ContentType: "text/html", Block: []byte("<p>bb")},
	}
	zw, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	for _, form := range []string{"zstd", "lz4"} {
		var in bytes.Buffer
		var want []string
		for i, seg := range warctest.Segments(false, recs...) {
			if len(seg) >= 256 {
				t.Fatalf("record of %d bytes", len(seg))
			}
			if form == "zstd" {
				in.Write(zw.EncodeAll(nil, nil))
			} else {
				writeFrames(&in, form, nil)
			}
			off := in.Len()
			if form == "zstd" {
				in.Write(zw.EncodeAll(seg, nil))
			} else {
				writeFrames(&in, form, seg)
			}
			want = append(want, fmt.Sprintf("rec %s resource %d @%d", recs[i].ID[len("<urn:test:"):len(recs[i].ID)-1], len(recs[i].Block), off))
		}
		got := describe(t, bytes.NewReader(in.Bytes()), true)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n%s", form, warctest.DiffLines(got, want))
		}
	}
}

// TestResetContainers reads inputs of every container one after another
// with one Reader: each gives what a new Reader gives (a dictionary does
// not outlive its file, nor gzip's read-ahead its input).
func TestResetContainers(t *testing.T) {
	dict := warctest.Testdata(t, "resiliparse/warcfile.dict.warc.zst")
	noDict := dict[8+binary.LittleEndian.Uint32(dict[4:]):]
	gz := warctest.Testdata(t, "resiliparse/warcfile.warc.gz")
	inputs := [][]byte{
		dict, noDict, gz, warctest.Testdata(t, "resiliparse/warcfile.warc.lz4"), dict, gz[:len(gz)/2],
		warctest.Testdata(t, "resiliparse/warcfile.whole.warc.zst"), warctest.Gunzip(t, gz), []byte("BZh91AY&SY"), gz,
	}
	wr := NewReader(nil)
	for i, in := range inputs {
		want := recordIDs(t, NewReader(bytes.NewReader(in)))
		wr.Reset(bytes.NewReader(in))
		if got := recordIDs(t, wr); !slices.Equal(got, want) {
			t.Errorf("input %d after Reset:\n%s", i, warctest.DiffLines(got, want))
		}
	}
}

// recordIDs returns the IDs of the records of wr and its errors.
func recordIDs(t testing.TB, wr *Reader) []string {
	return listRecords(t, wr, func(rec *Record) string { return rec.RecordID })
}

// TestDictionaryOfRange reads each record of a .warc.zst file with a
// dictionary on its own, as an index's offset and length give it: a
// Reader over an *io.SectionReader takes the dictionary from the start of
// the file (as the warc-zstd specification's random access does).
func TestDictionaryOfRange(t *testing.T) {
	in := warctest.Testdata(t, "resiliparse/warcfile.dict.warc.zst")
	offs := frameOffsets(t, in)
	want := recordList(t, bytes.NewReader(in))
	for i, off := range offs {
		end := int64(len(in))
		if i+1 < len(offs) {
			end = offs[i+1]
		}
		got := recordList(t, io.NewSectionReader(bytes.NewReader(in), off, end-off))
		if len(got) != 1 || got[0] != want[i] {
			t.Errorf("record %d at %d: %q, want %q", i, off, got, want[i])
		}
	}
	// A file whose dictionary frame is cut short: one final error.
	bad := slices.Concat(in[:100], in[offs[1]:])
	got := recordList(t, io.NewSectionReader(bytes.NewReader(bad), 100, int64(len(bad))-100))
	if len(got) != 1 || !strings.HasPrefix(got[0], "error warc: corrupt zstd frame: dictionary frame") {
		t.Errorf("cut dictionary: %q", got)
	}
	// A range of a file without a dictionary frame is read as it is.
	frames := warctest.Testdata(t, "resiliparse/warcfile.frames.warc.zst")
	fo := frameOffsets(t, frames)
	if got := recordList(t, io.NewSectionReader(bytes.NewReader(frames), fo[2], fo[3]-fo[2])); len(got) != 1 || strings.HasPrefix(got[0], "error") {
		t.Errorf("range of a file without dictionary: %q", got)
	}
}

// TestZstdWindowLimit checks the window bound: a frame that needs a window
// of more than 8 MiB (a record of 9 MiB compressed as one segment) is a
// corrupt frame, not 9 MiB of memory; one of 8 MiB is read.
func TestZstdWindowLimit(t *testing.T) {
	zw, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithWindowSize(16<<20), zstd.WithSingleSegment(true))
	for _, tc := range []struct {
		size int
		ok   bool
	}{{8<<20 - 1000, true}, {9 << 20, false}} {
		rec := warctest.Record{Type: "resource", ID: "<urn:test:big>", TargetURI: "http://example.test/big", ContentType: "text/plain", Block: bytes.Repeat([]byte("0123456789abcdef"), tc.size/16)}
		seg := warctest.Segments(false, rec)[0]
		got := describe(t, bytes.NewReader(zw.EncodeAll(seg, nil)), true)
		ok := len(got) == 1 && strings.HasPrefix(got[0], "rec big resource")
		if ok != tc.ok || !tc.ok && (len(got) != 1 || got[0] != "err zstd @0") {
			t.Errorf("record of %d bytes: %q", tc.size, got)
		}
	}
}
