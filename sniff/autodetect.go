package sniff

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"sync"

	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/override"
)

// autodetect runs the autodetection step of [Sniff] alone over b: o.Detector
// if set, else the built-in detector hinted by o.Locale and o.TLD (wide
// with o.DetectAll), with
// o.AtEOF saying whether b ends the input. It reports false when
// o.NoAutodetect is set or the detector found no evidence (or answered an
// encoding that is not valid).
func autodetect(b []byte, o *Options) (override.Encoding, bool) {
	if o.NoAutodetect {
		return override.Unknown, false
	}
	var enc override.Encoding
	var ok bool
	if o.Detector != nil {
		enc, ok = o.Detector.Detect(b)
	} else {
		enc, ok = builtinDetect(b, o.Locale, o.TLD, o.AtEOF, o.DetectAll)
	}
	if !ok || !enc.Valid() {
		return override.Unknown, false
	}
	return enc, true
}

// An Autodetector runs the autodetection step of [Sniff] alone (the
// Options' Detector, else the built-in detector hinted by Locale and TLD;
// nothing with NoAutodetect) over a prefix that grows, as a reader looking
// past the window sees it: package decode uses it to detect late, over
// bytes the window did not hold. Each call's prefix must extend the
// previous call's (the same bytes, and more or as many), and a call with
// atEOF must be the last. Its answers are those of the step for each
// prefix. The built-in detector is fed only the bytes it has not seen
// (its guess does not depend on how its input is cut), so asking at each
// doubling of a prefix costs about as much as asking once over the
// longest; a caller's Options.Detector is asked with the whole prefix each
// time. Call Reset before the first use and Release after the last. An
// Autodetector does not allocate.
type Autodetector struct {
	s *autoState // from autoStates between Reset and Release
}

// autoState is an Autodetector's state, pooled, so that an Autodetector
// is one word in the Reader that holds it and costs nothing until a
// sniffing reaches autodetection.
type autoState struct {
	// The Options the step reads (the rest of Options is the other
	// steps').
	detector    Detector
	locale, tld string
	off, all    bool // NoAutodetect, DetectAll

	d       *detect.Detector // the built-in detector, from the pool once needed
	fed     int              // bytes of the prefix fed to d
	last    bool             // d was fed the end of the input
	sure    bool             // the last Detect's answer is final (see Sure)
	guessed bool             // the last answer is d's statistical guess (see Provisional)
	nulEsc  bool             // d was fed a NUL or an ESC byte (see CanBeSure)
}

// autoStates pools the states of Autodetectors.
var autoStates = sync.Pool{New: func() any { return new(autoState) }}

// Reset makes a ready to detect over a new input with opts (nil means the
// zero Options).
func (a *Autodetector) Reset(opts *Options) {
	a.Release()
	if opts == nil {
		opts = &Options{}
	}
	a.s = autoStates.Get().(*autoState)
	*a.s = autoState{
		detector: opts.Detector, locale: opts.Locale, tld: opts.TLD,
		off: opts.NoAutodetect, all: opts.DetectAll,
	}
}

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

// Detect reports what the autodetection step of [Sniff] answers for prefix
// (false for no evidence), with atEOF saying whether prefix is the whole
// input (Options.AtEOF).
func (a *Autodetector) Detect(prefix []byte, atEOF bool) (override.Encoding, bool) {
	return a.detect(prefix, atEOF, false)
}

// step is the autodetection step of Sniff (Autodetector.Sniff) with o.
// Valid UTF-8 takes no state: its answer is never provisional, and
// weighing it for Sure would cost as much as the step.
func (a *Autodetector) step(prefix []byte, o *Options) (override.Encoding, bool) {
	if o.Detector != nil || o.NoAutodetect {
		a.Reset(o)
		return a.detect(prefix, o.AtEOF, false)
	}
	enc, ok, decided := quickDetect(prefix, o.AtEOF)
	if decided && ok {
		return enc, true
	}
	a.Reset(o) // kept for late autodetection past an ASCII window, too
	if decided {
		return override.Unknown, false
	}
	return a.detect(prefix, o.AtEOF, true)
}

// detect is Detect; quickDone reports that quickDetect did not decide
// prefix.
func (a *Autodetector) detect(prefix []byte, atEOF, quickDone bool) (override.Encoding, bool) {
	if a.s == nil {
		a.Reset(nil)
	}
	s := a.s
	s.sure, s.guessed = false, false
	if s.off {
		return override.Unknown, false
	}
	var enc override.Encoding
	var ok, sure bool
	switch {
	case s.detector != nil:
		enc, ok = s.detector.Detect(prefix)
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
			s.d = detectors.Get().(*detect.Detector)
			s.d.All = s.all
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
		var st detect.Strength
		enc, st = s.d.Guess(hintOf(s.locale, s.tld))
		ok = st > detect.NoEvidence
		sure = st == detect.Structural && enc != override.UTF8 ||
			s.d.Evidence(enc) >= int64(EnoughEvidence(enc)) && !s.d.Candidate(detect.Twin(enc))
		s.guessed = st == detect.Statistical
	}
	if !ok || !enc.Valid() {
		return override.Unknown, false
	}
	s.sure = sure || atEOF
	return enc, true
}

// Sniff runs [Sniff] over prefix with opts, with a as its autodetection
// step: when the algorithm reaches that step, it resets a with opts and
// asks it what Detect(prefix, opts.AtEOF) answers. The answer is Sniff's
// (TestProvisional). A reader that
// can look past prefix asks [Autodetector.Provisional] whether to, and
// goes on with Detect over longer prefixes of the same input: the
// built-in detector is fed only the bytes after prefix, so the window
// is not scored twice. A Sniff that does not reach the step, or whose
// step answers valid UTF-8 (never provisional), leaves a released, with
// nothing to go on from (Provisional false).
func (a *Autodetector) Sniff(prefix []byte, opts *Options) Result {
	a.Release()
	return sniff(prefix, opts, a)
}

// Provisional reports whether the last answer of Sniff or Detect is a
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
// bytes were all fed to it (a Detect or Sniff over a prefix at least n
// long). Otherwise, and for a caller's Options.Detector, the dropped
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
// and … that every windows encoding reads alike: detect's
// Detector.Evidence), or the prefix was the whole input, or the answer is a
// caller's Options.Detector's (whose evidence sniff cannot weigh). No
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
	case s.off:
		return false
	case s.detector != nil:
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
// dashes and … that all of them read alike do not count (detect's
// Detector.Evidence). Fewer, a few accented letters or CJK symbols,
// often fit a wrong encoding's statistics as well as the right one's.
//
// The numbers were chosen on the held-out corpus with
// detect/internal/eval -evidence, which measures how often a guess of
// each encoding is right after k non-ASCII bytes: each is the least k
// (never under 16) from which a guess of e is right as often as one made
// on the whole document, to half a point (99.5 % or more for most). A
// guess of windows-1253 or ISO-8859-7 needs 16 and the other out of the
// running as well (detect's Detector.Candidate: disqualified by a byte it
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
	const msb = 0x8080808080808080
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
