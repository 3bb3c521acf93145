package warc

import (
	"errors"
	"fmt"
	"strings"
)

// The errors of the package, matched with [errors.Is]: those a
// [RecordError] wraps, then the final errors of a Reader and of [Detect]
// (an input this package cannot read), then those of a payload.
var (
	// ErrGarbage means bytes that are not a WARC record where a record should
	// start: between records, or at the start of the input.
	ErrGarbage = errors.New("warc: garbage where a record should start")
	// ErrBadHeader means a record header the Reader cannot use: a malformed
	// field line, a header longer than 256 KiB, or a missing or malformed
	// Content-Length.
	ErrBadHeader = errors.New("warc: malformed record header")
	// ErrMissingType means a record header without a WARC-Type field.
	ErrMissingType = errors.New("warc: record has no WARC-Type")
	// ErrTruncated means that the input, or the record's gzip member, ends
	// before the record does: inside its header or before Content-Length
	// bytes of block.
	ErrTruncated = errors.New("warc: record ends before its Content-Length")
	// ErrContentLength means that the record's block is not followed by the
	// end-of-record marker (CRLF CRLF), so its Content-Length is wrong.
	ErrContentLength = errors.New("warc: no end of record after Content-Length bytes")
	// ErrGzip means a corrupt or truncated gzip member. The error wraps the
	// decompressor's error too, such as [io.ErrUnexpectedEOF].
	ErrGzip = errors.New("warc: corrupt gzip member")

	// ErrUnsupportedContainer means input compressed in a way the Reader
	// does not read: bzip2, xz, or LZ4's legacy frame format. The error
	// names it: "warc: unsupported container: bzip2".
	ErrUnsupportedContainer = errors.New("warc: unsupported container")
	// ErrUnsupportedVersion means input whose first record declares a WARC
	// version other than 1.x or 0.x: "warc: unsupported WARC version 2.0".
	ErrUnsupportedVersion = errors.New("warc: unsupported WARC version")
	// ErrZstd means a corrupt or truncated zstd frame (or, as a final
	// error, an unusable dictionary frame). The error wraps the
	// decompressor's error.
	ErrZstd = errors.New("warc: corrupt zstd frame")
	// ErrLZ4 means a corrupt or truncated LZ4 frame. The error wraps the
	// decompressor's error.
	ErrLZ4 = errors.New("warc: corrupt lz4 frame")

	// ErrNoPayload is returned by [Record.Payload] for records other than
	// response and resource records.
	ErrNoPayload = errors.New("warc: record type has no payload")
	// ErrHTTP means a malformed HTTP response in a response record: from
	// [Record.Payload], no "HTTP/" status line, or a header line or header
	// longer than 64 or 256 KiB; from Payload.Body, in place of io.EOF, a
	// block that ends in the header (the body is then empty).
	ErrHTTP = errors.New("warc: malformed HTTP response")
	// ErrChunked means malformed chunked transfer coding, which Payload.Body
	// returns after the bytes that could be read: a bad chunk-size line
	// (the body up to it is read), or a body that does not start with a
	// chunk size at all (such as one an archiver stored decoded; the body
	// is read as stored).
	ErrChunked = errors.New("warc: malformed chunked encoding")
	// errStale is returned by Payload after Next or a read of Body.
	errStale = errors.New("warc: Payload called after Next or after reading Body")
)

// A RecordError reports a record (or a stretch of input) that the Reader
// could not read. The Reader has moved past it: the next call to
// [Reader.Next] returns the record after it.
type RecordError struct {
	// Offset is where the bad record starts in the input, counted as
	// [Record.Offset] is: for gzip input, the offset of its gzip member.
	Offset int64
	// UncompressedOffset is where the bad record starts in the
	// decompressed stream, as [Record.UncompressedOffset].
	UncompressedOffset int64
	// RecordID is the bad record's WARC-Record-ID, if its header was read.
	RecordID string
	// Err is what was wrong; it wraps one of the package's Err values.
	Err error
}

// Error returns a message like
// "warc: record at offset 1234: no end of record after Content-Length bytes",
// or for a stretch of input skipped, the message of its [SkippedError].
func (e *RecordError) Error() string {
	var se *SkippedError
	if errors.As(e.Err, &se) {
		return se.Error()
	}
	msg := strings.TrimPrefix(e.Err.Error(), "warc: ")
	if e.RecordID != "" {
		return fmt.Sprintf("warc: record %s at offset %d: %s", e.RecordID, e.Offset, msg)
	}
	return fmt.Sprintf("warc: record at offset %d: %s", e.Offset, msg)
}

// Unwrap returns e.Err.
func (e *RecordError) Unwrap() error { return e.Err }

// A SkippedError reports a stretch of input that the Reader did not search
// for records, after a record whose Content-Length is wrong, when it could
// not go back to the block's start (see [Reader]): the good records that
// start in it, if any, are lost. [Reader.Next] returns it wrapped in a
// *[RecordError], right after the damaged record's error, and has moved
// past it.
type SkippedError struct {
	// Start and End delimit the skipped bytes, [Start, End), as offsets
	// of the record stream (Record.UncompressedOffset's): from the first
	// place after the damaged block's start where a record may start, to
	// where the search resumes. The wrapping RecordError's Offset is
	// Start in plain input, and the member the damaged block starts in in
	// compressed input.
	Start, End int64
	// Reason says why the Reader could not go back.
	Reason string
}

// Error returns a message like "warc: bytes 1234 to 5678 skipped (4444
// bytes not searched for records): the input cannot seek ...".
func (e *SkippedError) Error() string {
	return fmt.Sprintf("warc: bytes %d to %d skipped (%d bytes not searched for records): %s", e.Start, e.End, e.End-e.Start, e.Reason)
}
