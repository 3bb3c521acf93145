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

	// Offset is where the record starts in the input: its version line
	// in plain input, and in compressed input the gzip member or zstd or
	// LZ4 frame it starts in (the offset a CDX index gives, from which a
	// new Reader can read the record again).
	Offset int64
	// UncompressedOffset is where the record starts in the decompressed
	// stream (all members one after another); Offset in plain input.
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

// StoredLength returns the length of the record as stored, from Offset:
// a plain record up to the end of its end-of-record marker, or the members
// or frames that hold it. The byte range [Offset, Offset+StoredLength),
// read alone by a new Reader, gives this record and no other. It is known
// once the record has been read through (Body returned io.EOF, or Next
// was called again), and 0 until then and for a record that cannot be read
// alone: one that shares a member with another record's bytes, a damaged
// record, or an ARC record.
func (rec *Record) StoredLength() int64 { return rec.stored }

// Reader reads WARC records from a stream (and the records of an ARC
// file, as WARC records).
//
// The input may be plain or compressed: gzip members, zstd frames or LZ4
// frames, one per record as archives write them or any other split (a
// file compressed whole is one member). The Reader tells which from the
// first bytes, and refuses other containers and WARC versions with one
// final error (see [Detect]). Skippable frames are skipped, and a
// .warc.zst file's dictionary frame is read: from the file's start if the
// input is an *io.SectionReader of the file, such as a record's byte
// range. A zstd window or a dictionary larger than 8 MiB, the most the
// warc-zstd specification requires a decoder to support, makes the frame
// corrupt ([ErrZstd]) or, for the dictionary, is a final error.
//
// A record whose Content-Length is wrong is reported once
// ([ErrContentLength] or [ErrTruncated]), and the Reader looks for the
// next version line from the start of the damaged block. If the input is
// an [io.Seeker] that can tell its position (a regular file, a
// *bytes.Reader, an *io.SectionReader), the Reader seeks back there when it
// no longer holds the block, and no good record is lost, the input being
// read at most six times over (compressed input: while inflating again
// stays within four times the input read). Otherwise it looks back at most
// 1 MiB from where the damage shows, and the records that start further
// back are lost; in input of one member or frame per record the next one
// holds the next record, and nothing is lost either way. A stretch where a
// record may start and that the Reader could not search is reported after
// the damaged record, as a *RecordError wrapping a *[SkippedError].
//
// Offsets count from where the input was when the Reader got it, and the
// Reader then owns the input's position: nothing else may read or move it.
// A failing Seek is final, as a read error is.
//
// Memory is bounded however large the records: two windows of at most
// 2 MiB each, one header at a time (at most 256 KiB, in lines of at most
// 64 KiB) and the decompressors (a zstd window of up to 8 MiB, LZ4 blocks
// of up to 4 MiB). The limits are checked on byte counts, so the records
// and errors are the same however the input's reads are split.
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
		container: container{in: in, s: in, gz: r.gz, zin: r.zin, zd: r.zd, lz: r.lz, spare: spare, dict: r.dict, dictFile: r.dictFile},
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
