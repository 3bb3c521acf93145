package decode

import (
	"bytes"
	"math"
	"sync"

	"github.com/charsniff/charsniff/internal/autodetect"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

// The look-ahead past the window (WithLookahead), and changing the
// encoding while parsing
// (https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing).
//
// While the encoding is tentative, fill feeds the raw bytes it reads from
// the source, from byte 0, to a resumable <meta> scan (each byte once)
// that sees the markup as the parser's tokenizer and tree builder do
// (prescan.Options.Tokenizer): it finds the first <meta> start tag the
// parser meets, not one in a script, a style, a title or another element's
// raw text, a CDATA section of SVG or MathML, or a frameset. If the window's prescan chose the encoding from a <meta>, the
// scan runs too, since that <meta> may be one the parser never meets: if
// the scan's first <meta> is the prescan's own, nothing changes; if
// another comes first, it is acted on as any late <meta>. A <meta> it
// finds becomes a change waiting at the offset just past its >: the decoder
// decodes up to there, and the change is made there. The decoder also
// stops at the first non-ASCII byte while a <meta> or late autodetection
// may still decide (late autodetection is open when the window gave the
// detector no evidence or too little, see detectLate): hold then reads
// ahead into late.held, decides, and
// hands the held bytes back to fill (late.replay). Everything decoded
// before that byte is ASCII, which every ASCII-compatible encoding decodes
// alike, so the decision is a switch of the decoder at that byte.
//
// ISO-2022-JP and the replacement encoding are not ASCII-compatible: the
// first decodes ESC, SO and SI otherwise (so stop counts those three in
// the ASCII it passes, lookahead.ctl), the second decodes any input to
// one U+FFFD. A switch to ISO-2022-JP after ASCII without them is still
// one on the fly. Otherwise
// a browser reloads the page; the Reader does the same when the <meta> is
// in the window, found before it has decoded a byte (restartInWindow): it
// starts the decoder over in the new encoding on the window in buf. Past
// the window it has handed out the text before the <meta> (or before the
// byte where it held its output): it keeps the encoding in use
// (RestartNeeded).

// Result is a Reader's decision: the sniffing algorithm's result, as later
// changed by a late <meta>, late autodetection or [Reader.ChangeEncoding],
// and what changed after the window.
type Result struct {
	// Result is the final encoding, its confidence and the step that
	// chose it: SourcePrescan (certain) after a late <meta>,
	// SourceAutodetect (tentative) after late autodetection (also when
	// the window's guess rested on too little evidence and the text after
	// it decided: Late then says from what to what, unless the text
	// confirmed the guess). Certain
	// after a late <meta> means that the parser met a <meta> start tag
	// and ran "change the encoding": no later <meta> counts, and Late
	// says where it was and what it did (a switch, the same encoding, a
	// restart as a browser's reload, or one the Reader could not make).
	// After a restart the encoding is the <meta>'s. The window's prescan
	// alone leaves the confidence tentative, also when the parser meets
	// that very <meta> (a browser would make it certain there).
	sniff.Result
	// Late is the first change of encoding after the window; its Kind is
	// NoChange if there was none.
	Late Change
	// Decided reports that the Reader's own look-ahead is over, so that
	// the Result no longer changes unless [Reader.ChangeEncoding] is
	// called: the encoding is certain, the look-ahead is off, or the
	// bytes read so far decided. [Reader.Settle] reads until it is true,
	// which reads only as far as the decision needs: nothing past the
	// window when it decided, up to the lookahead past the first non-ASCII
	// byte otherwise (less once the detector has seen enough text:
	// enough non-ASCII bytes for its guess), the whole input only while
	// it is all ASCII and late autodetection is open.
	Decided bool
}

// ChangeKind is the outcome of a change of encoding while parsing.
type ChangeKind uint8

const (
	// NoChange: nothing changed: no change of encoding was asked for,
	// the encoding asked for is not valid, or the confidence was already
	// certain (the standard does not run the steps then; the Reader
	// answers a caller that asks anyway, and does not record it in
	// Result.Late).
	NoChange ChangeKind = iota
	// SwitchedOnTheFly: every byte decoded before the change means the
	// same in both encodings (all of them ASCII, or none), so the decoder
	// changed in place: the bytes before Offset are decoded in From, the
	// rest in To.
	SwitchedOnTheFly
	// RestartNeeded: bytes already decoded may mean something else in To,
	// so only decoding the document again from its start would honour To.
	// The Reader cannot once it has handed out text of those bytes (it
	// keeps no raw bytes it has decoded, and what it handed out stays
	// handed out): it goes on in From, certain, as a browser that cannot
	// reload does, and the whole output is From's. A late <meta> past
	// the window gets this answer when it names the replacement encoding
	// or ISO-2022-JP after an ESC, SO or SI byte (see [Restarted] for one
	// in the window). A caller with the raw bytes may decode again with
	// WithEncoding(To).
	RestartNeeded
	// SameEncoding: the encoding in use stays and the confidence becomes
	// certain (steps 1 and 4 of "change the encoding"): To is From,
	// because it is the encoding asked for (after UTF-16 became UTF-8 and
	// x-user-defined windows-1252), or because it is UTF-16BE or
	// UTF-16LE, which no <meta> can change.
	SameEncoding
	// Restarted: as RestartNeeded, the bytes before the change (Offset,
	// the end of the <meta>) would mean something else in To, but the
	// Reader had decoded none of them yet, so it did what a browser's
	// reload does: it decodes the input again from its first byte in To
	// (a byte order mark of To dealt with as at the start) and hands out
	// only that text. A Reader restarts for a <meta> its look-ahead finds
	// in the window that is not the one the window's prescan chose, and
	// that names ISO-2022-JP (after a byte it decodes otherwise: ESC, SO,
	// SI or a non-ASCII byte) or the replacement encoding; past the
	// window it has handed out text already and reports RestartNeeded.
	Restarted
)

var changeKindNames = [...]string{
	NoChange:         "none",
	SwitchedOnTheFly: "switched",
	RestartNeeded:    "restart-needed",
	SameEncoding:     "same",
	Restarted:        "restarted",
}

// String returns "none", "switched", "restart-needed", "same" or
// "restarted".
func (k ChangeKind) String() string {
	if int(k) < len(changeKindNames) {
		return changeKindNames[k]
	}
	return "unknown"
}

// Change describes a change of encoding after the window.
type Change struct {
	// Kind is what happened.
	Kind ChangeKind
	// From is the encoding in use when the change was asked for; To is the
	// encoding asked for, after UTF-16 became UTF-8 and x-user-defined
	// windows-1252 (From itself for SameEncoding; as asked for NoChange).
	From, To override.Encoding
	// Offset is the raw stream offset from which the bytes are decoded in
	// To (for SwitchedOnTheFly), or at which the change was asked for.
	Offset int64
}

// lookahead is the state of a Reader past the window while the encoding
// is tentative. Its zero value watches nothing (pendAt aside, which start
// sets to -1).
type lookahead struct {
	// scan is the resumable <meta> scan; made when the window does not
	// end it, kept by Reset.
	scan *prescan.Scanner
	// scanning: scan runs over the raw bytes fill reads: it has found no
	// <meta> yet and not passed its limit (window + lookahead).
	scanning bool
	// detecting: late autodetection is open: the sniffing fell to the
	// default (the detector saw no evidence) or to a provisional guess
	// (too little evidence, see detectLate), and nothing decided since.
	detecting bool
	// A change waits for the decoder at stream offset pendAt (-1 for
	// none): a late <meta> naming pendEnc to act on there (pendMeta), or
	// a decided switch to pendEnc.
	pendEnc  override.Encoding
	pendMeta bool
	// ctl locates the first ESC, SO or SI byte (0x1B, 0x0E, 0x0F), the
	// ASCII bytes the ISO-2022-JP decoder decodes otherwise (see noCtl),
	// in the ASCII prefix stop finds (before clean) while a <meta> may
	// decide: its stream offset if there is one, else -1-n where the
	// first n bytes hold none (n at most math.MaxInt32: past 2 GiB
	// nothing is known). Only the bytes before the first non-ASCII byte
	// count, as every decision of the look-ahead is made there or
	// earlier, so a page with non-ASCII text early costs almost nothing.
	// An int32 in the word the flags above share keeps the Reader within
	// 512 bytes.
	ctl    int32
	pendAt int64
	// clean is a stream offset before which every raw byte is ASCII.
	// While open, the decoder stops at clean when a non-ASCII byte lies
	// there (clean < Reader.pos), for hold.
	clean int64
	// held holds the raw bytes hold read ahead, from the first non-ASCII
	// byte on: at most the lookahead (or the input buffer's worth, if
	// larger). Its array comes from heldPool and goes back there once
	// replayed; heldp is the pool's handle on it, nil for a new array.
	held  []byte
	heldp *[]byte
	// replay is the part of held fill has not taken back into buf yet.
	// pendErr is a source error met while reading ahead, which fill hands
	// on once replay is empty.
	replay  []byte
	pendErr error
	// preEnd is the stream offset just past the > of the <meta> the
	// window's prescan chose the encoding from (Source SourcePrescan),
	// or -1.
	preEnd int64
	// auto ran the window's autodetection step (windowStep) and runs
	// late autodetection from where it stopped, so that the detector
	// scores the window's bytes once; it holds state from its pools only
	// while detecting.
	auto autodetect.Autodetector
}

// windowStep is the built-in autodetection step of the window's sniffing,
// run by late.auto: start makes it the Options.Detector of that one Sniff
// (a Reader converts to it without allocating), so that late
// autodetection goes on from where the window's step stopped.
type windowStep Reader

// Detect answers as the built-in detector's step of the sniffing
// algorithm (autodetect.Autodetector.Window).
func (w *windowStep) Detect(prefix []byte) (override.Encoding, bool) {
	o := &w.cfg.sniff
	return w.late.auto.Window(prefix, &autodetect.Config{Locale: o.Locale, TLD: o.TLD, All: o.DetectAll}, o.AtEOF)
}

// heldPool holds the arrays of lookahead.held between holds.
var heldPool sync.Pool

// maxPooled is the largest held array kept in heldPool.
const maxPooled = 4 * defaultLookahead

// takeHeld gives l.held an empty array from the pool, if it has none.
func (l *lookahead) takeHeld() {
	if l.held == nil {
		if p, ok := heldPool.Get().(*[]byte); ok {
			l.heldp, l.held = p, (*p)[:0]
		}
	}
}

// dropHeld hands l.held's array back to the pool.
func (l *lookahead) dropHeld() {
	if c := cap(l.held); c > 0 && c <= maxPooled {
		if l.heldp == nil {
			l.heldp = new([]byte)
		}
		*l.heldp = l.held[:0]
		heldPool.Put(l.heldp)
	}
	l.held, l.heldp = nil, nil
}

// noteCtl counts p, the bytes from stream offset off, into l.ctl if they
// follow those counted: three IndexByte calls, until one finds a byte.
func (l *lookahead) noteCtl(p []byte, off int64) {
	seen := -1 - int64(l.ctl)
	if l.ctl >= 0 || off != seen || len(p) == 0 {
		return
	}
	switch i := indexCtl(p); {
	case i >= 0 && seen+int64(i) <= math.MaxInt32:
		l.ctl = int32(seen + int64(i))
	case i >= 0:
		l.ctl = math.MinInt32 // none among the first MaxInt32 bytes
	default:
		l.ctl = int32(-1 - min(seen+int64(len(p)), math.MaxInt32))
	}
}

// indexCtl returns the index of the first ESC, SO or SI byte in p, or -1.
func indexCtl(p []byte) int {
	i := bytes.IndexByte(p, 0x1B)
	for _, c := range [...]byte{0x0E, 0x0F} {
		if j := bytes.IndexByte(p, c); j >= 0 && (i < 0 || j < i) {
			i = j
		}
	}
	return i
}

// noCtl reports whether the bytes before stream offset at are known to
// hold no ESC, SO or SI byte: the ISO-2022-JP decoder decodes every other
// ASCII byte as ASCII from its initial state, and stays in that state.
func (l *lookahead) noCtl(at int64) bool {
	if l.ctl >= 0 {
		return at <= int64(l.ctl)
	}
	return at <= -1-int64(l.ctl)
}

// open reports whether the decoder must stop at the first non-ASCII byte:
// a <meta> (found, or still looked for) or late autodetection may decide.
func (l *lookahead) open() bool { return l.scanning || l.detecting || l.pendMeta }

// aheadChunk is the most hold asks the source for at once, minRead the
// least room it grows held to before a read.
const (
	aheadChunk = 32 << 10
	minRead    = 4 << 10
)

// detectFirst is the number of bytes hold first gives late autodetection;
// it doubles them until the detector's answer is sure. Asking again costs
// a Guess (the detector is fed only the new bytes), and none where too few
// non-ASCII bytes make a sure answer impossible
// (autodetect.Autodetector.CanBeSure), so starting small
// stops reading and scoring as soon as the evidence suffices. The held
// prefixes the window covered were asked already (the detector goes on
// from the window): the first is the first doubling past them.
const detectFirst = 256

// startLate sets up the look-ahead once sniffing has decided, with the
// window in buf[:r1].
func (r *Reader) startLate() {
	l := &r.late
	l.scanning, l.detecting, l.clean = false, false, 0
	l.pendAt, l.pendEnc, l.pendMeta = -1, override.Unknown, false
	l.ctl = -1
	tentative := r.res.Confidence == sniff.Tentative
	r.d.track = tentative
	n := r.cfg.ahead()
	atEOF := false // the window is the whole input, and its guess provisional
	if tentative && n > 0 && r.res.Encoding.ASCIICompatible() {
		l.detecting = r.detectLate()
		atEOF = r.srcEOF && r.provisional()
		if l.detecting && !l.auto.Active() {
			// A caller's Detector, which the window's Sniff asked
			// itself: late autodetection asks it over the held bytes.
			o := &r.cfg.sniff
			l.auto.Reset(&autodetect.Config{Detector: o.Detector, Locale: o.Locale, TLD: o.TLD, All: o.DetectAll})
		}
	}
	// Deferred, these run last in reverse: the guess at EOF after the
	// window's <meta> scan (a <meta> first, as in hold), then Release.
	if !l.detecting {
		defer l.auto.Release()
	}
	if atEOF {
		defer r.guessAtEOF()
	}
	if !tentative || n == 0 || !r.res.Encoding.ASCIICompatible() {
		return
	}
	l.preEnd = -1
	if r.res.Source == sniff.SourcePrescan {
		if prescan.ParsedAlike(r.buf[:r.res.End]) {
			// The parser's first <meta> is the prescan's: nothing to
			// scan for.
			return
		}
		l.preEnd = int64(r.res.End)
	}
	// The scan sees the markup as the parser's tokenizer does, from byte
	// 0: the window's prescan may have found a <meta> the parser never
	// meets (in a script, say) or missed one it meets, and the first
	// <meta> start tag the parser meets is the one that counts (see
	// scanMeta).
	// Most windows end it (the prescan's <meta> is the parser's), so it
	// starts on the stack and moves to l.scan only to go on.
	var s prescan.Scanner
	s.Reset(&prescan.Options{Window: r.cfg.window() + n, Legacy: r.cfg.sniff.Legacy, Tokenizer: true})
	l.scanning = true
	if r.r1 > 0 {
		// The window: sniffing's prescan was a one-shot one.
		r.metaFound(s.Feed(r.buf[:r.r1]))
		if l.pendMeta {
			r.restartInWindow()
		}
	}
	switch {
	case r.srcEOF:
		// The window holds the whole input.
		l.scanning = false
	case l.scanning:
		if l.scan == nil {
			l.scan = new(prescan.Scanner)
		}
		*l.scan = s
	}
}

// detectLate reports whether late autodetection opens after the window:
// the sniffing fell to the default (the detector saw no evidence in the
// window), or its autodetected guess is provisional
// (autodetect.Autodetector.Provisional: a statistical guess from a few
// non-ASCII bytes, with more input to come).
// The window's guess then stays the answer until hold decides on more
// bytes.
func (r *Reader) detectLate() bool {
	switch {
	case r.cfg.sniff.NoAutodetect:
		return false
	case r.res.Source == sniff.SourceDefault:
		return true
	}
	return !r.srcEOF && r.provisional()
}

// provisional reports whether the window's answer is a provisional guess
// of the built-in detector (autodetect.Autodetector.Provisional).
func (r *Reader) provisional() bool {
	return r.res.Source == sniff.SourceAutodetect && r.late.auto.Provisional()
}

// guessAtEOF acts when the source said EOF with the window's last bytes
// and the window's guess is provisional: the window is the whole input,
// which the guess did not know (the window is never read past to learn
// it). It asks again knowing it and settles as hold does when the EOF
// comes on the next read, a <meta> first.
func (r *Reader) guessAtEOF() {
	if r.late.pendMeta || r.res.Confidence == sniff.Certain {
		// A <meta> first (certain if the Reader restarted for it).
		return
	}
	i := indexHigh(r.buf[:r.r1]) // a guess rests on a non-ASCII byte
	det, found := r.late.auto.Detect(r.buf[:r.r1], true)
	r.settleLate(det, found, true, r.offset(i))
}

// scanMeta feeds p, the next raw bytes of the stream, to the <meta> scan.
func (r *Reader) scanMeta(p []byte) { r.metaFound(r.late.scan.Feed(p)) }

// metaFound acts on the <meta> scan's answer res, if final.
func (r *Reader) metaFound(res prescan.Result, final bool) {
	l := &r.late
	if !final {
		return
	}
	l.scanning = false
	if res.Rule != prescan.Meta || l.pendAt >= 0 {
		return
	}
	if int64(res.Offset) == l.preEnd {
		// The parser meets the <meta> the window's prescan found first:
		// a browser's confidence becomes certain there and nothing else
		// changes. The Reader keeps the sniffing's answer, as for a
		// window alone. (Another <meta> first, even one naming the same
		// encoding, makes a change, as ChangeEncoding says.)
		return
	}
	l.pendAt, l.pendEnc, l.pendMeta = int64(res.Offset), res.Encoding, true
}

// stop returns the stream offset the decoder must stop at, or -1: a
// pending change, or the first non-ASCII byte while the look-ahead is open.
func (r *Reader) stop() int64 {
	l := &r.late
	at := l.pendAt
	if !l.open() {
		return at
	}
	if l.clean < r.pos {
		i := max(r.r0, int(l.clean-r.offset(0)))
		k := indexHigh(r.buf[i:r.r1])
		if k < 0 {
			k = r.r1 - i
		}
		if l.scanning || l.pendMeta {
			// A <meta> may decide at clean or before: count the ASCII.
			l.noteCtl(r.buf[i:i+k], r.offset(i))
		}
		l.clean = r.offset(i + k)
	}
	if l.clean < r.pos && (at < 0 || l.clean < at) {
		at = l.clean
	}
	return at
}

// reach acts when the decoder has decoded the bytes before stream offset
// at, a stop, and its stage is empty.
func (r *Reader) reach(at int64) {
	l := &r.late
	if l.pendAt >= 0 && at >= l.pendAt {
		e, meta := l.pendEnc, l.pendMeta
		l.pendAt, l.pendMeta = -1, false
		if meta {
			r.lateMeta(e, at, true)
		} else {
			r.d.switchTo(e)
		}
		return
	}
	r.hold()
}

// hold is called with the decoder at the first non-ASCII byte, buf[r0],
// while a <meta> or late autodetection may still decide. It moves
// buf[r0:r1] into held and reads ahead until neither can decide any more,
// the lookahead is used up, or the source ends or fails; then it decides
// and leaves the held bytes to fill. A source error ends the reading ahead
// early: the decision is made on what was read, and the error comes after
// the held bytes' text.
//
// What decides depends on the bytes, not on how the source splits them:
// a <meta> counts if it ends within the lookahead from the hold, and the
// detector sees fixed prefixes of the held bytes (detectFirst bytes,
// doubled while its answer is not sure, then all of them up to the
// lookahead). An answer is sure (autodetect.Autodetector.Sure) when it follows
// from structure or rests on autodetect.EnoughEvidence non-ASCII bytes: a few
// accented letters or CJK symbols do not decide while more text may
// follow.
func (r *Reader) hold() {
	l := &r.late
	at := r.offset(r.r0)
	n := r.cfg.ahead()
	lim := max(n, r.r1-r.r0)
	l.takeHeld()
	l.held = append(l.held[:0], r.buf[r.r0:r.r1]...)
	r.pos -= int64(r.r1 - r.r0)
	r.r1 = r.r0
	r.eof = false
	var det override.Encoding
	found, sure := false, false // det is an answer; it is final
	asked := false              // found and det are a Detect's, not the window's
	// auto is late autodetection, over growing prefixes of held. The
	// window's step reached it (detectLate), and its built-in detector
	// goes on from the window's last byte: the held prefixes up to there
	// were asked, without a final answer.
	auto := &l.auto
	tried := 0 // the longest prefix detected on without a final answer
	if l.detecting {
		defer auto.Release()
		tried = auto.Drop(int(at))
	}
	next := min(detectFirst, n) // the next prefix of held to detect on
	for next <= tried && next < n {
		next *= 2
	}
	for {
		if l.detecting && !sure {
			for next <= len(l.held) && next < n && !sure {
				if !auto.CanBeSure(l.held[:next]) {
					// Too little evidence to decide: no guess.
					next *= 2
					continue
				}
				det, found = auto.Detect(l.held[:next], false)
				asked = true
				if sure = found && auto.Sure(); !sure {
					tried, next = next, 2*next
				}
			}
		}
		if !(l.scanning || l.detecting && !sure) || r.srcEOF || r.err != nil || len(l.held) >= lim {
			break
		}
		k := len(l.held)
		if cap(l.held)-k < minRead && cap(l.held) < lim {
			l.grow(k+minRead, lim)
		}
		m, _ := r.read(l.held[k : k+min(lim-k, cap(l.held)-k, aheadChunk)])
		l.held = l.held[:k+m]
	}
	// Past here a <meta> would contradict text handed out: stop looking.
	l.scanning = false
	switch {
	case l.pendAt >= 0 && l.pendMeta && l.pendAt-at <= int64(n):
		e := l.pendEnc
		l.pendAt, l.pendMeta = -1, false
		r.lateMeta(e, at, true)
	case l.detecting:
		l.pendAt, l.pendMeta = -1, false
		if h := l.held[:min(len(l.held), n)]; !sure {
			// The longest prefix, and whether it is the whole input: the
			// window's own guess was made not knowing it was.
			if atEOF := r.srcEOF && r.err == nil && len(h) == len(l.held); tried < len(h) || atEOF {
				det, found = auto.Detect(h, atEOF)
				asked = true
			}
		}
		r.settleLate(det, found, asked, at)
	default:
		l.pendAt, l.pendMeta = -1, false
	}
	l.detecting = false
	if r.err != nil {
		l.pendErr, r.err = r.err, nil
	}
	l.replay = l.held
}

// grow makes room in held for n bytes in all, doubling, within lim.
func (l *lookahead) grow(n, lim int) {
	c := min(max(2*cap(l.held), n, 8<<10), lim)
	h := make([]byte, len(l.held), c)
	copy(h, l.held)
	l.held = h
}

// lateMeta acts on a late <meta> naming e, with the decoder at stream
// offset at, where ascii reports that every byte before it is ASCII (it
// is unless the decoder is at byte 0 and restarts, see restartInWindow).
func (r *Reader) lateMeta(e override.Encoding, at int64, ascii bool) {
	if c := r.change(e, at, ascii); c.Kind != NoChange {
		r.res.Source, r.res.End = sniff.SourcePrescan, 0 // Late.Offset says where
	}
}

// settleLate acts on late autodetection's last answer, det if found;
// asked reports that there was one (else the window's guess stands), at
// is the stream offset of the first non-ASCII byte, where the decoder
// waits.
func (r *Reader) settleLate(det override.Encoding, found, asked bool, at int64) {
	switch {
	case found:
		r.lateDetect(det, at, sniff.SourceAutodetect)
	case asked && r.res.Source == sniff.SourceAutodetect:
		// The window's guess does not hold: with the bytes after it, or
		// knowing the input ends there, the detector finds no evidence
		// (the start of a UTF-8 character ends the window, and the input
		// ends inside it). The sniffing algorithm answers its default.
		r.lateDetect(r.defaultEncoding(), at, sniff.SourceDefault)
	}
}

// lateDetect acts on late autodetection's answer e, the step src's
// (autodetection, or the default where the detector found no evidence
// after all), with the decoder at stream offset at and every byte before
// it ASCII. The confidence stays tentative.
func (r *Reader) lateDetect(e override.Encoding, at int64, src sniff.Source) {
	if e == r.res.Encoding && r.res.Source == src {
		// More bytes confirm the window's guess: nothing changes.
		return
	}
	c := Change{From: r.res.Encoding, To: e, Offset: at}
	switch {
	case e == r.res.Encoding:
		c.Kind = SameEncoding
	case at == 0 || e.ASCIICompatible():
		c.Kind = SwitchedOnTheFly
		r.res.Encoding = e
		r.late.pendAt, r.late.pendEnc, r.late.pendMeta = at, e, false
	default:
		// An encoding that would decode the ASCII before at otherwise.
		return
	}
	r.res.Source, r.res.End = src, 0
	if r.res.Late.Kind == NoChange {
		r.res.Late = c
	}
}

// defaultEncoding returns the encoding of the sniffing algorithm's last
// step, the default, for the Reader's options.
func (r *Reader) defaultEncoding() override.Encoding {
	o := &r.cfg.sniff
	off := o.NoAutodetect
	o.NoAutodetect = true // in place, as start sets AtEOF
	res := sniff.Sniff(nil, o)
	o.NoAutodetect = off
	return res.Encoding
}

// decided reports whether the look-ahead is over ([Result.Decided]).
func (r *Reader) decided() bool { return !r.late.open() }

// ChangeEncoding runs the HTML Standard's "change the encoding" steps, as
// the parser does when it meets a <meta> declaring e while the confidence
// is tentative. A Reader does it by itself for the <meta> its look-ahead
// finds ([WithLookahead]); a caller with its own parser may call it too.
// The steps:
//
//  1. If the encoding in use is UTF-16BE or UTF-16LE, the confidence
//     becomes certain and nothing else changes ([SameEncoding]).
//  2. UTF-16BE or UTF-16LE asked for becomes UTF-8.
//  3. x-user-defined asked for becomes windows-1252.
//  4. If that is the encoding in use, the confidence becomes certain
//     ([SameEncoding]).
//  5. If every byte decoded so far means the same in both encodings, the
//     decoder changes on the fly ([SwitchedOnTheFly]): the bytes read
//     from now on, including those read from the source but not decoded
//     yet, are decoded in the new encoding.
//  6. Otherwise the document would have to be decoded again, as a
//     browser reloads it; the Reader goes on in the old encoding
//     ([RestartNeeded]). (Its own look-ahead reloads, [Restarted], for
//     a <meta> in the window, which it finds before it decodes a byte.)
//
// "Means the same" holds when nothing has been decoded; when all the
// bytes decoded are ASCII and both encodings are ASCII-compatible
// ([override.Encoding.ASCIICompatible]: not UTF-16, ISO-2022-JP or
// replacement); when they are ASCII but ESC, SO and SI and the new
// encoding is ISO-2022-JP, as far as the Reader has looked (it counts
// those three bytes in the ASCII it decodes while its look-ahead may
// still find a <meta>; a call past that, or with the look-ahead off,
// counts as step 6); and between GBK and gb18030, which share one
// decoder. The replacement encoding, which decodes any input to one
// U+FFFD, means the same as nothing else. If the confidence is already
// certain, or e is not valid, nothing changes ([NoChange]). The first
// change is reported in [Reader.Result]'s Late. ChangeEncoding does not
// allocate, except for the decoder of a multi-byte encoding the Reader
// has not used yet.
func (r *Reader) ChangeEncoding(e override.Encoding) Change {
	at := r.offset(r.r0)
	if !e.Valid() {
		return Change{From: r.res.Encoding, To: e, Offset: at}
	}
	return r.change(e, at, !r.d.high)
}

// change runs the "change the encoding" steps for a change to e at stream
// offset at (the decoder has read the bytes before at, or will have when
// the change takes effect), where ascii reports that those bytes are all
// ASCII, and acts on the outcome. A change that needs a restart restarts
// if the decoder has read nothing yet (see unread).
func (r *Reader) change(e override.Encoding, at int64, ascii bool) Change {
	c := Change{From: r.res.Encoding, To: e, Offset: at}
	if r.res.Confidence == sniff.Certain {
		return c // NoChange
	}
	c.Kind, c.To = r.changeKind(e, at, ascii, r.late.noCtl(at))
	if c.Kind == RestartNeeded && r.unread() {
		c.Kind = Restarted
	}
	l := &r.late
	r.res.Confidence = sniff.Certain
	if r.res.Late.Kind == NoChange {
		r.res.Late = c
	}
	l.scanning, l.detecting = false, false
	l.pendAt, l.pendMeta = -1, false
	r.d.track = false
	switch c.Kind {
	case SwitchedOnTheFly:
		// The decode loop switches once the decoder is at at.
		r.res.Encoding = c.To
		l.pendAt, l.pendEnc = at, c.To
	case Restarted:
		// A reload: the decoder starts over on buf, which holds the
		// stream from byte 0, with To's byte order mark to look for.
		r.res.Encoding = c.To
		r.d.setEncoding(c.To)
	}
	return c
}

// changeKind returns the outcome of the "change the encoding" steps
// (see [Reader.ChangeEncoding]) for a change to e at stream offset at,
// where ascii reports that the bytes before at are all ASCII and noCtl
// that they hold no ESC, SO or SI, and the encoding changed to:
// SameEncoding, SwitchedOnTheFly or RestartNeeded.
func (r *Reader) changeKind(e override.Encoding, at int64, ascii, noCtl bool) (ChangeKind, override.Encoding) {
	from := r.res.Encoding
	if from.IsUTF16() {
		return SameEncoding, from
	}
	switch e {
	case override.UTF16BE, override.UTF16LE:
		e = override.UTF8
	case override.XUserDefined:
		e = override.Windows1252
	}
	// The bytes before at mean the same in both encodings: none; those
	// of one decoder; ASCII in two ASCII-compatible ones; or ASCII but
	// ESC, SO and SI, which the ISO-2022-JP decoder decodes as ASCII from
	// its initial state (stop counts those three, lookahead.ctl).
	switch same := ascii && from.ASCIICompatible(); {
	case e == from:
		return SameEncoding, e
	case at == 0 || sameDecoder(from, e),
		same && e.ASCIICompatible(),
		same && e == override.ISO2022JP && noCtl:
		return SwitchedOnTheFly, e
	}
	return RestartNeeded, e
}

// unread reports whether the decoder has read nothing of the stream yet
// and buf holds it from byte 0, as before the first Read: a restart then
// loses nothing.
func (r *Reader) unread() bool {
	return r.r0 == 0 && r.offset(0) == 0 && r.d.s0 == r.d.s1 && r.o0 == r.o1
}

// restartInWindow acts at once on a late <meta> the scan found in the
// window, before the decoder has read a byte, if the bytes before it
// would mean something else in its encoding (a browser reloads the page
// there): the Reader restarts ([Restarted]). Any other outcome waits, as
// for a <meta> past the window, for the decoder to reach it (or the first
// non-ASCII byte before it, where the Reader holds its output), since the
// bytes before there mean the same in both encodings.
func (r *Reader) restartInWindow() {
	l := &r.late
	at, e := l.pendAt, l.pendEnc
	ascii := indexHigh(r.buf[:at]) < 0
	// An ASCII-compatible encoding switches at the first non-ASCII byte,
	// where the Reader holds its output, alike.
	k, to := r.changeKind(e, at, ascii, indexCtl(r.buf[:at]) < 0)
	if k != RestartNeeded || to.ASCIICompatible() || !r.unread() {
		return
	}
	if l.detecting {
		l.auto.Release() // startLate leaves it to hold
	}
	r.lateMeta(e, at, ascii)
}

// sameDecoder reports whether a and b have the same decoder: the same
// encoding, or GBK and gb18030 (the Encoding Standard's GBK decoder is
// gb18030's).
func sameDecoder(a, b override.Encoding) bool {
	return a == b ||
		a == override.GBK && b == override.GB18030 ||
		a == override.GB18030 && b == override.GBK
}
