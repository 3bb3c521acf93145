package warc

import "strings"

// mediaEssence returns the lower-case "type/subtype" of a single media
// type, or "" if s is not one.
func mediaEssence(s string) string {
	essence, _, _, ok := parseMIMEType(s)
	if !ok {
		return ""
	}
	return essence
}

// extractMIMEType implements the Fetch Standard's extract a MIME type
// (https://fetch.spec.whatwg.org/#concept-header-extract-mime-type) on a
// header value whose fields are already joined with commas. It returns the
// essence ("" on failure) and the charset parameter as written ("" if
// none). A later type replaces an earlier one; it inherits the earlier
// one's charset if it has the same essence and no charset of its own.
func extractMIMEType(value string) (essence, charset string) {
	var lastCharset string // the charset of the last type with a new essence
	var haveLast bool
	for _, v := range splitHeaderValue(value) {
		e, cs, hasCS, ok := parseMIMEType(v)
		if !ok || e == "*/*" {
			continue
		}
		if e != essence {
			lastCharset, haveLast = cs, hasCS
			essence = e
		}
		switch {
		case hasCS:
			charset = cs
		case haveLast:
			charset = lastCharset
		default:
			charset = ""
		}
	}
	return essence, charset
}

// splitHeaderValue splits a header value at commas outside quoted strings
// (Fetch's "get, decode, and split").
func splitHeaderValue(v string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '"':
			quoted = !quoted
		case '\\':
			if quoted {
				i++
			}
		case ',':
			if !quoted {
				out = append(out, v[start:i])
				start = i + 1
			}
		}
	}
	return append(out, v[start:])
}

// isHTTPSpace reports whether c is HTTP whitespace (TAB, LF, CR, SP).
func isHTTPSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func trimHTTPSpace(s string) string {
	for len(s) > 0 && isHTTPSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isHTTPSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// isTokenString reports whether s is a non-empty HTTP token.
func isTokenString(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// parseMIMEType implements the MIME Sniffing Standard's parse a MIME type
// (https://mimesniff.spec.whatwg.org/#parse-a-mime-type), keeping only the
// charset parameter. It returns the essence, the charset value (unquoted)
// and whether there was one, and ok=false on failure.
func parseMIMEType(s string) (essence, charset string, hasCharset, ok bool) {
	s = trimHTTPSpace(s)
	slash := strings.IndexByte(s, '/')
	if slash <= 0 || !isTokenString(s[:slash]) {
		return "", "", false, false
	}
	typ := s[:slash]
	s = s[slash+1:]
	semi := strings.IndexByte(s, ';')
	sub := s
	if semi >= 0 {
		sub, s = s[:semi], s[semi:]
	} else {
		s = ""
	}
	sub = trimHTTPSpace(sub)
	if !isTokenString(sub) {
		return "", "", false, false
	}
	essence = strings.ToLower(typ + "/" + sub)
	// Parameters: s is empty or starts with ';'.
	for len(s) > 0 {
		s = s[1:] // the ';'
		for len(s) > 0 && isHTTPSpace(s[0]) {
			s = s[1:]
		}
		end := strings.IndexAny(s, ";=")
		name := s
		if end >= 0 {
			name, s = s[:end], s[end:]
		} else {
			s = ""
		}
		if len(s) == 0 {
			break
		}
		if s[0] == ';' {
			continue
		}
		s = s[1:] // the '='
		var value string
		if len(s) > 0 && s[0] == '"' {
			value, s = collectQuoted(s)
			if i := strings.IndexByte(s, ';'); i >= 0 {
				s = s[i:]
			} else {
				s = ""
			}
		} else {
			i := strings.IndexByte(s, ';')
			if i >= 0 {
				value, s = s[:i], s[i:]
			} else {
				value, s = s, ""
			}
			value = trimHTTPSpace(value)
			if value == "" {
				continue
			}
		}
		if !hasCharset && strings.EqualFold(name, "charset") && validParamValue(value) {
			charset, hasCharset = value, true
		}
	}
	return essence, charset, hasCharset, true
}

// collectQuoted collects an HTTP quoted string from s (which starts with
// '"'), with "extract-value" set: it returns the unescaped value and the
// rest of s after the closing quote (or the end).
func collectQuoted(s string) (value, rest string) {
	var b strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		i++
		switch c {
		case '"':
			return b.String(), s[i:]
		case '\\':
			if i == len(s) {
				b.WriteByte('\\')
				return b.String(), ""
			}
			b.WriteByte(s[i])
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// validParamValue reports whether v holds only HTTP quoted-string token code
// points (TAB, 0x20-0x7E, 0x80-0xFF).
func validParamValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c != '\t' && (c < 0x20 || c == 0x7f) {
			return false
		}
	}
	return true
}
