package sniff

import (
	"strings"

	"github.com/charsniff/charsniff/internal/ascii"
	"github.com/charsniff/charsniff/internal/mimetype"
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
// ContentTypeCharset allocates only to remove backslash escapes. Package
// warc reads a stored response's Content-Type with the same code.
func ContentTypeCharset(contentType string) (charset string, ok bool) {
	m, _ := mimetype.Extract(contentType)
	return m.Charset()
}

// A MIMEType is a transport layer's Content-Type that the caller has parsed
// already, reduced to what sniffing reads of it, so that a header is parsed
// once: a caller that needs the MIME type itself (is it HTML?) hands on its
// charset as [Options.MIMEType] in place of [Options.ContentType]. Sniff
// gives MIMEType{Charset: c, Given: true} the answer it gives a ContentType
// whose ContentTypeCharset is c. The zero MIMEType is none.
type MIMEType struct {
	// Charset is the charset parameter as [ContentTypeCharset] returns
	// it (quotes and escapes removed, case kept); "" for none, or for no
	// valid MIME type.
	Charset string
	// Given reports that there was a Content-Type (valid or not, with a
	// charset or not). Sniff reads only Charset; when options merge
	// (decode.WithSniff), a Given MIMEType replaces an earlier
	// ContentType or MIMEType, as a non-empty ContentType does.
	Given bool
}

// lookup is "get an encoding" of a charset parameter (legacy: with
// override.LookupLegacy).
func lookup(charset string, legacy bool) (override.Encoding, bool) {
	if legacy {
		return override.LookupLegacy(charset)
	}
	return override.Lookup(charset)
}

// transportEncoding is "legacy extract an encoding" of the Content-Type
// header value: the encoding its charset names, if any. It does not allocate.
func transportEncoding(contentType string, legacy bool) (override.Encoding, bool) {
	if strings.IndexByte(contentType, ';') < 0 {
		// No parameters, so no charset: the usual "text/html", answered
		// without parsing it.
		return override.Unknown, false
	}
	m, _ := mimetype.Extract(contentType)
	raw, quoted, ok := m.RawCharset()
	if !ok {
		return override.Unknown, false
	}
	if !quoted || strings.IndexByte(raw, '\\') < 0 {
		return lookup(raw, legacy)
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
		case ascii.IsWhitespace(c) && n == 0:
		case ascii.IsWhitespace(c):
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
		return override.LookupLegacy(buf[:end])
	}
	return override.Lookup(buf[:end])
}

// maxLabel bounds the labels transportEncoding looks up after removing
// escapes: far longer than any label of the Encoding Standard.
const maxLabel = 64
