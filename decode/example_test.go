package decode_test

import (
	"fmt"
	"io"
	"log"
	"strings"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
)

func ExampleNewReader() {
	page := "<!doctype html><meta charset=koi8-r><p>\xF0\xD2\xC9\xD7\xC5\xD4\r\n"
	r, err := decode.NewReader(strings.NewReader(page), decode.WithContentType("text/html"))
	if err != nil {
		log.Fatal(err)
	}
	res := r.Result()
	fmt.Println(res.Name(), res.Confidence, res.Source)
	text, _ := io.ReadAll(r)
	fmt.Printf("%q\n", text)
	// Output:
	// KOI8-R tentative prescan
	// "<!doctype html><meta charset=koi8-r><p>Привет\n"
}

func ExampleReader_ResetWith() {
	// One Reader for many responses, each with its own Content-Type.
	responses := []struct{ contentType, body string }{
		{"text/html; charset=windows-1251", "<p>\xCF\xF0\xE8\xE2\xE5\xF2"},
		{"text/html", "<meta charset=shift_jis><p>\x93\xfa\x96\x7b"},
	}
	var r decode.Reader
	for _, resp := range responses {
		if err := r.ResetWith(strings.NewReader(resp.body), decode.WithContentType(resp.contentType)); err != nil {
			log.Fatal(err)
		}
		text, _ := io.ReadAll(&r)
		fmt.Println(r.Result().Name(), string(text))
	}
	// Output:
	// windows-1251 <p>Привет
	// Shift_JIS <meta charset=shift_jis><p>日本
}

func ExampleRaw() {
	page := "\xEF\xBB\xBFa\r\nb\x00"
	for _, opts := range [][]decode.Option{nil, {decode.Raw()}} {
		r, _ := decode.NewReader(strings.NewReader(page), opts...)
		text, _ := io.ReadAll(r)
		fmt.Printf("%+q\n", text)
	}
	// Output:
	// "a\nb\ufffd"
	// "\ufeffa\r\nb\x00"
}

func ExampleNewTransformer() {
	t := decode.NewTransformer(override.Windows1252)
	s, _, err := transform.String(t, "caf\xE9\r\nna\xEFve")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", s)
	// Output:
	// "café\nnaïve"
}
