package reference

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"

	"github.com/charsniff/charsniff/override"
)

// TreeMeta is the oracle of the look-ahead's <meta> scan as the tree
// builder sees it: golang.org/x/net/html's html.Parse builds the document,
// and the first <meta> element in the HTML namespace, in document order,
// whose attributes give an encoding under the rule of "in head" for a meta
// start tag (MetaEncoding) decides. It returns that encoding, after
// "change the encoding" maps UTF-16 to UTF-8 and x-user-defined to
// windows-1252, or Unknown.
//
// Callers mind three things. Document order is the order in which the
// tree builder met the <meta> start tags except where foster parenting
// (tables) moved one before an earlier one: TreeMeta's second result is
// the number of <meta> elements that give an encoding, and with more than
// one in a table the first in the document may not be the first met. The DOM's attribute values have their character
// references decoded, which the scan (reading bytes, as the prescan does)
// does not: give it input without &. And x/net ignores everything after a
// <template> start tag met with foreign elements open (parse.go: "remove
// this divergence from the HTML5 spec"), which the standard does not.
func TreeMeta(input []byte, legacy bool) (enc override.Encoding, metas int) {
	doc, err := html.Parse(bytes.NewReader(input))
	if err != nil {
		return override.Unknown, 0
	}
	enc = override.Unknown
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Namespace == "" && n.Data == "meta" {
			if e, ok := MetaEncoding(n.Attr, legacy); ok {
				if metas++; metas == 1 {
					enc = e
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return enc, metas
}

// MetaEncoding is the tree builder's rule for a <meta> start tag with
// attrs while the confidence is tentative ("in head", a start tag whose tag
// name is "meta", step 2): the encoding its charset attribute names, or
// else, if its http-equiv attribute is "Content-Type" (any case), the one
// "extracting a character encoding from a meta element" finds in its
// content attribute; as "change the encoding" acts on it (UTF-16 becomes
// UTF-8 and x-user-defined windows-1252). Of attributes with the same
// name, the first counts (the tokenizer drops the others).
func MetaEncoding(attrs []html.Attribute, legacy bool) (override.Encoding, bool) {
	first := func(key string) (string, bool) {
		for _, a := range attrs {
			if a.Namespace == "" && a.Key == key {
				return a.Val, true
			}
		}
		return "", false
	}
	e, ok := override.Unknown, false
	if v, has := first("charset"); has {
		e, ok = getAnEncoding(v, legacy)
	}
	if !ok {
		if v, has := first("http-equiv"); has && strings.EqualFold(v, "content-type") {
			if c, has := first("content"); has {
				e, ok = ExtractFromMeta(c, legacy)
			}
		}
	}
	switch {
	case !ok:
		return override.Unknown, false
	case e.IsUTF16():
		return override.UTF8, true
	case e == override.XUserDefined:
		return override.Windows1252, true
	}
	return e, true
}

// TreeOracle is TreeMeta where its answer is the scan's to match: ok is
// false for input with an & (character references), a <template (x/net's
// divergence) or, when more than one <meta> gives an encoding, a <table
// (foster parenting).
func TreeOracle(input []byte, legacy bool) (enc override.Encoding, ok bool) {
	if bytes.IndexByte(input, '&') >= 0 || containsFold(input, "<template") {
		return override.Unknown, false
	}
	enc, metas := TreeMeta(input, legacy)
	if metas > 1 && containsFold(input, "<table") {
		return override.Unknown, false
	}
	if hasFrameset(input) {
		// A <frameset> the tree builder accepts takes the body out of
		// the document, with any <meta> it met there before: the DOM
		// answers only if the input before each <frameset has none (the
		// tree builder met those tokens as it does in the whole input).
		low := asciiLower(string(input))
		for i := strings.Index(low, "<frameset"); i >= 0; {
			if e, _ := TreeMeta(input[:i], legacy); e != override.Unknown {
				return override.Unknown, false
			}
			j := strings.Index(low[i+1:], "<frameset")
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return enc, true
}

// hasFrameset reports whether html.Parse makes a frameset element of input.
func hasFrameset(input []byte) bool {
	if !containsFold(input, "<frameset") {
		return false
	}
	doc, err := html.Parse(bytes.NewReader(input))
	if err != nil {
		return false
	}
	for n := doc.FirstChild; n != nil; n = n.NextSibling {
		if n.Type == html.ElementNode && n.Data == "html" {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.Data == "frameset" {
					return true
				}
			}
		}
	}
	return false
}

// TokenizerSuffices reports whether TokenizerMeta, which knows nothing of
// the tree builder, is the scan's oracle for input: it names no svg, math
// or frameset (in any case, anywhere).
func TokenizerSuffices(input []byte) bool {
	return !containsFold(input, "svg") && !containsFold(input, "math") && !containsFold(input, "frameset")
}

// containsFold reports whether b holds s (lower case), A-Z matching a-z.
func containsFold(b []byte, s string) bool {
	return strings.Contains(asciiLower(string(b)), s)
}
