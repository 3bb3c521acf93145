// Package contentcoding undoes the content codings of an HTTP body (the
// Content-Encoding header, RFC 9110 section 8.4): gzip, deflate, br, zstd
// and identity, stacked in any order, with the decompressed size bounded.
//
// The decoders are Go's compress/gzip, compress/zlib and compress/flate,
// github.com/andybalholm/brotli (the maintained pure-Go brotli decoder)
// and github.com/klauspost/compress/zstd (the de-facto pure-Go zstd).
package contentcoding

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"

	"github.com/charsniff/charsniff/internal/firsterr"
)

// Default limits on the decompressed size; see [Limits].
const (
	// DefaultMaxSize is the default cap on the decompressed size of a
	// body, 256 MiB: far above any real HTML page (the largest pages
	// crawlers keep are tens of megabytes), far below a machine's memory.
	DefaultMaxSize = 256 << 20
	// DefaultMaxRatio is the default bound on the expansion: the
	// decompressed size may not pass DefaultMaxRatio times the compressed
	// bytes read so far, plus [RatioAllowance]. Real HTML compresses 4 to
	// 20 times; a deflate bomb expands about 1000 times, a brotli or zstd
	// bomb millions of times.
	DefaultMaxRatio = 100
	// RatioAllowance is the decompressed size allowed before the ratio
	// bound applies, 1 MiB, so that small, very repetitive pages pass.
	RatioAllowance = 1 << 20
)

// MaxCodings is the largest number of codings (identity aside) a body may
// carry. Real servers send one; each costs a decoder and its window.
const MaxCodings = 4

// ZstdMaxWindow is the largest zstd window accepted, 8 MiB, the bound
// RFC 9659 sets for zstd as an HTTP content coding. It bounds the zstd
// decoder's memory.
const ZstdMaxWindow = 8 << 20

// ErrTooLarge is returned by Read when the decompressed body passes a
// limit of [Limits].
var ErrTooLarge = errors.New("decompressed body too large")

// ErrUnsupported is wrapped by the error NewReader returns for a coding it
// does not know.
var ErrUnsupported = errors.New("unsupported")

// Limits bound the decompressed size of a body. The zero value means the
// defaults.
type Limits struct {
	// MaxSize caps the decompressed size: 0 means DefaultMaxSize, a
	// negative value no cap.
	MaxSize int64
	// MaxRatio bounds the expansion: after n compressed bytes have been
	// read, at most RatioAllowance + MaxRatio*n decompressed bytes may be.
	// 0 means DefaultMaxRatio, a negative value no bound.
	MaxRatio int64
}

// CodingError reports a content coding that failed: unknown, or corrupt.
type CodingError struct {
	Coding string // the coding as in the header, e.g. "gzip"
	Err    error  // ErrUnsupported, or the decoder's error
}

// Error returns a message such as `content-encoding "foo": unsupported`.
func (e *CodingError) Error() string {
	return "content-encoding " + strconv.Quote(e.Coding) + ": " + e.Err.Error()
}

// Unwrap returns e.Err.
func (e *CodingError) Unwrap() error { return e.Err }

// Parse splits Content-Encoding header values into the list of codings in
// the order they were applied, lower-cased, identity and empty elements
// left out.
func Parse(values []string) []string {
	var codings []string
	for _, v := range values {
		for c := range strings.SplitSeq(v, ",") {
			c = strings.ToLower(strings.Trim(c, " \t"))
			if c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
	return codings
}

// A Reader reads the decompressed body.
type Reader struct {
	src    *firsterr.Reader // the body as received: its bytes, its first error
	body   io.Closer        // the body, closed by Close
	top    io.Reader        // the last decoder, after the bytes prime read ahead
	layers []layer          // decoders, innermost (the first applied) last
	limits Limits
	n      int64 // decompressed bytes returned
	err    error // sticky ErrTooLarge
	closed bool
}

// layer is one decoder and what to close when done.
type layer struct {
	coding string
	close  func() error
}

// NewReader returns a reader of body with the codings (as [Parse] returns
// them, in the order they were applied) undone, the last applied first.
//
// It decodes until the first decompressed byte (or the end of an empty
// body) before it returns, so that a body corrupt at its start fails here,
// whatever the coding: a [*CodingError] naming the coding that failed
// before giving a byte. A body that goes bad later fails in Read, after
// the bytes before the damage. An unknown coding gives a [*CodingError]
// wrapping ErrUnsupported, before anything is read; more than MaxCodings
// gives an error too. Errors of the body itself (not of a coding) are
// left to Read. Closing the Reader closes the decoders and body, once; on
// an error NewReader closes nothing.
func NewReader(body io.ReadCloser, codings []string, limits Limits) (*Reader, error) {
	if len(codings) > MaxCodings {
		return nil, fmt.Errorf("content-encoding: %d codings, more than %d", len(codings), MaxCodings)
	}
	if limits.MaxSize == 0 {
		limits.MaxSize = DefaultMaxSize
	}
	if limits.MaxRatio == 0 {
		limits.MaxRatio = DefaultMaxRatio
	}
	// Check every name before reading anything.
	for _, c := range codings {
		if !known(c) {
			return nil, &CodingError{c, ErrUnsupported}
		}
	}
	r := &Reader{src: &firsterr.Reader{R: body}, body: body, limits: limits}
	r.top = r.src
	for i := len(codings) - 1; i >= 0; i-- {
		c := codings[i]
		in := &firsterr.Reader{R: r.top}
		dec, closeFn, err := open(c, in)
		if err != nil && empty(in, err) {
			dec, closeFn, err = eof{}, nil, nil
		}
		if err != nil {
			r.closeLayers()
			var ce *CodingError
			if !errors.As(err, &ce) { // else a coding below failed
				err = &CodingError{c, err}
			}
			return nil, err
		}
		r.layers = append(r.layers, layer{c, closeFn})
		r.top = &codingReader{r: dec, in: in, src: r.src, coding: c}
	}
	if err := r.prime(); err != nil {
		r.closeLayers()
		return nil, err
	}
	return r, nil
}

// primeSize is the most decompressed bytes NewReader reads ahead.
const primeSize = 512

// maxEmptyReads is how many reads without bytes or error prime accepts
// from the decoders before it gives up with io.ErrNoProgress.
const maxEmptyReads = 100

// prime reads the first decompressed bytes, which r.top then returns
// first. It returns the error of a coding that fails before its first
// byte; any other error waits for Read, after the bytes.
func (r *Reader) prime() error {
	buf := make([]byte, primeSize)
	for range maxEmptyReads {
		n, err := r.top.Read(buf)
		var ce *CodingError
		if n == 0 && errors.As(err, &ce) {
			return err
		}
		if n > 0 || err != nil {
			r.top = after(buf[:n], err, r.top)
			return nil
		}
	}
	r.top = errorReader{io.ErrNoProgress}
	return nil
}

// after returns a reader of head, read ahead with err, then: nothing more
// if err is io.EOF, err from then on if it is another error, else rest.
func after(head []byte, err error, rest io.Reader) io.Reader {
	switch {
	case err == io.EOF:
		rest = eof{}
	case err != nil:
		rest = errorReader{err}
	}
	return io.MultiReader(bytes.NewReader(head), rest)
}

// known reports whether NewReader can undo coding c.
func known(c string) bool {
	switch c {
	case "gzip", "x-gzip", "deflate", "br", "zstd":
		return true
	}
	return false
}

// open returns a decoder of coding c over in.
func open(c string, in io.Reader) (io.Reader, func() error, error) {
	switch c {
	case "gzip", "x-gzip":
		z, err := gzip.NewReader(in)
		if err != nil {
			return nil, nil, err
		}
		return z, z.Close, nil
	case "deflate":
		// Browsers accept both zlib (RFC 1950, what the standard says)
		// and raw deflate (RFC 1951, what some servers send).
		b := bufio.NewReader(in)
		head, _ := b.Peek(2)
		if isZlib(head) {
			z, err := zlib.NewReader(b)
			if err != nil {
				return nil, nil, err
			}
			return z, z.Close, nil
		}
		f := flate.NewReader(b)
		return f, f.Close, nil
	case "br":
		return brotli.NewReader(in), nil, nil
	case "zstd":
		z, err := zstd.NewReader(in,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(ZstdMaxWindow),
			zstd.WithDecoderMaxMemory(ZstdMaxWindow))
		if err != nil {
			return nil, nil, err
		}
		return z, func() error { z.Close(); return nil }, nil
	}
	return nil, nil, ErrUnsupported
}

// isZlib reports whether head starts a zlib stream: compression method 8
// with a window of at most 32 KB, and the header check bits right.
func isZlib(head []byte) bool {
	return len(head) == 2 && head[0]&0x0F == 8 && head[0]>>4 <= 7 &&
		(uint(head[0])<<8|uint(head[1]))%31 == 0
}

// Read reads decompressed bytes. Past a limit it returns ErrTooLarge
// (wrapped, with the sizes), from then on.
func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.top.Read(p)
	r.n += int64(n)
	if l := r.limits.MaxSize; l > 0 && r.n > l {
		r.err = fmt.Errorf("%w: more than %d bytes", ErrTooLarge, l)
		return 0, r.err
	}
	if l := r.limits.MaxRatio; l > 0 && r.n > RatioAllowance && (r.n-RatioAllowance)/l > r.src.N {
		r.err = fmt.Errorf("%w: %d bytes from %d compressed, more than %d times", ErrTooLarge, r.n, r.src.N, l)
		return 0, r.err
	}
	return n, err
}

// Close closes the decoders and then the body, once; later calls return
// nil. The error is the body's, else the first decoder's.
func (r *Reader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	err := r.closeLayers()
	if cerr := r.body.Close(); cerr != nil {
		err = cerr
	}
	return err
}

// closeLayers closes the decoders, outermost first.
func (r *Reader) closeLayers() error {
	var first error
	for i := len(r.layers) - 1; i >= 0; i-- {
		if c := r.layers[i].close; c != nil {
			if err := c(); err != nil && first == nil {
				first = &CodingError{r.layers[i].coding, err}
			}
		}
	}
	r.layers = nil
	return first
}

// codingReader names the coding in the errors of r, except io.EOF and the
// body's own errors (the first one src met: a failing network, not a
// corrupt coding), which pass through as they are.
// An empty input reads as an empty body, not as a truncated stream, as
// net/http and browsers take a zero-length body with a Content-Encoding.
type codingReader struct {
	r      io.Reader
	in     *firsterr.Reader // what r decodes
	src    *firsterr.Reader // the body
	coding string
}

func (e *codingReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && (e.src.Err == nil || !errors.Is(err, e.src.Err)) {
		if empty(e.in, err) {
			return n, io.EOF
		}
		var ce *CodingError
		if !errors.As(err, &ce) {
			err = &CodingError{e.coding, err}
		}
	}
	return n, err
}

// empty reports whether err is a decoder's complaint about its input, in,
// that ended before its first byte.
func empty(in *firsterr.Reader, err error) bool {
	return in.N == 0 && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF))
}

// eof is an empty body.
type eof struct{}

func (eof) Read([]byte) (int, error) { return 0, io.EOF }

// errorReader returns its error, always.
type errorReader struct{ err error }

func (e errorReader) Read([]byte) (int, error) { return 0, e.err }

// Sniff returns the coding that a file starting with prefix is compressed
// with, as its magic number tells: "gzip" (1F 8B) or "zstd" (28 B5 2F FD,
// a zstd frame), else "". A brotli stream has no magic number and cannot
// be told from text by its bytes, so Sniff never says "br": only a name
// (".br") or a header can. Raw deflate and zlib are not recognised either
// (zlib's two header bytes are too easily text). Four bytes are enough.
func Sniff(prefix []byte) string {
	switch {
	case len(prefix) >= 2 && prefix[0] == 0x1F && prefix[1] == 0x8B:
		return "gzip"
	case len(prefix) >= 4 && prefix[0] == 0x28 && prefix[1] == 0xB5 && prefix[2] == 0x2F && prefix[3] == 0xFD:
		return "zstd"
	}
	return ""
}
