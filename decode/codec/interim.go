package codec

// This file is interim: until the WHATWG decoders of this package land, the
// decoders and single-byte tables come from x/text, which is not byte-exact
// with the standard. It will be deleted.

import (
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/override"
)

// newDecoder returns a new decoder transformer for e, which must be valid.
func newDecoder(e override.Encoding) transform.Transformer {
	switch e {
	case override.Replacement:
		return encoding.Replacement.NewDecoder().Transformer
	case override.XUserDefined:
		return charmap.XUserDefined.NewDecoder().Transformer
	}
	return codecs[e].xtext.NewDecoder().Transformer
}

var singleByteTables = func() (t [override.XMacCyrillic - override.IBM866 + 1]*[128]rune) {
	for e := override.IBM866; e <= override.XMacCyrillic; e++ {
		var tab [128]rune
		var cm *charmap.Charmap
		if e == override.ISO8859_8I {
			cm = charmap.ISO8859_8
		} else {
			cm = codecs[e].xtext.(*charmap.Charmap)
		}
		for i := range tab {
			tab[i] = cm.DecodeByte(byte(0x80 + i))
		}
		t[e-override.IBM866] = &tab
	}
	return t
}()

func newReplacementEncoder() transform.Transformer  { return encoding.Replacement.NewEncoder() }
func newXUserDefinedEncoder() transform.Transformer { return charmap.XUserDefined.NewEncoder() }
