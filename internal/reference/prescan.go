// Package reference is a slow, literal transcription of the encoding-sniffing
// algorithms of the WHATWG HTML Standard and of Fetch's Content-Type charset
// extraction. It is written to read like the standards, step by step, with
// strings and allocations, and serves the tests of the fast packages as an
// oracle: prescan and sniff must answer exactly as this package does.
//
// Where the standard leaves a choice to the implementation, this package makes
// the same choice as package prescan, and says so:
//   - The end condition of the prescan is a byte count (the window): the scan
//     aborts when its position reaches window (or the end of the input).
//   - "Get an XML encoding" reads the whole input, not only the window; the
//     UTF-16 XML prefix reads the first six bytes, whatever the window.
//   - In legacy mode, labels longer than 64 bytes (prescan.MaxLabel) after
//     removing surrounding ASCII whitespace are not looked up.
//
// References:
//   - https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding
//   - https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element
//   - https://fetch.spec.whatwg.org/#concept-header-extract-mime-type
package reference

import (
	"bytes"
	"strings"

	"github.com/charsniff/charsniff/override"
)

// PrescanResult is the answer of [Prescan].
type PrescanResult struct {
	Encoding override.Encoding // override.Unknown when nothing was found
	Source   string            // "meta", "xml", "utf-16 xml", or "" when nothing was found
	Offset   int               // past the last byte the answer depended on; 0 when nothing was found
}

// abort is panicked with when the prescan's position moves past the last
// byte it may examine.
type abort struct{}

// prescanner holds the byte stream and the position pointer.
type prescanner struct {
	input    []byte
	end      int // min(len(input), window): the first position the prescan may not examine
	legacy   bool
	position int
}

// byteAt returns the byte at pos, aborting the prescan if pos is past the end
// condition or past the last byte.
func (p *prescanner) byteAt(pos int) byte {
	if pos >= p.end {
		panic(abort{})
	}
	return p.input[pos]
}

// startsWith reports whether the bytes at position start with one of the
// alternatives given for each byte; a sequence cut off by the end condition
// does not match.
func (p *prescanner) startsWith(alternatives ...string) bool {
	for i, alt := range alternatives {
		pos := p.position + i
		if pos >= p.end || strings.IndexByte(alt, p.input[pos]) < 0 {
			return false
		}
	}
	return true
}

// Prescan is "prescan a byte stream to determine its encoding" over input,
// with the end condition "window bytes examined" (window < 0 means no limit).
func Prescan(input []byte, window int, legacy bool) (result PrescanResult) {
	p := &prescanner{input: input, end: len(input), legacy: legacy}
	if window >= 0 && window < p.end {
		p.end = window
	}
	// If at any point the position moves past the end, abort the prescan and
	// return the result of get an XML encoding applied to the byte stream.
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abort); !ok {
				panic(r)
			}
			result = GetXMLEncoding(input, legacy)
		}
	}()
	return p.run()
}

func (p *prescanner) run() PrescanResult {
	// 1. Let position be a pointer to a byte in the input byte stream,
	// initially pointing at the first byte.
	p.position = 0

	// 2. Prescan for UTF-16 XML declarations: if position points to
	// 3C 00 3F 00 78 00, return UTF-16LE; to 00 3C 00 3F 00 78, UTF-16BE.
	// (These look at the stream itself, not at the window.)
	if bytes.HasPrefix(p.input, []byte{0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00}) {
		return PrescanResult{override.UTF16LE, "utf-16 xml", 6}
	}
	if bytes.HasPrefix(p.input, []byte{0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78}) {
		return PrescanResult{override.UTF16BE, "utf-16 xml", 6}
	}

	const space = "\x09\x0A\x0C\x0D\x20"
	const letter = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	for {
		// 3. Loop: if position points to ...
		p.byteAt(p.position)
		switch {
		case p.startsWith("<", "!", "-", "-"):
			// <!--: advance position to the first > preceded by two dashes,
			// after the <; the dashes may be those of <!--.
			p.position += 2 // at the first dash
			for {
				p.position++
				if p.byteAt(p.position) == '>' && p.input[p.position-1] == '-' && p.input[p.position-2] == '-' {
					break
				}
			}

		case p.startsWith("<", "Mm", "Ee", "Tt", "Aa", space+"/"):
			// <meta followed by white space or /.
			if r, ok := p.meta(); ok {
				return r
			}

		case p.startsWith("<", letter), p.startsWith("<", "/", letter):
			// 1. Advance position to the next 09 0A 0C 0D 20 or > byte.
			for p.position++; !strings.Contains(space+">", string(p.byteAt(p.position))); p.position++ {
			}
			// 2. Repeatedly get an attribute until no further attributes
			// can be found, then jump to the step "next byte".
			for {
				if _, _, ok := p.getAnAttribute(); !ok {
					break
				}
			}

		case p.startsWith("<", "!/?"):
			// Advance position to the first > after the <.
			for p.position++; p.byteAt(p.position) != '>'; p.position++ {
			}

		default:
			// Any other byte: do nothing with it.
		}
		// 4. Next byte: move position to the next byte and go to "Loop".
		p.position++
	}
}

// meta is the <meta> branch of the loop. position points at the <.
func (p *prescanner) meta() (PrescanResult, bool) {
	// 1. Advance position to the white space or / after <meta.
	p.position += 5
	// 2-5.
	var attributeList []string
	gotPragma := false
	var needPragma *bool // null
	var charset *override.Encoding
	for {
		// 6. Attributes: get an attribute and its value. If none, jump to
		// the step "processing".
		name, value, ok := p.getAnAttribute()
		if !ok {
			break
		}
		// 7. If the attribute's name is already in attribute list, return
		// to the step "attributes".
		if contains(attributeList, name) {
			continue
		}
		// 8. Add the attribute's name to attribute list.
		attributeList = append(attributeList, name)
		// 9. Run the appropriate step, if one applies.
		switch name {
		case "http-equiv":
			if value == "content-type" {
				gotPragma = true
			}
		case "content":
			if enc, ok := ExtractFromMeta(value, p.legacy); ok && charset == nil {
				charset = &enc
				needPragma = ptr(true)
			}
		case "charset":
			enc, _ := getAnEncoding(value, p.legacy) // override.Unknown is failure
			charset = &enc
			needPragma = ptr(false)
		}
		// 10. Return to the step "attributes".
	}
	// 11. Processing: if need pragma is null, jump to "next byte".
	if needPragma == nil {
		return PrescanResult{}, false
	}
	// 12. If need pragma is true but got pragma is false, "next byte".
	if *needPragma && !gotPragma {
		return PrescanResult{}, false
	}
	// 13. If charset is failure, "next byte".
	if *charset == override.Unknown {
		return PrescanResult{}, false
	}
	// 14. If charset is UTF-16BE/LE, set it to UTF-8.
	enc := *charset
	if enc == override.UTF16BE || enc == override.UTF16LE {
		enc = override.UTF8
	}
	// 15. If charset is x-user-defined, set it to windows-1252.
	if enc == override.XUserDefined {
		enc = override.Windows1252
	}
	// 16. Abort the prescan, returning charset. (position is at the >.)
	return PrescanResult{enc, "meta", p.position + 1}, true
}

// getAnAttribute is "get an attribute". It returns false when there is no
// attribute (position then points at a >).
func (p *prescanner) getAnAttribute() (name, value string, ok bool) {
	isSpace := func(c byte) bool { return strings.IndexByte("\x09\x0A\x0C\x0D\x20", c) >= 0 }
	// 1. Skip 09 0A 0C 0D 20 and /.
	for c := p.byteAt(p.position); isSpace(c) || c == '/'; c = p.byteAt(p.position) {
		p.position++
	}
	// 2. If the byte at position is >, there is no attribute.
	if p.byteAt(p.position) == '>' {
		return "", "", false
	}
	// 3. The byte at position starts the name; name and value are empty.
	var attrName, attrValue []byte
	// 4-5. Name.
	for {
		c := p.byteAt(p.position)
		switch {
		case c == '=' && len(attrName) > 0:
			p.position++
			goto value
		case isSpace(c):
			goto spaces
		case c == '/' || c == '>':
			return string(attrName), "", true
		case 'A' <= c && c <= 'Z':
			attrName = append(attrName, c+0x20)
		default:
			attrName = append(attrName, c)
		}
		p.position++
	}
spaces:
	// 6. Spaces.
	for isSpace(p.byteAt(p.position)) {
		p.position++
	}
	// 7. If the byte at position is not =, the value is empty.
	if p.byteAt(p.position) != '=' {
		return string(attrName), "", true
	}
	// 8. Advance position past the =.
	p.position++
value:
	// 9. Value: skip white space.
	for isSpace(p.byteAt(p.position)) {
		p.position++
	}
	// 10. Process the byte at position.
	switch c := p.byteAt(p.position); {
	case c == '"' || c == '\'':
		b := c
		for {
			// Quote loop.
			p.position++
			c := p.byteAt(p.position)
			if c == b {
				p.position++
				return string(attrName), string(attrValue), true
			}
			if 'A' <= c && c <= 'Z' {
				attrValue = append(attrValue, c+0x20)
			} else {
				attrValue = append(attrValue, c)
			}
		}
	case c == '>':
		return string(attrName), "", true
	case 'A' <= c && c <= 'Z':
		attrValue = append(attrValue, c+0x20)
		p.position++
	default:
		attrValue = append(attrValue, c)
		p.position++
	}
	// 11-12. The rest of an unquoted value.
	for {
		c := p.byteAt(p.position)
		switch {
		case isSpace(c) || c == '>':
			return string(attrName), string(attrValue), true
		case 'A' <= c && c <= 'Z':
			attrValue = append(attrValue, c+0x20)
		default:
			attrValue = append(attrValue, c)
		}
		p.position++
	}
}

// ExtractFromMeta is "the algorithm for extracting a character encoding from
// a meta element" applied to s, a content attribute's value.
func ExtractFromMeta(s string, legacy bool) (override.Encoding, bool) {
	isSpace := func(c byte) bool { return strings.IndexByte("\x09\x0A\x0C\x0D\x20", c) >= 0 }
	// 1. Let position point just before the first character of s.
	position := 0
	for {
		// 2. Loop: find the first seven characters after position that are
		// an ASCII case-insensitive match for "charset"; none: nothing.
		i := strings.Index(asciiLower(s[position:]), "charset")
		if i < 0 {
			return override.Unknown, false
		}
		position += i + len("charset")
		// 3. Skip any ASCII whitespace that immediately follows "charset".
		for position < len(s) && isSpace(s[position]) {
			position++
		}
		// 4. If the next character is not =, move position to just before
		// it and jump back to "Loop".
		if position >= len(s) || s[position] != '=' {
			continue
		}
		break
	}
	// 5. Skip any ASCII whitespace that immediately follows the =.
	position++
	for position < len(s) && isSpace(s[position]) {
		position++
	}
	// 6. Process the next character.
	if position >= len(s) {
		// The label is the empty string: failure.
		return override.Unknown, false
	}
	switch c := s[position]; c {
	case '"', '\'':
		end := strings.IndexByte(s[position+1:], c)
		if end < 0 {
			// An unmatched quote: nothing.
			return override.Unknown, false
		}
		return getAnEncoding(s[position+1:position+1+end], legacy)
	default:
		// This character up to the first ASCII whitespace or ;, or the end.
		end := strings.IndexAny(s[position:], "\x09\x0A\x0C\x0D\x20;")
		if end < 0 {
			end = len(s) - position
		}
		return getAnEncoding(s[position:position+end], legacy)
	}
}

// GetXMLEncoding is "get an XML encoding" applied to the whole input. The
// search for "encoding" stops at the first > (whatwg/html#6939).
func GetXMLEncoding(input []byte, legacy bool) PrescanResult {
	// 1. Let encodingPosition be a pointer to the start of the stream.
	encodingPosition := 0
	// 2. If encodingPosition does not point to <?xml, return failure.
	if !bytes.HasPrefix(input, []byte("<?xml")) {
		return PrescanResult{}
	}
	// 3. Let xmlDeclarationEnd be the next >; none: failure.
	xmlDeclarationEnd := bytes.IndexByte(input, '>')
	if xmlDeclarationEnd < 0 {
		return PrescanResult{}
	}
	// 4. Find the first "encoding" at or after encodingPosition and before
	// xmlDeclarationEnd; none: failure.
	i := bytes.Index(input[encodingPosition:xmlDeclarationEnd], []byte("encoding"))
	if i < 0 {
		return PrescanResult{}
	}
	// 5. Advance past the g.
	encodingPosition += i + len("encoding")
	// 6. Skip bytes <= 20.
	for encodingPosition < len(input) && input[encodingPosition] <= 0x20 {
		encodingPosition++
	}
	// 7-8. Require =.
	if encodingPosition >= len(input) || input[encodingPosition] != '=' {
		return PrescanResult{}
	}
	encodingPosition++
	// 9. Skip bytes <= 20.
	for encodingPosition < len(input) && input[encodingPosition] <= 0x20 {
		encodingPosition++
	}
	// 10-11. The quote mark must be " or '.
	if encodingPosition >= len(input) {
		return PrescanResult{}
	}
	quoteMark := input[encodingPosition]
	if quoteMark != '"' && quoteMark != '\'' {
		return PrescanResult{}
	}
	// 12. Advance past it.
	encodingPosition++
	// 13. The next quote mark; none: failure.
	n := bytes.IndexByte(input[encodingPosition:], quoteMark)
	if n < 0 {
		return PrescanResult{}
	}
	encodingEndPosition := encodingPosition + n
	// 14. potentialEncoding is the bytes in between.
	potentialEncoding := input[encodingPosition:encodingEndPosition]
	// 15. Any byte <= 20 in it: failure.
	for _, c := range potentialEncoding {
		if c <= 0x20 {
			return PrescanResult{}
		}
	}
	// 16. Get an encoding.
	enc, ok := getAnEncoding(string(potentialEncoding), legacy)
	if !ok {
		return PrescanResult{}
	}
	// 17. UTF-16BE/LE becomes UTF-8.
	if enc == override.UTF16BE || enc == override.UTF16LE {
		enc = override.UTF8
	}
	// 18. Return encoding.
	return PrescanResult{enc, "xml", max(xmlDeclarationEnd, encodingEndPosition) + 1}
}

// getAnEncoding is the Encoding Standard's get an encoding
// (override.Lookup), or override.LookupLegacy in legacy mode.
func getAnEncoding(label string, legacy bool) (override.Encoding, bool) {
	if !legacy {
		return override.Lookup(label)
	}
	if len(strings.Trim(label, "\x09\x0A\x0C\x0D\x20")) > 64 {
		return override.Unknown, false
	}
	return override.LookupLegacy(label)
}

// asciiLower lower-cases A-Z and nothing else, keeping every byte offset.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 0x20
		}
	}
	return string(b)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func ptr[T any](v T) *T { return &v }
