// Package detect guesses the legacy character encoding of unlabeled text
// from its bytes: the "autodetection" step of the WHATWG encoding sniffing
// algorithm (https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm),
// done, as browsers do, by frequency analysis.
//
// It answers only with encodings a browser detects: UTF-8, windows-1250 to
// windows-1258, windows-874, ISO-8859-2, -5, -6, -7, -8 and -13, KOI8-R,
// KOI8-U, IBM866, Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR, GBK, gb18030 and
// Big5, and UTF-16BE or UTF-16LE without a byte order mark only when the
// pattern of zero bytes leaves no doubt. A Detector with All set (the wide
// detector, for old collections) also answers ISO-8859-3, -4, -10, -14,
// -15, -16, macintosh and x-mac-cyrillic. It knows nothing of HTML: pairs of
// ASCII bytes never count, so markup, scripts and entities are ignored
// without a tokenizer.
//
// A [Detector] has three calls, as chardetng's does: [New] (or a zero
// Detector); [Detector.Feed] with the input in chunks of any size, the last
// one marked; and [Detector.Guess] with what the caller knows of the text's
// origin (a [Hint]), at any time and any number of times. The guess does
// not depend on how the input was chunked, and a multi-byte character cut
// off at the end of a prefix is not held against its encoding.
// [Detector.Reset] starts over. Package sniff runs the same detector as the
// autodetection step of its sniffing algorithm.
//
// The statistics it uses are generated from translated manual pages and
// gettext catalogs; see README.md for how, and for its measured accuracy.
package detect

import (
	"github.com/charsniff/charsniff/internal/autodetect"
	"github.com/charsniff/charsniff/override"
)

// Strength is the kind of evidence a guess rests on. It is not the
// sniffing algorithm's confidence (sniff.Confidence, tentative or certain):
// every guess of the detector is tentative in that sense.
type Strength uint8

const (
	// NoEvidence means the input gave no evidence (it is ASCII, or no
	// candidate decodes it without errors, or too little of it is
	// non-ASCII to tell encodings apart): the guess is the hint's
	// default encoding, or windows-1252.
	NoEvidence Strength = iota
	// Statistical means the guess won on character statistics.
	Statistical
	// Structural means the guess follows from structure alone: valid
	// UTF-8 with non-ASCII bytes, ISO-2022-JP escape sequences, or the
	// zero bytes of ASCII text in UTF-16.
	Structural
)

// String returns "none", "statistical" or "structural".
func (s Strength) String() string { return autodetect.Strength(s).String() }

// The detector's own Strength has the same values (TestStrengths), so
// that Guess converts it as it is.

// Detector guesses an encoding from bytes fed to it. The zero Detector is
// ready to be fed, as is one from [New]. A Detector is not safe for
// concurrent use, holds no pointers, and never allocates.
type Detector struct {
	// All widens the guesses from the encodings a browser detects to
	// those old collections also hold: ISO-8859-3, -4, -10, -14, -15, -16,
	// macintosh and x-mac-cyrillic (see README.md for which languages
	// each is scored for). Set it before the first Feed; Reset keeps it.
	// A browser never guesses these: leave it false to guess as one.
	All bool

	d autodetect.Detector
}

// New returns a Detector ready to be fed: new(Detector), for those who
// read chardetng's EncodingDetector::new.
func New() *Detector { return new(Detector) }

// Feed examines the next chunk of the input. The input is the
// concatenation of the chunks of all calls since New or Reset; how it is cut
// does not change the guess, and a chunk may be empty. last marks the end of
// the input, after p: a UTF-8 character cut off there then counts against
// UTF-8. To guess from a prefix of a longer input, never pass last; Guess
// may be called before the last chunk as well as after it.
//
// Feed reports whether the input so far holds a byte 0x80-0xFF; while it
// does not, the only possible guesses are ASCII-compatible defaults,
// ISO-2022-JP and UTF-16.
//
// Feed panics if it is called again after a call with last set, before
// Reset.
func (d *Detector) Feed(p []byte, last bool) bool {
	d.d.All = d.All
	return d.d.Feed(p, last)
}

// Guess returns the detector's guess for the bytes fed so far, favouring
// the encodings customary for hint, and how it reached it. The guess is
// always one of the Encoding Standard's encodings. With no evidence, or
// too little to beat it (a few non-ASCII bytes that the default decodes as
// well), the guess is the hint's default encoding, the one
// sniff.DefaultEncoding gives, with NoEvidence. A character cut off at the
// end of a prefix counts neither for nor against an encoding, except that
// when the start of a UTF-8 character is all the non-ASCII a prefix ends
// with, the guess is UTF-8, Statistical (chardetng's answer: the web's
// likeliest reading, which the rest of the input may overturn); ending the
// whole input, it is no evidence. Guess does not allocate and may be
// called any number of times.
func (d *Detector) Guess(hint Hint) (override.Encoding, Strength) {
	d.d.All = d.All
	e, s := d.d.Guess(autodetect.Hint(hint))
	return e, Strength(s)
}

// Reset forgets all bytes fed, as if d were new; it keeps d.All.
func (d *Detector) Reset() { d.d = autodetect.Detector{All: d.All} }
