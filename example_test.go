package charsniff_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/charsniff/charsniff"
)

func ExampleNewReader() {
	// A windows-1252 page that says so in a <meta>, with CR LF line ends.
	page := "<meta charset=windows-1252>\r\n<p>Gar\xE7on, un caf\xE9 !\r\n"
	r, err := charsniff.NewReader(strings.NewReader(page), "text/html")
	if err != nil {
		log.Fatal(err)
	}
	text, err := io.ReadAll(r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", text)
	// Output:
	// "<meta charset=windows-1252>\n<p>Garçon, un café !\n"
}

func ExampleNewResponseReader() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=Shift_JIS")
		io.WriteString(w, "<p>\x93\xFA\x96\x7B\x8C\xEA</p>") // 日本語 in Shift_JIS
	}))
	defer srv.Close()

	resp, err := http.Get(srv.URL)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	r, err := charsniff.NewResponseReader(resp)
	if err != nil {
		log.Fatal(err)
	}
	res := r.Result()
	fmt.Println(res.Name(), res.Confidence, res.Source)
	text, _ := io.ReadAll(r)
	fmt.Println(string(text))
	// Output:
	// Shift_JIS certain transport
	// <p>日本語</p>
}

func ExampleLookup() {
	for _, label := range []string{"latin1", "SJIS", " utf-16 ", "x-unknown"} {
		_, name := charsniff.Lookup(label)
		fmt.Printf("%q -> %q\n", label, name)
	}
	e, _ := charsniff.Lookup("latin1")
	s, _ := e.NewDecoder().String("caf\xE9 \x80")
	fmt.Println(s)
	b, _ := e.NewEncoder().String("café €5, 東京")
	fmt.Printf("%q\n", b)
	// Output:
	// "latin1" -> "windows-1252"
	// "SJIS" -> "shift_jis"
	// " utf-16 " -> "utf-16le"
	// "x-unknown" -> ""
	// café €
	// "caf\xe9 \x805, &#26481;&#20140;"
}

func ExampleDetermineEncoding() {
	_, name, certain := charsniff.DetermineEncoding([]byte(`<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">`), "")
	fmt.Println(name, certain)
	_, name, certain = charsniff.DetermineEncoding([]byte("<p>x"), "text/html; charset=EUC-KR")
	fmt.Println(name, certain)
	// Output:
	// koi8-r false
	// euc-kr true
}
