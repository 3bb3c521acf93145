package decode_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// TestLateMetaAsParsed checks that the look-ahead acts only on a <meta>
// start tag the parser's tokenizer meets (issue 24): not on one in the text
// of a raw text or RCDATA element, in script data (escapes included) or
// after <plaintext>; and that while the confidence is tentative the first
// such <meta> decides, also after the window's prescan chose an encoding
// from a <meta> the parser never meets.
func TestLateMetaAsParsed(t *testing.T) {
	pad := strings.Repeat("x", 1258)
	const (
		m2    = "<meta charset=iso-8859-2>"
		koi   = "<meta charset=koi8-r>"
		text  = "<p>\xB1\xC1\xE9</p>" // different in each of the three encodings
		w1252 = override.Windows1252
		iso2  = override.ISO8859_2
		koi8r = override.KOI8R
	)
	type want struct {
		enc  override.Encoding
		conf sniff.Confidence
		src  sniff.Source
		late decode.Change
	}
	none := want{w1252, sniff.Tentative, sniff.SourceDefault, decode.Change{}}
	at := func(doc, end string) int64 { return int64(strings.Index(doc, end) + len(end)) }
	switched := func(from, to override.Encoding, off int64) want {
		return want{to, sniff.Certain, sniff.SourcePrescan, decode.Change{Kind: decode.SwitchedOnTheFly, From: from, To: to, Offset: off}}
	}
	type tcase struct {
		desc string
		doc  string
		want want
	}
	var tests []tcase
	for _, el := range []string{"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"} {
		in := pad + "<" + el + ">'" + m2 + "'"
		tests = append(tests, tcase{el, in + "</" + el + ">" + text, none})
		doc := in + "</" + strings.ToUpper(el) + " >" + koi + text
		tests = append(tests, tcase{el + " then a real <meta>", doc, switched(w1252, koi8r, at(doc, koi))})
	}
	doc := "<script>var s = '" + m2 + "';</script>" + pad + koi + text
	docSame := "<script>var s = '" + m2 + "';</script>" + pad + m2 + text
	docHeld := "<script>var s = '" + m2 + "';</script>\xB1" + pad + koi + text
	docEsc := pad + "<script><!--<script>" + m2 + "</script>" + text + "</script>" + koi + text
	docComment := "<!-- --!>" + koi + "-->" + text
	docEarlier := "<!-- --!>" + koi + "-->" + m2 + text
	tests = append(tests, []tcase{
		{"after <plaintext>", pad + "<plaintext>" + m2 + text, none},
		{"<plaintext> ends at nothing", pad + "<plaintext></plaintext>" + m2 + text, none},
		{"double escaped script", docEsc, switched(w1252, koi8r, int64(strings.IndexByte(docEsc, 0xB1)))},
		{"script data escaped only", pad + "<script><!--" + m2 + "-->" + text, none},
		// The window's prescan chose iso-8859-2 from a <meta> in a
		// script; the parser meets koi8-r's first.
		{"prescan's <meta> in a script, then another", doc, switched(iso2, koi8r, at(doc, koi))},
		{"prescan's <meta> in a script, then the same encoding", docSame,
			want{iso2, sniff.Certain, sniff.SourcePrescan, decode.Change{Kind: decode.SameEncoding, From: iso2, To: iso2, Offset: int64(strings.LastIndex(docSame, m2) + len(m2))}}},
		{"prescan's <meta> in a script, non-ASCII first", docHeld, switched(iso2, koi8r, int64(strings.IndexByte(docHeld, 0xB1)))},
		{"prescan's <meta> in a script, nothing else", "<script>'" + m2 + "'</script>" + pad + text,
			want{iso2, sniff.Tentative, sniff.SourcePrescan, decode.Change{}}},
		{"prescan's <meta> is the parser's", m2 + pad + koi + text, want{iso2, sniff.Tentative, sniff.SourcePrescan, decode.Change{}}},
		// The prescan's comment ends at -->, the tokenizer's at --!>.
		{"a <meta> the prescan misses", docComment, switched(w1252, koi8r, at(docComment, koi))},
		// The prescan finds iso-8859-2 after that comment; the parser meets
		// koi8-r's <meta> first.
		{"a <meta> before the prescan's", docEarlier, switched(iso2, koi8r, at(docEarlier, koi))},
	}...)
	for _, tc := range tests {
		for _, src := range chunkings {
			r, err := decode.NewReader(src.Wrap(strings.NewReader(tc.doc)), noAutodetect)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			res := r.Result()
			if g := (want{res.Encoding, res.Confidence, res.Source, res.Late}); g != tc.want {
				t.Errorf("%s, %s: Result() = %+v, want %+v", tc.desc, src.Name, g, tc.want)
				continue
			}
			in := []byte(tc.doc)
			var wantOut []byte
			if l := tc.want.late; l.Kind == decode.SwitchedOnTheFly {
				wantOut = append(refDecode(t, l.From, in[:l.Offset], false, full, true), refDecode(t, l.To, in[l.Offset:], false, full, true)...)
			} else {
				wantOut = refDecode(t, tc.want.enc, in, false, full, true)
			}
			if !bytes.Equal(got, wantOut) {
				t.Errorf("%s, %s: output ends %q, want %q", tc.desc, src.Name, tail(got), tail(wantOut))
			}
		}
	}
}

// TestLateMetaTree checks that the look-ahead meets the <meta> a tree
// builder meets (issue 31): in SVG and MathML, style, script and title are
// ordinary elements and a <meta> breaks out of them; a CDATA section there
// is text; a <meta> in or after an accepted <frameset> is ignored; and of a
// <meta> with a bogus charset, the content attribute with
// http-equiv=content-type decides. Each document follows an ASCII head of
// more than the window that declares nothing, so the change is a late one.
func TestLateMetaTree(t *testing.T) {
	const (
		m2    = "<meta charset=iso-8859-2>"
		koi   = "<meta charset=koi8-r>"
		text  = "<p>\xB1\xC1\xE9</p>"
		iso2  = override.ISO8859_2
		koi8r = override.KOI8R
		none  = override.Unknown
	)
	textPad := strings.Repeat("x", 1100)
	commentPad := "<!--" + strings.Repeat("x", 1100) + "-->"
	for _, tc := range []struct {
		pad, doc string
		want     override.Encoding // the late switch's encoding; Unknown for none
	}{
		{textPad, "<svg><style>" + m2 + "</style></svg>" + text, iso2},
		{textPad, "<svg><script>" + m2 + "</script></svg>" + text, iso2},
		{textPad, "<svg><title>" + m2 + "</title></svg>" + text, iso2},
		{textPad, "<math><style>" + m2 + "</style></math>" + text, iso2},
		{textPad, "<svg><![CDATA[ " + m2 + " ]]></svg>" + koi + text, koi8r},
		{textPad, "<math><![CDATA[ > " + m2 + " ]]></math>" + koi + text, koi8r},
		{textPad, "<svg><![CDATA[ " + m2 + " ]]></svg>" + text, none},
		{textPad, "<svg></svg><style>" + m2 + "</style>" + koi + text, koi8r},
		{textPad, "<svg/><style>" + m2 + "</style>" + koi + text, koi8r},
		{textPad, "<svg><foreignObject><style>" + m2 + "</style>" + koi + text, koi8r},
		{textPad, "<math><mi><style>" + m2 + "</style>" + koi + text, koi8r},
		{commentPad, "<frameset>" + m2 + text, none},
		{commentPad, "<frameset></frameset>" + m2 + text, none},
		{textPad, "<frameset>" + m2 + text, iso2}, // the text made frameset-ok "not ok"
		{textPad, `<meta charset=bogus http-equiv=content-type content="text/html;charset=iso-8859-2">` + text, iso2},
		{textPad, `<meta charset=bogus content="text/html;charset=iso-8859-2">` + koi + text, koi8r},
	} {
		doc := tc.pad + tc.doc
		for _, src := range chunkings {
			r, err := decode.NewReader(src.Wrap(strings.NewReader(doc)), noAutodetect)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.ReadAll(r); err != nil {
				t.Fatal(err)
			}
			late := r.Result().Late
			switch {
			case tc.want == none && late.Kind != decode.NoChange:
				t.Errorf("%q, %s: Late = %+v, want no change", tc.doc, src.Name, late)
			case tc.want != none && (late.Kind != decode.SwitchedOnTheFly || late.To != tc.want):
				t.Errorf("%q, %s: Late = %+v, want a switch to %v", tc.doc, src.Name, late, tc.want)
			}
		}
	}
}
