package warc

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
)

var updateWget = flag.Bool("update-wget", false, "rewrite testdata/wget.warc.gz with a fresh wget crawl")

// sitePage is a page of the test site that wget crawls.
type sitePage struct {
	path string
	// status is the HTTP status; 0 means 200.
	status int
	// contentType is the Content-Type header; "" sends none (and stops
	// net/http from sniffing one).
	contentType string
	// enc encodes the page's text; nil means UTF-8.
	enc encoding.Encoding
	// coding is the Content-Encoding: "", "gzip" or "deflate".
	coding string
	// chunked sends the body in pieces without a Content-Length, so that
	// the server uses the chunked transfer coding.
	chunked bool
	// text is the page, in UTF-8.
	text string
}

// testSite serves pages in several encodings, some declared only in the
// HTTP header, some only in a <meta>, some gzip- or deflate-encoded, some
// chunked. The index links to all the others.
var testSite = []sitePage{
	{path: "/", contentType: "text/html; charset=utf-8", text: `<!DOCTYPE html><html><head><title>Index ✓</title></head><body>
<a href="sjis.html">sjis</a> <a href="gbk.html">gbk</a> <a href="cp1251.html">cp1251</a>
<a href="euckr.html">euckr</a> <a href="cp1252.html">cp1252</a> <a href="nocontenttype.html">none</a>
<a href="deflate.html">deflate</a> <a href="notes.txt">notes</a> <a href="missing.html">missing</a>
</body></html>
`},
	{path: "/sjis.html", contentType: "text/html; charset=Shift_JIS", enc: japanese.ShiftJIS,
		text: "<html><head><title>日本語のページ</title></head><body><p>文字コードはHTTPヘッダーだけで宣言されています。</p></body></html>\n"},
	{path: "/gbk.html", contentType: "text/html", enc: simplifiedchinese.GBK,
		text: `<html><head><meta charset="gbk"><title>中文网页</title></head><body><p>编码只在meta标签中声明。</p></body></html>` + "\n"},
	{path: "/cp1251.html", contentType: "text/html", enc: charmap.Windows1251, coding: "gzip",
		text: `<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"><title>Русская страница</title></head><body><p>Сжато gzip, кодировка в meta.</p></body></html>` + "\n"},
	{path: "/euckr.html", contentType: "text/html; charset=euc-kr", enc: korean.EUCKR, chunked: true,
		text: "<html><head><title>한국어 페이지</title></head><body><p>청크 전송 인코딩으로 보냈습니다.</p>\n" + strings.Repeat("<p>반복되는 문단입니다.</p>\n", 40) + "</body></html>\n"},
	{path: "/cp1252.html", contentType: "text/html", enc: charmap.Windows1252, coding: "gzip", chunked: true,
		text: `<html><head><meta charset="windows-1252"><title>Café – “quotes”</title></head><body><p>Gzip and chunked, naïve façade.</p>` + "\n" + strings.Repeat("<p>Encore une fois, señor.</p>\n", 40) + "</body></html>\n"},
	{path: "/nocontenttype.html", contentType: "",
		text: `<!DOCTYPE html><html><head><meta charset="utf-8"><title>No Content-Type ✓</title></head><body></body></html>` + "\n"},
	{path: "/deflate.html", contentType: "text/html; charset=utf-8", coding: "deflate",
		text: "<html><head><title>Deflate ✓</title></head><body><p>zlib stream</p></body></html>\n"},
	{path: "/notes.txt", contentType: "text/plain; charset=us-ascii", text: "Not HTML.\n"},
	{path: "/missing.html", status: http.StatusNotFound, contentType: "text/html; charset=utf-8",
		text: "<html><head><title>Not found</title></head></html>\n"},
}

// body returns the page's bytes as the server sends them, before any
// content coding.
func (p sitePage) body() []byte {
	if p.enc == nil {
		return []byte(p.text)
	}
	b, err := p.enc.NewEncoder().Bytes([]byte(p.text))
	if err != nil {
		panic(fmt.Sprintf("%s: %v", p.path, err))
	}
	return b
}

func (p sitePage) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	if p.contentType == "" {
		w.Header()["Content-Type"] = nil
	} else {
		w.Header().Set("Content-Type", p.contentType)
	}
	body := p.body()
	var coded bytes.Buffer
	switch p.coding {
	case "gzip":
		zw := gzip.NewWriter(&coded)
		zw.Write(body)
		zw.Close()
	case "deflate":
		zw := zlib.NewWriter(&coded)
		zw.Write(body)
		zw.Close()
	default:
		coded.Write(body)
	}
	if p.coding != "" {
		w.Header().Set("Content-Encoding", p.coding)
	}
	out := coded.Bytes()
	if !p.chunked {
		w.Header().Set("Content-Length", fmt.Sprint(len(out)))
	}
	if p.status != 0 {
		w.WriteHeader(p.status)
	}
	if p.chunked {
		// Flushing before the end makes net/http send chunks.
		for len(out) > 0 {
			n := min(len(out), 100)
			w.Write(out[:n])
			w.(http.Flusher).Flush()
			out = out[n:]
		}
		return
	}
	w.Write(out)
}

func newTestSite() *httptest.Server {
	mux := http.NewServeMux()
	for _, p := range testSite {
		if p.path == "/" {
			mux.Handle("/{$}", p)
		} else {
			mux.Handle(p.path, p)
		}
	}
	return httptest.NewServer(mux)
}

// crawl runs wget on the test site and returns the WARC file it wrote.
func crawl(t *testing.T, compress bool) (warcPath, base string) {
	t.Helper()
	wget, err := exec.LookPath("wget")
	if err != nil {
		t.Skip("wget not found: the test of WARC files written by wget needs GNU Wget with --warc-file")
	}
	if out, err := exec.Command(wget, "--help").CombinedOutput(); err != nil || !bytes.Contains(out, []byte("--warc-file")) {
		t.Skip("this wget has no --warc-file option")
	}
	srv := newTestSite()
	defer srv.Close()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := []string{"--warc-file=" + filepath.Join(dir, "crawl"), "--recursive", "--level=1", "--no-verbose",
		"-e", "robots=off", "--tries=1", "--timeout=10", "--directory-prefix=" + filepath.Join(dir, "files")}
	if !compress {
		args = append(args, "--no-warc-compression")
	}
	cmd := exec.CommandContext(ctx, wget, append(args, srv.URL+"/")...)
	cmd.Env = append(os.Environ(), "LC_ALL=C", "http_proxy=", "https_proxy=", "no_proxy=*")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	// Exit status 8 means the server answered an error (our 404 page).
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 8) {
		t.Fatalf("wget: %v\n%s", err, out)
	}
	name := "crawl.warc"
	if compress {
		name += ".gz"
	}
	return filepath.Join(dir, name), srv.URL
}

func TestWget(t *testing.T) {
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprintf("compress=%v", compress), func(t *testing.T) {
			path, base := crawl(t, compress)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !IsWARC(data[:min(len(data), SniffLen)]) {
				t.Errorf("IsWARC(wget's file) = false")
			}
			checkCrawl(t, data, base)
			if compress && *updateWget {
				if err := os.WriteFile("testdata/wget.warc.gz", data, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote testdata/wget.warc.gz (%d bytes) from a crawl of %s", len(data), base)
			}
		})
	}
}

// TestWgetTestdata checks the wget-made WARC file committed in testdata,
// so that the checks run where wget is missing.
func TestWgetTestdata(t *testing.T) {
	data, err := os.ReadFile("testdata/wget.warc.gz")
	if err != nil {
		t.Fatal(err)
	}
	checkCrawl(t, data, "")
}

// checkCrawl checks every record of a WARC file that wget wrote crawling
// the test site at base ("" to match any host): the warcinfo record, a
// request and a response for each page with its status, Content-Type and
// payload, then wget's metadata and log records.
func checkCrawl(t *testing.T, data []byte, base string) {
	t.Helper()
	pages := map[string]sitePage{}
	for _, p := range testSite {
		pages[p.path] = p
	}
	seen := map[string]bool{}
	r := NewReader(bytes.NewReader(data))
	var types []string
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		types = append(types, rec.Type)
		if rec.RecordID == "" || rec.Date.IsZero() || rec.Version != "1.0" {
			t.Errorf("record %d: RecordID %q, Date %v, Version %q", len(types), rec.RecordID, rec.Date, rec.Version)
		}
		switch rec.Type {
		case "warcinfo":
			if len(types) != 1 || rec.ContentType != "application/warc-fields" {
				t.Errorf("warcinfo record at %d with Content-Type %q", len(types), rec.ContentType)
			}
		case "request", "response":
			path := rec.TargetURI
			if base != "" {
				if !strings.HasPrefix(path, base+"/") {
					t.Errorf("%s record for %q: not on %s", rec.Type, rec.TargetURI, base)
					continue
				}
				path = strings.TrimPrefix(path, base)
			} else if i := strings.Index(path, "://"); i >= 0 {
				if j := strings.IndexByte(path[i+3:], '/'); j >= 0 {
					path = path[i+3+j:]
				}
			}
			page, ok := pages[path]
			if !ok {
				t.Errorf("%s record for unknown page %q", rec.Type, rec.TargetURI)
				continue
			}
			if rec.Type == "request" {
				if _, err := rec.Payload(); !errors.Is(err, ErrNoPayload) {
					t.Errorf("request %s: Payload error %v, want ErrNoPayload", path, err)
				}
				continue
			}
			seen[path] = true
			checkResponse(t, rec, page)
		case "metadata", "resource":
			if !strings.HasPrefix(rec.TargetURI, "metadata://gnu.org/software/wget/warc/") {
				t.Errorf("%s record for %q", rec.Type, rec.TargetURI)
			}
		default:
			t.Errorf("unexpected %s record", rec.Type)
		}
	}
	for _, p := range testSite {
		if !seen[p.path] {
			t.Errorf("no response record for %s", p.path)
		}
	}
	if want := 1 + 2*len(testSite) + 3; len(types) != want {
		t.Errorf("got %d records (%v), want %d", len(types), types, want)
	}
}

func checkResponse(t *testing.T, rec *Record, page sitePage) {
	t.Helper()
	if !strings.HasPrefix(rec.ContentType, "application/http") {
		t.Errorf("%s: record Content-Type %q", page.path, rec.ContentType)
	}
	p, err := rec.Payload()
	if err != nil {
		t.Errorf("%s: Payload: %v", page.path, err)
		return
	}
	wantStatus := page.status
	if wantStatus == 0 {
		wantStatus = 200
	}
	if p.StatusCode != wantStatus {
		t.Errorf("%s: StatusCode = %d, want %d", page.path, p.StatusCode, wantStatus)
	}
	if p.ContentType != page.contentType {
		t.Errorf("%s: ContentType = %q, want %q", page.path, p.ContentType, page.contentType)
	}
	_, wantCharset := extractMIMEType(page.contentType)
	if p.Charset != wantCharset {
		t.Errorf("%s: Charset = %q, want %q", page.path, p.Charset, wantCharset)
	}
	if got := p.Header.Get("Content-Encoding"); got != page.coding {
		t.Errorf("%s: Content-Encoding %q, want %q", page.path, got, page.coding)
	}
	if got := p.Header.Get("Transfer-Encoding"); (got == "chunked") != page.chunked {
		t.Errorf("%s: Transfer-Encoding %q, chunked %v", page.path, got, page.chunked)
	}
	if wantHTML := strings.Contains(page.text, "<html"); p.IsHTML() != wantHTML {
		t.Errorf("%s: IsHTML = %v, want %v", page.path, !wantHTML, wantHTML)
	}
	if p.Undecoded != "" {
		t.Errorf("%s: Undecoded = %q", page.path, p.Undecoded)
	}
	got, err := io.ReadAll(p.Body)
	if err != nil {
		t.Errorf("%s: reading payload: %v", page.path, err)
	}
	if want := page.body(); !bytes.Equal(got, want) {
		t.Errorf("%s: payload\ngot  %q\nwant %q", page.path, got, want)
	}
}
