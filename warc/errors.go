package warc

import "errors"

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
