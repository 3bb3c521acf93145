package examples_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"github.com/charsniff/charsniff"
)

// shop is the test site of the examples: pages in legacy encodings, which
// goquery and colly (through golang.org/x/net/html) would read as UTF-8.
// /ja and /ru declare theirs only in a <meta>, /kr only in the header. A
// request whose Accept-Encoding names br, as a crawler's own does (net/http's
// says gzip only, and undoes it), gets the page gzip-encoded.
func shop() *httptest.Server {
	pages := map[string]struct{ contentType, body string }{
		// Shift_JIS: 日本語のページ / 価格: 千円
		"/ja": {"text/html", "<meta charset=shift_jis><title>\x93\xfa\x96{\x8c\xea\x82\xcc\x83y\x81[\x83W</title>" +
			"<p class=price>\x89\xbf\x8ai: \x90\xe7\x89~</p>"},
		// windows-1251: Новости / Цена: 100 ₽ is not in windows-1251, so "руб."
		"/ru": {"text/html", "<meta http-equiv=Content-Type content='text/html; charset=windows-1251'>" +
			"<title>\xcd\xee\xe2\xee\xf1\xf2\xe8</title><p class=price>\xd6\xe5\xed\xe0: 100 \xf0\xf3\xe1.</p>"},
		// EUC-KR: 블로그
		"/kr": {"text/html; charset=EUC-KR", "<title>\xba\xed\xb7\xce\xb1\xd7</title>"},
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := pages[r.URL.Path]
		w.Header().Set("Content-Type", p.contentType)
		if strings.Contains(r.Header.Get("Accept-Encoding"), "br") {
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			io.WriteString(zw, p.body)
			zw.Close()
			return
		}
		io.WriteString(w, p.body)
	}))
}

// Example_goqueryTransport gives goquery UTF-8 through a client whose
// Transport is charsniff's: nothing else changes in the scraper.
func Example_goqueryTransport() {
	srv := shop()
	defer srv.Close()
	client := &http.Client{Transport: &charsniff.Transport{}}

	for _, path := range []string{"/ja", "/ru"} {
		resp, err := client.Get(srv.URL + path)
		if err != nil {
			log.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(resp.Body)
		resp.Body.Close()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %s, %s\n", path, doc.Find("title").Text(), doc.Find(".price").Text())
	}
	// Output:
	// /ja: 日本語のページ, 価格: 千円
	// /ru: Новости, Цена: 100 руб.
}

// Example_goqueryResponseReader decodes one response with
// charsniff.NewResponseReader: two lines with any http.Client.
func Example_goqueryResponseReader() {
	srv := shop()
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/ja")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	r, err := charsniff.NewResponseReader(resp)
	if err != nil {
		log.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(doc.Find("title").Text(), r.Result().Name())
	// Output:
	// 日本語のページ Shift_JIS
}
