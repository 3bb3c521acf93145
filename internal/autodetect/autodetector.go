package autodetect

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"sync"

	"github.com/charsniff/charsniff/override"
)

// Config is what the autodetection step reads of sniff.Options (the rest
// of them is the other steps').
type Config struct {
	// Detector is Options.Detector: a caller's detector, asked with the
	// whole prefix; nil for the built-in one.
	Detector interface {
		Detect(prefix []byte) (override.Encoding, bool)
	}
	Locale, TLD string // Options.Locale and Options.TLD: the built-in detector's hint (HintOf)
	Off         bool   // Options.NoAutodetect: no answer
	All         bool   // Options.DetectAll: the wide detector
}

// An Autodetector runs the autodetection step of sniff.Sniff alone (the
// Config's Detector, else the built-in detector hinted by Locale and TLD;
// nothing with Off) over a prefix that grows, as a reader looking past the
// window sees it: package decode uses it to detect late, over bytes the
// window did not hold. Each call's prefix must extend the
// previous call's (the same bytes, and more or as many), and a call with
// atEOF must be the last. Its answers are those of the step for each
// prefix. The built-in detector is fed only the bytes it has not seen
// (its guess does not depend on how its input is cut), so asking at each
// doubling of a prefix costs about as much as asking once over the
// longest; a caller's Config.Detector is asked with the whole prefix each
// time. Call Reset before the first use and Release after the last. An
// Autodetector does not allocate.
type Autodetector struct {
	s *autoState // from autoStates between Reset and Release
}

// autoState is an Autodetector's state, pooled, so that an Autodetector
// is one word in the Reader that holds it and costs nothing until a
// sniffing reaches autodetection.
type autoState struct {
	c Config

	d       *Detector // the built-in detector, from the pool once needed
	fed     int       // bytes of the prefix fed to d
	last    bool      // d was fed the end of the input
	sure    bool      // the last Detect's answer is final (see Sure)
	guessed bool      // the last answer is d's statistical guess (see Provisional)
	nulEsc  bool      // d was fed a NUL or an ESC byte (see CanBeSure)
}

// autoStates pools the states of Autodetectors.
var autoStates = sync.Pool{New: func() any { return new(autoState) }}

// Reset makes a ready to detect over a new input with c (nil means the
// zero Config: the built-in detector, no hint).
func (a *Autodetector) Reset(c *Config) {
	a.Release()
	a.s = autoStates.Get().(*autoState)
	*a.s = autoState{}
	if c != nil {
		a.s.c = *c
	}
}

// Active reports whether a holds state: it was Reset (or ran a Window
// step that left something to go on from) and not Released since.
func (a *Autodetector) Active() bool { return a.s != nil }

// Release hands the built-in detector and a's state back to their pools.
// The Autodetector may be used again after Reset.
func (a *Autodetector) Release() {
	s := a.s
	if s == nil {
		return
	}
	if s.d != nil {
		detectors.Put(s.d)
	}
	*s = autoState{}
	autoStates.Put(s)
	a.s = nil
}

// Detect reports what the autodetection step of sniff.Sniff answers for
// prefix (false for no evidence), with atEOF saying whether prefix is the
// whole input (Options.AtEOF).
func (a *Autodetector) Detect(prefix []byte, atEOF bool) (override.Encoding, bool) {
	return a.detect(prefix, atEOF, false)
}

// Window runs the autodetection step of a sniffing over the window,
// prefix, with c and atEOF (Options.AtEOF): it releases a, then answers
// as Detect(prefix, atEOF) would after Reset(c). A reader that can look
// past prefix (package decode, which makes this its sniffing's step: its
// Options.Detector for that one Sniff) asks [Autodetector.Provisional]
// whether to, and goes on with Detect over longer prefixes of the same
// input: the built-in detector is fed only the bytes after prefix, so the
// window is not scored twice. A step that answers valid UTF-8 (never
// provisional) leaves a released, with nothing to go on from: weighing
// it for Sure would cost as much as the step. A sniffing decided before
// the step never calls Window, so a reader releases a before it sniffs.
// The answer is that of Sniff's own step (TestProvisional).
func (a *Autodetector) Window(prefix []byte, c *Config, atEOF bool) (override.Encoding, bool) {
	a.Release()
	if c.Detector != nil || c.Off {
		a.Reset(c)
		return a.detect(prefix, atEOF, false)
	}
	enc, ok, decided := quickDetect(prefix, atEOF)
	if decided && ok {
		return enc, true
	}
	a.Reset(c) // kept for late autodetection past an ASCII window, too
	if decided {
		return override.Unknown, false
	}
	return a.detect(prefix, atEOF, true)
}

// detect is Detect; quickDone reports that quickDetect did not decide
// prefix.
func (a *Autodetector) detect(prefix []byte, atEOF, quickDone bool) (override.Encoding, bool) {
	if a.s == nil {
		a.Reset(nil)
	}
	s := a.s
	s.sure, s.guessed = false, false
	if s.c.Off {
		return override.Unknown, false
	}
	var enc override.Encoding
	var ok, sure bool
	switch {
	case s.c.Detector != nil:
		enc, ok = s.c.Detector.Detect(prefix)
		sure = true // sniff cannot weigh a caller's evidence
	default:
		var decided bool
		if s.d == nil && !quickDone {
			// Structure alone decides most inputs (the detector, once
			// fed, would answer alike: TestQuickDetect).
			if enc, ok, decided = quickDetect(prefix, atEOF); decided {
				// Valid UTF-8: sure once it is more than a chance
				// arrangement of a few legacy bytes.
				n := EnoughEvidence(enc)
				sure = ok && countHigh(prefix, n) >= n
				break
			}
		}
		if s.d == nil {
			s.d = detectors.Get().(*Detector)
			s.d.All = s.c.All
			s.d.Reset()
			s.fed = 0
		}
		if s.last || len(prefix) < s.fed {
			// Not a longer prefix of the same input: start over.
			s.d.Reset()
			s.fed, s.last, s.nulEsc = 0, false, false
		}
		p := prefix[s.fed:]
		s.nulEsc = s.nulEsc || bytes.IndexByte(p, 0) >= 0 || bytes.IndexByte(p, 0x1B) >= 0
		s.d.Feed(p, atEOF)
		s.fed, s.last = len(prefix), atEOF
		var st Strength
		enc, st = s.d.Guess(HintOf(s.c.Locale, s.c.TLD))
		ok = st > NoEvidence
		sure = st == Structural && enc != override.UTF8 ||
			s.d.Evidence(enc) >= int64(EnoughEvidence(enc)) && !s.d.Candidate(Twin(enc))
		s.guessed = st == Statistical
	}
	if !ok || !enc.Valid() {
		return override.Unknown, false
	}
	s.sure = sure || atEOF
	return enc, true
}

// Provisional reports whether the last answer of Window or Detect is a
// guess of the built-in detector that rests on too little evidence: a
// statistical guess (not UTF-8, UTF-16 or ISO-2022-JP, which follow from
// structure) that is not [Autodetector.Sure]. A reader that can look
// past the prefix (package decode's look-ahead) then holds the text from
// the first non-ASCII byte on and asks Detect again on more bytes before
// it hands any out. Valid UTF-8 is not provisional however little of it
// there is: a window that holds whole UTF-8 characters is UTF-8, and a
// stray byte later is decoded as U+FFFD, not a reason to read the page
// as windows-1252 (past the window, Sure asks for more).
func (a *Autodetector) Provisional() bool { return a.s != nil && a.s.guessed && !a.s.sure }

// Drop tells a that the prefixes of its later Detect calls start n bytes
// further into the input than the earlier ones did: a reader that keeps
// only the input from some byte on (package decode holds it from the
// first non-ASCII byte after the window's ASCII) asks over what it kept.
// The built-in detector goes on from the bytes it has seen, so its
// answers stay those for the input from its start, provided the dropped
// bytes were all fed to it (a Detect or Window over a prefix at least n
// long). Otherwise, and for a caller's Config.Detector, the dropped
// bytes are forgotten: the answers are those for the kept input alone.
// Drop returns how many bytes of the kept input the built-in detector has
// seen: the answer for those is the last one, and a later prefix must be
// longer (a shorter one starts the detector over, as in Detect).
func (a *Autodetector) Drop(n int) (seen int) {
	s := a.s
	switch {
	case s == nil || s.d == nil:
	case !s.last && n <= s.fed:
		s.fed -= n
		return s.fed
	default:
		s.d.Reset()
		s.fed, s.last, s.nulEsc = 0, false, false
	}
	return 0
}

// Sure reports whether the answer of the last call to Detect rests on
// enough evidence to keep: it follows from structure (the zero bytes of
// UTF-16, ISO-2022-JP escapes), or it rests on at least
// [EnoughEvidence] non-ASCII bytes for the encoding answered (valid UTF-8
// included; for windows-1253 and ISO-8859-7, with the other out of the
// running; for a windows encoding, not counting the curly quotes, dashes
// and … that every windows encoding reads alike:
// [Detector.Evidence]), or the prefix was the whole input, or the answer is a
// caller's Config.Detector's (whose evidence sniff cannot weigh). No
// answer (false from Detect) is never sure. A reader that can look
// further goes on reading while the answer is not sure, and decides on
// the longest prefix it has.
func (a *Autodetector) Sure() bool { return a.s != nil && a.s.sure }

// CanBeSure reports whether Detect(prefix, false) may answer Sure. It
// reports false only when that answer could not be kept: the built-in
// detector's answer is sure from structure (UTF-16's zero bytes,
// ISO-2022-JP's escapes) or from [EnoughEvidence] non-ASCII bytes, never
// fewer than minEvidence (valid UTF-8 included), so a prefix with fewer
// and no NUL or ESC byte cannot decide. A reader that asks at growing
// prefixes (package decode's late autodetection) skips the guess there
// and asks Detect only where the decision can change: the bytes it skips
// are fed to the detector by the next Detect all the same, so its answers
// do not change. CanBeSure reads prefix up to its minEvidence-th non-ASCII
// byte, and all of it below that count; the bytes the built-in detector
// has been fed it does not read again (it counted them), so that after
// [Autodetector.Drop] they count too, as in Detect's answers.
func (a *Autodetector) CanBeSure(prefix []byte) bool {
	seen := 0 // non-ASCII bytes before prefix[from:]
	from := 0
	switch s := a.s; {
	case s == nil:
	case s.c.Off:
		return false
	case s.c.Detector != nil:
		return true
	case s.d != nil && !s.last && len(prefix) >= s.fed:
		// The detector has counted what it was fed.
		if s.nulEsc {
			return true
		}
		seen, from = int(min(s.d.NonASCII(), minEvidence)), s.fed
	}
	rest := prefix[from:]
	return seen+countHigh(rest, minEvidence-seen) >= minEvidence ||
		bytes.IndexByte(rest, 0) >= 0 || bytes.IndexByte(rest, 0x1B) >= 0
}

// minEvidence is the least of EnoughEvidence's numbers.
const minEvidence = 16

// EnoughEvidence returns the number of non-ASCII bytes from which a
// statistical guess of e by the built-in detector is kept by a reader
// that could look further ([Autodetector.Sure],
// [Autodetector.Provisional]); for a windows encoding the curly quotes,
// dashes and … that all of them read alike do not count
// ([Detector.Evidence]). Fewer, a few accented letters or CJK symbols,
// often fit a wrong encoding's statistics as well as the right one's.
//
// The numbers were chosen on the held-out corpus with
// detect/internal/eval -evidence, which measures how often a guess of
// each encoding is right after k non-ASCII bytes: each is the least k
// (never under 16) from which a guess of e is right as often as one made
// on the whole document, to half a point (99.5 % or more for most). A
// guess of windows-1253 or ISO-8859-7 needs 16 and the other out of the
// running as well ([Detector.Candidate]: disqualified by a byte it
// cannot decode, or pruned far behind): the two decode Greek letters
// alike and differ in a few bytes (Ά, the quotation marks), which may
// come late; no count of letters tells them apart, and with the rival in
// the running a guess of either is right 91.6 % of the time from 16
// non-ASCII bytes to 256, with it out 100 % (eval -evidence). Valid UTF-8
// needs 16 too, past the window (see [Autodetector.Provisional]): a few bytes of
// windows-874 Thai, say, can be valid UTF-8 by chance (on the held-out
// pages one Thai page in 60 was, in its first 256 held bytes). An
// encoding the table does not know needs 128.
func EnoughEvidence(e override.Encoding) int {
	switch e {
	case override.Windows1250:
		return 64
	case override.KOI8R:
		return 96
	case override.Windows1257:
		return 256
	case override.Windows1251, override.Windows1256:
		return 24
	case override.UTF8, override.Windows1252, override.Windows1253, override.ISO8859_7, override.Windows1254, override.Windows1255, override.Windows1258,
		override.Windows874, override.ISO8859_2, override.ISO8859_5, override.ISO8859_6,
		override.ISO8859_13, override.IBM866, override.KOI8U,
		override.ShiftJIS, override.EUCJP, override.EUCKR, override.GBK, override.GB18030, override.Big5:
		return 16
	}
	return 128
}

// countHigh counts the bytes 0x80-0xFF of p, stopping once there are
// limit.
func countHigh(p []byte, limit int) int {
	n, i := 0, 0
	for ; i+8 <= len(p) && n < limit; i += 8 {
		n += bits.OnesCount64(binary.LittleEndian.Uint64(p[i:]) & msb)
	}
	if n >= limit {
		return n
	}
	for ; i < len(p); i++ {
		if p[i] >= 0x80 {
			n++
		}
	}
	return n
}
