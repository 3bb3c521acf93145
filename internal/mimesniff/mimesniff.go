// Package mimesniff tells text from binary data the way the WHATWG MIME
// Sniffing Standard does for a resource of unknown type: its "rules for
// identifying an unknown MIME type" (with the sniff-scriptable flag set,
// since the question is "may this be an HTML document?") over the
// resource header, the first [HeaderLen] bytes.
//
// The command charsniff uses it to refuse an input that is not text (an
// executable, an image, random bytes) instead of naming an encoding for
// it. It imports nothing of charsniff's and allocates nothing.
//
// References:
//   - MIME Sniffing, rules for identifying an unknown MIME type:
//     https://mimesniff.spec.whatwg.org/#rules-for-identifying-an-unknown-mime-type
//   - binary data byte: https://mimesniff.spec.whatwg.org/#binary-data-byte
//   - the pattern tables: https://mimesniff.spec.whatwg.org/#matching-an-image-type-pattern
package mimesniff

// HeaderLen is the length of the resource header the rules read: the
// standard asks for at least 1445 bytes when that many are there.
const HeaderLen = 1445

// Sniff returns the MIME type essence the rules for identifying an unknown
// MIME type compute for a resource whose resource header is header (its
// first HeaderLen bytes, or all of a shorter resource; more is ignored):
// text/html, text/xml, text/plain, application/pdf, an image, audio,
// video or archive type, or application/octet-stream.
func Sniff(header []byte) string {
	if len(header) > HeaderLen {
		header = header[:HeaderLen]
	}
	if html(header) {
		return "text/html"
	}
	for _, p := range unknownPatterns {
		if p.match(header) {
			return p.typ
		}
	}
	for _, table := range [][]pattern{imagePatterns, mediaPatterns, archivePatterns} {
		for _, p := range table {
			if p.match(header) {
				return p.typ
			}
		}
	}
	if mp4(header) {
		return "video/mp4"
	}
	if !hasBinaryByte(header) {
		return "text/plain"
	}
	return "application/octet-stream"
}

// IsText reports whether a type Sniff returned is text that may be an
// HTML document: text/html, text/xml or text/plain.
func IsText(typ string) bool {
	return typ == "text/html" || typ == "text/xml" || typ == "text/plain"
}

// hasBinaryByte reports whether b holds a binary data byte: 0x00-0x08,
// 0x0B, 0x0E-0x1A or 0x1C-0x1F.
func hasBinaryByte(b []byte) bool {
	for _, c := range b {
		if isBinaryByte(c) {
			return true
		}
	}
	return false
}

// isBinaryByte reports whether c is a binary data byte.
func isBinaryByte(c byte) bool {
	return c <= 0x08 || c == 0x0B || (c >= 0x0E && c <= 0x1A) || (c >= 0x1C && c <= 0x1F)
}
