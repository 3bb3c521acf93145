package reference

import "strings"

// MIMEType is a parsed MIME type.
type MIMEType struct {
	Type, Subtype string
	Parameters    map[string]string // names lower-cased; values with escapes removed
}

// Essence is type "/" subtype.
func (m *MIMEType) Essence() string { return m.Type + "/" + m.Subtype }

const (
	httpWhitespace    = "\n\r\t "
	httpTabOrSpace    = "\t "
	httpTokenExtra    = "!#$%&'*+-.^_`|~"
	asciiAlphanumeric = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

func solelyHTTPToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(httpTokenExtra+asciiAlphanumeric, rune(s[i])) {
			return false
		}
	}
	return true
}

func solelyQuotedStringToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '\t' || (0x20 <= c && c <= 0x7E) || c >= 0x80) {
			return false
		}
	}
	return true
}

// collect is "collect a sequence of code points" that satisfy keep,
// starting at *position.
func collect(input string, position *int, keep func(byte) bool) string {
	start := *position
	for *position < len(input) && keep(input[*position]) {
		*position++
	}
	return input[start:*position]
}

// CollectHTTPQuotedString is Fetch's "collect an HTTP quoted string".
func CollectHTTPQuotedString(input string, position *int, extractValue bool) string {
	// 1. Let positionStart be position.
	positionStart := *position
	// 2. Let value be the empty string.
	value := ""
	// 3-4. Assert the code point at position is "; advance past it.
	*position++
	// 5. While true:
	for {
		// 1. Append the code points that are not " or \.
		value += collect(input, position, func(c byte) bool { return c != '"' && c != '\\' })
		// 2. If position is past the end of input, break.
		if *position >= len(input) {
			break
		}
		// 3-4. Let quoteOrBackslash be the code point at position; advance.
		quoteOrBackslash := input[*position]
		*position++
		// 5. If quoteOrBackslash is \:
		if quoteOrBackslash == '\\' {
			// 1. If position is past the end, append \ and break.
			if *position >= len(input) {
				value += `\`
				break
			}
			// 2-3. Append the code point at position; advance.
			value += input[*position : *position+1]
			*position++
		} else {
			// 6. Otherwise it is "; break.
			break
		}
	}
	// 6. If extract-value is true, return value.
	if extractValue {
		return value
	}
	// 7. Return the code points from positionStart to position.
	return input[positionStart:*position]
}

// ParseMIMEType is the MIME Sniffing Standard's "parse a MIME type"; nil is
// failure.
func ParseMIMEType(input string) *MIMEType {
	isWS := func(c byte) bool { return strings.IndexByte(httpWhitespace, c) >= 0 }
	// 1. Remove leading and trailing HTTP whitespace.
	input = strings.Trim(input, httpWhitespace)
	// 2. Let position be at the start of input.
	position := 0
	// 3. Let type be the code points up to /.
	typ := collect(input, &position, func(c byte) bool { return c != '/' })
	// 4. If type is empty or not solely HTTP token code points, failure.
	if typ == "" || !solelyHTTPToken(typ) {
		return nil
	}
	// 5. If position is past the end of input, failure.
	if position >= len(input) {
		return nil
	}
	// 6. Advance past /.
	position++
	// 7. Let subtype be the code points up to ;.
	subtype := collect(input, &position, func(c byte) bool { return c != ';' })
	// 8. Remove trailing HTTP whitespace from subtype.
	subtype = strings.TrimRight(subtype, httpWhitespace)
	// 9. If subtype is empty or not solely HTTP token code points, failure.
	if subtype == "" || !solelyHTTPToken(subtype) {
		return nil
	}
	// 10. A new MIME type, type and subtype lower-cased.
	m := &MIMEType{Type: asciiLower(typ), Subtype: asciiLower(subtype), Parameters: map[string]string{}}
	// 11. While position is not past the end of input:
	for position < len(input) {
		// 1. Advance past ;.
		position++
		// 2. Skip HTTP whitespace.
		collect(input, &position, isWS)
		// 3. Let parameterName be the code points up to ; or =.
		parameterName := collect(input, &position, func(c byte) bool { return c != ';' && c != '=' })
		// 4. ASCII lower-case it.
		parameterName = asciiLower(parameterName)
		// 5. If position is not past the end of input:
		if position < len(input) {
			// 1. If the code point at position is ;, continue.
			if input[position] == ';' {
				continue
			}
			// 2. Advance past =.
			position++
		}
		// 6. If position is past the end of input, break.
		if position >= len(input) {
			break
		}
		// 7. Let parameterValue be null.
		var parameterValue string
		// 8. If the code point at position is ":
		if input[position] == '"' {
			// 1. Collect an HTTP quoted string, extracting the value.
			parameterValue = CollectHTTPQuotedString(input, &position, true)
			// 2. Skip the code points up to ;.
			collect(input, &position, func(c byte) bool { return c != ';' })
		} else {
			// 9. Otherwise: the code points up to ;, trailing HTTP
			// whitespace removed; if empty, continue.
			parameterValue = collect(input, &position, func(c byte) bool { return c != ';' })
			parameterValue = strings.TrimRight(parameterValue, httpWhitespace)
			if parameterValue == "" {
				continue
			}
		}
		// 10. Set the parameter if the name is a non-empty token, the
		// value holds only quoted-string token code points, and the name
		// is not yet a parameter.
		if _, exists := m.Parameters[parameterName]; parameterName != "" && solelyHTTPToken(parameterName) &&
			solelyQuotedStringToken(parameterValue) && !exists {
			m.Parameters[parameterName] = parameterValue
		}
	}
	// 12. Return mimeType.
	return m
}

// GetDecodeAndSplit is Fetch's "getting, decoding, and splitting" of one
// header value (already isomorphic decoded).
func GetDecodeAndSplit(input string) []string {
	// 2-4.
	position := 0
	var values []string
	temporaryValue := ""
	// 5. While true:
	for {
		// 1. Append the code points that are not " or ,.
		temporaryValue += collect(input, &position, func(c byte) bool { return c != '"' && c != ',' })
		// 2. If the code point at position is ":
		if position < len(input) && input[position] == '"' {
			// 1. Append the result of collecting an HTTP quoted string.
			temporaryValue += CollectHTTPQuotedString(input, &position, false)
			// 2. If position is not past the end of input, continue.
			if position < len(input) {
				continue
			}
		}
		// 3. Remove HTTP tab or space from both ends.
		temporaryValue = strings.Trim(temporaryValue, httpTabOrSpace)
		// 4-5. Append it to values; reset it.
		values = append(values, temporaryValue)
		temporaryValue = ""
		// 6. If position is past the end of input, return values.
		if position >= len(input) {
			return values
		}
		// 7-8. Assert the code point at position is ,; advance.
		position++
	}
}

// ExtractMIMEType is Fetch's "extract a MIME type" for a Content-Type header
// value; nil is failure.
func ExtractMIMEType(headerValue string) *MIMEType {
	// 1-3.
	var charset *string
	var essence *string
	var mimeType *MIMEType
	// 4. values: getting, decoding, and splitting Content-Type.
	values := GetDecodeAndSplit(headerValue)
	// 6. For each value of values:
	for _, value := range values {
		// 1. Let temporaryMimeType be the result of parsing value.
		temporaryMimeType := ParseMIMEType(value)
		// 2. If it is failure or its essence is */*, continue.
		if temporaryMimeType == nil || temporaryMimeType.Essence() == "*/*" {
			continue
		}
		// 3. Set mimeType to it.
		mimeType = temporaryMimeType
		// 4. If mimeType's essence is not essence:
		if e := mimeType.Essence(); essence == nil || e != *essence {
			charset = nil
			if v, ok := mimeType.Parameters["charset"]; ok {
				charset = &v
			}
			essence = &e
		} else if _, ok := mimeType.Parameters["charset"]; !ok && charset != nil {
			// 5. Otherwise, if mimeType has no charset and charset is
			// non-null, set mimeType's charset to charset.
			mimeType.Parameters["charset"] = *charset
		}
	}
	// 7-8.
	return mimeType
}

// ContentTypeCharset is the charset parameter of ExtractMIMEType(headerValue).
func ContentTypeCharset(headerValue string) (string, bool) {
	m := ExtractMIMEType(headerValue)
	if m == nil {
		return "", false
	}
	v, ok := m.Parameters["charset"]
	return v, ok
}
