package prescan

import "encoding/binary"

// Options.Tokenizer's model of the tree builder: what the tree
// construction stage does that decides which <meta> start tags reach "in
// head"'s rule for meta and which start tags switch the tokenizer to a
// text state (https://html.spec.whatwg.org/multipage/parsing.html#tree-construction).
//
//   - Foreign content: after <svg> or <math> (not self-closing) the
//     elements are SVG or MathML ones; a start tag named script, style,
//     title, textarea … there is an element like any other, not raw text,
//     and <![CDATA[ … ]]> is a CDATA section (text), while in HTML content
//     it is a bogus comment ending at the first >. A breakout start tag
//     (breakout in tagInfo, <meta> among them) pops the foreign elements up
//     to an HTML element or integration point and is processed as in HTML
//     content, so <svg><meta charset=…> is met. End tags pop the foreign
//     element they name (</p> and </br> break out). At an HTML integration
//     point (SVG foreignObject, desc, title; MathML annotation-xml whose
//     encoding is text/html or application/xhtml+xml) and a MathML text
//     integration point (mi, mo, mn, ms, mtext; not for mglyph and
//     malignmark) start tags are HTML again: <svg><desc><style> is raw text.
//   - frameset: a <frameset> start tag the tree builder accepts (the
//     frameset-ok flag still "ok": no text but white space, none of the
//     start tags that clear it) begins the in frameset and after frameset
//     modes, which ignore every <meta>: the scan finds nothing after it.
//
// The model keeps the stack of open elements from the outermost foreign
// element on (fst: a kind and a hash of the name per element, at most
// maxDepth of them), and for HTML elements outside foreign content only a
// count per name (base: up to 32 names, by hash), so that an end tag met in foreign
// content closes the foreign elements when it names an HTML element open
// below them (<div><svg></div>). It does not model the tree builder's other
// corrections (implied end tags, the adoption agency algorithm, tables),
// which move HTML elements but leave the namespace of the current node
// as it is in all but contrived markup; nor the attribute that makes an
// annotation-xml an integration point (the model takes none), or
// <input type=hidden> (taken as clearing frameset-ok). A <font> breaks out
// with a color, face or size attribute, as the standard says.

// maxDepth is the deepest foreign content the model follows; deeper
// elements are counted in lost.
const maxDepth = 32

// tagInfo is what the model knows of a tag name (classify).
type tagInfo uint16

const (
	tBreakout   tagInfo = 1 << iota // pops foreign content
	tNoFrameset                     // clears frameset-ok (in HTML content)
	tVoid                           // no element stays open (void, or html, head, body)
	tSVG                            // svg
	tMath                           // math
	tFrameset                       // frameset
	tSVGPoint                       // foreignobject, desc, title: HTML integration points in SVG
	tMathText                       // mi, mo, mn, ms, mtext: MathML text integration points
	tGlyph                          // mglyph, malignmark: stay MathML at a text integration point
	tAnnotation                     // annotation-xml
	tEndBreak                       // p, br: their end tags break out
	tBr                             // br: its end tag is a <br> (clears frameset-ok)
	tTablePart                      // caption, colgroup, tbody, td, tfoot, th, thead, tr: ignored "in body"
	tMeta                           // meta
	tFont                           // font: a breakout tag with color, face or size
)

// The kinds of element on the model's stack (fst).
const (
	kHTML       = 1 + iota // an HTML element inside an integration point
	kSVG                   // an SVG element
	kSVGPoint              // SVG foreignObject, desc, title
	kMath                  // a MathML element
	kMathText              // MathML mi, mo, mn, ms, mtext
	kAnnotation            // MathML annotation-xml
)

// classify returns what the model knows of the tag name, in lower case,
// and its index in rawNames (0 for none).
func classify(name []byte) (tagInfo, uint8) {
	const brk = tBreakout
	switch string(name) {
	// The breakout start tags.
	case "b", "big", "blockquote", "center", "code", "div", "dl", "em", "h1", "h2", "h3", "h4", "h5", "h6",
		"i", "menu", "nobr", "ol", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "tt", "u", "ul", "var":
		return brk, 0
	case "p":
		return brk | tEndBreak, 0
	case "br":
		return brk | tEndBreak | tBr | tVoid | tNoFrameset, 0
	case "dd", "dt", "li", "listing", "pre", "table":
		return brk | tNoFrameset, 0
	case "embed", "hr", "img":
		return brk | tNoFrameset | tVoid, 0
	case "body":
		return brk | tNoFrameset | tVoid, 0
	case "head":
		return brk | tVoid, 0
	case "meta":
		return brk | tVoid | tMeta, 0
	// Raw text and RCDATA.
	case "script":
		return 0, rawScript
	case "plaintext":
		return 0, rawPlaintext
	case "style":
		return 0, 3
	case "xmp":
		return tNoFrameset, 4
	case "iframe":
		return tNoFrameset, 5
	case "noembed":
		return 0, 6
	case "noframes":
		return 0, 7
	case "noscript":
		return 0, 8
	case "title":
		return tSVGPoint, 9
	case "textarea":
		return tNoFrameset, 10
	// Foreign content.
	case "svg":
		return tSVG, 0
	case "math":
		return tMath, 0
	case "foreignobject", "desc":
		return tSVGPoint, 0
	case "mi", "mo", "mn", "ms", "mtext":
		return tMathText, 0
	case "mglyph", "malignmark":
		return tGlyph, 0
	case "annotation-xml":
		return tAnnotation, 0
	// frameset and the other start tags that clear frameset-ok.
	case "frameset":
		return tFrameset, 0
	case "button", "applet", "marquee", "object", "select", "template":
		return tNoFrameset, 0
	case "area", "keygen", "wbr", "input", "image":
		return tNoFrameset | tVoid, 0
	case "html", "base", "basefont", "bgsound", "link", "col", "param", "source", "track", "frame":
		return tVoid, 0
	case "caption", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr":
		return tTablePart, 0
	case "font":
		return tFont, 0
	}
	return 0, 0
}

// maxName is the longest tag name the model tells apart (annotation-xml).
const maxName = 14

// nameEntry is a tag name that classify knows, packed as packName does.
type nameEntry struct {
	w0, w1 uint64
	info   tagInfo
	raw    uint8
	used   bool
}

// nameTable holds the names classify knows, by nameKey, with linear
// probing: a lookup costs a multiplication and a compare or two, not a
// search through the names.
var nameTable = func() (t [512]nameEntry) {
	for _, n := range knownNames {
		var tag [16]byte
		copy(tag[:], n)
		w0, w1 := packName(&tag)
		info, raw := classify([]byte(n))
		i := nameKey(w0, w1) >> (64 - 9)
		for t[i].used {
			i = (i + 1) % uint64(len(t))
		}
		t[i] = nameEntry{w0, w1, info, raw, true}
	}
	return t
}()

// knownNames are the names classify gives something to.
var knownNames = []string{
	"b", "big", "blockquote", "center", "code", "div", "dl", "em", "h1", "h2", "h3", "h4", "h5", "h6",
	"i", "menu", "nobr", "ol", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "tt", "u", "ul", "var",
	"p", "br", "dd", "dt", "li", "listing", "pre", "table", "embed", "hr", "img", "body", "head", "meta",
	"script", "plaintext", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "title", "textarea",
	"svg", "math", "foreignobject", "desc", "mi", "mo", "mn", "ms", "mtext", "mglyph", "malignmark", "annotation-xml",
	"frameset", "button", "applet", "marquee", "object", "select", "template", "area", "keygen", "wbr", "input", "image",
	"html", "base", "basefont", "bgsound", "link", "col", "param", "source", "track", "frame",
	"caption", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr", "font",
}

// fontAttrs are the attributes that make <font> a breakout start tag.
var fontAttrs = [...]string{"color", "face", "size"}

// isFontAttr reports whether name (any case) is one of fontAttrs.
func isFontAttr(name []byte) bool {
	for _, a := range fontAttrs {
		if equalFold(name, a) {
			return true
		}
	}
	return false
}

// matchFontAttr goes on matching the name of an attribute of a <font>,
// cut by the end of a chunk, with its next bytes seg.
func (m *metaScan) matchFontAttr(seg []byte) {
	for k, a := range fontAttrs {
		if m.fontCand&(1<<k) != 0 && !hasPrefixFold(a, m.nameLen, seg) {
			m.fontCand &^= 1 << k
		}
	}
}

// endFontAttr ends the name matchFontAttr matched.
func (m *metaScan) endFontAttr() {
	for k, a := range fontAttrs {
		if m.fontCand&(1<<k) != 0 && m.nameLen == len(a) {
			m.fontBreak = true
		}
	}
}

// packName returns tag, a name and zero bytes after it, as two words.
func packName(tag *[16]byte) (w0, w1 uint64) {
	return binary.LittleEndian.Uint64(tag[:8]), binary.LittleEndian.Uint64(tag[8:])
}

// nameKey mixes a packed name into 64 bits, whose top bits index
// nameTable and give the model's name hash.
func nameKey(w0, w1 uint64) uint64 {
	return (w0 ^ w1*0xC2B2AE3D27D4EB4F) * 0x9E3779B97F4A7C15
}

// lookupName returns what classify gives the packed name with key k.
func lookupName(w0, w1, k uint64) (tagInfo, uint8) {
	for i := k >> (64 - 9); ; i = (i + 1) % uint64(len(nameTable)) {
		e := &nameTable[i]
		if !e.used {
			return 0, 0
		}
		if e.w0 == w0 && e.w1 == w1 {
			return e.info, e.raw
		}
	}
}

// baseOpen counts an HTML element named h (13 bits) open outside foreign
// content, if base has room for its name: its slot or the next.
func (m *metaScan) baseOpen(h uint16) {
	h |= baseUsed
	i := int(h) & (len(m.base) - 1)
	for range 2 {
		switch m.base[i] {
		case h:
			if m.baseN[i] < 255 {
				m.baseN[i]++
			}
			return
		case 0:
			m.base[i], m.baseN[i] = h, 1
			return
		}
		i = (i + 1) & (len(m.base) - 1)
	}
}

// baseClose reports whether an HTML element named h is open outside
// foreign content, and closes one.
func (m *metaScan) baseClose(h uint16) bool {
	h |= baseUsed
	i := int(h) & (len(m.base) - 1)
	for range 2 {
		if m.base[i] == h {
			if m.baseN[i]--; m.baseN[i] == 0 {
				m.base[i] = 0
			}
			return true
		}
		i = (i + 1) & (len(m.base) - 1)
	}
	return false
}

// baseUsed marks a slot of base in use.
const baseUsed = 0x8000

// kind returns the kind of the element on top of the model's stack, or 0
// in HTML content.
func (m *metaScan) top() uint8 {
	if m.fn == 0 {
		return 0
	}
	return uint8(m.fst[m.fn-1] & 7)
}

// push puts an element of kind k named as in m.tag on the model's stack.
func (m *metaScan) push(k uint8) {
	if int(m.fn) == len(m.fst) {
		m.lost++
		return
	}
	m.fst[m.fn] = m.hash<<3 | uint16(k)
	m.fn++
}

// htmlStart reports whether a start tag of info is processed as in HTML
// content (the tree construction dispatcher), with foreign elements open.
func (m *metaScan) htmlStart(info tagInfo) bool {
	switch m.top() {
	case kHTML, kSVGPoint:
		return true
	case kMathText:
		return info&tGlyph == 0
	case kAnnotation:
		return info&tSVG != 0
	}
	return false
}

// breakOut pops the foreign elements up to an HTML element or an
// integration point.
func (m *metaScan) breakOut() {
	m.lost = 0
	for m.fn > 0 {
		switch m.top() {
		case kHTML, kSVGPoint, kMathText:
			return
		}
		m.fn--
	}
}

// selfClosing reports whether the start tag ended by the > at p[i] (stream
// offset base+i) has the self-closing flag: a / before the > that does not
// end an unquoted attribute value.
func (m *metaScan) selfClosing(p []byte, i, base int) bool {
	slash := m.lastSlash
	if i > 0 {
		slash = p[i-1] == '/'
	}
	return slash && m.unqEnd != base+i
}

// startTag is the tree builder's step for the start tag ended by the > at
// p[i], stream offset base+i.
func (m *metaScan) startTag(p []byte, i, base int) {
	info := m.info
	if m.fn > 0 && !m.htmlStart(info) {
		if info&tBreakout == 0 && !m.fontBreak {
			// A foreign element: no text state, and on the stack
			// unless self-closing.
			m.raw = 0
			if m.selfClosing(p, i, base) {
				return
			}
			k := uint8(kSVG)
			if t := m.top(); t != kSVG && t != kSVGPoint {
				k = kMath
				switch {
				case info&tMathText != 0:
					k = kMathText
				case info&tAnnotation != 0:
					k = kAnnotation
				}
			} else if info&tSVGPoint != 0 {
				k = kSVGPoint
			}
			m.push(k)
			return
		}
		m.breakOut()
	}
	// As in HTML content.
	if info&tNoFrameset != 0 {
		m.fsOK = false
	}
	switch {
	case m.raw != 0:
		m.enterRaw()
	case info&tFrameset != 0:
		if m.fsOK {
			// In frameset: no <meta> is met again.
			m.state = stPlain
		}
	case info&(tSVG|tMath) != 0:
		if !m.selfClosing(p, i, base) {
			if info&tSVG != 0 {
				m.push(kSVG)
			} else {
				m.push(kMath)
			}
		}
	case info&tVoid != 0:
	case m.fn > 0:
		// Inside an integration point, as "in body" (tables are not
		// modelled).
		if info&tTablePart == 0 {
			m.push(kHTML)
		}
	default:
		m.baseOpen(m.hash)
	}
}

// endTag is the tree builder's step for an end tag, at the end of its name.
func (m *metaScan) endTag() {
	info := m.info
	if info&tBr != 0 {
		m.fsOK = false // </br> is a <br>
	}
	if m.fn == 0 {
		m.baseClose(m.hash)
		return
	}
	if m.lost > 0 {
		m.lost--
		return
	}
	h := m.hash
	if m.top() != kHTML {
		if info&tEndBreak != 0 {
			m.breakOut()
			if info&tBr != 0 {
				return
			}
		} else {
			for i := int(m.fn) - 1; i >= 0 && m.fst[i]&7 != kHTML; i-- {
				if m.fst[i]>>3 == h {
					m.fn = uint8(i)
					return
				}
			}
		}
	}
	// As in HTML content: the HTML element of that name in scope, which
	// an integration point bounds.
	for i := int(m.fn) - 1; i >= 0; i-- {
		switch m.fst[i] & 7 {
		case kHTML:
			if m.fst[i]>>3 == h {
				m.fn = uint8(i)
				return
			}
		case kSVGPoint, kMathText, kAnnotation:
			return
		}
	}
	if m.baseClose(h) {
		m.fn = 0
	}
}
