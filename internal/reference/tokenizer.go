package reference

import (
	"bytes"

	"golang.org/x/net/html"

	"github.com/charsniff/charsniff/override"
)

// TokenizerMeta is the oracle of the look-ahead's <meta> scan (prescan's
// tokenizer mode): the first <meta> start tag that golang.org/x/net/html's
// tokenizer emits in input whose attributes name an encoding under the
// tree builder's rule (MetaEncoding), and the offset just past its >;
// Unknown and 0 if there is none. A tag with an & is given to Prescan as
// it is instead: x/net decodes character references in values, the scan
// does not. The tokenizer alone knows nothing of foreign content or
// frameset (TreeMeta does): it is the scan's oracle for input without
// them.
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
			var attrs []html.Attribute
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				attrs = append(attrs, html.Attribute{Key: string(k), Val: string(v)})
			}
			if e, ok := MetaEncoding(attrs, false); ok {
				return e, off
			}
			continue
		}
		if r := Prescan(raw, -1, false); r.Source == "meta" {
			return r.Encoding, off
		}
	}
}
