package archive

import (
	"encoding/binary"
	"io"

	"github.com/charsniff/charsniff/internal/zstdframe"
)

// A frameWalker walks the frames of a zstd file by their headers alone
// (RFC 8878: each frame header gives where its blocks start, each block
// header the block's size), so it knows exactly where each frame starts
// without decompressing any: a cut at a frame it reaches is never inside
// another frame, stored blocks included, unlike a search for the magic
// number.
type frameWalker struct {
	src  io.ReaderAt
	size int64
	off  int64  // the start of the frame it is at
	buf  []byte // the bytes of src from boff, read ahead
	boff int64
}

// bytesAt returns n bytes of src at off, or fewer at its end or a read
// error.
func (w *frameWalker) bytesAt(off int64, n int) []byte {
	const chunk = 64 << 10
	if off < w.boff || off+int64(n) > w.boff+int64(len(w.buf)) {
		if cap(w.buf) < chunk {
			w.buf = make([]byte, chunk)
		}
		k, _ := w.src.ReadAt(w.buf[:min(chunk, int(max(0, w.size-off)))], off)
		w.buf, w.boff = w.buf[:k], off
	}
	b := w.buf[off-w.boff:]
	return b[:min(n, len(b))]
}

// zstdFrame reports whether a zstd frame (not a skippable one) starts at
// off.
func (w *frameWalker) zstdFrame(off int64) bool {
	b := w.bytesAt(off, 4)
	return len(b) == 4 && binary.LittleEndian.Uint32(b) == 0xFD2FB528
}

// skip moves w past the frame it is at, zstd or skippable. It reports
// false at the end of src, and for bytes that are no frame (damage, or
// not zstd after all): the frames after them cannot be told.
func (w *frameWalker) skip() bool {
	b := w.bytesAt(w.off, 8)
	if len(b) < 8 {
		return false
	}
	magic := binary.LittleEndian.Uint32(b)
	if magic&0xFFFFFFF0 == 0x184D2A50 { // skippable
		w.off += 8 + int64(binary.LittleEndian.Uint32(b[4:]))
		return w.off <= w.size
	}
	if magic != 0xFD2FB528 {
		return false
	}
	n, sum, ok := zstdframe.Header(b[4])
	if !ok {
		return false
	}
	at := w.off + int64(n)
	for {
		h := w.bytesAt(at, 3)
		if len(h) < 3 {
			return false
		}
		size, last, ok := zstdframe.Block([3]byte(h))
		if !ok {
			return false
		}
		at += 3 + size
		if last {
			break
		}
	}
	if sum {
		at += 4 // Content_Checksum
	}
	w.off = at
	return at <= w.size
}

// nextZstd is cutter.next for a zstd file: the first zstd frame at or
// after where the next cut would be made, found by walking the frames from
// the file's start.
func (c *cutter) nextZstd() (int64, bool) {
	w := c.z
	for !c.done && c.t+c.partSize/2 < c.s.size {
		if w.off >= c.t && w.zstdFrame(w.off) {
			off := w.off
			if c.s.size-off < c.partSize/2 {
				break // the last part would be small: leave it to the one before
			}
			c.t = off + c.partSize
			return off, true
		}
		if !w.skip() {
			break
		}
	}
	c.done = true
	return 0, false
}
