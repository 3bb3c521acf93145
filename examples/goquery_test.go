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
