package index_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/archive/index"
	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

func TestSURT(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://www.Example.com:80/A/b.html?z=1&a=2#top", "com,example)/a/b.html?a=2&z=1"},
		{"https://example.com/", "com,example)/"},
		{"https://example.com", "com,example)/"},
		{"https://example.com/path/", "com,example)/path"},
		{"https://www2.bbc.co.uk/news", "uk,co,bbc)/news"},
		{"http://www.com/", "com,www)/"},
		{"https://example.com:8443/x", "com,example:8443)/x"},
		{"https://example.com:443/x", "com,example)/x"},
		{"http://user:pw@example.org/x", "org,example)/x"},
		{"http://192.168.1.10/x", "192.168.1.10)/x"},
		{"http://[2001:db8::1]/x", "2001:db8::1)/x"},
		{"http://example.com/?&b=&a=1&", "com,example)/?a=1&b="},
		{"http://example.jp./%E3%81%82", "jp,example)/%e3%81%82"},
		{"not a url", "not a url"},
		{"", ""},
	} {
		if got := index.SURT(tc.in); got != tc.want {
			t.Errorf("SURT(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTimestamp(t *testing.T) {
	tm := time.Date(2017, 10, 24, 2, 14, 32, 0, time.FixedZone("+2", 7200))
	if got := index.Timestamp(tm); got != "20171024001432" {
		t.Errorf("Timestamp(%v) = %q", tm, got)
	}
	if got := index.Timestamp(time.Time{}); got != "" {
		t.Errorf("Timestamp(zero) = %q", got)
	}
}

// rows returns sample rows: a record with every field, one with few, a
// damaged one.
func rows() []index.Row {
	tm := time.Date(2024, 3, 1, 12, 30, 0, 0, time.UTC)
	status, late, at, repl := int16(200), int64(1290), int32(88), int64(12)
	return []index.Row{
		{URL: "https://www.example.jp/news?id=3", URLHostName: "www.example.jp", FetchTime: &tm, FetchStatus: &status,
			ContentDigest: "CH7IV3XAD3M7A42JARKRLJ3T5PGGCGXD", ContentMIMEType: "text/html", WARCRecordID: "<urn:uuid:1>",
			WARCFilename: "crawl.warc.gz", WARCRecordOffset: 1234, WARCRecordLength: 5678,
			Encoding: "shift_jis", Confidence: "certain", Source: "prescan", HTTPCharset: "utf-8",
			LateChange: "switched", LateFrom: "windows-1252", LateOffset: &late,
			TransportEncoding: "utf-8", PrescanEncoding: "shift_jis", PrescanRule: "meta", PrescanOffset: &at,
			DetectedEncoding: "shift_jis", DetectedStrength: "statistical", TransportMismatch: true, TransportReplacements: &repl},
		{URL: "http://example.ru/", WARCFilename: "crawl.warc.gz", WARCRecordOffset: 6912, WARCRecordLength: 300,
			Encoding: "windows-1251", Confidence: "tentative", Source: "autodetect",
			BOMEncoding: "", PrescanEncoding: "koi8-r", PrescanRule: "xml", PrescanOffset: &at, PrescanMismatch: true},
		{URL: "http://example.com/x", WARCFilename: "crawl.warc.gz", WARCRecordOffset: 7212, WARCRecordLength: 40,
			Error: "warc: record truncated"},
	}
}

// cdxjLine is a CDXJ line: key, 14-digit timestamp or "-", JSON block.
var cdxjLine = regexp.MustCompile(`^(\S+) (\d{14}|-) (\{.*\})$`)

func TestCDXJ(t *testing.T) {
	var buf bytes.Buffer
	w := index.NewCDXJWriter(&buf)
	rs := rows()
	for i := range rs {
		if err := w.Write(&rs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(rs) {
		t.Fatalf("%d lines for %d rows:\n%s", len(lines), len(rs), buf.String())
	}
	want := []string{
		`jp,example)/news?id=3 20240301123000 {"url":"https://www.example.jp/news?id=3","mime":"text/html","status":"200","digest":"CH7IV3XAD3M7A42JARKRLJ3T5PGGCGXD","length":"5678","offset":"1234","filename":"crawl.warc.gz","encoding":"shift_jis","confidence":"certain","source":"prescan","http_charset":"utf-8","late_change":"switched","late_from":"windows-1252","late_offset":"1290","transport_encoding":"utf-8","prescan_encoding":"shift_jis","prescan_rule":"meta","prescan_offset":"88","detected_encoding":"shift_jis","detected_strength":"statistical","transport_mismatch":"true","transport_replacements":"12"}`,
		`ru,example)/ - {"url":"http://example.ru/","length":"300","offset":"6912","filename":"crawl.warc.gz","encoding":"windows-1251","confidence":"tentative","source":"autodetect","prescan_encoding":"koi8-r","prescan_rule":"xml","prescan_offset":"88","prescan_mismatch":"true"}`,
		`com,example)/x - {"url":"http://example.com/x","length":"40","offset":"7212","filename":"crawl.warc.gz","error":"warc: record truncated"}`,
	}
	for i, l := range lines {
		m := cdxjLine.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("line %d is no CDXJ line: %s", i, l)
			continue
		}
		var block map[string]any
		if err := json.Unmarshal([]byte(m[3]), &block); err != nil {
			t.Errorf("line %d: %v", i, err)
		}
		for k, v := range block {
			if _, ok := v.(string); !ok {
				t.Errorf("line %d: %s is %T, CDXJ values are strings", i, k, v)
			}
		}
		if l != want[i] {
			t.Errorf("line %d:\ngot  %s\nwant %s", i, l, want[i])
		}
	}
}

func TestParquetRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := index.NewParquetWriter(&buf)
	rs := rows()
	for i := range rs {
		if err := w.Write(&rs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := parquet.Read[index.Row](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(rs) {
		t.Fatalf("read %d rows, wrote %d", len(got), len(rs))
	}
	for i := range rs {
		a, _ := json.Marshal(got[i])
		b, _ := json.Marshal(rs[i])
		if !bytes.Equal(a, b) {
			t.Errorf("row %d:\ngot  %s\nwant %s", i, a, b)
		}
	}
}

// TestParquetStreams writes many rows and checks that the writer hands
// them out a row group at a time as it goes, not all at Close: what it
// holds is one group's rows.
func TestParquetStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 8 row groups")
	}
	var buf bytes.Buffer
	w := index.NewParquetWriter(&buf)
	r := rows()[0]
	const groups = 8
	var half int
	for i := range groups * index.RowsPerGroup {
		r.WARCRecordOffset = int64(i) * 5678
		// Text that does not compress away, as real URLs and digests.
		r.URL = fmt.Sprintf("https://host%d.example/%x/%x", i, i*2654435761, i*40503)
		r.ContentDigest = fmt.Sprintf("%032X", uint64(i)*11400714819323198485)
		if err := w.Write(&r); err != nil {
			t.Fatal(err)
		}
		if i == groups/2*index.RowsPerGroup-1 {
			half = buf.Len()
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if half < buf.Len()/3 {
		t.Errorf("%d of %d bytes written after half the rows: the writer holds them", half, buf.Len())
	}
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.RowGroups()); n != groups {
		t.Errorf("%d row groups, want %d", n, groups)
	}
	if n := f.NumRows(); n != groups*index.RowsPerGroup {
		t.Errorf("%d rows, want %d", n, groups*index.RowsPerGroup)
	}
}

// TestNewRowProvenance checks the provenance columns of a record's row.
func TestNewRowProvenance(t *testing.T) {
	res := archive.Result{File: "f.warc.gz", Encoding: override.UTF8, Confidence: sniff.Certain, Source: sniff.SourceBOM,
		Where: &archive.Where{URI: "http://example.test/", Offset: 10, Length: 20, HTTPCharset: "Shift_JIS"},
		Provenance: sniff.Provenance{BOM: override.UTF8, TransportLabel: "Shift_JIS", Transport: override.ShiftJIS,
			Prescan:  prescan.Result{Encoding: override.ISO8859_2, Rule: prescan.Meta, Offset: 77},
			Detected: override.UTF8, Strength: detect.Structural},
		Mismatch: archive.Mismatch{Transport: true, TransportReplaced: 5, Prescan: true, PrescanReplaced: -1},
	}
	r := index.NewRow(&res)
	got, _ := json.Marshal(r)
	five, at := int64(5), int32(77)
	want, _ := json.Marshal(index.Row{URLSurtkey: "test,example)/", URL: "http://example.test/", URLHostName: "example.test",
		WARCFilename: "f.warc.gz", WARCRecordOffset: 10, WARCRecordLength: 20,
		Encoding: "utf-8", Confidence: "certain", Source: "bom", HTTPCharset: "Shift_JIS",
		BOMEncoding: "utf-8", TransportEncoding: "shift_jis", PrescanEncoding: "iso-8859-2", PrescanRule: "meta", PrescanOffset: &at,
		DetectedEncoding: "utf-8", DetectedStrength: "structural",
		TransportMismatch: true, TransportReplacements: &five, PrescanMismatch: true})
	if !bytes.Equal(got, want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
