package fuzz

import (
	"bytes"
	"testing"

	"github.com/charsniff/charsniff/internal/reference"
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
		wantEnc, wantOff := reference.TokenizerMeta(in)
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
