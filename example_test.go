package charsniff_test

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/charsniff/charsniff"
	"github.com/charsniff/charsniff/internal/warctest"
)

func ExampleNewReader() {
	// A windows-1252 page that says so in a <meta>, with CR LF line ends.
	page := "<meta charset=windows-1252>\r\n<p>Gar\xE7on, un caf\xE9 !\r\n"
	r, err := charsniff.NewReader(strings.NewReader(page), "text/html")
	if err != nil {
		log.Fatal(err)
	}
	text, err := io.ReadAll(r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", text)
	// Output:
	// "<meta charset=windows-1252>\n<p>Garçon, un café !\n"
}

// ExampleNewResponseReader fetches pages as a crawler does, with net/http,
// wraps each body in NewResponseReader (the Content-Type header is the
// transport layer's word on the encoding) and parses the UTF-8 it yields
// with golang.org/x/net/html. The server is the test site that
// warc/testdata/wget.warc.gz was crawled from: /sjis.html declares
// Shift_JIS in its header only, /gbk.html GBK in a <meta> only, and
// /cp1251.html windows-1251 in a <meta>, gzip-encoded on the wire (the
// http.Client asks for gzip and undoes it).
func ExampleNewResponseReader() {
	srv := warctest.NewSite(warctest.Site)
	defer srv.Close()

	for _, path := range []string{"/sjis.html", "/gbk.html", "/cp1251.html"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			log.Fatal(err)
		}
		r, err := charsniff.NewResponseReader(resp)
		if err != nil {
			log.Fatal(err)
		}
		doc, err := html.Parse(r)
		resp.Body.Close()
		if err != nil {
			log.Fatal(err)
		}
		res := r.Result() // final once the document is read
		fmt.Printf("%s %s (%s, %s): %s\n", path, res.Name(), res.Confidence, res.Source, title(doc))
	}
	// Output:
	// /sjis.html Shift_JIS (certain, transport): 日本語のページ
	// /gbk.html GBK (tentative, prescan): 中文网页
	// /cp1251.html windows-1251 (tentative, prescan): Русская страница
}

// ExampleNewResponseReader_compressed fetches with the crawler's own
// Accept-Encoding, so net/http leaves the body compressed:
// NewResponseReader decompresses it before sniffing, and takes the URL's
// host as a hint: an undeclared page on a .ru host, whose first 1024 bytes
// are ASCII, is shown to the detector at its first Cyrillic bytes, as a
// browser does.
func ExampleNewResponseReader_compressed() {
	page := "<title>News</title><!--" + strings.Repeat(" ", 1024) + "--><p>\xcd\xee\xe2\xee\xf1\xf2\xe8"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, page)
		zw.Close()
	}))
	defer srv.Close()

	// The test server stands in for example.ru.
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		return new(net.Dialer).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	client := &http.Client{Transport: &http.Transport{DialContext: dial}}

	req, _ := http.NewRequest("GET", "http://example.ru/news", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	resp, err := client.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	r, err := charsniff.NewResponseReader(resp)
	if err != nil {
		log.Fatal(err)
	}
	text, _ := io.ReadAll(r)
	res := r.Result()
	fmt.Printf("%s (%s, %s): %s\n", res.Name(), res.Confidence, res.Source, text[len(text)-17:])
	// Output:
	// windows-1251 (tentative, autodetect): <p>Новости
}

func ExampleLookup() {
	for _, label := range []string{"latin1", "SJIS", " utf-16 ", "x-unknown"} {
		_, name := charsniff.Lookup(label)
		fmt.Printf("%q -> %q\n", label, name)
	}
	e, _ := charsniff.Lookup("latin1")
	s, _ := e.NewDecoder().String("caf\xE9 \x80")
	fmt.Println(s)
	b, _ := e.NewEncoder().String("café €5, 東京")
	fmt.Printf("%q\n", b)
	// Output:
	// "latin1" -> "windows-1252"
	// "SJIS" -> "shift_jis"
	// " utf-16 " -> "utf-16le"
	// "x-unknown" -> ""
	// café €
	// "caf\xe9 \x805, &#26481;&#20140;"
}

func ExampleDetermineEncoding() {
	_, name, certain := charsniff.DetermineEncoding([]byte(`<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">`), "")
	fmt.Println(name, certain)
	_, name, certain = charsniff.DetermineEncoding([]byte("<p>x"), "text/html; charset=EUC-KR")
	fmt.Println(name, certain)
	// Output:
	// koi8-r false
	// euc-kr true
}

// title returns the text of the document's <title>.
func title(doc *html.Node) string {
	for n := range doc.Descendants() {
		if n.DataAtom == atom.Title && n.FirstChild != nil {
			return n.FirstChild.Data
		}
	}
	return ""
}
