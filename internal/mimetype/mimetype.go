// Package mimetype reads a Content-Type header value as browsers do: the
// Fetch Standard's "extract a MIME type", built on the MIME Sniffing
// Standard's "parse a MIME type", keeping what encoding sniffing needs of
// the result: its essence and its charset parameter, the input of "legacy
// extract an encoding".
//
// It is the one implementation shared by package sniff (the transport
// layer's charset), package warc (a stored response's Content-Type) and
// whatever else asks "is this HTML?". It imports nothing of charsniff's and
// allocates only to lower-case an essence written in upper case or to remove
// backslash escapes from a quoted charset.
//
// References:
//   - Fetch, extract a MIME type: https://fetch.spec.whatwg.org/#concept-header-extract-mime-type
//   - Fetch, getting, decoding, and splitting: https://fetch.spec.whatwg.org/#header-value-get-decode-and-split
//   - MIME Sniffing, parse a MIME type: https://mimesniff.spec.whatwg.org/#parse-a-mime-type
//   - Encoding, get an encoding (what a caller does with the charset):
//     https://encoding.spec.whatwg.org/#concept-encoding-get
package mimetype

import "strings"

// A Type is a MIME type reduced to its essence and charset parameter.
// The zero Type is no MIME type.
type Type struct {
	typ, subtype string // as written; HTTP tokens
	// charset is the charset parameter's value: without its quotes, but
	// with its backslash escapes when quoted.
	charset    string
	quoted     bool
	hasCharset bool
}

// ExtractHook is called, if not nil, at each call of Extract: tests count
// with it how often a header is parsed. It is nil outside tests; set it
// only while no Extract runs.
var ExtractHook func()

// Extract is Fetch's "extract a MIME type" on a Content-Type header value
// (bytes as Latin-1 characters; several header fields joined with ", ", as
// Fetch combines them). It reports false on failure: no value parses as a
// MIME type other than */*.
//
// In short: the value splits into MIME types at commas outside quoted
// strings; the last one that parses counts, and the charset of an earlier
// one with the same essence carries over to it when it has none of its own.
// See [Parse] for one MIME type.
func Extract(headerValue string) (Type, bool) {
	if ExtractHook != nil {
		ExtractHook()
	}
	var (
		essence    Type // the type whose essence is current, with its charset
		essenceSet bool
		result     Type
		resultOK   bool
	)
	// "Getting, decoding, and splitting": values split at commas that are
	// not inside a quoted string.
	for pos := 0; ; {
		start := pos
		for pos < len(headerValue) && headerValue[pos] != ',' {
			if headerValue[pos] == '"' {
				pos, _ = skipQuoted(headerValue, pos)
				continue
			}
			pos++
		}
		v := trimTabOrSpace(headerValue[start:pos])
		if m, ok := Parse(v); ok && !(m.typ == "*" && m.subtype == "*") {
			result, resultOK = m, true
			if !essenceSet || !m.sameEssence(essence) {
				essence, essenceSet = m, true
			} else if !m.hasCharset && essence.hasCharset {
				result.charset, result.quoted, result.hasCharset = essence.charset, essence.quoted, true
			}
		}
		if pos >= len(headerValue) {
			break
		}
		pos++ // past the comma
	}
	return result, resultOK
}

// Parse is the MIME Sniffing Standard's "parse a MIME type" of one value,
// keeping the essence and the first valid charset parameter. It reports
// false on failure.
//
// type and subtype must be HTTP tokens (white space is trimmed around the
// whole value and after the subtype only, so "text/ html" fails); parameter
// names are ASCII case-insensitive; an empty parameter (;;) is skipped; the
// first charset whose value holds only HTTP quoted-string token code points
// wins. A value in double quotes may hold ; and , and backslash escapes; an
// unterminated quote runs to the end; what follows the closing quote up to
// the next ; is dropped. An unquoted value runs to the next ; and loses its
// trailing white space but not its leading white space ("charset= gbk" has
// the value " gbk", which get an encoding trims). Single quotes do not
// quote.
func Parse(s string) (Type, bool) {
	var m Type
	s = trimHTTPWhitespace(s)
	slash := strings.IndexByte(s, '/')
	if slash < 0 {
		return Type{}, false
	}
	m.typ = s[:slash]
	if m.typ == "" || !isToken(m.typ) {
		return Type{}, false
	}
	pos := slash + 1
	semi := strings.IndexByte(s[pos:], ';')
	if semi < 0 {
		semi = len(s) - pos
	}
	m.subtype = trimRightHTTPWhitespace(s[pos : pos+semi])
	if m.subtype == "" || !isToken(m.subtype) {
		return Type{}, false
	}
	pos += semi
	for pos < len(s) {
		pos++ // past the ;
		for pos < len(s) && isHTTPWhitespace(s[pos]) {
			pos++
		}
		nameStart := pos
		for pos < len(s) && s[pos] != ';' && s[pos] != '=' {
			pos++
		}
		name := s[nameStart:pos]
		if pos < len(s) {
			if s[pos] == ';' {
				continue
			}
			pos++ // past the =
		}
		if pos >= len(s) {
			break
		}
		var val string
		var q bool
		if s[pos] == '"' {
			end, closed := skipQuoted(s, pos)
			val = s[pos+1 : end]
			if closed {
				val = s[pos+1 : end-1]
			}
			q = true
			pos = end
			for pos < len(s) && s[pos] != ';' {
				pos++
			}
		} else {
			valStart := pos
			for pos < len(s) && s[pos] != ';' {
				pos++
			}
			val = trimRightHTTPWhitespace(s[valStart:pos])
			if val == "" {
				continue
			}
		}
		if !m.hasCharset && len(name) == len("charset") && strings.EqualFold(name, "charset") && isQuotedStringToken(val, q) {
			m.charset, m.quoted, m.hasCharset = val, q, true
		}
	}
	return m, true
}

// Essence returns t's essence, "type/subtype" in lower case; "" for the
// zero Type.
func (t Type) Essence() string {
	if t.typ == "" {
		return ""
	}
	return asciiLower(t.typ) + "/" + asciiLower(t.subtype)
}

// Is reports whether t's essence is essence, which must be in lower case
// ("text/html"). It does not allocate.
func (t Type) Is(essence string) bool {
	slash := strings.IndexByte(essence, '/')
	return slash >= 0 && t.typ != "" &&
		strings.EqualFold(t.typ, essence[:slash]) && strings.EqualFold(t.subtype, essence[slash+1:])
}

// IsHTML reports whether t is an HTML MIME type in the sense of the MIME
// Sniffing Standard ("text/html") or XHTML ("application/xhtml+xml"): a
// document an HTML encoding sniffer applies to.
func (t Type) IsHTML() bool { return t.Is("text/html") || t.Is("application/xhtml+xml") }

// Charset returns t's charset parameter, with quotes and backslash escapes
// removed and case kept, and whether t has one. It allocates only to remove
// escapes.
func (t Type) Charset() (string, bool) {
	if !t.hasCharset {
		return "", false
	}
	raw := t.charset
	if !t.quoted || strings.IndexByte(raw, '\\') < 0 {
		return raw, true
	}
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\\' && i+1 < len(raw) {
			i++
			c = raw[i]
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// RawCharset returns t's charset parameter as it stands in the header value
// (without its quotes), whether it was quoted (and so may hold backslash
// escapes still to be removed), and whether t has a charset parameter. It
// lets a caller remove the escapes into a buffer of its own instead of
// allocating.
func (t Type) RawCharset() (raw string, quoted, ok bool) {
	return t.charset, t.quoted, t.hasCharset
}

// sameEssence reports whether t and u have the same essence.
func (t Type) sameEssence(u Type) bool {
	return strings.EqualFold(t.typ, u.typ) && strings.EqualFold(t.subtype, u.subtype)
}

// skipQuoted is "collect an HTTP quoted string" over the string that starts
// at value[pos] (a "), without removing escapes: it returns the position
// after the closing quote, or len(value) and false if there is none.
func skipQuoted(value string, pos int) (end int, closed bool) {
	for pos++; pos < len(value); pos++ {
		switch value[pos] {
		case '\\':
			pos++
		case '"':
			return pos + 1, true
		}
	}
	return len(value), false
}

// isQuotedStringToken reports whether every code point of the parameter
// value (after removing escapes, if quoted) is an HTTP quoted-string token
// code point: TAB, 20-7E or 80-FF.
func isQuotedStringToken(v string, quoted bool) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if quoted && c == '\\' && i+1 < len(v) {
			i++
			c = v[i]
		}
		if c != '\t' && (c < 0x20 || c == 0x7F) {
			return false
		}
	}
	return true
}

// isToken reports whether s holds only HTTP token code points.
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if !tokenByte[s[i]] {
			return false
		}
	}
	return true
}

// tokenByte marks the HTTP token code points: ! # $ % & ' * + - . ^ _ ` | ~,
// digits and ASCII letters.
var tokenByte = func() (t [256]bool) {
	for _, c := range []byte("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
		t[c] = true
	}
	return t
}()

// isHTTPWhitespace reports whether c is HTTP whitespace: LF, CR, TAB or SPACE.
func isHTTPWhitespace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func trimHTTPWhitespace(s string) string {
	for len(s) > 0 && isHTTPWhitespace(s[0]) {
		s = s[1:]
	}
	return trimRightHTTPWhitespace(s)
}

func trimRightHTTPWhitespace(s string) string {
	for len(s) > 0 && isHTTPWhitespace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// trimTabOrSpace removes HTTP tab or space (TAB, SPACE) from both ends.
func trimTabOrSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// asciiLower maps A-Z to a-z; it allocates only if s has such a letter.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
