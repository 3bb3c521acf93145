package sniff

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"

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
	opts Options
	d    *detect.Detector // the built-in detector, from the pool once needed
	fed  int              // bytes of the prefix fed to d
	last bool             // d was fed the end of the input
	sure bool             // the last Detect's answer is final (see Sure)
}

// Reset makes a ready to detect over a new input with opts (nil means the
// zero Options).
func (a *Autodetector) Reset(opts *Options) {
	a.Release()
	a.opts = Options{}
	if opts != nil {
		a.opts = *opts
	}
	a.fed, a.last, a.sure = 0, false, false
}

// Release hands the built-in detector back to its pool. The Autodetector
// may be used again after Reset.
func (a *Autodetector) Release() {
	if a.d != nil {
		detectors.Put(a.d)
		a.d = nil
	}
}

// Detect reports what the autodetection step of [Sniff] answers for prefix
// (false for no evidence), with atEOF saying whether prefix is the whole
// input (Options.AtEOF).
func (a *Autodetector) Detect(prefix []byte, atEOF bool) (override.Encoding, bool) {
	o := &a.opts
	a.sure = false
	if o.NoAutodetect {
		return override.Unknown, false
	}
	var enc override.Encoding
	var ok, sure bool
	switch {
	case o.Detector != nil:
		enc, ok = o.Detector.Detect(prefix)
		sure = true // sniff cannot weigh a caller's evidence
	default:
		var decided bool
		if enc, ok, decided = quickDetect(prefix, atEOF); decided {
			// Valid UTF-8: sure once it is more than a chance
			// arrangement of a few legacy bytes.
			n := EnoughEvidence(enc)
			sure = ok && countHigh(prefix, n) >= n
			break
		}
		if a.d == nil {
			a.d = detectors.Get().(*detect.Detector)
			a.d.All = o.DetectAll
			a.d.Reset()
			a.fed = 0
		}
		if a.last || len(prefix) < a.fed {
			// Not a longer prefix of the same input: start over.
			a.d.Reset()
			a.fed, a.last = 0, false
		}
		a.d.Feed(prefix[a.fed:], atEOF)
		a.fed, a.last = len(prefix), atEOF
		var s detect.Strength
		enc, s = a.d.Guess(hintOf(o.Locale, o.TLD))
		ok = s > detect.NoEvidence
		sure = s == detect.Structural && enc != override.UTF8 || a.d.NonASCII() >= int64(EnoughEvidence(enc))
	}
	if !ok || !enc.Valid() {
		return override.Unknown, false
	}
	a.sure = sure || atEOF
	return enc, true
}

// Sure reports whether the answer of the last call to Detect rests on
// enough evidence to keep: it follows from structure (the zero bytes of
// UTF-16, ISO-2022-JP escapes), or it rests on at least
// [EnoughEvidence] non-ASCII bytes for the encoding answered (valid UTF-8
// included), or the prefix was the whole input, or the answer is a
// caller's Options.Detector's (whose evidence sniff cannot weigh). No
// answer (false from Detect) is never sure. A reader that can look
// further goes on reading while the answer is not sure, and decides on
// the longest prefix it has.
func (a *Autodetector) Sure() bool { return a.sure }

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
// byte, and all of it below that count.
func (a *Autodetector) CanBeSure(prefix []byte) bool {
	switch o := &a.opts; {
	case o.NoAutodetect:
		return false
	case o.Detector != nil:
		return true
	}
	return countHigh(prefix, minEvidence) >= minEvidence ||
		bytes.IndexByte(prefix, 0) >= 0 || bytes.IndexByte(prefix, 0x1B) >= 0
}

// minEvidence is the least of EnoughEvidence's numbers.
const minEvidence = 16

// EnoughEvidence returns the number of non-ASCII bytes from which a
// statistical guess of e by the built-in detector is kept by a reader
// that could look further ([Provisional], [Autodetector.Sure]). Fewer,
// a few accented letters or CJK symbols, often fit a wrong encoding's
// statistics as well as the right one's.
//
// The numbers were chosen on the held-out corpus with
// detect/internal/eval -evidence, which measures how often a guess of
// each encoding is right after k non-ASCII bytes: each is the least k
// (never under 16) from which a guess of e is right as often as one made
// on the whole document, to half a point (99.5 % or more for most). A
// guess of windows-1253 or ISO-8859-7 is never sure before the end: the
// two differ in a few letters (Ά), which may come late. Valid UTF-8
// needs 16 too, past the window (see Provisional): a few bytes of
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
	case override.Windows1253, override.ISO8859_7:
		return math.MaxInt
	case override.UTF8, override.Windows1252, override.Windows1254, override.Windows1255, override.Windows1258,
		override.Windows874, override.ISO8859_2, override.ISO8859_5, override.ISO8859_6,
		override.ISO8859_13, override.IBM866, override.KOI8U,
		override.ShiftJIS, override.EUCJP, override.EUCKR, override.GBK, override.GB18030, override.Big5:
		return 16
	}
	return 128
}

// Provisional reports whether res, the answer of [Sniff] for prefix with
// opts, is a guess of the built-in detector that rests on too little
// evidence: a statistical guess (not UTF-8, UTF-16 or ISO-2022-JP, which
// follow from structure) from fewer than [EnoughEvidence] non-ASCII bytes
// for the encoding guessed, with more input to come (opts.AtEOF unset). A
// reader that can look past prefix (package decode's look-ahead) then
// holds the text from the first non-ASCII byte on and detects again on
// more bytes before it hands any out; Sniff's answer is its first,
// tentative one. Valid UTF-8 in prefix is kept however little of it
// there is: a window that holds whole UTF-8 characters is UTF-8, and a
// stray byte later is decoded as U+FFFD, not a reason to read the page
// as windows-1252 (past the window, [Autodetector.Sure] asks for more).
// Provisional does not allocate.
func Provisional(prefix []byte, res Result, opts *Options) bool {
	if res.Source != SourceAutodetect || opts != nil && (opts.AtEOF || opts.Detector != nil) {
		return false
	}
	switch res.Encoding {
	case override.UTF8, override.UTF16BE, override.UTF16LE, override.ISO2022JP:
		return false
	}
	n := EnoughEvidence(res.Encoding)
	return countHigh(prefix, n) < n
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
