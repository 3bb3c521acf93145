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

	"github.com/charsniff/charsniff"
)

// ExampleTransport plugs charsniff into an http.Client: every HTML
// response comes back in UTF-8, whatever its encoding and wherever it is
// declared, with its Content-Type saying so.
func ExampleTransport() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ja": // Shift_JIS, declared in the header
			w.Header().Set("Content-Type", "text/html; charset=Shift_JIS")
			io.WriteString(w, "<title>\x93\xfa\x96{\x8c\xea</title>")
		case "/ru": // windows-1251, declared in a <meta>
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<meta charset=windows-1251><title>\xcd\xee\xe2\xee\xf1\xf2\xe8</title>")
		case "/data.json": // not HTML: untouched
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":true}`)
		}
	}))
	defer srv.Close()

	client := &http.Client{Transport: &charsniff.Transport{}} // Base: nil, http.DefaultTransport
	for _, path := range []string{"/ja", "/ru", "/data.json"} {
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
			fmt.Printf("%s: %q: %s\n", path, resp.Header.Get("Content-Type"), body)
		}
		resp.Body.Close()
	}
	// Output:
	// /ja: "text/html; charset=utf-8", Shift_JIS from transport: 日本語
	// /ru: "text/html; charset=utf-8", windows-1251 from prescan: Новости
	// /data.json: "application/json": {"ok":true}
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
