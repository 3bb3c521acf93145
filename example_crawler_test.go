package charsniff_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/charsniff/charsniff"
)

// Example_crawler fetches pages as a crawler does, with net/http, wraps each
// body in charsniff.NewResponseReader (the Content-Type header is the
// transport layer's word on the encoding) and parses the UTF-8 it yields
// with golang.org/x/net/html.
func Example_crawler() {
	// A small site: one page declares its encoding in the HTTP header, one
	// in a <meta>, and one in a <meta> and gzip-encoded on the wire (the
	// http.Client asks for gzip and undoes it).
	site := map[string]struct{ contentType, page string }{
		"/ja": {"text/html; charset=Shift_JIS", "<title>\x93\xfa\x96{\x8c\xea\x82\xcc\x83y\x81[\x83W</title>"},
		"/ru": {"text/html", `<meta charset="windows-1251"><title>` + "\xcd\xee\xe2\xee\xf1\xf2\xe8" + "</title>"},
		"/fr": {"text/html", "<meta charset=windows-1252><title>Caf\xe9 cr\xe8me</title>"},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := site[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", p.contentType)
		if r.URL.Path == "/fr" && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			io.WriteString(zw, p.page)
			zw.Close()
			return
		}
		io.WriteString(w, p.page)
	}))
	defer srv.Close()

	for _, path := range []string{"/ja", "/ru", "/fr"} {
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
		res := r.Result()
		fmt.Printf("%s %s (%s): %s\n", path, res.Name(), res.Source, title(doc))
	}
	// Output:
	// /ja Shift_JIS (transport): 日本語のページ
	// /ru windows-1251 (prescan): Новости
	// /fr windows-1252 (prescan): Café crème
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
