package warctest

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/htmlindex"
)

// A Page is a page of the test site that wget crawls.
type Page struct {
	Path string
	// Status is the HTTP status; 0 means 200.
	Status int
	// ContentType is the Content-Type header; "" sends none (and stops
	// net/http from sniffing one).
	ContentType string
	// Label is the WHATWG label of the encoding of the page's bytes,
	// which x/text's encoder of it makes from Text; "" means UTF-8.
	Label string
	// Coding is the Content-Encoding: "", "gzip" or "deflate".
	Coding string
	// Chunked sends the body in pieces without a Content-Length, so that
	// the server uses the chunked transfer coding.
	Chunked bool
	// Text is the page, in UTF-8.
	Text string
}

// Site serves pages in several encodings, some declared only in the HTTP
// header, some only in a <meta>, some gzip- or deflate-encoded, some
// chunked. The index links to all the others. It is the site of the
// committed warc/testdata/wget.warc.gz (whose README lists it), the same as
// package warc's tests crawl, and the site the HTTP examples of package
// charsniff and of examples/ fetch (their output shows its pages).
var Site = []Page{
	{Path: "/", ContentType: "text/html; charset=utf-8", Text: `<!DOCTYPE html><html><head><title>Index ✓</title></head><body>
<a href="sjis.html">sjis</a> <a href="gbk.html">gbk</a> <a href="cp1251.html">cp1251</a>
<a href="euckr.html">euckr</a> <a href="cp1252.html">cp1252</a> <a href="nocontenttype.html">none</a>
<a href="deflate.html">deflate</a> <a href="notes.txt">notes</a> <a href="missing.html">missing</a>
</body></html>
`},
	{Path: "/sjis.html", ContentType: "text/html; charset=Shift_JIS", Label: "shift_jis",
		Text: "<html><head><title>日本語のページ</title></head><body><p>文字コードはHTTPヘッダーだけで宣言されています。</p></body></html>\n"},
	{Path: "/gbk.html", ContentType: "text/html", Label: "gbk",
		Text: `<html><head><meta charset="gbk"><title>中文网页</title></head><body><p>编码只在meta标签中声明。</p></body></html>` + "\n"},
	{Path: "/cp1251.html", ContentType: "text/html", Label: "windows-1251", Coding: "gzip",
		Text: `<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"><title>Русская страница</title></head><body><p>Сжато gzip, кодировка в meta.</p></body></html>` + "\n"},
	{Path: "/euckr.html", ContentType: "text/html; charset=euc-kr", Label: "euc-kr", Chunked: true,
		Text: "<html><head><title>한국어 페이지</title></head><body><p>청크 전송 인코딩으로 보냈습니다.</p>\n" + strings.Repeat("<p>반복되는 문단입니다.</p>\n", 40) + "</body></html>\n"},
	{Path: "/cp1252.html", ContentType: "text/html", Label: "windows-1252", Coding: "gzip", Chunked: true,
		Text: `<html><head><meta charset="windows-1252"><title>Café – “quotes”</title></head><body><p>Gzip and chunked, naïve façade.</p>` + "\n" + strings.Repeat("<p>Encore une fois, señor.</p>\n", 40) + "</body></html>\n"},
	{Path: "/nocontenttype.html", ContentType: "",
		Text: `<!DOCTYPE html><html><head><meta charset="utf-8"><title>No Content-Type ✓</title></head><body></body></html>` + "\n"},
	{Path: "/deflate.html", ContentType: "text/html; charset=utf-8", Coding: "deflate",
		Text: "<html><head><title>Deflate ✓</title></head><body><p>zlib stream</p></body></html>\n"},
	{Path: "/notes.txt", ContentType: "text/plain; charset=us-ascii", Text: "Not HTML.\n"},
	{Path: "/missing.html", Status: http.StatusNotFound, ContentType: "text/html; charset=utf-8",
		Text: "<html><head><title>Not found</title></head></html>\n"},
}

// Body returns the page's bytes as the server sends them, before any
// content coding.
func (p Page) Body() []byte {
	if p.Label == "" {
		return []byte(p.Text)
	}
	e, err := htmlindex.Get(p.Label)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", p.Path, err))
	}
	b, err := e.NewEncoder().Bytes([]byte(p.Text))
	if err != nil {
		panic(fmt.Sprintf("%s: %v", p.Path, err))
	}
	return b
}

// ServeHTTP serves the page.
func (p Page) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	if p.ContentType == "" {
		w.Header()["Content-Type"] = nil
	} else {
		w.Header().Set("Content-Type", p.ContentType)
	}
	body := p.Body()
	var coded bytes.Buffer
	switch p.Coding {
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
	if p.Coding != "" {
		w.Header().Set("Content-Encoding", p.Coding)
	}
	out := coded.Bytes()
	if !p.Chunked {
		w.Header().Set("Content-Length", fmt.Sprint(len(out)))
	}
	if p.Status != 0 {
		w.WriteHeader(p.Status)
	}
	if p.Chunked {
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

// NewSite starts a server of pages on 127.0.0.1.
func NewSite(pages []Page) *httptest.Server {
	mux := http.NewServeMux()
	for _, p := range pages {
		if p.Path == "/" {
			mux.Handle("/{$}", p)
		} else {
			mux.Handle(p.Path, p)
		}
	}
	return httptest.NewServer(mux)
}

// Wget crawls url recursively, one level deep, with GNU Wget's
// --warc-file, and returns the WARC file it wrote in dir: crawl.warc.gz (one
// gzip member per record, wget's default), or crawl.warc if compress is
// false (--no-warc-compression). It skips the test if there is no wget
// with --warc-file.
func Wget(t testing.TB, url, dir string, compress bool) string {
	t.Helper()
	wget, err := exec.LookPath("wget")
	if err != nil {
		t.Skip("wget not found: the test of WARC files written by wget needs GNU Wget with --warc-file")
	}
	if out, err := exec.Command(wget, "--help").CombinedOutput(); err != nil || !bytes.Contains(out, []byte("--warc-file")) {
		t.Skip("this wget has no --warc-file option")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := []string{"--warc-file=" + filepath.Join(dir, "crawl"), "--recursive", "--level=1", "--no-verbose",
		"-e", "robots=off", "--tries=1", "--timeout=10", "--directory-prefix=" + filepath.Join(dir, "files")}
	if !compress {
		args = append(args, "--no-warc-compression")
	}
	cmd := exec.CommandContext(ctx, wget, append(args, url)...)
	cmd.Env = append(os.Environ(), "LC_ALL=C", "http_proxy=", "https_proxy=", "no_proxy=*")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	// Exit status 8 means the server answered an error (a 404 page).
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 8) {
		t.Fatalf("wget: %v\n%s", err, out)
	}
	name := "crawl.warc"
	if compress {
		name += ".gz"
	}
	return filepath.Join(dir, name)
}
