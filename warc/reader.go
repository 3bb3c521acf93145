package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
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

// Reasons of a SkippedError.
const (
	reasonPipe  = "the input cannot seek, and the Reader looks back at most 1 MiB"
	reasonBound = "going back would inflate the gzip input again more than 4 times over"
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
	// in is the input as stored (compressed bytes for gzip input).
	in *window
	// s is the record stream: in itself for uncompressed input, otherwise
	// the decompressed bytes of the current gzip member. Its io.EOF marks
	// the end of the member.
	s *window
	// c is the input's container, known once started.
	c Container
	// gz decompresses gzip input; nil until a gzip input comes. zd and lz
	// decompress zstd and LZ4 frames, read through fr; nil until such an
	// input comes.
	gz *gzip.Reader
	zd *zstd.Decoder
	lz *lz4.Reader
	fr frameReader
	// begun is set once the first record's version line was looked at;
	// arc then if the input is an ARC file (see arc.go).
	begun, arc bool
	// zin is gz's view of in: the decompressor reads in by slices through
	// it rather than byte by byte through an interface. It may hold bytes
	// read ahead of the current member's end; takeIn hands them back.
	zin *bufio.Reader
	// spare is the record-stream window kept by Reset for the next gzip
	// input.
	spare   *window
	started bool
	// member is the input offset of the current gzip member.
	member int64
	// next is what Next must do before it can read a record.
	next step
	// scanFrom is where stepScan looks for the next record; -1 means from
	// where the stream is.
	scanFrom int64
	// back, if set, is where stepScan should look from instead of
	// scanFrom, which is as far back as the stream still holds: a block
	// start that only seeking back in the input can reach.
	back *spot
	// lost, with back set, is the first record-stream offset in
	// [back.off, scanFrom) where a record may start, or -1: where the
	// bytes that a scan from scanFrom misses begin to matter.
	lost int64
	// src is the input if it can seek, for the exact rescan of back; nil
	// if it cannot (start finds out).
	src io.Seeker
	// base is src's position at the start of the input (stream offset 0).
	base int64
	// reread counts the input bytes read again after seeking back; reach
	// is the furthest input offset read. seekBack keeps reread within
	// maxReread times reach: in gzip input by refusing to go back, in
	// plain input by setting probing.
	reread, reach int64
	// probing is set once plain input has been read again maxReread times
	// over: from then on readRecord checks each record's end-of-record
	// marker before it hands the record out (see probeEnd), so that the
	// block of a damaged record is never read and the input is read on
	// forward only.
	probing bool
	// size, once probing, is the length of the input: its end as a
	// stream offset.
	size int64
	// memberU is the record-stream offset of the current gzip member's
	// first byte.
	memberU int64
	// used is set once a record has started or ended in the current gzip
	// member or frame: a record that starts in it then is not the first
	// (see Record.StoredLength).
	used bool
	// body is the block of the record last returned, or nil.
	body *body
	// err is io.EOF at the end of the input, or an error of the
	// underlying reader. Once set, Next returns it.
	err error
	// pending is an error found while settling another; Next returns it
	// next.
	pending error

	http httpState
}

// A spot is a place in the record stream, with what it takes to reach it
// again by seeking back in the input.
type spot struct {
	off int64 // the record-stream offset
	// member is the input offset of the gzip member holding off, and
	// memberU the record-stream offset of that member's first byte
	// (gzip input only).
	member, memberU int64
}

// maxReread bounds the input bytes that rescans read again after seeking
// back: at most maxReread times the input read so far, so that an input
// full of damaged records is still read in linear time.
const maxReread = 4

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
	return &Reader{in: in, s: in, scanFrom: -1}
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
	*r = Reader{in: in, s: in, gz: r.gz, zd: r.zd, lz: r.lz, zin: r.zin, spare: spare, scanFrom: -1, http: r.http}
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

// settle runs a scan that err has made pending now, if the input is gzip:
// if the scan finds the record's gzip member corrupt, that is the cause of
// err and err says so, so that one damaged member gives one error. Another
// error the scan finds is kept for the next call to Next.
func (r *Reader) settle(err error) error {
	var re *RecordError
	if !r.compressed() || r.next != stepScan || !errors.As(err, &re) {
		return err
	}
	r.next = stepRecord
	serr := r.scan()
	if serr == nil {
		return err
	}
	var se *RecordError
	if errors.As(serr, &se) && se.Offset == re.Offset && errors.Is(serr, r.corrupt()) {
		re.Err = se.Err
		return err
	}
	r.pending = serr
	return err
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

// findSeeker sets src if the input can seek: an [io.Seeker] that can tell
// where it is (a pipe, an *os.File too, cannot).
func (r *Reader) findSeeker() {
	sk, ok := r.in.rd.(io.Seeker)
	if !ok {
		return
	}
	if pos, err := sk.Seek(0, io.SeekCurrent); err == nil {
		r.src, r.base = sk, pos
	}
}

// start looks at the first bytes of the input to tell its container (see
// containerOf) and sets up its decompressor. A container it does not read
// is a final error.
func (r *Reader) start() error {
	b, err := r.in.peek(10)
	r.c = containerOf(b)
	if !r.c.Supported() {
		return containerError(r.c)
	}
	if r.c.framed() {
		if err := r.startDecoder(); err != nil {
			return err
		}
		if r.spare != nil {
			r.s, r.spare = r.spare, nil
			*r.s = window{buf: r.s.buf}
		} else {
			r.s = newWindow(nil)
		}
		return r.openMember(true)
	}
	if len(b) == 0 && err != nil {
		if err == io.EOF {
			r.next = stepEOF
			return nil
		}
		return err
	}
	return nil
}

// zinSize is the size of zin's buffer: what it may read ahead of a
// member's end and hand back at the next one.
const zinSize = 4 << 10

// takeIn moves in back over the bytes zin has read ahead and empties zin,
// so that in.pos() is where the decompressor stopped. The window still
// holds those bytes: in is marked at the current member's start.
func (r *Reader) takeIn() {
	if r.c != Gzip {
		return
	}
	if n := r.zin.Buffered(); n > 0 {
		r.in.rewind(r.in.pos() - int64(n))
	}
	r.zin.Reset(r.in)
}

// compressed reports whether the input is compressed (gzip, zstd or LZ4):
// read member by member, or frame by frame.
func (r *Reader) compressed() bool { return r.s != r.in }

// final returns the underlying reader's error, if it failed.
func (r *Reader) final() error {
	if err := r.in.err; err != nil && err != io.EOF {
		return err
	}
	return nil
}

// openMember starts decompressing the gzip member at the current input
// position. At the end of the input it sets stepEOF and returns nil. A
// malformed gzip header is reported as garbage (if report is set) and
// leaves stepMember to look further.
func (r *Reader) openMember(report bool) error {
	r.takeIn()
	r.member = r.in.pos()
	r.used = false
	r.in.mark()
	dec, err := r.openDecoder()
	if err == nil {
		r.memberU = r.s.end()
		// The record stream goes on with the new member; what is
		// buffered of the old one stays, as a record may span members.
		r.s.rd, r.s.err = dec, nil
		return nil
	}
	r.s.err = io.EOF
	if ferr := r.final(); ferr != nil {
		return ferr
	}
	if err == io.EOF {
		r.next = stepEOF
		return nil
	}
	r.next = stepMember
	if !report {
		return nil
	}
	return &RecordError{Offset: r.member, UncompressedOffset: r.s.pos(), Err: ErrGarbage}
}

// streamError turns an error of the record stream that is not io.EOF into
// what Next reports: the underlying reader's error if it failed, otherwise
// a gzip error (and the Reader then looks for the next member). off and
// id describe the record being read.
func (r *Reader) streamError(err error, off, uoff int64, id string) error {
	if ferr := r.final(); ferr != nil {
		return ferr
	}
	if !r.compressed() {
		return err
	}
	r.next = stepMember
	return &RecordError{Offset: off, UncompressedOffset: uoff, RecordID: id, Err: fmt.Errorf("%w: %w", r.corrupt(), err)}
}

// endOfMember handles the end of the current gzip member when more bytes
// are needed: it opens the next member. It returns io.EOF if there is none,
// with stepEOF set, or if what follows is not a gzip member, with
// stepMember set (and, if report is set, a *RecordError instead of io.EOF).
// It returns nil if the stream goes on.
func (r *Reader) endOfMember(report bool) error {
	if !r.compressed() {
		return io.EOF
	}
	if err := r.openMember(report); err != nil {
		return err
	}
	if r.next != stepRecord {
		return io.EOF
	}
	return nil
}

// findMember looks for the next gzip member in the input, from the byte
// after the start of the current one (a corrupt member can hide the start of
// the next one if it was cut short), and opens it.
func (r *Reader) findMember() error {
	// What is buffered of the corrupt member is lost, and so is a
	// rescan within it.
	r.back = nil
	r.s.discard(len(r.s.buffered()))
	r.s.unmark()
	r.takeIn()
	in := r.in
	in.rewind(in.held(r.member + 1))
	in.unmark()
	for {
		b := in.buffered()
		if i := r.indexMember(b); i >= 0 {
			in.discard(i)
			cand := in.pos()
			r.next = stepRecord
			if err := r.openMember(false); err != nil {
				return err
			}
			if r.next != stepMember {
				return nil
			}
			// Not a gzip header after all.
			r.takeIn()
			in.rewind(cand + 1)
			in.unmark()
			continue
		}
		// Keep a magic number that the buffer may have cut.
		in.discard(max(len(b)-3, 0))
		if err := in.fill(); err != nil {
			if err != io.EOF {
				return err
			}
			r.next = stepEOF
			return nil
		}
	}
}

// indexGzipHeader returns the index of the first gzip member header in b:
// the magic bytes, the deflate method and flags with the reserved bits
// clear. It returns -1 if there is none (a header at the very end of b
// with its flags byte missing is not reported).
func indexGzipHeader(b []byte) int {
	for i := 0; ; {
		j := bytes.Index(b[i:], gzipMagic)
		if j < 0 {
			return -1
		}
		i += j
		if i+3 >= len(b) {
			return -1
		}
		if b[i+3]&0xe0 == 0 {
			return i
		}
		i++
	}
}

var gzipMagic = []byte{0x1f, 0x8b, 0x08}

// versionPrefix starts every version line; startLen bytes ("WARC/1." or
// "WARC/0.") tell the start of a record of the versions this package reads.
const (
	versionPrefix = "WARC/"
	startLen      = len("WARC/1.")
)

// scan looks for the next record, a version line ("WARC/1.0" CRLF,
// "WARC/1.1" CRLF or "WARC/0.18" CRLF), and leaves the stream at it. The line need not start
// at the start of a line: a record cut short runs straight into the next
// one. scan crosses into the next gzip member if it must.
func (r *Reader) scan() error {
	s := r.s
	if r.back != nil {
		back := r.back
		r.back = nil
		ok, err := r.seekBack(*back)
		if err != nil {
			return err
		}
		if ok {
			r.scanFrom = -1
			if r.next != stepRecord {
				return nil // the member is not one any more
			}
		} else if r.lost >= 0 {
			// A record may start before scanFrom, where the scan
			// cannot go: say so, and scan from scanFrom at the next
			// call.
			r.next = stepScan
			return r.skipped(*back, r.lost, r.scanFrom)
		}
	}
	if r.scanFrom >= 0 {
		s.rewind(r.scanFrom)
		r.scanFrom = -1
	}
	s.unmark()
	for {
		b := s.buffered()
		if r.arc {
			at, keep := indexARCLine(b)
			if at >= 0 {
				s.discard(at)
				return nil
			}
			s.discard(keep)
			if err := s.fill(); err != nil {
				if done, err := r.scanEnd(err); done {
					return err
				}
			}
			continue
		}
		keep := max(len(b)-len(versionPrefix)+1, 0) // where a match may still begin
		for i := 0; ; {
			j := bytes.Index(b[i:], []byte(versionPrefix))
			if j < 0 {
				break
			}
			i += j
			switch versionLine(b[i:]) {
			case lineYes:
				s.discard(i)
				return nil
			case lineMore:
				keep = min(keep, i)
			}
			i++
		}
		s.discard(keep)
		if err := s.fill(); err != nil {
			if done, err := r.scanEnd(err); done {
				return err
			}
		}
	}
}

// skipped returns the error that reports the record-stream bytes from start
// to end, in the block that starts at p, as skipped.
func (r *Reader) skipped(p spot, start, end int64) error {
	reason := reasonPipe
	if r.src != nil {
		reason = reasonBound
	}
	off := start
	if r.compressed() {
		off = p.member
	}
	return &RecordError{Offset: off, UncompressedOffset: start, Err: &SkippedError{Start: start, End: end, Reason: reason}}
}

// seekBack moves the record stream back to p by seeking in the input: to
// p.off in plain input, and in gzip input to the start of the member p lies
// in, inflating it anew up to p.off. It reports false, having changed
// nothing, if the input cannot seek or if it would go beyond the bound of
// maxReread. An error is the input's, and final.
func (r *Reader) seekBack(p spot) (bool, error) {
	if r.src == nil {
		return false, nil
	}
	from := p.off
	if r.compressed() {
		if p.off < p.memberU {
			return false, nil
		}
		from = p.member
	}
	r.reach = max(r.reach, r.in.end())
	d := r.in.end() - from
	if d < 0 {
		return false, nil
	}
	if r.reread+d > maxReread*r.reach && !r.probing {
		if r.compressed() || !r.startProbing() {
			return false, nil
		}
	}
	if _, err := r.src.Seek(r.base+from, io.SeekStart); err != nil {
		return true, err
	}
	r.reread += d
	r.in.moveTo(from)
	if !r.compressed() {
		return true, nil
	}
	if r.c == Gzip {
		r.zin.Reset(r.in)
	}
	r.s.moveTo(p.memberU)
	if err := r.openMember(false); err != nil || r.next != stepRecord {
		return true, err
	}
	// Skip what the member holds before p (a shorter member than the
	// first time is left to scan to find).
	s := r.s
	for s.pos() < p.off {
		b := s.buffered()
		if len(b) == 0 {
			if s.fill() != nil {
				break
			}
			continue
		}
		s.discard(int(min(int64(len(b)), p.off-s.pos())))
	}
	return true, nil
}

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

// scanEnd handles the end of the stream during scan. It reports whether the
// scan is over (and with what error); if not, the stream continues in the
// next gzip member.
func (r *Reader) scanEnd(err error) (bool, error) {
	if err != io.EOF {
		return true, r.streamError(err, r.member, r.s.pos(), "")
	}
	if err := r.endOfMember(false); err != nil {
		if err == io.EOF {
			// The tail that could not start a record is left.
			r.s.discard(len(r.s.buffered()))
			if r.next == stepRecord {
				r.next = stepEOF
			}
			return true, nil
		}
		return true, err
	}
	return false, nil
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

const (
	// maxHeader bounds the size of a record header and of a stored HTTP
	// header.
	maxHeader = 256 << 10
	// maxLine bounds the length of one header line, line ending included.
	maxLine = minBuffer
)

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
	size := len(line)
	var last string // the name of the last field, for continuation lines
	for {
		line, err := r.readLine()
		if err != nil {
			return r.lineError(rec, err, fail)
		}
		size += len(line)
		if size > maxHeader {
			return fail(fmt.Errorf("%w: header longer than %d bytes", ErrBadHeader, maxHeader))
		}
		if len(line) <= 2 && (string(line) == "\r\n" || string(line) == "\n") {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			// A continuation line (WARC 1.0 allows folding).
			if last == "" {
				return fail(fmt.Errorf("%w: continuation line %q without a field", ErrBadHeader, line))
			}
			vs := rec.Header[last]
			vs[len(vs)-1] += " " + string(trimSpace(line))
			continue
		}
		if i := indexVersionLine(line); i >= 0 {
			// The record was cut short and the next one follows
			// straight on: start over there.
			s.rewind(s.pos() - int64(len(line)-i))
			return nil, &RecordError{Offset: rec.Offset, UncompressedOffset: rec.UncompressedOffset, RecordID: rec.Header.Get("Warc-Record-Id"), Err: ErrTruncated}
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 || !isToken(line[:colon]) {
			return fail(fmt.Errorf("%w: bad field line %q", ErrBadHeader, line))
		}
		last = canonicalKey(line[:colon])
		rec.Header[last] = append(rec.Header[last], string(trimSpace(line[colon+1:])))
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

// startProbing sets probing, for plain input whose size it can learn by
// seeking to its end (seekBack then seeks where it goes). Plain input goes
// back this once more, and reads on forward only from then on.
func (r *Reader) startProbing() bool {
	end, err := r.src.Seek(0, io.SeekEnd)
	if err != nil {
		return false
	}
	r.size = end - r.base
	r.probing = true
	return true
}

// probeEnd checks, in plain input that can seek, whether b's block (of at
// least one byte) is followed by its end-of-record marker, before any of
// it is read: from the window if it holds the bytes, otherwise by reading
// the byte before the marker and the marker from the input and seeking
// back. If the block is damaged, b fails at once with the error that
// reading it would have given, and the Reader will look for the next
// record from the block's start, where the stream is: the block is never
// read. An error returned is the input's, and final.
func (r *Reader) probeEnd(b *body) error {
	in := r.in
	if b.left > r.size-b.start.off {
		// The block would end past the end of the input.
		return r.probed(b, ErrTruncated)
	}
	c := b.start.off + b.left // the end of the block
	var got []byte            // the input from c-1, up to 5 bytes: short only at its end
	switch {
	case c+len64(endOfRecord) <= in.end():
		got = in.buf[c-1-in.off : c+4-in.off]
	case in.err == io.EOF:
		if c-1 < in.end() { // unless the input shrank since size was read
			got = in.buf[c-1-in.off : in.w]
		}
	case in.err != nil:
		return nil // the body meets the error
	default:
		var buf [5]byte
		if _, err := r.src.Seek(r.base+c-1, io.SeekStart); err != nil {
			return err
		}
		n, err := readFull(in.rd, buf[:])
		if err != nil {
			return err
		}
		if _, err := r.src.Seek(r.base+in.end(), io.SeekStart); err != nil {
			return err
		}
		got = buf[:n]
	}
	// got holds c-1 at least, as c is within the input (if it shrank,
	// the block is left to find that it is cut short).
	if m := got[min(1, len(got)):]; bytes.HasPrefix(m, endOfRecord) || len(got) < 5 && bytes.HasPrefix(endOfRecord, m) {
		return nil
	}
	return r.probed(b, ErrContentLength)
}

// probed makes b fail at once with kind, and the Reader look for the next
// record from b's start.
func (r *Reader) probed(b *body, kind error) error {
	b.left, b.err = 0, b.recordError(kind)
	r.next, r.scanFrom, r.back = stepScan, b.start.off, nil
	return nil
}

// readFull reads len(p) bytes from rd, or fewer if it ends first. The error
// is rd's other than io.EOF, or io.ErrNoProgress after maxEmptyReads empty
// reads in a row.
func readFull(rd io.Reader, p []byte) (int, error) {
	n, empty := 0, 0
	for n < len(p) {
		k, err := rd.Read(p[n:])
		if k < 0 || k > len(p)-n {
			return n, io.ErrNoProgress
		}
		n += k
		switch {
		case err == io.EOF:
			return n, nil
		case err != nil:
			return n, err
		case k > 0:
			empty = 0
		default:
			if empty++; empty >= maxEmptyReads {
				return n, io.ErrNoProgress
			}
		}
	}
	return n, nil
}

// len64 returns len(b) as an int64.
func len64(b []byte) int64 { return int64(len(b)) }

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

// rescan makes the Reader look for the next record from the start of the
// block: in the record stream if it still holds it, otherwise by seeking
// back in the input (see Reader.seekBack), or else from as far back as the
// record stream holds for certain.
func (b *body) rescan() {
	r := b.r
	r.next = stepScan
	r.scanFrom = r.s.held(b.start.off)
	r.back = nil
	if r.scanFrom > b.start.off {
		r.back = &b.start
		r.lost = r.s.firstLine(b.start.off, r.scanFrom)
	}
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

// memberEnd returns the input offset just past the current gzip member or
// frame, which the decompressor has read to its end.
func (r *Reader) memberEnd() int64 {
	if r.c == Gzip {
		return r.in.pos() - int64(r.zin.Buffered())
	}
	return r.in.pos()
}

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
