package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"

	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/charsniff/charsniff/warc"
)

// keyOrder is the order of the keys of a JSON line: every line's keys are
// a subsequence of it.
var keyOrder = []string{"file", "encoding", "confidence", "source", "bom", "late",
	"record_id", "uri", "offset", "length", "status", "http_charset", "mime", "digest", "date", "bytes", "text", "provenance", "error"}

// jsonLine is a JSON line of the output, decoded.
type jsonLine struct {
	File        string  `json:"file"`
	Encoding    string  `json:"encoding"`
	Confidence  string  `json:"confidence"`
	Source      string  `json:"source"`
	RecordID    string  `json:"record_id"`
	URI         string  `json:"uri"`
	Offset      *int64  `json:"offset"`
	Length      int64   `json:"length"`
	Status      int     `json:"status"`
	HTTPCharset string  `json:"http_charset"`
	Bytes       *int64  `json:"bytes"`
	Text        *string `json:"text"`
	Error       string  `json:"error"`
}

// parseLines decodes JSON Lines, checking the order of each line's keys
// (a line may start with "text": see result.textFirst).
func parseLines(t *testing.T, out string) []jsonLine {
	t.Helper()
	var lines []jsonLine
	for line := range strings.Lines(out) {
		var keys []string
		dec := json.NewDecoder(strings.NewReader(line))
		dec.Token() // {
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				t.Fatalf("bad JSON line %q: %v", line, err)
			}
			keys = append(keys, k.(string))
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("bad JSON line %q: %v", line, err)
			}
		}
		// With text, a record's length comes right after it (known once
		// the record is read through).
		if i := slices.Index(keys, "text"); i >= 1 && i+1 < len(keys) && keys[i+1] == "length" {
			keys = slices.Delete(keys, i+1, i+2)
		}
		if len(keys) > 1 && keys[0] == "text" {
			keys = append(keys[1:], "text")
			keys = slices.DeleteFunc(keys, func(k string) bool { return k == "error" || k == "provenance" })
			if strings.Contains(line, `"provenance":`) {
				keys = append(keys, "provenance")
			}
			if strings.Contains(line, `"error":`) {
				keys = append(keys, "error")
			}
		}
		if !isSubsequence(keys, keyOrder) {
			t.Errorf("keys %q out of order in %.500q", keys, line)
		}
		var l jsonLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("bad JSON line %q: %v", line, err)
		}
		lines = append(lines, l)
	}
	return lines
}

func isSubsequence(s, of []string) bool {
	i := 0
	for _, k := range s {
		for i < len(of) && of[i] != k {
			i++
		}
		if i == len(of) {
			return false
		}
		i++
	}
	return true
}

// wantPage is what the command must say of a page of warctest.Site.
type wantPage struct {
	encoding, confidence, source, httpCharset string
	status                                    int
}

// sitePages: every HTML page of warctest.Site. /notes.txt (text/plain) is
// skipped.
var sitePages = map[string]wantPage{
	"/":                   {"utf-8", "certain", "transport", "utf-8", 200},
	"/sjis.html":          {"shift_jis", "certain", "transport", "Shift_JIS", 200},
	"/gbk.html":           {"gbk", "tentative", "prescan", "", 200},
	"/cp1251.html":        {"windows-1251", "tentative", "prescan", "", 200},
	"/euckr.html":         {"euc-kr", "certain", "transport", "euc-kr", 200},
	"/cp1252.html":        {"windows-1252", "tentative", "prescan", "", 200},
	"/nocontenttype.html": {"utf-8", "tentative", "prescan", "", 200},
	"/deflate.html":       {"utf-8", "certain", "transport", "utf-8", 200},
	"/missing.html":       {"utf-8", "certain", "transport", "utf-8", 404},
}

// siteOrder is the order in which wget fetches the pages: the index, then
// its links in document order.
var siteOrder = []string{"/", "/sjis.html", "/gbk.html", "/cp1251.html", "/euckr.html",
	"/cp1252.html", "/nocontenttype.html", "/deflate.html", "/missing.html"}

// pathOf returns the path of an http URI.
func pathOf(uri string) string {
	rest, ok := strings.CutPrefix(uri, "http://")
	if !ok {
		return ""
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return rest[i:]
	}
	return "/"
}

// checkSiteLines checks the JSON lines of a crawl of warctest.Site stored
// in the WARC file data, named file in the output: one line per HTML page,
// in crawl order, with every field right and each offset leading to the
// record.
func checkSiteLines(t *testing.T, lines []jsonLine, file string, data []byte) {
	t.Helper()
	var paths []string
	for _, l := range lines {
		p := pathOf(l.URI)
		paths = append(paths, p)
		want, ok := sitePages[p]
		if !ok {
			t.Errorf("line for %q, not an HTML page of the site", l.URI)
			continue
		}
		if l.File != file || l.Encoding != want.encoding || l.Confidence != want.confidence || l.Source != want.source ||
			l.HTTPCharset != want.httpCharset || l.Status != want.status || l.Error != "" {
			t.Errorf("%s:\ngot  file %q, %s (%s, %s), http_charset %q, status %d, error %q\nwant file %q, %s (%s, %s), http_charset %q, status %d",
				p, l.File, l.Encoding, l.Confidence, l.Source, l.HTTPCharset, l.Status, l.Error,
				file, want.encoding, want.confidence, want.source, want.httpCharset, want.status)
		}
		if !strings.HasPrefix(l.RecordID, "<urn:uuid:") || !strings.HasSuffix(l.RecordID, ">") {
			t.Errorf("%s: record_id %q", p, l.RecordID)
		}
		if l.Offset == nil {
			t.Errorf("%s: no offset", p)
			continue
		}
		if header := recordHeaderAt(t, data, *l.Offset); !strings.Contains(header, "\r\nWARC-Record-ID: "+l.RecordID+"\r\n") ||
			!strings.Contains(header, "\r\nWARC-Type: response\r\n") {
			t.Errorf("%s: offset %d does not lead to response record %s:\n%s", p, *l.Offset, l.RecordID, header)
		}
	}
	if !slices.Equal(paths, siteOrder) {
		t.Errorf("pages in the output:\ngot  %q\nwant %q", paths, siteOrder)
	}
}

// recordHeaderAt returns the header of the record at offset off of a WARC
// file: at a gzip member's start, in a .warc.gz.
func recordHeaderAt(t *testing.T, data []byte, off int64) string {
	t.Helper()
	if off < 0 || off >= int64(len(data)) {
		return fmt.Sprintf("(offset %d outside the file)", off)
	}
	b := data[off:]
	if len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return fmt.Sprintf("(no gzip member at %d: %v)", off, err)
		}
		zr.Multistream(false)
		b, _ = io.ReadAll(zr)
	}
	header, _, _ := bytes.Cut(b, []byte("\r\n\r\n"))
	if !bytes.HasPrefix(header, []byte("WARC/1.")) {
		return fmt.Sprintf("(no record at %d: %q)", off, b[:min(len(b), 40)])
	}
	return string(header) + "\r\n"
}

// siteStats is what --stats says of the records of a wget crawl of
// warctest.Site: nine pages sniffed; /notes.txt and wget's two resource
// records (its arguments and log, text/plain) not HTML; ten requests,
// wget's metadata record and the warcinfo record skipped.
var siteStats = []string{
	"WARC records     count\n",
	"sniffed              9\n",
	"not HTML             3 (skipped)\n",
	"request             10 (skipped)\n",
	"metadata             1 (skipped)\n",
	"warcinfo             1 (skipped)\n",
	"24 records in 1 WARC file, 0 failed\n",
	"9 documents, 0 failed\n",
}

// TestWARCWget runs the command on WARC files that GNU Wget wrote crawling
// warctest.Site (pages in six encodings, declared in the HTTP header only
// or in a <meta> only, gzip, deflate, chunked), compressed and not, named
// on the command line, forced with --warc, and on standard input.
func TestWARCWget(t *testing.T) {
	srv := warctest.NewSite(warctest.Site)
	defer srv.Close()
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprintf("compress=%v", compress), func(t *testing.T) {
			path := warctest.Wget(t, srv.URL+"/", t.TempDir(), compress)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"--json", path}, {"--json", "--warc", path}} {
				stdout, stderr, code := charsniff(t, "", args...)
				if code != 0 || stderr != "" {
					t.Errorf("charsniff %q: exit %d, stderr %q", args, code, stderr)
				}
				lines := parseLines(t, stdout)
				checkSiteLines(t, lines, path, data)
				for _, l := range lines {
					if !strings.HasPrefix(l.URI, srv.URL+"/") {
						t.Errorf("uri %q not on %s", l.URI, srv.URL)
					}
				}
			}
			stdout, _, code := charsniff(t, string(data), "--json")
			if code != 0 {
				t.Errorf("charsniff --json < WARC: exit %d", code)
			}
			checkSiteLines(t, parseLines(t, stdout), "-", data)

			_, stderr, _ := charsniff(t, "", "--json", "--stats", path)
			for _, want := range siteStats {
				if !strings.Contains(stderr, want) {
					t.Errorf("charsniff --json --stats: summary lacks %q:\n%s", want, stderr)
				}
			}
		})
	}
}

// testdataWARC is the WARC file wget wrote, committed with package warc.
var testdataWARC = filepath.Join("warc", "testdata", "wget.warc.gz")

// TestWARCTestdata runs the checks of TestWARCWget on the committed crawl,
// so that they run where wget is missing, and checks the text format.
func TestWARCTestdata(t *testing.T) {
	data := []byte(readRoot(t, testdataWARC))
	stdout, stderr, code := charsniff(t, "", "--json", testdataWARC)
	if code != 0 || stderr != "" {
		t.Errorf("charsniff --json %s: exit %d, stderr %q", testdataWARC, code, stderr)
	}
	lines := parseLines(t, stdout)
	checkSiteLines(t, lines, testdataWARC, data)

	// Text lines: PATH#OFFSET URI: ENCODING (CONFIDENCE, SOURCE).
	stdout, _, _ = charsniff(t, "", testdataWARC)
	var want strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&want, "%s#%d %s: %s (%s, %s)\n", testdataWARC, *l.Offset, l.URI, l.Encoding, l.Confidence, l.Source)
	}
	if stdout != want.String() {
		t.Errorf("charsniff %s:\ngot\n%s\nwant\n%s", testdataWARC, stdout, want.String())
	}

	// --stats: the WARC table and the totals.
	stdout, _, _ = charsniff(t, "", "--stats", testdataWARC)
	for _, s := range siteStats {
		if !strings.Contains(stdout, s) {
			t.Errorf("charsniff --stats: summary lacks %q:\n%s", s, stdout)
		}
	}
}

// TestWARCDecode checks --decode on WARC input: with --json, each record's
// line carries its text; without, the texts follow one another.
func TestWARCDecode(t *testing.T) {
	pages := map[string]warctest.Page{}
	for _, p := range warctest.Site {
		pages[p.Path] = p
	}
	stdout, stderr, code := charsniff(t, "", "--decode", "--json", testdataWARC)
	if code != 0 || stderr != "" {
		t.Errorf("charsniff --decode --json: exit %d, stderr %q", code, stderr)
	}
	lines := parseLines(t, stdout)
	checkSiteLines(t, lines, testdataWARC, []byte(readRoot(t, testdataWARC)))
	var all strings.Builder
	for i, l := range lines {
		p := pathOf(l.URI)
		if i > 0 {
			all.WriteString("\n")
		}
		fmt.Fprintf(&all, "==> %s#%d %s <==\n", testdataWARC, *l.Offset, l.URI)
		if l.Text == nil {
			t.Errorf("%s: no text", p)
			continue
		}
		if *l.Text != pages[p].Text {
			t.Errorf("%s: text\ngot  %q\nwant %q", p, *l.Text, pages[p].Text)
		}
		all.WriteString(pages[p].Text)
	}
	stdout, _, code = charsniff(t, "", "--decode", testdataWARC)
	if stdout != all.String() || code != 0 {
		t.Errorf("charsniff --decode WARC: exit %d, text\ngot  %q\nwant %q", code, stdout, all.String())
	}
}

// damaged is a WARC file built for a test: its bytes, and the offset where
// each of its pieces starts.
type damaged struct {
	data []byte
	at   []int64
}

// layout joins pieces into a file.
func layout(pieces ...[]byte) damaged {
	data, at := warctest.Join(pieces...)
	return damaged{data, at}
}

// wantLine is a line expected of a damaged file: a record sniffed (enc set)
// or damaged (errHas set), or both when the damage was found after the
// record was sniffed.
type wantLine struct {
	offset int64
	id     string // "" for a stretch of garbage, or a record whose header was lost
	enc    string
	errHas string
}

// TestWARCDamage runs the command on WARC files with a truncated gzip
// member, a truncated record, wrong Content-Lengths and garbage between
// records: each damaged record or stretch gets a JSON line with its offset
// and an error, every other record its usual line; the exit status is 1, or
// 0 with --exit-zero.
func TestWARCDamage(t *testing.T) {
	body := func(meta string, n int) []byte {
		return []byte(`<!DOCTYPE html><html><head><meta charset="` + meta + `"><title>t</title></head><body>` +
			strings.Repeat("<p>plain ASCII text, long enough to outgrow the window.</p>\n", n) + "</body></html>\n")
	}
	recs := []warctest.Record{
		warctest.Response("http://a.example.jp/", warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, body("shift_jis", 2))),
		warctest.Response("http://b.example.ru/", warctest.HTTPResponse(200, []string{"Content-Type: text/html; charset=KOI8-R"}, body("utf-8", 100))),
		{Type: "request", TargetURI: "http://d.example.cn/", ContentType: "application/http; msgtype=request", Block: []byte("GET / HTTP/1.1\r\n\r\n")},
		warctest.Response("http://d.example.cn/", warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, body("gbk", 2))),
	}
	for i := range recs {
		recs[i].ID = fmt.Sprintf("<urn:test:%c>", 'A'+i)
	}
	plain := make([][]byte, len(recs))
	gz := make([][]byte, len(recs))
	for i, r := range recs {
		plain[i] = warctest.Bytes(r, false)
		gz[i] = warctest.Bytes(r, true)
	}
	a, b, c, d := plain[0], plain[1], plain[2], plain[3]
	za, zb, zc, zd := gz[0], gz[1], gz[2], gz[3]
	okA := func(f damaged, i int) wantLine { return wantLine{f.at[i], "<urn:test:A>", "shift_jis", ""} }
	okB := func(f damaged, i int) wantLine { return wantLine{f.at[i], "<urn:test:B>", "koi8-r", ""} }
	okD := func(f damaged, i int) wantLine { return wantLine{f.at[i], "<urn:test:D>", "gbk", ""} }

	type tcase struct {
		desc string
		file damaged
		want func(f damaged) []wantLine
	}
	tests := []tcase{
		{"plain, intact", layout(a, b, c, d), func(f damaged) []wantLine {
			return []wantLine{okA(f, 0), okB(f, 1), okD(f, 3)}
		}},
		{"plain, garbage between records", layout(a, []byte("junk junk\r\n"), b, c, d), func(f damaged) []wantLine {
			return []wantLine{okA(f, 0), {f.at[1], "", "", "garbage where a record should start"}, okB(f, 2), okD(f, 4)}
		}},
		{"plain, record cut short, input goes on", layout(a, b[:len(b)-300], c, d), func(f damaged) []wantLine {
			// Sniffed, then found short: its Content-Length runs into
			// the next record.
			return []wantLine{okA(f, 0), {f.at[1], "<urn:test:B>", "koi8-r", "no end of record after Content-Length bytes"}, okD(f, 3)}
		}},
		{"plain, input ends inside a record", layout(a, b[:len(b)-300]), func(f damaged) []wantLine {
			return []wantLine{okA(f, 0), {f.at[1], "<urn:test:B>", "koi8-r", "record ends before its Content-Length"}}
		}},
		{"plain, input ends inside a record's window", layout(a, b[:len(b)-len(body("utf-8", 100))+200]), func(f damaged) []wantLine {
			// What was read of the payload is still sniffed.
			return []wantLine{okA(f, 0), {f.at[1], "<urn:test:B>", "koi8-r", "record ends before its Content-Length"}}
		}},
		{"plain, Content-Length too long", layout(a, warctest.WithLength(b, 40), c, d), func(f damaged) []wantLine {
			return []wantLine{okA(f, 0), {f.at[1], "<urn:test:B>", "koi8-r", "no end of record after Content-Length bytes"}, okD(f, 3)}
		}},
		{"plain, Content-Length too short", layout(a, warctest.WithLength(b, -40), c, d), func(f damaged) []wantLine {
			return []wantLine{okA(f, 0), {f.at[1], "<urn:test:B>", "koi8-r", "no end of record after Content-Length bytes"}, okD(f, 3)}
		}},
		{"gzip, intact", layout(za, zb, zc, zd), func(f damaged) []wantLine {
			return []wantLine{okA(f, 0), okB(f, 1), okD(f, 3)}
		}},
		{"gzip, garbage between members", layout(za, []byte("junk"), zb, zc, zd), func(f damaged) []wantLine {
			return []wantLine{okA(f, 0), {f.at[1], "", "", "garbage where a record should start"}, okB(f, 2), okD(f, 4)}
		}},
		{"gzip, member cut in half", layout(za, zb[:len(zb)/2], zc, zd), func(f damaged) []wantLine {
			// The decompressor fails before the header is read whole.
			return []wantLine{okA(f, 0), {f.at[1], "", "", "corrupt gzip member"}, okD(f, 3)}
		}},
		{"gzip, member cut in its trailer", layout(za, zb[:len(zb)-6], zc, zd), func(f damaged) []wantLine {
			// The record was read whole; then the member's CRC and size
			// were missing: the member is reported, not the record.
			return []wantLine{okA(f, 0), okB(f, 1), {f.at[1], "", "", "corrupt gzip member"}, okD(f, 3)}
		}},
		{"gzip, input ends inside a member", layout(za, zb[:len(zb)-15]), func(f damaged) []wantLine {
			return []wantLine{okA(f, 0), {f.at[1], "<urn:test:B>", "koi8-r", "corrupt gzip member"}}
		}},
		{"gzip, Content-Length too long", layout(za, warctest.Gzip(warctest.WithLength(b, 40)), zc, zd), func(f damaged) []wantLine {
			return []wantLine{okA(f, 0), {f.at[1], "<urn:test:B>", "koi8-r", "record ends before its Content-Length"}, okD(f, 3)}
		}},
		{"gzip, Content-Length too short", layout(za, warctest.Gzip(warctest.WithLength(b, -40)), zc, zd), func(f damaged) []wantLine {
			return []wantLine{okA(f, 0), {f.at[1], "<urn:test:B>", "koi8-r", "no end of record after Content-Length bytes"}, okD(f, 3)}
		}},
	}
	dir := t.TempDir()
	for i, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("%02d.warc", i))
			if err := os.WriteFile(path, tc.file.data, 0o644); err != nil {
				t.Fatal(err)
			}
			want := tc.want(tc.file)
			failed := 0
			for _, w := range want {
				if w.errHas != "" {
					failed++
				}
			}
			wantCode := 0
			if failed > 0 {
				wantCode = 1
			}
			stdout, stderr, code := charsniff(t, "", "--json", path)
			if code != wantCode {
				t.Errorf("exit %d, want %d", code, wantCode)
			}
			if n := strings.Count(stderr, "\n"); n != failed {
				t.Errorf("%d lines on standard error, want %d:\n%s", n, failed, stderr)
			}
			lines := parseLines(t, stdout)
			var got, wants []string
			for _, l := range lines {
				off := int64(-1)
				if l.Offset != nil {
					off = *l.Offset
				}
				got = append(got, fmt.Sprintf("@%d %s %s error=%q", off, l.RecordID, l.Encoding, l.Error))
			}
			for i, w := range want {
				wants = append(wants, fmt.Sprintf("@%d %s %s error~%q", w.offset, w.id, w.enc, w.errHas))
				if i >= len(lines) {
					continue
				}
				l := lines[i]
				if l.Offset == nil || *l.Offset != w.offset || l.RecordID != w.id || l.Encoding != w.enc ||
					(w.errHas == "") != (l.Error == "") || !strings.Contains(l.Error, w.errHas) {
					t.Errorf("line %d: got %s, want %s", i, got[i], wants[i])
				}
			}
			if len(lines) != len(want) {
				t.Errorf("got lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wants, "\n"))
			}

			// Text mode: the errors on standard error name the place.
			_, stderr, _ = charsniff(t, "", path)
			for _, w := range want {
				if w.errHas != "" && !strings.Contains(stderr, fmt.Sprintf("charsniff: %s#%d", path, w.offset)) {
					t.Errorf("standard error lacks the error at %d:\n%s", w.offset, stderr)
				}
			}
			if failed > 0 {
				if _, _, code := charsniff(t, "", "--json", "--exit-zero", path); code != 0 {
					t.Errorf("--exit-zero: exit %d, want 0", code)
				}
			}
		})
	}
}

// TestFilesFromStreaming plays the contract of Hadoop Streaming and Spark's
// RDD.pipe: names of WARC files on standard input, as plain paths and as
// the OFFSET<TAB>PATH lines Hadoop hands a mapper, one JSON line per
// record on standard output, written while the list is still coming; a
// name that cannot be read gets an error line and the run goes on. The
// exit status is 1 because of it, 0 with --exit-zero.
func TestFilesFromStreaming(t *testing.T) {
	dir := t.TempDir()
	type file struct {
		path  string
		pages int // response records
	}
	var files []file
	for i, name := range []string{"one.warc.gz", "two.warc", "three.warc.gz"} {
		var b bytes.Buffer
		st, err := warctest.Generate(&b, 150<<10, strings.HasSuffix(name, ".gz"), uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, file{p, st.Responses})
	}
	page := filepath.Join(dir, "page.html")
	if err := os.WriteFile(page, []byte(`<meta charset="koi8-u">`), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.warc.gz")
	// The list, in pieces written one after the other.
	pieces := []string{
		"0\t" + files[0].path + "\n",
		files[1].path + "\n\n" + fmt.Sprintf("%d\t%s\n", 42+len(files[1].path), missing),
		files[2].path + "\r\n" + page + "\n",
	}
	// want is the lines each piece must produce: (file, error) pairs.
	type want struct {
		file string
		err  string
	}
	var wants [][]want
	for i, n := range []int{files[0].pages, files[1].pages} {
		var w []want
		for range n {
			w = append(w, want{files[i].path, ""})
		}
		if i == 1 {
			w = append(w, want{missing, "no such file or directory"})
		}
		wants = append(wants, w)
	}
	var last []want
	for range files[2].pages {
		last = append(last, want{files[2].path, ""})
	}
	wants = append(wants, append(last, want{page, ""}))

	for _, exitZero := range []bool{false, true} {
		t.Run(fmt.Sprintf("exit-zero=%v", exitZero), func(t *testing.T) {
			args := []string{"--json", "--files-from", "-"}
			wantCode := 1
			if exitZero {
				args = append(args, "--exit-zero")
				wantCode = 0
			}
			cmd := exec.Command(bin, args...)
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// A hang fails the test rather than the whole run.
			watchdog := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
			defer watchdog.Stop()
			out := bufio.NewReader(stdout)
			for i, piece := range pieces {
				if _, err := io.WriteString(stdin, piece); err != nil {
					t.Fatal(err)
				}
				if i == len(pieces)-1 {
					stdin.Close()
				}
				// The lines of this piece come before the next piece is
				// written: the mapper streams.
				var got strings.Builder
				for range wants[i] {
					line, err := out.ReadString('\n')
					if err != nil {
						t.Fatalf("piece %d: reading output: %v (stderr %q)", i, err, stderr.String())
					}
					got.WriteString(line)
				}
				lines := parseLines(t, got.String())
				for j, w := range wants[i] {
					l := lines[j]
					if l.File != w.file || !strings.Contains(l.Error, w.err) || (w.err == "") != (l.Error == "") {
						t.Errorf("piece %d, line %d: got file %q, error %q; want %q, %q", i, j, l.File, l.Error, w.file, w.err)
					}
					if w.err == "" && l.Encoding == "" {
						t.Errorf("piece %d, line %d: no encoding", i, j)
					}
				}
			}
			if rest, _ := io.ReadAll(out); len(rest) > 0 {
				t.Errorf("more output than wanted: %q", rest)
			}
			if code := exitCode(t, cmd.Wait(), args); code != wantCode {
				t.Errorf("exit %d, want %d", code, wantCode)
			}
			if want := "charsniff: " + missing + ": no such file or directory\n"; stderr.String() != want {
				t.Errorf("stderr %q, want %q", stderr.String(), want)
			}
		})
	}

	// A list in a file, and WARC data on standard input named by "-".
	list := filepath.Join(dir, "list.txt")
	if err := os.WriteFile(list, []byte("0\t"+files[1].path+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	data := readRoot(t, testdataWARC)
	stdout, stderr, code := charsniff(t, data, "--json", "--files-from", list, "-")
	lines := parseLines(t, stdout)
	if code != 0 || stderr != "" || len(lines) != len(siteOrder)+files[1].pages {
		t.Fatalf("charsniff --files-from LIST - < WARC: exit %d, stderr %q, %d lines; want 0, none, %d",
			code, stderr, len(lines), len(siteOrder)+files[1].pages)
	}
	checkSiteLines(t, lines[:len(siteOrder)], "-", []byte(data))
	for _, l := range lines[len(siteOrder):] {
		if l.File != files[1].path {
			t.Errorf("line for %q, want %q", l.File, files[1].path)
		}
	}
}

func TestListEntry(t *testing.T) {
	tests := []struct {
		line string
		want string // "" for no entry; PATH@OFF:LEN for a range
		err  string // the problem of a bad range
	}{
		{"a.warc.gz", "a.warc.gz", ""},
		{"0\ta.warc.gz", "a.warc.gz", ""},
		{"1234567\t/data/crawl/a.warc.gz", "/data/crawl/a.warc.gz", ""},
		{"a.warc.gz\r", "a.warc.gz", ""},
		{"17\ta.warc.gz\r", "a.warc.gz", ""},
		{"", "", ""},
		{"\r", "", ""},
		{"   ", "", ""},
		{"12\t", "", ""},
		{"x1\ta.warc", "", "2 tab-separated fields"}, // not an offset
		{"\ta.warc", "", "2 tab-separated fields"},
		{"a.warc\t1\t2\t3", "", "4 tab-separated fields"},
		{"7\ta.warc\t1\t2\t3", "", "5 tab-separated fields"},
		{"7\t8\ta.warc\t1", "8", "the offset is not"},
		{"dir with space/a b.warc", "dir with space/a b.warc", ""},
		{"s3://bucket/a.warc.gz", "s3://bucket/a.warc.gz", ""},
		// Columnar index coordinates, alone or after Hadoop's offset.
		{"a.warc.gz\t1919\t1005", "a.warc.gz@1919:1005", ""},
		{"a.warc.gz\t0\t7\r", "a.warc.gz@0:7", ""},
		{"42\ta.warc.gz\t1919\t1005", "a.warc.gz@1919:1005", ""},
		{"a.warc.gz\t1919\tx", "a.warc.gz", "the length is not"},
		{"a.warc.gz\t1919\t0", "a.warc.gz", "the length is not"},
		{"a.warc.gz\t-5\t10", "a.warc.gz", "the offset is not"},
		{"a.warc.gz\t\t10", "a.warc.gz", "the offset is not"},
		{"a.warc.gz\t9223372036854775807\t10", "a.warc.gz", "too large"},
	}
	for _, tc := range tests {
		e, err, ok := listEntry(tc.line)
		got := e.path
		if e.rng != nil {
			got = fmt.Sprintf("%s@%d:%d", e.path, e.rng.off, e.rng.n)
		}
		if tc.want == "" && tc.err != "" {
			got = tc.want // the entry of a malformed line is not used
		}
		if got != tc.want || ok != (tc.want != "" || tc.err != "") || (err == nil) != (tc.err == "") ||
			err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("listEntry(%q) = %q, %v, %v; want %q, %q", tc.line, got, err, ok, tc.want, tc.err)
		}
	}
}

// TestWARCHints checks that a record's stored Content-Type and its URI's
// host are its transport layer and top-level-domain hint, winning over
// --content-type and --hint-tld, which apply to records without them.
func TestWARCHints(t *testing.T) {
	var b bytes.Buffer
	w := warctest.NewWriter(&b, true)
	// Windows-1251 Cyrillic text without a declaration: the TLD decides
	// between the detector's candidates.
	cyr := []byte("<p>\xcf\xf0\xe8\xe2\xe5\xf2, \xfd\xf2\xee \xf2\xe5\xea\xf1\xf2 \xed\xe0 \xf0\xf3\xf1\xf1\xea\xee\xec \xff\xe7\xfb\xea\xe5.</p>")
	ascii := []byte("<!DOCTYPE html><p>nothing but ASCII</p>")
	for _, rec := range []warctest.Record{
		warctest.Response("http://example.ru/", warctest.HTTPResponse(200, []string{"Content-Type: text/html; charset=koi8-r"}, ascii)),
		warctest.Response("http://example.jp/", warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, ascii)),
		warctest.Response("http://127.0.0.1/", warctest.HTTPResponse(200, nil, ascii)),
		{Type: "resource", TargetURI: "file:///old/page.html", ContentType: "text/html", Block: cyr},
	} {
		if _, err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "hints.warc.gz")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want []string // encoding (source) per record
	}{
		{nil, []string{"koi8-r (transport)", "shift_jis (default)", "windows-1252 (default)", "windows-1251 (autodetect)"}},
		// The caller's word wins over each record's header and host, as
		// in charsniff.Transport (docs/archives.md, "Whose word wins").
		{[]string{"--content-type", "text/html; charset=iso-8859-2", "--hint-tld", "gr"},
			[]string{"iso-8859-2 (transport)", "iso-8859-2 (transport)", "iso-8859-2 (transport)", "iso-8859-2 (transport)"}},
		{[]string{"--hint-tld", "gr"},
			[]string{"koi8-r (transport)", "iso-8859-7 (default)", "iso-8859-7 (default)", "windows-1251 (autodetect)"}},
	}
	for _, tc := range tests {
		args := append([]string{"--json"}, tc.args...)
		stdout, _, _ := charsniff(t, "", append(args, path)...)
		var got []string
		for _, l := range parseLines(t, stdout) {
			got = append(got, fmt.Sprintf("%s (%s)", l.Encoding, l.Source))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("charsniff %q:\ngot  %q\nwant %q", args, got, tc.want)
		}
	}
}

// TestDecodeJSON checks --decode --json: each line carries the document's
// text; a record found damaged while its text was written keeps the text
// read and gets an error after it.
func TestDecodeJSON(t *testing.T) {
	a, b := samplePath("blog-euckr-meta.html"), samplePath("letter-utf16le-bom.html")
	stdout, stderr, code := charsniff(t, "", "--decode", "--json", a, b)
	if code != 0 || stderr != "" {
		t.Errorf("charsniff --decode --json: exit %d, stderr %q", code, stderr)
	}
	lines := parseLines(t, stdout)
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2:\n%s", len(lines), stdout)
	}
	for i, name := range []string{a, b} {
		l := lines[i]
		if l.File != name || l.Text == nil || *l.Text != testutil.Golden(t, filepath.Base(name)) || l.Bytes == nil || *l.Bytes != int64(len(readRoot(t, name))) {
			t.Errorf("%s: got file %q, bytes %v, text %v; want its golden text", name, l.File, l.Bytes, l.Text)
		}
	}

	text := strings.Repeat("<p>Καλημέρα κόσμε, ένα κείμενο.</p>\n", 200)
	page := []byte(`<meta charset="iso-8859-7">` + text)
	greek, err := charmapEncode(page)
	if err != nil {
		t.Fatal(err)
	}
	rec := warctest.Bytes(warctest.Response("http://example.gr/", warctest.HTTPResponse(200,
		[]string{"Content-Type: text/html", fmt.Sprintf("Content-Length: %d", len(greek))}, greek)), false)
	next := warctest.Bytes(warctest.Response("http://example.gr/2", warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, []byte("<p>next"))), false)
	tests := []struct {
		desc    string
		data    []byte
		lines   int
		errHas  string
		endText bool // the text is whole
	}{
		{"intact", slices.Concat(rec, next), 2, "", true},
		// The block runs 30 bytes into the next record; the payload is
		// the block's rest, so the text holds them, and the line says
		// the record is bad.
		{"Content-Length too long", slices.Concat(warctest.WithLength(rec, 30), next), 2, "no end of record after Content-Length bytes", false},
		{"Content-Length too short", slices.Concat(warctest.WithLength(rec, -30), next), 2, "no end of record after Content-Length bytes", false},
		{"cut short", rec[:len(rec)-1000], 1, "record ends before its Content-Length", false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "greek.warc")
			if err := os.WriteFile(path, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, _, _ := charsniff(t, "", "--decode", "--json", path)
			lines := parseLines(t, stdout)
			if len(lines) != tc.lines {
				t.Fatalf("got %d lines, want %d:\n%s", len(lines), tc.lines, stdout)
			}
			l := lines[0]
			if l.Encoding != "iso-8859-7" || l.Text == nil || !strings.Contains(l.Error, tc.errHas) || (tc.errHas == "") != (l.Error == "") {
				t.Fatalf("got %s, text %v, error %q; want iso-8859-7, a text, error ~%q", l.Encoding, l.Text != nil, l.Error, tc.errHas)
			}
			if tc.endText && *l.Text != string(page) {
				t.Errorf("text of %d bytes, want the page's %d", len(*l.Text), len(page))
			}
			if !tc.endText && (len(*l.Text) < 100 || !strings.HasPrefix(*l.Text, string(page[:100]))) {
				t.Errorf("text %.200q... is not the page's", *l.Text)
			}
		})
	}
}

// charmapEncode encodes UTF-8 Greek text as ISO-8859-7.
func charmapEncode(b []byte) ([]byte, error) {
	return charmap.ISO8859_7.NewEncoder().Bytes(b)
}

// TestWARCProgress checks the progress bar of a WARC run: it counts
// bytes, and says how many files are done.
func TestWARCProgress(t *testing.T) {
	saveTerm, saveDelay, saveThrottle := isTerminal, progressDelay, progressThrottle
	defer func() { isTerminal, progressDelay, progressThrottle = saveTerm, saveDelay, saveThrottle }()
	var stdout, stderr bytes.Buffer
	isTerminal = func(w io.Writer) bool { return w == &stderr }
	progressDelay, progressThrottle = 0, 0
	warcPath := filepath.Join(root, testdataWARC)
	page := filepath.Join(root, samplePath("news-utf8-meta.html"))
	if code := run([]string{"--json", page, warcPath, page}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("run: exit %d", code)
	}
	if n := strings.Count(stdout.String(), "\n"); n != 2+len(siteOrder) {
		t.Errorf("run: %d lines, want %d", n, 2+len(siteOrder))
	}
	for _, want := range []string{"B/s", "/3 files done", "/14 kB"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("progress bar lacks %q: %q", want, stderr.String())
		}
	}
}

// TestWARCCutAnywhere cuts the committed wget crawl, gzip and plain, at
// many points and runs the command on each cut: every record that ends
// before the cut keeps its line, byte for byte; no run panics; a cut inside
// a record is reported.
func TestWARCCutAnywhere(t *testing.T) {
	gz := []byte(readRoot(t, testdataWARC))
	plain := warctest.Gunzip(t, gz)
	for _, tc := range []struct {
		name string
		data []byte
	}{{"gzip", gz}, {"plain", plain}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			whole := filepath.Join(dir, "whole.warc")
			if err := os.WriteFile(whole, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			out, _, code := runInProcess([]string{"--json", whole})
			if code != 0 {
				t.Fatalf("intact file: exit %d", code)
			}
			intact := strings.SplitAfter(out, "\n")
			intact = intact[:len(intact)-1]
			// ends[i] is where the record of intact line i ends: where the
			// next record (of any type) starts.
			starts := recordStarts(t, tc.data)
			var ends []int64
			for _, l := range parseLines(t, out) {
				i := slices.Index(starts, *l.Offset)
				ends = append(ends, append(starts, int64(len(tc.data)))[i+1])
			}
			cut := filepath.Join(dir, "cut.warc")
			step := 89 // a prime: the cuts fall anywhere in the records
			if testing.Short() {
				step = 401
			}
			for k := 1; k < len(tc.data); k += step {
				if err := os.WriteFile(cut, tc.data[:k], 0o644); err != nil {
					t.Fatal(err)
				}
				out, stderr, code := runInProcess([]string{"--json", cut})
				if strings.Contains(stderr, "internal error") || code > 1 {
					t.Fatalf("cut at %d: exit %d, stderr %q", k, code, stderr)
				}
				got := strings.SplitAfter(out, "\n")
				for i, want := range intact {
					if ends[i] > int64(k) {
						break
					}
					want = strings.Replace(want, whole, cut, 1)
					if i >= len(got) || got[i] != want {
						t.Fatalf("cut at %d: line %d lost or changed:\ngot  %q\nwant %q", k, i, got[min(i, len(got)-1)], want)
					}
				}
				// A cut inside a record is reported, unless what is left
				// is too short to be recognized as WARC (then it is
				// sniffed as a page), or the cut is inside the
				// end-of-record marker of an uncompressed record (its
				// block is whole).
				inMarker := false
				for _, s := range append(starts[1:], int64(len(tc.data))) {
					if tc.name == "plain" && int64(k) > s-4 && int64(k) < s {
						inMarker = true
					}
				}
				if !slices.Contains(starts, int64(k)) && !inMarker && warc.IsWARC(tc.data[:min(k, warc.SniffLen)]) && code != 1 {
					t.Errorf("cut at %d, inside a record: exit %d, want 1 (stderr %q)", k, code, stderr)
				}
			}
		})
	}
}

// recordStarts returns the offsets of the records of a WARC file.
func recordStarts(t *testing.T, data []byte) []int64 {
	t.Helper()
	r := warc.NewReader(bytes.NewReader(data))
	return warctest.Collect(t, r.Next, func(rec *warc.Record) int64 { return rec.Offset })
}

// runInProcess runs the command in this process.
func runInProcess(args []string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = run(args, nil, &o, &e)
	return o.String(), e.String(), code
}
