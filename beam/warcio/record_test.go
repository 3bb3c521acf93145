package warcio

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/coder"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/graphx/schema"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/charsniff/charsniff/override"
)

// fastWARC is the glob of FastWARC's (Resiliparse's) test files in warc's
// testdata: gzip, LZ4 and zstd (with a dictionary, a frame a record, one
// frame for the file), a clipped member, ClueWeb's quirks, relative to
// this package.
var fastWARC = filepath.Join("..", "..", "warc", "testdata", "resiliparse", "*.warc*")

// fastWARCFiles returns the files of fastWARC, several.
func fastWARCFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(fastWARC)
	if err != nil || len(files) < 8 {
		t.Fatalf("%s: %d files (%v); want FastWARC's", fastWARC, len(files), err)
	}
	return files
}

// collect returns the Records Read makes of s, piece by piece as cut
// before the run, in order.
func collect(t *testing.T, fn *readFn, s Span) []Record {
	t.Helper()
	var out []Record
	for _, p := range initial(t, fn, s) {
		rt := fn.CreateTracker(p)
		if err := fn.ProcessElement(context.Background(), rt, s, func(r Record) { out = append(out, r) }); err != nil {
			t.Fatalf("ProcessElement(%v, %v): %v", s, p, err)
		}
		if !rt.IsDone() {
			t.Fatalf("ProcessElement(%v, %v) left the tracker not done: %v", s, p, rt.GetError())
		}
	}
	return out
}

// An archived record is what the archive package's own API gives for a
// record: its final Result and its text.
type archived struct {
	res  archive.Result
	text string
	has  bool
}

// archiveRecords returns what archive.Records reads in the file at path,
// with the decode options opts give (and text if they ask for it): the
// reference Read must agree with.
func archiveRecords(t *testing.T, path string, opts Options) []archived {
	t.Helper()
	dec, err := opts.decodeOptions()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []archived
	for rec, err := range archive.Records(bytes.NewReader(b), archive.Options{File: path, Decode: dec, Provenance: !opts.Text}) {
		if err != nil {
			t.Fatalf("archive.Records(%s): %v", path, err)
		}
		var a archived
		if opts.Text && rec.Text != nil {
			var text strings.Builder
			rec.WriteText(&text)
			a.text, a.has = text.String(), true
		}
		a.res = *rec.Finish()
		if w := a.res.Where; w != nil {
			wc := *w
			a.res.Where = &wc
		}
		out = append(out, a)
	}
	return out
}

// checkFields checks every field of got against the archive package's
// result for the same record.
func checkFields(t *testing.T, what string, got Record, want archived) {
	t.Helper()
	res := want.res
	errText := ""
	if res.Err != nil {
		errText = res.Err.Error()
	}
	enc, conf, src := "", "", ""
	if res.Encoding.Valid() {
		enc, conf, src = res.Encoding.LowerName(), res.Confidence.String(), res.Source.String()
	}
	late, lateFrom, lateTo, lateOff := "", "", "", int64(0)
	if res.Late.Kind != decode.NoChange {
		late, lateFrom, lateTo, lateOff = res.Late.Kind.String(), res.Late.From.LowerName(), res.Late.To.LowerName(), res.Late.Offset
	}
	w := res.Where
	if w == nil {
		t.Fatalf("%s: archive gave a result without a place", what)
	}
	p, m := &res.Provenance, &res.Mismatch
	prescanEnc, prescanRule, prescanOff := "", "", int64(0)
	if p.Prescan.Found() {
		prescanEnc, prescanRule, prescanOff = encName(p.Prescan.Encoding), p.Prescan.Rule.String(), int64(p.Prescan.Offset)
	}
	detected, strength := "", ""
	if p.Detected.Valid() {
		detected, strength = p.Detected.LowerName(), p.Strength.String()
	}
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"File", got.File, res.File},
		{"Offset", got.Offset, w.Offset},
		{"Length", got.Length, w.Length},
		{"InFile", got.InFile, true},
		{"RecordID", got.RecordID, w.RecordID},
		{"URI", got.URI, w.URI},
		{"Date", got.Date.Format(time.RFC3339Nano), w.Date.UTC().Format(time.RFC3339Nano)},
		{"Date's zone", got.Date.Location(), time.UTC},
		{"Status", got.Status, int64(w.Status)},
		{"MIME", got.MIME, w.MIME},
		{"Digest", got.Digest, w.Digest},
		{"HTTPCharset", got.HTTPCharset, w.HTTPCharset},
		{"Encoding", got.Encoding, enc},
		{"Confidence", got.Confidence, conf},
		{"Source", got.Source, src},
		{"BOM", got.BOM, int64(res.BOM)},
		{"LateChange", got.LateChange, late},
		{"LateFrom", got.LateFrom, lateFrom},
		{"LateTo", got.LateTo, lateTo},
		{"LateOffset", got.LateOffset, lateOff},
		{"BOMEncoding", got.BOMEncoding, encName(p.BOM)},
		{"TransportLabel", got.TransportLabel, p.TransportLabel},
		{"TransportEncoding", got.TransportEncoding, encName(p.Transport)},
		{"PrescanEncoding", got.PrescanEncoding, prescanEnc},
		{"PrescanRule", got.PrescanRule, prescanRule},
		{"PrescanOffset", got.PrescanOffset, prescanOff},
		{"DetectedEncoding", got.DetectedEncoding, detected},
		{"DetectedStrength", got.DetectedStrength, strength},
		{"TransportMismatch", got.TransportMismatch, m.Transport},
		{"PrescanMismatch", got.PrescanMismatch, m.Prescan},
		{"TransportReplacements", got.TransportReplacements, m.TransportReplaced},
		{"PrescanReplacements", got.PrescanReplacements, m.PrescanReplaced},
		{"Error", got.Error, errText},
		{"Text", got.Text, want.text},
		{"HasText", got.HasText, want.has},
	} {
		if f.got != f.want {
			t.Errorf("%s: %s = %v; archive's is %v", what, f.name, f.got, f.want)
		}
	}
	if back := got.Result(); back.Provenance != res.Provenance || back.Mismatch != res.Mismatch {
		t.Errorf("%s: Result gives provenance %+v, mismatch %+v; archive's are %+v, %+v", what, back.Provenance, back.Mismatch, res.Provenance, res.Mismatch)
	}
	line, _ := res.MarshalJSON()
	if !got.HasText && JSON(got) != string(line) {
		t.Errorf("%s: JSON\n got %s\nwant %s", what, JSON(got), line)
	}
}

// sameAsArchive checks the Records of the file at path, read piece by
// piece with opts, against archive.Records's results, field by field.
func sameAsArchive(t *testing.T, path string, opts Options) []Record {
	t.Helper()
	want := archiveRecords(t, path, opts)
	fn := &readFn{Opts: opts}
	got := collect(t, fn, Span{Path: path})
	if len(got) != len(want) {
		t.Fatalf("%s, %+v: %d records; archive.Records gives %d", path, opts, len(got), len(want))
	}
	for i := range got {
		checkFields(t, fmt.Sprintf("%s, %+v, record %d (offset %d)", path, opts, i, want[i].res.Offset), got[i], want[i])
	}
	return got
}

// TestSameAsArchive reads FastWARC's files and Wget's, whole and cut in
// pieces at record boundaries, with and without text: every field of
// every Record is the archive package's for the same bytes.
func TestSameAsArchive(t *testing.T) {
	files := append(fastWARCFiles(t), filepath.Join("..", "..", "warc", "testdata", "wget.warc.gz"))
	n := 0
	for _, path := range files {
		for _, opts := range []Options{{}, {PartSize: 4 << 10}, {PartSize: 32 << 10, Text: true}} {
			n += len(sameAsArchive(t, path, opts))
		}
	}
	if n < 3*90 {
		t.Errorf("%d records read; want FastWARC's and Wget's", n)
	}
}

// TestRecordFields checks the fields of a few records against what their
// files hold, what each step of the sniffing saw included: a record
// decided by its stored header, one by a byte order mark, one with a
// change after the window, and a damaged one.
func TestRecordFields(t *testing.T) {
	dir := filepath.Join("..", "..", "warc", "testdata")
	for _, c := range []struct {
		file   string
		offset int64
		want   Record
	}{
		{"wget.warc.gz", 1919, Record{Length: 590, RecordID: "<urn:uuid:cd451750-d854-490a-83e1-2bd26fd99d9a>",
			URI: "http://127.0.0.1:41015/sjis.html", Date: time.Date(2026, 11, 21, 21, 54, 53, 0, time.UTC), Status: 200,
			MIME: "text/html", Digest: "D4RH6KSTFZHZACJTMHA2M27T7V6NQHOP", HTTPCharset: "Shift_JIS",
			Encoding: "shift_jis", Confidence: "certain", Source: "transport",
			TransportLabel: "Shift_JIS", TransportEncoding: "shift_jis", DetectedEncoding: "shift_jis", DetectedStrength: "statistical"}},
		{"resiliparse/warcfile.dict.warc.zst", 65227, Record{Length: 4231, RecordID: "<urn:uuid:d83e05b0-35af-4d6a-83c9-712ce5448f9a>",
			URI: "http://05925.net/index.php/vod/type/id/53.html", Date: time.Date(2020, 8, 8, 17, 41, 52, 0, time.UTC), Status: 200,
			MIME: "text/html", Digest: "ZAPTTDAWHY6QC6VBCUQ7UMLLP7L3P5RH", HTTPCharset: "utf-8",
			Encoding: "utf-8", Confidence: "certain", Source: "bom", BOM: 3,
			BOMEncoding: "utf-8", TransportLabel: "utf-8", TransportEncoding: "utf-8", PrescanEncoding: "utf-8", PrescanRule: "meta", PrescanOffset: 361,
			DetectedEncoding: "utf-8", DetectedStrength: "structural"}},
		{"resiliparse/warcfile.dict.warc.zst", 70186, Record{Length: 10356, RecordID: "<urn:uuid:7323c152-4ff3-4722-abab-0c34486605bc>",
			URI: "http://06.live-radsport.ch/fahrerstatistik_801/Anthony_Ravard.html", Date: time.Date(2020, 8, 8, 17, 11, 45, 0, time.UTC), Status: 200,
			MIME: "text/html", Digest: "OORM2ODTTIVERXYAZASPBZZEOZRMHVWP",
			Encoding: "windows-1252", Confidence: "certain", Source: "prescan",
			LateChange: "same", LateFrom: "windows-1252", LateTo: "windows-1252", LateOffset: 540,
			DetectedEncoding: "windows-1252", DetectedStrength: "statistical"}},
		{"resiliparse/clipped.warc.gz", 0, Record{RecordID: "<urn:uuid:f3dfa8fa-f031-4a38-90cc-1dcee3d07bb5>",
			URI:  "http://www.houstonpress.com/music/a-humble-chance-the-rapper-leads-a-spiritual-awakening-at-revention-8866723",
			Date: time.Date(2016, 10, 17, 14, 57, 38, 0, time.UTC), Status: 200,
			MIME: "text/html", Digest: "TIY777K3LIL6UWYPUOTT6LWKCS4ZS5ZY", HTTPCharset: "UTF-8",
			Encoding: "utf-8", Confidence: "certain", Source: "transport", Error: "corrupt gzip member: unexpected EOF",
			TransportLabel: "UTF-8", TransportEncoding: "utf-8", DetectedEncoding: "utf-8", DetectedStrength: "structural"}},
	} {
		path := filepath.Join(dir, filepath.FromSlash(c.file))
		want := c.want
		want.File, want.Offset, want.InFile = path, c.offset, true
		var got *Record
		for _, r := range collect(t, &readFn{Opts: Options{PartSize: 8 << 10}}, Span{Path: path}) {
			if r.Offset == c.offset {
				got = &r
			}
		}
		if got == nil {
			t.Errorf("%s: no record at %d", c.file, c.offset)
			continue
		}
		if !got.Date.Equal(want.Date) {
			t.Errorf("%s#%d: Date %v; want %v", c.file, c.offset, got.Date, want.Date)
		}
		got.Date = want.Date
		if *got != want {
			t.Errorf("%s#%d:\n got %+v\nwant %+v", c.file, c.offset, *got, want)
		}
	}
}

// TestCoordinates reads each record of FastWARC's files and Wget's by its
// coordinates alone, as an index row (file, offset, length) names it:
// the Span gives the same Record as the whole file.
func TestCoordinates(t *testing.T) {
	files := append(fastWARCFiles(t), filepath.Join("..", "..", "warc", "testdata", "wget.warc.gz"))
	n := 0
	for _, path := range files {
		fn := &readFn{}
		for _, whole := range collect(t, fn, Span{Path: path}) {
			if whole.Length == 0 {
				continue // damaged: no length to read it by
			}
			n++
			got := collect(t, fn, Span{Path: path, Offset: whole.Offset, Length: whole.Length})
			if len(got) != 1 || got[0] != whole {
				t.Errorf("%s, span %d:%d: %+v; want the one record %+v", path, whole.Offset, whole.Length, got, whole)
			}
		}
	}
	if n < 80 {
		t.Errorf("%d records read by their coordinates; want FastWARC's and Wget's", n)
	}
}

// hints is a WARC file of three response records for the precedence of
// the options: one of host example.ru with no charset anywhere, one whose
// stored Content-Type says koi8-r, and one whose payload starts with a
// UTF-8 byte order mark against a stored koi8-r.
func hints(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	w := warctest.NewWriter(&b, true)
	for _, r := range []struct{ uri, ct, body string }{
		{"http://www.example.ru/", "text/html", "<html><body>hello</body></html>"},
		{"http://www.example.ru/k", "text/html; charset=koi8-r", "<html><body>\xf0\xd2\xc9\xd7\xc5\xd4</body></html>"},
		{"http://www.example.ru/b", "text/html; charset=koi8-r", "\xef\xbb\xbf<html><body>\xd0\x9f</body></html>"},
	} {
		if _, err := w.Write(warctest.Response(r.uri, warctest.HTTPResponse(200, []string{"Content-Type: " + r.ct}, []byte(r.body)))); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "hints.warc.gz")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// precedence are option sets and the encoding and source each record of
// hints gets with them: the caller's word wins over the record's stored
// header and host, a byte order mark over all (docs/archives.md, "Whose
// word wins"). flags are the command's for the same options.
var precedence = []struct {
	opts  Options
	flags []string
	want  []string // "encoding/source" of each record
}{
	{Options{}, nil, []string{"windows-1251/default", "koi8-r/transport", "utf-8/bom"}},
	{Options{TLD: "jp"}, []string{"--hint-tld", "jp"}, []string{"shift_jis/default", "koi8-r/transport", "utf-8/bom"}},
	{Options{Locale: "ja", NoAutodetect: true}, []string{"--locale", "ja", "--no-autodetect"}, []string{"shift_jis/default", "koi8-r/transport", "utf-8/bom"}},
	{Options{ContentType: "text/html; charset=gbk"}, []string{"--content-type", "text/html; charset=gbk"}, []string{"gbk/transport", "gbk/transport", "utf-8/bom"}},
	{Options{Override: "euc-kr"}, []string{"--override", "euc-kr"}, []string{"euc-kr/override", "euc-kr/override", "utf-8/bom"}},
	{Options{Default: "iso-8859-2", Text: true}, []string{"--default", "iso-8859-2", "--decode"}, []string{"iso-8859-2/default", "koi8-r/transport", "utf-8/bom"}},
}

// TestOptionsWin reads hints with each option set of precedence: the
// decisions are the expected ones, every field is archive.Records's with
// the same options, and the lines are the command's with its flags.
func TestOptionsWin(t *testing.T) {
	path := hints(t)
	for _, c := range precedence {
		got := sameAsArchive(t, path, c.opts)
		var decided []string
		for _, r := range got {
			decided = append(decided, r.Encoding+"/"+r.Source)
		}
		if !slices.Equal(decided, c.want) {
			t.Errorf("%+v: %v; want %v", c.opts, decided, c.want)
		}
		var lines []string
		for _, r := range got {
			lines = append(lines, JSON(r))
		}
		diff(t, fmt.Sprintf("%+v", c.opts), lines, command(t, "", append(c.flags, path)...))
	}
}

// TestPrismOptions runs Read with each option set of precedence on
// Prism: the options reach the workers, and the lines are the command's.
func TestPrismOptions(t *testing.T) {
	path := hints(t)
	p, s := beam.NewPipelineWithRoot()
	for _, c := range precedence {
		var want []any
		for _, l := range command(t, "", append(c.flags, path)...) {
			want = append(want, l)
		}
		recs := Read(s, Paths(s, beam.Create(s, path)), c.opts)
		passert.Equals(s, beam.ParDo(s, JSON, recs), want...)
	}
	ptest.RunAndValidate(t, p)
}

// TestPrismGlob reads FastWARC's files on Prism by a glob (ReadGlob), and
// by a PCollection of globs through fileio.MatchAll and ReadMatches
// (ReadFiles), as textio users read text files: the Records, each field
// through Beam's schema coder, are the archive package's for the same
// files.
func TestPrismGlob(t *testing.T) {
	var want []any
	for _, path := range fastWARCFiles(t) {
		for _, a := range archiveRecords(t, path, Options{}) {
			want = append(want, FromResult(&a.res))
		}
	}
	wget := filepath.Join("..", "..", "warc", "testdata", "wget.warc.gz")
	wantBoth := slices.Clone(want)
	for _, a := range archiveRecords(t, wget, Options{}) {
		wantBoth = append(wantBoth, FromResult(&a.res))
	}
	p, s := beam.NewPipelineWithRoot()
	passert.Equals(s, ReadGlob(s, fastWARC, Options{PartSize: 16 << 10}), want...)
	files := fileio.ReadMatches(s, fileio.MatchAll(s, beam.Create(s, fastWARC, wget)))
	passert.Equals(s, ReadFiles(s, files, Options{PartSize: 16 << 10}), wantBoth...)
	ptest.RunAndValidate(t, p)
}

// TestBadOptions checks that a label that names no encoding, and a
// PCollection ReadFiles cannot read, are errors when the pipeline is
// built, and panics of Read and ReadFiles.
func TestBadOptions(t *testing.T) {
	_, s := beam.NewPipelineWithRoot()
	spans := beam.Create(s, Span{Path: "a.warc.gz"})
	for _, opts := range []Options{{Override: "klingon"}, {Likely: "x"}, {Default: "utf-9"}, {Override: "latin1x", Legacy: true}} {
		if _, err := TryRead(s, spans, opts); err == nil || !strings.Contains(err.Error(), "unknown encoding label") {
			t.Errorf("TryRead(%+v) = %v; want an unknown label", opts, err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Read(%+v) did not panic", opts)
				}
			}()
			Read(s, spans, opts)
		}()
	}
	if _, err := TryRead(s, spans, Options{Override: "latin1", Likely: "sjis", Default: "utf8"}); err != nil {
		t.Errorf("TryRead with labels: %v", err)
	}
	if _, err := TryReadFiles(s, beam.Create(s, "a.warc.gz"), Options{}); err == nil || !strings.Contains(err.Error(), "fileio.FileMetadata") {
		t.Errorf("TryReadFiles(strings) = %v; want an error naming the types it reads", err)
	}
	if _, err := TryReadFiles(s, beam.PCollection{}, Options{}); err == nil {
		t.Error("TryReadFiles(invalid PCollection) = nil error")
	}
}

// TestSchema checks the Beam schema inferred for Record: a row of typed
// columns named as Common Crawl's index and archive/index's Parquet file
// name them, which a Record coded as a row keeps, field by field.
func TestSchema(t *testing.T) {
	sc, err := schema.FromType(reflect.TypeOf(Record{}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range sc.GetFields() {
		typ := f.GetType()
		name := typ.GetAtomicType().String()
		if lt := typ.GetLogicalType(); lt != nil {
			name = lt.GetUrn()
		}
		got = append(got, f.GetName()+" "+name)
	}
	want := []string{"warc_filename STRING", "warc_record_offset INT64", "warc_record_length INT64", "in_file BOOLEAN",
		"warc_record_id STRING", "url STRING", "fetch_time time.Time", "fetch_status INT64",
		"content_mime_type STRING", "content_digest STRING", "http_charset STRING",
		"encoding STRING", "confidence STRING", "source STRING", "bom INT64",
		"late_change STRING", "late_from STRING", "late_to STRING", "late_offset INT64",
		"bom_encoding STRING", "transport_label STRING", "transport_encoding STRING",
		"prescan_encoding STRING", "prescan_rule STRING", "prescan_offset INT64",
		"detected_encoding STRING", "detected_strength STRING",
		"transport_mismatch BOOLEAN", "prescan_mismatch BOOLEAN",
		"transport_replacements INT64", "prescan_replacements INT64",
		"error STRING", "text STRING", "has_text BOOLEAN"}
	if !slices.Equal(got, want) {
		t.Errorf("schema of Record:\n got %q\nwant %q", got, want)
	}

	// A row coded and decoded is the same Record.
	path := filepath.Join("..", "..", "warc", "testdata", "resiliparse", "warcfile.dict.warc.zst")
	enc, err := coder.RowEncoderForStruct(reflect.TypeOf(Record{}))
	if err != nil {
		t.Fatal(err)
	}
	dec, err := coder.RowDecoderForStruct(reflect.TypeOf(Record{}))
	if err != nil {
		t.Fatal(err)
	}
	recs := collect(t, &readFn{Opts: Options{Text: true}}, Span{Path: path})
	recs = append(recs, collect(t, &readFn{}, Span{Path: path})...) // with provenance
	prov := 0
	for _, r := range recs {
		if r.TransportMismatch || r.PrescanMismatch || r.DetectedEncoding != "" {
			prov++
		}
		var b bytes.Buffer
		if err := enc(r, &b); err != nil {
			t.Fatal(err)
		}
		back, err := dec(&b)
		if err != nil {
			t.Fatal(err)
		}
		if back.(Record) != r {
			t.Errorf("%s#%d: coded as a row and back: %+v; want %+v", path, r.Offset, back, r)
		}
	}
	if prov == 0 {
		t.Errorf("%s: no record with a mismatch or a detected encoding coded", path)
	}
}

// TestTextLines checks the lines JSON writes for Records with text
// against `charsniff --decode --json` on every test file and FastWARC's,
// damaged ones included: the fields, the text, then the length and the
// error.
func TestTextLines(t *testing.T) {
	dir := setup(t)
	for _, name := range testFiles {
		want := command(t, "", "--decode", name)
		var got []string
		for _, r := range collect(t, &readFn{Opts: Options{Text: true, PartSize: 16 << 10}}, Span{Path: filepath.Join(dir, name)}) {
			got = append(got, JSON(r))
		}
		diff(t, name+" with text", relative(got, dir), want)
	}
	for _, path := range fastWARCFiles(t) {
		abs, err := filepath.Abs(path)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range collect(t, &readFn{Opts: Options{Text: true, PartSize: 16 << 10}}, Span{Path: abs}) {
			got = append(got, JSON(r))
		}
		if len(got) == 0 {
			continue // no HTML record (TestSameAsArchive checks that): the command prints nothing
		}
		diff(t, path+" with text", got, command(t, "", "--decode", abs))
	}
}

// TestSpanNotInFile checks the Record of a span that is not in its file:
// the span's coordinates, InFile false, the command's error text, and a
// line without an offset, as the command's for such a range.
func TestSpanNotInFile(t *testing.T) {
	path := filepath.Join("..", "..", "warc", "testdata", "wget.warc.gz")
	for _, c := range []struct {
		off, n int64
		err    string
	}{
		{99999, 10, "range 99999:10: past the end of the file (12044 bytes)"},
		{-1, 10, "bad range -1:10: the offset is not a number of bytes"},
		{0, -3, "bad range 0:-3: the length is not a positive number of bytes"},
	} {
		got := collect(t, &readFn{}, Span{Path: path, Offset: c.off, Length: c.n})
		want := Record{File: path, Offset: c.off, Length: c.n, Error: c.err}
		if len(got) != 1 || got[0] != want {
			t.Errorf("span %d:%d: %+v; want %+v", c.off, c.n, got, want)
			continue
		}
		if line, want := JSON(got[0]), `{"file":"`+path+`","error":"`+c.err+`"}`; line != want {
			t.Errorf("span %d:%d: JSON %s; want %s", c.off, c.n, line, want)
		}
	}
}

// encName returns e's lower-case name, "" for none.
func encName(e override.Encoding) string {
	if !e.Valid() {
		return ""
	}
	return e.LowerName()
}

// TestProvenanceColumns reads records whose declarations lose: a byte
// order mark over the stored charset, the stored charset over a <meta>,
// and a <meta> that loses in a payload that breaks. Each Record's
// provenance and mismatch columns are archive.Records's, its line the
// command's, and the counts those of the bytes: windows-1253 maps no
// character to 0xD2, which the UTF-8 of U+0492 starts with.
func TestProvenanceColumns(t *testing.T) {
	var b bytes.Buffer
	w := warctest.NewWriter(&b, true)
	pad := "<!--" + strings.Repeat("x", 2000) + "-->"
	for _, r := range []struct {
		uri    string
		header []string
		body   string
	}{
		{"http://x.test/bom", []string{"Content-Type: text/html; charset=windows-1253"}, "\xef\xbb\xbf<p>\u0492\u0492</p>"},
		{"http://x.test/meta", []string{"Content-Type: text/html; charset=utf-8"}, `<meta charset="windows-1253"><p>` + "\u0492\u0492\u0492</p>"},
		{"http://x.test/broken", []string{"Content-Type: text/html; charset=utf-8", "Transfer-Encoding: chunked"},
			string(bytes.TrimSuffix(warctest.Chunk([]byte(`<meta charset="windows-1253">`+pad+"<p>\u0492</p>"), 4096), []byte("0\r\n\r\n"))) + "zz\r\n<p>\u0492</p>\r\n0\r\n\r\n"},
	} {
		if _, err := w.Write(warctest.Response(r.uri, warctest.HTTPResponse(200, r.header, []byte(r.body)))); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "lost.warc.gz")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got := sameAsArchive(t, path, Options{})
	var lines []string
	for _, r := range got {
		lines = append(lines, JSON(r))
	}
	diff(t, path, lines, command(t, "", path))
	if len(got) != 3 {
		t.Fatalf("%d records; want 3", len(got))
	}
	type cols struct {
		bom, label, transport, prescan, rule string
		offset                               int64
		tm, pm                               bool
		tr, pr                               int64
		errored                              bool
	}
	for i, want := range []cols{
		{bom: "utf-8", label: "windows-1253", transport: "windows-1253", tm: true, tr: 2},
		{label: "utf-8", transport: "utf-8", prescan: "windows-1253", rule: "meta", offset: 29, pm: true, pr: 3},
		{label: "utf-8", transport: "utf-8", prescan: "windows-1253", rule: "meta", offset: 29, pm: true, pr: -1, errored: true},
	} {
		r := got[i]
		have := cols{r.BOMEncoding, r.TransportLabel, r.TransportEncoding, r.PrescanEncoding, r.PrescanRule,
			r.PrescanOffset, r.TransportMismatch, r.PrescanMismatch, r.TransportReplacements, r.PrescanReplacements, r.Error != ""}
		if have != want {
			t.Errorf("%s: %+v; want %+v", r.URI, have, want)
		}
	}
}
