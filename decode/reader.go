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
// Each step of the preprocessing can be switched off ([Raw],
// [WithoutBOMRemoval], [WithoutNewlineNormalization],
// [WithoutNULReplacement]). The current standards strip only the byte
// order mark that BOM sniffing found, that is, the BOM bytes of the
// encoding in use; a U+FEFF that the decoder produces from other bytes
// (gb18030's 84 31 95 33, say) is text and is kept. (Drafts of HTML before
// 2013 dropped any leading U+FEFF.)
//
// The output does not depend on how the source splits its data across
// reads. A Reader allocates when it is created (once, or twice for a window
// above 4 KB or for some multi-byte encodings) and never while reading; its
// memory is 9.5 KB (a 10 KB allocation) whatever the size of the input.
// The decoders' tables are shared by all Readers and built on first use:
// 1 KB for each single-byte encoding, and 256 KB for each of the
// double-byte ones (Shift_JIS, EUC-JP, GBK and gb18030, Big5, EUC-KR),
// which look a character up with one load.
//
// [NewTransformer] offers the same decoding and preprocessing as a
// golang.org/x/text transform.Transformer, for a known encoding.
//
// # Changing the encoding while parsing
//
// Sniffing is tentative unless a byte order mark, an override or the
// transport layer decided, and pages often declare their encoding after
// the window. A browser's parser then changes the encoding when it meets
// the <meta>. [WithLateMeta] makes the Reader do the same: it keeps running
// the prescan's <meta> scan over the raw bytes as they pass through (each
// byte once, in any chunking, with no memory of its own), and when
// decoding reaches the end of a declaration it runs the HTML Standard's
// "change the encoding" steps ([Reader.ChangeEncoding], which a caller with
// its own parser may also call). If every byte decoded before is ASCII, the
// decoder switches on the fly at that byte: an ASCII page that declares
// Shift_JIS after 3 KB decodes right with no second pass. Otherwise the
// document must be decoded again from its start: [WithRestartBuffer] keeps
// the raw bytes (up to a limit) so that [Reader.Restart] replays them and
// reads on from the same source, and [WithAutoRestart] reads ahead before
// any output (up to the late-meta limit) so that no restart is ever
// visible. [Reader.Change] reports what happened; [Reader.Result] stays the
// sniffing decision, and [Reader.Encoding] and [Reader.Confidence] follow
// the change. The restart buffer and the bytes read ahead are the only
// memory these options add (a 400-byte scanner aside), within the limits
// the caller gives; the restart buffer grows as bytes come, and Reset
// reuses both.
package decode

import (
	"errors"
	"io"
	"unicode/utf8"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

const (
	// inSize is the size of the input buffer, which also holds the
	// window unless WithWindow asks for more.
	inSize = 4096
	// outSize is the size of the output buffer that serves small reads,
	// ReadRune and WriteTo. 4 KB rather than 2 KB made WriteTo 3-19%
	// faster over the bench corpora (fewer calls into the decoder, fewer
	// buffer ends), for 2 KB more a Reader.
	outSize = 4096
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
)

// A Reader decodes an HTML byte stream to normalized UTF-8. It implements
// io.Reader, io.RuneReader and io.WriterTo. A Reader is not safe for
// concurrent use. The zero Reader reads an empty stream; [Reader.Reset]
// (with the default options) or [Reader.ResetWith] gives it a source.
type Reader struct {
	src io.Reader
	cfg config
	res sniff.Result
	d   decoder

	// buf[r0:r1] are bytes read from src and not yet decoded. buf is
	// in[:] unless the window is larger than in.
	//
	// All raw bytes of the stream pass through buf, in order, once: fill
	// hands the bytes it reads from src to observe, which watches them for
	// a late <meta> and keeps them for a restart (change.go).
	buf    []byte
	r0, r1 int
	// pos is the stream offset of buf[r1]: the number of raw bytes put
	// into buf since the start (or the restart) of the stream.
	pos int64
	// eof reports that no more bytes will come: buf[r0:r1] is the rest of
	// the input. It is never reset but by Reset and Restart.
	eof bool
	// srcEOF reports that src returned io.EOF; eof follows once replay is
	// empty.
	srcEOF bool
	// err is a non-EOF error from src, returned by Read once buf[r0:r1]
	// is decoded as far as it can be, and then cleared (the next Read
	// reads from src again).
	err error

	// The encoding of the document as the parser sees it: sniffed, then
	// perhaps changed while parsing (change.go).
	enc  override.Encoding
	conf sniff.Confidence
	chg  ChangeResult
	// pendAt is the stream offset at which a change of encoding waits
	// for the decoder (-1 for none): a late <meta> to act on there
	// (pendDecided false), or a switch on the fly to pendEnc (true).
	pendAt      int64
	pendEnc     override.Encoding
	pendDecided bool
	// watch makes fill pass the bytes it reads to observe; it is
	// keeping || scanning.
	watch bool
	// scanning: late is running over the raw bytes (WithLateMeta).
	scanning bool
	// ahead: the reading ahead of WithAutoRestart is not over (it is
	// going on, or a source error interrupted it).
	ahead bool
	// delivered: Read, ReadRune or WriteTo has handed out output.
	delivered bool
	// keeping: kept holds every raw byte read from src so far, and the
	// bytes read next are added (WithRestartBuffer, WithAutoRestart), up
	// to keepLimit bytes.
	keeping   bool
	keepLimit int
	kept      []byte
	// replay holds raw bytes that fill takes before reading from src:
	// the bytes read ahead, or all of kept after a restart. pendErr is a
	// source error not yet returned when the Reader restarted: fill
	// returns it after the replay.
	replay  []byte
	pendErr error
	// late is the resumable prescan of WithLateMeta, made when first
	// needed (and kept when ResetWith turns the scan off).
	late *prescan.Scanner

	// out[o0:o1] are decoded bytes not yet returned: the rest of a
	// character that did not fit a small Read, or read-ahead of ReadRune.
	out    [outSize]byte
	o0, o1 int

	in [inSize]byte
}

// NewReader returns a Reader that decodes src. It reads from src until it
// has the window (see [WithWindow]; only up to 3 bytes with
// [WithOverride], none with [WithEncoding]), or src ends, or src fails, and
// runs the encoding sniffing algorithm on those bytes with the options
// given (see [sniff.Sniff]). With [WithLateMeta] and [WithAutoRestart], if
// the encoding is tentative, it then reads on until the late-meta scan
// decides (see WithAutoRestart). The bytes read are not lost: Read returns
// them decoded, first.
//
// The error is non-nil only for a bad option: an unknown label is a
// [*LabelError]. An error from src while reading the window ends the window
// early (the sniffing uses what was read) and is returned by Read after the
// bytes read before it.
func NewReader(src io.Reader, opts ...Option) (*Reader, error) {
	r := new(Reader)
	for _, o := range opts {
		o(&r.cfg)
	}
	if err := r.cfg.resolve(); err != nil {
		return nil, err
	}
	r.setup()
	r.start(src)
	return r, nil
}

// setup fits r to r.cfg: the decoder's preprocessing, the input buffer
// (the window may be larger than the Reader's own array), the late-meta
// scanner. It reuses what r already has.
func (r *Reader) setup() {
	r.d.configure(&r.cfg)
	if w := r.cfg.window(); w <= len(r.in) {
		r.buf = r.in[:]
	} else if cap(r.buf) >= w {
		// A buffer made for a larger window earlier (r.in is smaller).
		r.buf = r.buf[:w]
	} else {
		r.buf = make([]byte, w)
	}
	if r.cfg.lateMeta > 0 && r.late == nil {
		// Kept when later options turn the scan off, for the next that
		// turn it on.
		r.late = new(prescan.Scanner)
	}
	// The restart buffer never grows past the options' bound.
	if cap(r.kept) > r.cfg.maxKept() {
		r.kept = nil
	}
}

// Reset makes r read from src as a new Reader with the same options would,
// reading the window and sniffing again. It does not allocate, unless src
// needs a multi-byte decoder r has not made before, or more room in the
// restart buffer than earlier streams needed. The error is always
// nil; it is there for options that may one day fail on a new stream.
func (r *Reader) Reset(src io.Reader) error {
	if r.buf == nil {
		// The zero Reader: the default options.
		r.setup()
	}
	r.start(src)
	return nil
}

// ResetWith makes r read from src as NewReader(src, opts...) would: the
// options replace r's options entirely. It reuses r's buffers, so that a
// pipeline decoding many documents with options of their own (each
// response's Content-Type, a WARC record's host) needs one Reader; it
// allocates no more than Reset does, unless the options ask for a larger
// window or restart buffer than r had, or a multi-byte decoder r has not
// made before (the options themselves, such as WithContentType(ct), may
// allocate where they are made). On a bad option it returns the error
// NewReader would and leaves r as it was.
func (r *Reader) ResetWith(src io.Reader, opts ...Option) error {
	// The options are applied to r.cfg in place (a local config would
	// escape to the heap through the option functions).
	old := r.cfg
	r.cfg = config{}
	for _, o := range opts {
		o(&r.cfg)
	}
	if err := r.cfg.resolve(); err != nil {
		r.cfg = old
		return err
	}
	r.setup()
	r.start(src)
	return nil
}

// start begins a stream: it reads the window, sniffs, and sets up the
// decoder.
func (r *Reader) start(src io.Reader) {
	r.src = src
	r.r0, r.r1, r.pos = 0, 0, 0
	r.eof, r.srcEOF, r.err = false, false, nil
	r.o0, r.o1 = 0, 0
	r.resetChange()
	if r.cfg.fixedSet {
		r.res = sniff.Result{Encoding: r.cfg.fixedEnc, Confidence: sniff.Certain, Source: sniff.SourceOverride}
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
		opts := r.cfg.sniff
		opts.AtEOF = r.eof // the window is the whole input: a cut character is an error
		r.res = sniff.Sniff(r.buf[:r.r1], &opts)
		if !r.res.Encoding.Valid() {
			r.res.Encoding = override.Windows1252
		}
	}
	r.d.setEncoding(r.res.Encoding)
	r.startChange()
}

// Result returns the decision of the encoding sniffing algorithm: the
// encoding, its confidence and the step that chose it. It does not change
// when the encoding changes while parsing; see [Reader.Change],
// [Reader.Encoding] and [Reader.Confidence] for that.
func (r *Reader) Result() sniff.Result { return r.res }

// Encoding returns the encoding of the document: the one sniffing chose,
// or the one a change of encoding while parsing chose (which applies from
// [ChangeResult.Offset] on when the change was [SwitchedOnTheFly], and
// from the start when it was [Restarted]). It stays the old one after
// [RestartNeeded], as the Reader keeps decoding with it until [Reader.Restart].
func (r *Reader) Encoding() override.Encoding { return r.enc }

// fill reads once into buf[r1:limit], after moving buf[r0:r1] to the
// front: from replay if it holds bytes, else from src. It retries reads
// from src that return (0, nil), up to maxEmptyReads times, after which it
// sets err to io.ErrNoProgress. The bytes read from src go to observe
// while watch is set.
func (r *Reader) fill(limit int) {
	if r.r0 > 0 {
		r.r1 = copy(r.buf, r.buf[r.r0:r.r1])
		r.r0 = 0
	}
	if len(r.replay) > 0 {
		n := copy(r.buf[r.r1:limit], r.replay)
		r.replay = r.replay[n:]
		r.r1 += n
		r.pos += int64(n)
		if len(r.replay) == 0 {
			r.replay = nil
			r.eof = r.srcEOF
			r.err, r.pendErr = r.pendErr, nil
		}
		return
	}
	for range maxEmptyReads {
		n, err := r.src.Read(r.buf[r.r1:limit])
		if n < 0 || n > limit-r.r1 {
			r.err = errBadCount
			return
		}
		if n > 0 {
			if r.watch {
				r.observe(r.buf[r.r1:r.r1+n], r.pos)
			}
			r.r1 += n
			r.pos += int64(n)
		}
		if err != nil {
			if err == io.EOF {
				r.eof, r.srcEOF = true, true
			} else {
				r.err = err
			}
			return
		}
		if n > 0 {
			return
		}
	}
	r.err = io.ErrNoProgress
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
	if r.ahead {
		// WithAutoRestart's reading ahead met a source error: return it
		// first, then read ahead again.
		if r.err == nil {
			r.readAhead()
		}
		if r.ahead {
			err := r.err
			r.err = nil
			return 0, err
		}
	}
	for {
		src, atEOF, limited := r.buf[r.r0:r.r1], r.eof, false
		if r.pendAt >= 0 {
			// A change of encoding waits at pendAt: decode up to there,
			// let the stage empty, then change.
			k := r.pendAt - r.offset(r.r0)
			if k <= 0 && r.d.s0 == r.d.s1 {
				r.arrive()
				continue
			}
			if k < int64(len(src)) {
				src, atEOF, limited = src[:max(k, 0)], false, true
			}
		}
		n, m, err := r.d.Transform(dst, src, atEOF)
		r.r0 += m
		if n > 0 {
			return n, nil
		}
		if limited && (err == nil || err == transform.ErrShortSrc) {
			if m == 0 && r.d.s0 == r.d.s1 {
				// The decoder wants bytes past pendAt (which a <meta>
				// ending in > never makes it do): change here rather
				// than stall.
				r.arrive()
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
		n, err := r.decode(p)
		r.delivered = r.delivered || n > 0
		return n, err
	}
	n, err := r.decode(r.out[:])
	if err != nil {
		return 0, err
	}
	k := copy(p, r.out[:n])
	r.o0, r.o1 = k, n
	r.delivered = true
	return k, nil
}

// ReadRune reads one character of the decoded, preprocessed stream and
// returns it and its size in bytes (of UTF-8). The error is as for Read.
// ReadRune does not allocate; it reads ahead into the reader's buffer,
// which later Reads return first.
func (r *Reader) ReadRune() (ch rune, size int, err error) {
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
	r.delivered = true
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
					err = errors.New("decode: invalid Write count")
				}
			}
			total += int64(n)
			r.o0 += n
			r.delivered = r.delivered || n > 0
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
				continue
			}
		}
		n, err := r.decode(r.out[:])
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return total, err
		}
		r.o0, r.o1 = 0, n
	}
}

// writeClean is WriteTo's path for UTF-8 input: it writes to w the bytes
// at the start of buf[r0:r1] that decoding would copy unchanged (valid
// UTF-8 with no CR or NUL that the preprocessing changes), reading from
// the source first if buf is empty, and returns how many it wrote. It
// writes nothing, for the decoder to go on, when the decoder has state
// that those bytes would skip (the start of the stream and its byte order
// mark, an LF after a CR, a pending change of encoding), or when fewer
// than minClean bytes are clean.
func (r *Reader) writeClean(w io.Writer) (int, error) {
	const minClean = 64
	if !r.d.bomDone || r.d.cr || r.pendAt >= 0 || r.ahead || r.o0 < r.o1 {
		return 0, nil
	}
	if r.r0 == r.r1 && !r.eof && r.err == nil {
		r.fill(len(r.buf))
		if r.pendAt >= 0 {
			// The late-meta scan found a change in these bytes.
			return 0, nil
		}
	}
	n := r.d.utf8Clean(r.buf[r.r0:r.r1])
	if n < minClean {
		return 0, nil
	}
	k, err := w.Write(r.buf[r.r0 : r.r0+n])
	if k < 0 || k > n {
		k = 0
		if err == nil {
			err = errors.New("decode: invalid Write count")
		}
	}
	r.r0 += k
	r.delivered = r.delivered || k > 0
	if err == nil && k < n {
		err = io.ErrShortWrite
	}
	return k, err
}
