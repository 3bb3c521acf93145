package archive

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"

	"github.com/klauspost/compress/gzip"

	"github.com/charsniff/charsniff/internal/ascii"
)

// maxSplitScan bounds how far Split looks for a gzip member after each
// place it would cut: a file whose members are larger than that (a whole
// file compressed at once, say) is cut into fewer parts, or none.
const maxSplitScan = 1 << 20

// maxSplitMisses is how many scans in a row may find no member before
// Split gives up: so that it reads at most 4 MiB of a file that is one
// gzip member.
const maxSplitMisses = 4

// Split returns where the gzip or zstd WARC file src (of size bytes) can be cut
// into parts of about partSize bytes that can be read independently, each
// with its own Reader (over an io.SectionReader of src, with
// Options.Offset set to the part's start, so that the offsets of the
// results are the file's): the offset 0 of the first part, then the start
// of each further part, in increasing order.
//
// A cut is made only at the start of a gzip member that inflates to a
// WARC version line ("WARC/1.0" CRLF), so at a record's start: the bytes
// 1f 8b 08 inside compressed data are not taken for a member. Split looks
// for a member in the first MiB after each place it would cut; where it
// finds none (a file with members that large) the parts are fewer, and
// after four such misses in a row (a file that is one gzip member) it
// stops. A zstd file (a frame per record, after a dictionary frame or
// not: .warc.zst) is cut at the first zstd frame after each place it
// would cut, found by walking the frames from the file's start by their
// headers (each gives the size of its blocks), so never inside a frame;
// a part of a .warc.zst file is read with the dictionary at the file's
// start (see warc.Reader). The walk stops at bytes that are no frame, and
// a zstd file of one frame is one part. A file that is neither (plain,
// LZ4), or smaller than two parts, is one part: Split returns [0]. A read
// error of src ends the search: the parts found so far are returned.
// Split reads about 16 KiB for each cut of a gzip file, and at most 4 MiB
// more where it finds none; the headers of every frame of a zstd file.
//
// Nor is a gzip member inside another member's stored deflate blocks (a
// .warc.gz file in a response record, in a member written without
// compression or stored by a compressor that found it incompressible):
// its bytes are there as they are and would pass the check, so Split
// does not cut at a member within 64 KiB after what may be the header of
// a stored block that reaches it (see inStoredBlock); such a header
// appears by chance before about one member in three in compressed data, and
// Split then cuts at a later member. A caller should still check that
// each part but the last is read without error to its very end, and
// otherwise read on from that part's first error on one core: the
// charsniff command does.
func Split(src io.ReaderAt, size, partSize int64) []int64 {
	c := newCutter(src, size, partSize)
	var cuts []int64
	for off, ok := c.next(); ok; off, ok = c.next() {
		cuts = append(cuts, off)
	}
	return cuts
}

// A cutter finds the cuts of Split one at a time, so that ReadAll reads
// the first parts while it looks for the next cuts.
type cutter struct {
	s        splitter
	z        *frameWalker // a zstd file's frames; nil for gzip
	partSize int64
	t        int64 // where the next cut would be made, -1 before the first
	misses   int
	done     bool
}

func newCutter(src io.ReaderAt, size, partSize int64) *cutter {
	c := &cutter{s: splitter{src: src, size: size}, partSize: partSize, t: -1}
	var head [4]byte
	_, err := src.ReadAt(head[:], 0)
	magic := binary.LittleEndian.Uint32(head[:])
	switch {
	case partSize <= 0 || size < 2*partSize || err != nil:
		c.done = true // one part: 0
	case magic == 0xFD2FB528 || magic&0xFFFFFFF0 == 0x184D2A50:
		c.z = &frameWalker{src: src, size: size}
	case head[0] != 0x1f || head[1] != 0x8b:
		c.done = true
	}
	return c
}

// next returns the next cut of Split, or false after the last.
func (c *cutter) next() (int64, bool) {
	if c.t < 0 {
		c.t = c.partSize
		return 0, true
	}
	if c.z != nil {
		return c.nextZstd()
	}
	for !c.done && c.t+c.partSize/2 < c.s.size {
		off, ok := c.s.find(c.t, min(c.t+maxSplitScan, c.s.size))
		if !ok {
			if c.misses++; c.misses == maxSplitMisses {
				break // one gzip member, most likely: no need to read it all
			}
			c.t += maxSplitScan
			continue
		}
		c.misses = 0
		if c.s.size-off < c.partSize/2 {
			break // the last part would be small: leave it to the one before
		}
		c.t = off + c.partSize
		return off, true
	}
	c.done = true
	return 0, false
}

// A splitter looks for record-starting gzip members in a file.
type splitter struct {
	src  io.ReaderAt
	size int64
	buf  []byte
	back []byte // the bytes before a member, for inStoredBlock
	zr   gzip.Reader
	br   *bufio.Reader
}

// find returns the first offset in [from, to) where a gzip member starts
// whose inflated bytes start with a WARC version line.
func (s *splitter) find(from, to int64) (int64, bool) {
	const chunk = 16 << 10 // a few records of a typical crawl
	if s.buf == nil {
		s.buf = make([]byte, chunk+len(gzipMagic))
	}
	for off := from; off < to; off += chunk {
		n, err := s.src.ReadAt(s.buf[:int(min(int64(len(s.buf)), s.size-off))], off)
		if n == 0 && err != nil {
			return 0, false
		}
		b := s.buf[:n]
		for i := 0; ; i++ {
			j := bytes.Index(b[i:], gzipMagic)
			if j < 0 || i+j >= chunk || off+int64(i+j) >= to {
				break
			}
			i += j
			if at := off + int64(i); s.startsRecord(at) && !s.inStoredBlock(at) {
				return at, true
			}
		}
	}
	return 0, false
}

var gzipMagic = []byte{0x1f, 0x8b, 0x08}

// maxStored is the most a stored deflate block holds: its LEN and NLEN
// (4 bytes) and up to 65535 bytes of data.
const maxStored = 4 + 0xffff

// inStoredBlock reports whether off may lie in the data of a stored
// deflate block: whether one of the maxStored bytes before it starts a
// LEN and NLEN pair (LEN, then its complement, little-endian) whose LEN
// bytes of data reach off. The bytes of a gzip member inside a stored
// block (a .warc.gz in a record, in a member written without compression
// or stored by a compressor that found it incompressible) are there as
// they are and look like a member of the file; but the block's header is
// at most maxStored bytes before them, so no such member passes. Bytes of
// other data that look like a header make a true member fail too (about
// one in two in compressed data): Split then cuts at a later member.
func (s *splitter) inStoredBlock(off int64) bool {
	from := max(0, off-maxStored)
	if cap(s.back) < maxStored {
		s.back = make([]byte, maxStored)
	}
	b := s.back[:off-from]
	if n, _ := s.src.ReadAt(b, from); n < len(b) {
		return true // cannot tell: do not cut here
	}
	q := 0
	for ; q+10 <= len(b); q += 7 {
		// Seven places at once: y has a zero byte k where b[q+k] and
		// b[q+k+2] are complements, and a header starts at q+k (k < 7)
		// where bytes k and k+1 both are. The zero-byte test may also
		// flag a byte above a zero one (a borrow): each place flagged is
		// looked at on its own.
		y := ^(binary.LittleEndian.Uint64(b[q:]) ^ binary.LittleEndian.Uint64(b[q+2:]))
		z := (y - lsb64) &^ y & msb64
		if z&(z>>8)&0x0080808080808080 == 0 {
			continue
		}
		for k := q; k < q+7; k++ {
			if storedHeader(b, k) {
				return true
			}
		}
	}
	for ; q+4 <= len(b); q++ {
		if storedHeader(b, q) {
			return true
		}
	}
	return false
}

// Masks for looking at eight bytes at once.
const (
	lsb64 = ascii.LowBits
	msb64 = ascii.HighBits
)

// storedHeader reports whether b[q:] starts with a LEN and NLEN pair
// whose LEN bytes of data reach past the end of b.
func storedHeader(b []byte, q int) bool {
	v := binary.LittleEndian.Uint32(b[q:])
	return (v^v>>16)&0xffff == 0xffff && q+4+int(v&0xffff) > len(b)
}

// startsRecord reports whether a gzip member starts at off and inflates to
// a WARC version line.
func (s *splitter) startsRecord(off int64) bool {
	// The line is in the member's first deflate block: the gzip header,
	// the block's header and code tables and a few codes take well under
	// checkLen bytes. The inflater, given no more, stops there, rather
	// than inflating all of its window (up to 32 KiB of text) for sixteen
	// bytes of it; a member that needs more (a long name in its header)
	// is given the rest of the file.
	const checkLen = 2 << 10
	ok, short := s.inflatesToVersion(off, min(checkLen, s.size-off))
	if !ok && short && checkLen < s.size-off {
		ok, _ = s.inflatesToVersion(off, s.size-off)
	}
	return ok
}

// inflatesToVersion reports whether the n bytes at off start a gzip member
// that inflates to a WARC version line, and whether it ran out of them
// first.
func (s *splitter) inflatesToVersion(off, n int64) (ok, short bool) {
	sr := io.NewSectionReader(s.src, off, n)
	if s.br == nil {
		s.br = bufio.NewReaderSize(sr, 4<<10)
	} else {
		s.br.Reset(sr)
	}
	if err := s.zr.Reset(s.br); err != nil {
		return false, err == io.EOF || err == io.ErrUnexpectedEOF
	}
	s.zr.Multistream(false)
	var line [16]byte
	k, err := io.ReadFull(&s.zr, line[:])
	return isVersionLine(line[:k]), err == io.ErrUnexpectedEOF
}

// isVersionLine reports whether b starts with a WARC version line of the
// versions package warc reads: "WARC/1." and one to three digits, or
// "WARC/0." and one or two (ClueWeb09's 0.18), then CRLF or LF.
func isVersionLine(b []byte) bool {
	const start = "WARC/1."
	digits := 3
	if bytes.HasPrefix(b, []byte("WARC/0.")) {
		digits = 2
	} else if !bytes.HasPrefix(b, []byte(start)) {
		return false
	}
	i := len(start)
	for i < len(b) && i < len(start)+digits && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	if i == len(start) || i == len(b) {
		return false
	}
	if b[i] == '\r' {
		i++
	}
	return i < len(b) && b[i] == '\n'
}
