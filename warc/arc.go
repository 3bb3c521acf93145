package warc

import (
	"bytes"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"time"
)

// ARC files (version 1), the Internet Archive's format before WARC, are
// read through the same Record API: a "filedesc://" header record, then a
// record per capture, each a header line
//
//	URL IP-address Archive-date Content-type Archive-length
//
// and Archive-length bytes of block (an HTTP response for http and https
// URLs), then a newline. See
// https://archive.org/web/researcher/ArcFileFormat.php.
//
// An ARC record is handed out as its WARC equivalent: the filedesc record
// as "warcinfo", an http or https capture as "response" (Content-Type
// "application/http; msgtype=response", so that Payload unwraps the HTTP
// response), any other as "resource" with the ARC line's Content-type.
// Version is "ARC/1"; RecordID is empty (ARC has none); Header holds the
// WARC fields so made.

// arcVersion is Record.Version of an ARC record.
const arcVersion = "ARC/1"

// An arcHead is an ARC record header line, parsed.
type arcHead struct {
	url, ip, date, ctype []byte
	length               int64
}

// parseARCLine parses line (without its line ending) as an ARC version 1
// header line. The URL may hold spaces (fields are taken from the right).
// It is strict, as resynchronisation takes any line it accepts for a
// record's start: a URL with a scheme, an IP address of hex digits, dots
// and colons (or "-"), a date of 12 to 18 digits and a length of at most
// 18 digits.
func parseARCLine(line []byte) (arcHead, bool) {
	f := bytes.Split(line, []byte(" "))
	n := len(f)
	if n < 5 {
		return arcHead{}, false
	}
	h := arcHead{url: bytes.Join(f[:n-4], []byte(" ")), ip: f[n-4], date: f[n-3], ctype: f[n-2]}
	if !allDigits(f[n-1], 1, 18) || !allDigits(h.date, 12, 18) || len(h.ctype) == 0 {
		return arcHead{}, false
	}
	if i := bytes.Index(h.url, []byte(":")); i <= 0 || bytes.ContainsAny(h.url, "\r\n\t") {
		return arcHead{}, false
	}
	if string(h.ip) != "-" && !ipLike(h.ip) {
		return arcHead{}, false
	}
	h.length, _ = strconv.ParseInt(string(f[n-1]), 10, 64)
	return h, true
}

func allDigits(b []byte, lo, hi int) bool {
	if len(b) < lo || len(b) > hi {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func ipLike(b []byte) bool {
	if len(b) == 0 || len(b) > 45 {
		return false
	}
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' || c == '.' || c == ':') {
			return false
		}
	}
	return true
}

// arcLine reports whether b starts with a whole ARC header line (lineYes),
// may start with one (lineMore: no line ending yet, within maxLine bytes),
// or does not.
func arcLine(b []byte) int {
	i := bytes.IndexByte(b[:min(len(b), maxLine)], '\n')
	if i < 0 {
		if len(b) < maxLine && mayStartARC(b) {
			return lineMore
		}
		return lineNo
	}
	if _, ok := parseARCLine(bytes.TrimSuffix(b[:i], []byte("\r"))); ok {
		return lineYes
	}
	return lineNo
}

// mayStartARC reports whether b, an incomplete line, may start an ARC
// header line: a URL scheme, so far.
func mayStartARC(b []byte) bool {
	for i, c := range b {
		switch {
		case c == ':':
			return i > 0
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// readARC reads an ARC record header line at the current position (rec
// has its offsets) and returns the record, as readRecord does.
func (r *Reader) readARC(rec *Record, fail func(error) (*Record, error)) (*Record, error) {
	line, err := r.readLine()
	if err != nil {
		return r.lineError(rec, err, fail)
	}
	h, ok := parseARCLine(bytes.TrimRight(line, "\r\n"))
	if !ok {
		return fail(fmt.Errorf("%w: bad ARC header line %q", ErrGarbage, bytes.TrimRight(line, "\r\n")))
	}
	rec.Version = arcVersion
	rec.TargetURI = string(h.url)
	rec.ContentLength = h.length
	if d := h.date; len(d) >= 14 {
		rec.Date, _ = time.Parse("20060102150405", string(d[:14]))
	}
	switch scheme := bytes.ToLower(h.url[:bytes.IndexByte(h.url, ':')]); string(scheme) {
	case "filedesc":
		rec.Type, rec.ContentType = "warcinfo", string(h.ctype)
	case "http", "https":
		rec.Type, rec.ContentType = "response", "application/http; msgtype=response"
	default:
		rec.Type, rec.ContentType = "resource", string(h.ctype)
	}
	rec.Header = textproto.MIMEHeader{
		"Warc-Type":       {rec.Type},
		"Warc-Target-Uri": {rec.TargetURI},
		"Warc-Ip-Address": {string(h.ip)},
		"Content-Type":    {rec.ContentType},
		"Content-Length":  {strconv.FormatInt(h.length, 10)},
	}
	if !rec.Date.IsZero() {
		rec.Header.Set("Warc-Date", rec.Date.Format(time.RFC3339))
	}
	s := r.s
	b := &body{r: r, rec: rec, left: h.length, start: spot{s.pos(), r.member, r.memberU}}
	s.mark()
	rec.b, rec.Body, r.body = b, b, b
	return rec, nil
}

// endARC reads the newline after an ARC record's block and returns
// io.EOF. If it is missing, the Archive-length is wrong (one byte long
// included: the block took the newline) and the Reader looks for the next
// record from the block's start. Blank lines after it are skipped, and
// anything else is reported by the next record's read, as garbage: so a
// block short by as many bytes as end it in newlines (one, for the usual
// page) goes unseen, its next record being read all the same.
func (b *body) endARC() error {
	r := b.r
	p, err := r.s.peek(1)
	if len(p) > 0 && p[0] == '\n' {
		r.s.discard(1)
		return io.EOF
	}
	if len(p) == 0 && err != io.EOF {
		return r.streamError(err, b.rec.Offset, b.rec.UncompressedOffset, b.rec.RecordID)
	}
	b.rescan()
	return r.settle(b.recordError(ErrContentLength))
}

// indexARCLine returns the index of the first ARC header line that starts
// a line in b (after a newline), or -1, and where a line that may still
// turn out to be one begins (len(b) if none).
func indexARCLine(b []byte) (at, keep int) {
	keep = len(b)
	for i := 0; ; i++ {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return -1, keep
		}
		i += j
		switch arcLine(b[i+1:]) {
		case lineYes:
			return i + 1, keep
		case lineMore:
			return -1, i
		}
	}
}

// startsARC reports whether the record stream starts with an ARC header
// line (and not a WARC version line).
func (r *Reader) startsARC() bool {
	for n := 64; ; n *= 2 {
		p, err := r.s.peek(min(n, maxLine))
		if isRecordStart(p) {
			return false
		}
		switch arcLine(p) {
		case lineYes:
			return true
		case lineNo:
			return false
		}
		if err != nil || n >= maxLine {
			return false
		}
	}
}
