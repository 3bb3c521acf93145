package warc

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"github.com/charsniff/charsniff/internal/zstdframe"
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

// A Kind is what [Detect] finds in the first bytes of an input.
type Kind struct {
	// Container is how the input is stored.
	Container Container
	// Format is the archive inside: "WARC/1.0", "WARC/1.1", "WARC/0.18" (a
	// version line as written, without its line ending), "WARC" (a
	// .warc.zst file whose dictionary hides the first record, or a zstd or
	// LZ4 frame whose first block the prefix does not hold), "ARC" (an
	// ARC version 1 header line: an ARC file), or "" if
	// the input is not an archive this package reads, or Detect cannot
	// tell.
	Format string
}

// SniffLen is how many leading bytes of an input [Detect] and [IsWARC]
// need to recognize a compressed WARC file in practice: enough for the
// first zstd or LZ4 block of a file compressed as a whole. A gzip file
// needs far fewer (512 bytes suffice for the files archivers write).
const SniffLen = 64 << 10

// Detect tells what prefix, the first bytes of an input, is: its
// container, by magic number, and the archive format inside, by the first
// version line (decompressed if need be). It reads the input as
// [Reader] does, so that a Kind with a Format is read as an archive, and
// a Kind without one is not an archive (an HTML file, a .html.gz) or too
// short a prefix to tell.
//
// The error is non-nil for what the Reader refuses as a whole: a
// container it does not read ([ErrUnsupportedContainer]: bzip2, xz, LZ4
// legacy frames, which may or may not hold an archive) or a WARC version
// line of another version ([ErrUnsupportedVersion], such as "WARC/2.0").
// Both say what was found.
func Detect(prefix []byte) (Kind, error) {
	k := Kind{Container: containerOf(prefix)}
	if !k.Container.Supported() {
		return k, containerError(k.Container)
	}
	if k.Container == Zstd && bytes.HasPrefix(prefix, dictFrameMag) {
		// Only .warc.zst files start with a dictionary frame; the first
		// record lies behind a dictionary of up to 8 MiB.
		k.Format = "WARC"
		return k, nil
	}
	head := prefix
	if k.Container != Plain {
		head = inflateHead(k.Container, prefix)
		if len(head) == 0 && k.Container != Gzip {
			// A zstd or LZ4 frame whose first block is longer than the
			// prefix: an archive frame of a large record, most likely
			// (a compressed HTML file's first block is not that large).
			k.Format = "WARC"
			return k, nil
		}
	}
	v, ok := firstVersion(head)
	if !ok {
		if arcLine(head) == lineYes {
			k.Format = "ARC"
		}
		return k, nil
	}
	if versionLine(head) != lineYes {
		return k, fmt.Errorf("%w %s", ErrUnsupportedVersion, strings.TrimPrefix(v, versionPrefix))
	}
	k.Format = v
	return k, nil
}

// firstVersion returns the version line (without line ending) if b starts
// with "WARC/" and a whole line of at most 16 bytes.
func firstVersion(b []byte) (string, bool) {
	if !bytes.HasPrefix(b, []byte(versionPrefix)) {
		return "", false
	}
	i := bytes.IndexByte(b[:min(len(b), 17)], '\n')
	if i < 0 {
		return "", false
	}
	return string(bytes.TrimRight(b[:i], "\r")), true
}

// inflateHead returns the first bytes (up to 1 KiB) that the compressed
// prefix of an input in container c decompresses to, as far as prefix
// reaches.
func inflateHead(c Container, prefix []byte) []byte {
	var zr io.Reader
	switch c {
	case Gzip:
		z, err := gzip.NewReader(bytes.NewReader(prefix))
		if err != nil {
			return nil
		}
		zr = z
	case Zstd:
		z, err := zstd.NewReader(readOnly{bytes.NewReader(prefix)}, zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxWindow(maxZstdWindow), zstd.WithDecoderLowmem(true))
		if err != nil {
			return nil
		}
		defer z.Close()
		zr = z
	case LZ4:
		zr = lz4.NewReader(bytes.NewReader(prefix))
	}
	var b [1024]byte // a version line, or an ARC header line
	n, _ := io.ReadFull(zr, b[:])
	return b[:n]
}

// readOnly hides every method of a reader but Read (a zstd.Decoder
// decodes a reader with Len all at once, and fails on a cut frame).
type readOnly struct{ r io.Reader }

func (o readOnly) Read(p []byte) (int, error) { return o.r.Read(p) }

// maxZstdWindow bounds the window of a zstd frame, and maxDict the size
// of a .warc.zst dictionary, compressed or not: the limits the
// warc-zstd specification requires decoders to support (8 MiB). A frame
// with a larger window is a corrupt frame; a larger dictionary a final
// error.
const (
	maxZstdWindow = 8 << 20
	maxDict       = 8 << 20
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

// startDecoder makes the decompressor of r.c ready for a new input, and
// reads the dictionary frame a .warc.zst file may start with.
func (r *Reader) startDecoder() error {
	switch r.c {
	case Gzip:
		if r.gz == nil {
			r.gz = new(gzip.Reader)
			r.zin = bufio.NewReaderSize(r.in, zinSize)
		}
		r.zin.Reset(r.in)
	case Zstd:
		if r.zd == nil {
			zd, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow))
			if err != nil {
				return err
			}
			r.zd = zd
		}
		var dict []byte
		if b, _ := r.in.peek(4); bytes.HasPrefix(b, dictFrameMag) {
			var err error
			if dict, err = r.readDict(); err != nil {
				return err
			}
		} else if sr, ok := r.in.rd.(*io.SectionReader); ok {
			// A byte range of a .warc.zst file: its frames need the
			// dictionary at the file's start.
			var err error
			if dict, err = outerDict(sr); err != nil {
				return err
			}
		}
		opts := []zstd.DOption{zstd.WithDecoderDictDelete()}
		if dict != nil {
			opts = append(opts, zstd.WithDecoderDicts(dict))
		}
		if err := r.zd.ResetWithOptions(nil, opts...); err != nil {
			return fmt.Errorf("%w: dictionary frame: %w", ErrZstd, err)
		}
	case LZ4:
		if r.lz == nil {
			r.lz = lz4.NewReader(nil)
		}
	}
	return nil
}

// readDict reads the dictionary frame at the start of a .warc.zst file
// and returns the dictionary, decompressed if it was compressed. A frame
// or dictionary larger than maxDict, or one cut short, is a final error.
func (r *Reader) readDict() ([]byte, error) {
	bad := func(format string, a ...any) ([]byte, error) {
		return nil, fmt.Errorf("%w: dictionary frame: %s", ErrZstd, fmt.Sprintf(format, a...))
	}
	b, err := r.in.peek(8)
	if len(b) < 8 {
		if ferr := r.final(); ferr != nil {
			return nil, ferr
		}
		return bad("cut short (%v)", err)
	}
	n := int64(binary.LittleEndian.Uint32(b[4:]))
	if n > maxDict {
		return bad("%d bytes, more than %d", n, maxDict)
	}
	r.in.discard(8)
	raw := make([]byte, 0, n)
	for int64(len(raw)) < n {
		buf := r.in.buffered()
		if len(buf) == 0 {
			if err := r.in.fill(); err != nil {
				if ferr := r.final(); ferr != nil {
					return nil, ferr
				}
				return bad("cut short at %d of %d bytes", len(raw), n)
			}
			continue
		}
		k := int(min(int64(len(buf)), n-int64(len(raw))))
		raw = append(raw, buf[:k]...)
		r.in.discard(k)
	}
	return loadDict(raw)
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
func (r *Reader) openDecoder() (io.Reader, error) {
	if r.c == Gzip {
		err := r.gz.Reset(r.zin)
		r.gz.Multistream(false)
		return r.gz, err
	}
	for {
		b, err := r.in.peek(8)
		if len(b) == 0 {
			return nil, err
		}
		if !isSkippable(b) {
			break
		}
		if len(b) < 8 {
			return nil, errBadFrame
		}
		if err := r.skipIn(8 + int64(binary.LittleEndian.Uint32(b[4:]))); err != nil {
			return nil, err
		}
		r.member = r.in.pos()
		r.in.mark()
	}
	b, _ := r.in.peek(4)
	r.fr.reset(r.in, r.c)
	if r.c == LZ4 {
		if !bytes.HasPrefix(b, lz4Magic) {
			return nil, errBadFrame
		}
		r.lz.Reset(&r.fr)
		return r.lz, nil
	}
	if !bytes.HasPrefix(b, zstdMagic) {
		return nil, errBadFrame
	}
	return r.zd, r.zd.Reset(&r.fr)
}

// skipIn skips n bytes of the input; io.ErrUnexpectedEOF if it ends first.
func (r *Reader) skipIn(n int64) error {
	for n > 0 {
		b := r.in.buffered()
		if len(b) == 0 {
			if err := r.in.fill(); err != nil {
				if err == io.EOF {
					return io.ErrUnexpectedEOF
				}
				return err
			}
			continue
		}
		k := int(min(int64(len(b)), n))
		r.in.discard(k)
		n -= int64(k)
	}
	return nil
}

// corrupt returns the error that a corrupt member or frame of the input's
// container wraps.
func (r *Reader) corrupt() error {
	switch r.c {
	case Zstd:
		return ErrZstd
	case LZ4:
		return ErrLZ4
	}
	return ErrGzip
}

// indexMember returns the index of the first member or frame header of
// the input's container in b, or -1.
func (r *Reader) indexMember(b []byte) int {
	switch r.c {
	case Zstd:
		return bytes.Index(b, zstdMagic)
	case LZ4:
		return bytes.Index(b, lz4Magic)
	}
	return indexGzipHeader(b)
}

// checkVersion returns a final error if the input starts with a version
// line of a version this package does not read ("WARC/2.0"): one error for
// the input, rather than one for each record.
func (r *Reader) checkVersion() error {
	p, _ := r.s.peek(32)
	if v, ok := firstVersion(p); ok && versionLine(p) == lineNo {
		return fmt.Errorf("%w %s", ErrUnsupportedVersion, strings.TrimPrefix(v, versionPrefix))
	}
	return nil
}

// indexVersionLine returns the index of the version line that ends line,
// or -1.
func indexVersionLine(line []byte) int {
	for i := 0; ; i++ {
		j := bytes.Index(line[i:], []byte(versionPrefix))
		if j < 0 {
			return -1
		}
		i += j
		if versionLine(line[i:]) == lineYes {
			return i
		}
	}
}

// isRecordStart reports whether p starts with "WARC/1." or "WARC/0.".
func isRecordStart(p []byte) bool {
	return len(p) >= startLen && string(p[:len(versionPrefix)]) == versionPrefix &&
		(p[5] == '1' || p[5] == '0') && p[6] == '.'
}

// mayStartRecord reports whether p, shorter than startLen bytes, may be
// cut from the start of a record.
func mayStartRecord(p []byte) bool {
	return bytes.HasPrefix([]byte("WARC/1."), p) || bytes.HasPrefix([]byte("WARC/0."), p)
}
