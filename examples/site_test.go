package examples_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
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
