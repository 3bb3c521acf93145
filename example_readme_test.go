package charsniff_test

// The README's snippets, each the body of a function here, so that go test
// compiles and runs them (TestDocsCodeBlocks checks that they stand here).

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"golang.org/x/net/html"

	"github.com/charsniff/charsniff"
	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/sniff"
)

// parseResponse is the README's http.Response snippet.
func parseResponse(resp *http.Response) (*html.Node, error) {
	r, err := charsniff.NewResponseReader(resp)
	if err != nil {
		return nil, err
	}
	doc, err := html.Parse(r)
	res := r.Result() // final once the document is read
	fmt.Println(res.Name(), res.Confidence, res.Source)
	return doc, err
}

// newClient is the README's Transport snippet.
func newClient() *http.Client {
	client := &http.Client{Transport: &charsniff.Transport{}}
	return client
}

// readerWithOptions is the README's options snippet.
func readerWithOptions(body io.Reader) (*decode.Reader, error) {
	r, err := decode.NewReader(body,
		decode.WithSniff(sniff.Options{ContentType: "text/html", TLD: "example.jp"}),
		decode.WithLookahead(256<<10)) // 256 KiB; 64 KiB by default
	return r, err
}

// listArchive is the README's WARC snippet.
func listArchive(f io.Reader) error {
	for rec, err := range archive.Records(f, archive.Options{File: "crawl.warc.gz"}) {
		if err != nil {
			return err
		}
		res := rec.Finish()
		fmt.Println(res.Offset, res.URI, res.Encoding.LowerName())
	}
	return nil
}

// Example_readme runs the README's snippets against a local server and the
// WARC file GNU Wget wrote of it.
func Example_readme() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		// A page whose <meta> comes after its first kilobyte: a browser
		// still acts on it.
		io.WriteString(w, "<title>News</title><!--"+strings.Repeat(" ", 1100)+"--><meta charset=windows-1251><h1>\xcd\xee\xe2\xee\xf1\xf2\xe8</h1>")
	}))
	defer srv.Close()

	resp, err := http.Get(srv.URL)
	if err != nil {
		log.Fatal(err)
	}
	doc, err := parseSwitched(resp)
	resp.Body.Close()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(doc.LastChild.LastChild.LastChild.FirstChild.Data) // html > body > h1 > text

	resp, err = http.Get(srv.URL)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := parseResponse(resp); err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()

	resp, err = newClient().Get(srv.URL)
	if err != nil {
		log.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	res, _ := charsniff.ResponseResult(resp)
	fmt.Println(resp.Header.Get("Content-Type"), "from", res.Name()+":", string(body[len(body)-23:]))

	r, err := readerWithOptions(strings.NewReader("<p>\x93\xfa\x96\x7b\x8c\xea"))
	if err != nil {
		log.Fatal(err)
	}
	text, _ := io.ReadAll(r)
	fmt.Println(r.Result().Name(), string(text))

	f, err := os.Open("warc/testdata/wget.warc.gz")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if err := listArchive(io.LimitReader(f, 3900)); err != nil {
		log.Fatal(err)
	}
	// Output:
	// Новости
	// windows-1251 certain prescan
	// text/html; charset=utf-8 from windows-1251: <h1>Новости</h1>
	// Shift_JIS <p>日本語
	// 893 http://127.0.0.1:41015/ utf-8
	// 1919 http://127.0.0.1:41015/sjis.html shift_jis
	// 2924 http://127.0.0.1:41015/gbk.html gbk
}
