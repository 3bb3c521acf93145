package prescan

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/charsniff/charsniff/internal/ascii"
)

// ParsedAlike reports whether an HTML parser's tokenizer surely meets the
// <meta> that ends w (the one Prescan found, w ending with its >) as the
// first <meta> start tag of the document, so that a scan in Tokenizer
// mode would end at the same tag. It answers from the bytes before that
// <meta> alone, conservatively: true only if no tokenizer state the
// prescan lacks can start there: no raw text or RCDATA element (script,
// style, title, textarea, xmp, iframe, noembed, noframes, noscript,
// plaintext), no foreign content or frameset (svg, math, frameset: the tree
// builder's model, tree.go), no other <meta>, no tag name cut by a / (the tokenizer ends
// a name there, the prescan does not) and no --! (a comment may end at
// --!> for the tokenizer). It reports false when the <meta>'s own
// attributes hold a <. Most pages declare their encoding before any of
// these, so a reader can skip the Tokenizer-mode scan of their window.
func ParsedAlike(w []byte) bool {
	// The <meta> starts at the last <, unless its attributes hold one.
	// Inside the tag no state the prescan lacks can start.
	k := lastLT(w)
	if k < 0 || len(w)-k < 6 || !equalFold(w[k+1:k+5], "meta") || class[w[k+5]]&(cSpace|cSlash) == 0 {
		return false
	}
	// One pass over the bytes before it, eight at a time to the next <
	// or !: for the few bytes most pages have there (a doctype, <html>,
	// <head>) this costs less than a bytes.IndexByte call for each tag
	// and one bytes.Contains.
	p := w[:k]
	for i := 0; i < len(p); i++ {
		i = nextMark(p, i)
		if i == len(p) {
			break
		}
		switch p[i] {
		case '!':
			if commentBang(p, i) {
				return false
			}
		case '<':
			j := i + 1
			if j == len(p) || !isLetter(p[j]) {
				continue
			}
			e := j + 1
			for e < len(p) && !isEndName(p[e]) {
				if p[e] == '!' && commentBang(p, e) {
					return false
				}
				e++
			}
			if e == len(p) || p[e] == '/' && (e+1 == len(p) || p[e+1] != '>') {
				return false
			}
			if name := p[j:e]; equalFold(name, "meta") || isRawName(name) || isTreeName(name) {
				return false
			}
			// The name holds no < that could start a tag.
			i = e - 1
		}
	}
	return true
}

// nextMark returns the index of the first < or ! in p from i, or of a
// byte of the last seven (which the caller tests itself), or len(p).
func nextMark(p []byte, i int) int {
	for i <= len(p)-8 {
		x := binary.LittleEndian.Uint64(p[i:])
		// The zero bytes of a and b (x's < and ! bytes): a borrow marks
		// false ones only above a true one, so the lowest mark is right.
		a, b := x^(ascii.LowBits*'<'), x^(ascii.LowBits*'!')
		if m := ((a-ascii.LowBits)&^a | (b-ascii.LowBits)&^b) & ascii.HighBits; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	return i
}

// commentBang reports whether the ! at p[i] ends a --!, by which a comment
// may end for the tokenizer (--!>) and not for the prescan.
func commentBang(p []byte, i int) bool {
	return i >= 2 && p[i-1] == '-' && p[i-2] == '-'
}

// isRawName reports whether name (any case) is one of rawNames: a start
// tag after which the tokenizer leaves the data state.
func isRawName(name []byte) bool {
	if len(name) >= 64 || rawLengths&(1<<len(name)) == 0 {
		return false
	}
	for _, n := range rawNames[1:] {
		if equalFold(name, n) {
			return true
		}
	}
	return false
}

// isTreeName reports whether name (any case) is svg, math or frameset:
// a start tag after which the tree builder may not meet a <meta> that the
// prescan finds.
func isTreeName(name []byte) bool {
	return equalFold(name, "svg") || equalFold(name, "math") || equalFold(name, "frameset")
}

// rawLengths has bit n set if a name in rawNames has n bytes: most tag
// names (html, head, link) are none of their lengths.
var rawLengths = func() uint64 {
	var m uint64
	for _, n := range rawNames[1:] {
		m |= 1 << len(n)
	}
	return m
}()

// lastLT returns the index of the last < in w, or -1: eight bytes at a
// time from the end, as the <meta> it looks for is short but longer than
// a few bytes.
func lastLT(w []byte) int {
	const low7 = 0x7F7F7F7F7F7F7F7F
	i := len(w)
	for ; i >= 8; i -= 8 {
		x := binary.LittleEndian.Uint64(w[i-8:]) ^ (ascii.LowBits * '<')
		// The high bit of each byte of x that is 0, exactly (no borrow
		// crosses bytes).
		if m := ^((x&low7 + low7) | x | low7); m != 0 {
			return i - 8 + (63-bits.LeadingZeros64(m))>>3
		}
	}
	return bytes.LastIndexByte(w[:i], '<')
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
