package warc

import (
	"bytes"
	"net/textproto"
	"strings"
)

const (
	// maxHeader bounds the size of a record header and of a stored HTTP
	// header.
	maxHeader = 256 << 10
	// maxLine bounds the length of one header line, line ending included.
	maxLine = minBuffer
)

// trimSpace removes leading and trailing spaces, tabs, CR and LF.
func trimSpace(b []byte) []byte {
	return bytes.Trim(b, " \t\r\n")
}

// isToken reports whether b is an HTTP token (a valid field name).
func isToken(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// canonicalKey returns the canonical form of a field name, without
// allocating for the names WARC writers use most.
func canonicalKey(b []byte) string {
	switch string(b) {
	case "WARC-Type":
		return "Warc-Type"
	case "WARC-Record-ID":
		return "Warc-Record-Id"
	case "WARC-Date":
		return "Warc-Date"
	case "WARC-Target-URI":
		return "Warc-Target-Uri"
	case "Content-Length":
		return "Content-Length"
	case "Content-Type":
		return "Content-Type"
	case "WARC-Concurrent-To":
		return "Warc-Concurrent-To"
	case "WARC-IP-Address":
		return "Warc-Ip-Address"
	case "WARC-Warcinfo-ID":
		return "Warc-Warcinfo-Id"
	case "WARC-Block-Digest":
		return "Warc-Block-Digest"
	case "WARC-Payload-Digest":
		return "Warc-Payload-Digest"
	}
	return textproto.CanonicalMIMEHeaderKey(string(b))
}
