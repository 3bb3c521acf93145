package warc

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// IsWARC reports whether prefix, the first bytes of an input, is the start
// of an archive this package reads, a WARC file or an ARC file: [Detect]
// finds a format in it and no error. For compressed input it needs enough bytes to decompress
// the first version line; [SniffLen] bytes suffice in practice. A
// compressed file of something else, such as a .html.gz, is not WARC.
func IsWARC(prefix []byte) bool {
	k, err := Detect(prefix)
	return err == nil && k.Format != ""
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
