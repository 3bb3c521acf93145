package override_test

import (
	"fmt"

	"github.com/charsniff/charsniff/override"
)

func ExampleLookup() {
	for _, label := range []string{" Latin1 ", "sjis", "iso-2022-kr", "utf-7", "\u212Aoi8-r"} {
		e, ok := override.Lookup(label)
		fmt.Printf("%+q: %q %v\n", label, e.Name(), ok)
	}
	// Output:
	// " Latin1 ": "windows-1252" true
	// "sjis": "Shift_JIS" true
	// "iso-2022-kr": "replacement" true
	// "utf-7": "" false
	// "\u212aoi8-r": "" false
}

func ExampleLookupLegacy() {
	for _, label := range []string{"g.b.2312(80)", "ISO_8859-1:1987", "x-x-big5", "UTF-32"} {
		e, ok := override.LookupLegacy(label)
		fmt.Printf("%+q: %q %v\n", label, e.Name(), ok)
	}
	// Output:
	// "g.b.2312(80)": "GBK" true
	// "ISO_8859-1:1987": "windows-1252" true
	// "x-x-big5": "Big5" true
	// "UTF-32": "" false
}

func ExampleEncoding() {
	e, _ := override.Lookup("utf-16")
	switch {
	case e.IsUTF16():
		fmt.Println(e, "is UTF-16")
	case e.ASCIICompatible():
		fmt.Println(e, "keeps ASCII as ASCII")
	}
	// Output: UTF-16LE is UTF-16
}
