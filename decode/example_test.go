package decode_test

import (
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

func ExampleNewReader() {
	page := "<!doctype html><meta charset=koi8-r><p>\xF0\xD2\xC9\xD7\xC5\xD4\r\n"
	r, err := decode.NewReader(strings.NewReader(page), decode.WithSniff(sniff.Options{ContentType: "text/html"}))
	if err != nil {
		log.Fatal(err)
	}
	text, _ := io.ReadAll(r)
	fmt.Printf("%q\n", text)
	res := r.Result()
	fmt.Println(res.Name(), res.Confidence, res.Source)
	// Output:
	// "<!doctype html><meta charset=koi8-r><p>Привет\n"
	// KOI8-R tentative prescan
}

// A <meta> after the window: by default the Reader acts on it, as a
// browser's parser does; WithLookahead(0) is the window alone.
func ExampleWithLookahead() {
	page := "<title>" + strings.Repeat(" ", 2000) + "</title><meta charset=windows-1251><p>\xCF\xF0\xE8\xE2\xE5\xF2"
	for _, opts := range [][]decode.Option{nil, {decode.WithLookahead(0)}} {
		r, _ := decode.NewReader(strings.NewReader(page), opts...)
		text, _ := io.ReadAll(r)
		res := r.Result()
		fmt.Println(res.Name(), res.Source, res.Late.Kind, string(text[len(text)-15:]))
	}
	// Output:
	// windows-1251 prescan switched <p>Привет
	// windows-1252 default none <p>Ïðèâåò
}

func ExampleReader_Reset() {
	// One Reader for many responses, each with its own Content-Type.
	responses := []struct{ contentType, body string }{
		{"text/html; charset=windows-1251", "<p>\xCF\xF0\xE8\xE2\xE5\xF2"},
		{"text/html", "<meta charset=shift_jis><p>\x93\xfa\x96\x7b"},
	}
	var r decode.Reader
	for _, resp := range responses {
		if err := r.Reset(strings.NewReader(resp.body), decode.WithSniff(sniff.Options{ContentType: resp.contentType})); err != nil {
			log.Fatal(err)
		}
		text, _ := io.ReadAll(&r)
		fmt.Println(r.Result().Name(), string(text))
	}
	// Output:
	// windows-1251 <p>Привет
	// Shift_JIS <meta charset=shift_jis><p>日本
}

func ExampleWithoutPreprocessing() {
	page := "\xEF\xBB\xBFa\r\nb\x00"
	for _, opts := range [][]decode.Option{nil, {decode.WithoutPreprocessing()}} {
		r, _ := decode.NewReader(strings.NewReader(page), opts...)
		text, _ := io.ReadAll(r)
		fmt.Printf("%+q\n", text)
	}
	// Output:
	// "a\nb\ufffd"
	// "a\r\nb\x00"
}

func ExampleWithEncoding() {
	r, err := decode.NewReader(strings.NewReader("caf\xE9\r\nna\xEFve"),
		decode.WithEncoding(override.Windows1252))
	if err != nil {
		log.Fatal(err)
	}
	text, err := io.ReadAll(r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q %v\n", text, r.Result().Source)
	// Output:
	// "café\nnaïve" override
}
