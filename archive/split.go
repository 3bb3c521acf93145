package archive

import (
	"bufio"
	"bytes"
	"io"

	"github.com/klauspost/compress/gzip"
)

// maxSplitScan bounds how far Split looks for a gzip member after each
// place it would cut: a file whose members are larger than that (a whole
// file compressed at once, say) is cut into fewer parts, or none.
const maxSplitScan = 1 << 20

// maxSplitMisses is how many scans in a row may find no member before
// Split gives up: so that it reads at most 4 MiB of a file that is one
// gzip member.
const maxSplitMisses = 4

// Split returns where the gzip WARC file src (of size bytes) can be cut
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
// stops. A file that is not gzip, or smaller than two parts, is one part:
// Split returns [0]. A read error of src ends the search: the parts found
// so far are returned. Split reads about 16 KiB for each cut, and at most
// 4 MiB more where it finds none.
//
// One case defeats the check: a gzip member of WARC records stored as is
// inside another member's data (a .warc.gz file in a response record,
// which a compressor leaves in stored deflate blocks, being
// incompressible). A cut there gives the part before it a damaged last
// record and the part after it the stored records as if they were the
// file's. So a caller must check that each part but the last ends with an
// undamaged record, and otherwise read on from that part's start as one
// part: the charsniff command does.
func Split(src io.ReaderAt, size, partSize int64) []int64 {
	cuts := []int64{0}
	var head [2]byte
	if partSize <= 0 || size < 2*partSize {
		return cuts
	}
	if _, err := src.ReadAt(head[:], 0); err != nil || head[0] != 0x1f || head[1] != 0x8b {
		return cuts
	}
	s := splitter{src: src, size: size}
	misses := 0
	for t := partSize; t+partSize/2 < size; {
		off, ok := s.find(t, min(t+maxSplitScan, size))
		if !ok {
			if misses++; misses == maxSplitMisses {
				break // one gzip member, most likely: no need to read it all
			}
			t += maxSplitScan
			continue
		}
		misses = 0
		if size-off < partSize/2 {
			break // the last part would be small: leave it to the one before
		}
		cuts = append(cuts, off)
		t = off + partSize
	}
	return cuts
}

// A splitter looks for record-starting gzip members in a file.
type splitter struct {
	src  io.ReaderAt
	size int64
	buf  []byte
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
			if s.startsRecord(off + int64(i)) {
				return off + int64(i), true
			}
		}
	}
	return 0, false
}

var gzipMagic = []byte{0x1f, 0x8b, 0x08}

// startsRecord reports whether a gzip member starts at off and inflates to
// a WARC version line.
func (s *splitter) startsRecord(off int64) bool {
	sr := io.NewSectionReader(s.src, off, s.size-off)
	if s.br == nil {
		s.br = bufio.NewReaderSize(sr, 4<<10)
	} else {
		s.br.Reset(sr)
	}
	if err := s.zr.Reset(s.br); err != nil {
		return false
	}
	s.zr.Multistream(false)
	var line [16]byte
	n, _ := io.ReadFull(&s.zr, line[:])
	return isVersionLine(line[:n])
}

// isVersionLine reports whether b starts with a WARC 1.x version line:
// "WARC/1.", one to three digits, then CRLF or LF.
func isVersionLine(b []byte) bool {
	const start = "WARC/1."
	if !bytes.HasPrefix(b, []byte(start)) {
		return false
	}
	i := len(start)
	for i < len(b) && i < len(start)+3 && '0' <= b[i] && b[i] <= '9' {
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
