package examples_test

import (
	"fmt"

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
// the UTF-8 text. colly hands its callbacks the headers, not the body
// the Transport made, so the Transport's decision reaches them in the
// Charsniff-Encoding header (charsniff.ResultHeader).
func Example_colly() {
	srv := site() // /euckr.html declared in the header, /gbk.html in a <meta>, /cp1251.html gzip
	defer srv.Close()

	c := colly.NewCollector()
	c.DetectCharset = false // charsniff decides; colly's chardet would guess again
	c.WithTransport(&charsniff.Transport{})
	c.OnRequest(func(r *colly.Request) {
		if r.URL.Path == "/cp1251.html" { // gzip asked for by the crawler itself: net/http leaves it
			r.Headers.Set("Accept-Encoding", "gzip, deflate, br, zstd")
		}
	})
	c.OnResponse(func(r *colly.Response) {
		fmt.Printf("%s %q (%s): ", r.Request.URL.Path, r.Headers.Get("Content-Type"), r.Headers.Get(charsniff.ResultHeader))
	})
	c.OnHTML("title", func(e *colly.HTMLElement) {
		fmt.Println(e.Text)
	})
	for _, path := range []string{"/euckr.html", "/gbk.html", "/cp1251.html"} {
		if err := c.Visit(srv.URL + path); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// /euckr.html "text/html; charset=utf-8" (euc-kr; confidence=certain; source=transport): 한국어 페이지
	// /gbk.html "text/html; charset=utf-8" (gbk; confidence=tentative; source=prescan): 中文网页
	// /cp1251.html "text/html; charset=utf-8" (windows-1251; confidence=tentative; source=prescan): Русская страница
}
