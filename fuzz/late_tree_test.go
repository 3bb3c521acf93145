package fuzz

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// treePads are the ASCII heads FuzzLateTree puts before its markup: more
// than the window, with no <meta>, so that the standard's "change the
// encoding" applies to the first <meta> the tree builder meets after them
// (the confidence is tentative, the <meta> within the look-ahead). Text
// makes the frameset-ok flag "not ok"; a comment or a <title> in the head
// leaves it "ok".
var treePads = [...]string{
	strings.Repeat("x", 1100),
	"<!--" + strings.Repeat("x", 1100) + "-->",
	"<head><title>" + strings.Repeat("x", 1100) + "</title></head>",
	strings.Repeat(" \n", 550),
}

// FuzzLateTree is the differential test of the look-ahead's late <meta>
// against a tree builder: for a head of treePads and any markup after it,
// the late switch of a decode.Reader (autodetection off, the default
// windows-1252) is the one that the first <meta> element in the HTML
// namespace of golang.org/x/net/html's html.Parse, with an encoding under
// the rule of "in head" (charset, else http-equiv and content), asks for
// (reference.TreeOracle): a change to that encoding, or none.
//
// Skipped, each a place where x/net's DOM is not the standard's answer or
// the scan knowingly reads otherwise: an & in the markup is made a # (x/net
// decodes character references in attribute values; the scan reads bytes,
// as the prescan does); input with a <template (x/net ignores the rest of
// the document after one met with foreign elements open), with a <table
// and more than one <meta> (foster parenting puts a later <meta> first in
// the document), or where x/net's script data escaped less-than sign may
// matter (xnetEscapeMayMatter; the scan follows the standard).
func FuzzLateTree(f *testing.F) {
	for i, s := range treeSeeds {
		f.Add(uint8(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, pad uint8, markup []byte) {
		if len(markup) > 16<<10 {
			return
		}
		markup = bytes.ReplaceAll(markup, []byte("&"), []byte("#"))
		in := append([]byte(treePads[int(pad)%len(treePads)]), markup...)
		want, ok := reference.TreeOracle(in, false)
		if !ok || xnetEscapeMayMatter(in) {
			return
		}
		r, err := decode.NewReader(bytes.NewReader(in), decode.WithSniff(sniff.Options{NoAutodetect: true}))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, r); err != nil {
			t.Fatal(err)
		}
		late := r.Result().Late
		switch {
		case want == override.Unknown && late.Kind != decode.NoChange:
			t.Fatalf("%q: Late = %+v; x/net's tree builder meets no <meta> with an encoding", in, late)
		case want != override.Unknown && (late.Kind == decode.NoChange || late.To != want):
			t.Fatalf("%q: Late = %+v; x/net's tree builder meets a <meta> for %v first", in, late, want)
		}
	})
}

// treeSeeds are FuzzLateTree's seeds: issue 31's probes and their kin.
var treeSeeds = []string{
	"<svg><style><meta charset=iso-8859-2></style></svg>",
	"<svg><script><meta charset=iso-8859-2></script></svg>",
	"<svg><title><meta charset=iso-8859-2></title></svg>",
	"<math><style><meta charset=koi8-r></style></math>",
	"<math><title><meta charset=koi8-r>",
	"<svg><![CDATA[ <meta charset=iso-8859-2> ]]></svg><meta charset=koi8-r>",
	"<math><![CDATA[ > <meta charset=iso-8859-2> ]]></math>",
	"<svg><![CDATA[ > ]]><style><meta charset=iso-8859-2></style><meta charset=koi8-r>",
	"<svg></svg><style><meta charset=iso-8859-2></style><meta charset=koi8-r>",
	"<svg/><title><meta charset=iso-8859-2></title><meta charset=koi8-r>",
	"<svg><g></svg><script><meta charset=iso-8859-2></script><meta charset=koi8-r>",
	"<svg><div><style><meta charset=iso-8859-2></style><meta charset=koi8-r>",
	"<div><svg></div><style><meta charset=iso-8859-2></style><meta charset=koi8-r>",
	"<svg><foreignObject><style><meta charset=iso-8859-2></style><meta charset=koi8-r>",
	"<svg><desc><![CDATA[ > <meta charset=iso-8859-2> ]]><p><![CDATA[ > <meta charset=koi8-r>",
	"<math><mi><style><meta charset=iso-8859-2></style><meta charset=koi8-r>",
	"<math><mtext><mglyph><style><meta charset=iso-8859-2>",
	"<math><annotation-xml><svg><style><meta charset=iso-8859-2>",
	"<frameset><meta charset=iso-8859-2>",
	"<frameset></frameset><noframes><meta charset=gbk></noframes><meta charset=iso-8859-2>",
	"<div><frameset><meta charset=koi8-r>",
	"<img><frameset><meta charset=koi8-r>",
	`<meta charset=bogus http-equiv=content-type content="text/html;charset=iso-8859-2">`,
	`<meta http-equiv=Content-Type content="text/html;charset=iso-8859-2" charset=koi8-r>`,
	`<meta charset=bogus content="charset=iso-8859-2"><meta charset=shift_jis>`,
	"<script>'<meta charset=iso-8859-2>'</script><svg><script><meta charset=koi8-r>",
	"<p>\xb1\xc1<svg><style><meta charset=iso-8859-2>",
	"<svg><font color=red><style><meta charset=iso-8859-2></style><meta charset=koi8-r>",
	"<svg><font><title><meta charset=iso-8859-2>",
}
