package warc

import (
	"bytes"
	"errors"
	"fmt"
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

// A fieldParser parses the field lines of a header, one line at a time:
// the record header of a WARC record (strict) and the stored header of an
// HTTP response (lenient). Both take "name: value" lines (RFC 9112,
// section 5), join a folded line (one that starts with a space or a tab,
// as WARC 1.0 and obsolete HTTP allow) to the value before it with one
// space, trim the values, key the fields as
// [textproto.CanonicalMIMEHeaderKey] does, and end at a blank line. A line
// that is no field line ends a record header with an error; a stored HTTP
// header skips it, and the folded lines after it, as browsers do, and
// accepts spaces before the colon.
type fieldParser struct {
	// h receives the fields.
	h map[string][]string
	// last is the key of the field the last line added to, "" before the
	// first field and (lenient) after a line skipped.
	last string
	// size is the bytes of the header so far, as the caller counts them:
	// add adds the length of each line given, and fails once size passes
	// maxHeader.
	size int
	// strict is set for a record header.
	strict bool
	// kind is what the error of a header too long wraps.
	kind error
}

// errNextRecord is what add returns, in a record header, for a line that
// holds a version line: the record was cut short, and the next one starts
// in the line (see indexVersionLine).
var errNextRecord = errors.New("version line in a record header")

// add parses line, with or without its line ending. It reports whether
// line is blank, which ends the header; the error, for a line it cannot
// take, is errNextRecord or wraps p.kind or (strict) [ErrBadHeader], and
// leaves the header as it was.
func (p *fieldParser) add(line []byte) (end bool, err error) {
	p.size += len(line)
	if p.size > maxHeader {
		return false, fmt.Errorf("%w: header longer than %d bytes", p.kind, maxHeader)
	}
	if len(line) == 0 || len(line) <= 2 && (string(line) == "\r\n" || string(line) == "\n") {
		return true, nil
	}
	if line[0] == ' ' || line[0] == '\t' {
		if p.last == "" {
			if p.strict {
				return false, fmt.Errorf("%w: continuation line %q without a field", ErrBadHeader, line)
			}
			return false, nil
		}
		vs := p.h[p.last]
		vs[len(vs)-1] += " " + string(trimSpace(line))
		return false, nil
	}
	if p.strict && indexVersionLine(line) >= 0 {
		return false, errNextRecord
	}
	colon := bytes.IndexByte(line, ':')
	var name []byte
	if colon > 0 {
		name = line[:colon]
		if !p.strict {
			name = trimSpace(name)
		}
	}
	if !isToken(name) {
		if p.strict {
			return false, fmt.Errorf("%w: bad field line %q", ErrBadHeader, line)
		}
		p.last = ""
		return false, nil
	}
	p.last = canonicalKey(name)
	p.h[p.last] = append(p.h[p.last], string(trimSpace(line[colon+1:])))
	return false, nil
}

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
		if !tchar[c] {
			return false
		}
	}
	return true
}

// tchar reports which bytes a token may hold (RFC 9110, section 5.6.2):
// visible ASCII but the delimiters. A table, as field names are checked a
// byte at a time (BenchmarkReader/plain/records: a third of warc's own
// instructions went to the delimiter search it replaces).
var tchar = func() (t [256]bool) {
	for c := '!'; c < 0x7f; c++ {
		t[c] = !strings.ContainsRune(`"(),/:;<=>?@[\]{}`, c)
	}
	return t
}()

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
