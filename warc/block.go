package warc

import (
	"bytes"
	"io"
)

// body reads a record's block from the record stream.
type body struct {
	r   *Reader
	rec *Record
	// left is the number of block bytes not yet read.
	left int64
	// start is where the block's first byte is.
	start spot
	// err is set when the block is done: io.EOF, a *RecordError, or the
	// underlying reader's error.
	err error
	// reported is set once err, if a *RecordError, reached the caller.
	reported bool
	// consumed is set by the first read.
	consumed bool
}

// Read implements io.Reader for [Record.Body].
func (b *body) Read(p []byte) (int, error) {
	n, err := b.read(p)
	if err != nil && err != io.EOF {
		b.reported = true
	}
	return n, err
}

// read reads the block without marking an error as reported.
func (b *body) read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	b.consumed = true
	s := b.r.s
	for {
		if b.left == 0 {
			b.err = b.end()
			return 0, b.err
		}
		buf := s.buffered()
		if len(buf) > 0 {
			n := copy(p[:min(int64(len(p)), b.left)], buf)
			s.discard(n)
			b.left -= int64(n)
			return n, nil
		}
		if err := s.fill(); err != nil {
			if err = b.short(err); err != nil {
				b.err = err
				return 0, err
			}
		}
	}
}

// skip reads what is left of the block and its end-of-record marker and
// returns the block's error, or nil.
func (b *body) skip() error {
	s := b.r.s
	b.consumed = true
	for b.err == nil {
		if b.left == 0 {
			b.err = b.end()
			break
		}
		buf := s.buffered()
		if len(buf) > 0 {
			n := int(min(int64(len(buf)), b.left))
			s.discard(n)
			b.left -= int64(n)
			continue
		}
		if err := s.fill(); err != nil {
			if err = b.short(err); err != nil {
				b.err = err
			}
		}
	}
	if b.err == io.EOF {
		return nil
	}
	return b.err
}

// recordError returns a *RecordError about b's record.
func (b *body) recordError(err error) error {
	return &RecordError{Offset: b.rec.Offset, UncompressedOffset: b.rec.UncompressedOffset, RecordID: b.rec.RecordID, Err: err}
}

// short handles the end of the stream before the block's end. At the end
// of a gzip member the block goes on in the next member, unless that member
// starts a record: then this block was cut short (as at the end of the
// input). It returns nil if the block goes on.
func (b *body) short(err error) error {
	r := b.r
	if err != io.EOF {
		return r.streamError(err, b.rec.Offset, b.rec.UncompressedOffset, b.rec.RecordID)
	}
	if err := r.endOfMember(false); err != nil {
		if err == io.EOF {
			// The input ended first: the Content-Length may be
			// wrong and have swallowed the records after the block.
			b.rescan()
			return b.recordError(ErrTruncated)
		}
		return err
	}
	if p, _ := r.s.peek(startLen); isRecordStart(p) || r.arc && r.startsARC() {
		return b.recordError(ErrTruncated)
	}
	return nil
}

var endOfRecord = []byte("\r\n\r\n")

// ended sets the stored length of b's record, whose end-of-record marker
// has just been read: in plain input up to here; in compressed input up to
// the end of the current member or frame, if nothing but blank lines
// follows in it, and if the record was the first in the member it
// started in.
func (b *body) ended() {
	r := b.r
	if !r.compressed() {
		b.rec.stored = r.s.pos() - b.rec.Offset
		return
	}
	r.used = true
	if !b.rec.first {
		return
	}
	// The member must end here, for the decompressor to have read its
	// trailer: the next record would read that far anyway. An error
	// stays in the window for the next read to report.
	s := r.s
	for n := 1; n <= maxBlankTail; n++ {
		p, err := s.peek(n)
		if len(p) < n {
			if err == io.EOF {
				b.rec.stored = r.memberEnd() - b.rec.Offset
			}
			return
		}
		if c := p[n-1]; c != '\r' && c != '\n' {
			return // another record follows in the member
		}
	}
}

// endedAt sets the stored length of b's record, which ends at the input
// offset end (where its member ended, cutting its end-of-record marker
// short), if it was the first in the member it started in.
func (b *body) endedAt(end int64) {
	if b.rec.first {
		b.rec.stored = end - b.rec.Offset
	}
}

// maxBlankTail bounds the blank line bytes after a record's end-of-record
// marker that its member may end in, for the record to have a stored
// length.
const maxBlankTail = 64

// end reads the end-of-record marker after the block. It returns io.EOF if
// all is well. The end of a gzip member or of the input may cut the marker
// short (such writers exist; the block is whole), and so may the start of
// a record in the next member.
func (b *body) end() error {
	r := b.r
	if r.arc {
		return b.endARC()
	}
	s := r.s
	p, err := s.peek(len(endOfRecord))
	if bytes.HasPrefix(p, endOfRecord) {
		s.discard(len(endOfRecord))
		b.ended()
		return io.EOF
	}
	if err != nil && bytes.HasPrefix(endOfRecord, p) {
		if err != io.EOF {
			return r.streamError(err, b.rec.Offset, b.rec.UncompressedOffset, b.rec.RecordID)
		}
		k := len(p)
		s.discard(k)
		if err := r.endOfMember(false); err != nil {
			if err == io.EOF {
				// The input ends, or the member did (r.member is
				// where the next one would start).
				end := r.member
				if !r.compressed() {
					end = s.pos()
				}
				b.endedAt(end)
				return io.EOF
			}
			return err
		}
		q, _ := s.peek(startLen)
		if bytes.HasPrefix(q, endOfRecord[k:]) {
			s.discard(len(endOfRecord) - k)
			b.ended()
			return io.EOF
		}
		if isRecordStart(q) {
			b.endedAt(r.member) // the end of the member before
			return io.EOF
		}
	}
	// Look for the next record from the start of the block: the
	// Content-Length may be too long as well as too short.
	b.rescan()
	return r.settle(b.recordError(ErrContentLength))
}
