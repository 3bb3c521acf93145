package charsniff_test

import (
	"fmt"
	"io"
	"log"
	"net/http"

	"golang.org/x/net/html"

	"github.com/charsniff/charsniff"
	"github.com/charsniff/charsniff/internal/warctest"
)

// ExampleTransport plugs charsniff into an http.Client: every HTML
// response comes back in UTF-8, whatever its encoding and wherever it is
// declared, with its Content-Type saying so. The server is the test site
// of ExampleNewResponseReader: /sjis.html declares Shift_JIS in its header,
// /cp1251.html windows-1251 in a <meta>, and /notes.txt is not HTML, so
// the Transport leaves it untouched.
func ExampleTransport() {
	srv := warctest.NewSite(warctest.Site)
	defer srv.Close()

	client := &http.Client{Transport: &charsniff.Transport{}} // Base: nil, http.DefaultTransport
	for _, path := range []string{"/sjis.html", "/cp1251.html", "/notes.txt"} {
		resp, err := client.Get(srv.URL + path)
		if err != nil {
			log.Fatal(err)
		}
		if res, ok := charsniff.ResponseResult(resp); ok {
			doc, err := html.Parse(resp.Body)
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf("%s: %q, %s from %s: %s\n", path, resp.Header.Get("Content-Type"), res.Name(), res.Source, title(doc))
		} else {
			body, _ := io.ReadAll(resp.Body)
			fmt.Printf("%s: %q: %q\n", path, resp.Header.Get("Content-Type"), body)
		}
		resp.Body.Close()
	}
	// Output:
	// /sjis.html: "text/html; charset=utf-8", Shift_JIS from transport: 日本語のページ
	// /cp1251.html: "text/html; charset=utf-8", windows-1251 from prescan: Русская страница
	// /notes.txt: "text/plain; charset=us-ascii": "Not HTML.\n"
}
