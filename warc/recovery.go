package warc

import (
	"bytes"
	"errors"
	"io"
)

// recovery is the Reader's way back after a record whose Content-Length
// is wrong: where the next scan for a version line starts, and what it
// takes to reach a block start that the record stream no longer holds.
type recovery struct {
	// scanFrom is where the next scan (stepScan) looks for a record: a
	// record-stream offset that s still holds, or -1 for where the stream
	// is. scan sets it back to -1.
	scanFrom int64
	// back, if set, is the block start that scan should look from instead
	// of scanFrom, which is then as far back as s holds (back.off <
	// scanFrom): one that only seeking back in the input can reach. It is
	// set only with next == stepScan, and cleared by scan and by any other
	// step.
	back *spot
	// lost, with back set, is the first record-stream offset in
	// [back.off, scanFrom) where a record may start, or -1: where the
	// bytes that a scan from scanFrom misses begin to matter.
	lost int64
	// src is the input if it can seek and tell its position, found at the
	// first call to Next (findSeeker), and base its position then (stream
	// offset 0); src is nil for other inputs, which never seek.
	src  io.Seeker
	base int64
	// reread counts the input bytes read again after seeking back, and
	// reach is the furthest input offset read. seekBack keeps reread
	// within maxReread times reach, but for the one rescan that starts
	// probing: in compressed input by refusing to go back, in plain input
	// by setting probing.
	reread, reach int64
	// probing is set, in plain input that can seek, once it has been read
	// again maxReread times over, and stays set: from then on readRecord
	// checks each record's end-of-record marker before it hands the
	// record out (probeEnd), so that the block of a damaged record is
	// never read and the input is read on forward only. size, once
	// probing, is the input's length: its end as a stream offset.
	probing bool
	size    int64
}

// Reasons of a SkippedError.
const (
	reasonPipe  = "the input cannot seek, and the Reader looks back at most 1 MiB"
	reasonBound = "going back would inflate the gzip input again more than 4 times over"
)

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
