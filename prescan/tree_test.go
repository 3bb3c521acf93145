package prescan_test

import (
	"testing"

	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
)

// treeCases are inputs where the tree builder, not the tokenizer alone,
// decides which <meta> is met (issue 31's probes and more): foreign
// content, frameset and the rule of "in head" for a <meta>. want is what
// the scan in tokenizer mode finds, which x/net's html.Parse agrees with
// (reference.TreeMeta).
var treeCases = []struct {
	in   string
	want override.Encoding
}{
	// In SVG and MathML, style, script, title … are ordinary elements,
	// and a <meta> breaks out of foreign content.
	{"<svg><style><meta charset=iso-8859-2></style></svg>", override.ISO8859_2},
	{"<svg><script><meta charset=iso-8859-2></script></svg>", override.ISO8859_2},
	{"<svg><title><style></style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<math><style><meta charset=koi8-r>", override.KOI8R},
	{"<math><title><meta charset=koi8-r>", override.KOI8R},
	{"<svg><textarea><meta charset=koi8-r>", override.KOI8R},
	{"<svg><xmp><noscript><iframe><plaintext><meta charset=koi8-r>", override.KOI8R},
	{"<SVG><STYLE><meta charset=koi8-r>", override.KOI8R},
	{"<svg><g><style><meta charset=koi8-r>", override.KOI8R},
	// A CDATA section in foreign content is text; in HTML content it is a
	// bogus comment that ends at the first >.
	{"<svg><![CDATA[ <meta charset=iso-8859-2> ]]><meta charset=koi8-r>", override.KOI8R},
	{"<math><![CDATA[ > <meta charset=iso-8859-2> ]]></math><meta charset=koi8-r>", override.KOI8R},
	{"<svg><![CDATA[ ]> ]]]><meta charset=koi8-r>", override.KOI8R},
	{"<![CDATA[ > <meta charset=iso-8859-2> ]]>", override.ISO8859_2},
	{"<svg><desc><![CDATA[ > <meta charset=iso-8859-2> ]]>", override.Unknown},
	{"<svg><desc><p><![CDATA[ > <meta charset=iso-8859-2> ]]>", override.ISO8859_2},
	{"<svg><![cdata[ > <meta charset=iso-8859-2> ]]>", override.ISO8859_2},
	// Out of foreign content: end tags, self-closing roots, breakouts.
	{"<svg></svg><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<svg/><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<math/><title><meta charset=iso-8859-2></title><meta charset=koi8-r>", override.KOI8R},
	{"<svg><g></svg><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<svg><div><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<svg><b><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<svg></p><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<svg></br><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<div><svg></div><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<svg></div><style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<svg><g/><style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<svg a=b/><style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<svg a=/><style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<svg / ><style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<svg a=b /><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<svg a='b'/><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<svg a/><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	// <font> breaks out with color, face or size.
	{"<svg><font color=red><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<svg><font FACE='x' ><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<math><font a=b size><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<svg><font><style><meta charset=iso-8859-2></style>", override.ISO8859_2},
	{"<svg><font colors=red sizes facet><style><meta charset=iso-8859-2></style>", override.ISO8859_2},
	{"<font color=red><svg><style><meta charset=iso-8859-2></style>", override.ISO8859_2},
	// HTML integration points: HTML again for start tags.
	{"<svg><foreignObject><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<svg><desc><title><meta charset=iso-8859-2></title><meta charset=koi8-r>", override.KOI8R},
	{"<svg><title><script><meta charset=iso-8859-2></script><meta charset=koi8-r>", override.KOI8R},
	{"<svg><foreignObject/><style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<svg><desc></desc><style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<svg><desc><svg><style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<svg><desc><div></svg><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<math><mi><style><meta charset=iso-8859-2></style><meta charset=koi8-r>", override.KOI8R},
	{"<math><mtext><mglyph><style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<math><ms><svg><style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<math><annotation-xml><svg><style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<math><annotation-xml><style><meta charset=iso-8859-2>", override.ISO8859_2},
	{"<math><svg><desc><style><meta charset=iso-8859-2>", override.ISO8859_2},
	// frameset: a <meta> in or after an accepted <frameset> is ignored.
	{"<frameset><meta charset=iso-8859-2>", override.Unknown},
	{"<!-- x --> \n<frameset></frameset><meta charset=iso-8859-2>", override.Unknown},
	{"<head><title>x</title></head><frameset><frame></frameset><noframes></noframes><meta charset=koi8-r>", override.Unknown},
	{"<div><frameset><meta charset=koi8-r>", override.Unknown},
	{"x<frameset><meta charset=koi8-r>", override.KOI8R},
	{"<p>x</p><frameset><meta charset=koi8-r>", override.KOI8R},
	{"<img><frameset><meta charset=koi8-r>", override.KOI8R},
	{"<body><frameset><meta charset=koi8-r>", override.KOI8R},
	{"<svg>x</svg><frameset><meta charset=koi8-r>", override.KOI8R},
	{"<svg><![CDATA[x]]></svg><frameset><meta charset=koi8-r>", override.KOI8R},
	{"<svg><frameset><meta charset=koi8-r>", override.KOI8R},
	{"< <frameset><meta charset=koi8-r>", override.KOI8R},
	{"<title>x</title><style>y</style><frameset><meta charset=koi8-r>", override.Unknown},
	// The tree builder's rule: the charset attribute's encoding, or else
	// the content attribute's with http-equiv="content-type".
	{`<meta charset=bogus http-equiv=content-type content="text/html;charset=iso-8859-2">`, override.ISO8859_2},
	{`<meta http-equiv=Content-Type content="text/html;charset=iso-8859-2" charset=bogus>`, override.ISO8859_2},
	{`<meta http-equiv=content-type content="charset=iso-8859-2" charset=koi8-r>`, override.KOI8R},
	{`<meta charset=bogus content="charset=iso-8859-2"><meta charset=koi8-r>`, override.KOI8R},
	{`<meta charset="" http-equiv=content-type content="charset=utf-16">`, override.UTF8},
	{`<meta charset=x-user-defined>`, override.Windows1252},
}

// TestTreeCases checks the scan in tokenizer mode, and x/net's tree
// builder, on treeCases, in one piece and cut at every byte.
func TestTreeCases(t *testing.T) {
	var s prescan.Scanner
	for _, c := range treeCases {
		in := []byte(c.in)
		enc, off := lateScan(&s, in)
		if enc != c.want {
			t.Errorf("scan of %q finds %v, want %v", c.in, enc, c.want)
		}
		if x, ok := reference.TreeOracle(in, false); !ok || x != c.want {
			t.Errorf("x/net's tree builder on %q: %v (comparable %v), want %v", c.in, x, ok, c.want)
		}
		for i := range len(in) + 1 {
			if e, o := lateScan(&s, in[:i], in[i:]); e != enc || o != off {
				t.Errorf("%q cut at %d: %v ending at %d, in one piece %v ending at %d", in, i, e, o, enc, off)
			}
		}
	}
}

// TestTreeAllocs checks that the model of the tree builder allocates
// nothing, its stack full or not.
func TestTreeAllocs(t *testing.T) {
	var page []byte
	for range 40 {
		page = append(page, "<svg><g><desc><div><math><mi>"...)
	}
	page = append(page, "</svg><![CDATA[x]]><svg><![CDATA[ <meta charset=gbk> ]]></svg><frameset><meta charset=koi8-r>"...)
	var s prescan.Scanner
	if n := testing.AllocsPerRun(100, func() {
		s.Reset(&tokOpts)
		for i := 0; i < len(page); i += 7 {
			s.Feed(page[i:min(i+7, len(page))])
		}
		s.Close()
	}); n != 0 {
		t.Errorf("Scanner in tokenizer mode allocates %v times, want 0", n)
	}
}
