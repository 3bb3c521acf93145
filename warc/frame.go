package warc

import (
	"encoding/binary"
	"errors"
	"io"

	"github.com/charsniff/charsniff/internal/zstdframe"
)

// frameReader hands a decompressor the bytes of one zstd or LZ4 frame from
// the input window, and then io.EOF: it follows the frame's header and
// block headers, so it never reads past the frame's end, and the next
// frame starts where it stops (what gzip's Multistream(false) gives for a
// member). A header it cannot follow is an error (errBadFrame).
type frameReader struct {
	in *window
	c  Container
	// left is how many bytes of the current part (a header, a block and
	// its checksum) remain to be handed on before next.
	left int64
	next frameState
	// sum is set if the frame ends in a content checksum; bsum if each
	// LZ4 block has a checksum. max is the largest block size allowed.
	sum, bsum bool
	max       int64
}

type frameState uint8

const (
	frameHeader frameState = iota
	frameBlock
	frameTrailer
	frameDone
)

var errBadFrame = errors.New("malformed frame or block header")

// reset makes f read the frame that starts at in's position.
func (f *frameReader) reset(in *window, c Container) {
	*f = frameReader{in: in, c: c}
}

// Read implements io.Reader.
func (f *frameReader) Read(p []byte) (int, error) {
	for f.left == 0 {
		if f.next == frameDone {
			return 0, io.EOF
		}
		if err := f.advance(); err != nil {
			return 0, err
		}
	}
	b := f.in.buffered()
	if len(b) == 0 {
		if err := f.in.fill(); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		b = f.in.buffered()
	}
	n := copy(p, b[:min(int64(len(b)), f.left)])
	f.in.discard(n)
	f.left -= int64(n)
	return n, nil
}

// advance reads the header of the next part of the frame (without
// consuming it) and sets left to the part's size.
func (f *frameReader) advance() error {
	switch f.next {
	case frameHeader:
		if f.c == Zstd {
			return f.zstdHeader()
		}
		return f.lz4Header()
	case frameBlock:
		if f.c == Zstd {
			return f.zstdBlock()
		}
		return f.lz4Block()
	default: // frameTrailer
		f.next = frameDone
		if f.sum {
			f.left = 4
		}
		return nil
	}
}

// peek returns n bytes of the input, or an error if it ends first.
func (f *frameReader) peek(n int) ([]byte, error) {
	b, err := f.in.peek(n)
	if len(b) >= n {
		return b, nil
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return nil, err
}

// zstdHeader follows a zstd frame header (RFC 8878, section 3.1.1.1).
func (f *frameReader) zstdHeader() error {
	b, err := f.peek(5)
	if err != nil {
		return err
	}
	n, sum, ok := zstdframe.Header(b[4])
	if !ok {
		return errBadFrame
	}
	f.left, f.sum, f.next = int64(n), sum, frameBlock
	return nil
}

// zstdBlock follows a zstd block header (RFC 8878, section 3.1.1.2).
func (f *frameReader) zstdBlock() error {
	b, err := f.peek(3)
	if err != nil {
		return err
	}
	size, last, ok := zstdframe.Block([3]byte(b[:3]))
	if !ok {
		return errBadFrame
	}
	f.left = 3 + size
	if last {
		f.next = frameTrailer
	}
	return nil
}

// lz4Header follows an LZ4 frame header (LZ4 Frame Format 1.6.x).
func (f *frameReader) lz4Header() error {
	b, err := f.peek(6)
	if err != nil {
		return err
	}
	flg, bd := b[4], b[5]
	if flg>>6 != 1 || flg&0x02 != 0 || bd&0x8f != 0 || bd>>4 < 4 {
		return errBadFrame
	}
	n := 7 // magic, FLG, BD, HC
	if flg&0x08 != 0 {
		n += 8 // Content Size
	}
	if flg&0x01 != 0 {
		n += 4 // Dictionary ID
	}
	f.left, f.next = int64(n), frameBlock
	f.bsum, f.sum = flg&0x10 != 0, flg&0x04 != 0
	f.max = 1 << (8 + 2*int64(bd>>4)) // 64 KiB, 256 KiB, 1 MiB, 4 MiB
	return nil
}

// lz4Block follows an LZ4 block size (or the EndMark).
func (f *frameReader) lz4Block() error {
	b, err := f.peek(4)
	if err != nil {
		return err
	}
	v := int64(binary.LittleEndian.Uint32(b))
	if v == 0 {
		f.left, f.next = 4, frameTrailer
		return nil
	}
	size := v & 0x7fffffff
	if size > f.max {
		return errBadFrame
	}
	f.left = 4 + size
	if f.bsum {
		f.left += 4
	}
	return nil
}
