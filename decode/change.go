package decode

import (
	"errors"
	"io"
	"math"

	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

// Changing the encoding while parsing
// (https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing).
//
// The raw bytes reach the Reader through fill, once each. While the
// encoding is tentative, fill hands the bytes it reads from the source to
// observe, which keeps them for a restart (WithRestartBuffer) and feeds
// them to a resumable prescan (WithLateMeta). A <meta> that prescan finds
// becomes a change of encoding waiting at the offset just past its >: the
// decoder decodes up to there and the change is decided there, with the
// decoder's own record of whether it met a non-ASCII byte. WithAutoRestart
// reads ahead before any output instead, so the change is decided before
// anything is decoded.

// WithLateMeta makes the Reader go on looking for a <meta> that declares
// the encoding past the window, as the HTML parser does while the
// confidence is tentative: the prescan's <meta> scan (the standard's rules:
// charset, or http-equiv="content-type" with content) runs on over the raw
// bytes as they pass through the Reader, resumed where the window ended,
// up to stream offset limit (a <meta> counts if its > lies below limit).
// The first one found is acted on when decoding reaches its end, by the
// steps of [Reader.ChangeEncoding]: an ASCII page that declares shift_jis
// after 3 KB switches to Shift_JIS on the fly, from that offset on; a page
// with non-ASCII bytes before its declaration needs a restart (see
// [WithAutoRestart] and [WithRestartBuffer]). [Reader.Change] reports what
// happened. An XML declaration does not count late, and a <meta> the
// sniffing already found (source prescan) only makes the encoding certain.
//
// The scan holds no memory of its own beyond a small fixed state and looks
// at each byte once. It does nothing when the encoding is certain (a byte
// order mark, an override, a transport-layer charset) or UTF-16. A limit
// of 0 or less turns it off (the default).
func WithLateMeta(limit int64) Option {
	return func(c *config) { c.lateMeta = max(limit, 0) }
}

// WithRestartBuffer makes the Reader keep the raw bytes it reads while the
// encoding is tentative, up to limit bytes, so that [Reader.Restart] can
// decode the document again from its start in a new encoding without
// reading the source twice. Past limit bytes the kept bytes are dropped
// and a restart is impossible. The buffer grows as bytes come, to at most
// limit bytes, and is reused by [Reader.Reset]. If a change of encoding
// needs a restart before the Reader has handed out any output, it restarts
// by itself. A limit of 0 or less turns it off (the default).
func WithRestartBuffer(limit int) Option {
	return func(c *config) { c.restartBuffer = max(limit, 0) }
}

// WithAutoRestart makes a late declaration ([WithLateMeta]) never cost the
// caller a restart: while the encoding is tentative, [NewReader] (and
// [Reader.Reset]) reads ahead until the late-meta scan finds a declaration
// or passes its limit, or the source ends, before any output. The decision
// is then made before anything is decoded: [SwitchedOnTheFly] for an ASCII
// prefix, [Restarted] (decoding from the start in the declared encoding,
// from memory) otherwise, and the output is always that of the final
// encoding. The bytes read ahead are held in memory, at most the late-meta
// limit (and kept for [Reader.Reset] to reuse). If the source fails while
// reading ahead, the first Read returns the error, before any output, and
// the next one reads ahead again. Without WithLateMeta it does nothing.
func WithAutoRestart() Option {
	return func(c *config) { c.autoRestart = true }
}

// ChangeKind is the outcome of a change of encoding while parsing.
type ChangeKind uint8

const (
	// NoChange: no change of encoding was asked for (or the encoding
	// asked for is not valid).
	NoChange ChangeKind = iota
	// SwitchedOnTheFly: every byte decoded before the change means the
	// same in both encodings, so the decoder changed in place: the bytes
	// before Offset are decoded in From, the rest in To. The confidence
	// is now certain.
	SwitchedOnTheFly
	// RestartNeeded: bytes already decoded may mean something else in To.
	// The Reader goes on decoding in From (the encoding is certain: a
	// browser that cannot re-parse ignores the new encoding) until the
	// caller calls [Reader.Restart], which needs the raw bytes kept
	// ([WithRestartBuffer]).
	RestartNeeded
	// Restarted: the document is decoded again from its start in To,
	// certain: by [Reader.Restart], or by the Reader itself before it had
	// handed out any output.
	Restarted
	// SameEncoding: To is the encoding already in use (after UTF-16 became
	// UTF-8 and x-user-defined windows-1252); the confidence is now certain.
	SameEncoding
	// IgnoredUTF16: the encoding in use is UTF-16BE or UTF-16LE, which no
	// <meta> can change; the confidence is now certain.
	IgnoredUTF16
	// IgnoredCertain: the confidence was already certain; nothing
	// changed. The standard does not run the steps then; the Reader
	// reports it to a caller that asks anyway.
	IgnoredCertain
)

var changeKindNames = [...]string{
	NoChange:         "none",
	SwitchedOnTheFly: "switched",
	RestartNeeded:    "restart-needed",
	Restarted:        "restarted",
	SameEncoding:     "same",
	IgnoredUTF16:     "ignored-utf-16",
	IgnoredCertain:   "ignored-certain",
}

// String returns "none", "switched", "restart-needed", "restarted",
// "same", "ignored-utf-16" or "ignored-certain".
func (k ChangeKind) String() string {
	if int(k) < len(changeKindNames) {
		return changeKindNames[k]
	}
	return "unknown"
}

// ChangeResult describes a change of encoding while parsing.
type ChangeResult struct {
	// Kind is what happened.
	Kind ChangeKind
	// From is the encoding in use when the change was asked for; To is the
	// encoding asked for, after UTF-16 became UTF-8 and x-user-defined
	// windows-1252 (except for IgnoredUTF16, where it is as asked).
	From, To override.Encoding
	// Offset is the raw stream offset of the change: just past the > of a
	// late <meta>, or the number of raw bytes the decoder had read when
	// ChangeEncoding was called.
	Offset int64
	// Late reports that the late-meta scan ([WithLateMeta]) found the
	// declaration, rather than a call to ChangeEncoding.
	Late bool
}

// ErrCannotRestart is returned by [Reader.Restart] when no restart is
// needed ([Reader.Change] is not [RestartNeeded]) or the raw bytes read so
// far were not kept (no [WithRestartBuffer], or more bytes than its limit
// were read).
var ErrCannotRestart = errors.New("decode: cannot restart: no restart needed or raw bytes not kept")

// Change returns the first change of encoding while parsing: found by the
// late-meta scan or asked for with ChangeEncoding (later ones find the
// confidence certain and change nothing). Its Kind is [NoChange] if there
// was none. With [WithAutoRestart] the outcome of the late-meta scan is
// known when NewReader returns; otherwise it is known once the output has
// reached the declaration.
func (r *Reader) Change() ChangeResult { return r.chg }

// Confidence returns the confidence in [Reader.Encoding]: that of the
// sniffing, until a change of encoding (or a <meta> the late-meta scan
// found again) makes it certain.
func (r *Reader) Confidence() sniff.Confidence { return r.conf }

// ChangeEncoding runs the HTML Standard's "change the encoding" steps, as
// the parser does when it meets a <meta> declaring label while the
// confidence is tentative (a caller with its own parser may call it; with
// [WithLateMeta] the Reader calls it by itself). The steps:
//
//  1. If the encoding in use is UTF-16BE or UTF-16LE, the confidence
//     becomes certain and nothing else changes ([IgnoredUTF16]).
//  2. UTF-16BE or UTF-16LE asked for becomes UTF-8.
//  3. x-user-defined asked for becomes windows-1252.
//  4. If that is the encoding in use, the confidence becomes certain
//     ([SameEncoding]).
//  5. If every byte decoded so far means the same in both encodings, the
//     decoder changes on the fly ([SwitchedOnTheFly]): the bytes read
//     from now on, including those read from the source but not decoded
//     yet, are decoded in the new encoding.
//  6. Otherwise the document must be decoded again from its start
//     ([RestartNeeded], or [Restarted] if the raw bytes were kept and
//     nothing has been handed out yet).
//
// "Means the same" holds when nothing has been decoded; when all the
// bytes decoded are ASCII and both encodings are ASCII-compatible
// ([override.Encoding.ASCIICompatible]: not UTF-16, ISO-2022-JP or
// replacement); and between GBK and gb18030, which share one decoder.
// If the confidence is already certain, nothing changes and the result is
// [IgnoredCertain] ([Reader.Change] keeps reporting the first change).
//
// The label is resolved as the Reader's options say ([WithLegacyLabels]);
// an unknown label changes nothing and returns a [*LabelError].
// ChangeEncoding does not allocate, except for the decoder of a multi-byte
// encoding the Reader has not used yet.
func (r *Reader) ChangeEncoding(label string) (ChangeResult, error) {
	e, err := r.cfg.lookup(label, "ChangeEncoding")
	if err == nil && !e.Valid() {
		err = &LabelError{"ChangeEncoding", label}
	}
	if err != nil {
		return ChangeResult{From: r.enc, Offset: r.offset(r.r0)}, err
	}
	return r.ChangeEncodingTo(e), nil
}

// ChangeEncodingTo is [Reader.ChangeEncoding] with an encoding rather than
// a label. An encoding that is not valid changes nothing ([NoChange]).
func (r *Reader) ChangeEncodingTo(e override.Encoding) ChangeResult {
	at := r.offset(r.r0)
	if !e.Valid() {
		return ChangeResult{From: r.enc, To: e, Offset: at}
	}
	return r.change(e, at, !r.d.high, false)
}

// Restart makes r decode the document again from its start, in the
// encoding of a change that needs a restart ([RestartNeeded]), with
// confidence certain, from the raw bytes kept ([WithRestartBuffer]) and
// then the rest of the source: the source is not read twice. The output
// starts over: Read returns the document from its first character again,
// and output read before the restart must be discarded by the caller (an
// HTML parser parses again). Output decoded but not yet read is dropped.
// [Reader.Change] then reports [Restarted]; [Reader.Result] still reports
// the sniffing. Restart returns [ErrCannotRestart], and changes nothing,
// if no restart is needed or the bytes were not kept.
func (r *Reader) Restart() error {
	if r.chg.Kind != RestartNeeded || !r.keeping {
		return ErrCannotRestart
	}
	r.restart(r.chg.To)
	r.o0, r.o1 = 0, 0
	return nil
}

// resetChange forgets the change state of the previous stream.
func (r *Reader) resetChange() {
	r.chg = ChangeResult{}
	r.pendAt, r.pendEnc, r.pendDecided = -1, override.Unknown, false
	r.watch, r.scanning, r.ahead, r.delivered, r.keeping = false, false, false, false, false
	r.kept, r.replay, r.pendErr = r.kept[:0], nil, nil
}

// startChange sets up the change machinery once sniffing has decided,
// with the window in buf[:r1].
func (r *Reader) startChange() {
	r.enc, r.conf = r.res.Encoding, r.res.Confidence
	r.d.track = r.conf == sniff.Tentative
	if r.conf == sniff.Certain {
		return
	}
	r.keepLimit = r.cfg.restartBuffer
	if r.cfg.lateMeta > 0 && !r.enc.IsUTF16() {
		lim := r.cfg.lateLimit()
		r.late.Reset(&prescan.Options{Window: lim, Legacy: r.cfg.sniff.Legacy})
		r.scanning = true
		if r.cfg.autoRestart {
			r.ahead = true
			r.keepLimit = max(r.keepLimit, lim)
		}
	}
	r.keeping = r.keepLimit > 0
	r.watch = r.keeping || r.scanning
	if r.watch && r.r1 > 0 {
		// The window: sniffing's prescan was a one-shot one, so the late
		// scan goes over it once more, and finds only the <meta> sniffing
		// found, if any.
		r.observe(r.buf[:r.r1], 0)
	}
	if r.ahead && r.err == nil {
		r.readAhead()
	}
}

// observe watches p, raw bytes just read from the source at stream offset
// off: it keeps them and scans them, as configured.
func (r *Reader) observe(p []byte, off int64) {
	if r.keeping {
		r.keep(p)
	}
	if r.scanning {
		r.scan(p)
	}
	r.watch = r.keeping || r.scanning
}

// keep adds p to kept, or stops keeping if that would pass keepLimit. The
// capacity of kept never passes keepLimit.
func (r *Reader) keep(p []byte) {
	n := len(r.kept) + len(p)
	if n > r.keepLimit {
		r.keeping = false
		return
	}
	if n > cap(r.kept) {
		r.growKept(n)
	}
	r.kept = append(r.kept, p...)
}

// growKept makes room in kept for n bytes in all, doubling, within
// keepLimit. A replay slice into the old array stays valid.
func (r *Reader) growKept(n int) {
	c := min(max(2*cap(r.kept), n, 16<<10), r.keepLimit)
	k := make([]byte, len(r.kept), c)
	copy(k, r.kept)
	r.kept = k
}

// scan feeds p to the late-meta scan and acts on its answer.
func (r *Reader) scan(p []byte) {
	res, final := r.late.Feed(p)
	if !final {
		return
	}
	r.scanning = false
	if res.Source == prescan.Meta {
		r.found(res.Encoding, int64(res.Offset))
	}
}

// found handles a <meta> that names e and ends at stream offset at.
func (r *Reader) found(e override.Encoding, at int64) {
	if r.ahead {
		// Nothing is decoded yet and kept holds every byte before at:
		// decide now, as the parser would on reaching at.
		ascii := at <= int64(len(r.kept)) && indexHigh(r.kept[:at]) < 0
		r.change(e, at, ascii, true)
		return
	}
	// The parser meets the <meta> when decoding reaches at.
	r.pendAt, r.pendEnc, r.pendDecided = at, e, false
}

// aheadChunk is the most readAhead asks the source for at once.
const aheadChunk = 32 << 10

// readAhead reads from the source into kept, scanning, until the late
// scan is over (a <meta> found, or its limit passed) or the source ends,
// and then clears ahead: fill replays the bytes past the window. If the
// source fails, readAhead leaves ahead set and the error in err: decode
// returns it before any output and calls readAhead again on the next
// call.
func (r *Reader) readAhead() {
	lim := r.cfg.lateLimit()
	for empty := 0; r.scanning && r.keeping && !r.srcEOF && len(r.kept) < lim; {
		n := len(r.kept)
		want := min(lim-n, aheadChunk)
		if cap(r.kept)-n < want {
			r.growKept(n + want)
		}
		p := r.kept[n : n+want]
		k, err := r.src.Read(p)
		if k < 0 || k > len(p) {
			r.err = errBadCount
			return
		}
		r.kept = r.kept[:n+k]
		if k > 0 {
			empty = 0
			r.scan(p[:k])
		}
		switch {
		case err == io.EOF:
			r.srcEOF = true
		case err != nil:
			r.err = err
			return
		case k == 0:
			if empty++; empty == maxEmptyReads {
				r.err = io.ErrNoProgress
				return
			}
		}
	}
	r.ahead = false
	r.watch = r.keeping || r.scanning
	// buf[:r1] holds kept[:r1] (nothing, if a restart emptied buf).
	if len(r.kept) > r.r1 {
		r.replay = r.kept[r.r1:]
		r.eof = false
	} else {
		r.eof = r.srcEOF
	}
}

// change runs the standard's "change the encoding" steps for a change to
// e at stream offset at (the decoder has read the bytes before at, or will
// have when the change takes effect), where ascii reports that those bytes
// are all ASCII, and acts on the outcome.
func (r *Reader) change(e override.Encoding, at int64, ascii, late bool) ChangeResult {
	res := ChangeResult{From: r.enc, To: e, Offset: at, Late: late}
	if r.conf == sniff.Certain {
		res.Kind = IgnoredCertain
		return res
	}
	if r.enc.IsUTF16() {
		res.Kind = IgnoredUTF16
	} else {
		switch e {
		case override.UTF16BE, override.UTF16LE:
			e = override.UTF8
		case override.XUserDefined:
			e = override.Windows1252
		}
		res.To = e
		switch {
		case e == r.enc:
			res.Kind = SameEncoding
		case at == 0 || sameDecoder(r.enc, e) || ascii && r.enc.ASCIICompatible() && e.ASCIICompatible():
			res.Kind = SwitchedOnTheFly
		default:
			res.Kind = RestartNeeded
		}
	}
	r.conf = sniff.Certain
	r.chg = res
	r.scanning = false
	r.pendAt, r.pendDecided = -1, false
	r.d.track = false
	switch res.Kind {
	case SwitchedOnTheFly:
		// The decode loop switches once the decoder is at at.
		r.enc = e
		r.pendAt, r.pendEnc, r.pendDecided = at, e, true
	case RestartNeeded:
		// Restart unasked only while nothing has been handed out (and
		// the output buffer is empty, as a ReadRune may be filling it).
		if r.keeping && !r.delivered && r.o0 == r.o1 {
			r.restart(e)
			return r.chg
		}
	}
	if res.Kind != RestartNeeded {
		r.keeping = false
	}
	r.watch = r.keeping || r.scanning
	return res
}

// sameDecoder reports whether a and b have the same decoder: the same
// encoding, or GBK and gb18030 (the Encoding Standard's GBK decoder is
// gb18030's).
func sameDecoder(a, b override.Encoding) bool {
	return a == b ||
		a == override.GBK && b == override.GB18030 ||
		a == override.GB18030 && b == override.GBK
}

// arrive is called by the decode loop when the decoder has read the bytes
// before pendAt and its stage is empty: it switches on the fly, or decides
// a change a late <meta> asked for.
func (r *Reader) arrive() {
	e, at, decided := r.pendEnc, r.pendAt, r.pendDecided
	r.pendAt, r.pendDecided = -1, false
	if decided {
		r.d.switchTo(e)
		return
	}
	r.change(e, at, !r.d.high, true)
}

// restart makes r decode from the start of the stream again, in e, with
// confidence certain: fill replays kept, then reads on from the source.
// It leaves the output buffer alone (the caller empties it if it may).
func (r *Reader) restart(e override.Encoding) {
	r.replay = r.kept
	if len(r.replay) == 0 {
		r.replay = nil
	}
	r.keeping, r.scanning, r.watch = false, false, false
	if r.err != nil {
		r.pendErr, r.err = r.err, nil
	}
	r.eof = r.srcEOF && r.replay == nil
	if r.replay == nil {
		r.err, r.pendErr = r.pendErr, nil
	}
	r.r0, r.r1, r.pos = 0, 0, 0
	r.pendAt, r.pendDecided = -1, false
	r.d.setEncoding(e)
	r.d.track = false
	r.enc, r.conf = e, sniff.Certain
	r.chg.Kind, r.chg.To = Restarted, e
	r.delivered = false
}

// lateLimit is the WithLateMeta limit as an int (0: off).
func (c *config) lateLimit() int { return int(min(c.lateMeta, math.MaxInt)) }

// maxKept is the most raw bytes a Reader keeps for a restart under c: the
// WithRestartBuffer limit, or the late-meta limit if WithAutoRestart reads
// that far ahead.
func (c *config) maxKept() int {
	if c.autoRestart && c.lateMeta > 0 {
		return max(c.restartBuffer, c.lateLimit())
	}
	return c.restartBuffer
}
