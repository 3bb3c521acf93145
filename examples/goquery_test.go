package examples_test

import (
	"fmt"
	"log"
	"net/http"

	"github.com/PuerkitoBio/goquery"

	"github.com/charsniff/charsniff"
)

// Example_goqueryTransport gives goquery UTF-8 through a client whose
// Transport is charsniff's: nothing else changes in the scraper.
func Example_goqueryTransport() {
	srv := site() // /sjis.html declared in the header, /gbk.html in a <meta>
	defer srv.Close()
	client := &http.Client{Transport: &charsniff.Transport{}}

	for _, path := range []string{"/sjis.html", "/gbk.html"} {
		resp, err := client.Get(srv.URL + path)
		if err != nil {
			log.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(resp.Body)
		resp.Body.Close()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %s, %s\n", path, doc.Find("title").Text(), doc.Find("p").Text())
	}
	// Output:
	// /sjis.html: 日本語のページ, 文字コードはHTTPヘッダーだけで宣言されています。
	// /gbk.html: 中文网页, 编码只在meta标签中声明。
}

// Example_goqueryResponseReader decodes one response with
// charsniff.NewResponseReader: two lines with any http.Client.
func Example_goqueryResponseReader() {
	srv := site()
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/cp1251.html")
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
	// Русская страница windows-1251
}
