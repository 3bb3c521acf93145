package warc

import (
	"errors"
	"fmt"
	"strings"
)

// The errors of the package; match them with [errors.Is]. First those that
// a [RecordError] wraps: a record (or a stretch of input) the Reader could
// not read and has moved past. Then those that a Reader returns as final
// errors (not *RecordError) and that [Detect] returns: the input is an
// archive, or may be one, that this package cannot read. Last the errors
// of a record's payload: from [Record.Payload], or from a read of
// Payload.Body after the bytes that could be read.
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
	// decompressor's error too (github.com/klauspost/compress's): a
	// [github.com/klauspost/compress/flate.CorruptInputError],
	// [gzip.ErrChecksum], [gzip.ErrHeader] or [io.ErrUnexpectedEOF].
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
	// ErrHTTP means a malformed HTTP response in a response record. From
	// [Record.Payload]: no "HTTP/" status line, a header line longer than
	// 64 KiB or a header longer than 256 KiB. From a read of Payload.Body,
	// after the body (which is then empty): a header that the block ends in
	// before its blank line.
	ErrHTTP = errors.New("warc: malformed HTTP response")
	// ErrChunked means malformed chunked transfer coding in a payload,
	// returned by a read of Payload.Body after the bytes that could be
	// read: a bad chunk-size line (the body up to it is handed out), or a
	// Transfer-Encoding of chunked over a body that does not start with a
	// chunk size (such as "zz", or a body an archiver stored decoded; the
	// body is handed out as stored).
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
// for records: the good records that start in it, if any, are lost.
// It happens only after a record whose Content-Length is wrong, when the
// Reader cannot go back to the start of its block (see [Reader]): the input
// cannot seek and the block starts more than 1 MiB before the place where
// the damage shows, or the input is gzip-compressed and going back would
// inflate it again beyond the Reader's bound.
//
// [Reader.Next] returns it wrapped in a *[RecordError] (match it with
// [errors.As]), right after the error of the damaged record, and has moved
// past it: the next call returns the record after the stretch.
type SkippedError struct {
	// Start and End delimit the skipped bytes, [Start, End), in the record
	// stream: offsets in the input for uncompressed input, in the
	// decompressed stream ([Record.UncompressedOffset]) for gzip input.
	// Start is the first place after the damaged block's start where a
	// record may start (a "WARC/1.x" line); the search resumes at End.
	// The wrapping RecordError's Offset is Start in uncompressed input
	// and, in gzip input, the offset of the gzip member the damaged block
	// starts in (where the skipped bytes can be inflated from again).
	Start, End int64
	// Reason says why the Reader could not go back.
	Reason string
}

// Error returns a message like "warc: bytes 1234 to 5678 skipped (4444
// bytes not searched for records): the input cannot seek ...".
func (e *SkippedError) Error() string {
	return fmt.Sprintf("warc: bytes %d to %d skipped (%d bytes not searched for records): %s", e.Start, e.End, e.End-e.Start, e.Reason)
}
