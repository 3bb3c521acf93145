package warc

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"reflect"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// A Container is how the bytes of an input are stored. The Reader tells it
// from the input's first bytes, never from a file name.
type Container uint8

// The containers. Plain, Gzip, Zstd and LZ4 are read; the others are
// recognized so that they are refused with [ErrUnsupportedContainer].
const (
	Plain     Container = iota // uncompressed
	Gzip                       // gzip members: one per record, or any other split
	Zstd                       // zstd frames, optionally after a dictionary frame (.warc.zst)
	LZ4                        // LZ4 frames (as FastWARC writes them)
	Bzip2                      // unsupported
	XZ                         // unsupported
	LZ4Legacy                  // LZ4's legacy frame format; unsupported
)

var containerNames = [...]string{"plain", "gzip", "zstd", "lz4", "bzip2", "xz", "lz4-legacy"}

// String returns the container's name: "plain", "gzip", "zstd", "lz4",
// "bzip2", "xz" or "lz4-legacy".
func (c Container) String() string {
	if int(c) < len(containerNames) {
		return containerNames[c]
	}
	return fmt.Sprintf("Container(%d)", c)
}

// Supported reports whether the Reader reads the container.
func (c Container) Supported() bool { return c <= LZ4 }

// framed reports whether c stores its bytes in separately decodable parts
// (gzip members, zstd or LZ4 frames), each of which the Reader opens and
// can seek back to.
func (c Container) framed() bool { return c == Gzip || c == Zstd || c == LZ4 }

// Magic numbers, as they appear at the start of a member or frame.
var (
	zstdMagic     = []byte{0x28, 0xb5, 0x2f, 0xfd}
	lz4Magic      = []byte{0x04, 0x22, 0x4d, 0x18}
	lz4LegacyMag  = []byte{0x02, 0x21, 0x4c, 0x18}
	xzMagic       = []byte{0xfd, '7', 'z', 'X', 'Z', 0}
	dictFrameMag  = []byte{0x5d, 0x2a, 0x4d, 0x18} // the .warc.zst dictionary frame
	zstdDictMagic = []byte{0x37, 0xa4, 0x30, 0xec} // a zstd dictionary, uncompressed
)

// isSkippable reports whether b starts with the magic number of a
// skippable frame (0x184D2A50 to 0x184D2A5F, little-endian), which zstd
// and LZ4 share.
func isSkippable(b []byte) bool {
	return len(b) >= 4 && b[0]&0xf0 == 0x50 && b[1] == 0x2a && b[2] == 0x4d && b[3] == 0x18
}

// containerOf tells the container from the first bytes of an input.
func containerOf(b []byte) Container {
	switch {
	case len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b:
		return Gzip
	case bytes.HasPrefix(b, zstdMagic), bytes.HasPrefix(b, dictFrameMag):
		return Zstd
	case bytes.HasPrefix(b, lz4Magic):
		return LZ4
	case bytes.HasPrefix(b, lz4LegacyMag):
		return LZ4Legacy
	case bytes.HasPrefix(b, xzMagic):
		return XZ
	case len(b) >= 10 && string(b[:3]) == "BZh" && '1' <= b[3] && b[3] <= '9' &&
		string(b[4:10]) == "\x31\x41\x59\x26\x53\x59":
		return Bzip2
	}
	return Plain
}

// containerError returns the final error for input in container c.
func containerError(c Container) error {
	return fmt.Errorf("%w: %s", ErrUnsupportedContainer, c)
}

// maxZstdWindow bounds the window of a zstd frame, and maxDict the size
// of a .warc.zst dictionary, compressed or not: the limits the
// warc-zstd specification requires decoders to support (8 MiB). A frame
// with a larger window is a corrupt frame; a larger dictionary a final
// error.
const (
	maxZstdWindow = 8 << 20
	maxDict       = 8 << 20
)

// container is the Reader's container part: the input as stored, its
// decompression, and the gzip member or zstd or LZ4 frame being read.
// What is said of a member holds of a frame.
type container struct {
	// in is the input as stored: compressed bytes for compressed input.
	// Its offsets are input offsets, counted from where the input was
	// when the Reader got it.
	in *window
	// s is the record stream: in itself for plain input (s == in, which
	// is what compressed reports); otherwise a window of its own over the
	// decompressed bytes, whose source is the current member's
	// decompressor, so that its io.EOF marks the end of the member and
	// what it holds of earlier members stays (a record may span them).
	s *window
	// started is set by the first call to Next, which then tells c from
	// the input's first bytes (start); c does not change until Reset.
	started bool
	c       Container
	// member is the input offset of the current member (after any
	// skippable frames before it), and memberU the record-stream offset
	// of its first byte. Both stay 0 in plain input.
	member, memberU int64
	// used is set once a record has started or ended in the current
	// member: a record that starts in it then is not the first (see
	// Record.StoredLength). openMember clears it.
	used bool
	// gz decompresses gzip input, reading in through zin (by slices
	// rather than byte by byte; zin may hold bytes read ahead of the
	// member's end, which takeIn hands back). zd and lz decompress zstd
	// and LZ4 frames, which fr cuts from in. Each is nil until an input of
	// its container comes, and Reset keeps them.
	gz  *gzip.Reader
	zin *bufio.Reader
	zd  *zstd.Decoder
	lz  *lz4.Reader
	fr  frameReader
	// spare is a record-stream window that Reset kept from a compressed
	// input, for the next one; nil once start has put it to use as s.
	spare *window
	// dict is the zstd dictionary zd holds (nil for none), so that the
	// next input with the same one does not make zd parse it again, and
	// dictFile the file whose dictionary frame it came from when it came
	// by outerDict, so that the next byte range of that file does not
	// read and inflate its dictionary frame again.
	dict     []byte
	dictFile io.ReaderAt
}

// startDecoder makes the decompressor of z.c ready for a new input, and
// reads the dictionary frame a .warc.zst file may start with.
func (z *container) startDecoder() error {
	switch z.c {
	case Gzip:
		if z.gz == nil {
			z.gz = new(gzip.Reader)
			z.zin = bufio.NewReaderSize(z.in, zinSize)
		}
		z.zin.Reset(z.in)
	case Zstd:
		if z.zd == nil {
			zd, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow))
			if err != nil {
				return err
			}
			z.zd = zd
		}
		var dict []byte
		if b, _ := z.in.peek(4); bytes.HasPrefix(b, dictFrameMag) {
			var err error
			if dict, err = z.readDict(); err != nil {
				return err
			}
		} else if sr, ok := z.in.rd.(*io.SectionReader); ok {
			// A byte range of a .warc.zst file: its frames need the
			// dictionary at the file's start, the one of the last
			// range if it was of the same file.
			if outer, off, _ := sr.Outer(); off != 0 && z.dictFile != nil && sameFile(outer, z.dictFile) {
				dict = z.dict
			} else {
				var err error
				if dict, err = outerDict(sr); err != nil {
					return err
				}
				z.dictFile = nil
				if dict != nil {
					z.dictFile = outer
				}
			}
		}
		if dict == nil && z.dict == nil || dict != nil && bytes.Equal(dict, z.dict) {
			// zd holds this dictionary (or none) already.
			return z.zd.Reset(nil)
		}
		opts := []zstd.DOption{zstd.WithDecoderDictDelete()}
		if dict != nil {
			opts = append(opts, zstd.WithDecoderDicts(dict))
		}
		z.dict = nil
		if err := z.zd.ResetWithOptions(nil, opts...); err != nil {
			return fmt.Errorf("%w: dictionary frame: %w", ErrZstd, err)
		}
		z.dict = dict
	case LZ4:
		if z.lz == nil {
			z.lz = lz4.NewReader(nil)
		}
	}
	return nil
}

// readDict reads the dictionary frame at the start of a .warc.zst file
// and returns the dictionary, decompressed if it was compressed. A frame
// or dictionary larger than maxDict, or one cut short, is a final error.
func (z *container) readDict() ([]byte, error) {
	bad := func(format string, a ...any) ([]byte, error) {
		return nil, fmt.Errorf("%w: dictionary frame: %s", ErrZstd, fmt.Sprintf(format, a...))
	}
	b, err := z.in.peek(8)
	if len(b) < 8 {
		if ferr := z.final(); ferr != nil {
			return nil, ferr
		}
		return bad("cut short (%v)", err)
	}
	n := int64(binary.LittleEndian.Uint32(b[4:]))
	if n > maxDict {
		return bad("%d bytes, more than %d", n, maxDict)
	}
	z.in.discard(8)
	raw := make([]byte, 0, n)
	for int64(len(raw)) < n {
		buf := z.in.buffered()
		if len(buf) == 0 {
			if err := z.in.fill(); err != nil {
				if ferr := z.final(); ferr != nil {
					return nil, ferr
				}
				return bad("cut short at %d of %d bytes", len(raw), n)
			}
			continue
		}
		k := int(min(int64(len(buf)), n-int64(len(raw))))
		raw = append(raw, buf[:k]...)
		z.in.discard(k)
	}
	return loadDict(raw)
}

// sameFile reports whether a and b are the same io.ReaderAt: the same
// pointer, or equal values of a comparable type.
func sameFile(a, b io.ReaderAt) bool {
	ta := reflect.TypeOf(a)
	return ta == reflect.TypeOf(b) && ta.Comparable() && a == b
}

// outerDict returns the dictionary of the .warc.zst file that sr is a byte
// range of, or nil if sr starts the file or the file has no dictionary
// frame. A dictionary frame that cannot be read is a final error.
func outerDict(sr *io.SectionReader) ([]byte, error) {
	outer, off, _ := sr.Outer()
	var b [8]byte
	if off == 0 {
		return nil, nil
	}
	if n, _ := outer.ReadAt(b[:], 0); n < 8 || !bytes.HasPrefix(b[:], dictFrameMag) {
		return nil, nil
	}
	n := int64(binary.LittleEndian.Uint32(b[4:]))
	if n > maxDict {
		return nil, fmt.Errorf("%w: dictionary frame of the file: %d bytes, more than %d", ErrZstd, n, maxDict)
	}
	raw := make([]byte, n)
	if k, err := outer.ReadAt(raw, 8); int64(k) < n {
		return nil, fmt.Errorf("%w: dictionary frame of the file: %v", ErrZstd, err)
	}
	return loadDict(raw)
}

// loadDict returns the dictionary a dictionary frame holds: raw, or raw
// decompressed if it is a zstd frame.
func loadDict(dict []byte) ([]byte, error) {
	bad := func(format string, a ...any) ([]byte, error) {
		return nil, fmt.Errorf("%w: dictionary frame: %s", ErrZstd, fmt.Sprintf(format, a...))
	}
	if bytes.HasPrefix(dict, zstdMagic) {
		zd, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxDict), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil, err
		}
		defer zd.Close()
		if dict, err = zd.DecodeAll(dict, nil); err != nil {
			return bad("%v", err)
		}
	}
	if !bytes.HasPrefix(dict, zstdDictMagic) {
		return bad("not a zstd dictionary")
	}
	return dict, nil
}

// openDecoder starts decompressing the gzip member or the zstd or LZ4
// frame at the current input position, skipping skippable frames (zstd and
// LZ4 extension frames) before it. It returns io.EOF at the end of the
// input.
func (z *container) openDecoder() (io.Reader, error) {
	if z.c == Gzip {
		err := z.gz.Reset(z.zin)
		z.gz.Multistream(false)
		return z.gz, err
	}
	for {
		b, err := z.in.peek(8)
		if len(b) == 0 {
			return nil, err
		}
		if !isSkippable(b) {
			break
		}
		if len(b) < 8 {
			return nil, errBadFrame
		}
		if err := z.skipIn(8 + int64(binary.LittleEndian.Uint32(b[4:]))); err != nil {
			return nil, err
		}
		z.member = z.in.pos()
		z.in.mark()
	}
	b, _ := z.in.peek(4)
	z.fr.reset(z.in, z.c)
	if z.c == LZ4 {
		if !bytes.HasPrefix(b, lz4Magic) {
			return nil, errBadFrame
		}
		z.lz.Reset(&z.fr)
		return z.lz, nil
	}
	if !bytes.HasPrefix(b, zstdMagic) {
		return nil, errBadFrame
	}
	return z.zd, z.zd.Reset(&z.fr)
}

// skipIn skips n bytes of the input; io.ErrUnexpectedEOF if it ends first.
func (z *container) skipIn(n int64) error {
	for n > 0 {
		b := z.in.buffered()
		if len(b) == 0 {
			if err := z.in.fill(); err != nil {
				if err == io.EOF {
					return io.ErrUnexpectedEOF
				}
				return err
			}
			continue
		}
		k := int(min(int64(len(b)), n))
		z.in.discard(k)
		n -= int64(k)
	}
	return nil
}

// corrupt returns the error that a corrupt member or frame of the input's
// container wraps.
func (z *container) corrupt() error {
	switch z.c {
	case Zstd:
		return ErrZstd
	case LZ4:
		return ErrLZ4
	}
	return ErrGzip
}

// indexMember returns the index of the first member or frame header of
// the input's container in b, or -1.
func (z *container) indexMember(b []byte) int {
	switch z.c {
	case Zstd:
		return bytes.Index(b, zstdMagic)
	case LZ4:
		return bytes.Index(b, lz4Magic)
	}
	return indexGzipHeader(b)
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
func (z *container) takeIn() {
	if z.c != Gzip {
		return
	}
	if n := z.zin.Buffered(); n > 0 {
		z.in.rewind(z.in.pos() - int64(n))
	}
	z.zin.Reset(z.in)
}

// compressed reports whether the input is compressed (gzip, zstd or LZ4):
// read member by member, or frame by frame.
func (z *container) compressed() bool { return z.s != z.in }

// final returns the underlying reader's error, if it failed.
func (z *container) final() error {
	if err := z.in.err; err != nil && err != io.EOF {
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

// memberEnd returns the input offset just past the current gzip member or
// frame, which the decompressor has read to its end.
func (z *container) memberEnd() int64 {
	if z.c == Gzip {
		return z.in.pos() - int64(z.zin.Buffered())
	}
	return z.in.pos()
}
