package reference

import (
	"bytes"

	"golang.org/x/net/html"

	"github.com/charsniff/charsniff/override"
)

// TokenizerMeta is the oracle of the look-ahead's <meta> scan (prescan's
// tokenizer mode): the first <meta> start tag that golang.org/x/net/html's
// tokenizer emits in input whose attributes name an encoding under the
// prescan's rules, and the offset just past its >; Unknown and 0 if there
// is none. The attributes, as the tokenizer split them, are written out
// again as name="value" (or 'value') and given to Prescan, so the rules
// are the standard's own. A tag with an & is given to Prescan as it is
// instead: x/net decodes character references in values, the prescan's
// rules do not.
func TokenizerMeta(input []byte) (override.Encoding, int) {
	z := html.NewTokenizer(bytes.NewReader(input))
	off := 0
	var b []byte
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return override.Unknown, 0
		}
		off += len(z.Raw())
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		raw := append(b[:0], z.Raw()...)
		name, more := z.TagName()
		if string(name) != "meta" {
			continue
		}
		if bytes.IndexByte(raw, '&') < 0 {
			b = append(b[:0], "<meta"...)
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				b = append(b, ' ')
				b = append(b, k...)
				b = append(b, '=')
				b = appendQuoted(b, v)
			}
			raw = append(b, '>')
		}
		if r := Prescan(raw, -1, false); r.Source == "meta" {
			return r.Encoding, off
		}
	}
}

// appendQuoted appends v as an attribute value the prescan reads back as v:
// quoted with a quote it does not hold, or else (it holds both, so the
// tokenizer read it unquoted: no white space or > in it) unquoted.
func appendQuoted(b, v []byte) []byte {
	for _, q := range []byte{'"', '\''} {
		if bytes.IndexByte(v, q) < 0 {
			b = append(b, q)
			b = append(b, v...)
			return append(b, q)
		}
	}
	return append(b, v...)
}
