package prescan

import "bytes"

// Options.Tokenizer: the <meta> scan sees the markup as the HTML Standard's
// tokenizer does (https://html.spec.whatwg.org/multipage/parsing.html#tokenization),
// so that it acts only on a <meta> start tag a parser would meet. The
// differences from the prescan:
//
//   - A tag name ends at white space, / or > (the prescan's ends at white
//     space or >), and a start tag named in rawNames switches to the
//     element's text state once its > is reached: RAWTEXT or RCDATA up to
//     its end tag, script data (with the escaped and double escaped states
//     <!-- and <script> open inside it) up to </script, or PLAINTEXT to the
//     end. An end tag found there is scanned as any end tag, attributes
//     and all.
//   - A comment also ends at --!>, and <!--!> does not end it.
//
// Tags, attributes, <!, </ and <? are scanned as in the prescan, which
// matches the tokenizer's states for them. noscript is raw text (scripting
// on). What the tree builder does to the tokenizer (foreign content, where
// a <script> is no script data and CDATA sections exist; frameset, after
// which no <meta> counts) follows a model of it (tree.go), and a <meta> is
// judged by the tree builder's rule: its charset attribute's encoding, or
// else, with http-equiv="content-type", its content attribute's.
//
// golang.org/x/net/html's tokenizer, the tests' oracle, differs from the
// standard in one state: in script data escaped less-than sign, a byte
// other than / or a letter goes back to script data there (it reconsumes
// in script data escaped in the standard, and in browsers), so that
// "<script><!--<!--<script></script>" ends its script at the </script>
// for x/net only. The scan follows the standard; the tests check that this
// is the only difference (xnetEscapes).

// xnetEscapes, false but in tests, makes script data escaped less-than
// sign go to script data on a byte other than / or a letter, as x/net's
// tokenizer does, so that the tests can compare the scan with x/net's on
// any input (export_test.go's XNetEscapes). A package variable, not a
// Scanner's field: a scan never needs it, and the switch that reads it
// compiles as it did when it was a field.
var xnetEscapes bool

// rawNames are the start tags after which the tokenizer leaves the data
// state; index 0 is unused.
var rawNames = [...]string{
	"", "script", "plaintext", // the two with states of their own
	"style", "xmp", "iframe", "noembed", "noframes", "noscript", // RAWTEXT
	"title", "textarea", // RCDATA
}

const (
	rawScript    = 1
	rawPlaintext = 2
)

// The comment states of the tokenizer, in k while in stTokComment.
const (
	comData      = iota // comment state
	comDash             // comment end dash state
	comEnd              // comment end state (after --)
	comBang             // comment end bang state (after --!)
	comStart            // comment start state (after <!--)
	comStartDash        // comment start dash state (after <!---)
)

// beginTag starts a tag name at the letter after < (or </, if end).
func (m *metaScan) beginTag(end bool) {
	m.state = stTokName
	m.end, m.tagN, m.raw, m.inMeta, m.info = end, 0, 0, false, 0
	m.tag = [16]byte{}
	m.font, m.fontBreak = false, false
}

// appendTag adds seg to the tag name: its bytes ORed with 0x20 (lower case
// for a letter, and a letter only for a letter, which is all the names
// compared hold), or a count past len(tag) for a longer name.
func (m *metaScan) appendTag(seg []byte) {
	n := int(m.tagN)
	if n+len(seg) > maxName {
		m.tagN = maxName + 1
		return
	}
	for k, c := range seg {
		m.tag[n+k] = c | 0x20
	}
	m.tagN += uint8(len(seg))
}

// endTagName ends the tag name in m.tag at the byte that ends it.
func (m *metaScan) endTagName() {
	m.state = stAttrBefore
	m.info, m.raw, m.hash = 0, 0, 0x1FFF // a longer name: none the model knows
	if m.tagN <= maxName {
		w0, w1 := packName(&m.tag)
		k := nameKey(w0, w1)
		m.hash = uint16(k>>20) & 0x1FFF
		m.info, m.raw = lookupName(w0, w1, k)
		if !m.end && m.info&(tMeta|tFont) != 0 {
			if m.info&tMeta != 0 {
				m.startMeta()
			} else {
				m.font = true
			}
		}
	}
	if m.end {
		m.raw = 0
		m.endTag()
	}
}

// enterRaw switches to the text state of rawNames[m.raw], at the > of its
// start tag.
func (m *metaScan) enterRaw() {
	switch m.raw {
	case rawScript:
		m.state = stScript
	case rawPlaintext:
		m.state = stPlain
	default:
		m.state = stRawText
	}
}

// isEndName reports whether c ends an appropriate end tag's name: white
// space, / or >.
func isEndName(c byte) bool { return class[c]&(cSpace|cSlash|cGT) != 0 }

// matchName goes on matching the name of a (possible) end tag or double
// escape against rawNames[m.raw] with letter c: m.k bytes matched, unless
// m.fail.
func (m *metaScan) matchName(c byte) {
	name := rawNames[m.raw]
	if !m.fail && int(m.k) < len(name) && lower(c) == name[m.k] {
		m.k++
	} else {
		m.fail = true
	}
}

// named reports whether the name matched by matchName is rawNames[m.raw].
func (m *metaScan) named() bool { return !m.fail && int(m.k) == len(rawNames[m.raw]) }

// endRaw is the appropriate end tag of the raw element, at the byte after
// its name: the tag goes on as any end tag.
func (m *metaScan) endRaw() {
	m.state, m.raw, m.inMeta, m.end, m.info = stAttrBefore, 0, false, true, 0
}

// tokScan runs the states of Options.Tokenizer from p[i] and returns the
// index of the next byte to look at (in the state it leaves). It consumes
// at least one byte or changes the state.
func (m *metaScan) tokScan(p []byte, i int) int {
	c := p[i]
	switch m.state {
	case stTokName:
		j := i
		for j < len(p) && class[p[j]]&(cSpace|cSlash|cGT) == 0 {
			j++
		}
		m.appendTag(p[i:j])
		if j < len(p) {
			m.endTagName()
		}
		return j

	case stTokComment:
		return m.comment(p, i)

	case stRawText:
		return m.skipToLT(p, i, stRawLT)
	case stRawLT:
		return m.lessThan(c, i, stRawEnd, stRawText)
	case stRawEnd:
		return m.rawEndName(c, i, stRawText)

	case stPlain:
		return len(p)

	case stScript:
		return m.skipToLT(p, i, stScriptLT)
	case stScriptLT:
		switch c {
		case '/':
			m.state, m.k, m.fail = stScriptEnd, 0, false
			return i + 1
		case '!':
			m.state = stScriptEscStart
			return i + 1
		}
		m.state = stScript
	case stScriptEnd:
		return m.rawEndName(c, i, stScript)
	case stScriptEscStart:
		if c == '-' {
			m.state = stScriptEscStartDash
			return i + 1
		}
		m.state = stScript
	case stScriptEscStartDash:
		if c == '-' {
			m.state = stScriptEscDashDash
			return i + 1
		}
		m.state = stScript

	case stScriptEsc, stScriptEscDash, stScriptEscDashDash:
		return m.escaped(p, i, stScriptEsc, stScriptEscLT)
	case stScriptEscLT:
		switch {
		case c == '/':
			m.state, m.k, m.fail = stScriptEscEnd, 0, false
			return i + 1
		case isLetter(c):
			m.state, m.k, m.fail = stScriptDblStart, 0, false
		case xnetEscapes:
			m.state = stScript
		default:
			m.state = stScriptEsc
		}
	case stScriptEscEnd:
		return m.rawEndName(c, i, stScriptEsc)
	case stScriptDblStart:
		return m.doubleName(c, i, stScriptDbl, stScriptEsc, stScriptEsc)

	case stScriptDbl, stScriptDblDash, stScriptDblDashDash:
		return m.escaped(p, i, stScriptDbl, stScriptDblLT)
	case stScriptDblLT:
		return m.lessThan(c, i, stScriptDblEnd, stScriptDbl)
	case stScriptDblEnd:
		return m.doubleName(c, i, stScriptEsc, stScriptDbl, stScriptDbl)

	case stCDATAOpen:
		// <![ and the rest of "[CDATA[", case-sensitive; anything else
		// is a bogus comment, which this byte may end.
		if c != "[CDATA["[m.k] {
			m.state = stBogus
			return i
		}
		if m.k++; m.k == 7 {
			m.state, m.k = stCDATA, 0
		}
		return i + 1
	case stCDATA:
		return m.cdata(p, i)
	}
	return i
}

// text passes over the text of the data state from p[i] while frameset-ok
// is "ok": a byte other than white space and NUL clears it. It returns the
// index of that byte or of the next <, or len(p).
func (m *metaScan) text(p []byte, i int) int {
	for i < len(p) && textClass[p[i]] == 0 {
		i++
	}
	if i < len(p) && p[i] != '<' {
		m.fsOK = false
	}
	return i
}

// textClass is 0 for the bytes of text that leave frameset-ok as it is
// (white space and NUL), 1 for the others.
var textClass = func() (t [256]uint8) {
	for c := range t {
		if !isSpace(byte(c)) && c != 0 {
			t[c] = 1
		}
	}
	return t
}()

// cdata runs the CDATA section states from p[i]: the section, text, ends
// at ]]>.
func (m *metaScan) cdata(p []byte, i int) int {
	for ; i < len(p); i++ {
		switch c := p[i]; {
		case c == ']':
			if m.k < 2 {
				m.k++
			}
			continue
		case c == '>' && m.k == 2:
			m.state = stLoop
			return i + 1
		case m.fsOK && !isSpace(c) && c != 0:
			m.fsOK = false
		}
		if m.k != 0 && m.fsOK {
			m.fsOK = false // the ]s were text
		}
		m.k = 0
		if !m.fsOK {
			j := bytes.IndexByte(p[i+1:], ']')
			if j < 0 {
				return len(p)
			}
			i += j
		}
	}
	return i
}

// skipToLT passes over text up to the next '<' of p[i:] and, when there is
// one, moves to lt just past it; it returns where the scan goes on.
func (m *metaScan) skipToLT(p []byte, i int, lt state) int {
	j := bytes.IndexByte(p[i:], '<')
	if j < 0 {
		return len(p)
	}
	m.state = lt
	return i + j + 1
}

// lessThan is a less-than sign state (RAWTEXT, RCDATA or script data double
// escaped) at c = p[i]: a / goes to the end tag name state end (its name
// not yet matched), any other byte back to text, where it is looked at
// again.
func (m *metaScan) lessThan(c byte, i int, end, text state) int {
	if c == '/' {
		m.state, m.k, m.fail = end, 0, false
		return i + 1
	}
	m.state = text
	return i
}

// rawEndName is a RAWTEXT, RCDATA, script data or script data escaped end tag
// name state at c = p[i], going back to text when the name is not the
// element's: the byte that shows it is looked at again there.
func (m *metaScan) rawEndName(c byte, i int, text state) int {
	if isLetter(c) {
		m.matchName(c)
		if !m.fail {
			return i + 1
		}
	} else if m.named() && isEndName(c) {
		m.endRaw()
		return i
	}
	m.state = text
	return i
}

// doubleName is the script data double escape start or end state at
// c = p[i]: a name of "script" ended by white space, / or > goes to yes,
// any other name to no; a byte that ends no name is looked at again in
// back, the state the double escape start or end came from.
func (m *metaScan) doubleName(c byte, i int, yes, no, back state) int {
	switch {
	case isEndName(c):
		if m.named() {
			m.state = yes
		} else {
			m.state = no
		}
		return i + 1
	case isLetter(c):
		m.matchName(c)
		return i + 1
	}
	m.state = back
	return i
}

// escaped runs the script data (double) escaped, dash and dash dash states,
// whose first is text, from p[i]: - moves on to dash and dash dash, < goes
// to lt, > after two dashes back to script data.
func (m *metaScan) escaped(p []byte, i int, text, lt state) int {
	dashDash := text + 2 // the order of the state constants
	for ; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '-':
			if m.state != dashDash {
				m.state++
			}
		case c == '<':
			m.state = lt
			return i + 1
		case c == '>' && m.state == dashDash:
			m.state = stScript
			return i + 1
		default:
			m.state = text
			if j := bytes.IndexAny(p[i+1:], "-<"); j >= 0 {
				i += j
			} else {
				return len(p)
			}
		}
	}
	return i
}

// comment runs the tokenizer's comment states from p[i]: a comment ends at
// -->, --!>, <!--> or <!--->.
func (m *metaScan) comment(p []byte, i int) int {
	for ; i < len(p); i++ {
		c := p[i]
		switch c {
		case '-':
			switch m.k {
			case comStart:
				m.k = comStartDash
			case comData, comBang:
				m.k = comDash
			default: // comDash, comEnd, comStartDash
				m.k = comEnd
			}
		case '>':
			switch m.k {
			case comStart, comStartDash, comEnd, comBang:
				m.state = stLoop
				return i + 1
			}
			m.k = comData
		case '!':
			if m.k == comEnd {
				m.k = comBang
			} else {
				m.k = comData
			}
		default:
			m.k = comData
			j := bytes.IndexByte(p[i+1:], '-')
			if j < 0 {
				return len(p)
			}
			i += j
		}
	}
	return i
}
