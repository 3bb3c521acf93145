package prescan

import "bytes"

// ParsedAlike reports whether an HTML parser's tokenizer surely meets the
// <meta> that ends w (the one Prescan found, w ending with its >) as the
// first <meta> start tag of the document, so that a scan in Tokenizer
// mode would end at the same tag. It answers from the bytes before that
// <meta> alone, conservatively: true only if no tokenizer state the
// prescan lacks can start there: no raw text or RCDATA element (script,
// style, title, textarea, xmp, iframe, noembed, noframes, noscript,
// plaintext), no other <meta>, no tag name cut by a / (the tokenizer ends
// a name there, the prescan does not) and no --! (a comment may end at
// --!> for the tokenizer). It reports false when the <meta>'s own
// attributes hold a <. Most pages declare their encoding before any of
// these, so a reader can skip the Tokenizer-mode scan of their window.
func ParsedAlike(w []byte) bool {
	// The <meta> starts at the last <, unless its attributes hold one.
	// Inside the tag no state the prescan lacks can start.
	k := bytes.LastIndexByte(w, '<')
	if k < 0 || len(w)-k < 6 || !equalFold(w[k+1:k+5], "meta") || class[w[k+5]]&(cSpace|cSlash) == 0 {
		return false
	}
	p := w[:k]
	if bytes.Contains(p, commentBang) {
		return false
	}
	for i := 0; ; {
		j := bytes.IndexByte(p[i:], '<')
		if j < 0 {
			return true
		}
		i += j + 1
		if i == len(p) || !isLetter(p[i]) {
			continue
		}
		j = i
		for j < len(p) && !isEndName(p[j]) {
			j++
		}
		if j == len(p) || p[j] == '/' && (j+1 == len(p) || p[j+1] != '>') {
			return false
		}
		if name := p[i:j]; equalFold(name, "meta") || isRawName(name) {
			return false
		}
		i = j
	}
}

// commentBang is what may end a comment for the tokenizer (--!>) and not
// for the prescan.
var commentBang = []byte("--!")

// isRawName reports whether name (any case) is one of rawNames: a start
// tag after which the tokenizer leaves the data state.
func isRawName(name []byte) bool {
	for _, n := range rawNames[1:] {
		if equalFold(name, n) {
			return true
		}
	}
	return false
}

// equalFold reports whether b is s (lower case), ignoring ASCII case.
func equalFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if lower(b[i]) != s[i] {
			return false
		}
	}
	return true
}
