package warc

import (
	"bytes"
	"io"
)

const (
	// minBuffer is the size a window starts with and the most it asks of its
	// source in one Read.
	minBuffer = 64 << 10
	// maxHold is how much history a window keeps to return to: after mark,
	// at least the last maxHold bytes before the read position (all of them
	// since the mark, if fewer).
	maxHold = 1 << 20
	// maxBuffer bounds a window's buffer: the held history, the unread
	// bytes and room to fill. Twice maxHold makes the history move once per
	// maxHold bytes read, not at every fill.
	maxBuffer = 2 * maxHold
	// maxEmptyReads is how many (0, nil) reads in a row a window accepts
	// before it reports io.ErrNoProgress, as bufio does.
	maxEmptyReads = 100
)

// window is a buffered reader over one stream that can go back to bytes it
// has already handed out, as long as it still holds them.
//
// After mark, the window holds the bytes from the mark on, but never more
// than the last maxHold of them: its buffer grows up to maxBuffer, and then
// the held history slides forward with the read position, so memory stays
// bounded however long the stream. Whether an offset can be returned to is
// a function of offsets alone (see held), not of how the bytes arrived. The
// Reader marks the start of each gzip member (to rescan a corrupt one for
// the next member) and of each record's block (to rescan a block whose
// Content-Length is wrong for the next record); beyond the window, a
// Reader over a seekable input seeks its source back and calls moveTo.
type window struct {
	rd  io.Reader
	buf []byte
	// buf[r:w] holds bytes read from rd and not yet consumed.
	r, w int
	// hold reports whether a mark is in force; if so, buf[keep:r] is the
	// history since the mark.
	hold bool
	keep int
	// off is the stream offset of buf[0].
	off int64
	// err is the error rd returned; it is reported once buf[r:w] is
	// consumed. io.EOF ends the stream (for a gzip member, the member).
	err error
	// line, if hasLine, is the stream offset of the first place where a
	// WARC version line may start in the history dropped since the mark
	// (see makeRoom): a record that a rescan from the mark can no longer
	// find.
	line    int64
	hasLine bool
}

func newWindow(rd io.Reader) *window {
	return &window{rd: rd, buf: make([]byte, minBuffer)}
}

// moveTo empties the window for reading on from stream offset off, where
// its source has been moved. The buffer is kept.
func (w *window) moveTo(off int64) {
	w.r, w.w, w.keep, w.hold, w.off, w.err, w.hasLine = 0, 0, 0, false, off, nil, false
}

// end returns the stream offset after the last byte read from the source.
func (w *window) end() int64 { return w.off + int64(w.w) }

// pos returns the stream offset of the next unread byte.
func (w *window) pos() int64 { return w.off + int64(w.r) }

// buffered returns the unread bytes in the buffer. They stay valid until the
// next call that reads.
func (w *window) buffered() []byte { return w.buf[w.r:w.w] }

// mark starts holding history from the current position on.
func (w *window) mark() { w.hold, w.keep, w.hasLine = true, w.r, false }

// unmark stops holding history.
func (w *window) unmark() { w.hold = false }

// held returns the first stream offset at or after p that rewind is sure
// to reach after a mark at or before p: p itself, or maxHold bytes before
// the read position if p is further back.
func (w *window) held(p int64) int64 { return max(p, w.pos()-maxHold) }

// rewind moves back (or forward, within the buffer) to stream offset p and
// reports whether it could: p must lie between the mark and the end of the
// buffered bytes.
func (w *window) rewind(p int64) bool {
	lo := w.r
	if w.hold {
		lo = w.keep
	}
	if p < w.off+int64(lo) || p > w.off+int64(w.w) {
		return false
	}
	w.r = int(p - w.off)
	return true
}

// fill reads more bytes from rd into the buffer. It returns nil if it added
// at least one byte and otherwise the stream's error (io.EOF at its end).
func (w *window) fill() error {
	if w.err != nil {
		return w.err
	}
	if len(w.buf)-w.w < minBuffer/2 {
		w.makeRoom(minBuffer/2, 0)
		if w.w == len(w.buf) {
			// Unreachable by the Reader's use: it never asks for more
			// while a full buffer of unread bytes is waiting.
			return io.ErrShortBuffer
		}
	}
	for range maxEmptyReads {
		end := min(len(w.buf), w.w+minBuffer)
		n, err := w.rd.Read(w.buf[w.w:end])
		if n < 0 || n > end-w.w {
			n, err = 0, io.ErrNoProgress
		}
		w.w += n
		if err != nil {
			w.err = err
		}
		if n > 0 {
			return nil
		}
		if err != nil {
			return err
		}
	}
	w.err = io.ErrNoProgress
	return w.err
}

// makeRoom makes free bytes after buf[w] and room for n bytes after
// buf[r]: it drops what is neither unread nor held (history beyond maxHold
// included) and grows the buffer up to maxBuffer.
func (w *window) makeRoom(free, n int) {
	for len(w.buf)-w.w < free || len(w.buf)-w.r < n {
		start := w.r
		if w.hold {
			if k := w.r - maxHold; k > w.keep {
				w.noteLine(w.keep, k)
				w.keep = k
			}
			start = w.keep
		}
		if len(w.buf)-(w.w-start) >= free && len(w.buf)-(w.r-start) >= n || len(w.buf) >= maxBuffer {
			w.slide(start, w.buf)
			return
		}
		w.slide(start, make([]byte, min(2*len(w.buf), maxBuffer)))
	}
}

// noteLine sets line to the first place in buf[from:to] where a version
// line may start, unless line is set. The bytes after to that tell are
// in the buffer: to is maxHold before r.
func (w *window) noteLine(from, to int) {
	if w.hasLine {
		return
	}
	if i := indexLine(w.buf[from:w.w], to-from); i >= 0 {
		w.line, w.hasLine = w.off+int64(from+i), true
	}
}

// firstLine returns the first stream offset in [from, to) where a version
// line may start, or -1: in the history dropped since the mark, which must
// be at or before from, or in the buffer. to must not be beyond the end of
// the buffer.
func (w *window) firstLine(from, to int64) int64 {
	if w.hasLine && w.line >= from && w.line < to {
		return w.line
	}
	lo := max(from, w.off+int64(w.keep))
	if lo >= to {
		return -1
	}
	if i := indexLine(w.buf[lo-w.off:w.w], int(to-lo)); i >= 0 {
		return lo + int64(i)
	}
	return -1
}

// indexLine returns the index of the first place before n in b where a
// WARC version line starts, or may start (b ends first), or -1.
func indexLine(b []byte, n int) int {
	for i := 0; i < n; {
		j := bytes.Index(b[i:], []byte(versionPrefix))
		if j < 0 || i+j >= n {
			return -1
		}
		i += j
		if versionLine(b[i:]) != lineNo {
			return i
		}
		i++
	}
	return -1
}

// slide moves buf[start:w] to the front of dst and makes dst the buffer.
func (w *window) slide(start int, dst []byte) {
	copy(dst, w.buf[start:w.w])
	w.buf = dst
	w.off += int64(start)
	w.r -= start
	w.w -= start
	w.keep = max(w.keep-start, 0)
}

// peek returns at least n unread bytes without consuming them, or fewer
// together with the stream's error if it ends first. n must not exceed
// minBuffer. The bytes stay valid until the next call that reads.
func (w *window) peek(n int) ([]byte, error) {
	for w.w-w.r < n {
		if len(w.buf)-w.r < n {
			w.makeRoom(1, n)
		}
		if err := w.fill(); err != nil {
			return w.buf[w.r:w.w], err
		}
	}
	return w.buf[w.r:w.w], nil
}

// discard consumes n buffered bytes; n must not exceed len(w.buffered()).
func (w *window) discard(n int) { w.r += n }

// Read implements io.Reader. The Reader's inflater reads the input window
// through a bufio.Reader (Reader.zin), by slices; the window has no
// ReadByte.
func (w *window) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if w.r == w.w {
		if err := w.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, w.buf[w.r:w.w])
	w.r += n
	return n, nil
}
