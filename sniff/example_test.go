package sniff_test

import (
	"fmt"

	"github.com/charsniff/charsniff/sniff"
)

func ExampleSniff() {
	head := []byte(`<!DOCTYPE html><html><head><meta charset="shift_jis"><title>...`)

	// No transport-layer charset: the prescan decides, tentatively.
	r := sniff.Sniff(head, nil)
	fmt.Println(r.Name(), r.Confidence, r.Source)

	// A Content-Type charset is certain and beats the <meta>.
	r = sniff.Sniff(head, &sniff.Options{ContentType: `text/html; charset="EUC-JP"`})
	fmt.Println(r.Name(), r.Confidence, r.Source)

	// Nothing declared: the locale's default.
	r = sniff.Sniff([]byte("<p>hello"), &sniff.Options{Locale: "ru-RU", AtEOF: true})
	fmt.Println(r.Name(), r.Confidence, r.Source)
	// Output:
	// Shift_JIS tentative prescan
	// EUC-JP certain transport
	// windows-1251 tentative default
}

func ExampleContentTypeCharset() {
	for _, ct := range []string{
		`text/html; charset=utf-8`,
		`text/html;charset="utf-8`,             // an unterminated quote runs to the end
		`text/html; charset=gbk; charset=big5`, // the first wins
		`text/html;;charset='gbk'`,             // single quotes do not quote
		`text/html`,
	} {
		charset, ok := sniff.ContentTypeCharset(ct)
		fmt.Printf("%q %v\n", charset, ok)
	}
	// Output:
	// "utf-8" true
	// "utf-8" true
	// "gbk" true
	// "'gbk'" true
	// "" false
}

func ExampleDefaultEncoding() {
	for _, hint := range []string{"ja-JP", "zh-TW", ".ru", "uk", ".uk", "fr"} {
		fmt.Println(hint, sniff.DefaultEncoding(hint))
	}
	// Output:
	// ja-JP Shift_JIS
	// zh-TW Big5
	// .ru windows-1251
	// uk windows-1251
	// .uk windows-1252
	// fr windows-1252
}
