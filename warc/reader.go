package warc

import (
	"errors"
	"io"
	"net/textproto"
	"time"
)

// A Record is one WARC record: its header, already parsed, and its block,
// to be read from Body.
//
// The header fields stay valid after the next call to [Reader.Next]; Body
// does not.
type Record struct {
	// Version is the WARC version the record declares: "1.0", "1.1" or
	// "0.18" (ClueWeb09).
	Version string
	// Type is the WARC-Type field: "warcinfo", "response", "resource",
	// "request", "metadata", "revisit", "conversion" or "continuation".
	Type string
	// RecordID is the WARC-Record-ID field as written, angle brackets
	// included: "<urn:uuid:...>".
	RecordID string
	// TargetURI is the WARC-Target-URI field without the angle brackets
	// that WARC 1.0 writers put around it.
	TargetURI string
	// Date is the WARC-Date field; zero if it is missing or malformed.
	Date time.Time
	// ContentType is the Content-Type field: the media type of the block,
	// such as "application/http; msgtype=response".
	ContentType string
	// ContentLength is the Content-Length field: the size of the block.
	ContentLength int64
	// Header holds every field of the record header, keyed as
	// [textproto.CanonicalMIMEHeaderKey] spells names ("Warc-Type");
	// Header.Get accepts any spelling.
	Header textproto.MIMEHeader

	// Offset is where the record starts in the input: the offset of its
	// version line in an uncompressed input and, in a compressed input,
	// the offset of the gzip member or zstd or LZ4 frame the record starts
	// in (the offset a CDX index gives, from which the record can be read
	// again; in a .warc.zst file with a dictionary, with the dictionary:
	// a Reader over an *io.SectionReader of the file reads it from the
	// file's start).
	Offset int64
	// UncompressedOffset is where the record starts in the decompressed
	// stream (all gzip members one after another). It equals Offset in an
	// uncompressed input.
	UncompressedOffset int64

	// Body reads the record's block, exactly ContentLength bytes. It is
	// valid until the next call to Next, which skips what was not read. If
	// the block turns out to be bad (see [ErrTruncated],
	// [ErrContentLength], [ErrGzip]), the Read that reaches the problem
	// returns a *RecordError instead of io.EOF.
	Body io.Reader

	b       *body
	payload *Payload
	// first is set if no byte of another record precedes the record in
	// its gzip member or frame (blank lines aside); stored is its
	// StoredLength, once known.
	first  bool
	stored int64
}

// StoredLength returns the length of the record in the input as stored,
// from Offset: the bytes of a plain record up to the end of its
// end-of-record marker (CRLF CRLF), or the gzip member(s) or zstd or LZ4
// frame(s) that hold the record in a compressed input. The byte range
// [Offset, Offset+StoredLength) of the input, read alone by a new Reader,
// gives this record and no other (for a .warc.zst with a dictionary, from
// an *io.SectionReader of the file: see Reader). It is known once the
// record has been read through: Body has returned io.EOF, or Next has been
// called again. It is 0 until then, and for a record that cannot be read
// alone: one that shares a gzip member or frame with another record's
// bytes (a file compressed as one member), a damaged record, and a record
// of an ARC file.
func (rec *Record) StoredLength() int64 { return rec.stored }

// Reader reads WARC records from a stream.
//
// The input may be uncompressed or gzip-compressed: one gzip member per
// record, as archives write them, or any other split into members (a whole
// file compressed at once is one member). zstd and LZ4 input are read the
// same way, frame by frame: what is said here of gzip members holds of
// their frames (skippable frames are skipped; a .warc.zst file's first
// frame may be the dictionary of the others; if the input is an
// *io.SectionReader not at its file's start, such as a record's byte range,
// the dictionary frame at the file's start is read). The Reader tells which from
// the first bytes, and refuses other containers and WARC versions with one
// final error (see [Detect]).
//
// A zstd frame may use a window of at most 8 MiB, and a dictionary may be
// 8 MiB at most, compressed or not: the sizes the warc-zstd specification
// requires a decoder to support. A larger window makes the frame corrupt
// ([ErrZstd]); a larger or unusable dictionary is a final error.
//
// A record whose Content-Length is wrong (too short, too long, or running
// past the end of the input) is reported once, as [ErrContentLength] or
// [ErrTruncated] with the record's offset, and the Reader then looks for the
// next record from the start of the damaged block: the first "WARC/1.x"
// version line after it, in plain input and inside a gzip member alike.
// How far back it can go depends on the input:
//
//   - If the input is an [io.Seeker] that can tell where it is (an
//     *os.File open on a regular file, a *bytes.Reader, an
//     *io.SectionReader; not a pipe), the Reader seeks back to the block's
//     start when it no longer holds it: in plain input to its offset, in
//     gzip input to the start of the gzip member the block starts in, which
//     it inflates again up to the block. No skipped bytes are buffered.
//     In plain input no good record after the damaged one is lost, however
//     large the records or the errors, and the input is read at most six
//     times over in all: once the bytes read again reach four times the
//     input read, the Reader checks each record's end-of-record marker
//     before it hands the record out (reading the few bytes there and
//     seeking back), so that it reads on forward only, and the Body of a
//     damaged record then returns its error at once. In gzip input, past
//     that bound of four times (an input full of damaged records) the
//     Reader goes back only as far as for other inputs.
//   - Otherwise it reaches back at most 1 MiB from where the damage shows
//     (the end of the block as the Content-Length has it, or the end of
//     the input): the records that start further back than that are lost.
//     That takes a Content-Length more than 1 MiB too long, or one running
//     past the end of the input with more than 1 MiB of records after the
//     block.
//
// Records lost so are reported: if a record may start (a "WARC/1.x" line)
// in the bytes the Reader cannot search again, Next returns, after the
// damaged record's error, a *RecordError wrapping a *[SkippedError] with
// the range from that place to where the search resumes.
//
// In input of one gzip member per record, the next member holds the next
// record, and nothing after the damage is lost either way. Offsets count
// from where the input was when the Reader got it (a seekable input need
// not be at its start), and the Reader then owns the input's position:
// nothing else may read or move it in between. A failing Seek is final, as
// a read error is.
//
// Memory is bounded however large the records: two windows of 64 KiB that
// grow to at most 2 MiB each (they hold the last 1 MiB of a block, or of a
// gzip member, until it has been checked, so that it can be rescanned), one
// header at a time (at most 256 KiB), and the decompressors. Reading a
// typical crawl (one gzip member per record) holds about 4 MiB of heap, a
// file that is one gzip member about 7 MiB; zstd adds its window (up to
// 8 MiB) and dictionary, LZ4 its block buffers (up to 4 MiB each). Limits (a header line of 64 KiB,
// a header of 256 KiB) are checked on byte counts, so the records and errors
// are the same however the input's reads are split.
type Reader struct {
	container // the input and its decompression (container.go)
	framing   // the record syntax (framing.go, block.go)
	recovery  // the way back after a wrong Content-Length (recovery.go)

	// next is what Next must do before it can read a record: stepRecord
	// when the record stream is at a record's start (blank lines aside).
	next step
	// err is io.EOF at the end of the input, or an error of the
	// underlying reader (or of its Seek). Once set it stays, and Next
	// returns it.
	err error
	// pending is an error found while settling another, which Next
	// returns, and clears, at its next call.
	pending error
	// http is the payload machinery, reused from record to record
	// (payload.go).
	http httpState
}

// step is what Next must do before it reads the next record.
type step uint8

const (
	stepRecord step = iota // the stream is at a record boundary
	stepScan               // look for "WARC/1." at the start of a line
	stepMember             // look for the next gzip member in the input
	stepEOF                // the input ended
)

// NewReader returns a Reader that reads WARC records from r. It reads
// nothing until the first call to Next.
func NewReader(r io.Reader) *Reader {
	in := newWindow(r)
	return &Reader{container: container{in: in, s: in}, recovery: recovery{scanFrom: -1}}
}

// Reset makes r read a new input from src, as NewReader would, keeping its
// buffers and decompressors for reuse. The Body of a record from the old
// input reads nothing more.
func (r *Reader) Reset(src io.Reader) {
	if r.body != nil {
		r.body.err = errReset
	}
	in, spare := r.in, r.spare
	if r.s != in {
		spare = r.s
	}
	*in = window{rd: src, buf: in.buf}
	*r = Reader{
		container: container{in: in, s: in, gz: r.gz, zin: r.zin, zd: r.zd, lz: r.lz, spare: spare},
		recovery:  recovery{scanFrom: -1},
		http:      r.http,
	}
}

var errReset = errors.New("warc: Body read after Reset")

// Next returns the next record. It skips what the caller did not read of
// the previous record's block.
//
// At the end of the input Next returns io.EOF. If a record is bad, Next
// returns a *[RecordError] and has moved past it: call Next again to get
// the records that follow. So it does for a stretch of input skipped after
// a damaged record, a *RecordError that wraps a *[SkippedError]. Any other
// error comes from the underlying reader and is final: Next returns it from
// then on.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	if b := r.body; b != nil {
		r.body = nil
		if err := b.skip(); err != nil {
			var re *RecordError
			if !errors.As(err, &re) {
				r.err = err
				return nil, err
			}
			if !b.reported {
				b.reported = true
				return nil, err
			}
		}
	}
	if err := r.pending; err != nil {
		r.pending = nil
		return nil, r.checkFinal(err)
	}
	if !r.started {
		r.started = true
		r.findSeeker()
		if err := r.start(); err != nil {
			return nil, r.checkFinal(err)
		}
	}
	for {
		var err error
		switch r.next {
		case stepEOF:
			r.err = io.EOF
			return nil, io.EOF
		case stepMember:
			r.next = stepRecord
			err = r.findMember()
		case stepScan:
			r.next = stepRecord
			err = r.scan()
		default:
			var rec *Record
			rec, err = r.readRecord()
			if rec != nil {
				return rec, nil
			}
			err = r.settle(err)
		}
		if err != nil {
			return nil, r.checkFinal(err)
		}
	}
}

// checkFinal returns err, recording it as final unless it is a
// *RecordError.
func (r *Reader) checkFinal(err error) error {
	var re *RecordError
	if errors.As(err, &re) {
		return err
	}
	r.err = err
	return err
}
