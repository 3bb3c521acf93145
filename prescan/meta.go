package prescan

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/charsniff/charsniff/internal/ascii"
	"github.com/charsniff/charsniff/override"
)

// state is a state of the <meta> scan. The names follow the standard's steps.
type state uint8

const (
	stLoop              state = iota // step "Loop": looking for the next <
	stLT                             // after <
	stBang                           // after <!
	stBangDash                       // after <!-
	stComment                        // inside <!--: looking for a > after two dashes
	stBogus                          // after <!, </ or <?: looking for the next >
	stEndTagOpen                     // after </
	stTagName                        // after < (or </) and a letter: looking for white space or >
	stAttrBefore                     // get an attribute, steps 1-2
	stAttrName                       // get an attribute, step 4
	stAttrSpaces                     // get an attribute, step "spaces"
	stAttrValueBefore                // get an attribute, step "value"
	stAttrValueQuoted                // get an attribute, the quote loop
	stAttrValueUnquoted              // get an attribute, step 11

	// The states of Options.Tokenizer (tokenizer.go).
	stTokName        // a tag name, ended by white space, / or >
	stTokComment     // inside <!--, the tokenizer's comment states in k
	stRawText        // RAWTEXT or RCDATA of rawNames[raw]: looking for <
	stRawLT          // RAWTEXT or RCDATA: after <
	stRawEnd         // RAWTEXT or RCDATA: after </ and k bytes of the name
	stPlain          // PLAINTEXT: everything to the end
	stScript         // script data
	stScriptLT       // script data less-than sign
	stScriptEnd      // script data end tag name: k bytes of "script"
	stScriptEscStart // script data escape start (after <!)
	stScriptEscStartDash
	stScriptEsc         // script data escaped
	stScriptEscDash     // script data escaped dash
	stScriptEscDashDash // script data escaped dash dash
	stScriptEscLT       // script data escaped less-than sign
	stScriptEscEnd      // script data escaped end tag name: k bytes of "script"
	stScriptDblStart    // script data double escape start: k bytes of "script" unless fail
	stScriptDbl         // script data double escaped
	stScriptDblDash     // script data double escaped dash
	stScriptDblDashDash // script data double escaped dash dash
	stScriptDblLT       // script data double escaped less-than sign
	stScriptDblEnd      // script data double escape end: k bytes of "script" unless fail
	stCDATAOpen         // after <![ in foreign content: k bytes of "[CDATA[" matched
	stCDATA             // CDATA section: k ]s seen (at most 2)
)

// role is what a <meta> attribute means to the prescan. Only these three
// names have an effect, so the standard's attribute list, which only serves
// to ignore a repeated name, reduces to one "seen" flag per role: for any
// other name, being ignored and being added to the list both do nothing.
type role uint8

const (
	roleNone role = iota
	roleHTTPEquiv
	roleContent
	roleCharset
)

var roleNames = [...]string{
	roleHTTPEquiv: "http-equiv",
	roleContent:   "content",
	roleCharset:   "charset",
}

const contentType = "content-type"

// metaScan is the state of the <meta> scan between chunks.
type metaScan struct {
	state state
	k     uint8 // stTagName: bytes of "meta" matched after <, or 0 when not a <meta; stComment: dashes seen (at most 2)
	quote byte  // stAttrValueQuoted: the quote that ends the value

	// The <meta> element being scanned; meaningless when !inMeta.
	inMeta     bool
	seen       uint8 // 1<<role for each role whose attribute was seen
	gotPragma  bool
	needPragma int8              // -1 null, 0 false, 1 true
	charsetSet bool              // charset is not null
	charset    override.Encoding // override.Unknown for failure

	// The attribute being scanned.
	nameLen  int
	nameRole uint8 // bit r set while the name is still a prefix of roleNames[r]
	role     role  // the attribute's role, once its name is complete (roleNone when repeated)
	eqMatch  int   // roleHTTPEquiv: bytes of "content-type" matched, or -1
	content  contentScan
	label    labelBuf

	legacy bool // resolve labels with override.LookupLegacy

	// Options.Tokenizer (tokenizer.go).
	tok  bool     // see markup as an HTML tokenizer does
	end  bool     // stTokName: the name is an end tag's
	fail bool     // stScriptDblStart, stScriptDblEnd: the name is not "script"
	raw  uint8    // the start tag being scanned opens rawNames[raw] (0 none); in the raw states, the element
	tagN uint8    // stTokName: bytes of the name in tag (len(tag)+1 when longer)
	tag  [16]byte // stTokName: the name so far, lower case (maxName bytes)

	// The <meta> as the tree builder reads it (Options.Tokenizer): the
	// encoding of its first charset attribute and of its first content
	// attribute (override.Unknown for none or failure).
	treeCharset, treeContent override.Encoding

	// The model of the tree builder (tree.go).
	info      tagInfo          // the tag being scanned, once its name has ended
	hash      uint16           // its name's hash (13 bits)
	font      bool             // the tag is a <font> start tag
	fontBreak bool             // … with a color, face or size attribute: a breakout tag
	fontCand  uint8            // stAttrName of a <font>: bit k while the name may be fontAttrs[k]
	fsOK      bool             // the frameset-ok flag is "ok" (in tokenizer mode only)
	unqEnd    int              // stream offset of the byte that ended the last unquoted attribute value
	lastSlash bool             // the last byte of the last chunk was a /
	fn        uint8            // elements on fst
	lost      uint8            // elements deeper than fst holds
	fst       [maxDepth]uint16 // the stack of open elements from the outermost foreign one: name hash<<3 | kind
	base      [32]uint16       // names (hash|baseUsed) of HTML elements open outside foreign content
	baseN     [32]uint8        // how many of base[i] are open
}

// scan runs the <meta> scan over p, whose first byte is at stream offset
// base. It reports the encoding and the offset just past the > of the <meta>
// that named it, or false if p ends first.
//
// The common forms inside p (a whole tag name, an attribute name, a quoted
// value) are taken whole without going round the state loop; the byte states
// resume whatever a chunk's end cut, so no byte is looked at twice.
func (m *metaScan) scan(p []byte, base int, legacy bool) (override.Encoding, int, bool) {
	m.legacy = legacy
	i := 0
	for i < len(p) {
		c := p[i]
		switch m.state {
		case stLoop:
			// Any byte other than < is "any other byte": do nothing. The
			// next < is often the next byte or close (a tag on the next
			// line); look at a few before calling IndexByte. (In
			// tokenizer mode, text other than white space also clears
			// frameset-ok.)
			switch {
			case c == '<':
				i++
			case i+1 < len(p) && p[i+1] == '<':
				if m.fsOK && textClass[c] != 0 {
					m.fsOK = false
				}
				i += 2
			default:
				if m.fsOK {
					if i = m.text(p, i); i == len(p) {
						return 0, 0, false
					}
					if p[i] == '<' {
						i++
						break
					}
				}
				j := bytes.IndexByte(p[i:], '<')
				if j < 0 {
					return 0, 0, false
				}
				i += j + 1
			}
			m.state = stLT
			if i == len(p) {
				return 0, 0, false
			}
			c = p[i]
			fallthrough

		case stLT:
			if !isLetter(c) {
				switch c {
				case '!':
					m.state = stBang
				case '/':
					m.state = stEndTagOpen
				case '?':
					m.state = stBogus
				default:
					// The < was "any other byte"; look at this byte afresh.
					// (For the tokenizer it is text.)
					m.state = stLoop
					m.fsOK = false
					continue
				}
				i++
				continue
			}
			if m.tok {
				m.beginTag(false)
				continue
			}
			// A tag name: <meta and white space or /, or one to skip to
			// white space or >.
			if len(p)-i >= 5 && c|0x20 == 'm' && p[i+1]|0x20 == 'e' && p[i+2]|0x20 == 't' && p[i+3]|0x20 == 'a' &&
				class[p[i+4]]&(cSpace|cSlash) != 0 {
				m.startMeta()
				i += 5
			} else {
				if c|0x20 == 'm' && len(p)-i < 5 {
					// Maybe <meta, cut by the end of p: a byte at a time.
					m.state = stTagName
					m.k = 1
					i++
					continue
				}
				j := tagNameEnd(p, i+1)
				if j == len(p) {
					m.state = stTagName
					m.k = 0
					return 0, 0, false
				}
				m.inMeta = false
				i = j
			}
			m.state = stAttrBefore
			if i == len(p) {
				return 0, 0, false
			}
			c = p[i]
			fallthrough

		case stAttrBefore:
			for {
				for class[c]&(cSpace|cSlash) != 0 {
					if i++; i == len(p) {
						return 0, 0, false
					}
					c = p[i]
				}
				if c == '>' {
					// No attribute: the end of the tag.
					m.state = stLoop
					if m.tok && !m.end {
						m.startTag(p, i, base)
					}
					if m.inMeta {
						if enc, ok := m.process(); ok {
							return enc, base + i + 1, true
						}
					}
					i++
					break
				}
				// The name: its first byte, even an =, then anything but
				// white space, /, > and =.
				j := i + 1
				for j < len(p) && class[p[j]] == 0 {
					j++
				}
				if j == len(p) {
					// The name goes on in the next chunk.
					m.nameLen = 0
					m.nameRole = 1<<roleHTTPEquiv | 1<<roleContent | 1<<roleCharset
					m.fontCand = 1<<len(fontAttrs) - 1
					m.appendName(p[i:j])
					m.state = stAttrName
					return 0, 0, false
				}
				m.role = roleNone
				if m.inMeta {
					m.setRole(roleOf(p[i:j]))
				} else if m.font && isFontAttr(p[i:j]) {
					m.fontBreak = true
				}
				n, ok := m.afterName(p, j)
				if !ok {
					return 0, 0, false
				}
				i = n
				if m.state != stAttrBefore || i == len(p) {
					break
				}
				c = p[i]
			}
			continue

		case stBang:
			switch c {
			case '-':
				m.state = stBangDash
			case '[':
				m.state = stBogus
				if m.tok && m.fn > 0 && m.top() != kHTML {
					// Foreign content: maybe a CDATA section.
					m.state, m.k = stCDATAOpen, 1
				}
			case '>':
				m.state = stLoop // <!> is a complete <! construct
			default:
				m.state = stBogus
			}

		case stBangDash:
			if c == '-' {
				// <!--: the two dashes may be the ones ending the comment.
				m.state = stComment
				m.k = 2
				if m.tok {
					m.state, m.k = stTokComment, comStart
				}
			} else {
				m.state = stBogus
				continue // this byte may be the >
			}

		case stComment:
			j := bytes.IndexByte(p[i:], '>')
			if j < 0 {
				m.k = trailingDashes(m.k, p[i:])
				return 0, 0, false
			}
			d := trailingDashes(m.k, p[i:i+j])
			i += j + 1
			if d >= 2 {
				m.state = stLoop
			} else {
				m.k = 0
			}
			continue

		case stBogus:
			j := bytes.IndexByte(p[i:], '>')
			if j < 0 {
				return 0, 0, false
			}
			i += j + 1
			m.state = stLoop
			continue

		case stEndTagOpen:
			if isLetter(c) && m.tok {
				m.beginTag(true)
				continue
			}
			if isLetter(c) {
				m.state = stTagName
				m.k = 0
			} else {
				m.state = stBogus
				continue // this byte may be the >
			}

		case stTagName:
			if m.k == 0 {
				// Not a <meta>: skip to white space or >.
				for class[c]&(cSpace|cGT) == 0 {
					if i++; i == len(p) {
						return 0, 0, false
					}
					c = p[i]
				}
			} else if m.k < 4 {
				if c|0x20 == "meta"[m.k] {
					m.k++
					break
				}
				m.k = 0
			} else {
				m.k = 0
				if class[c]&(cSpace|cSlash) != 0 {
					// <meta followed by white space or /.
					m.startMeta()
					m.state = stAttrBefore
					break
				}
			}
			if class[c]&(cSpace|cGT) != 0 {
				m.inMeta = false
				m.state = stAttrBefore
				continue
			}

		case stAttrName:
			// The rest of a name begun in an earlier chunk.
			j := i
			for j < len(p) && class[p[j]] == 0 {
				j++
			}
			m.appendName(p[i:j])
			if j == len(p) {
				return 0, 0, false
			}
			m.endName()
			i = j
			m.state = stAttrBefore
			if n, ok := m.afterName(p, i); ok {
				i = n
				continue
			}
			return 0, 0, false

		case stAttrSpaces:
			switch {
			case class[c]&cSpace != 0:
			case c == '=':
				m.state = stAttrValueBefore
			default:
				m.endAttr()
				m.state = stAttrBefore
				continue
			}

		case stAttrValueBefore:
			switch {
			case class[c]&cSpace != 0:
			case c == '"' || c == '\'':
				m.quote = c
				m.state = stAttrValueQuoted
			case c == '>':
				m.endAttr()
				m.state = stAttrBefore
				continue
			default:
				m.state = stAttrValueUnquoted
				continue
			}

		case stAttrValueQuoted:
			j := bytes.IndexByte(p[i:], m.quote)
			if j < 0 {
				m.appendValue(p[i:])
				return 0, 0, false
			}
			m.appendValue(p[i : i+j])
			i += j
			m.endAttr()
			m.state = stAttrBefore

		case stAttrValueUnquoted:
			j := i
			for j < len(p) && class[p[j]]&(cSpace|cGT) == 0 {
				j++
			}
			m.appendValue(p[i:j])
			if j == len(p) {
				return 0, 0, false
			}
			i = j
			m.unqEnd = base + j
			m.endAttr()
			m.state = stAttrBefore
			continue

		default:
			i = m.tokScan(p, i)
			continue
		}
		i++
	}
	return 0, 0, false
}

// tagNameEnd returns the index of the first white space byte or > in p
// from j on, or len(p). Tag names are short in markup, but text such as
// <user@example.org> or <https://example.org/> makes long ones; a word
// test finds the first byte below 0x21 or equal to > (exactly: borrows
// only flag bytes above a flagged one), and the byte loop checks it.
func tagNameEnd(p []byte, j int) int {
	for j+8 <= len(p) {
		w := binary.LittleEndian.Uint64(p[j:])
		g := w ^ '>'*ascii.LowBits
		if f := ((w-0x21*ascii.LowBits)&^w | (g-ascii.LowBits)&^g) & ascii.HighBits; f != 0 {
			j += bits.TrailingZeros64(f) >> 3
			break
		}
		j += 8
	}
	for j < len(p) && class[p[j]]&(cSpace|cGT) == 0 {
		j++
	}
	return j
}

// trailingDashes returns how many dashes (at most 2) end the bytes seen so
// far, given that d dashes ended them before seg.
func trailingDashes(d uint8, seg []byte) uint8 {
	n := len(seg)
	switch {
	case n >= 2:
		if seg[n-1] != '-' {
			return 0
		}
		if seg[n-2] != '-' {
			return 1
		}
		return 2
	case n == 1:
		if seg[0] != '-' {
			return 0
		}
		if d >= 1 {
			return 2
		}
		return 1
	}
	return d
}

// startMeta begins a <meta> element: the attribute list is empty, got pragma
// is false, need pragma is null and charset is null.
func (m *metaScan) startMeta() {
	m.inMeta = true
	m.seen = 0
	m.gotPragma = false
	m.needPragma = -1
	m.charsetSet = false
	m.charset = override.Unknown
	m.treeCharset, m.treeContent = override.Unknown, override.Unknown
}

// appendName adds seg, the next bytes of the attribute's name, dropping
// the roles whose name does not go on with seg (A-Z counting as a-z).
func (m *metaScan) appendName(seg []byte) {
	if m.font {
		m.matchFontAttr(seg)
	}
	if m.inMeta && m.nameRole != 0 {
		if m.nameLen == 0 && len(seg) > 0 {
			// The first byte leaves at most two candidates (most names,
			// like name and property, none).
			switch lower(seg[0]) {
			case 'h':
				m.nameRole &= 1 << roleHTTPEquiv
			case 'c':
				m.nameRole &= 1<<roleContent | 1<<roleCharset
			default:
				m.nameRole = 0
			}
		}
		for r := roleHTTPEquiv; m.nameRole != 0 && r <= roleCharset; r++ {
			if bit := uint8(1) << r; m.nameRole&bit != 0 && !hasPrefixFold(roleNames[r], m.nameLen, seg) {
				m.nameRole &^= bit
			}
		}
	}
	m.nameLen += len(seg)
}

// hasPrefixFold reports whether name[at:] starts with seg, with A-Z in seg
// counting as a-z (name is lower case).
func hasPrefixFold(name string, at int, seg []byte) bool {
	if at+len(seg) > len(name) {
		return false
	}
	for k, c := range seg {
		if lower(c) != name[at+k] {
			return false
		}
	}
	return true
}

// afterName goes on from p[i], the white space, /, > or = that ends an
// attribute name, in state stAttrBefore with the name's role set. It returns
// where the scan goes on and true, or false when p ends first (with the state
// saved for the next chunk). The common name="value" is taken whole.
func (m *metaScan) afterName(p []byte, i int) (int, bool) {
	switch c := p[i]; {
	case c == '=':
		if i+1 == len(p) || (p[i+1] != '"' && p[i+1] != '\'') {
			m.state = stAttrValueBefore
			return i + 1, true
		}
		// name="value", the common form.
		q := p[i+1]
		i += 2
		j := bytes.IndexByte(p[i:], q)
		if j < 0 {
			m.quote = q
			m.state = stAttrValueQuoted
			m.appendValue(p[i:])
			return 0, false
		}
		if m.role != roleNone {
			m.wholeValue(p[i : i+j])
		}
		return i + j + 1, true
	case class[c]&cSpace != 0:
		m.state = stAttrSpaces
		return i + 1, true
	default: // / or >
		m.endAttr()
		return i, true
	}
}

// roleOf returns the role of a <meta> attribute named name, before the
// check for a repeated name.
func roleOf(name []byte) role {
	switch len(name) {
	case len("content"):
		switch lower(name[0]) {
		case 'c':
			if foldContent.equal(name) {
				return roleContent
			}
			if foldCharset.equal(name) {
				return roleCharset
			}
		}
	case len("http-equiv"):
		if foldHTTPEquiv.equal(name) {
			return roleHTTPEquiv
		}
	}
	return roleNone
}

// endName is called when an attribute name fed a segment at a time is
// complete.
func (m *metaScan) endName() {
	m.role = roleNone
	if m.font {
		m.endFontAttr()
	}
	if !m.inMeta {
		return
	}
	for r := roleHTTPEquiv; r <= roleCharset; r++ {
		if m.nameRole&(1<<r) != 0 && m.nameLen == len(roleNames[r]) {
			m.setRole(r)
			break
		}
	}
}

// setRole makes r the role of the current attribute of a <meta>, unless an
// attribute of that role came before. The standard adds the name to the
// attribute list once the whole attribute is known; doing it here is the
// same, because an attribute cut off by the end of the input aborts the
// whole prescan.
func (m *metaScan) setRole(r role) {
	m.role = roleNone
	if r == roleNone || m.seen&(1<<r) != 0 {
		return
	}
	m.seen |= 1 << r
	m.role = r
	switch r {
	case roleHTTPEquiv:
		m.eqMatch = 0
	case roleContent:
		m.content.reset(m.legacy)
	case roleCharset:
		m.label.reset()
	}
}

// appendValue adds bytes to the value of the current attribute. Only the
// three roles look at them; A-Z count as a-z, as get an attribute lower-cases
// values.
func (m *metaScan) appendValue(v []byte) {
	switch m.role {
	case roleHTTPEquiv:
		if m.eqMatch < 0 {
			return
		}
		if m.eqMatch+len(v) > len(contentType) {
			m.eqMatch = -1
			return
		}
		for _, c := range v {
			if lower(c) != contentType[m.eqMatch] {
				m.eqMatch = -1
				return
			}
			m.eqMatch++
		}
	case roleContent:
		m.content.feedBytes(v)
	case roleCharset:
		for _, c := range v {
			m.label.add(c)
		}
	}
}

// endAttr is called when an attribute (name and value) is complete: the
// standard's steps for http-equiv, content and charset.
func (m *metaScan) endAttr() {
	switch m.role {
	case roleHTTPEquiv:
		if m.eqMatch == len(contentType) {
			m.gotPragma = true
		}
	case roleContent:
		m.contentDone(m.content.finish())
	case roleCharset:
		m.charsetDone(m.label.lookup(m.legacy))
	}
	m.role = roleNone
}

// wholeValue is appendValue and endAttr for a value given whole, with no
// byte of it fed before.
func (m *metaScan) wholeValue(v []byte) {
	switch m.role {
	case roleHTTPEquiv:
		if foldContentType.equal(v) {
			m.gotPragma = true
		}
	case roleContent:
		m.contentDone(extractWhole(v, m.legacy))
	case roleCharset:
		m.charsetDone(lookupWhole(v, m.legacy))
	}
	m.role = roleNone
}

// contentDone is the step for a content attribute whose value gave enc
// (ok false for nothing).
func (m *metaScan) contentDone(enc override.Encoding, ok bool) {
	if ok {
		m.treeContent = enc
	}
	if ok && !m.charsetSet {
		m.charsetSet = true
		m.charset = enc
		m.needPragma = 1
	}
}

// charsetDone is the step for a charset attribute whose value gave enc
// (override.Unknown for failure).
func (m *metaScan) charsetDone(enc override.Encoding, _ bool) {
	m.treeCharset = enc
	m.charsetSet = true
	m.charset = enc
	m.needPragma = 0
}

// process is the step "Processing", at the > that ends a <meta>.
func (m *metaScan) process() (override.Encoding, bool) {
	m.inMeta = false
	if m.tok {
		// The tree builder's rule ("in head", a start tag whose tag name
		// is meta): the charset attribute's encoding, or else, with
		// http-equiv="content-type", the content attribute's.
		m.charset, m.needPragma = m.treeCharset, 0
		if m.charset == override.Unknown && m.gotPragma {
			m.charset = m.treeContent
		}
	}
	switch {
	case m.needPragma < 0:
		return 0, false
	case m.needPragma == 1 && !m.gotPragma:
		return 0, false
	case m.charset == override.Unknown:
		return 0, false
	case m.charset.IsUTF16():
		return override.UTF8, true
	case m.charset == override.XUserDefined:
		return override.Windows1252, true
	}
	return m.charset, true
}
