package warc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"time"
)

// framing is the Reader's part that knows the record syntax: what was
// learnt from the first record, and the block being read.
type framing struct {
	// begun is set once the first record's start has been looked at
	// (checkVersion, startsARC); arc is set then if the input is an ARC
	// file (arc.go). Neither changes until Reset.
	begun, arc bool
	// body is the block of the record Next returned last, until the next
	// call to Next or Reset; nil otherwise.
	body *body
}

// versionPrefix starts every version line; startLen bytes ("WARC/1." or
// "WARC/0.") tell the start of a record of the versions this package reads.
const (
	versionPrefix = "WARC/"
	startLen      = len("WARC/1.")
)

// Results of versionLine.
const (
	lineNo   = iota
	lineYes  // b starts with a version line
	lineMore // b may start with one: more bytes are needed
)

// versionLine reports whether b, which starts with "WARC/", starts with a
// whole version line of a version this package reads: one to three digits
// after "WARC/1." (1.0, 1.1) or one or two after "WARC/0." (0.18, as
// ClueWeb09 has it), then CRLF or LF.
func versionLine(b []byte) int {
	if len(b) < startLen {
		if mayStartRecord(b) {
			return lineMore
		}
		return lineNo
	}
	if !isRecordStart(b) {
		return lineNo
	}
	digits := 3
	if b[5] == '0' {
		digits = 2
	}
	i := startLen
	for i < len(b) && i < startLen+digits && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	if i == len(b) {
		return lineMore
	}
	if i == startLen {
		return lineNo
	}
	if b[i] == '\r' {
		i++
		if i == len(b) {
			return lineMore
		}
	}
	if b[i] == '\n' {
		return lineYes
	}
	return lineNo
}

// skipBlank skips the blank lines that some writers put between records,
// crossing into the next gzip member at the end of the current one. It
// returns io.EOF at the end of the input.
func (r *Reader) skipBlank() error {
	s := r.s
	for {
		b := s.buffered()
		i := 0
		for i < len(b) && (b[i] == '\r' || b[i] == '\n') {
			i++
		}
		s.discard(i)
		if i < len(b) {
			return nil
		}
		if err := s.fill(); err != nil {
			if err != io.EOF {
				return r.streamError(err, r.member, s.pos(), "")
			}
			if err := r.endOfMember(true); err != nil {
				return err
			}
		}
	}
}

// readRecord reads a record header at the current position. It returns the
// record, or an error, or neither when the input ended (with stepEOF set)
// or when it skipped something that needs no report.
func (r *Reader) readRecord() (*Record, error) {
	r.back = nil // a rescan not taken is superseded
	if err := r.skipBlank(); err != nil {
		if err == io.EOF {
			if r.next == stepRecord {
				r.next = stepEOF
			}
			return nil, nil
		}
		return nil, err
	}
	s := r.s
	rec := &Record{UncompressedOffset: s.pos(), Offset: r.member, first: !r.used}
	if !r.compressed() {
		rec.Offset, rec.first = rec.UncompressedOffset, true
	}
	r.used = true
	s.mark()
	fail := func(err error) (*Record, error) {
		// Look for the next record from the byte after this one's start.
		s.rewind(rec.UncompressedOffset + 1)
		r.next, r.scanFrom = stepScan, -1
		return nil, &RecordError{Offset: rec.Offset, UncompressedOffset: rec.UncompressedOffset, RecordID: rec.RecordID, Err: err}
	}

	if !r.begun {
		r.begun = true
		if err := r.checkVersion(); err != nil {
			return nil, err
		}
		r.arc = r.startsARC()
	}
	if r.arc {
		return r.readARC(rec, fail)
	}
	if p, err := r.peekMore(startLen); !isRecordStart(p) {
		if err != nil && mayStartRecord(p) {
			return r.lineError(rec, err, fail)
		}
		return fail(ErrGarbage)
	}
	line, err := r.readLine()
	if err != nil {
		return r.lineError(rec, err, fail)
	}
	rec.Version = string(bytes.TrimRight(line[len("WARC/"):], " \t\r\n"))
	rec.Header = make(textproto.MIMEHeader, 12)
	p := fieldParser{h: rec.Header, size: len(line), strict: true, kind: ErrBadHeader}
	for {
		line, err := r.readLine()
		if err != nil {
			return r.lineError(rec, err, fail)
		}
		end, err := p.add(line)
		if err == errNextRecord {
			// The record was cut short and the next one follows
			// straight on: start over there.
			i := indexVersionLine(line)
			s.rewind(s.pos() - int64(len(line)-i))
			return nil, &RecordError{Offset: rec.Offset, UncompressedOffset: rec.UncompressedOffset, RecordID: rec.Header.Get("Warc-Record-Id"), Err: ErrTruncated}
		}
		if err != nil {
			return fail(err)
		}
		if end {
			break
		}
	}
	h := rec.Header
	rec.RecordID = h.Get("Warc-Record-Id")
	rec.Type = h.Get("Warc-Type")
	rec.TargetURI = h.Get("Warc-Target-Uri")
	if len(rec.TargetURI) >= 2 && rec.TargetURI[0] == '<' && rec.TargetURI[len(rec.TargetURI)-1] == '>' {
		rec.TargetURI = rec.TargetURI[1 : len(rec.TargetURI)-1]
	}
	rec.ContentType = h.Get("Content-Type")
	if d := h.Get("Warc-Date"); d != "" {
		rec.Date, _ = time.Parse(time.RFC3339Nano, d)
	}
	cl, ok := h["Content-Length"]
	if !ok {
		return r.headerError(rec, fmt.Errorf("%w: no Content-Length", ErrBadHeader))
	}
	n, err := strconv.ParseInt(cl[0], 10, 64)
	if err != nil || n < 0 || cl[0][0] == '+' {
		return r.headerError(rec, fmt.Errorf("%w: bad Content-Length %q", ErrBadHeader, cl[0]))
	}
	rec.ContentLength = n
	b := &body{r: r, rec: rec, left: n, start: spot{s.pos(), r.member, r.memberU}}
	s.mark()
	rec.b = b
	if r.probing && n > 0 {
		if err := r.probeEnd(b); err != nil {
			return nil, err
		}
	}
	if rec.Type == "" {
		b.skip()
		b.reported = true
		return nil, &RecordError{Offset: rec.Offset, UncompressedOffset: rec.UncompressedOffset, RecordID: rec.RecordID, Err: ErrMissingType}
	}
	rec.Body = b
	r.body = b
	return rec, nil
}

// headerError reports a complete header that cannot be used. The Reader
// looks for the next record from the end of the header.
func (r *Reader) headerError(rec *Record, err error) (*Record, error) {
	r.next = stepScan
	r.scanFrom = r.s.pos()
	return nil, &RecordError{Offset: rec.Offset, UncompressedOffset: rec.UncompressedOffset, RecordID: rec.RecordID, Err: err}
}

// lineError reports an error of readLine within a record header.
func (r *Reader) lineError(rec *Record, err error, fail func(error) (*Record, error)) (*Record, error) {
	switch {
	case err == errLineTooLong:
		return fail(fmt.Errorf("%w: line longer than %d bytes", ErrBadHeader, maxLine))
	case err == io.EOF:
		// The member or input ended inside the header. What is left of
		// it is skipped; the next member may hold the next record.
		r.s.discard(len(r.s.buffered()))
		if r.next == stepRecord {
			r.next, r.scanFrom = stepScan, -1
		}
		return nil, &RecordError{Offset: rec.Offset, UncompressedOffset: rec.UncompressedOffset, RecordID: rec.RecordID, Err: ErrTruncated}
	default:
		return nil, r.streamError(err, rec.Offset, rec.UncompressedOffset, rec.RecordID)
	}
}

var errLineTooLong = errors.New("line too long")

// peekMore is s.peek that goes on into the next gzip member when the
// current one ends (for a header or marker cut by a member boundary).
func (r *Reader) peekMore(n int) ([]byte, error) {
	for {
		p, err := r.s.peek(n)
		if len(p) >= n || err != io.EOF {
			return p, err
		}
		if err := r.endOfMember(false); err != nil {
			return p, err
		}
	}
}

// readLine returns the next line of the record stream, "\n" included. The
// line is valid until the next read. It returns io.EOF if the stream (the
// gzip member) ends before a newline, and errLineTooLong if the line is
// longer than maxLine bytes, however many bytes are buffered.
func (r *Reader) readLine() ([]byte, error) {
	s := r.s
	n := 0 // bytes known to hold no newline
	for {
		b := s.buffered()
		if i := bytes.IndexByte(b[n:], '\n'); i >= 0 {
			if n+i+1 > maxLine {
				return nil, errLineTooLong
			}
			line := b[:n+i+1]
			s.discard(len(line))
			return line, nil
		}
		n = len(b)
		if n >= maxLine {
			return nil, errLineTooLong
		}
		if _, err := r.peekMore(n + 1); err != nil && len(s.buffered()) == n {
			return nil, err
		}
	}
}

// firstVersion returns the version line (without line ending) if b starts
// with "WARC/" and a whole line of at most 16 bytes.
func firstVersion(b []byte) (string, bool) {
	if !bytes.HasPrefix(b, []byte(versionPrefix)) {
		return "", false
	}
	i := bytes.IndexByte(b[:min(len(b), 17)], '\n')
	if i < 0 {
		return "", false
	}
	return string(bytes.TrimRight(b[:i], "\r")), true
}

// checkVersion returns a final error if the input starts with a version
// line of a version this package does not read ("WARC/2.0"): one error for
// the input, rather than one for each record.
func (r *Reader) checkVersion() error {
	p, _ := r.s.peek(32)
	if v, ok := firstVersion(p); ok && versionLine(p) == lineNo {
		return fmt.Errorf("%w %s", ErrUnsupportedVersion, strings.TrimPrefix(v, versionPrefix))
	}
	return nil
}

// indexVersionLine returns the index of the version line that ends line,
// or -1.
func indexVersionLine(line []byte) int {
	for i := 0; ; i++ {
		j := bytes.Index(line[i:], []byte(versionPrefix))
		if j < 0 {
			return -1
		}
		i += j
		if versionLine(line[i:]) == lineYes {
			return i
		}
	}
}

// isRecordStart reports whether p starts with "WARC/1." or "WARC/0.".
func isRecordStart(p []byte) bool {
	return len(p) >= startLen && string(p[:len(versionPrefix)]) == versionPrefix &&
		(p[5] == '1' || p[5] == '0') && p[6] == '.'
}

// mayStartRecord reports whether p, shorter than startLen bytes, may be
// cut from the start of a record.
func mayStartRecord(p []byte) bool {
	return bytes.HasPrefix([]byte("WARC/1."), p) || bytes.HasPrefix([]byte("WARC/0."), p)
}
