package codec_test

import (
	"fmt"

	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/override"
)

func ExampleEncoding() {
	e, _ := override.Lookup("latin1") // windows-1252 in the Encoding Standard
	dec := codec.Encoding(e).NewDecoder()
	s, _ := dec.String("Gar\xe7on \x80\x81")
	fmt.Printf("%q\n", s)

	sjis, _ := override.Lookup("shift_jis")
	s, _ = codec.Encoding(sjis).NewDecoder().String("\x93\xfa\x96\x7b\xf0\x40")
	fmt.Printf("%q\n", s)
	// Output:
	// "Garçon €\u0081"
	// "日本\ue000"
}
