package sniff

import (
	"strings"

	"github.com/charsniff/charsniff/override"
)

// ContentTypeCharset returns the charset parameter of a Content-Type header
// value as browsers read it: the charset of the MIME type that Fetch's
// "extract a MIME type" yields (https://fetch.spec.whatwg.org/#concept-header-extract-mime-type),
// the input of "legacy extract an encoding". It reports false when the value
// is no valid MIME type or the MIME type has no charset parameter. The
// charset is returned as written, not resolved: "get an encoding" (or
// [override.Lookup]) turns it into an encoding.
//
// The value is a header value as received (bytes as Latin-1 characters). Give
// repeated Content-Type headers joined with ", ", as Fetch combines them.
// The rules, in short:
//   - The value splits into MIME types at commas outside quoted strings; the
//     last valid one counts, and a charset of an earlier one with the same
//     type/subtype carries over to it when it has none. */* is skipped.
//   - type and subtype must be HTTP tokens; parameter names are ASCII
//     case-insensitive tokens; an empty parameter (;;) is skipped.
//   - The first valid charset parameter of a MIME type wins.
//   - A value in double quotes may contain ; and , and backslash escapes; an
//     unterminated quote runs to the end; anything between the closing quote
//     and the next ; is dropped. Single quotes do not quote.
//   - An unquoted value runs to the next ; and loses trailing white space, so
//     "charset=Shift_JIS garbage" has the charset "Shift_JIS garbage" (which
//     names no encoding).
//
// Deliberate differences from mime.ParseMediaType, which follows RFC 2045 and
// RFC 2231 instead: white space after = belongs to the value (get an encoding
// removes it); repeated parameters are not an error (the first wins);
// empty parameters, an unterminated quote and bytes after a closing quote or
// after a token value are accepted; a missing subtype is an error; commas
// separate MIME types; RFC 2231 continuations (charset*=...) are not decoded.
//
// ContentTypeCharset allocates only to remove backslash escapes.
func ContentTypeCharset(contentType string) (charset string, ok bool) {
	raw, quoted, ok := extractCharset(contentType)
	if !ok {
		return "", false
	}
	if !quoted || strings.IndexByte(raw, '\\') < 0 {
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

// transportEncoding is "legacy extract an encoding" of the Content-Type
// header value: the encoding its charset names, if any. It does not allocate.
func transportEncoding(contentType string, legacy bool) (override.Encoding, bool) {
	raw, quoted, ok := extractCharset(contentType)
	if !ok {
		return override.Unknown, false
	}
	if !quoted || strings.IndexByte(raw, '\\') < 0 {
		if legacy {
			return override.LookupLegacy(raw)
		}
		return override.Lookup(raw)
	}
	// Remove the escapes into a label-sized buffer, dropping leading and
	// trailing ASCII whitespace as get an encoding does.
	var buf [maxLabel]byte
	n, end := 0, 0 // buf[:n] starts at the first byte other than white space; buf[:end] ends at the last
	spilled := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\\' && i+1 < len(raw) {
			i++
			c = raw[i]
		}
		switch {
		case isASCIIWhitespace(c) && n == 0:
		case isASCIIWhitespace(c):
			if n < len(buf) {
				buf[n] = c
				n++
			} else {
				spilled = true
			}
		case spilled || n == len(buf):
			return override.Unknown, false // longer than any label
		default:
			buf[n] = c
			n++
			end = n
		}
	}
	if legacy {
		return override.LookupLegacyBytes(buf[:end])
	}
	return override.LookupBytes(buf[:end])
}

// maxLabel bounds the labels transportEncoding looks up after removing
// escapes: far longer than any label of the Encoding Standard.
const maxLabel = 64

// mimeCharset is what extractCharset keeps of one parsed MIME type.
type mimeCharset struct {
	typ, subtype string // the essence, as written
	charset      string // the raw charset value (escapes kept when quoted)
	quoted       bool
	has          bool // the MIME type has a charset parameter
}

// extractCharset is Fetch's "extract a MIME type" over a header value,
// keeping only the essence and the charset parameter of each MIME type. It
// returns the raw charset value of the resulting MIME type, whether it was
// quoted (so that backslash escapes remain to be removed), and false when
// there is no MIME type or it has no charset.
func extractCharset(value string) (raw string, quoted bool, ok bool) {
	var (
		essenceSet bool
		essence    mimeCharset // the essence, and the charset that goes with it
		result     mimeCharset
		resultOK   bool
	)
	// "Getting, decoding, and splitting": values split at commas that are
	// not inside a quoted string.
	for pos := 0; ; {
		start := pos
		for pos < len(value) && value[pos] != ',' {
			if value[pos] == '"' {
				pos, _ = skipQuoted(value, pos)
				continue
			}
			pos++
		}
		v := trimHTTPTabOrSpace(value[start:pos])
		if m, ok := parseMIMEType(v); ok && !(m.typ == "*" && m.subtype == "*") {
			result, resultOK = m, true
			if !essenceSet || !strings.EqualFold(m.typ, essence.typ) || !strings.EqualFold(m.subtype, essence.subtype) {
				essence, essenceSet = m, true
			} else if !m.has && essence.has {
				result.charset, result.quoted, result.has = essence.charset, essence.quoted, true
			}
		}
		if pos >= len(value) {
			break
		}
		pos++ // past the comma
	}
	if !resultOK || !result.has {
		return "", false, false
	}
	return result.charset, result.quoted, true
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

// parseMIMEType is the MIME Sniffing Standard's "parse a MIME type"
// (https://mimesniff.spec.whatwg.org/#parse-a-mime-type), keeping the
// essence and the first valid charset parameter.
func parseMIMEType(s string) (m mimeCharset, ok bool) {
	s = trimHTTPWhitespace(s)
	slash := strings.IndexByte(s, '/')
	if slash < 0 {
		return m, false
	}
	m.typ = s[:slash]
	if m.typ == "" || !isToken(m.typ) {
		return m, false
	}
	pos := slash + 1
	semi := strings.IndexByte(s[pos:], ';')
	if semi < 0 {
		semi = len(s) - pos
	}
	m.subtype = trimRightHTTPWhitespace(s[pos : pos+semi])
	if m.subtype == "" || !isToken(m.subtype) {
		return m, false
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
		if !m.has && len(name) == len("charset") && strings.EqualFold(name, "charset") && isQuotedStringToken(val, q) {
			m.charset, m.quoted, m.has = val, q, true
		}
	}
	return m, true
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

// isASCIIWhitespace reports whether c is ASCII whitespace: TAB, LF, FF, CR or SPACE.
func isASCIIWhitespace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

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

// trimHTTPTabOrSpace removes HTTP tab or space (TAB, SPACE) from both ends.
func trimHTTPTabOrSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}
