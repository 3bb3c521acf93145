// Package decode turns an HTML byte stream into the UTF-8 text an HTML
// parser consumes, as a browser does: it sniffs the encoding with the
// WHATWG HTML Standard's encoding sniffing algorithm (package sniff),
// decodes with the Encoding Standard's decoder for that encoding (package
// codec) and applies the input-stream preprocessing.
//
// A [Reader] reads the first bytes of its source (the window, 1024 bytes by
// default, or less if the source ends first), decides, and then decodes the
// whole stream, the window included, through a small fixed buffer. Its
// output is:
//
//   - the Encoding Standard's decode of the input
//     (https://encoding.spec.whatwg.org/#decode): a byte order mark (EF BB BF,
//     FE FF or FF FE) chooses the encoding and is removed; malformed bytes
//     become U+FFFD, never errors; a sequence cut off at the end becomes
//     U+FFFD;
//   - then newline normalization, as HTML's "preprocessing the input stream"
//     says (https://html.spec.whatwg.org/multipage/parsing.html#preprocessing-the-input-stream):
//     CR LF and lone CR become LF;
//   - and U+0000 replaced with U+FFFD, which the HTML tokenizer does in most
//     of its states (and which many consumers want everywhere).
//
// [WithoutPreprocessing] keeps CR and U+0000. The current standards strip
// only the byte order mark that BOM sniffing found, that is, the BOM bytes
// of the encoding in use; a U+FEFF that the decoder produces from other
// bytes (gb18030's 84 31 95 33, say) is text and is kept.
//
// # What a browser ends up with
//
// Sniffing is tentative unless a byte order mark, an override or the
// transport layer decided, and pages often declare their encoding, or
// show their first non-ASCII text, after the window. A browser's parser
// then changes the encoding when it meets the <meta>, and a browser's
// detector keeps reading past an ASCII-only start. By default a Reader does
// the same (see [WithLookahead]): it runs the prescan's <meta> scan on over
// the raw bytes as they pass (each byte once), and when the window gave the
// detector no evidence, or too little (a statistical guess from fewer
// non-ASCII bytes than its encoding needs, 16 for most: docs/conformance.md
// lists them), it keeps watching for the first
// non-ASCII byte. A
// <meta> met while everything before it is ASCII switches the decoder on
// the fly at that byte; at the first non-ASCII byte, if a <meta> or the
// detector may still decide, the Reader holds its output and reads ahead
// (at most the lookahead) to decide first. So no text handed out is ever
// contradicted by a later decision, and memory stays bounded whatever the
// input. (The exception is a late <meta> that rules out ASCII text too,
// naming ISO-2022-JP after an ESC, SO or SI byte, or the replacement
// encoding: a browser reloads the page, and so does the Reader when the
// <meta> is in the window, before it has handed out anything
// ([Restarted]); past the window it keeps the old encoding
// ([RestartNeeded]).) A late <meta> beats late detection; a certain
// encoding is never second-guessed. [Reader.Result] reports the final
// decision and what changed after the window. WithLookahead(0) gives the standard's
// sniffing of the window alone.
//
// The output does not depend on how the source splits its data across
// reads. A Reader allocates its own small struct when it is created (and a
// decoder for some multi-byte encodings) and never while reading: its 4 KB
// input and output buffers, and the bytes it holds to decide late (at most
// the lookahead), come from pools inside the package and go back there
// when the stream ends, so a fresh Reader per document costs little more
// than a reused one. The decoders' tables are shared by all Readers and built
// on first use: 1 KB for each single-byte encoding, and 256 KB for each of
// the double-byte ones (Shift_JIS, EUC-JP, GBK and gb18030, Big5, EUC-KR),
// which look a character up with one load.
//
// For a known encoding, [WithEncoding] skips the sniffing. A caller
// composing golang.org/x/text transforms has the Encoding Standard's
// decoder of each encoding, without the preprocessing, in package codec.
package decode

import (
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

const (
	// inSize is the size of the input buffer, which also holds the
	// window unless the sniffing options ask for a larger one. 16 KB
	// rather than 4 KB: a quarter of the reads of the source, calls into
	// the decoder and checks of the state, each as dear for 4 KB as for
	// 16 KB, made the bench samples up to 1.6 times as fast through Read
	// and WriteTo (Cyrillic single-byte 1.4-1.6, UTF-8 Japanese and
	// Russian 1.2-1.3, UTF-8 English and windows-1252 within the noise),
	// for 12 KB more a Reader while it reads
	// (bench/results/2026-12-02-insize.md).
	inSize = 16 << 10
	// outSize is the size of the output buffer that serves small reads,
	// ReadRune and WriteTo. 4 KB rather than 2 KB made WriteTo 3-19%
	// faster over the bench corpora (fewer calls into the decoder, fewer
	// buffer ends), and 16 KB rather than 4 KB UTF-8 with CR LF 1.27
	// times as fast through WriteTo (AMD EPYC Zen 4, decode's
	// BenchmarkLarge), for 12 KB more a Reader while it writes (out
	// comes from a pool, as in does).
	outSize = 16 << 10
	// maxEmptyReads is how many consecutive (0, nil) reads from the source
	// are tolerated before Read reports io.ErrNoProgress (as bufio does).
	maxEmptyReads = 100
)

var (
	// errCodecStuck is returned if a codec decoder stops making progress,
	// which is a bug.
	errCodecStuck = errors.New("decode: decoder made no progress")
	// errBadCount is returned if the source's Read returns an impossible
	// count.
	errBadCount = errors.New("decode: source returned an invalid count")
	// errBadWrite is returned if a Writer's Write returns an impossible
	// count.
	errBadWrite = errors.New("decode: invalid Write count")
)

// A Reader decodes an HTML byte stream to normalized UTF-8. It implements
// io.Reader, io.RuneReader and io.WriterTo. A Reader is not safe for
// concurrent use. The zero Reader reads an empty stream; [Reader.Reset]
// gives it a source.
type Reader struct {
	// src is the source; nil only in the zero Reader.
	src io.Reader
	// cfg is the options of the current stream.
	cfg config
	// res is the decision so far: the sniffing's, then what the
	// look-ahead or ChangeEncoding changed. res.Encoding is the encoding
	// of the bytes the decoder reads from now on (or from a pending
	// switch on, see late.pendAt).
	res decision
	// d decodes and preprocesses; its encoding is res.Encoding except
	// between a decided change and the offset it takes effect at.
	d decoder

	// buf[r0:r1] are raw bytes not yet decoded. buf is in[:] unless the
	// window is larger than in. Every raw byte of the stream passes
	// through buf once, in order (held bytes go back through it, see
	// late.replay); fill hands the bytes it reads from src to the late
	// <meta> scan while it runs.
	buf    []byte
	r0, r1 int
	// pos is the stream offset of buf[r1]: the number of raw bytes put
	// into buf since the start of the stream.
	pos int64
	// eof reports that no more bytes will come: buf[r0:r1] is the rest of
	// the input. srcEOF reports that src returned io.EOF; eof follows once
	// late.replay is empty. unclean reports that a Read straight from src
	// (readClean) found less than 7/8 of the bytes it read clean: the
	// rest of the stream goes through the decoder.
	eof, srcEOF, unclean bool
	// err is a non-EOF error from src, returned by Read once buf[r0:r1]
	// is decoded as far as it can be, and then cleared (the next Read
	// reads from src again).
	err error

	// late is the state of the look-ahead past the window (late.go).
	late lookahead

	// out[o0:o1] are decoded bytes not yet returned: the rest of a
	// character that did not fit a small Read, or read-ahead of ReadRune.
	// out is taken from outPool on first need.
	out    *[outSize]byte
	o0, o1 int

	// in is the input buffer, from inPool, unless the window needs a
	// larger one.
	in *[inSize]byte
}

// inPool and outPool hold the input and output buffers of Readers whose
// stream has ended (see release), so that a fresh Reader per document
// costs no more than a reused one but for its own small struct.
var (
	inPool  = sync.Pool{New: func() any { return new([inSize]byte) }}
	outPool = sync.Pool{New: func() any { return new([outSize]byte) }}
)

// release hands r's buffers back to the pools at the end of the stream,
// when they hold nothing more to return; Reset, or a later call that
// needs one, takes them again.
func (r *Reader) release() {
	if r.o0 != r.o1 {
		return
	}
	if r.in != nil {
		inPool.Put(r.in)
		r.in, r.buf, r.r0, r.r1 = nil, nil, 0, 0
	}
	if r.out != nil {
		outPool.Put(r.out)
		r.out, r.o0, r.o1 = nil, 0, 0
	}
}

// NewReader returns a Reader that decodes src. It reads from src until it
// has the window (1024 bytes by default; only up to 3 bytes with a user
// override, none with [WithEncoding]), or src ends, or src fails, and runs
// the encoding sniffing algorithm on those bytes with the options given
// (see [sniff.Sniff]). The bytes read are not lost: Read returns them
// decoded, first. What the Reader does past the window is
// [WithLookahead]'s.
//
// The error is non-nil only for a bad option ([WithEncoding] of an invalid
// encoding). An error from src while reading the window ends the window
// early (the sniffing uses what was read) and is returned by Read after
// the text decoded before it.
func NewReader(src io.Reader, opts ...Option) (*Reader, error) {
	r := new(Reader)
	// Reset without its work for a used Reader: the zero config is the
	// default one, and there is none to keep on a bad option.
	for _, o := range opts {
		o(&r.cfg)
	}
	if err := r.cfg.check(); err != nil {
		return nil, err
	}
	r.setup()
	r.start(src)
	return r, nil
}

// Reset makes r read from src as NewReader(src, opts...) would: the
// options replace r's options entirely (nothing is carried over). It
// reuses r's buffers, so a pipeline decoding many documents with options
// of their own needs one Reader: Reset allocates only for a larger window
// than r had, a multi-byte decoder r has not made before, or more held
// bytes than earlier streams needed (the options themselves may allocate
// where they are made). On a bad option it returns the error NewReader
// would and leaves r as it was.
func (r *Reader) Reset(src io.Reader, opts ...Option) error {
	// The options are applied to r.cfg in place (a local config would
	// escape to the heap through the option functions).
	old := r.cfg
	if err := r.cfg.apply(opts); err != nil {
		r.cfg = old
		return err
	}
	r.setup()
	r.start(src)
	return nil
}

// setup fits r to r.cfg: the decoder's preprocessing and the input buffer
// (the window may be larger than the Reader's own array). It reuses what r
// already has.
func (r *Reader) setup() {
	r.d.configure(&r.cfg)
	if w := r.cfg.window(); w <= inSize {
		if r.in == nil {
			r.in = inPool.Get().(*[inSize]byte)
		}
		r.buf = r.in[:]
	} else if cap(r.buf) >= w {
		// A buffer made for a larger window earlier.
		r.buf = r.buf[:w]
	} else {
		r.buf = make([]byte, w)
	}
}

// start begins a stream: it reads the window, sniffs, and sets up the
// decoder and the look-ahead.
func (r *Reader) start(src io.Reader) {
	r.src = src
	r.r0, r.r1, r.pos = 0, 0, 0
	r.eof, r.srcEOF, r.unclean, r.err = false, false, false, nil
	r.o0, r.o1 = 0, 0
	// The last stream may have stopped while holding bytes read ahead:
	// fill would hand them to this one. Drop them before the window.
	r.late.replay, r.late.pendErr = nil, nil
	r.late.dropHeld()
	var res sniff.Result
	if r.cfg.fixedSet {
		res = sniff.Result{Encoding: r.cfg.fixed, Confidence: sniff.Certain, Source: sniff.SourceOverride}
		if r.cfg.explain != nil {
			*r.cfg.explain = sniff.Provenance{}
		}
	} else {
		n := r.cfg.window()
		if r.cfg.sniff.Override.Valid() {
			// The user override is step 2: only a byte order mark can
			// come before it.
			n = maxBOMLength
		}
		for r.r1 < n && !r.eof && r.err == nil {
			r.fill(n)
		}
		// The window is the whole input, so a cut character is an error,
		// only if the input ended before the window was full: a source
		// may say io.EOF with its last bytes or on the next read, and
		// the window is never read past to learn which. AtEOF is set in
		// place for this call (copying the Options costs more) and put
		// back after it, as is the Detector: the built-in detector's
		// step is late.auto's (windowStep).
		opts := &r.cfg.sniff
		atEOF := opts.AtEOF
		opts.AtEOF = r.eof && r.r1 < n
		r.late.auto.Release()
		if opts.Detector == nil && !opts.NoAutodetect {
			opts.Detector = (*windowStep)(r)
			res = sniff.Sniff(r.buf[:r.r1], opts)
			opts.Detector = nil
		} else {
			res = sniff.Sniff(r.buf[:r.r1], opts)
		}
		if r.cfg.explain != nil {
			*r.cfg.explain = sniff.Explain(r.buf[:r.r1], opts)
		}
		opts.AtEOF = atEOF
		if !res.Encoding.Valid() {
			res.Encoding = override.Windows1252
		}
	}
	r.res = decision{Result: res}
	r.d.setEncoding(res.Encoding)
	r.startLate()
}

// Result returns the decision so far: the encoding, its confidence, the
// step that chose it, in Late, what changed after the window and, in
// Decided, whether the look-ahead is over. Once the output is read to the
// end (or past the look-ahead) it is final; until then it changes when a
// late <meta> or late autodetection decides (Source then
// [sniff.SourcePrescan] or [sniff.SourceAutodetect]). It changes too when
// [Reader.ChangeEncoding] changes the encoding.
func (r *Reader) Result() Result {
	return Result{Result: r.res.Result, Late: r.res.Late, Decided: r.decided()}
}

// decision is a Result without Decided, which the look-ahead's state
// answers, so that a Reader does not hold it twice.
type decision struct {
	sniff.Result
	Late Change
}

// fill reads once into buf[r1:limit], after moving buf[r0:r1] to the
// front: from late.replay if it holds bytes, else from src (read).
func (r *Reader) fill(limit int) {
	if r.r0 > 0 {
		r.r1 = copy(r.buf, r.buf[r.r0:r.r1])
		r.r0 = 0
	}
	if l := &r.late; len(l.replay) > 0 {
		n := copy(r.buf[r.r1:limit], l.replay)
		l.replay = l.replay[n:]
		r.r1 += n
		r.pos += int64(n)
		if len(l.replay) == 0 {
			l.replay = nil
			l.dropHeld()
			r.eof = r.srcEOF
			r.err, l.pendErr = l.pendErr, nil
		}
		return
	}
	n, eof := r.read(r.buf[r.r1:limit])
	r.r1 += n
	r.pos += int64(n)
	if eof {
		r.eof = true
	}
}

// read is the one way the Reader reads its source, for fill and for hold:
// it reads into p (not empty) until a read returns bytes, io.EOF or an
// error, and returns how many bytes it read and whether the source said
// io.EOF (srcEOF is then set too). A read error is left in err, as are
// io.ErrNoProgress after maxEmptyReads reads that return (0, nil) and
// errBadCount for a count that is not within p (nothing is read then).
// The bytes read go to the late <meta> scan while it runs.
func (r *Reader) read(p []byte) (n int, eof bool) {
	for range maxEmptyReads {
		n, err := r.src.Read(p)
		if n < 0 || n > len(p) {
			r.err = errBadCount
			return 0, false
		}
		if n > 0 && r.late.scanning {
			r.scanMeta(p[:n])
		}
		switch {
		case err == io.EOF:
			r.srcEOF = true
			return n, true
		case err != nil:
			r.err = err
			return n, false
		case n > 0:
			return n, false
		}
	}
	r.err = io.ErrNoProgress
	return 0, false
}

// offset returns the stream offset of buf[i].
func (r *Reader) offset(i int) int64 { return r.pos - int64(r.r1-i) }

// decode decodes into dst, reading from src as needed. It returns n > 0
// and a nil error, or 0 and an error: io.EOF at the end of the stream, or
// an error from src once everything before it has been returned. dst must
// hold at least utf8.UTFMax bytes.
func (r *Reader) decode(dst []byte) (int, error) {
	if r.src == nil {
		// The zero Reader, not yet reset: an empty stream.
		return 0, io.EOF
	}
	for {
		src, atEOF, limited := r.buf[r.r0:r.r1], r.eof, false
		at := int64(-1)
		if r.late.pendAt >= 0 || r.late.open() {
			// The decoder must stop at a pending change or at the first
			// non-ASCII byte: decode up to there, let the stage empty,
			// then act.
			at = r.stop()
			if at >= 0 {
				k := at - r.offset(r.r0)
				if k <= 0 && r.d.s0 == r.d.s1 {
					r.reach(at)
					continue
				}
				if k < int64(len(src)) {
					src, atEOF, limited = src[:max(k, 0)], false, true
				}
			}
		}
		n, m, err := r.d.Transform(dst, src, atEOF)
		r.r0 += m
		if n > 0 {
			return n, nil
		}
		if limited && (err == nil || err == transform.ErrShortSrc) {
			if m == 0 && r.d.s0 == r.d.s1 {
				// The decoder wants bytes past the stop (which ASCII
				// before it never makes it do): act here rather than
				// stall.
				r.reach(at)
			}
			continue
		}
		switch err {
		case nil:
			if r.r0 < r.r1 {
				if m > 0 {
					continue
				}
				// The decoder neither consumed nor wrote: treat it as
				// needing more input.
			} else if r.eof {
				// The end: nothing more can decide.
				r.late.scanning, r.late.detecting = false, false
				r.release()
				return 0, io.EOF
			}
		case transform.ErrShortSrc:
		case transform.ErrShortDst:
			return 0, io.ErrShortBuffer
		default:
			return 0, err
		}
		// The decoder needs more input.
		if r.err != nil {
			err := r.err
			r.err = nil
			return 0, err
		}
		if r.eof || r.r0 == 0 && r.r1 == len(r.buf) {
			return 0, errCodecStuck
		}
		r.fill(len(r.buf))
	}
}

// outBuf returns out, taking it from the pool on first need.
func (r *Reader) outBuf() *[outSize]byte {
	if r.out == nil {
		r.out = outPool.Get().(*[outSize]byte)
	}
	return r.out
}

// Read reads up to len(p) bytes of decoded, preprocessed UTF-8 into p. It
// returns n > 0 and a nil error, or 0 and an error: io.EOF at the end of
// the input (and every time after), or an error from the source after all
// bytes before it. A sequence cut off by a source error is kept: if Read is
// called again, the source is read again and decoding carries on (so a
// transient error such as a timeout loses nothing); at EOF it becomes
// U+FFFD. Read does not allocate. It returns (0, nil) only if len(p) is 0.
func (r *Reader) Read(p []byte) (int, error) {
	if r.o0 < r.o1 {
		n := copy(p, r.out[r.o0:r.o1])
		r.o0 += n
		return n, nil
	}
	if len(p) == 0 {
		return 0, nil
	}
	if len(p) >= utf8.UTFMax {
		if r.d.path == pathUTF8 {
			if n := r.readClean(p); n > 0 {
				return n, nil
			}
		}
		return r.decode(p)
	}
	out := r.outBuf()
	n, err := r.decode(out[:])
	if err != nil {
		return 0, err
	}
	k := copy(p, out[:n])
	r.o0, r.o1 = k, n
	return k, nil
}

// ReadRune reads one character of the decoded, preprocessed stream and
// returns it and its size in bytes (of UTF-8). The error is as for Read.
// ReadRune does not allocate; it reads ahead into the reader's buffer,
// which later Reads return first. After a Read into a buffer too small
// for a whole character, which returned its first bytes, ReadRune
// returns each of the rest as U+FFFD of size 1, as bufio.Reader does.
func (r *Reader) ReadRune() (ch rune, size int, err error) {
	r.outBuf()
	for r.o0 == r.o1 || r.out[r.o0] >= utf8.RuneSelf && !utf8.FullRune(r.out[r.o0:r.o1]) {
		if r.o0 > 0 {
			r.o1 = copy(r.out[:], r.out[r.o0:r.o1])
			r.o0 = 0
		}
		n, err := r.decode(r.out[r.o1:])
		if err != nil {
			return 0, 0, err
		}
		r.o1 += n
	}
	if c := r.out[r.o0]; c < utf8.RuneSelf {
		r.o0++
		return rune(c), 1, nil
	}
	ch, size = utf8.DecodeRune(r.out[r.o0:r.o1])
	r.o0 += size
	return ch, size, nil
}

// WriteTo writes the decoded, preprocessed stream to w until the end of
// the input or an error, and returns the number of bytes written. io.EOF
// is not an error. WriteTo does not allocate (w may).
func (r *Reader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		if r.o0 < r.o1 {
			n, err := w.Write(r.out[r.o0:r.o1])
			if n < 0 || n > r.o1-r.o0 {
				n = 0
				if err == nil {
					err = errBadWrite
				}
			}
			total += int64(n)
			r.o0 += n
			if err == nil && r.o0 < r.o1 {
				err = io.ErrShortWrite
			}
			if err != nil {
				return total, err
			}
		}
		if r.d.path == pathUTF8 {
			// UTF-8 that needs no change is written straight from the
			// input buffer: no copy into out, and as much at a time as
			// the source gave.
			n, err := r.writeClean(w)
			total += int64(n)
			if err != nil {
				return total, err
			}
			if n > 0 {
				if r.atEnd() {
					// The end, often met in the page's first buffer:
					// the writers and the decoder are not needed to
					// learn it.
					return total, nil
				}
				continue
			}
		}
		if r.d.path != pathCodec && r.d.pat.nulOn {
			// A run of NUL bytes, written as U+FFFD straight from a
			// block of them.
			n, err := r.writeNUL(w)
			total += int64(n)
			if err != nil {
				return total, err
			}
			if n > 0 {
				continue
			}
		}
		if r.atEnd() {
			// The end, which writeClean's read met, or the table path's:
			// no decoder call (nor out) is needed to learn it.
			return total, nil
		}
		n, err := r.decode(r.outBuf()[:])
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return total, err
		}
		r.o0, r.o1 = 0, n
	}
}

// atEnd reports whether the stream has ended with nothing left to decode
// or to return, on the UTF-8 and table paths (which keep no part of a
// character out of buf, so that the decoder has nothing more to write)
// and with no change of encoding waiting; if so it ends the stream as
// decode does there. WriteTo asks before it calls the decoder again, so
// that the end costs no decoder call (nor out).
func (r *Reader) atEnd() bool {
	// The first tests, inlined, answer mid-stream.
	return r.r0 == r.r1 && r.eof && r.o0 == r.o1 && r.ended()
}

// ended is atEnd past its first tests.
func (r *Reader) ended() bool {
	if r.src == nil || r.d.path == pathCodec || r.late.pendAt >= 0 || r.late.open() {
		return false
	}
	r.release()
	return true
}

// writeClean is WriteTo's path for UTF-8 input: it writes to w the bytes
// at the start of buf[r0:r1] that decoding would copy unchanged (valid
// UTF-8 with no CR or NUL that the preprocessing changes), reading from
// the source first if buf is empty, and returns how many it wrote. At the
// start of the stream it first skips a byte order mark, as the decoder
// would (so that a page's first bytes, often all of it, are written
// straight from buf too). It writes nothing, for the decoder to go on,
// when the decoder has state that those bytes would skip (a byte order
// mark it cannot tell yet, an LF after a CR, a pending change of
// encoding, the look-ahead watching for the first non-ASCII byte), or
// when fewer than minClean bytes are clean.
func (r *Reader) writeClean(w io.Writer) (int, error) {
	const minClean = 64
	if r.busy() {
		return 0, nil
	}
	if r.r0 == r.r1 && !r.eof && r.err == nil {
		r.fill(len(r.buf))
		if r.late.pendAt >= 0 {
			// The late <meta> scan found a change in these bytes.
			return 0, nil
		}
	}
	if !r.d.bomDone && !r.d.skipBOM(r.buf[r.r0:r.r1], r.eof, &r.r0) {
		return 0, nil
	}
	n := r.d.utf8Clean(r.buf[r.r0:r.r1])
	if n < minClean {
		return 0, nil
	}
	k, err := w.Write(r.buf[r.r0 : r.r0+n])
	if k < 0 || k > n {
		k = 0
		if err == nil {
			err = errBadWrite
		}
	}
	r.r0 += k
	if err == nil && k < n {
		err = io.ErrShortWrite
	}
	return k, err
}

// busy reports whether the decoder has state that bytes taken straight
// from buf or from the source would skip: an LF to drop after a CR, a
// pending change of encoding, the look-ahead watching the bytes, or
// decoded bytes in out. writeClean, writeNUL and readClean then leave the
// bytes to the decoder.
func (r *Reader) busy() bool {
	return r.d.cr || r.late.pendAt >= 0 || r.late.open() || r.o0 < r.o1
}

// readClean is Read's path for UTF-8 input, as writeClean is WriteTo's:
// with buf empty, it reads from the source straight into p and returns
// how many of the bytes at its start decoding would copy unchanged; the
// bytes after those go to buf, for the decoder. It reads nothing, and
// returns 0, when writeClean would write nothing for the decoder's state
// (the late <meta> scan, which could find a change in the bytes read, is
// one), when buf holds bytes or the scan has bytes to replay, and when p
// is shorter than minDirect; it returns 0 too when none of the bytes it
// read is clean. Clean text then costs one copy, the source's into p, and
// a check of p, where the decoder's path copies it twice. Text that is
// not (with CR LF, say) would cost a third, of the bytes after the first
// that is not clean into buf: after a read of which more than 1/8 was
// not clean, readClean reads no more of the stream (r.unclean).
func (r *Reader) readClean(p []byte) int {
	const minDirect = 4 << 10
	if len(p) < minDirect || r.unclean || r.r0 < r.r1 || r.eof || r.err != nil || !r.d.bomDone ||
		r.busy() || len(r.late.replay) > 0 {
		return 0
	}
	p = p[:min(len(p), len(r.buf))]
	n, eof := r.read(p)
	r.pos += int64(n)
	r.eof = eof
	k := r.d.utf8Clean(p[:n])
	r.r0, r.r1 = 0, copy(r.buf, p[k:n])
	r.unclean = n-k > n/8
	return k
}

// fffdBlock is U+FFFD 5461 times (16383 bytes), which writeNUL writes for
// runs of NUL, made on first need: 4095 bytes left a page of NULs at
// 0.47-0.55 of the speed of one of letters through WriteTo, a write for
// each 1365 NULs (AMD EPYC Zen 4, BenchmarkNUL; now 0.69-0.71). The
// writers it goes to must not change it (io.Writer's contract), as
// net/http's crlf.
var fffdBlock = sync.OnceValue(func() []byte { return []byte(strings.Repeat(fffd, 5461)) })

// writeNUL is WriteTo's path for a run of NUL bytes on the UTF-8 and
// table paths with NUL replaced: it writes a U+FFFD for each NUL at the
// start of buf[r0:r1] from fffdBlock, as many as it holds, and returns the
// bytes written; nothing, for the decoder to go on, where writeClean
// would write nothing for the decoder's state, or when buf[r0] is not NUL
// (or buf is empty). A page of NULs then costs its reads and writes, with
// no copy into out (a third of the time went there).
func (r *Reader) writeNUL(w io.Writer) (int, error) {
	if r.r0 == r.r1 || r.buf[r.r0] != 0 || !r.d.bomDone || r.busy() {
		return 0, nil
	}
	b := fffdBlock()
	n := zeroRun(r.buf[r.r0:min(r.r1, r.r0+len(b)/len(fffd))]) * len(fffd)
	k, err := w.Write(b[:n])
	if k < 0 || k > n {
		k = 0
		if err == nil {
			err = errBadWrite
		}
	}
	// A short write may end inside a U+FFFD: the NULs written whole are
	// consumed, and the bytes of the one cut go to out, as WriteTo's
	// loop writes them first.
	r.r0 += k / len(fffd)
	if m := k % len(fffd); m > 0 {
		r.r0++
		out := r.outBuf()
		r.o0, r.o1 = 0, copy(out[:], fffd[m:])
	}
	if err == nil && k < n {
		err = io.ErrShortWrite
	}
	return k, err
}

// Settle reads the text until r has decided ([Result.Decided]) and
// returns buf with the text it read appended, so that a caller that wants
// the final decision before it hands the text on loses none of it: Read,
// ReadRune and WriteTo go on after that text. Settle appends at most max
// bytes; past them it stops undecided (only a text that is ASCII for
// longer than max can change the decision afterwards). A negative max
// reads as far as the decision needs, however far, and keeps nothing:
// the text is discarded and buf returned as it is, for a caller that
// wants the decision alone (Settle then reads the whole input only while
// it is all ASCII and late autodetection is open).
//
// The error is the first error of the reads other than io.EOF, after
// which Settle stops (and r is decided unless the error came in the
// window); the end of the stream is not an error. An error the look-ahead
// met while reading ahead is returned by Read after the text held, not by
// Settle when the decision came before it. Settle allocates only to grow
// buf.
func (r *Reader) Settle(buf []byte, max int) ([]byte, error) {
	if max < 0 {
		r.o0, r.o1 = 0, 0 // read-ahead of ReadRune: text, discarded too
		for !r.decided() {
			if _, err := r.decode(r.outBuf()[:]); err != nil {
				return buf, eofNil(err)
			}
		}
		return buf, nil
	}
	end := len(buf) + max
	for !r.decided() && len(buf) < end {
		if cap(buf) == len(buf) {
			buf = slices.Grow(buf, min(outSize, end-len(buf)))
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), end)])
		buf = buf[:len(buf)+n]
		if err != nil {
			return buf, eofNil(err)
		}
	}
	return buf, nil
}

// eofNil returns err, or nil for io.EOF.
func eofNil(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}
