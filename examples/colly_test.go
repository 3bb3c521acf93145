package examples_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gocolly/colly/v2"

	"github.com/charsniff/charsniff"
)

// Example_colly plugs charsniff.Transport into a colly collector. colly
// converts a body only when the Content-Type header names a charset, and
// ignores <meta>; with the Transport every HTML page reaches colly in
// UTF-8, and its Content-Type says "charset=utf-8", so colly converts
// nothing again (no double decoding). Keep colly's own charset handling
// off: DetectCharset false (the default), and no
// Request.ResponseCharacterEncoding, which would force a conversion of
// the UTF-8 text.
func Example_colly() {
	pages := map[string]struct{ contentType, body string }{
		// Declared in the header only: colly could convert this one itself.
		"/sjis": {"text/html; charset=Shift_JIS", "<title>\x93\xfa\x96{\x8c\xea</title>"},
		// Declared in a <meta> only: colly alone would pass the bytes on.
		"/euckr": {"text/html", "<meta charset=euc-kr><title>\xba\xed\xb7\xce\xb1\xd7</title>"},
		// gzip on the wire, asked for by the crawler itself.
		"/cp1252": {"text/html", "<meta charset=windows-1252><title>Caf\xe9 cr\xe8me</title>"},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	defer srv.Close()

	c := colly.NewCollector()
	c.DetectCharset = false // charsniff decides; colly's chardet would guess again
	c.WithTransport(&charsniff.Transport{})
	c.OnRequest(func(r *colly.Request) {
		if r.URL.Path == "/cp1252" {
			r.Headers.Set("Accept-Encoding", "gzip, deflate, br, zstd")
		}
	})
	c.OnResponse(func(r *colly.Response) {
		fmt.Printf("%s %q: ", r.Request.URL.Path, r.Headers.Get("Content-Type"))
	})
	c.OnHTML("title", func(e *colly.HTMLElement) {
		fmt.Println(e.Text)
	})
	for _, path := range []string{"/sjis", "/euckr", "/cp1252"} {
		if err := c.Visit(srv.URL + path); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// /sjis "text/html; charset=utf-8": 日本語
	// /euckr "text/html; charset=utf-8": 블로그
	// /cp1252 "text/html; charset=utf-8": Café crème
}
