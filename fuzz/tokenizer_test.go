package fuzz

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"

	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
)

// FuzzTokenizerMeta checks the <meta> scan in tokenizer mode (the
// look-ahead's, prescan.Options.Tokenizer) against golang.org/x/net/html's
// tokenizer: the first <meta> start tag the tokenizer emits whose
// attributes name an encoding under the prescan's rules is the one the
// scan finds (same encoding, same offset past its >), for the input in one
// piece and in the fuzzer's chunks.
//
// x/net leaves the standard in one state, script data escaped less-than
// sign (a byte other than / or a letter goes back to script data; the
// standard stays escaped); prescan's own TestTokenizerDifferential shows
// that this is the only difference. Here an input where x/net may take that
// path (a <!- after which comes a < followed by neither / nor a letter)
// may differ. A <meta> tag with an & is judged on its raw bytes: x/net
// decodes character references in attribute values, the prescan's rules
// do not.
func FuzzTokenizerMeta(f *testing.F) {
	for _, s := range []string{
		"<script>'<meta charset=iso-8859-2>'</script><meta charset=koi8-r>",
		"<style></style a='>'><meta charset=gbk>",
		"<script><!--<script></script><meta charset=big5></script><meta charset=euc-kr>",
		"<!-- --!><meta charset=shift_jis>-->",
		"<title></TITLE\f><meta http-equiv=content-type content='charset=euc-jp'>",
		"<plaintext><meta charset=koi8-u>",
		"<a/x=\"y><meta charset=gb18030>\"><meta charset=iso-8859-5>",
		"<noscript><meta charset=koi8-r></noscript ><meta charset=windows-1251>",
	} {
		f.Add([]byte(s), []byte{3, 1, 200})
	}
	f.Fuzz(func(t *testing.T, in, chunks []byte) {
		wantEnc, wantOff := xnetMeta(in)
		var s prescan.Scanner
		s.Reset(&prescan.Options{Window: -1, Tokenizer: true})
		s.Feed(in)
		whole := s.Close()
		s.Reset(&prescan.Options{Window: -1, Tokenizer: true})
		feedChunks(in, chunks, func(c []byte) { s.Feed(c) })
		if got := s.Close(); got != whole {
			t.Fatalf("%q in chunks %v: %+v, in one piece %+v", in, chunks, got, whole)
		}
		if whole.Rule != prescan.Meta {
			whole = prescan.Result{}
		}
		if (whole.Encoding != wantEnc || whole.Offset != wantOff) && !xnetEscapeMayMatter(in) {
			t.Fatalf("%q: scan finds %v ending at %d, x/net's tokenizer %v ending at %d", in, whole.Encoding, whole.Offset, wantEnc, wantOff)
		}
	})
}

// xnetEscapeMayMatter reports whether x/net's script data escaped
// less-than sign may take its non-standard path in b: a < followed by
// neither / nor a letter after a <!-.
func xnetEscapeMayMatter(b []byte) bool {
	i := bytes.Index(b, []byte("<!-"))
	if i < 0 {
		return false
	}
	for b = b[i+3:]; ; {
		j := bytes.IndexByte(b, '<')
		if j < 0 || j+1 >= len(b) {
			return false
		}
		if c := b[j+1] | 0x20; c != '/' && (c < 'a' || c > 'z') {
			return true
		}
		b = b[j+1:]
	}
}

// xnetMeta is the first <meta> start tag x/net's tokenizer emits in in
// whose attributes, written out again and given to the prescan (the tag's
// raw bytes if it holds an &), name an encoding, and the offset just past
// its >.
func xnetMeta(in []byte) (override.Encoding, int) {
	z := html.NewTokenizer(bytes.NewReader(in))
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
		if name, more := z.TagName(); string(name) == "meta" {
			if bytes.IndexByte(raw, '&') >= 0 {
				// x/net decodes character references; the tag as it is.
				if r := prescan.Prescan(raw, &prescan.Options{Window: -1}); r.Rule == prescan.Meta {
					return r.Encoding, off
				}
				continue
			}
			b = append(b[:0], "<meta"...)
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				b = append(b, ' ')
				b = append(b, k...)
				b = append(b, '=')
				b = appendQuoted(b, v)
			}
			b = append(b, '>')
			if r := prescan.Prescan(b, &prescan.Options{Window: -1}); r.Rule == prescan.Meta {
				return r.Encoding, off
			}
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
