package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/charsniff/charsniff/sniff"
)

func TestHostOf(t *testing.T) {
	tests := []struct{ uri, want string }{
		{"http://www.example.jp/a/b.html", "www.example.jp"},
		{"https://example.ru", "example.ru"},
		{"http://user:pw@example.cz:8080/x?y#z", "example.cz"},
		{"http://example.gr./", "example.gr"},
		{"http://example.kr?q=1", "example.kr"},
		{"http://127.0.0.1:41015/", ""},
		{"http://[::1]:8080/", ""},
		{"dns:example.com", ""},
		{"urn:uuid:1234", ""},
		{"", ""},
		{"http:///path", ""},
		{"http://localhost/", "localhost"},
	}
	for _, tc := range tests {
		if got := hostOf(tc.uri); got != tc.want {
			t.Errorf("hostOf(%q) = %q, want %q", tc.uri, got, tc.want)
		}
	}
}

// page is an HTML page of n lines declaring meta, past the window when n
// is large.
func page(meta string, n int) []byte {
	return []byte(`<!DOCTYPE html><html><head><meta charset="` + meta + `"><title>t</title></head><body>` +
		strings.Repeat("<p>plain ASCII text, long enough to outgrow the window.</p>\n", n) + "</body></html>\n")
}

// file writes recs as one uncompressed WARC file and returns its bytes and
// the offset of each record.
func file(t *testing.T, recs ...warctest.Record) ([]byte, []int) {
	t.Helper()
	var b bytes.Buffer
	var at []int
	w := warctest.NewWriter(&b, false)
	for _, r := range recs {
		at = append(at, b.Len())
		if _, err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes(), at
}

// all reads every record of src, writing the text of each when text is
// set, and returns the final results as JSON lines and the counts.
func all(t *testing.T, src io.Reader, text bool, opts ...decode.Option) ([]string, *Counts, error) {
	t.Helper()
	rd := NewReader(src, Options{File: "f", Decode: opts})
	var lines []string
	for {
		rec, err := rd.Next()
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return lines, rd.Counts(), err
		}
		if text {
			if _, err := rec.WriteText(io.Discard); err != nil {
				t.Fatal(err)
			}
		}
		lines = append(lines, marshal(rec.Finish()))
	}
}

// TestDamage checks that a record found damaged at the end of its block
// (a Content-Length too short, seen after sniffing) gets the error in its
// own result, whether its text was read or not, and that the records
// after it follow.
func TestDamage(t *testing.T) {
	data, at := damagedFile(t), damagedAt
	want := []string{
		`{"file":"f","encoding":"shift_jis","confidence":"tentative","source":"prescan","record_id":"<urn:a>","uri":"http://a.example.jp/","offset":0,"length":466,"status":200,"mime":"text/html","date":"2026-01-02T03:04:06Z"}`,
		`{"file":"f","encoding":"koi8-r","confidence":"certain","source":"transport","record_id":"<urn:b>","uri":"http://b.example.ru/","offset":` + itoa(at[2]) + `,"status":200,"http_charset":"KOI8-R","mime":"text/html","date":"2026-01-02T03:04:08Z","error":"no end of record after Content-Length bytes"}`,
		`{"file":"f","encoding":"shift_jis","confidence":"tentative","source":"prescan","record_id":"<urn:a>","uri":"http://a.example.jp/","offset":` + itoa(at[3]-300) + `,"length":466,"status":200,"mime":"text/html","date":"2026-01-02T03:04:09Z"}`,
	}
	for _, text := range []bool{false, true} {
		got, c, err := all(t, bytes.NewReader(data), text, decode.WithSniff(sniff.Options{NoAutodetect: true}))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("text %v: got\n%s\nwant\n%s", text, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		wantC := Counts{Records: 4, Sniffed: 2, Failed: 1, Skipped: map[string]int{"request": 1}}
		if c.Records != wantC.Records || c.Sniffed != wantC.Sniffed || c.Failed != wantC.Failed || c.Skipped["request"] != 1 {
			t.Errorf("text %v: counts %+v, want %+v", text, *c, wantC)
		}
	}
}

// damagedFile is a WARC file of four records (a, a request, b, a again)
// with 300 bytes cut out of b's block: its Content-Length runs into the
// next record. damagedAt holds where the records start before the cut.
func damagedFile(t *testing.T) []byte {
	a := warctest.Response("http://a.example.jp/", warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, page("shift_jis", 2)))
	b := warctest.Response("http://b.example.ru/", warctest.HTTPResponse(200, []string{"Content-Type: text/html; charset=KOI8-R"}, page("utf-8", 100)))
	req := warctest.Record{Type: "request", TargetURI: "http://a.example.jp/", ContentType: "application/http; msgtype=request", Block: []byte("GET / HTTP/1.1\r\n\r\n")}
	a.ID, b.ID, req.ID = "<urn:a>", "<urn:b>", "<urn:r>"
	data, at := file(t, a, req, b, a)
	damagedAt = at
	cut := bytes.Index(data[at[2]:], []byte("</p>")) + at[2]
	return append(data[:cut:cut], data[cut+300:]...)
}

var damagedAt []int

// TestGarbage checks that a stretch of garbage is a record with an error
// and its offset, and a read error of the file is final.
func TestGarbage(t *testing.T) {
	a := warctest.Response("http://a.example.jp/", warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, page("gbk", 1)))
	a.ID = "<urn:a>"
	data, _ := file(t, a)
	junk := []byte("junk junk\r\n")
	data = append(append(append([]byte{}, data...), junk...), data...)
	got, c, err := all(t, io.MultiReader(bytes.NewReader(data), iotest.ErrReader(errors.New("disk on fire"))), true)
	if err == nil || err.Error() != "disk on fire" {
		t.Errorf("err = %v, want the source's", err)
	}
	if len(got) != 3 || !strings.Contains(got[1], `"offset":`+itoa(len(data)/2-len(junk)/2)+`,"error":"garbage where a record should start"`) {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}
	if c.Sniffed != 2 || c.Failed != 2 {
		t.Errorf("counts %+v, want 2 sniffed and 2 failed (the garbage, the read error)", *c)
	}
}

// TestText checks the decoded text, and that Text reads nothing after
// Finish.
func TestText(t *testing.T) {
	body := []byte("<html><body>\x82\xa0\r\n</body>")
	a := warctest.Response("http://a.example.jp/", warctest.HTTPResponse(200, []string{"Content-Type: text/html; charset=shift_jis"}, body))
	data, _ := file(t, a)
	rd := NewReader(bytes.NewReader(data), Options{})
	rec, err := rd.Next()
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rec.Text)
	if err != nil || string(got) != "<html><body>あ\n</body>" {
		t.Errorf("text %q, %v", got, err)
	}
	rec.Finish()
	if n, err := rec.Text.Read(make([]byte, 10)); n != 0 || err != io.EOF {
		t.Errorf("Read after Finish = %d, %v; want 0, EOF", n, err)
	}
	if _, err := rd.Next(); err != io.EOF {
		t.Errorf("Next = %v, want EOF", err)
	}
}

func itoa(n int) string { return marshal(n) }

// marshal returns v's JSON as the command writes it, without the newline.
func marshal(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

// TestOffset checks that Options.Offset, where a byte range starts in its
// file, is added to every offset: of records, of damaged records and of
// stretches of garbage.
func TestOffset(t *testing.T) {
	data := damagedFile(t)
	data = append([]byte("junk\r\n"), data...)
	rd := NewReader(bytes.NewReader(data), Options{Offset: 1000})
	var got []int64
	for {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		res := rec.Finish()
		if res.Offset != rec.Offset {
			t.Errorf("Result.Offset %d, Record.Offset %d", res.Offset, rec.Offset)
		}
		got = append(got, rec.Offset)
	}
	want := []int64{1000, 1006, 1006 + int64(damagedAt[2]), 1006 + int64(damagedAt[3]) - 300}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("offsets %v, want %v", got, want)
	}
}

// TestMalformedHTTP checks that a record whose stored HTTP message is
// malformed (a header without its blank line, a chunk size "zz") is
// reported with its problem and still sniffed from what could be read,
// whether its text is read or not, and that the records after it follow.
func TestMalformedHTTP(t *testing.T) {
	for file, want := range map[string]string{
		"http-bad-chunk.warc":     `"encoding":"windows-1252","confidence":"tentative","source":"default","record_id":"<urn:test:zz>","uri":"http://example.test/zz","offset":294,"length":304,"status":200,"mime":"text/html","date":"2026-01-02T03:04:06Z","error":"payload: malformed chunked encoding`,
		"http-no-blank-line.warc": `"encoding":"gbk","confidence":"certain","source":"transport","record_id":"<urn:test:noblank>","uri":"http://example.test/noblank","offset":294,"length":277,"status":200,"http_charset":"gbk","mime":"text/html","date":"2026-01-02T03:04:06Z","error":"payload: malformed HTTP response: header not ended by a blank line"}`,
	} {
		data := warctest.Testdata(t, file)
		for _, text := range []bool{false, true} {
			lines, c, err := all(t, bytes.NewReader(data), text)
			if err != nil || len(lines) != 3 || c.Failed != 1 {
				t.Fatalf("%s (text %v): %d lines, %d failed, error %v", file, text, len(lines), c.Failed, err)
			}
			if !strings.Contains(lines[1], want) || strings.Contains(lines[0]+lines[2], "error") {
				t.Errorf("%s (text %v):\n%s\nwant the middle line to hold %s", file, text, strings.Join(lines, "\n"), want)
			}
		}
	}
}
